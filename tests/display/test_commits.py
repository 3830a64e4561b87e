"""Group commit (issue 20, the edge -> pixel budget): the presses a step of the main loop handles
are journaled in one transaction, in their order, before any of them is shown; a batch the
journal refuses, or a process killed before its commit, loses the whole batch and shows none of
it."""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.hardware.leds import PRESS_SEEN, SeatLeds
from companion.inputs.base import Clock, InputEvent
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from tests.conftest import ROOT

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
LED_PINS = [5, 6, 13, 19]
BOARD = Clock("pico:E6614103E7452D2F", 1, "boot:7")


class QuietSource:
    """No hardware: the test puts the presses on the queue as a source's thread would."""

    name = "test"

    def start(self, events: queue.Queue[Any]) -> None:
        self.events = events

    def stop(self) -> None:
        pass


@pytest.fixture
def leds() -> Iterator[SeatLeds]:
    factory = MockFactory()
    seat_leds = SeatLeds(LED_PINS, pin_factory=factory, pwm=False)
    yield seat_leds
    seat_leds.close()
    factory.close()


def make_app(surface: pygame.Surface, journal: Journal, leds: SeatLeds) -> App:
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "test"})
    # A clock that stands still: however slow the machine, a step never runs out of budget, so
    # what was queued together is handled by one step.
    app = App(
        surface,
        journal,
        table,
        Ui(lang="en"),
        source_name="test",
        source_factory=lambda name, n: QuietSource(),
        leds=leds,
        now=lambda: 100.0,
    )
    app.step()
    return app


def queue_press(app: App, seat: int, t_us: int) -> None:
    app.inbox.put(InputEvent("seat", seat, "press", t_us * 1000, BOARD, "serial"))
    app.inbox.put(InputEvent("seat", seat, "release", t_us * 1000 + 50_000_000, BOARD, "serial"))


def journaled(journal: Journal, app: App) -> list[dict[str, Any]]:
    assert app.table is not None
    return [json.loads(p) for _, p in journal.payloads(app.table.game_id)][1:]


def commits(journal: Journal) -> list[str]:
    """Every COMMIT SQLite runs on the journal's own connection from now on."""
    seen: list[str] = []
    journal._db.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    return seen


def lit(leds: SeatLeds) -> list[bool]:
    return [leds.showing(seat) == PRESS_SEEN for seat in range(len(PLAYERS))]


def test_the_presses_of_one_step_are_journaled_in_one_transaction_in_their_order(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    app = make_app(screen, journal, leds)
    seen = commits(journal)
    order = [2, 0, 3, 1]  # not the seats' order: the journal must keep the presses' own
    for i, seat in enumerate(order):
        queue_press(app, seat, 1_000 + 7 * i)
    # The referee's Return, made after the presses, joins the same transaction after them.
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    )
    app.step()
    assert seen == ["COMMIT"]
    events = journaled(journal, app)
    assert [(e["type"], e.get("player")) for e in events] == [
        *(("press", PLAYERS[s]) for s in order),
        ("verdict", None),
    ]


