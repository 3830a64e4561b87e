"""Les Cinq Rois (spec/rules.md section 2): the rules engine, the exact arrangement solver and the
simulated players that deal and play a whole game."""
