"""The evening page's sections as a game gives them (``EveningPart.sections``, ``PlayerPart.figures``
in ``table/stats_seam.py``): plain data, drawn by ``web/evening.py``, which knows how to draw a
table of figures, curves and bars and nothing of the game behind them. Apart from the seam so
that a listing that draws no evening (`companion stats`) does not make these classes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Figure:
    """One number of a page: its name (``data-figure``), its raw value (``data-value``, as
    ``companion stats --json`` gives it) and the text a reader sees."""

    figure: str
    value: Any
    text: str


@dataclass(frozen=True, slots=True)
class Spread:
    """Counts drawn as a row of small bars (a player's reaction times, bin by bin)."""

    figure: str
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FigureTable:
    """A table, a row per player: their name and colour, then a cell per head."""

    name: str  # the section's class on the page
    title: str  # catalogue keys, as every text below
    note: str
    heads: tuple[str, ...]  # the name's column first
    rows: tuple[tuple[str, tuple[Figure | Spread, ...]], ...]


@dataclass(frozen=True, slots=True)
class Curves:
    """Each player's running total, game after game, as lines."""

    name: str
    title: str
    note: str
    figure: str  # of a whole line (its points as the value)
    total_figure: str  # of the last point, in the legend
    games: int
    totals: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Bars:
    """One number a player, as horizontal bars, most first."""

    name: str
    title: str
    note: str
    figure: str
    rows: tuple[tuple[str, int], ...]


Section = FigureTable | Curves | Bars
