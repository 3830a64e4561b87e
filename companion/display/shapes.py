"""A seat's mark (its colour and its shape, its number inside) and the card suits, drawn."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from companion.display.caches import Fonts
from companion.display.theme import (
    SHAPES,
    Color,
)

ROOM = {
    "circle": 0.72,
    "square": 0.7,
    "triangle": 0.44,
    "down": 0.44,
    "diamond": 0.58,
    "hexagon": 0.78,
    "star": 0.5,
    "cross": 0.66,
    "ring": 0.62,
    "frame": 0.64,
}


def seat_number_size(fonts: Fonts, seat: int, radius: int) -> int:
    """The largest type whose number stays inside the seat's shape: the number is the key the
    player presses, so it is read from the seat, not guessed (at ten players on the 7" screen a
    fixed share of the mark left it a few pixels high)."""
    label = "10" if seat == 9 else str(seat + 1)
    half = ROOM[SHAPE_OF(seat)] * radius

    def fits(size: int) -> bool:
        return fonts.size(label, size)[0] <= 2 * half + 2 and fonts.cap(size) <= 2 * half

    # Type scales with its size: one measure at a reference size says about where the answer
    # is, and the search starts there. Searching up from 10 opened a font for every size it
    # tried (45 for a mark on the HDMI TV), and a first slap's frame paid for them
    # (tests/display/test_app_warm.py).
    ref = 100
    width, cap = fonts.size(label, ref)[0], fonts.cap(ref)
    size = max(10, int(min((2 * half + 2) * ref / max(1, width), 2 * half * ref / max(1, cap))))
    while size > 10 and not fits(size):
        size -= 1
    while fits(size + 1):
        size += 1
    return size


def _cross_around(surface: pygame.Surface, center: tuple[int, int], r: int, hole: int, color: Color) -> None:
    """The cross's four arms from ``hole`` out to ``r``: its number sits in the middle, where
    the arms would cover it."""
    cx, cy = center
    w = max(2, r // 4)
    start = min(hole + 1, r - 2)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if dx:
            x0 = cx + dx * start if dx > 0 else cx - r
            pygame.draw.rect(surface, color, (x0, cy - w, r - start, 2 * w))
        else:
            y0 = cy + dy * start if dy > 0 else cy - r
            pygame.draw.rect(surface, color, (cx - w, y0, 2 * w, r - start))


def _filled(seat: int) -> bool:
    return SHAPE_OF(seat) not in ("ring", "frame", "cross")


def SHAPE_OF(seat: int) -> str:
    return SHAPES[seat % len(SHAPES)]


def _poly(
    center: tuple[int, int], r: float, points: int, start: float, inner: float | None = None
) -> list[tuple[float, float]]:
    cx, cy = center
    out: list[tuple[float, float]] = []
    steps = points * (2 if inner else 1)
    for i in range(steps):
        radius = r if not inner or i % 2 == 0 else r * inner
        a = start + 2 * math.pi * i / steps
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return out


def draw_shape(surface: pygame.Surface, seat: int, center: tuple[int, int], r: int, color: Color) -> None:
    shape = SHAPE_OF(seat)
    cx, cy = center
    w = max(2, r // 4)
    if shape == "circle":
        pygame.draw.circle(surface, color, center, r)
    elif shape == "square":
        pygame.draw.rect(surface, color, (cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7))
    elif shape == "triangle":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 3, -math.pi / 2))
    elif shape == "down":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 3, math.pi / 2))
    elif shape == "diamond":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.1, 4, -math.pi / 2))
    elif shape == "hexagon":
        pygame.draw.polygon(surface, color, _poly(center, r, 6, 0))
    elif shape == "star":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 5, -math.pi / 2, 0.55))
    elif shape == "cross":
        pygame.draw.rect(surface, color, (cx - r, cy - w, 2 * r, 2 * w))
        pygame.draw.rect(surface, color, (cx - w, cy - r, 2 * w, 2 * r))
    elif shape == "ring":
        pygame.draw.circle(surface, color, center, r, width=w)
    else:
        pygame.draw.rect(surface, color, (cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7), width=w)


SMALL_SUIT = 16  # radius in pixels under which a suit is drawn four times larger, then scaled down


def draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], r: int, color: Color) -> None:
    """The four suit symbols as polygons: the typeface has no glyphs for them. A small one is
    drawn at four times its size and scaled down smoothly: drawn at its size, a spade's point
    and a club's three lobes were a few hard pixels each, the same blob."""
    if 0 < r < SMALL_SUIT:
        surface.blit(
            _small_suit(suit, r, (color[0], color[1], color[2])), (center[0] - r - 1, center[1] - r - 1)
        )
        return
    _draw_suit(surface, suit, center, r, color)


@functools.lru_cache(maxsize=128)
def _small_suit(suit: str, r: int, color: Color) -> pygame.Surface:
    """A small suit drawn large and scaled down, once per suit, size and colour (a card grid
    draws the same few every frame it is not copied)."""
    big = pygame.Surface((8 * r + 8, 8 * r + 8), pygame.SRCALPHA)
    _draw_suit(big, suit, (4 * r + 4, 4 * r + 4), 4 * r, color)
    return pygame.transform.smoothscale(big, (2 * r + 2, 2 * r + 2))


def _draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], r: int, color: Color) -> None:
    cx, cy = center
    if suit == "D":
        pygame.draw.polygon(
            surface, color, [(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)]
        )
    elif suit == "H":
        rr = r * 0.5
        pygame.draw.circle(surface, color, (cx - rr, cy - rr * 0.6), rr)
        pygame.draw.circle(surface, color, (cx + rr, cy - rr * 0.6), rr)
        pygame.draw.polygon(surface, color, [(cx - r, cy - rr * 0.4), (cx + r, cy - rr * 0.4), (cx, cy + r)])
    elif suit == "S":
        rr = r * 0.5
        pygame.draw.circle(surface, color, (cx - rr, cy + rr * 0.3), rr)
        pygame.draw.circle(surface, color, (cx + rr, cy + rr * 0.3), rr)
        pygame.draw.polygon(surface, color, [(cx - r, cy + rr * 0.1), (cx + r, cy + rr * 0.1), (cx, cy - r)])
        pygame.draw.polygon(surface, color, [(cx, cy), (cx - rr * 0.6, cy + r), (cx + rr * 0.6, cy + r)])
    elif suit == "C":
        # Three round lobes with notches between them (the spade is one pointed shape): at a
        # glance and at a few pixels, the notches are what tell the two apart.
        rr = r * 0.38
        for dx, dy in ((0, -r * 0.56), (-r * 0.56, r * 0.06), (r * 0.56, r * 0.06)):
            pygame.draw.circle(surface, color, (cx + dx, cy + dy), rr)
        pygame.draw.circle(surface, color, (cx, cy - r * 0.1), rr * 0.55)
        pygame.draw.polygon(
            surface, color, [(cx, cy - r * 0.1), (cx - r * 0.3, cy + r), (cx + r * 0.3, cy + r)]
        )
