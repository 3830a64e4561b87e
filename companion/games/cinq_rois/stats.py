"""Les Cinq Rois in the players' statistics (``table/stats_seam.py``): games and wins alone, and
on the evening page the score sheet of each game of tonight, round by round."""

from __future__ import annotations

import companion.games.cinq_rois.strings  # noqa: F401  (the sheet's title joins the catalogue)
from companion.table.stats_seam import Sheet, SheetStats

STATS = SheetStats(Sheet("cinq", "eve.cinq"))
