"""Event time with the Pico board (issue 34): the real firmware under MicroPython on a pty, the
real serial source, the real loop and journal.

As a kind of bench/event_time.py (``KIND``, ``make``): Return -> verdict shown and the race sweep
of -20..+20 ms around Return, judged against the board's own stamp of Chloé's press (the window
and its close are on the board's clock). Run alone, the sweep through outages, one JSON object
per line:

    python bench/event_time_pico.py [--span-ms 20] [--step-ms 1]

- ``event_time.pico_board_outage``: the USB link drops after Alice's and Bob's slaps; Chloé
  presses at -20..+20 ms around Return, made during the outage (the board is not live: the
  verdict goes on without it, its seats named); the link comes back, the board replays her
  press. ``wrong_final_verdicts`` counts final verdicts (after any re-judging) that disagree with
  her stamp against the close; ``rejudged`` the verdicts judged again.
- ``event_time.pico_companion_outage``: the companion stops as a kill leaves it (nothing
  flushed, the journal closed, the port dropped) after Alice's and Bob's slaps; Chloé presses on
  the board while it is down; the game is resumed (Table.resume, the App's own source with the
  journal's position) and Return is pressed: her press must count in the first verdict.
"""

# The checks waited on (step_until) read the slap's game and app: each is called before the
# loop moves on, so the loop variables they read are the current ones.
# ruff: noqa: B023

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.display.window import open_display
from companion.games.kilo.actions import Continue, DrawCard, PickRank
from companion.games.kilo.events import NewKiloGame
from companion.hardware.config import HardwareConfig
from companion.inputs.serial_source import SerialSource
from companion.table.journal import Journal
from companion.table.live import Table
from tests.serial_helpers import SEAT_PINS, FirmwareBoard, Plug

KIND = "pico"
PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
MS = 1_000_000
HOLD_US = 60_000  # how long a slap holds the button


class BenchPico(SerialSource):
    """The serial source on a board of its own, which it closes when the loop stops it."""

    def __init__(self, board: FirmwareBoard, plug: Plug, **kw: Any) -> None:
        super().__init__(port_factory=plug, **kw)
        self.board = board
        self.plug = plug

    def stop(self) -> None:
        super().stop()
        self.board.close()

    def before_close(self, seat: int, made_ns: int, close_us: int) -> bool | None:
        """Whether ``seat``'s last press, as the board stamped it, is before ``close_us``
        (board clock)."""
        return stamped_before(self.board, seat, close_us)


def stamped_before(board: FirmwareBoard, seat: int, close_us: int) -> bool | None:
    gpio = SEAT_PINS[seat]
    pressed = [t for t, g, level, _ in board.fired() if g == gpio and level == 0]
    return pressed[-1] < close_us if pressed else None


def press_on(board: FirmwareBoard) -> Callable[[int, int], None]:
    def press(seat: int, t_ns: int) -> None:
        board.press(SEAT_PINS[seat], 0, hold_us=HOLD_US)

    return press


def make(n_seats: int) -> tuple[Any, Callable[[int, int], None]]:
    board = FirmwareBoard(boot_id=34, capture="pio")
    source = BenchPico(board, Plug(lambda: board.pty.path), n_seats=n_seats)
    return source, press_on(board)


# -- the sweeps through outages -----------------------------------------------------------------


