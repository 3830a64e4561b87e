"""13 feuilles' screens, one module per screen (``screens.py`` is the game's side of the display seam)."""
