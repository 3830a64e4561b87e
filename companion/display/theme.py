"""Colours, seat marks and type sizes, all scaled from the 7" 800x480 screen.

Legibility rule (docs/screen.md): what a player reads from their seat (kilos, who lost, by how
much, who draws, the round) has a cap height of at least 1/300 of a 2 m viewing distance, 6.7 mm:
35 px on the 7" screen (5.25 px/mm). The default font's cap height is half its nominal size, so
that is size 70 at scale 1. Other text (explanations, hints, buttons) is read at arm's length and
keeps a cap height of at least 2.7 mm (14 px, size 28) on the 7" screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Color = tuple[int, int, int]

BG: Color = (16, 20, 24)
PANEL: Color = (34, 40, 48)
PANEL_HI: Color = (52, 60, 72)
FG: Color = (255, 255, 255)
MUTED: Color = (190, 198, 206)  # 11:1 against BG
DISABLED: Color = (120, 128, 136)
ACCENT: Color = (86, 180, 233)  # Okabe-Ito sky blue
GOOD: Color = (0, 158, 115)  # Okabe-Ito bluish green
BAD: Color = (213, 94, 0)  # Okabe-Ito vermillion
WARN: Color = (240, 228, 66)  # Okabe-Ito yellow
ON_LIGHT: Color = (0, 0, 0)

# Okabe-Ito (colour-blind safe), black swapped for light grey on the dark background; seats 9
# and 10 reuse two hues, told apart by their shape and number like every seat.
SEAT_COLORS: tuple[Color, ...] = (
    (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
    (213, 94, 0), (204, 121, 167), (221, 221, 221), (230, 159, 0), (86, 180, 233),
)
SHAPES: tuple[str, ...] = (
    "circle", "square", "triangle", "diamond", "down", "hexagon", "star", "cross", "ring",
    "frame",
)

# Nominal font sizes at scale 1 (800x480); the cap height is half of it.
FAR = 70
BIG = 48
NEAR = 34
SMALL = 28
FAR_CAP_MM = 2000 / 300
SEVEN_INCH_PX_PER_MM = 800 / 152.4


def seat_color(seat: int) -> Color:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def text_on(color: Color) -> Color:
    """Black or white, whichever reads better on ``color`` (relative luminance)."""
    r, g, b = (c / 255 for c in color)
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return ON_LIGHT if lum > 0.45 else FG


@dataclass(frozen=True, slots=True)
class Scale:
    """Sizes for one screen: ``u`` is 1 on the 800x480 reference, in either orientation."""

    width: int
    height: int
    u: float = field(init=False, repr=False, compare=False)  # worked out once: a frame asks often

    def __post_init__(self) -> None:
        u = (min(self.width / 480, self.height / 800) if self.portrait
             else min(self.width / 800, self.height / 480))
        object.__setattr__(self, "u", u)

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def px(self, value: float) -> int:
        return max(1, round(value * self.u))

    def font(self, nominal: int) -> int:
        return max(10, round(nominal * self.u))
