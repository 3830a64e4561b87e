"""The typeface (companion/display/typeface.py): every character the screens write has a glyph,
no word is broken by its spacing, figures line up in columns."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import re
from functools import cache

import pygame
import pytest

from companion import games
from companion.display import typeface
from companion.display.layout import Fonts
from companion.i18n import CATALOGUE

SIZES = (20, 24, 28, 34, 48)  # nominal sizes the screens use most at 800x480 (u = 1)
INK = 96  # an anti-aliased fringe lighter than this reads as paper, not ink


@cache
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


@cache
def catalogue_words() -> frozenset[str]:
    for name in games.GAMES:
        games.load(name)  # each game adds its own strings
    words = set()
    for fr, en in CATALOGUE.values():
        for text in (fr, en):
            plain = re.sub(r"\{[^}]*\}", " ", text)
            for word in plain.split():
                word = word.strip(".,:;!?()«»\"'’…—·")
                if len(word) >= 2 and word.isalpha():
                    words.add(word)
    return frozenset(words)


def columns(surf: pygame.Surface) -> list[bool]:
    """For each column of a rendered text, whether it holds ink."""
    mask = pygame.mask.from_surface(surf, INK - 1)
    h = surf.get_height()
    return [any(mask.get_at((x, y)) for y in range(h)) for x in range(surf.get_width())]


def widest_gap(surf: pygame.Surface) -> int:
    ink = columns(surf)
    if True not in ink:
        return 0
    first, last = ink.index(True), len(ink) - 1 - ink[::-1].index(True)
    gap = best = 0
    for x in range(first, last + 1):
        gap = gap + 1 if not ink[x] else 0
        best = max(best, gap)
    return best


def test_every_character_of_the_catalogue_has_a_glyph() -> None:
    catalogue_words()
    font = fonts().font(40)
    missing_box = font.metrics("\U0010fff0")[0]
    chars = {c for fr, en in CATALOGUE.values() for c in fr + en}
    drawn = {c.translate(typeface.SUBSTITUTES) for c in chars if ord(c) > 126}
    missing = sorted(c for c in drawn if font.metrics(c)[0] == missing_box)
    assert not missing, [f"U+{ord(c):04X} {c}" for c in missing]


@pytest.mark.parametrize("size", SIZES)
def test_no_word_is_broken_by_its_spacing(size: int) -> None:
    """A gap inside a word stays well under the gap between two words: "pioche nt" and "cha
    sse" (pygame's default face at these sizes) read as two words."""
    f = fonts()
    space = widest_gap(f.render("n n", size, (255, 255, 255)))
    broken = {}
    for word in sorted(catalogue_words()):
        gap = widest_gap(f.render(word, size, (255, 255, 255)))
        if gap * 2 > space:
            broken[word] = f"{gap} px gap, a space is {space} px"
    assert not broken, f"{len(broken)} words: {dict(list(broken.items())[:20])}"


@pytest.mark.parametrize("size", SIZES)
def test_figures_line_up_in_columns(size: int) -> None:
    f = fonts()
    widths = {f.size(n, size)[0] for n in ("111", "888", "100", "704", "0,0")[:4]}
    assert len(widths) == 1, widths  # right-aligned, every column of digits falls in place
    assert f.size("-11", size)[0] == f.size("-88", size)[0]


def test_a_line_is_as_tall_as_its_ink() -> None:
    """The face's ascent and descent leave a third of the line empty: a text's box is the band
    from an accented capital's top to a descender's bottom, so it fits where it should."""
    f = fonts()
    for size in SIZES:
        h = f.size("Éloïse jpq", size)[1]
        cap = f.cap(size)
        assert cap == pytest.approx(size / 2, abs=1.01)  # nominal size = twice the cap height
        assert h <= 2 * cap, (size, h, cap)
        if size >= 48:  # small sizes are hinted to whole pixels: little to take off
            assert h < f.font(size).get_height() * 0.95, (size, h)
