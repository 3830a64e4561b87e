"""Les Cinq Rois: a rummy with wild cards (spec/rules.md section 2)."""
