"""How far a screen is read from, the cap heights a text needs there, and the type sizes that give
them: what the kit and the screens size their type by, and what ``audit`` checks a frame against."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from companion.display.theme import FAR, READ

if TYPE_CHECKING:
    from companion.display.layout import Painter

SCORE_MM = 2000 / 300  # scores, the turn banner, the headline: 1/300 of 2 m, 6.7 mm
NAME_MM = 4.0  # a player's name
READ_MM = 3.5  # anything else a player reads from their seat


def viewing(size: tuple[int, int]) -> tuple[str, float, float]:
    """(what screen, pixels per millimetre, reading distance in metres) for a screen size: the
    800x480 panel is the 7" touchscreen (152.4 mm wide) read from 2 m; any other size is taken
    to be a 40" 16:9 TV (886 mm wide) read from 3 m."""
    w, h = size
    if (min(w, h), max(w, h)) == (480, 800):
        return '7" touchscreen at 2 m', 800 / 152.4, 2.0
    return '40" TV at 3 m', max(w, h) / 885.6, 3.0


_SIZE_FOR_HEIGHT: dict[tuple[int, int, str], int] = {}


def size_for_height(p: Painter, height: int, top: int, sample: str = "Ég") -> int:
    """The largest type, up to ``top``, whose line fits ``height`` pixels."""
    key = (height, top, sample)
    size = _SIZE_FOR_HEIGHT.get(key)
    if size is None:
        size = max(10, top)
        while size > 10 and p.fonts.size(sample, size)[1] > height:
            size = max(10, int(size * 0.94))
        if len(_SIZE_FOR_HEIGHT) > 4096:
            _SIZE_FOR_HEIGHT.clear()
        _SIZE_FOR_HEIGHT[key] = size
    return size


_SIZES: dict[tuple[object, ...], int] = {}


def far_size(p: Painter) -> int:
    """The type of a score or a headline read from the far end of the table: a cap height of
    6.7 mm where the screen is read (35 px on the 7" screen), never under the 7" figure."""
    key = ("far_size", *p.screen.size)
    size = _SIZES.get(key)
    if size is not None:  # once per screen size: every part of every frame asks
        return size
    _what, per_mm, metres = viewing(p.screen.size)
    cap = max(SCORE_MM * metres / 2 * per_mm, SCORE_MM * viewing((800, 480))[1] * min(1.0, p.scale.u))
    size = p.font(FAR) * 3 // 4
    while p.fonts.cap(size) < cap - 0.5:
        size += 1
    _SIZES[key] = size
    return size


def read_size(p: Painter) -> int:
    """The least a player reads from their seat: 3.5 mm (18 px on the 7" screen)."""
    key = ("read_size", *p.screen.size)
    size = _SIZES.get(key)
    if size is not None:  # once per screen size: every part of every frame asks
        return size
    _what, per_mm, metres = viewing(p.screen.size)
    cap = max(READ_MM * metres / 2 * per_mm, READ_MM * viewing((800, 480))[1] * min(1.0, p.scale.u))
    size = p.font(READ) * 3 // 4
    while p.fonts.cap(size) < cap - 0.5:
        size += 1
    _SIZES[key] = size
    return size


def score_size(p: Painter) -> int:
    """The least type of a figure a player reads from their seat: the cap height a score needs
    where the screen is read (6.7 mm at 2 m; ``audit.caps``), once per screen size."""
    key = ("score_size", *p.screen.size)
    size = _SIZES.get(key)
    if size is None:
        _what, per_mm, metres = viewing(p.screen.size)
        need = SCORE_MM * metres / 2 * per_mm
        size = p.font(10)
        while p.fonts.cap(size) < need - 0.5:
            size += 1
        _SIZES[key] = size
    return size


def score_height(p: Painter) -> int:
    """The height of a line of figures at ``score_size``: a grid whose rows are lower cannot
    hold its scores, and is condensed."""
    return int(p.fonts.size("0123", score_size(p))[1])


TOUCH_MM = 9.0  # a control a finger hits without aiming (tests/display/test_viewing_touch.py)


def touch_size(p: Painter) -> int:
    """The least side of a control: 9 mm on the 7" screen (48 px at 5.25 px/mm), in proportion
    on any other screen."""
    return max(p.px(48), math.ceil(TOUCH_MM * viewing((800, 480))[1] * min(1.0, p.scale.u)))
