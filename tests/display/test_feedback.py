"""The table screen with real GPIO buttons and LEDs on gpiozero's MockFactory: held buttons and
what the LEDs show, decided by the main loop."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.cli.play import open_seat_leds
from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.hardware.config import HardwareConfig
from companion.hardware.leds import FALSE_SLAP, IDLE, LOSER, OFF, PRESS_SEEN, SeatLeds
from companion.inputs.base import Clock, InputEvent, QueueItem
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import GPIO_CLOCK, GpioSource
from companion.inputs.gpio_pins import ButtonPin
from companion.table.journal import Journal
from companion.table.live import Table
from companion.text import Text
from tests.gpio_helpers import ClockedMockFactory, ClockedMockPin, FakeClock

MS = 1_000_000
PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]
BUTTONS = [17, 27, 22, 23]
CONFIRM, CANCEL = 24, 25
LED_PINS = [5, 6, 13, 19]


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll a condition with a deadline (gpiozero's blink threads make it true)."""
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        tick.wait(0.005)


@dataclass
class Rig:
    clock: FakeClock
    factory: ClockedMockFactory
    src: GpioSource
    leds: SeatLeds
    app: App

    def pin(self, n: int) -> ClockedMockPin:
        p = self.factory.pin(n)
        assert isinstance(p, ClockedMockPin)
        return p

    def edge(self, n: int, active: bool, after_ns: int = 100 * MS) -> None:
        """One clean edge ``after_ns`` from now, then time enough for it to be decided."""
        t = self.clock() + after_ns
        self.pin(n).edge_at(t, active)
        self.settle(t + 50 * MS)

    def settle(self, t_ns: int) -> None:
        self.clock.set(t_ns)
        assert self.src.flush()
        self.app.step()

    def press_release(self, n: int) -> None:
        self.edge(n, True)
        self.edge(n, False)

    def key(self, k: int) -> None:
        for et in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(et, key=k, mod=0, unicode="", scancode=0))
        # A decision at the instant the key is read, on the test's clock (issue 34): the
        # buttons' promise, made at the last settle, is already past it.
        self.app.step()

    def level(self, led_pin: int) -> bool:
        return bool(self.factory.pin(led_pin).state)

    def showing(self) -> list[Any]:
        return [self.leds.showing(s) for s in range(len(LED_PINS))]

    def blinks(self, led_pin: int) -> None:
        """The LED goes on and off by itself (gpiozero's blink thread, not the test)."""
        seen: set[bool] = set()

        def both() -> bool:
            seen.add(self.level(led_pin))
            return seen == {True, False}

        wait_until(both)

    @property
    def hw_stuck(self) -> dict[int, Text]:
        return self.app.ui.hardware.stuck

    def band_texts(self) -> list[str]:
        assert self.app.painter is not None
        return [r.text for r in self.app.painter.texts]


def build_rig(
    tmp_path: Path, screen: pygame.Surface, before_start: Callable[[ClockedMockFactory], None] | None = None
) -> Generator[Rig, None, None]:
    clock = FakeClock()
    factory = ClockedMockFactory(clock)
    buttons = [ButtonPin("seat", i, p) for i, p in enumerate(BUTTONS)]
    buttons += [ButtonPin("confirm", 0, CONFIRM), ButtonPin("cancel", 0, CANCEL)]
    src = GpioSource(
        buttons,
        pin_factory=factory,
        settings=DebounceSettings(stuck_ns=10_000 * MS),
        now_ns=clock,
        delivery_margin_ns=0,
    )
    # The LEDs share the buttons' pin factory, as `companion play` sets them up.
    leds = SeatLeds(LED_PINS, pin_factory=factory, pwm=False)
    if before_start is not None:
        before_start(factory)
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
        app = App(
            screen,
            journal,
            table,
            Ui(lang="en"),
            source_name="gpio",
            source_factory=lambda name, n: src,
            leds=leds,
            table_ns=clock,  # one table clock: the kernel's stamps and the keys' instants
        )
        app.step()
        try:
            yield Rig(clock, factory, src, leds, app)
        finally:
            app.stop_source()
            leds.close()
            factory.close()


@pytest.fixture
def rig(tmp_path: Path, screen: pygame.Surface) -> Iterator[Rig]:
    yield from build_rig(tmp_path, screen)


def game(r: Rig) -> Any:
    g = r.app.game
    assert g is not None
    return g


def test_leds_follow_press_verdict_draw_and_exit(rig: Rig) -> None:
    r = rig
    assert r.showing() == [IDLE] * 4  # waiting for play
    r.edge(BUTTONS[0], True)
    assert game(r).window_pressed("Alice")
    assert r.level(5) and r.showing() == [PRESS_SEEN, IDLE, IDLE, IDLE]
    for n in BUTTONS[1:]:
        r.press_release(n)
    assert r.showing() == [PRESS_SEEN] * 4
    r.edge(BUTTONS[0], False)
    r.press_release(CONFIRM)  # valid claim: Dédé was last
    assert game(r).owed_draws == ("Dédé",)
    assert r.showing() == [OFF, OFF, OFF, LOSER]
    assert not r.level(5) and not r.level(6)
    r.blinks(19)
    for k in (pygame.K_RETURN, pygame.K_a, pygame.K_F2, pygame.K_RETURN):
        r.key(k)
    assert game(r).awaiting == "play"
    assert r.showing() == [IDLE] * 4
    r.app.running = False
    r.app.run()  # exits at once: LEDs off, source stopped
    assert r.showing() == [OFF] * 4
    assert not any(r.level(p) for p in LED_PINS)


