"""Les Cinq Rois in the players' statistics (``table/stats_seam.py``): games and wins alone, and
on the evening page the score sheet of each game of tonight, round by round."""

from __future__ import annotations

from companion.i18n import register
from companion.table.stats_seam import Sheet, SheetStats

# Its one string here, not in strings.py: the listings import this module alone, and lightly.
register({"eve.cinq": ("Les Cinq Rois, donne par donne", "Les Cinq Rois, round by round")})

STATS = SheetStats(Sheet("cinq", "eve.cinq"))
