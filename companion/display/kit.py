"""The kit of screen parts the three games compose (DESIGN habit 11): a player's tile, the tiles
of a table, the turn banner (and the slide every part naming whoever must act shares), the draw
lots, the game over, the change marks, the band of names and what happened to them, a seat's
mark and name, a chart's lines. A part is drawn the same way
and means the same thing on every screen of every game; a game passes what is its own (its
score, its unit, a note, a drawing of its own under the name).

One colour per role (docs/screen.md, "The kit"): the seat colour is the player (their mark, the
frame of the banner and of the tile of whoever must act); GOOD is first place and the winners;
BAD is who draws, the loser, the heaviest; ACCENT the next thing to do; WARN a warning only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

import pygame

from companion.display import motion as mo
from companion.display.app_actions import Again, NewGame
from companion.display.blocks import grid, lines_text, not_applicable, split
from companion.display.layout import Action, Control, Painter
from companion.display.names import chosen, name_forms
from companion.display.theme import (
    ACCENT,
    BAD,
    BIG,
    DISABLED,
    FAR,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    SMALL,
    Color,
    seat_color,
    text_on,
)
from companion.display.viewing import TOUCH_MM as TOUCH_MM
from companion.display.viewing import far_size as far_size
from companion.display.viewing import read_size as read_size
from companion.display.viewing import score_height as score_height
from companion.display.viewing import score_size as score_size
from companion.display.viewing import size_for_height as size_for_height
from companion.display.viewing import touch_size as touch_size
from companion.i18n import register, t

Rect = pygame.Rect

register(
    {
        "kit.turn": ("À {name}", "{name}’s turn"),  # playing, drawing or entering alike
        "kit.turn.short": ("À {name}", "{name}, go"),
    }
)

# What a role looks like, whatever the game (docs/screen.md lists the same table).
ROLE: dict[str, Color] = {"first": GOOD, "draws": BAD, "plain": FG, "quiet": MUTED, "up": GOOD, "down": MUTED}


def ordinal(n: int, lang: str) -> str:
    """A place: "1er", "2e" in French; "1st", "2nd", "3rd", "4th" in English."""
    if lang == "fr":
        return "1er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def change_text(change: int, unit: str = "") -> str:
    """A score's change as a mark: "+8", "−28" (a true minus sign), with its unit if any."""
    text = f"+{change}" if change > 0 else f"\u2212{-change}"
    return f"{text} {unit}" if unit else text


def recent(values: Sequence[tuple[str, bool]]) -> Low:
    """A tile's second line: the last rounds' figures (oldest first in ``values``), as many as
    fit, the most recent on the right; a marked one (went out, won the game) in GOOD and
    underlined."""

    def low(p: Painter, box: Rect, size: int) -> None:
        x = box.right
        sep = p.fonts.size(" ", size)[0] * 2
        for text, marked in reversed(values):
            w = p.fonts.size(text, size)[0]
            if x - w < box.x:
                break
            drawn = p.text(
                text, Rect(x - w, box.y, w, box.height), size, GOOD if marked else MUTED, min_size=size
            )
            if marked:
                # Through ``under`` (the painter's surface would make the frame drawn whole).
                line = max(1, p.px(2))
                under = p.under(Rect(drawn.x - 1, drawn.bottom - line, drawn.width + 3, 2 * line + 1))
                pygame.draw.line(under, GOOD, (drawn.x, drawn.bottom), (drawn.right, drawn.bottom), line)
            x -= w + sep

    return low


