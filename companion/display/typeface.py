"""The typeface of every screen: Atkinson Hyperlegible Bold (Braille Institute, SIL Open Font
License), installed from the package index (``fontpkg-atkinson-hyperlegible``), drawn so that a
nominal size keeps the meaning the screens were laid out with (cap height = half of it) and so
that figures line up in columns.

The face has proportional figures only (a "1" is 30 % narrower than a "0") and pygame cannot
switch on OpenType features, so digits are laid out here in cells of one width: a column of
scores, right-aligned, lines up to the pixel.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import pygame
from fontpkg_atkinson_hyperlegible import ROOT

FACE = str(ROOT / "files" / "AtkinsonHyperlegible-Bold.ttf")
LICENCE = str(ROOT / "LICENSE")
# Cap height / em of the face (668 / 1000 units): the screens' nominal sizes were set for a cap
# height of half the size (docs/screen.md), so a nominal size n is an em of n / 2 / 0.668.
CAP_PER_EM = 0.668
# Characters the face has no glyph for, drawn as the nearest it has. The no-break spaces of
# French typography keep their words together when a line wraps (layout) and are drawn as spaces.
SUBSTITUTES = str.maketrans({"\u202f": " ", "\u00a0": " ", "\u2192": "\u203a"})
# Accented capitals stand above the cap height, descenders below the baseline: a rendered line
# keeps exactly that band and not the face's much taller ascent and descent (its line gap would
# make every box a third taller than the ink needs).
_TOP = "ÉÀÔÎ"
_BOTTOM = "gjpqyÇ,"
_DIGIT = re.compile(r"(\d)")
# A number alone ("100", "+8", "-3") has no accent above it and nothing below the baseline: its
# line is the figures' own height, so a score fills its box (far type in a tile two thirds as
# tall as a line with accents would need).
FIGURES = frozenset("0123456789+-\u2212 ")
# So has a capital alone that stands on the baseline and stops at the figures' height (this face's
# metrics): a card's rank ("A", "V", "K") among "3"..."10" on a key is drawn as large as they are,
# not shrunk to make room for accents and descenders it does not have (Kilo's Ace among the figures).
FLAT_CAPITALS = frozenset("ABDEFHIJKLMNPRTVWXYZ")


def figure_line(text: str) -> bool:
    """Whether ``text`` is drawn in the figures' band: figures and signs only, or one flat capital."""
    return bool(text) and (FIGURES.issuperset(text) or (len(text) == 1 and text in FLAT_CAPITALS))


def em(nominal: int) -> int:
    return max(4, round(nominal / 2 / CAP_PER_EM))


@lru_cache(maxsize=256)
def _band(font: pygame.font.Font) -> tuple[int, int]:
    """(top, height) of the rows kept from a rendered line of ``font``."""
    top = max(m[3] for m in (font.metrics(c)[0] for c in _TOP) if m)
    bottom = min(m[2] for m in (font.metrics(c)[0] for c in _BOTTOM) if m)
    y0 = max(0, font.get_ascent() - top - 1)
    return y0, min(font.get_height() - y0, top - bottom + 2)


@lru_cache(maxsize=256)
def _figure_band(font: pygame.font.Font) -> tuple[int, int]:
    top = max(m[3] for m in (font.metrics(c)[0] for c in "0123456789") if m)
    y0 = max(0, font.get_ascent() - top - 1)
    return y0, min(font.get_height() - y0, top + 2)


@lru_cache(maxsize=256)
def digit_cell(font: pygame.font.Font) -> int:
    """The width of one figure: the mean advance of the ten, so that the narrow "1" does not
    stand alone in a wide cell and the wide "0" only reaches into its side bearings."""
    advances = [m[4] for m in (font.metrics(d)[0] for d in "0123456789") if m]
    return -(-sum(advances) // len(advances))


def line_height(font: pygame.font.Font) -> int:
    return _band(font)[1]


def measure(font: pygame.font.Font, text: str) -> tuple[int, int]:
    """The size of ``render(font, text, ...)``'s surface without drawing it: the layouts (a fit
    search, a wrap) try many sizes and lines and draw only one, and rendering a line at 1080p
    costs a hundred times its measure (``Font.size`` is SDL_ttf's own measure of what
    ``Font.render`` draws, to the pixel; tests/display/test_caches.py compares the two)."""
    text = text.translate(SUBSTITUTES)
    y0, height = _figure_band(font) if figure_line(text) else _band(font)
    if not any(c.isdigit() for c in text):
        return font.size(text)[0], min(height, font.get_height() - y0)
    cell = digit_cell(font)
    x = 0
    for run in _DIGIT.split(text):
        if run:
            x += cell if run.isdigit() else font.size(run)[0]
    return max(1, x), height


def render(
    font: pygame.font.Font,
    text: str,
    color: tuple[int, int, int],
    piece: Callable[[str], pygame.Surface] | None = None,
) -> pygame.Surface:
    """``text`` in ``color`` on a transparent surface as tall as the line's ink band, figures in
    fixed-width cells. ``piece``: a run of the line (a figure, the words between two) as
    ``font.render`` draws it in ``color``, from a cache (``Fonts``): a score's figures are the
    same ten glyphs from frame to frame."""
    text = text.translate(SUBSTITUTES)
    y0, height = _figure_band(font) if figure_line(text) else _band(font)
    if not any(c.isdigit() for c in text):
        surf = font.render(text, True, color)
        return surf.subsurface((0, y0, surf.get_width(), min(height, surf.get_height() - y0)))
    cell = digit_cell(font)
    pieces = []
    x = 0
    for run in _DIGIT.split(text):
        if not run:
            continue
        surf = piece(run) if piece is not None else font.render(run, True, color)
        if run.isdigit():
            pieces.append((surf, x + (cell - surf.get_width()) // 2))
            x += cell
        else:
            pieces.append((surf, x))
            x += surf.get_width()
    out = pygame.Surface((max(1, x), height), pygame.SRCALPHA)
    for surf, px in pieces:
        # The pieces do not overlap but for anti-aliased fringes: the larger alpha wins, as if
        # the line had been rendered in one piece.
        out.blit(surf, (px, -y0), special_flags=pygame.BLEND_RGBA_MAX)
    return out
