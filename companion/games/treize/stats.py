"""13 feuilles in the players' statistics (``table/stats_seam.py``): games and wins alone, and on
the evening page the score sheet of each match of tonight, game by game."""

from __future__ import annotations

import companion.games.treize.strings  # noqa: F401  (the sheet's title joins the catalogue)
from companion.table.stats_seam import Sheet, SheetStats

STATS = SheetStats(Sheet("treize", "eve.treize"))