def test_false_slapper_shows_its_own_pattern(rig: Rig) -> None:
    r = rig
    r.press_release(BUTTONS[2])
    r.press_release(CANCEL)  # false slap: the picker opens with Chloé chosen
    r.key(pygame.K_RETURN)
    assert game(r).owed_draws == ("Chloé",)
    assert r.showing() == [OFF, OFF, FALSE_SLAP, OFF]
    r.blinks(13)


def test_button_held_as_the_window_opens_is_reported_and_not_counted(rig: Rig) -> None:
    r = rig
    r.edge(BUTTONS[0], True)  # Alice slaps and keeps her hand on the button
    for n in BUTTONS[1:]:
        r.press_release(n)
    r.press_release(CONFIRM)
    for k in (pygame.K_RETURN, pygame.K_a, pygame.K_F2, pygame.K_RETURN):
        r.key(k)
    assert game(r).awaiting == "play"  # a new slap window opened with Alice's button down
    assert 0 in r.hw_stuck and "seat 1 (Alice)" in r.hw_stuck[0].en
    # The status screen says it in French typography (U+202F before the semicolon).
    assert "\u202f; il recompte" in r.hw_stuck[0].fr, r.hw_stuck[0].fr
    assert any("Stuck button" in x and "seat 1" in x for x in r.band_texts())
    # A press from that button before any release (as a source that lost the release would
    # deliver it) is not journaled.
    seq = r.app.table.seq if r.app.table else 0
    r.app.inbox.put(InputEvent("seat", 0, "press", r.clock(), GPIO_CLOCK, "gpio"))
    r.app.step()
    assert r.app.table is not None and r.app.table.seq == seq
    assert not game(r).window_pressed("Alice")
    r.edge(BUTTONS[0], False)
    assert r.hw_stuck == {}
    assert "released" in r.app.ui.hardware.notes[-1].en
    r.edge(BUTTONS[0], True)
    assert game(r).window_pressed("Alice") and r.app.table.seq == seq + 1
    assert r.showing()[0] == PRESS_SEEN


def test_button_held_at_start_is_stuck_until_released(tmp_path: Path, screen: pygame.Surface) -> None:
    def short_bruno(factory: ClockedMockFactory) -> None:
        factory.pin(BUTTONS[1]).drive_low()  # shorted or held before the game starts

    rigs = build_rig(tmp_path, screen, short_bruno)
    r = next(rigs)

    def reported() -> bool:
        r.app.step()
        return 1 in r.hw_stuck

    try:
        wait_until(reported)
        assert "seat 2" in r.hw_stuck[1].en
        assert any("Stuck button" in x and "seat 2" in x for x in r.band_texts())
        r.settle(r.clock() + 50 * MS)
        assert not game(r).window_pressed("Bruno") and r.app.table is not None
        seq = r.app.table.seq
        r.edge(BUTTONS[1], False)
        assert r.hw_stuck == {} and r.app.table.seq == seq
        r.edge(BUTTONS[1], True)
        assert game(r).window_pressed("Bruno") and r.app.table.seq == seq + 1
    finally:
        rigs.close()


class RecordingBoard:
    """A button source with the Pico board's LED command, recording what it was sent."""

    name = "serial"
    clock = Clock("pico:TEST", 1000)

    def __init__(self) -> None:
        self.sent: list[tuple[int, int]] = []
        self.stopped = False

    def start(self, events: queue.Queue[QueueItem]) -> None:
        pass

    def stop(self) -> None:
        self.stopped = True

    def set_leds(self, on_mask: int, blink_mask: int = 0) -> None:
        assert not self.stopped, "LEDs set after the source stopped"
        self.sent.append((on_mask, blink_mask))


def test_pico_board_leds_follow_the_same_decisions(tmp_path: Path, screen: pygame.Surface) -> None:
    board = RecordingBoard()
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "serial"})
        app = App(
            screen, journal, table, Ui(lang="en"), source_name="serial", source_factory=lambda name, n: board
        )
        app.step()
        assert board.sent == [(0, 0)]  # idle: dark on the board
        for i, seat in enumerate((1, 0, 2, 3)):
            t_ns = (i + 1) * MS
            app.inbox.put(InputEvent("seat", seat, "press", t_ns, board.clock, "serial"))
            app.step()
        assert board.sent[-1] == (0b1111, 0)
        app.inbox.put(InputEvent("confirm", 0, "press", 9000, board.clock, "serial"))
        app.step()
        assert board.sent[-1] == (0, 0b1000)  # Dédé blinks
        app.running = False
        app.run()
        assert board.sent[-1] == (0, 0) and board.stopped


def test_leds_are_opened_only_for_gpio_with_led_pins() -> None:
    with_leds = HardwareConfig.from_toml(
        "[gpio]\nseats = [{ button = 17, led = 5 }, { button = 27 }, { button = 22 }]\n"
    )
    without = HardwareConfig.from_toml(
        "[gpio]\nseats = [{ button = 17 }, { button = 27 }, { button = 22 }]\n"
    )
    assert open_seat_leds(None, "gpio") == (None, None)
    assert open_seat_leds(with_leds, "keyboard") == (None, None)
    assert open_seat_leds(with_leds, "sim+keyboard") == (None, None)
    assert open_seat_leds(without, "gpio") == (None, None)
