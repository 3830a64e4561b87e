"""What the painter keeps between frames (issue 23's redraw figure) changes no pixel and stays
bounded: a panel copied is the panel pygame draws, on any background; a button copied is drawn
anew when its label, colour or the colour under its corners changes; every cache of ``Fonts`` is
capped, so a long evening does not grow memory."""

from __future__ import annotations

import dataclasses
import functools
import os

from companion.display.app_actions import Confirm

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame
import pytest

from companion.display import kit
from companion.display.layout import Fonts, Painter, Retained
from companion.display.theme import FG, GOOD, PANEL, PANEL_HI, Color

SIZE = (640, 360)


@pytest.fixture(autouse=True)
def _fonts_ready() -> None:
    pygame.font.init()


def _busy(surface: pygame.Surface) -> None:
    """A background that is not one colour: every pixel a panel leaves alone must show it."""
    w, h = surface.get_size()
    for x in range(0, w, 7):
        pygame.draw.line(surface, ((x * 5) % 256, (x * 3) % 256, 90), (x, 0), (w - x, h), 5)


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


CASES: list[tuple[tuple[int, int, int, int], Color, Color | None, int]] = [
    ((10, 10, 259, 152), PANEL, None, 0),
    ((30, 40, 259, 152), PANEL_HI, FG, 9),  # the acting tile's frame
    ((5, 200, 400, 20), PANEL, GOOD, 3),  # shorter than two corners
    ((300, 5, 12, 200), (255, 0, 255), FG, 2),  # the first key colour drawn: another key
    ((200, 100, 1, 1), PANEL, None, 0),
    ((100, 300, 37, 36), (0, 255, 0), (255, 0, 255), 4),  # both first key colours drawn
    ((20, 20, 600, 330), PANEL_HI, GOOD, 9),  # a big one: its rows alike kept as a strip
]


@pytest.mark.parametrize("border", [None, FG])
def test_a_big_panel_is_kept_as_its_corners_and_a_strip(border: Color | None) -> None:
    """A 1080p tile's shape is its corner rows and a strip of its rows alike (fill, border's
    sides), not every row: a screen of big panels stays in the cache (8 MB held seven)."""
    from companion.display.layout import PanelShape

    shape = PanelShape.draw(pygame.Surface(SIZE), (900, 560), PANEL, 11, border, 4)
    assert shape.bytes < 900 * 560 * 4 // 10 and shape.strip is not None


