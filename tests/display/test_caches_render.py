"""The layout caches change no pixel: every screen of every game's samples, drawn with cold
caches (a new ``Fonts`` for each frame: every fit and paragraph worked out afresh) and again with
warm ones (the same ``Fonts`` for every frame, each drawn three times: the third is made of the
blocks ``Painter.layer`` copied), is the same byte for byte, with the same records.

The warm frames are drawn onto a surface still holding another picture, so the test also proves
that a frame paints every pixel (the background is filled only between the bars)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import functools
import importlib
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from companion.display import snapshot
from companion.display.layout import Fonts, Painter
from companion.display.screens import draw
from companion.display.snapshot import render, screens, ui_for, view_of
from companion.display.state import Ui
from companion.table.fold import replay

GAMES = {"kilo": "kilo", "cinq-rois": "cinq_rois", "treize": "treize"}
SIZES = ((1920, 1080), (800, 480))


def frames(game_name: str) -> Iterator[tuple[str, Any, Ui, str]]:
    """(label, view, ui, screen) for every screen of every sample of ``game_name``."""
    samples = importlib.import_module(f"companion.games.{GAMES[game_name]}.samples")
    for sample, make in samples.SAMPLES.items():
        game = replay(snapshot.sample_lines(make()))
        for screen in screens(game_name):
            for lang in ("fr", "en"):
                yield f"{sample}/{screen}/{lang}", view_of(game), ui_for(game, lang), screen
    if hasattr(samples, "entry_ui"):  # a hand half typed: the screen's own state
        for screen in ("entry", "lastturn"):
            view, ui = samples.entry_ui("fr", screen)
            yield f"entry_ui/{screen}/fr", view, ui, screen
    yield "no game/setup/fr", None, Ui(lang="fr"), "setup"


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def same_pixels(a: pygame.Surface, b: pygame.Surface) -> bool:
    """The two surfaces show the same picture: their RGB bytes are equal. Surfaces of one pixel
    format compare their memory first, a plain copy and memcmp: the RGB conversion of a 1920x1080
    frame costs several times that, and these tests compare thousands of frames. Memory that
    differs (the unused fourth byte of a pixel may) is judged on the RGB bytes all the same."""
    if a.get_size() != b.get_size():
        return False
    layout = (a.get_bytesize(), a.get_masks(), a.get_pitch())
    same_layout = layout == (b.get_bytesize(), b.get_masks(), b.get_pitch())
    # (Not palettes: one index may be two colours.)
    if same_layout and a.get_bytesize() > 1 and a.get_buffer().raw == b.get_buffer().raw:
        return True
    return _pixels(a) == _pixels(b)


def _records(painter: Any) -> list[tuple[object, ...]]:
    return [(r.text, tuple(r.rect), tuple(r.box), r.role, r.size, r.cap) for r in painter.texts]


@pytest.mark.parametrize("game_name", list(GAMES))
def test_warm_caches_draw_what_cold_caches_draw(game_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    warm = Fonts()
    cases = list(frames(game_name))
    assert len(cases) > 20
    for size in SIZES:
        stale = pygame.Surface(size)
        stale.fill((255, 0, 255))
        for label, view, ui, screen in cases:
            # Cold: the snapshot path with a fresh Fonts, nothing measured or laid out yet.
            monkeypatch.setattr(snapshot, "_FONTS", [Fonts()])
            cold = render(screen, view, size, ui.lang, ui)
            want: pygame.Surface = cold.surface  # type: ignore[assignment]
            # Warm: the same Fonts for every frame, each drawn three times (the second keeps a
            # copy of each block, the third is made of copies), each on a stale picture.
            for _ in range(3):
                stale.fill((255, 0, 255))
                painter = Painter(stale, warm)
                draw(painter, view, ui, screen)
                where = f"{game_name} {label} {size[0]}x{size[1]}"
                assert same_pixels(stale, want), where
                assert _records(painter) == _records(cold.painter), where
                assert painter.controls == cold.painter.controls, where  # type: ignore
                assert painter.boxes == cold.painter.boxes, where  # type: ignore
    stats = warm.stats()
    assert stats["fits"] > 0 and stats["paragraphs"] > 0
    assert warm.layer_bytes > 0  # the copied blocks were used


def test_layout_caches_are_bounded() -> None:
    """An evening shows thousands of texts: the layouts kept are capped like the measures."""
    pygame.font.init()
    fonts = Fonts()
    fonts.fits.cap = 50
    fonts.paragraphs.cap = 5
    painter = Painter(pygame.Surface((400, 300)), fonts)
    for i in range(300):
        painter.text(f"Joueur {i} : {i * 7} kg", pygame.Rect(0, 0, 120, 30), 40)
        painter.paragraph(
            f"Manche {i}, une phrase assez longue pour tenir sur plusieurs lignes",
            pygame.Rect(0, 0, 200, 120),
            30,
        )
    assert len(fonts.fits) == 50 and len(fonts.paragraphs) == 5
    # The most recent layouts are the ones kept, and a kept one is what the fit works out anew.
    key = ("Joueur 299 : 2093 kg", 120, 30, 40, max(10, int(40 * 0.55)))
    kept = fonts.fits.get(key)
    assert kept is not None and kept == painter._fit(*key)


def test_copied_blocks_are_capped_in_bytes() -> None:
    """A block is copied on its second drawing and the copies are capped in bytes: an evening of
    changing tiles does not grow memory."""
    pygame.font.init()
    fonts = Fonts()
    fonts.LAYER_BYTES = 400 * 300 * 4 * 3  # three full copies of this small screen
    surface = pygame.Surface((400, 300))
    rect = pygame.Rect(0, 0, 400, 300)
    for i in range(50):
        for _ in range(2):
            painter = Painter(surface, fonts)
            painter.layer(("block", i), rect, functools.partial(painter.text, f"{i} kg", rect, 40))
    assert 0 < fonts.layer_bytes <= fonts.LAYER_BYTES
    painter = Painter(surface, fonts)
    drawn: list[int] = []
    painter.layer(("block", 49), rect, lambda: drawn.append(1))
    assert drawn == [] and painter.texts[0].text == "49 kg"  # the newest kept, with its record
