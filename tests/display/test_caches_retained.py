"""The retained frame (``layout.Retained``) changes no pixel: a long sequence of different states
of every screen of every game (screens in turn, the same state again, a language switch, the menu,
a message, motion frames while scores change, overlays, a resized window, a portrait one as a
turned screen lays out) drawn one after the other on one surface with the memory of the last
frame is, frame by frame, byte for byte what a fresh draw of the same state on a new surface is,
with the same records; and the rects it says changed hold every pixel that differs from the frame
before, so that ``pygame.display.update`` of them alone shows the frame."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import copy
import importlib
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from companion.display.layout import Fonts, Painter, Retained
from companion.display.screens import draw
from companion.display.snapshot import screens, ui_for, view_of
from companion.display.state import Ui
from companion.table.fold import replay
from companion.text import Text
from tests.display.test_caches_render import GAMES, frames, same_pixels

Step = tuple[str, Any, Ui, str, float | None]


def _motion(game_name: str) -> Iterator[Step]:
    """The busy sample's last events four at a time, with the clock running: banners slide, "+N"
    float, rows reorder, and frames in between with nothing but the clock changed."""
    samples = importlib.import_module(f"companion.games.{GAMES[game_name]}.samples")
    lines = samples.lines("busy")
    game = replay(lines[: max(1, len(lines) - 40)])
    ui = ui_for(game, "fr")
    now = 100.0
    last = view_of(game)
    changes = 0
    for k in range(max(2, len(lines) - 40), len(lines) + 1, 4 if len(lines) > 40 else 1):
        view = view_of(replay(lines[:k]))
        if view == last:
            continue
        last = view
        changes += 1
        if changes > 10:
            break
        for _ in range(3):
            ui.now = now
            yield f"motion {k}", view, ui, screens(game_name)[0], None
            now += 0.07


def _steps(game_name: str) -> Iterator[Step]:
    previous: Step | None = None
    for label, view, ui, screen in frames(game_name):
        step = (label, view, ui, screen, None)
        yield step
        if previous is not None and previous[2].lang == ui.lang:
            yield step  # the same state again: every block left as it is
        previous = step
        if label.endswith("/fr") and "busy" in label:
            menu = copy.deepcopy(ui)
            menu.menu = True
            yield f"{label} menu", view, menu, screen, None
            said = copy.deepcopy(ui)
            said.say(Text.pair(en="A message", fr="Un message"))
            yield f"{label} message", view, said, screen, None
            yield step
    yield from _motion(game_name)
    samples = importlib.import_module(f"companion.games.{GAMES[game_name]}.samples")
    game = replay(samples.lines("busy"))
    ui = ui_for(game, "fr")
    for phase in (0.1, 0.5, 0.9):
        yield f"overlay {phase}", view_of(game), ui, screens(game_name)[0], phase
    yield "after the overlay", view_of(game), ui, screens(game_name)[0], None


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def _records(painter: Painter) -> list[tuple[object, ...]]:
    return [(r.text, tuple(r.rect), tuple(r.box), r.role, r.size, r.cap) for r in painter.texts]


@pytest.mark.parametrize("game_name", list(GAMES))
def test_retained_frames_are_fresh_frames(game_name: str) -> None:
    pygame.font.init()
    fonts, fresh_fonts = Fonts(), Fonts()
    memory = Retained()
    big = pygame.Surface((1920, 1080))
    big.fill((255, 0, 255))
    # A window resized (a new display surface, the same memory), a portrait layout (a screen
    # turned 90 degrees), then the first surface again, which the memory no longer holds.
    surfaces = [big, pygame.Surface((800, 480)), pygame.Surface((720, 1280)), big]
    skipped = 0
    for surface in surfaces:
        size = surface.get_size()
        before = surface.copy()
        steps = list(_steps(game_name))
        if size != (1920, 1080):
            steps = steps[::3]  # every state once is enough at the other sizes
        for label, view, ui, screen, phase in steps:
            fresh_ui = copy.deepcopy(ui)
            painter = Painter(surface, fonts, retained=memory)
            draw(painter, view, ui, screen, phase)
            fresh = Painter(pygame.Surface(size), fresh_fonts)
            draw(fresh, view, fresh_ui, screen, phase)
            where = f"{game_name} {label} {size[0]}x{size[1]}"
            assert same_pixels(surface, fresh._surface), where
            assert _records(painter) == _records(fresh), where
            assert painter.controls == fresh.controls, where
            assert painter.boxes == fresh.boxes, where
            # The last frame with only the changed rects updated is this frame.
            if painter.changed is not None:
                for rect in painter.changed:
                    before.blit(surface, rect, rect)
                shown = pygame.Mask(size)
                for rect in painter.changed:
                    shown.draw(pygame.Mask(rect.size, fill=True), rect.topleft)
                skipped += size[0] * size[1] - shown.count()
                assert same_pixels(before, surface), f"{where}: changed rects"
            else:
                before.blit(surface, (0, 0))
    assert skipped > 0  # blocks were left as they were


def test_a_surface_drawn_on_outside_the_painter_is_forgotten() -> None:
    """Whatever draws on the surface but the painter calls ``forget``: the next frame is whole."""
    pygame.font.init()
    samples = importlib.import_module("companion.games.kilo.samples")
    game = replay(samples.lines("busy"))
    view, ui = view_of(game), ui_for(game, "fr")
    fonts, memory = Fonts(), Retained()
    surface = pygame.Surface((800, 480))
    for _ in range(3):
        draw(Painter(surface, fonts, retained=memory), view, ui, "table")
    want = _pixels(surface)
    surface.fill((255, 0, 255))
    memory.forget()
    painter = Painter(surface, fonts, retained=memory)
    draw(painter, view, ui, "table")
    assert painter.changed is None and _pixels(surface) == want


class _Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("rotate", [0, 90, 270])
def test_the_app_shows_every_frame_whole(
    journal: Any, screen: pygame.Surface, monkeypatch: pytest.MonkeyPatch, rotate: int
) -> None:
    """The real loop: each frame it lays out is a fresh draw of its state, and what it hands to
    the window (``display.update`` of the changed rects, or ``flip``) makes the window show that
    frame, through a slap, a drawn card's animation, a float, screens, the language, the menu, two
    layouts before one present, and a resized window."""
    import companion.display.frame as frame_module
    import companion.display.later as later_module
    from companion.display.app import App
    from companion.display.rotation import Rotated, turn
    from companion.display.screens import draw as screens_draw
    from companion.games.kilo.events import NewKiloGame
    from companion.table.live import Table
    from tests.app_helpers import press_key as key
    from tests.display.test_motion import keyboard

    shown = screen.copy()  # what the window shows

    def window() -> pygame.Surface:
        surface = pygame.display.get_surface()
        assert surface is not None
        return surface

    def flip() -> None:
        shown.blit(window(), (0, 0))

    def update(rects: list[pygame.Rect]) -> None:
        for rect in rects:
            shown.blit(window(), rect, rect)

    monkeypatch.setattr(pygame.display, "flip", flip)
    monkeypatch.setattr(pygame.display, "update", update)
    real_draw = screens_draw
    fresh_fonts = Fonts()
    partial: list[bool] = []

    def checking_draw(p: Painter, v: Any, ui: Ui, name: str | None = None, phase: float | None = None) -> str:
        before = copy.deepcopy(ui)
        drawn = real_draw(p, v, ui, name, phase)
        fresh = Painter(pygame.Surface(p.screen.size), fresh_fonts)
        real_draw(fresh, v, before, name, phase)
        assert _pixels(p._surface) == _pixels(fresh._surface), drawn
        assert _records(p) == _records(fresh) and p.controls == fresh.controls, drawn
        partial.append(p.changed is not None)
        return drawn

    monkeypatch.setattr(frame_module, "draw", checking_draw)  # the frames laid out
    monkeypatch.setattr(later_module, "draw", checking_draw)  # the warm-up's, off screen
    clock = _Clock()
    table = Table.start(
        journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=2), {"input": "keyboard"}
    )
    app = App(screen, journal, table, Ui(), source_name="keyboard", source_factory=keyboard, now=clock)
    app.turned = Rotated(rotate)  # a screen mounted turned: laid out on a canvas, turned onto it

    def shows_its_frame() -> None:
        assert _pixels(shown) == _pixels(app.surface)
        assert _pixels(app.surface) == _pixels(turn(app.turned.canvas(app.surface), rotate))

    app.step()
    shows_its_frame()
    for k in (pygame.K_1, pygame.K_2, pygame.K_3):
        key(app, k)
        shows_its_frame()
    for k in (pygame.K_RETURN, pygame.K_RETURN, pygame.K_9, pygame.K_RETURN):
        key(app, k)
        shows_its_frame()
    for dt in (0.2, 0.5, 2.0, 0.1, 0.1, 0.5):
        clock.t += dt  # the drawn card's animation, then the "+9" float
        app.step()
        shows_its_frame()
    for k in (pygame.K_p, pygame.K_t, pygame.K_l, pygame.K_h, pygame.K_l, pygame.K_TAB, pygame.K_TAB):
        key(app, k)
        shows_its_frame()
    app.ui.screen = "pile"
    app.dirty = True
    app._render()  # laid out twice before one present (the loop does on a refused commit)
    app.dirty = True
    app.step()
    shows_its_frame()
    pygame.display.set_mode((1024, 600), pygame.RESIZABLE)
    shown = window().copy()
    shown.fill((255, 0, 255))
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1024, 600), w=1024, h=600))
    app.step()
    shows_its_frame()
    key(app, pygame.K_p)
    shows_its_frame()
    assert app.surface.get_size() == (1024, 600)
    assert app.turned.canvas(app.surface).get_size() == ((600, 1024) if rotate else (1024, 600))
    assert any(partial)  # frames drawn over the last one, not whole


def test_a_part_left_alone_is_drawn_again_over_what_came_under_it() -> None:
    """A text that lay alone on the background last frame, drawn again at the same place after
    a new block under it, is drawn over that block, not left as it was."""
    pygame.font.init()
    fonts, memory = Fonts(), Retained()
    surface = pygame.Surface((400, 300))
    where = pygame.Rect(100, 100, 200, 60)

    def frame(block: bool, painter: Painter) -> Painter:
        painter.ground((0, 0, 0), painter.screen)
        if block:
            under = where.inflate(40, 40)
            painter.layer(("block",), under, lambda: painter.under(under).fill((0, 0, 200), under))
        painter.text("12 kg", where, 40)
        painter.finish()
        return painter

    for block in (False, False, True, True, False):
        frame(block, Painter(surface, fonts, retained=memory))
        fresh = pygame.Surface(surface.get_size())
        frame(block, Painter(fresh, Fonts()))
        assert _pixels(surface) == _pixels(fresh), block
