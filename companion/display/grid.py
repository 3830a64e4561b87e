"""The scorer's entry grid, one part for the three games: the keys a scorer touches to
say what happened (Kilo's card drawn, Les Cinq Rois' points and cards, 13 feuilles' value and
count). A game says which keys there are and what each one means; the grid lays them out to fill
its area, draws each one (its label big, its keyboard key or what it is worth under it), frames
the selected one, and greys a key that cannot be entered with the reason in a word or two;
touching a greyed key does the game's ``why`` action, which says the whole sentence.

Left to choose, the grid takes the number of columns that makes its cells largest; the games
give it the room for keys of 9 mm on the 7" screen (``kit.touch_size``; tests/display/test_grid.py), but
for Les Cinq Rois' card grid (56 cards and a joker a tap each: about 30 px a card there). A game
whose greyed keys are most of its keys (Kilo at ten players: 3 ranks of 13 can be drawn) sets
them aside in one line under the grid (``aside``), so the keys that can be entered take the room.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from companion.display.kit import touch_size
from companion.display.layout import Action, Control, Painter
from companion.display.theme import ACCENT, FG, MUTED, PANEL, PANEL_HI, Color

Rect = pygame.Rect


@dataclass(frozen=True, slots=True)
class Key:
    """One cell of an entry grid, as the game means it."""

    label: str  # big, in the cell: "7", "V", "10"
    action: Action  # what touching it does when it can be entered
    hint: str = ""  # under the label: its keyboard key, what it is worth
    reason: str | None = None  # why it cannot be entered, in a word or two ("dealt"); None: it can
    why: Action | None = None  # touching it when it cannot: the game says the whole sentence
    selected: bool = False  # the one entered so far, framed


Paint = Callable[[Painter, Rect, Key], None]


def columns(area: Rect, n: int, gap: int, aspect: float = 1.0, most: int | None = None) -> int:
    """How many columns give ``n`` cells the largest size in ``area``: the size of a cell is its
    height or its width over ``aspect`` (a cell ``aspect`` times wider than high reads best),
    whichever is less; on a tie, fewer rows. ``most`` caps the columns (a row of digits)."""
    best, best_size = 1, -1.0
    for cols in range(1, max(1, min(n, most or n)) + 1):
        rows = math.ceil(n / cols)
        w = (area.width - (cols - 1) * gap) / cols
        h = (area.height - (rows - 1) * gap) / rows
        size = min(w / aspect, h)
        if size > best_size + 0.5:
            best, best_size = cols, size
    return best


def cells(area: Rect, n: int, cols: int, gap: int, centre: bool = True) -> list[Rect]:
    """``n`` cells in rows of ``cols`` filling ``area``; a last row that is not full is centred
    under the others (or, not ``centre``, from the left: a keypad whose keys keep their
    places), its cells as wide as theirs."""
    if n <= 0:
        return []
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    w = (area.width - (cols - 1) * gap) // cols
    h = (area.height - (rows - 1) * gap) // rows
    out: list[Rect] = []
    for r in range(rows):
        count = min(cols, n - r * cols)
        # The whole width on a full row (the last cell takes the rounding), centred otherwise.
        x0 = area.x + ((cols - count) * (w + gap) // 2 if centre else 0)
        y = area.y + r * (h + gap) if r < rows - 1 else area.bottom - h
        for c in range(count):
            x = x0 + c * (w + gap)
            right = area.right if count == cols and c == cols - 1 else x + w
            out.append(Rect(x, y, right - x, h))
    return out


def draw_key(
    p: Painter,
    rect: Rect,
    key: Key,
    size: int,
    paint: Paint | None = None,
    color: Color = PANEL_HI,
) -> None:
    """One key: a button (label, then the hint or the reason), or the game's own drawing
    (``paint``: a card face) under a control that does the key's action, or its ``why``."""
    enabled = key.reason is None
    action = key.action if enabled else (key.why or key.action)
    if paint is not None:
        paint(p, rect, key)
        p.controls.append(Control(Rect(rect), action, True))
        return
    p.button(
        rect,
        key.label,
        action,
        enabled=enabled,
        selected=key.selected,
        color=ACCENT if key.selected else color,
        hint=(key.hint if enabled else key.reason) or None,
        size=size,
    )


