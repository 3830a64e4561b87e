"""The table screen at rest (issue 23, idle at most 1 % of a core): once nothing has come for a
while the loop reads touches and keys less often, a queue item still wakes it at once, and a
key read after a quiet spell keeps the keyboard clock's resolution."""

from __future__ import annotations

import json
import os
import select
import threading
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from companion.display import app as app_module
from companion.display.app import IDLE_AFTER_S, App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.inputs.base import EventInbox, InputEvent
from companion.inputs.keyboard import KeyboardSource, bindings
from companion.table.journal import Journal
from companion.table.live import Table
from tests.display.test_app_loop_order import BOARD, PLAYERS, QuietSource  # one of each, not two


class SimulatedTime(EventInbox):
    """An empty queue whose waits pass on a simulated clock instead of the real one: each wait
    of the loop is one wake, and what it asked for is recorded."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock = clock
        self.wakes: list[float] = []  # the simulated time of each wait's end

    def wait_for_item(self, timeout: float) -> bool:
        self.clock[0] += timeout
        self.wakes.append(self.clock[0])
        return False


def idle_app(screen: pygame.Surface, journal: Journal, keys: bool) -> tuple[App, list[float]]:
    clock = [1000.0]
    source: Any = (
        KeyboardSource(bindings(["a", "b", "c", "d"]), own_window=False, now_ns=lambda: int(clock[0] * 1e9))
        if keys
        else QuietSource()
    )
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": source.name})
    app = App(
        screen,
        journal,
        table,
        Ui(lang="fr"),
        source_name=source.name,
        source_factory=lambda name, n: source,
        now=lambda: clock[0],
    )
    app.step()  # the first frame
    while app.later.warm_pending:  # the views a first slap shows, drawn while idle
        app.step()
    assert app._precise() is keys
    return app, clock


@pytest.mark.parametrize("keys", [False, True], ids=["touch-only", "keys-are-buttons"])
def test_a_quiet_table_wakes_a_few_times_a_second_once_nothing_has_come_for_a_while(
    screen: pygame.Surface, journal: Journal, keys: bool
) -> None:
    app, clock = idle_app(screen, journal, keys)
    inbox = app.inbox = SimulatedTime(clock)
    start = clock[0]
    app.wait(60.0)  # one minute of nothing, on the simulated clock
    assert clock[0] == pytest.approx(start + 60.0)
    late = [t for t in inbox.wakes if t > start + 50.0]
    # Before: 12 ms polls (8 ms with keys as buttons), 833 (1,250) wakes in those 10 s.
    assert len(late) <= (10 / 0.018 + 1 if keys else 10 / 0.045 + 1)
    # A table just used is still read briskly: the first second after the last input.
    early = [t for t in inbox.wakes if t <= start + 1.0]
    assert len(early) >= (1 / 0.009 if keys else 1 / 0.013)


def test_an_input_makes_the_loop_brisk_again(screen: pygame.Surface, journal: Journal) -> None:
    app, clock = idle_app(screen, journal, keys=False)
    inbox = app.inbox = SimulatedTime(clock)
    app.wait(10.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(0, 0, 0)))
    assert app.wait(10.0)  # the touch is read...
    inbox.wakes.clear()
    app.wait(IDLE_AFTER_S / 2)  # ...and the next ones are looked for as often as before it
    assert len(inbox.wakes) >= (IDLE_AFTER_S / 2) / 0.013


def test_a_key_read_after_a_quiet_spell_keeps_the_keyboard_clock_s_resolution(
    screen: pygame.Surface, journal: Journal
) -> None:
    app, clock = idle_app(screen, journal, keys=True)
    real = app.inbox
    app.inbox = SimulatedTime(clock)
    app.wait(30.0)  # half a minute of nothing: the loop now reads keys at its idle pace
    app.inbox = real
    real_wait = real.wait_for_item

    def key_goes_down_while_the_loop_waits(timeout: float) -> bool:
        clock[0] += timeout
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
        return False

    real.wait_for_item = key_goes_down_while_the_loop_waits  # type: ignore[method-assign]
    app.step(None)  # one look (nothing), one wait (the key goes down), the look that reads it
    real.wait_for_item = real_wait  # type: ignore[method-assign]
    app.step(0.0)
    assert app.table is not None
    (press, *_) = [json.loads(p) for _, p in journal.payloads(app.table.game_id)][1:]
    # Read within the keyboard clock's own 20 ms: the stamp says no coarser than a brisk loop's.
    assert press["type"] == "press" and press.get("res_us", 20_000) <= 20_000


def test_a_press_put_on_the_queue_while_the_loop_sleeps_is_drawn_in_the_next_frame(
    screen: pygame.Surface, journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop blocks on the button queue between its looks at touches: a press wakes it, and
    is not left waiting for the next look (however long the loop idles)."""
    app, clock = idle_app(screen, journal, keys=False)
    clock[0] += 3600.0  # an hour of nothing: the loop is at its idle pace...
    # ...made an hour here, so that only the press can end the loop's first wait.
    monkeypatch.setattr(app_module, "IDLE_POLL_S", 3600.0)
    blocked, stepped, rescued = threading.Event(), threading.Event(), threading.Event()
    waits: list[float | None] = []

    class Watched(EventInbox):
        def wait_for_item(self, timeout: float) -> bool:
            waits.append(timeout)
            return super().wait_for_item(timeout)

    real_select = select.select

    def sleeps(*args: Any) -> Any:
        blocked.set()  # the loop is about to sleep: only the press can wake it now
        return real_select(*args)

    monkeypatch.setattr(select, "select", sleeps)

    inbox = app.inbox = Watched()
    app.source.start(inbox)  # type: ignore[union-attr]

    def slap() -> None:
        blocked.wait(10)
        for item in (
            InputEvent("seat", 2, "press", 5_000_000_000, BOARD, "serial"),
            InputEvent("seat", 2, "release", 5_050_000_000, BOARD, "serial"),
        ):
            inbox.put(item)
        if not stepped.wait(60):  # the press did not wake the loop: end its hour, and say so
            rescued.set()
            os.eventfd_write(inbox.fileno(), 1)

    frames = app.frames
    thread = threading.Thread(target=slap)
    thread.start()
    app.step(None)  # returns only once something came
    stepped.set()
    thread.join()
    assert not rescued.is_set()
    assert app.frames == frames + 1
    assert app.table is not None
    assert [json.loads(p)["type"] for _, p in journal.payloads(app.table.game_id)][1:] == ["press"]
    # The press ended the loop's first wait: it did not wait for a look at the touches.
    assert len(waits) == 1


