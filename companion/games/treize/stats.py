"""13 feuilles in the players' statistics (``table/stats_seam.py``): games and wins alone, and on
the evening page the score sheet of each match of tonight, game by game."""

from __future__ import annotations

from companion.i18n import register
from companion.table.stats_seam import Sheet, SheetStats

# Its one string here, not in strings.py: the listings import this module alone, and lightly.
register({"eve.treize": ("13 feuilles, partie par partie", "13 feuilles, game by game")})

STATS = SheetStats(Sheet("treize", "eve.treize"))