@pytest.mark.parametrize(("rect", "color", "border", "width"), CASES)
def test_a_panel_copied_is_the_panel_pygame_draws(
    rect: tuple[int, int, int, int], color: Color, border: Color | None, width: int
) -> None:
    fonts = Fonts()
    drawn = pygame.Surface(SIZE)
    _busy(drawn)
    painter = Painter(drawn, fonts)
    radius = painter.px(8)
    line = max(1, width or painter.px(3))
    pygame.draw.rect(drawn, color, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(drawn, border, rect, width=line, border_radius=radius)
    for _ in range(2):  # the first draws the shape and keeps it, the second copies it
        copied = pygame.Surface(SIZE)
        _busy(copied)
        Painter(copied, fonts).panel(pygame.Rect(rect), None, color, border=border, width=width)
        assert _pixels(copied) == _pixels(drawn)
    assert fonts.stats()["panels"] == 1


def test_panel_shapes_are_capped_in_bytes() -> None:
    fonts = Fonts()
    fonts.PANEL_BYTES = 200 * 100 * 4 * 3
    surface = pygame.Surface(SIZE)
    for i in range(60):
        Painter(surface, fonts).panel(pygame.Rect(0, 0, 100 + i, 100), None, PANEL)
    assert 0 < fonts.panel_bytes <= fonts.PANEL_BYTES
    assert fonts.stats()["panels"] < 60


def _button_frame(fonts: Fonts, under: Color, label: str, color: Color) -> tuple[bytes, Painter]:
    surface = pygame.Surface(SIZE)
    surface.fill(under)
    painter = Painter(surface, fonts)
    painter.button(pygame.Rect(40, 40, 300, 120), label, Confirm(), color=color, hint="Entrée")
    return _pixels(surface), painter


@pytest.mark.parametrize(
    ("under", "label", "color"),
    [
        ((0, 0, 0), "Valider", GOOD),  # the same: copied
        ((0, 0, 0), "Annuler", GOOD),  # another label
        ((0, 0, 0), "Valider", PANEL_HI),  # another colour
        ((200, 30, 30), "Valider", GOOD),  # another colour under its rounded corners
    ],
)
def test_a_button_copied_is_drawn_anew_when_it_changes(under: Color, label: str, color: Color) -> None:
    warm = Fonts()
    for _ in range(3):  # the third frame is made of the copy
        _button_frame(warm, (0, 0, 0), "Valider", GOOD)
    pixels, painter = _button_frame(warm, under, label, color)
    cold_pixels, cold = _button_frame(Fonts(), under, label, color)
    assert pixels == cold_pixels
    assert [r.text for r in painter.texts] == [r.text for r in cold.texts] == [label, "Entrée"]
    assert painter.controls == cold.controls


def test_a_button_over_two_colours_is_not_copied() -> None:
    """Its corners would keep whatever lay under them the first time."""
    fonts = Fonts()
    surface = pygame.Surface(SIZE)
    for _ in range(3):
        surface.fill((0, 0, 0))
        pygame.draw.rect(surface, (200, 30, 30), (0, 0, SIZE[0], 100))  # under its top corners
        Painter(surface, fonts).button(pygame.Rect(40, 40, 300, 120), "Valider", Confirm())
    assert fonts.layer_bytes == 0


def test_every_cache_of_fonts_is_bounded() -> None:
    """An evening draws thousands of different texts, sizes and blocks: each cache keeps at
    most its cap (an uncapped one grows here past it)."""
    fonts = Fonts(text_bytes=64 * 1024)
    fonts.RUN_BYTES = 64 * 1024
    fonts.MAX_FONTS = 6
    fonts.MAX_SIZES = 40
    fonts.LAYER_BYTES = 64 * 1024
    fonts.PANEL_BYTES = 64 * 1024
    fonts.fits.cap = fonts.paragraphs.cap = fonts.wraps.cap = fonts.seen_layers.cap = fonts.layouts.cap = 30
    surface = pygame.Surface(SIZE)
    for i in range(120):
        painter = Painter(surface, fonts)
        box = pygame.Rect(0, 0, 80 + i, 60)
        painter.text(f"Joueur {i} : {i * 7} kg", box, 20 + i % 12)
        painter.paragraph(f"Manche {i}, une phrase qui tient sur plusieurs lignes", box, 24)
        painter.panel(pygame.Rect(0, 100, 50 + i, 40), None, PANEL)
        kit.tile_layout(painter, pygame.Rect(0, 150, 200 + i, 90))
        for _ in range(2):
            painter.layer(("block", i), box, functools.partial(painter.text, str(i), box, 30))
    stats = fonts.stats()
    assert 0 < stats["text_bytes"] <= 64 * 1024 and stats["texts"] < 120
    assert stats["fonts"] <= 6 and stats["sizes"] <= 40
    assert stats["fits"] <= 30 and stats["paragraphs"] <= 30 and len(fonts.wraps) <= 30
    assert len(fonts.seen_layers) <= 30 and 0 < stats["layouts"] <= 30
    assert 0 < fonts.layer_bytes <= 64 * 1024
    assert 0 < stats["panel_bytes"] <= 64 * 1024 and stats["panels"] < 120
    assert 0 < stats["run_bytes"] <= 64 * 1024 and stats["runs"] < 120


@pytest.mark.parametrize("text", ["Manche 6/8", "Manche 8/6"])
def test_a_text_cached_is_drawn_anew_in_another_colour(text: str) -> None:
    """A text, and the pieces a line with figures is put together from (``Fonts._run``), is
    kept a colour and a size: another colour or size of the same words is drawn anew."""
    fonts = Fonts()
    box = pygame.Rect(10, 10, 400, 80)
    fonts.render("Manche 6/8", 40, FG)  # its pieces ("Manche ", "6", "/", "8") in FG at 40
    for color, size in ((FG, 40), (GOOD, 40), (FG, 44), (FG, 40)):
        warm = pygame.Surface(SIZE)
        Painter(warm, fonts).text(text, box, size, color)
        cold = pygame.Surface(SIZE)
        Painter(cold, Fonts()).text(text, box, size, color)
        assert _pixels(warm) == _pixels(cold)


def _block_frame(fonts: Fonts, before: str | None) -> bytes:
    """A frame: the background, maybe something drawn where the block goes, then the block (a
    line of text on the background, copied from its third frame on)."""
    surface = pygame.Surface(SIZE)
    surface.fill((255, 0, 255))  # the last frame's picture
    painter = Painter(surface, fonts)
    painter.ground((20, 20, 30), pygame.Rect(0, 0, *SIZE))
    block = pygame.Rect(20, 20, 400, 200)
    if before == "panel":
        painter.panel(pygame.Rect(40, 120, 300, 60), None, PANEL_HI)
    elif before == "raw":
        pygame.draw.rect(painter.surface, (200, 30, 30), (40, 120, 300, 60))
    painter.layer(
        ("block",),
        block,
        functools.partial(painter.text, "Manche 6/8", pygame.Rect(block.x, block.y, block.width, 50), 40),
    )
    return _pixels(surface)


@pytest.mark.parametrize("before", [None, "panel", "raw"])
def test_a_block_copied_over_the_background_paints_what_was_drawn_under_it(before: str | None) -> None:
    """Over the untouched background only the block's rows that are not background are
    copied; anything drawn where it goes first (by the painter or on its surface) is covered
    as a whole copy covers it."""
    warm, whole = Fonts(), Fonts()
    for _ in range(3):
        _block_frame(warm, None)
        _block_frame(whole, None)
    layer = next(iter(warm._layers.values()))
    assert layer.bands is not None and sum(b.height for b in layer.bands) < 200 // 2
    for key, kept in list(whole._layers.items()):
        whole._layers[key] = dataclasses.replace(kept, bands=None)  # copied whole
    assert _block_frame(warm, before) == _block_frame(whole, before)
    if before is None:  # and that is the block as drawn
        assert _block_frame(warm, before) == _block_frame(Fonts(), before)


MEASURED = [
    "",
    "Manche 6/8",
    "Élodie a 120 points",
    "1",
    "+8",
    "−3",
    "100",
    "10 000",
    "Çà, gjpqy !",
    "À\u202fqui le tour ?",
    "Jean-François → 11",
    "É",
    "Dédé 7",
    "x²",
    " 0 ",
]


@pytest.mark.parametrize("nominal", [8, 13, 20, 31, 47, 90, 160])
def test_a_text_measured_is_the_size_it_is_drawn_at(nominal: int) -> None:
    """``Fonts.size`` measures without rendering (a fit search tries many sizes and draws one):
    to the pixel the size of the surface ``render`` draws, for words, accents, descenders,
    figures in their cells, numbers alone (their own band) and the substituted characters."""
    from companion.display import typeface

    fonts = Fonts()
    for text in MEASURED:
        drawn = typeface.render(fonts.font(nominal), text, FG).get_size()
        assert typeface.measure(fonts.font(nominal), text) == drawn, text
        assert fonts.size(text, nominal) == drawn, text


def _blocks(fonts: Fonts, under: str | None, inside_raw: bool, memory: bool) -> bytes:
    """A frame with a block of two texts far apart; ``under``: a panel drawn where the block goes
    first; ``inside_raw``: the block also draws a bar on the surface itself, between its texts;
    ``memory``: drawn as the app draws (``Retained``, on a new surface: every block drawn)."""
    surface = pygame.Surface(SIZE)
    surface.fill((255, 0, 255))
    painter = Painter(surface, fonts, retained=Retained() if memory else None)
    painter.ground((20, 20, 30), pygame.Rect(0, 0, *SIZE))
    block = pygame.Rect(20, 20, 400, 300)
    if under == "panel":
        painter.panel(pygame.Rect(40, 130, 300, 60), None, PANEL_HI)

    def draw() -> None:
        painter.text("Manche 6/8", pygame.Rect(block.x, block.y, block.width, 50), 40)
        if inside_raw:
            pygame.draw.rect(painter.surface, (200, 30, 30), (60, 140, 200, 30))
        painter.text("Dédé 7", pygame.Rect(block.x, block.bottom - 50, block.width, 50), 40)

    painter.layer(("blocks", inside_raw), block, draw)
    painter.finish()
    return _pixels(surface)


@pytest.mark.parametrize("memory", [False, True])
@pytest.mark.parametrize(("first", "inside_raw"), [(None, False), (None, True), ("panel", False)])
def test_a_block_copied_in_bands_keeps_every_pixel_it_was_copied_with(
    first: str | None, inside_raw: bool, memory: bool
) -> None:
    """A block's bands (the rows copied over the background) are known from what the painter
    drew in it where that is all of it; where the block also drew on the surface itself they are
    read from its pixels; drawn over something else (a panel: its copy holds it), it is copied
    whole: a copy in bands is a whole copy, pixel for pixel."""
    banded, whole = Fonts(), Fonts()
    for fonts in (banded, whole):
        _blocks(fonts, None, inside_raw, memory)
        _blocks(fonts, first, inside_raw, memory)  # the second frame keeps the copy
    layer = next(iter(banded._layers.values()))
    assert (layer.bands is None) == (first == "panel")  # over a panel: copied whole
    for key, kept in list(whole._layers.items()):
        whole._layers[key] = dataclasses.replace(kept, bands=None)
    assert _blocks(banded, None, inside_raw, memory) == _blocks(whole, None, inside_raw, memory)


def _over_last(memory: Retained | None, surface: pygame.Surface, in_block: bool, first: bool) -> bytes:
    """Frame one: bars where the panel goes. Frame two: the panel (in a block, or alone) with a
    text, where the bars were: its rounded corners must show the background, not the bars."""
    painter = Painter(surface, Fonts(), retained=memory)
    painter.ground((20, 20, 30), pygame.Rect(0, 0, *SIZE))
    box = pygame.Rect(40, 40, 300, 160)
    if first:
        painter.bar(pygame.Rect(30, 30, 320, 30), (200, 30, 30))
        painter.bar(pygame.Rect(30, 180, 320, 30), (30, 200, 30))
    else:

        def draw() -> None:
            painter.panel(box, None, PANEL_HI, border=GOOD)
            painter.text("Manche 6/8", box.inflate(-20, -20), 40)

        if in_block:
            painter.layer(("panel block",), box, draw)
        else:
            draw()
    painter.finish()
    return _pixels(surface)


@pytest.mark.parametrize("in_block", [True, False])
def test_a_panel_over_the_last_frame_shows_the_background_at_its_corners(in_block: bool) -> None:
    """The retained frame fills the background only where a panel does not cover every pixel
    (its solid rows): drawn where the last frame had something else, the frame is the fresh
    one, pixel for pixel, rounded corners included."""
    surface, memory = pygame.Surface(SIZE), Retained()
    _over_last(memory, surface, in_block, first=True)
    kept = _over_last(memory, surface, in_block, first=False)
    assert kept == _over_last(None, pygame.Surface(SIZE), in_block, first=False)


@pytest.mark.parametrize("sizes", [[(800, 480), (1920, 1080)], [(1920, 1080), (1080, 1920), (800, 480)]])
def test_a_tile_laid_out_once_is_laid_out_again_on_another_screen(sizes: list[tuple[int, int]]) -> None:
    """A tile's layout is kept by its box and inputs (``kit.tile_layout``) and the screen's
    size: the same box on a bigger, a smaller or a turned screen (its scale, its type sizes)
    is laid out anew, as a cold cache lays it out."""
    fonts = Fonts()
    box = pygame.Rect(10, 10, 300, 120)
    for size in sizes:
        warm = kit.tile_layout(Painter(pygame.Surface(size), fonts), box, "pts", 3)
        assert warm == kit.tile_layout(Painter(pygame.Surface(size), Fonts()), box, "pts", 3)
