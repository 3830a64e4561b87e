"""The players' numbers on the table screen: the "stats" screen (a table, a row per player) and
the evening's running tally under the game-over screen. Generic: any game's records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from companion.display.blocks import not_applicable, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import FG, GOOD, MUTED, NEAR, PANEL_HI, SMALL
from companion.i18n import t

Rect = pygame.Rect
SHOWN = 10  # players on the stats screen, most games first


@dataclass(frozen=True)
class Tally:
    players: tuple[Any, ...]  # PlayerStats, most games first
    evening: tuple[Any, ...]  # PlayerStats of this evening's finished games, most wins first
    evening_games: int


def load_tally(journal: Any, now_ns: int | None = None) -> Tally | None:
    """The numbers from an open journal; None if it cannot be read (the screen then says so,
    the game goes on)."""
    from companion.table.stats import records

    try:
        games = records(journal, cache_dir=getattr(journal, "data_dir", None))
    except Exception:
        return None
    return tally_of(games, now_ns)


def tally_of(games: list[Any], now_ns: int | None = None) -> Tally:
    """The numbers of the journal's records (``stats.records``)."""
    from companion.table.stats import evening_start, player_stats

    everyone = player_stats(games)
    since = evening_start(games, now_ns)
    tonight = [g for g in games if g.created_ns >= since and g.finished and g.error is None]
    evening = player_stats(tonight)
    return Tally(
        players=tuple(sorted(everyone.values(), key=lambda s: (-s.games, s.player))[:SHOWN]),
        evening=tuple(sorted(evening.values(), key=lambda s: (-s.wins, _tiebreak(s), s.player))),
        evening_games=len(tonight),
    )


def _tiebreak(s: Any) -> int:
    """Among equal wins, the lower first: what the games' parts say (Kilo de merde's kilos)."""
    return sum(part.tiebreak for part in s.parts.values())


def _evening_text(s: Any, lang: str) -> str:
    """The player's figure in the band: a game's own (Kilo de merde's kilos), else the wins."""
    for part in s.parts.values():
        text = part.evening_text(s.wins, lang)
        if text is not None:
            return str(text)
    return t("scr.stats.evening_wins", lang, wins=s.wins)


@dataclass(frozen=True)
class Column:
    title: str
    weight: float
    values: tuple[str, ...]  # one a player
    bars: tuple[float, ...] | None = None  # 0..1 a player, or no bar
    color: tuple[int, int, int] = MUTED


def share(value: float, top: float) -> float:
    """``value``'s share of the column's largest, for its bar."""
    return 0.0 if top <= 0 else max(0.0, min(1.0, value / top))


def columns(tally: Tally, lang: str) -> list[Column]:
    """The numbers of the stats screen, a column each: games won for every game, then each
    game's own (``GameStats.tally_columns``: Kilo de merde's slaps, a dash for who never
    played it)."""
    from companion.table.registry import stats

    players = tally.players
    cols = [
        Column(
            t("scr.stats.wins", lang),
            1.2,
            tuple(t("scr.stats.won", lang, wins=s.wins, games=s.games) for s in players),
            tuple(share(s.wins, s.games) for s in players),
            GOOD,
        )
    ]
    # Every player has the same games' parts (table/stats.py's ``new_player``).
    for game in players[0].parts if players else ():
        cols += stats(game).tally_columns([s.parts[game] for s in players], lang)
    return cols