def seat_name(
    p: Painter,
    players: tuple[str, ...],
    s: int,
    box: Rect,
    size: int,
    color: tuple[int, int, int] = FG,
    mark: int | None = None,
    min_size: int | None = None,
) -> int:
    """The seat's mark (its colour, shape and number) then the player's name, in white by
    default: the mark carries the seat, the name reads on any panel. Returns the name's size
    (what else stands on the player's tile is no bigger)."""
    d = min(box.height, mark if mark is not None else p.px(32))
    p.seat_mark(s, (box.x + d // 2, box.centery), int(d * 0.42))
    p.name(
        players[s],
        players,
        Rect(box.x + d + p.px(6), box.y, box.width - d - p.px(6), box.height),
        size,
        color,
        min_size=min_size,
    )
    last = p.texts[-1] if p.texts else None
    return last.size if last is not None and last.kind == "name" else size


def first_short_form(who: str, players: tuple[str, ...]) -> str:
    """The form a row of names is sized for: the short one where the name has two."""
    forms = name_forms(tuple(players)).get(who, (who,))
    return forms[min(1, len(forms) - 1)]


# --- a player's tile ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """What a tile shows of one player: the game fills it from its view."""

    seat: int
    who: str
    place: int
    score: int | None  # the figure in far type; None: the game keeps no score here
    unit: str = ""  # beside the figure, smaller: "kg", "pts"
    note: str = ""  # under the name: a tag, a count
    note_role: str = "quiet"  # a key of ROLE
    change: int = 0  # the last change of the score: "+8" under the figure's row
    moved: int = 0  # places gained since the last round (negative: lost)
    acting: bool = False  # must act now: framed in the seat's colour
    winner: bool = False  # framed as first
    marked: bool = False  # framed as the one who draws / carries the most (BAD)
    dim: bool = False  # out of the trick in play


@dataclass(frozen=True, slots=True)
class TileLayout:
    pad: int
    inner: Rect
    figure_size: int
    unit_size: int
    number: Rect
    unit_w: int
    mark: Rect
    name_row: Rect
    low: Rect
    top: int  # the largest type the name row takes


def tile_layout(
    p: Painter, box: Rect, unit: str = "pts", digits: int = 3, share: float = 1 / 3, top: int | None = None
) -> TileLayout:
    """Where things go on a tile of ``box``'s size: the figure takes at most ``share`` of the
    width (never under far type, nor over ``top`` when given: a turn banner above the tiles
    stays the biggest text), the name the rest. Kept by its inputs and the screen's size (a
    frame lays out every tile twice; the frame after a score, every tile anew)."""
    key = ("kit.tile_layout", tuple(box), unit, digits, share, top, p.screen.size)
    kept = p.fonts.layouts.get(key)
    if isinstance(kept, TileLayout):
        return kept
    lay = _tile_layout(p, box, unit, digits, share, top)
    p.fonts.layouts.put(key, lay)
    return lay


def _tile_layout(p: Painter, box: Rect, unit: str, digits: int, share: float, top: int | None) -> TileLayout:
    pad = max(3, min(box.height // 12, p.px(8)))
    inner = box.inflate(-2 * pad, -2 * pad)
    fonts = p.fonts
    far = far_size(p)
    figure_size = max(far, size_for_height(p, inner.height, top or p.font(FAR) * 5 // 4, "0123"))
    unit_size = max(read_size(p), p.far_name_size() * 3 // 4)
    while True:
        number_w = fonts.size("8" * digits, figure_size)[0]
        unit_w = fonts.size(unit, unit_size)[0] + pad if unit else 0
        if number_w + unit_w <= inner.width * share or figure_size <= far:
            break
        figure_size = max(far, int(figure_size * 0.94))
    number = Rect(inner.right - number_w - unit_w, inner.top, number_w, inner.height)
    # The seat mark is a landmark, not a figure: a tile leaves its width to the name (on a
    # 7" tile beside "10th", the few pixels "A.-S. Ca." needs at 4 mm).
    mark_d = min(inner.height, p.px(44), max(p.px(20), inner.width // 13))
    mark = Rect(inner.left, inner.centery - mark_d // 2, mark_d, mark_d)
    mid = Rect(mark.right + pad, inner.top, number.left - mark.right - 2 * pad, inner.height)
    line = p.line_height(p.far_name_size())
    # A second line (the change, a note) only where it holds read type (3.5 mm) under the name.
    low_line = p.fonts.size("Ég", read_size(p))[1]
    two_lines = inner.height >= line + low_line
    top_h = max(line, inner.height - low_line - max(1, pad // 2)) if two_lines else inner.height
    name_row = Rect(mid.x, mid.y, mid.width, top_h)
    low = Rect(
        mid.x,
        name_row.bottom + max(1, pad // 2),
        mid.width,
        max(0, mid.bottom - name_row.bottom - max(1, pad // 2)),
    )
    top = min(p.font(FAR), size_for_height(p, top_h, p.font(FAR)))
    return TileLayout(pad, inner, figure_size, unit_size, number, unit_w, mark, name_row, low, top)


def _place_w(p: Painter, size: int, lang: str, most: int = 10) -> int:
    """The width of the widest place up to ``most`` ("10e", "4th")."""
    return max(p.fonts.size(ordinal(n, lang), size)[0] for n in range(1, most + 1))


def table_name_size(
    p: Painter, players: tuple[str, ...], who: Sequence[str], lay: TileLayout, lang: str, most: int = 10
) -> int:
    """One name size for every tile of a table (names in mixed sizes read as mixed importance):
    the largest at which each name shortened once fits beside its place, never under 4 mm."""
    floor = p.far_name_size()

    def largest(forms: list[str]) -> int:
        size = max(floor, lay.top)
        while size > floor:
            width = lay.name_row.width - _place_w(p, size, lang, most) - lay.pad
            if all(
                p.fonts.size(form, size)[0] <= width and p.fonts.size(form, size)[1] <= lay.name_row.height
                for form in forms
            ):
                break
            size = max(floor, int(size * 0.94))
        return size

    size = largest([first_short_form(w, players) for w in who])
    if size == floor:
        # Even shortened once the names want 4 mm: as big as their shortest forms allow, rather
        # than the floor on a tall tile ("A.-S. Ca." in big type beats it in small type).
        size = largest([name_forms(tuple(players)).get(w, (w,))[-1] for w in who])
    return size


Low = Callable[[Painter, Rect, int], None]


def tile(
    p: Painter,
    s: Standing,
    box: Rect,
    players: tuple[str, ...],
    lang: str,
    name_size: int | None = None,
    unit: str | None = None,
    low: Low | None = None,
    share: float = 1 / 3,
    digits: int = 3,
    most: int = 10,
    top: int | None = None,
    low_key: Hashable = None,
) -> None:
    """A player's tile: seat mark, place, name (4 mm at least), the score in far type and its
    unit; underneath, the change and the note, or the game's own ``low`` drawing. Whoever must
    act is framed in their seat colour; the winners in GOOD; who draws in BAD. Drawn once and
    copied while it does not change (``Painter.layer``), unless the game draws into it without
    saying what its drawing depends on (``low_key``)."""
    if low is not None and low_key is None:
        _tile(p, s, box, players, lang, name_size, unit, low, share, digits, most, top)
        return
    p.layer(
        ("kit.tile", s, tuple(players), lang, name_size, unit, share, digits, most, top, low_key),
        box,
        lambda: _tile(p, s, box, players, lang, name_size, unit, low, share, digits, most, top),
    )


def _tile(
    p: Painter,
    s: Standing,
    box: Rect,
    players: tuple[str, ...],
    lang: str,
    name_size: int | None,
    unit: str | None,
    low: Low | None,
    share: float,
    digits: int,
    most: int,
    top: int | None = None,
) -> None:
    lay = tile_layout(p, box, s.unit if unit is None else unit, digits, share, top)
    border = seat_color(s.seat) if s.acting else BAD if s.marked else GOOD if s.winner else None
    p.panel(box, None, PANEL_HI if s.acting else PANEL, border=border, width=p.px(4) if s.acting else 0)
    p.seat_mark(s.seat, lay.mark.center, int(lay.mark.width * 0.42))
    if name_size is None:
        name_size = table_name_size(p, players, (s.who,), lay, lang, most)
    place_w = _place_w(p, name_size, lang, most)
    row = lay.name_row
    # The widest place ("1er") would all but touch the name at large type ("1erDédé"): a gap of
    # a sixth of the type where the name's first short form still holds its size beside it.
    gap = lay.pad + name_size // 6
    if p.fonts.size(first_short_form(s.who, players), name_size)[0] > row.width - place_w - gap:
        gap = lay.pad
    place_b = Rect(row.x, row.y, place_w, row.height)
    name_b = Rect(place_b.right + gap, row.y, row.width - place_w - gap, row.height)
    p.text(
        ordinal(s.place, lang),
        place_b,
        name_size,
        ROLE["first"] if s.place == 1 else MUTED,
        align="left",
        kind="place",
        min_size=name_size,
    )
    p.name(
        s.who,
        players,
        name_b,
        name_size,
        DISABLED if s.dim else FG,
        align="left",
        min_size=min(name_size, p.far_name_size()),
    )
    drawn = next((r.size for r in reversed(p.texts) if r.kind == "name"), name_size)
    if s.score is not None:
        figure = p.text(
            str(s.score),
            lay.number,
            lay.figure_size,
            MUTED if s.dim else FG,
            align="right",
            role="far",
            kind="score",
            min_size=10,
            who=s.who,
        )
        if s.unit:
            unit_size = min(lay.unit_size, drawn)  # never bigger than the name
            p.text(
                s.unit,
                Rect(
                    lay.number.right + lay.pad // 2,
                    lay.inner.y,
                    lay.unit_w - lay.pad // 2,
                    max(1, min(lay.inner.bottom, figure.bottom + p.fonts.cap(unit_size) // 2) - lay.inner.y),
                ),
                unit_size,
                MUTED,
                align="left",
                valign="bottom",
                min_size=10,
            )
    low_b = lay.low
    if low_b.height < p.line_height(10) or low_b.width < 8:
        return
    small = min(drawn, max(read_size(p), size_for_height(p, low_b.height, drawn)))
    right = low_b.right
    if s.change:
        text = change_text(s.change)
        w = p.fonts.size(text, small)[0]
        p.text(
            text,
            Rect(right - w, low_b.y, w, low_b.height),
            small,
            ROLE["up"] if s.change < 0 else FG,
            align="right",
            min_size=small,
        )
        right -= w + lay.pad * 2
    if s.moved:
        right -= (
            _move_mark(p, s.moved, Rect(low_b.x, low_b.y, right - low_b.x, low_b.height), small) + lay.pad * 2
        )
    rest = Rect(low_b.x, low_b.y, max(0, right - low_b.x), low_b.height)
    if low is not None:
        low(p, rest, small)
    elif s.note and p.fonts.size(s.note, small)[0] <= rest.width:
        p.text(s.note, rest, small, ROLE.get(s.note_role, MUTED), align="left", min_size=small)


def _move_mark(p: Painter, moved: int, box: Rect, size: int) -> int:
    """A rank arrow and the places moved, right-aligned in ``box``; returns its width."""
    text = str(abs(moved))
    w_text = p.fonts.size(text, size)[0]
    r = max(3, p.fonts.cap(size) // 2)
    w = w_text + 2 * r + p.px(4)
    if w > box.width:
        return 0
    color = ROLE["up"] if moved > 0 else ROLE["down"]
    cx, cy = box.right - w + r, box.centery
    points = (
        [(cx - r, cy + r // 2), (cx + r, cy + r // 2), (cx, cy - r)]
        if moved > 0
        else [(cx - r, cy - r // 2), (cx + r, cy - r // 2), (cx, cy + r)]
    )
    pygame.draw.polygon(p.under(Rect(cx - r, cy - r, 2 * r + 1, 2 * r + 1)), color, points)
    p.text(
        text, Rect(box.right - w_text, box.y, w_text, box.height), size, color, align="right", min_size=size
    )
    return w


def columns(p: Painter, n: int) -> int:
    return 1 if p.scale.portrait or n <= 4 else 2


_TILES_FIT: dict[tuple[object, ...], tuple[float, int]] = {}


def _tiles_fit(
    p: Painter,
    cell: tuple[int, int],
    players: tuple[str, ...],
    who: tuple[str, ...],
    unit: str,
    digits: int,
    lang: str,
    most: int,
    top: int | None = None,
) -> tuple[float, int]:
    """The figure's share of a tile and the names' size, once per table and tile size (every
    frame of an animation asks): the figure gives up width until every name shortened once
    holds 4 mm beside it."""
    key = (p.screen.size, cell, players, chosen(players), who, unit, digits, lang, most, top)
    found = _TILES_FIT.get(key)
    if found is not None:
        return found
    box = Rect(0, 0, *cell)
    for share in (1 / 3, 1 / 4, 1 / 5):
        lay = tile_layout(p, box, unit, digits, share, top)
        size = table_name_size(p, players, who, lay, lang, most)
        width = lay.name_row.width - _place_w(p, size, lang, most) - lay.pad
        if all(p.fonts.size(first_short_form(w, players), size)[0] <= width for w in who):
            break
    if len(_TILES_FIT) > 512:
        _TILES_FIT.clear()
    _TILES_FIT[key] = (share, size)
    return share, size


def tiles(
    p: Painter,
    area: Rect,
    rows: Sequence[Standing],
    players: tuple[str, ...],
    lang: str,
    act: Callable[[Standing], Action] | None = None,
    low: Callable[[Standing], Low | None] | None = None,
    cols: int | None = None,
    top: int | None = None,
    low_key: Callable[[Standing], Hashable] | None = None,
    name_max: int | None = None,
) -> None:
    """The tiles of a table, column by column in the order given (seating order on a table
    screen, so that nobody hunts for their tile; by place on a game over)."""
    if not rows:
        return
    cols = cols or columns(p, len(rows))
    n_rows = math.ceil(len(rows) / cols)
    cells = grid(area, n_rows * cols, cols, p.px(6))
    # One size for every tile (the grid's rounding leaves a pixel more on some): one figure size.
    w, h = min(c.width for c in cells), min(c.height for c in cells)
    cells = [Rect(c.x, c.y, w, h) for c in cells]
    unit = max((s.unit for s in rows), key=len)
    who = [s.who for s in rows]
    # Room for the widest figure there is (the digits are of one width: typeface.py).
    digits = max((len(str(s.score)) for s in rows if s.score is not None), default=1)
    most = max(s.place for s in rows)
    share, size = _tiles_fit(p, cells[0].size, tuple(players), tuple(who), unit, digits, lang, most, top)
    if top is not None:
        # Under a turn banner of type ``top``: the figures are no bigger (``tile_layout``) and
        # the names a tenth smaller, so that whoever must act stays the biggest text.
        name_max = min(name_max or top, top * 9 // 10)
    if name_max is not None:
        size = max(p.far_name_size(), min(size, name_max))
    for i, s in enumerate(rows):
        col, row = divmod(i, n_rows)
        cell = cells[row * cols + col]
        target = cell
        if p.motion is not None:  # ranks changed: the tile glides from where it stood
            moving = p.motion.changed(("kit.tile", tuple(area), s.who), tuple(cell), mo.REORDER_S)
            if moving is not None:
                cell = mo.lerp_rect(moving[1], target, moving[0])
        tile(
            p,
            s,
            cell,
            players,
            lang,
            name_size=size,
            unit=unit,
            low=low(s) if low is not None else None,
            share=share,
            digits=digits,
            most=most,
            top=top,
            low_key=low_key(s) if low_key is not None else None,
        )
        if p.motion is not None and s.score is not None:
            score_float(p, ("kit.score", tuple(players), s.who), s.score, cell, unit, digits, share, top)
        if act is not None:  # touching a tile acts for that player
            p.controls.append(Control(Rect(target), act(s)))


def score_float(
    p: Painter,
    key: object,
    score: int,
    cell: Rect,
    unit: str,
    digits: int,
    share: float,
    top: int | None = None,
) -> None:
    """A score that changed since the last frame it was shown: "+N" rises from the figure and
    fades (``motion.FLOAT_S``), over the tile, in the change mark's colour."""
    if p.motion is None:
        return
    moving = p.motion.changed(key, score, mo.FLOAT_S)
    if moving is None or not isinstance(moving[1], int):
        return
    k, old = moving
    change = score - old
    if not change:
        return
    lay = tile_layout(p, cell, unit, digits, share, top)
    size = max(p.far_name_size(), lay.figure_size * 3 // 5)
    text = change_text(change)
    surf = p.fonts.render(text, size, ROLE["up"] if change < 0 else FG).copy()
    surf.set_alpha(int(255 * (1 - k * k)))
    rect = surf.get_rect(
        centerx=lay.number.centerx, bottom=lay.number.centery - int(k * lay.number.height * 0.6)
    )
    rect.clamp_ip(p.screen)
    p.under(rect).blit(surf, rect)
    p.motion.drawn.append((text, rect))


# --- a chart's lines ---------------------------------------------------------------------------


def seat_lines(
    p: Painter, series: Sequence[Sequence[int]], xy: Callable[[int, int], tuple[int, int]], width: int
) -> None:
    """Each player's figure after each round (or game) as a line in their seat colour from
    (0, 0), every point their seat's shape: the charts of Kilo's history and 13 feuilles'
    race. ``series[seat][i]`` is the figure after round i + 1; ``xy`` places a (round, figure)."""
    for seat, values in enumerate(series):
        points = [xy(0, 0)] + [xy(i + 1, value) for i, value in enumerate(values)]
        if len(points) > 1:
            pygame.draw.lines(p.surface, seat_color(seat), False, points, width)
        for pt in points[1:]:
            p.seat_mark(seat, pt, max(4, p.px(7)), number=False)


# --- the turn banner ---------------------------------------------------------------------------


def banner_height(p: Painter) -> int:
    return p.line_height(far_size(p)) + 2 * p.px(4)


def turn_banner(p: Painter, box: Rect, seat: int, who: str, players: tuple[str, ...], lang: str) -> Rect:
    """ "À Jean-Baptiste": whoever must act, in far type on a frame of their seat colour, the
    biggest text on the screen; the name in the longest of its forms that fits."""
    color = seat_color(seat)
    p.panel(box, None, PANEL, border=color, width=p.px(4))
    pad = p.px(8)
    inner = box.inflate(-2 * pad, -p.px(4))
    with slide_in(
        p, ("kit.banner", tuple(box)), (seat, who), inner, box.inflate(-p.px(4), -p.px(4))
    ) as moved:
        return _banner_text(p, moved, seat, who, players, lang)


@contextmanager
def slide_in(p: Painter, key: Hashable, value: Hashable, inner: Rect, frame: Rect) -> Iterator[Rect]:
    """Where to draw ``inner``'s content: when ``value`` (whoever must act) changed since the
    last frame shown under ``key``, the new content comes in from the right (``motion.SLIDE_S``),
    clipped to ``frame``; at rest, or without a clock, ``inner`` itself. Every part that names
    whoever must act next slides the same way (the turn banner, Kilo's loser band and card
    entry)."""
    sliding = None if p.motion is None else p.motion.changed(key, value, mo.SLIDE_S)
    if sliding is None:
        yield inner
        return
    # Through the painter's clip, which the retained frame knows of (drawn now, not deferred).
    shown = frame.clip(p.get_clip())
    first = len(p.texts)
    try:
        with p.clip(shown):
            yield inner.move(int((1 - sliding[0]) * inner.width * 0.6), 0)
    finally:
        # What the players see of a text on its way in is the part inside the frame: the
        # painter's record says so (the audit reads it: nothing leaves the screen).
        p.texts[first:] = [replace(r, rect=r.rect.clip(shown)) for r in p.texts[first:]]


def _banner_text(p: Painter, inner: Rect, seat: int, who: str, players: tuple[str, ...], lang: str) -> Rect:
    color = seat_color(seat)
    pad = p.px(8)
    mark_d = min(inner.height, p.px(48))
    p.seat_mark(seat, (inner.x + mark_d // 2, inner.centery), int(mark_d * 0.42))
    text_b = Rect(inner.x + mark_d + pad, inner.y, inner.width - mark_d - pad, inner.height)
    size = far_size(p)
    top = max(size, size_for_height(p, text_b.height, p.font(FAR) * 3 // 2))
    forms = name_forms(tuple(players)).get(who, (who,))
    for form in forms:
        text = t("kit.turn", lang, name=form)
        if p.fonts.size(text, size)[0] <= text_b.width:
            break
    cur = top
    while cur > size and p.fonts.size(text, cur)[0] > text_b.width:
        cur = max(size, int(cur * 0.94))
    return p.text(text, text_b, cur, color, align="left", role="far", kind="headline", min_size=size)


# --- draw lots ---------------------------------------------------------------------------------


def lots(
    p: Painter,
    area: Rect,
    players: tuple[str, ...],
    title: str,
    button: tuple[str, str, Action],
    seats: Callable[[Rect], None],
    skip: tuple[str, str, Action] | None = None,
) -> None:
    """Who deals or starts, drawn by lot, the same screen in every game: the question as the
    headline (far type, the colour of the next thing to do), every player's tile in seating
    order (``seats`` draws the game's own tiles into the box it is given), then the draw button
    (label, hint, the game's action) along the foot and, where the game lets the table do without
    the draw, the ``skip`` button beside it."""
    gap = p.px(8)
    head_h = p.px(70)
    head = Rect(area.x, area.y, area.width, head_h)
    lines_text(
        p,
        title,
        head,
        p.font(FAR),
        ACCENT,
        p.font(BIG) * 3 // 4,
        kind="headline",
        role="far",
        players=players,
    )
    foot_h = p.px(70) if not p.scale.portrait else p.px(110)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    seats(body)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    draw_b, skip_b = split(foot, [1.6, 1], vertical=p.scale.portrait, gap=gap) if skip else (foot, None)
    p.button(draw_b, button[0], button[2], color=ACCENT, hint=button[1], size=p.font(NEAR))
    if skip is not None and skip_b is not None:
        p.button(skip_b, skip[0], skip[2], hint=skip[1], size=p.font(SMALL))


# --- game over ---------------------------------------------------------------------------------


def game_over(
    p: Painter,
    area: Rect,
    rows: Sequence[Standing],
    players: tuple[str, ...],
    lang: str,
    *,
    finished: bool,
    title: str,
    not_yet: str,
    notes: Sequence[tuple[str, Color]] = (),
) -> None:
    """The standings by place, the winners first and framed, what they won with in one line
    above; before the end, the same as provisional standings under a line saying so; then play
    again / new game."""
    gap = p.px(8)
    if not finished:
        area = not_applicable(p, area, not_yet)
    else:
        line = p.line_height(read_size(p))
        lines = len(p.wrap_lines(title, area.width, read_size(p)))
        head = Rect(area.x, area.y, area.width, line * min(2, lines))
        lines_text(p, title, head, read_size(p), GOOD, min_size=read_size(p), players=players)
        area = Rect(area.x, head.bottom + gap, area.width, area.bottom - head.bottom - gap)
    note_h = p.line_height(read_size(p))
    for text, tone in notes:
        box = Rect(area.x, area.bottom - note_h, area.width, note_h)
        p.text(text, box, read_size(p), tone, min_size=read_size(p))
        area = Rect(area.x, area.y, area.width, area.height - note_h - gap)
    if finished:
        foot_h = p.px(56)
        foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
        again, new = split(foot, [1, 1], vertical=False, gap=gap)
        p.button(
            again,
            t("scr.over.again", lang),
            Again(),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(34),
        )
        p.button(new, t("scr.over.new", lang), NewGame(), hint="N", size=p.font(34))
        area = Rect(area.x, area.y, area.width, area.height - foot_h - gap)
    tiles(p, area, rows, players, lang)


# --- names at one size, who and what happened to them, a wide button ----------------------------


_NAME_SIZE: dict[tuple[int, int, bool], int] = {}


def name_floor(p: Painter, far: bool = False) -> int:
    """``Painter.name_size``, once per screen size; ``far``: ``Painter.far_name_size`` (4 mm),
    for the table's tiles, read from every seat."""
    key = (*p.screen.size, far)
    size = _NAME_SIZE.get(key)
    if size is None:
        size = _NAME_SIZE[key] = p.far_name_size() if far else p.name_size()
    return size


def _form_index(
    p: Painter, players: tuple[str, ...], who: str, size: int, width: int, height: int
) -> int | None:
    """The first (longest) of ``who``'s forms that fits ``width`` x ``height`` at ``size``."""
    for i, form in enumerate(name_forms(players).get(who, (who,))):
        w, h = p.fonts.size(form, size)
        if w <= width and h <= height:
            return i
    return None


def _band_fit(
    p: Painter,
    players: tuple[str, ...],
    who: list[tuple[str, int]],
    phrase: str,
    inner: Rect,
    size: int,
    stacked: bool,
    cols: int,
    gap: int,
) -> int | None:
    """How much the names are shortened (the sum of their form indexes) when the band's names
    and phrase are set at ``size``; None when they do not fit."""
    ph_w, ph_h = p.fonts.size(phrase, size)
    line_h = p.fonts.size("ÉÀgjpq", size)[1]
    if not stacked:
        room = inner.width - line_h - 2 * gap - ph_w
        if ph_h > inner.height or room <= 0:
            return None
        return _form_index(p, players, who[0][0], size, room, inner.height)
    if (math.ceil(len(who) / cols) + 1) * line_h > inner.height or ph_w > inner.width:
        return None
    cell_w = (inner.width - (cols - 1) * gap) // cols - line_h - gap
    total = 0
    for name, _ in who:
        i = _form_index(p, players, name, size, cell_w, line_h)
        if i is None:
            return None
        total += i
    return total


def _band_size(
    p: Painter,
    players: tuple[str, ...],
    who: list[tuple[str, int]],
    phrase: str,
    inner: Rect,
    top: int,
    stacked: bool,
    cols: int,
    gap: int,
) -> int:
    """The size for the band's names and phrase (from ``top`` down to the name size): the
    largest at which they fit, or a little smaller (down to 80 %) if the names then read longer,
    as a table prefers "Anne-Sophie Ca." a little smaller to "A.-S. Ca."; 0 when nothing fits."""
    floor = p.name_size()
    best: tuple[int, int] | None = None  # (size, shortening)
    s = top
    while s >= floor and (best is None or s >= best[0] * 0.8):
        fit = _band_fit(p, players, who, phrase, inner, s, stacked, cols, gap)
        if fit is not None and (best is None or fit < best[1]):
            best = (s, fit)
            if fit == 0:
                break
        if s == floor:
            break
        s = max(floor, int(s * 0.95))
    return best[0] if best else 0


def name_band(
    p: Painter,
    players: tuple[str, ...],
    who: list[tuple[str, int]],
    phrase: str | None,
    box: Rect,
    top: int,
    color: Color,
    border: Color | None,
) -> int:
    """Who (seat mark and name) and what happened to them, all at one size: a loser's name is
    as big as the headline, since the headline is their row. One name and its phrase share a
    line when they fit ("Chloé perd de 3,2 ms"), else the names stand above the phrase.
    Returns the size used."""
    p.panel(box, None, PANEL, border=border, width=p.px(4))
    pad = p.px(6)
    # Whoever it names changed (Kilo: who draws next): the names slide in as the turn banner's do.
    with slide_in(p, ("kit.band",), tuple(who), box.inflate(-2 * pad, -2 * pad), box) as inner:
        return _name_band(p, players, who, phrase, inner, top, color)


def _name_band(
    p: Painter,
    players: tuple[str, ...],
    who: list[tuple[str, int]],
    phrase: str | None,
    inner: Rect,
    top: int,
    color: Color,
) -> int:
    gap = p.px(10)
    if not who or phrase is None:
        text = phrase or ""
        shown = p.text(text, inner, top, color, role="far", kind="headline", min_size=p.name_size())
        return p.texts[-1].size if shown.width else top
    k = len(who)
    cols = 1 if k <= 2 else 2 if k <= 6 else 3
    inline = _band_size(p, players, who, phrase, inner, top, False, 1, gap) if k == 1 else 0
    stacked = _band_size(p, players, who, phrase, inner, top, True, cols, gap)
    if inline and inline >= stacked:
        s = inline
        line_h = p.fonts.size("ÉÀgjpq", s)[1]
        d = line_h
        ph_w = p.fonts.size(phrase, s)[0]
        name, seat = who[0]
        p.seat_mark(seat, (inner.x + d // 2, inner.centery), int(d * 0.42))
        name_box = Rect(inner.x + d + gap, inner.y, inner.width - d - 2 * gap - ph_w, inner.height)
        shown = p.name(name, players, name_box, s, FG, min_size=s, role="far")
        p.text(
            phrase,
            Rect(shown.right + gap, inner.y, inner.right - shown.right - gap, inner.height),
            s,
            color,
            align="left",
            role="far",
            kind="headline",
            min_size=s,
        )
        return s
    s = stacked or p.name_size()
    line_h = p.fonts.size("ÉÀgjpq", s)[1]
    rows = math.ceil(k / cols)
    used = (rows + 1) * line_h
    y0 = inner.y + max(0, (inner.height - used) // 2)
    names_area = Rect(inner.x, y0, inner.width, rows * line_h)
    cells = grid(names_area, k, cols, 0) if k > 1 else [names_area]
    d = line_h
    for cell, (name, seat) in zip(cells, who, strict=False):
        p.seat_mark(seat, (cell.x + d // 2, cell.centery), int(d * 0.42))
        p.name(
            name,
            players,
            Rect(cell.x + d + gap, cell.y, cell.width - d - gap, cell.height),
            s,
            FG,
            min_size=s,
            role="far",
        )
    p.text(
        phrase,
        Rect(inner.x, names_area.bottom, inner.width, min(line_h, inner.bottom - names_area.bottom)),
        s,
        color,
        align="left",
        role="far",
        kind="headline",
        min_size=s,
    )
    return s


def row_size(p: Painter, height: int, top: int) -> int:
    """The largest type up to ``top`` whose line fits ``height``."""
    s = top
    while s > 10 and p.fonts.size("ÉÀgjpq", s)[1] > height:
        s = int(s * 0.93)
    return s


def wide_button(
    p: Painter, rect: Rect, label: str, action: Action, color: Color, hint: str, size: int
) -> None:
    """A button whose label wraps onto several lines rather than shrink or be cut."""
    p.panel(rect, None, color)
    fg = text_on(color)
    pad = p.px(8)
    inner = rect.inflate(-2 * pad, -2 * pad)
    hint_h = p.line_height(p.font(20))
    main = Rect(inner.x, inner.y, inner.width, inner.height - hint_h)
    cur = size
    while True:
        lines = p.wrap_lines(label, main.width, cur)
        line_h = p.line_height(cur)
        fits = all(p.fonts.size(x, cur)[0] <= main.width for x in lines)
        if (fits and line_h * len(lines) <= main.height) or cur <= p.font(14):
            break
        cur = max(p.font(14), int(cur * 0.92))
    # More lines than the button holds at the least size: never drawn past it without a word.
    # The last line that fits takes the rest, which ``Painter.text`` cuts with "…" and records
    # as cut, so the legibility audit fails such a screen (as ``blocks.lines_text`` does).
    room = max(1, main.height // line_h)
    if room < len(lines):
        lines = [*lines[: room - 1], " ".join(lines[room - 1 :])]
    y = main.y + max(0, (main.height - line_h * len(lines)) // 2)
    for text in lines:
        p.text(text, Rect(main.x, y, main.width, line_h), cur, fg, min_size=cur)
        y += line_h
    p.text(hint, Rect(inner.x, main.bottom, inner.width, hint_h), p.font(20), fg, role="small")
    p.controls.append(Control(Rect(rect), action, True))


def uniform_name_size(
    p: Painter,
    players: tuple[str, ...],
    who: list[str],
    width: int,
    height: int,
    top: int,
    floor: int | None = None,
) -> int:
    """The largest size up to ``top`` at which each of ``who``'s names shortened once fits
    ``width`` x ``height`` (one size for a row of names), never below the name size."""
    floor = max(floor or 0, name_floor(p))
    key = (tuple(players), chosen(tuple(players)), tuple(who), width, height, top, floor)
    size = _UNIFORM.get(key)
    if size is not None:
        return size
    size = max(floor, top)
    spoken = [first_short_form(n, players) for n in who]
    while size > floor:
        if all(
            p.fonts.size(form, size)[0] <= width and p.fonts.size(form, size)[1] <= height for form in spoken
        ):
            break
        size = max(floor, int(size * 0.94))
    if len(_UNIFORM) > 1024:
        _UNIFORM.clear()
    _UNIFORM[key] = size
    return size


_UNIFORM: dict[tuple[object, ...], int] = {}
