"""The score sheet, a part of the kit (docs/screen.md, "The kit"): Les Cinq Rois' rounds and
13 feuilles' games drawn the same way. A row a player in seating order (their place, the
places they moved in the last column, their seat mark and name in their seat colour), a column
a round or game (the figures at the cap height a score needs where the screen is read, the one
a player went out in or won green and underlined), the column to play framed with its label
whole, and the total at the far end of the row in far type, right-aligned (the digits are of
one width: typeface.py). Where the columns do not fit, the oldest are condensed into one that
adds them up ("3–8"); where the rows cannot hold a total in far type (the 7" screen), the
sheet becomes the kit's tiles, each player's last figures under the name, and the column to
play a framed cell after them (``tiles``).

A game gives a ``Sheet`` (what it counts, what it calls its columns) and draws what is its
own around it: Les Cinq Rois its headline and its entry button, 13 feuilles its race chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.display import kit
from companion.display.layout import Action, Control, Painter
from companion.display.theme import (
    ACCENT,
    BAD,
    DISABLED,
    FAR,
    FG,
    GOOD,
    MUTED,
    PANEL,
    seat_color,
)

Rect = pygame.Rect


@dataclass(frozen=True, slots=True)
class Column:
    """A round or a game played: its label ("8", "P3"), each seat's figure, and the seat that
    went out in it or won it (green, underlined), if any."""

    label: str
    scores: tuple[int, ...]
    marked: int | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """What a game's sheet shows (hashable: the drawn grid is copied while it is unchanged)."""

    players: tuple[str, ...]
    played: tuple[Column, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    unit: str  # beside a total on a tile: "pts"
    total_label: str  # the totals' header: "Total"
    moves: tuple[int, ...] = ()  # places gained (negative: lost) in the last column
    first: frozenset[int] = frozenset()  # the leaders (or winners): the colour of first place
    heavy: frozenset[int] = frozenset()  # at the target: framed red (BAD, the loser's colour)
    now: str | None = None  # the label of the column to play, framed; None when it is over
    later: tuple[str, ...] = field(default=())  # the labels still to come, greyed where they fit

    def moved(self, seat: int) -> int:
        return self.moves[seat] if seat < len(self.moves) else 0


def standings(sheet: Sheet) -> list[kit.Standing]:
    """The players in seating order as the kit's tiles show them."""
    ranked = bool(sheet.played)
    return [
        kit.Standing(
            s,
            who,
            sheet.places[s] if ranked else 1,
            sheet.totals[s],
            sheet.unit,
            moved=sheet.moved(s),
            winner=ranked and s in sheet.first,
            marked=s in sheet.heavy,
        )
        for s, who in enumerate(sheet.players)
    ]


# --- which form --------------------------------------------------------------------------------


def total_size(p: Painter, row_h: int, widest: str, width: int) -> int:
    """A total's type: far type at least, up to the nominal far type where the row holds it and
    ``widest`` takes at most ``width`` (the rounds keep their room)."""
    far = kit.far_size(p)
    size = kit.size_for_height(p, row_h, p.font(FAR), "0123")
    while size > far and p.fonts.size(widest, size)[0] > width:
        size = int(size * 0.94)
    return max(far, size)


def grid_fits(p: Painter, area: Rect, players: int) -> bool:
    """Whether a row a player holds a total in far type (on its figures' own height, with a
    pad above and under it): a TV does; the 7" screen does for a few players, not for a full
    table (its sheet is then the tiles)."""
    row_h = (area.height - header_height(p)) / max(1, players)
    return row_h >= p.fonts.size("0123", kit.far_size(p))[1] + 2 * _pad(p)


def header_height(p: Painter) -> int:
    return p.line_height(kit.read_size(p))


def _pad(p: Painter) -> int:
    return max(2, p.px(4))


# --- the grid ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Col:
    label: str
    scores: tuple[int, ...] | None  # None: to come
    marked: int | None
    width: int
    tone: tuple[int, int, int]  # the label's colour
    now: bool = False
    summed: bool = False  # the oldest added up: grey, as a figure of the past


def _columns(p: Painter, sheet: Sheet, room: int, cell: int, header: int) -> list[_Col]:
    """The columns shown in ``room`` pixels: every one played, else the newest that fit beside
    one adding up the oldest ("3–8"); then the column to play, its label whole (left out only
    where it would leave no column played); then those to come, while they fit."""
    pad = 3 * _pad(p)  # a figure's column: room to tell "6" "15" from "615"

    def width(label: str, figures: list[int]) -> int:
        w = max([p.fonts.size(str(x), cell)[0] for x in figures] + [p.fonts.size(label, header)[0]])
        return w + pad

    def played_in(room: int) -> list[_Col]:
        played = [
            _Col(c.label, c.scores, c.marked, width(c.label, list(c.scores)), MUTED) for c in sheet.played
        ]
        if sum(c.width for c in played) <= room:
            return played
        # Never all of them added up: that is the total.
        for keep in range(len(played) - 1, 0, -1):
            old = sheet.played[: len(played) - keep]
            sums = tuple(sum(c.scores[s] for c in old) for s in range(len(sheet.players)))
            label = f"{old[0].label}–{old[-1].label}" if len(old) > 1 else old[0].label
            shown = [
                _Col(label, sums, None, width(label, list(sums)), MUTED, summed=True),
                *played[len(played) - keep :],
            ]
            if sum(c.width for c in shown) <= room:
                return shown
        return played[-1:] if played and played[-1].width <= room else []

    now: list[_Col] = []
    if sheet.now is not None:
        w = max(width(sheet.now, []), width("", [88]))
        now = [_Col(sheet.now, None, None, w, ACCENT, now=True)]
    shown = played_in(room - sum(c.width for c in now))
    if now and sheet.played and not shown:
        now, shown = [], played_in(room)
    room -= sum(c.width for c in [*shown, *now])
    later = []
    for label in sheet.later:
        w = width(label, [88])
        if w > room:
            break
        later.append(_Col(label, None, None, w, DISABLED))
        room -= w
    return [*shown, *now, *later]


def _fit(
    p: Painter, sheet: Sheet, room: int, height: int, total: int, floor: int, read: int
) -> tuple[int, list[_Col]]:
    """The rounds' type and columns in ``room`` pixels beside the names: the largest type (from
    half again a score's least, never over a total) at which every column fits beside the
    names whole; else at which every column played fits beside the names shortened once; else
    the least type, the oldest columns added up."""
    least = kit.score_size(p)
    top = max(least, min(total * 3 // 4, least * 3 // 2, kit.size_for_height(p, height, total, "0123")))
    players = sheet.players
    whole = max(p.fonts.size(w, floor)[0] for w in players)
    short = max(p.fonts.size(kit.first_short_form(w, players), floor)[0] for w in players)
    sizes = []
    size = top
    while size > least:
        sizes.append(size)
        size = max(least, int(size * 0.94))
    sizes.append(least)
    every = len(sheet.played) + (sheet.now is not None)
    for names, want in ((whole, every + len(sheet.later)), (short, every)):
        for size in sizes:
            cols = _columns(p, sheet, room - names, size, read)
            if len(cols) >= want and not any(c.summed for c in cols):
                return size, cols
    return least, _columns(p, sheet, room - short, least, read)


def grid(p: Painter, area: Rect, sheet: Sheet, lang: str, act: Callable[[int], Action] | None = None) -> None:
    """The whole sheet, a row a player; drawn once and copied while it does not change."""
    p.layer(("kit.sheet", sheet, lang, act is None), area, lambda: _grid(p, area, sheet, lang, act))


def _grid(p: Painter, area: Rect, sheet: Sheet, lang: str, act: Callable[[int], Action] | None) -> None:
    n = len(sheet.players)
    pad = _pad(p)
    read = kit.read_size(p)
    head_h = header_height(p)
    gap = max(1, p.px(3))
    row_h = (area.height - head_h - gap * n) // max(1, n)
    ranked = bool(sheet.played)
    digits = max(len(str(x)) for x in sheet.totals)
    total = total_size(p, row_h - 2 * pad, "8" * digits, area.width // 6)
    # The totals set apart from the rounds by a rule (a gap alone reads "3 7 10" as one line).
    sep = p.px(12)
    total_w = max(p.fonts.size("8" * digits, total)[0], p.fonts.size(sheet.total_label, read)[0]) + 2 * pad
    total_w += sep
    floor = p.far_name_size()  # a name at 4 mm, and the place beside it
    mark_d = min(row_h - 2 * pad, p.px(40))
    place_w = max(p.fonts.size(kit.ordinal(k, lang), floor)[0] for k in range(1, n + 1)) if ranked else 0
    move_w = (
        p.fonts.size("9", read)[0] + p.fonts.cap(read) + 3 * pad
        if any(sheet.moved(s) for s in range(n))
        else 0
    )
    lead_w = place_w + move_w + mark_d + 4 * pad
    room = area.width - lead_w - total_w - 2 * pad
    cell, cols = _fit(p, sheet, room - 2 * pad, row_h - 2 * pad, total, floor, read)
    name_w = room - sum(c.width for c in cols)
    top = min(total * 3 // 4, kit.size_for_height(p, row_h - 2 * pad, total))
    size = kit.uniform_name_size(p, sheet.players, list(sheet.players), name_w, row_h - 2 * pad, top, floor)
    # One form of the names for every row: whole where they all fit, else each shortened once
    # (a sheet of "Marie-H." beside "Jean-François Lefèbvre-D" reads as two tables).
    name_box = name_w - pad
    if any(p.fonts.size(w, size)[0] > name_box for w in sheet.players):
        short = max(p.fonts.size(kit.first_short_form(w, sheet.players), size)[0] for w in sheet.players)
        name_box = min(name_box, short + 1)
    # The header: each column's label, the totals'.
    x0 = area.x + pad + lead_w + name_w
    xs = []
    x = x0
    for c in cols:
        xs.append(x)
        x += c.width
    total_x = area.right - pad - total_w
    for c, x in zip(cols, xs, strict=True):
        p.text(c.label, Rect(x, area.y, c.width, head_h), read, c.tone, role="small", min_size=read)
    p.text(
        sheet.total_label,
        Rect(total_x, area.y, total_w - pad, head_h),
        read,
        FG,
        align="right",
        role="small",
        min_size=read,
    )
    for s, who in enumerate(sheet.players):
        y = area.y + head_h + gap + s * (row_h + gap)
        row = Rect(area.x, y, area.width, row_h)
        first = ranked and s in sheet.first
        border = BAD if s in sheet.heavy else GOOD if first else None
        # One fill for every row: a name in its seat colour keeps 4.5:1 on it (not on PANEL_HI).
        p.panel(row, area, PANEL, border=border, width=max(1, p.px(2)))
        x = _lead(p, sheet, s, Rect(row.x + pad, y, place_w, row_h), move_w, floor, min(read, size), lang)
        p.seat_mark(s, (x + mark_d // 2, row.centery), int(mark_d * 0.42))
        x += mark_d + pad
        p.name(who, sheet.players, Rect(x, y, name_box, row_h), size, seat_color(s), min_size=floor)
        _scores(p, cols, xs, s, Rect(0, y, 0, row_h), cell)
        rule_x = total_x + sep // 2
        pygame.draw.line(p.surface, DISABLED, (rule_x, y + pad), (rule_x, y + row_h - pad), max(1, p.px(2)))
        p.text(
            str(sheet.totals[s]),
            Rect(total_x + sep, y, total_w - sep - pad, row_h),
            total,
            BAD if s in sheet.heavy else kit.ROLE["first"] if first else FG,
            align="right",
            role="far",
            kind="score",
            min_size=total,
            who=who,
        )
        if act is not None:
            p.controls.append(Control(Rect(row), act(s)))
    # The column to play, framed from its label down, the label whole inside the frame.
    for c, x in zip(cols, xs, strict=True):
        if c.now:
            frame = Rect(x - pad // 2, area.y, c.width, area.height)
            pygame.draw.rect(p.surface, ACCENT, frame, width=max(1, p.px(2)), border_radius=p.px(4))


def _lead(
    p: Painter, sheet: Sheet, s: int, place: Rect, move_w: int, floor: int, move_size: int, lang: str
) -> int:
    """A row's place (when the sheet ranks) and its move mark: where the seat's mark goes."""
    pad = _pad(p)
    x, y, row_h = place.x, place.y, place.height
    if sheet.played:
        rank = sheet.places[s]
        p.text(
            kit.ordinal(rank, lang),
            Rect(x, y, place.width, row_h),
            floor,
            kit.ROLE["first"] if rank == 1 else MUTED,
            align="left",
            kind="place",
            min_size=floor,
        )
        x += place.width + pad
    if move_w and sheet.moved(s):
        kit._move_mark(p, sheet.moved(s), Rect(x, y, move_w - pad, row_h), move_size)
    return x + move_w


def _scores(p: Painter, cols: list[_Col], xs: list[int], s: int, band: Rect, cell: int) -> None:
    """Seat ``s``'s score in each column that has one (``band``: the row's top and height)."""
    pad = _pad(p)
    y, row_h = band.y, band.height
    for c, cx in zip(cols, xs, strict=True):
        if c.scores is None:
            continue
        box = Rect(cx, y, c.width - pad, row_h)
        out = c.marked == s
        shown = p.text(
            str(c.scores[s]),
            box,
            cell,
            GOOD if out else MUTED if c.summed else FG,
            align="right",
            role="near",
            kind="score",
            min_size=cell,
        )
        if out:  # went out, won: green and underlined, as on the tiles (``kit.recent``)
            pygame.draw.line(
                p.surface, GOOD, (shown.x, shown.bottom), (shown.right, shown.bottom), max(1, p.px(2))
            )


# --- the tiles ---------------------------------------------------------------------------------


def tiles(
    p: Painter,
    area: Rect,
    sheet: Sheet,
    lang: str,
    now: Callable[[Rect], None] | None = None,
    act: Callable[[int], Action] | None = None,
    now_height: int | None = None,
) -> None:
    """The sheet where its rows cannot hold a total in far type (the 7" screen): the kit's
    tiles in seating order (place, name, total in far type, places moved), each player's last
    figures under the name (the ones they went out in or won green and underlined); in the cell
    after them, framed, the column to play (``now`` draws the game's words and buttons in it;
    where no cell is left beside the tiles, a band along the foot, ``now_height`` tall or a row
    of tiles)."""
    gap = p.px(6)
    n = len(sheet.players)
    cols = kit.columns(p, n + (now is not None))
    body = area
    cell = None
    if now is not None:
        n_rows = math.ceil((n + 1) / cols)
        from companion.display.blocks import grid as cells_of

        cells = cells_of(area, n_rows * cols, cols, gap)
        cell = cells[-1]
        if n % cols == 0:  # no cell left beside the tiles: the column to play gets a row
            h = cell.height if now_height is None else now_height
            cell = Rect(area.x, area.bottom - h, area.width, h)
            body = Rect(area.x, area.y, area.width, cell.top - gap - area.y)
    rows = standings(sheet)

    def recent(seat: int) -> tuple[tuple[str, bool], ...]:
        return tuple((str(c.scores[seat]), c.marked == seat) for c in sheet.played)

    kit.tiles(
        p,
        body,
        rows,
        sheet.players,
        lang,
        act=None if act is None else (lambda st: act(st.seat)),
        low=lambda st: kit.recent(recent(st.seat)),
        low_key=lambda st: ("kit.recent", recent(st.seat)),
        cols=cols,
    )
    if now is not None and cell is not None:
        pygame.draw.rect(p.under(cell), ACCENT, cell, width=max(1, p.px(2)))
        now(cell.inflate(-2 * p.px(3), -2 * p.px(5)))