def draw_stats(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    """A table, a row per player (most games first): their name, then games won and each game's
    own columns, each number with a bar to compare it down the column. In portrait
    each row puts the name on a line of its own, the numbers under it."""
    lang = ui.lang
    tally: Tally | None = ui.tally
    if tally is None or not tally.players:
        not_applicable(p, area, t("scr.stats.none", lang))
        return
    players = tally.players
    names = tuple(s.player for s in players)
    cols = columns(tally, lang)
    stacked = p.scale.portrait
    gap = max(1, p.px(3))
    pad = p.px(8)
    name_w = 0 if stacked else int((area.width - 2 * pad) * (0.34 if len(cols) > 1 else 0.5))
    head_size = p.font(20)
    head_h = 2 * p.line_height(head_size) + p.px(4)
    values_x = area.x + pad + name_w
    values_w = area.right - pad - values_x
    boxes = split(Rect(values_x, area.y, values_w, head_h), [c.weight for c in cols], vertical=False, gap=pad)
    for col, box in zip(cols, boxes, strict=True):
        p.paragraph(col.title, box, head_size, MUTED, min_size=p.font(18))
    body = Rect(area.x, area.y + head_h + gap, area.width, area.height - head_h - gap)
    row_h = min(p.px(96 if stacked else 52), (body.height + gap) // len(players) - gap)
    name_h = (row_h - max(2, p.px(2)) * 2) // (2 if stacked else 1)
    name_box_w = (area.width - 2 * pad) if stacked else name_w - pad
    # One size for every name (a column of mixed sizes reads as mixed importance): the largest
    # at which the whole names fit, never below the name size (then a name is shortened).
    name_size = p.font(NEAR)
    while name_size > p.name_size() and any(
        p.fonts.size(n, name_size)[0] > name_box_w or p.fonts.size(n, name_size)[1] > name_h for n in names
    ):
        name_size -= 1
    for i, s in enumerate(players):
        row = Rect(body.x, body.y + i * (row_h + gap), body.width, row_h)
        p.panel(row, area)
        inner = row.inflate(-2 * pad, -max(2, p.px(2)))
        if stacked:
            name_box, line = split(inner, [1, 1], gap=0)
        else:
            name_box = Rect(inner.x, inner.y, name_w - pad, inner.height)
            line = Rect(values_x, inner.y, values_w, inner.height)
        drawn = p.name(s.player, names, name_box, name_size, FG)
        size = min(p.font(22), _size_of(p, drawn))  # never bigger than the name
        cells = split(line, [c.weight for c in cols], vertical=False, gap=pad)
        for col, cell in zip(cols, cells, strict=True):
            _value(p, cell, col.values[i], None if col.bars is None else col.bars[i], col.color, size)


def _size_of(p: Painter, rect: Rect) -> int:
    """The type size of the last text drawn (the name just drawn in ``rect``)."""
    rec = p.texts[-1] if p.texts else None
    return rec.size if rec is not None and rec.rect == rect else p.font(22)


def _value(
    p: Painter, cell: Rect, text: str, bar: float | None, color: tuple[int, int, int], size: int
) -> None:
    """A number, and under it a bar of its share of the column's largest."""
    bar_h = max(2, p.px(5))
    # The number and its bar as one block in the middle of the row.
    text_h = min(p.line_height(size), cell.height - bar_h - p.px(2))
    top = cell.y + (cell.height - text_h - p.px(2) - bar_h) // 2
    text_box = Rect(cell.x, top, cell.width, text_h)
    p.text(text, text_box, size, FG, align="left", role="small", min_size=min(size, p.font(18)))
    if bar is None:
        return
    track = Rect(cell.x, text_box.bottom + p.px(2), cell.width, bar_h)
    pygame.draw.rect(p.surface, PANEL_HI, track, border_radius=max(1, bar_h // 2))
    if bar > 0:
        filled = Rect(track.x, track.y, max(bar_h, int(track.width * bar)), bar_h)
        pygame.draw.rect(p.surface, color, filled, border_radius=max(1, bar_h // 2))


def draw_evening(p: Painter, ui: Ui, band: Rect) -> None:
    """The evening so far, in one band: each player's wins (or a game's own figure)."""
    tally: Tally | None = ui.tally
    if tally is None or not tally.evening:
        return
    lang = ui.lang
    p.panel(band)
    inner = band.inflate(-p.px(12), -p.px(6))
    title_w = inner.width // 5
    # The title no bigger than the names beside it: the players are what the band is about.
    size = min(p.font(SMALL), p.name_size())
    p.paragraph(
        t("scr.stats.evening", lang, n=tally.evening_games),
        Rect(inner.x, inner.y, title_w, inner.height),
        size,
        MUTED,
        min_size=min(size, p.font(18)),
    )
    rest = Rect(inner.x + title_w, inner.y, inner.width - title_w, inner.height)
    shown = tally.evening[: 3 if p.scale.portrait else 5]
    names = tuple(s.player for s in tally.evening)
    for cell, s in zip(split(rest, [1] * len(shown), vertical=False, gap=p.px(6)), shown, strict=True):
        top, bottom = split(cell, [1, 1])
        p.name(s.player, names, top, p.font(SMALL), FG)
        p.text(
            _evening_text(s, lang),
            bottom,
            min(p.font(20), size),
            MUTED,
            role="small",
            min_size=p.font(16),
        )