def entry_grid(
    p: Painter,
    area: Rect,
    keys: Sequence[Key],
    size: int,
    *,
    cols: int | None = None,
    gap: int | None = None,
    aspect: float = 1.0,
    most: int | None = None,
    paint: Paint | None = None,
    color: Color = PANEL_HI,
    top: int | None = None,
    centre: bool = True,
) -> list[Rect]:
    """``keys`` laid out to fill ``area`` (``cols`` columns, or as many as make the cells
    largest) and drawn; returns the cells, in the keys' order. With ``top``, the labels grow
    with their cells from ``size`` up to ``top`` (three keys offered read bigger than
    thirteen)."""
    gap = p.px(5) if gap is None else gap
    if cols is None:
        cols = columns(area, len(keys), gap, aspect, most)
    rects = cells(area, len(keys), cols, gap, centre)
    if top is not None and rects:
        from companion.display.kit import size_for_height

        cell = rects[0]
        label_h = cell.height - max(p.line_height(p.font(20)), cell.height // 3)
        size = max(size, size_for_height(p, label_h, top, "A10"))
        size = max(10, min(size, _widest(p, keys, cell.width - 2 * p.px(6), size)))
    for rect, key in zip(rects, keys, strict=True):
        draw_key(p, rect, key, size, paint, color)
    return rects


def _widest(p: Painter, keys: Sequence[Key], width: int, size: int) -> int:
    """The largest size up to ``size`` at which every label fits ``width``."""
    while size > 10 and any(p.fonts.size(k.label, size)[0] > width for k in keys):
        size = int(size * 0.94)
    return size


def aside_height(p: Painter) -> int:
    """The height of the line of keys set aside: a touch target's."""
    return touch_size(p)


def aside(
    p: Painter,
    box: Rect,
    title: str,
    groups: Sequence[tuple[str, Sequence[Key]]],
    action: Action,
    size: int,
) -> None:
    """The keys that cannot be entered, set aside in one line so that they do not take the room
    of those that can: "Not in the pile: A 10 all out · 2 3 … K dealt", each group's labels
    then its reason. Touching the line does ``action`` (the game says why, in full); where each
    label can have a cell of its own at 9 mm, touching a label does that key's ``why``."""
    p.panel(box, None, PANEL, border=MUTED, width=max(1, p.px(2)))
    pad = p.px(10)
    inner = box.inflate(-2 * pad, 0)
    fonts = p.fonts
    least = touch_size(p)
    labels = [k for _, ks in groups for k in ks]
    sep = " \u00b7 "

    def widths(s: int, chips: bool) -> tuple[int, list[int]]:
        space = fonts.size(" ", s)[0]
        each = [fonts.size(k.label, s)[0] + space for k in labels]
        if chips:
            each = [max(least, w + space) for w in each]
        tags = sum(fonts.size(tag, s)[0] + space for tag, _ in groups)
        seps = fonts.size(sep, s)[0] * (len(groups) - 1)
        return fonts.size(title, s)[0] + 2 * space + tags + seps + sum(each), each

    # A cell a label (9 mm wide) where the whole line holds them at ``size``; else the labels
    # as text, as small as it takes (the line is read by whoever touches the screen), and the
    # line the one control.
    total, each = widths(size, True)
    chips = total <= inner.width
    floor = min(size, p.font(14))
    while not chips and size > floor and widths(size, False)[0] > inner.width:
        size = max(floor, int(size * 0.94))
    if not chips:
        total, each = widths(size, False)
    space = fonts.size(" ", size)[0]
    sep_w = fonts.size(sep, size)[0]
    x = inner.x
    shown = p.text(title, Rect(x, inner.y, inner.width, inner.height), size, FG, align="left", min_size=size)
    x = shown.right + 2 * space
    # Controls do not overlap: with cells for the labels, the title (and what is left at the
    # end of the line) says the whole; without, the whole line does.
    p.controls.append(
        Control(Rect(box.x, box.y, x - box.x, box.height) if chips else Rect(box), action, True)
    )
    i = 0
    for g, (tag, ks) in enumerate(groups):
        if g:
            p.text(sep, Rect(x, inner.y, sep_w, inner.height), size, MUTED, min_size=size)
            x += sep_w
        for k in ks:
            w = each[i]
            p.text(k.label, Rect(x, inner.y, w, inner.height), size, FG, min_size=size)
            if chips:
                p.controls.append(Control(Rect(x, box.y, w, box.height), k.why or k.action, True))
            x += w
            i += 1
        tag_w = fonts.size(tag, size)[0] + space
        room = max(1, min(tag_w, inner.right - x))
        p.text(tag, Rect(x, inner.y, room, inner.height), size, MUTED, align="left", min_size=size)
        x += tag_w
    if chips and box.right - x >= least:
        p.controls.append(Control(Rect(x, box.y, box.right - x, box.height), action, True))