def step_until(app: App, check: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the table did not get there in time: {app.ui.hardware.notes[-3:]}")
        app.step(0.002)


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


def rows(journal: Journal, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(p) for _, p in journal.payloads(game_id)]


def pause(app: App, seconds: float) -> None:
    """Time passing at the table: the loop goes on stepping."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step(0.001)


def board_outage(offsets: list[int]) -> dict[str, Any]:
    surface = open_display((800, 480), fullscreen=False)
    board = FirmwareBoard(boot_id=35, capture="pio")
    plug = Plug(lambda: board.pty.path)
    wrong: list[dict[str, Any]] = []
    rejudged = 0
    named = 0
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp), writer=True)
        source = BenchPico(board, plug, n_seats=len(PLAYERS))
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=99), {"input": "serial"})
        app = App(
            surface, journal, table, Ui(lang="en"), source_name="serial", source_factory=lambda n, s: source
        )
        app.start()  # as `companion play` does: the constructor starts nothing
        try:
            for offset in offsets:
                game: Any = app.game
                assert game is not None
                step_until(app, lambda: game.awaiting == "play" and plug.plugged and source.promise().live)
                start = len(rows(journal, table.game_id))
                board.press(SEAT_PINS[0], 0, hold_us=HOLD_US)
                board.press(SEAT_PINS[1], 20_000, hold_us=HOLD_US)
                step_until(app, lambda: len(game.window().order) == 2)
                plug.pull()
                step_until(app, lambda: not source.promise().live)
                if offset < 0:
                    board.press(SEAT_PINS[2], 0, hold_us=HOLD_US)
                    pause(app, -offset / 1000)
                key(pygame.K_RETURN)
                app.step(0)  # the key read: the decision's instant
                if offset >= 0:
                    pause(app, offset / 1000)
                    board.press(SEAT_PINS[2], 0, hold_us=HOLD_US)
                step_until(app, lambda: game.awaiting != "verdict")
                message = app.ui.message
                named += bool(message and "seats 1, 2, 3 and 4 not counted" in message.en)
                pause(app, 0.05)
                plug.plugged = True
                step_until(app, lambda: source.promise().live)
                # Caught up: the board's promise is past the decision, her press (if any) in.
                back = time.monotonic_ns()
                source.ask(back)
                step_until(app, lambda: (source.promise().watermark_ns or 0) > back)
                pause(app, 0.02)
                got = rows(journal, table.game_id)[start:]
                kinds = [r["type"] for r in got]
                rejudged += "undo" in kinds
                last = max(i for i, k in enumerate(kinds) if k == "verdict")
                close = next(r["t_us"] for r in reversed(got[:last]) if r["type"] == "close")
                truth = stamped_before(board, 2, close)
                counted = game.last_slap is not None and "Chloé" in [p for p, _ in game.last_slap.order]
                if counted != bool(truth):
                    wrong.append({"offset_ms": offset, "counted": counted, "journal": kinds})
                draw_owed(app)
        finally:
            app.stop_source()
            journal.close()
    pygame.display.quit()
    return {
        "bench": "event_time.pico_board_outage",
        "offsets_ms": [offsets[0], offsets[-1]],
        "cases": len(offsets),
        "wrong_final_verdicts": len(wrong),
        "rejudged": rejudged,
        "verdicts_naming_the_board": named,
        "wrong": wrong,
        "load_1m": round(os.getloadavg()[0], 2),
    }


def draw_owed(app: App) -> None:
    """The draws owed, entered on the table, so the next slap can start."""
    game = app.game
    assert game is not None
    while game.awaiting == "draw" and not game.finished:
        owed = len(game.owed_draws)
        app.do(Continue())
        _, counts = game.draw_source()
        ranks = [r.value for r, n in counts.items() if n]
        app.do(PickRank("7" if "7" in ranks else ranks[0]))
        app.do(DrawCard())
        step_until(app, lambda: len(game.owed_draws) < owed or game.finished)


def companion_outage(offsets: list[int]) -> dict[str, Any]:
    surface = open_display((800, 480), fullscreen=False)
    board = FirmwareBoard(boot_id=36, capture="pio")
    config = HardwareConfig.model_validate({"serial": {"port": board.pty.path}})
    wrong: list[dict[str, Any]] = []
    caught_up_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        journal = Journal(data, writer=True)
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=99), {"input": "serial"})
        game_id = table.game_id
        app = App(surface, journal, table, Ui(lang="en"), config=config, source_name="serial")
        app.start()  # as `companion play` does: the constructor starts nothing
        try:
            for offset in offsets:
                game: Any = app.game
                assert game is not None
                step_until(app, lambda: game.awaiting == "play" and app.ui.hardware.connected)
                start = len(rows(journal, game_id))
                board.press(SEAT_PINS[0], 0, hold_us=HOLD_US)
                board.press(SEAT_PINS[1], 20_000, hold_us=HOLD_US)
                step_until(app, lambda: len(game.window().order) == 2)
                # Killed: what was held is lost, the port and the journal dropped.
                app.commits.drop(app.table)
                app.stop_source()
                journal.close()
                # Chloé slaps while nothing reads the board, |offset| ms before the restart.
                board.press(SEAT_PINS[2], 0, hold_us=HOLD_US)
                time.sleep(abs(offset) / 1000 + 0.005)
                restarted = time.monotonic_ns()
                journal = Journal(data, writer=True)
                app = App(
                    surface,
                    journal,
                    Table.resume(journal, game_id),
                    Ui(lang="en"),
                    config=config,
                    source_name="serial",
                )
                app.start()  # as `companion play` does: the constructor starts nothing
                game = app.game
                assert game is not None
                step_until(app, lambda: game.window_pressed("Chloé"))
                caught_up_ms.append((time.monotonic_ns() - restarted) / 1e6)
                key(pygame.K_RETURN)
                step_until(app, lambda: game.awaiting != "verdict")
                got = rows(journal, game_id)[start:]
                kinds = [r["type"] for r in got]
                first = kinds.index("verdict")
                counted = any(r["type"] == "press" and r["player"] == "Chloé" for r in got[:first])
                if not counted:
                    wrong.append({"offset_ms": offset, "journal": kinds})
                draw_owed(app)
        finally:
            app.stop_source()
            journal.close()
            board.close()
    pygame.display.quit()
    return {
        "bench": "event_time.pico_companion_outage",
        "cases": len(offsets),
        "wrong_verdicts": len(wrong),
        "resume_to_press_counted_p50_ms": round(sorted(caught_up_ms)[len(caught_up_ms) // 2], 1),
        "resume_to_press_counted_max_ms": round(max(caught_up_ms), 1),
        "wrong": wrong,
        "load_1m": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--span-ms", type=int, default=20)
    parser.add_argument("--step-ms", type=int, default=1)
    parser.add_argument("--only", choices=("board", "companion"), default=None)
    args = parser.parse_args()
    offsets = list(range(-args.span_ms, args.span_ms + 1, args.step_ms))
    if args.only in (None, "board"):
        print(json.dumps(board_outage(offsets), ensure_ascii=False), flush=True)
    if args.only in (None, "companion"):
        print(json.dumps(companion_outage(offsets), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
