"""13 feuilles: passes, tricks and the advanced match to 20 (spec/rules.md section 3)."""
