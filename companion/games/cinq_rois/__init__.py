"""Les Cinq Rois (spec/rules.md section 2): the rules engine, the exact arrangement solver and the
simulated players that deal and play a whole game (the pure core: ``events``, ``rules``,
``solver``, ``sim``); and at the edges, the table screen (``view``, ``entry``, ``screens``), the
demo (``demo``) and the sample logs of the docs (``samples``)."""
