"""Kilo de merde's screens, one module per screen (``screens.py`` is the game's side of the display seam)."""
