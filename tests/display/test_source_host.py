"""Sources that come back, seen from the table screen (issue 20, point 3): the App's own source
(``SourceHost.build``, as ``companion play`` builds it) restarts a crashed reader and waits for
a board missing at start, and the table sees both in its hardware status."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from gpiozero.pins.mock import MockFactory

from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.hardware.config import HardwareConfig
from companion.inputs import protocol as p
from companion.inputs.registry import Supervised
from companion.table.journal import Journal
from companion.table.live import Table
from tests.inputs.test_serial_source import hello
from tests.serial_helpers import ScriptedBoard

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]


def step_until(app: App, pred: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Run the main loop's steps until ``pred`` holds (each step waits on the queue, not a sleep)."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; notes: {app.ui.hardware.notes}")
        app.step(0.05)


def pressed(app: App) -> list[str]:
    assert app.game is not None
    return [name for name in PLAYERS if app.game.window_pressed(name)]


def test_the_table_sees_its_crashed_reader_restart_and_its_buttons_work_again(
    screen: pygame.Surface, journal: Journal
) -> None:
    factory = MockFactory()
    seats = [{"button": b} for b in (17, 27, 22, 23)]
    config = HardwareConfig.model_validate({"gpio": {"seats": seats}})
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
    app = App(screen, journal, table, Ui(lang="en"), config=config, source_name="gpio", pin_factory=factory)
    assert app.source is None  # the constructor starts nothing
    app.start()
    try:
        hw = app.ui.hardware
        assert app.source is not None and hw.connected and not hw.failed
        assert isinstance(app.source, Supervised)
        # A bug in the reader thread (an item it cannot read): the thread dies.
        reader: Any = app.source.source
        reader._inbox.put(("not an edge",))
        # The status screen's notes say both, in order (the restart may come within one step).
        step_until(app, lambda: any("work again" in note.en for note in hw.notes), "the restart said")
        said = [note.en for note in hw.notes]
        assert "stopped (ValueError" in said[-2] and "starting them again" in said[-2], said
        assert hw.connected and app.source.restarts == 1
        # The buttons work again: Bob's press reaches the game.
        pin = factory.pin(27)
        pin.drive_low()
        step_until(app, lambda: pressed(app) == ["Bob"], "Bob's press after the restart")
        pin.drive_high()
    finally:
        app.stop_source()
        factory.close()


def test_the_table_waits_for_a_board_missing_when_the_game_starts(
    tmp_path: Path, screen: pygame.Surface, journal: Journal
) -> None:
    port = tmp_path / "ttyACM0"  # the board enumerates a moment after the kiosk started
    config = HardwareConfig.model_validate({"serial": {"port": str(port)}})
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "serial"})
    app = App(screen, journal, table, Ui(lang="en"), config=config, source_name="serial")
    app.start()
    board = ScriptedBoard(hello(boot_id=3, next_seq=0))
    try:
        hw = app.ui.hardware
        assert app.source is not None and not hw.failed  # not a failed game: a wait
        step_until(app, lambda: any("waiting" in note.en for note in hw.notes), "the wait said")
        assert not hw.connected
        port.symlink_to(board.pty.path)  # plugged in
        step_until(app, lambda: hw.connected, "the board connected")
        board.write(p.encode_frame(p.Event(0, "seat", 2, "press", 7_000_000)))
        step_until(app, lambda: pressed(app) == ["Chloé"], "Chloé's press")
    finally:
        app.stop_source()
        board.close()
