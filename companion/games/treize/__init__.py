"""13 feuilles (spec/rules.md section 3): the rules engine, the series helper and simulated players.

``rules.TreizeGame`` folds table-log events into the state of a game or an advanced match;
``series`` says what may be played on the cards of the trick; ``sim`` plays whole matches.
``game`` is its entry in the game registry.
"""
