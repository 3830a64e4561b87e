"""The first slap after the table screen starts (issue 20, edge -> pixel): its frame found the
font and text caches cold and took about 200 ms on the build machine. The loop draws what a first
slap shows off screen while idle after the game's first frame."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.inputs.base import Clock, InputEvent
from companion.table.journal import Journal
from companion.table.live import Table
from tests.display.test_app_loop_order import QuietSource  # one source with no hardware, not two

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
BOARD = Clock("pico:E6614103E7452D2F", 1, "boot:7")


def fonts_opened(monkeypatch: Any) -> list[int]:
    """Every font the table screen opens from now on (one a size: the cold cost)."""
    opened: list[int] = []
    real = pygame.font.Font

    def font(face: Any, size: int) -> pygame.font.Font:
        opened.append(size)
        return real(face, size)

    monkeypatch.setattr(pygame.font, "Font", font)  # layout opens them as pygame.font.Font
    return opened


def test_after_the_first_frame_the_idle_loop_warms_what_a_first_slap_shows(
    screen: pygame.Surface, journal: Journal, monkeypatch: Any
) -> None:
    opened = fonts_opened(monkeypatch)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "test"})
    app = App(
        screen,
        journal,
        table,
        Ui(lang="fr"),
        source_name="test",
        source_factory=lambda name, n: QuietSource(),
        now=lambda: 100.0,
    )
    app.step()
    assert app.frames == 1
    first_frame = len(opened)
    assert first_frame > 0  # the first frame is drawn before any warming...
    while app.later.warm_pending:  # ...which takes the idle steps after it, drawing nothing
        app.step()
    assert app.frames == 1
    assert len(opened) > first_frame
    warmed = len(opened)
    frames = app.frames
    for i, seat in enumerate((2, 0, 3, 1)):
        app.inbox.put(InputEvent("seat", seat, "press", (5_000 + 9 * i) * 1000, BOARD, "serial"))
        app.step()
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    )
    app.step()
    assert app.frames == frames + 5
    assert app.last_screen == "slap"  # the verdict shown
    assert opened[warmed:] == []  # the first slap's frames opened no font
    assert app.game is not None and app.game.window().order == ()  # the real game: judged once