def test_a_step_of_n_presses_builds_the_view_once_with_each_press_s_effects(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flood's cost (bench/gpio.py): one view a step, not one a press; the sounds, the
    window's countdown, the LEDs and the journal are the same as press by press."""
    app = make_app(screen, journal, leds)
    screens = app.screens
    built: list[int] = []
    build = screens.build_view

    def counted(engine: Any) -> Any:
        built.append(1)
        return build(engine)

    monkeypatch.setattr(screens, "build_view", counted)
    cues: list[str] = []

    def play(cue: str) -> bool:
        cues.append(cue)
        return True

    monkeypatch.setattr(app.sounds, "play", play)
    seats = [2, 0, 2, 3, 1, 0]  # two presses that do not count (a seat pressing again)
    for i, seat in enumerate(seats):
        queue_press(app, seat, 5_000 + 3 * i)
    app.step()
    assert len(built) == 1  # the frame's, once for the six presses
    assert [e["player"] for e in journaled(journal, app)] == [PLAYERS[s] for s in seats]
    assert cues == ["slap"] * 4  # one for each press that counted, as before
    assert app.ui.window_open_at == 100.0
    assert lit(leds) == [True, True, True, True]
    assert [p.name for p in app.view.live.presses] == [PLAYERS[s] for s in (2, 0, 3, 1)]
    assert len(built) == 1


def test_nothing_of_a_batch_is_shown_before_its_commit(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    app = make_app(screen, journal, leds)
    shown: list[tuple[list[bool], int]] = []

    def at_commit(sql: str) -> None:
        if sql == "COMMIT":  # SQLite calls this as the statement starts: not yet durable
            # A slow disk: the main thread, laying out the frame meanwhile, has all the time
            # it needs to show something too early, if it would.
            time.sleep(0.3)
            shown.append((lit(leds), app.frames))

    journal._db.set_trace_callback(at_commit)
    frames = app.frames
    for seat in (1, 3):
        queue_press(app, seat, 2_000 + seat)
    app.step()
    assert shown == [([False] * 4, frames)]  # no LED lit, no frame drawn before the commit
    assert lit(leds) == [False, True, False, True]  # ...and both once it returned
    assert app.frames == frames + 1


def test_a_batch_the_journal_refuses_is_lost_whole_and_never_shown(
    tmp_path: Path, screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    app = make_app(screen, journal, leds)
    queue_press(app, 0, 1_000)
    app.step()
    assert lit(leds) == [True, False, False, False]
    # The journal fails on the third press of the next batch, after SQLite has taken the first
    # two into the transaction: a real SQLite error, raised by a trigger added behind our back.
    other = sqlite3.connect(tmp_path / FILENAME)
    other.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.seq = 5 "
        "BEGIN SELECT RAISE(ABORT, 'the disk went away'); END"
    )
    other.commit()
    for seat in (1, 2, 3):
        queue_press(app, seat, 1_000 + 10 * seat)
    app.step()
    # Atomic: not Bob's nor Chloé's press either, though SQLite had taken them.
    assert [e["player"] for e in journaled(journal, app)] == ["Alice"]
    # Never shown: the table went back to the journal's state, the LEDs never lit.
    assert app.game.window_pressed("Alice") and not app.game.window_pressed("Bob")
    assert lit(leds) == [True, False, False, False]
    assert app.ui.message is not None and "the disk went away" in app.ui.message.en
    assert "impossible d\u2019écrire" in app.ui.message.fr
    # The journal works again: the next press takes the next number, no gap.
    other.execute("DROP TRIGGER refuse")
    other.commit()
    other.close()
    queue_press(app, 1, 1_100)
    app.step()
    assert [e["player"] for e in journaled(journal, app)] == ["Alice", "Bob"]
    assert lit(leds) == [True, True, False, False]


CHILD = r"""
import json, os, signal, sys, time
from pathlib import Path
sys.path.insert(0, os.getcwd())
from gpiozero.pins.mock import MockFactory
from companion.display.app import App
from companion.display.window import open_display
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.hardware.leds import SeatLeds
from companion.inputs.base import Clock, InputEvent
from companion.table.journal import Journal
from companion.table.live import Table
from tests.display.test_commits import LED_PINS, PLAYERS, QuietSource

def say(*words):
    print(*words, flush=True)

screen = open_display((800, 480), fullscreen=False)
leds = SeatLeds(LED_PINS, pin_factory=MockFactory(), pwm=False)
shown = leds.press_seen
def press_seen(seat):
    shown(seat)
    say("led", seat)
leds.press_seen = press_seen
journal = Journal(Path(sys.argv[1]), writer=True)
table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "test"})
app = App(screen, journal, table, Ui(lang="en"), source_name="test",
          source_factory=lambda name, n: QuietSource(), leds=leds, now=lambda: 100.0)
app.step()
app.on_frame = lambda n: say("frame", *[p for p in PLAYERS if app.game.window_pressed(p)])
commits = []
def trace(sql):
    if sql == "COMMIT":
        commits.append(sql)
        if len(commits) == 2:  # the second batch: killed as its COMMIT starts, on a slow disk
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGKILL)
journal._db.set_trace_callback(trace)
clock = Clock("pico:E6614103E7452D2F", 1, "boot:7")
for batch in ([0], [1, 2]):
    for seat in batch:
        app.inbox.put(InputEvent("seat", seat, "press", 1_000_000 + seat, clock, "serial"))
    app.step()
say("not killed")
"""


def test_a_process_killed_before_its_batch_commits_loses_the_batch_and_showed_none_of_it(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -9, proc.stderr
    said = proc.stdout.splitlines()
    # Alice's batch was committed, then shown; Bob's and Chloé's was never shown...
    assert said == ["led 0", "frame Alice"], proc.stderr
    # ...and is not in the journal: the one SQLite kept is the journal of what was shown.
    with Journal(tmp_path, writer=False) as journal:
        (info,) = journal.games()
        kinds = [(type(e).__name__, getattr(e, "player", None)) for _, e in journal.events(info.id)]
    assert kinds == [("NewKiloGame", None), ("Press", "Alice")]


def test_a_due_checkpoint_waits_for_the_frame_and_a_flood_makes_one_a_second(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    """A checkpoint costs several commits: made before the frame, it was on a flood's every
    step (one is due every 32 events), between the presses' COMMIT and their pixels."""
    clock = [100.0]
    app = make_app(screen, journal, leds)
    app.now = lambda: clock[0]
    seen: list[str] = []
    journal._db.set_trace_callback(
        lambda sql: seen.append(sql) if sql == "COMMIT" or "wal_checkpoint" in sql else None
    )
    app.on_frame = lambda n: seen.append("frame")

    def flood_step(t_us: int) -> None:
        for i in range(40):  # more than CHECKPOINT_EVERY events in one step
            # Each earlier, spaced anew each step: a new picture (a frame) each step.
            queue_press(app, i % 4, t_us - i * (t_us // 10_000))
        app.step()
        assert app.commits.writer is not None
        app.commits.writer.submit(lambda: None).result()  # whatever the writer was given has run

    flood_step(30_000)
    assert seen == ["COMMIT", "frame", "PRAGMA wal_checkpoint(PASSIVE)"]
    seen.clear()
    clock[0] += 0.5  # the next step, half a second later: the checkpoint is due, not yet made
    flood_step(20_000)
    assert seen == ["COMMIT", "frame"]
    assert journal.checkpoint_due
    seen.clear()
    clock[0] += 0.6
    flood_step(10_000)
    assert seen == ["COMMIT", "frame", "PRAGMA wal_checkpoint(PASSIVE)"]
    assert not journal.checkpoint_due


def test_presses_that_change_nothing_on_screen_are_journaled_without_a_frame(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    """A chattering button in an open window: each press is journaled, none changes what the
    table sees (a later press of a seat already in the window), so no frame is laid out for
    them (in a flood, three steps of four drew the same picture again)."""
    app = make_app(screen, journal, leds)
    queue_press(app, 1, 1_000)
    app.step()
    frames, drawn = app.frames, app.painter
    for i in range(5):
        queue_press(app, 1, 2_000 + i)  # Bob again, later: the window keeps his first press
    app.step()
    assert [e["player"] for e in journaled(journal, app)] == ["Bob"] * 6
    assert app.frames == frames and app.painter is drawn
    queue_press(app, 3, 3_000)  # Dédé: a new press in the window, a new picture
    app.step()
    assert app.frames == frames + 1
    assert app.view is not None and [p.name for p in app.view.live.presses] == ["Bob", "Dédé"]


def test_while_the_loop_runs_the_commit_s_writer_gets_the_gil_within_a_millisecond(
    screen: pygame.Surface, journal: Journal, leds: SeatLeds
) -> None:
    """The writer thread waited up to the interpreter's 5 ms switch interval for the frame's
    layout to let it start the commit, and again to come back from the fsync (bench/gpio.py:
    3.4 ms of a quiet press's 17-24). App.run sets 1 ms, and gives the old value back."""
    app = make_app(screen, journal, leds)
    before = sys.getswitchinterval()
    during: list[float] = []

    def shown(n: int) -> None:
        during.append(sys.getswitchinterval())
        app.running = False

    app.on_frame = shown
    queue_press(app, 0, 1_000)
    app.run()
    assert during and during[0] <= 0.001
    assert sys.getswitchinterval() == before
