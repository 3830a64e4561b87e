"""Colours, seat marks and type sizes, all scaled from the 7" 800x480 screen.

Legibility rule (docs/screen.md): what a player reads from their seat (kilos, who lost, by how
much, who draws, the round) has a cap height of at least 1/300 of a 2 m viewing distance, 6.7 mm:
35 px on the 7" screen (5.25 px/mm). A nominal size is twice the cap height (typeface.py), so
that is size 70 at scale 1. Other text (explanations, hints, buttons) is read at arm's length and
keeps a cap height of at least 2.7 mm (14 px, size 28) on the 7" screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

Color = tuple[int, int, int]

BG: Color = (16, 20, 24)
PANEL: Color = (34, 40, 48)
PANEL_HI: Color = (52, 60, 72)
FG: Color = (255, 255, 255)
MUTED: Color = (190, 198, 206)  # 11:1 against BG
DISABLED: Color = (145, 152, 160)  # 5:1 on a panel: greyed, still legible
# Colours that mean something: what to do now, valid, the loser / who draws, a warning. None
# of them is a seat's colour (tests/display/test_audit_legibility.py holds the distance), so a red row always
# means "this one draws", never "seat 6".
ACCENT: Color = (130, 225, 255)  # light cyan: the next thing to do
GOOD: Color = (72, 214, 110)  # green: valid, confirmed
BAD: Color = (255, 105, 97)  # red: the loser, who draws, an error
WARN: Color = (255, 214, 10)  # yellow: a warning, a heavy card
ON_LIGHT: Color = (0, 0, 0)
MEANING: dict[str, Color] = {"accent": ACCENT, "good": GOOD, "bad": BAD, "warn": WARN}

# Ten seat colours, each at least 3:1 against the panels (a mark must be seen), far apart from
# one another and from the meaning colours above (CIE76 distance >= 25, see the legibility
# tests). Colour is never the only cue: each seat also has its own shape and its number, so a
# colour-blind player tells all ten apart by shape alone.
SEAT_COLORS: tuple[Color, ...] = (
    (230, 159, 0),
    (50, 150, 255),
    (204, 121, 167),
    (221, 221, 221),
    (190, 115, 255),
    (0, 190, 190),
    (255, 38, 201),
    (190, 240, 60),
    (200, 170, 120),
    (215, 130, 75),
)
SHAPES: tuple[str, ...] = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "down",
    "hexagon",
    "star",
    "cross",
    "ring",
    "frame",
)

# Nominal font sizes at scale 1 (800x480); the cap height is half of it.
FAR = 70
BIG = 48
NEAR = 34
READ = 38  # the least a player reads from their seat: cap 19 px, 3.5 mm on the 7" screen
SMALL = 28
FAR_CAP_MM = 2000 / 300
SEVEN_INCH_PX_PER_MM = 800 / 152.4


def seat_color(seat: int) -> Color:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


@lru_cache(maxsize=1024)  # a frame asks for the same few colours hundreds of times
def luminance(color: Color) -> float:
    """WCAG relative luminance."""
    r, g, b = (_linear(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio, 1 to 21; text needs 4.5, a mark or a bar 3."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@lru_cache(maxsize=1024)
def text_on(color: Color) -> Color:
    """Black or white, whichever contrasts more with ``color``."""
    return ON_LIGHT if contrast(ON_LIGHT, color) >= contrast(FG, color) else FG


def lab(color: Color) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in color)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def color_distance(a: Color, b: Color) -> float:
    """CIE76 distance: about 2.3 is just noticeable, 25 reads as another colour."""
    la, lb = lab(a), lab(b)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


@dataclass(frozen=True, slots=True)
class Scale:
    """Sizes for one screen: ``u`` is 1 on the 800x480 reference, in either orientation."""

    width: int
    height: int
    u: float = field(init=False, repr=False, compare=False)  # worked out once: a frame asks often

    def __post_init__(self) -> None:
        u = (
            min(self.width / 480, self.height / 800)
            if self.portrait
            else min(self.width / 800, self.height / 480)
        )
        object.__setattr__(self, "u", u)

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def px(self, value: float) -> int:
        return max(1, round(value * self.u))

    def font(self, nominal: int) -> int:
        return max(10, round(nominal * self.u))