def test_the_inbox_wakes_its_sleeper_at_once_and_costs_a_flood_no_syscall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop sleeps in select() on the inbox's eventfd: a put from a source thread wakes it,
    an item already there ends the wait before it sleeps, and puts made while the loop is busy
    (a flood) write nothing to the fd."""
    inbox = EventInbox()
    wake_fd = inbox.fileno()  # the loop has slept on it before
    for _ in range(100):  # nobody sleeps on it now: the puts only queue
        inbox.put(InputEvent("seat", 0, "press", 0, BOARD, "serial"))
    assert not select.select((wake_fd,), (), (), 0)[0]
    assert inbox.wait_for_item(3600.0)  # items are there: no sleep at all
    while not inbox.empty():
        inbox.get_nowait()
    sleeping, woken, rescued = threading.Event(), threading.Event(), threading.Event()
    real_select = select.select

    def watched(*args: Any) -> Any:
        sleeping.set()
        return real_select(*args)

    def press() -> None:
        sleeping.wait(10)
        inbox.put(InputEvent("seat", 1, "press", 1, BOARD, "serial"))
        if not woken.wait(60):  # the put did not wake it: end the hour's sleep, and say so
            rescued.set()
            os.eventfd_write(wake_fd, 1)

    monkeypatch.setattr(select, "select", watched)
    thread = threading.Thread(target=press)
    thread.start()
    assert inbox.wait_for_item(3600.0)  # an hour, unless the put wakes it
    woken.set()
    thread.join()
    monkeypatch.undo()
    assert not rescued.is_set()
    assert inbox.get_nowait().seat == 1
    assert not select.select((wake_fd,), (), (), 0)[0]  # the wake was read: no spurious one
