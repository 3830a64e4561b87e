"""Kilo de merde: the slap game (spec/rules.md section 1)."""
