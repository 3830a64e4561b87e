"""Choosing a source by name, building it once, and combining sources on one clock."""

from __future__ import annotations

import importlib.util
import os
import queue
import threading

import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import CompanionError, ConfigError, HardwareError
from companion.hardware.config import HardwareConfig
from companion.hardware.sources import build_source
from companion.inputs.base import Clock, InputEvent, InputSource, QueueItem, SourceStatus
from companion.inputs.gpio import GpioSource
from companion.inputs.keyboard import KeyboardSource
from companion.inputs.registry import CombinedSource, load_class

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

CFG = HardwareConfig.from_toml(
    "[gpio]\nseats = [{button = 17}, {button = 27}, {button = 22}]\nreferee = {undo = 26}"
)


class BoardClockSource:
    """A minimal real source with its own clock (as the Pico board has): 1 ms behind ours."""

    name = "board"
    clock = Clock("pico:TEST", 1_000)

    def __init__(self) -> None:
        self.events: queue.Queue[QueueItem] | None = None

    def now_ns(self) -> int:
        return FIXED_NOW - 1_000_000

    def start(self, events: queue.Queue[QueueItem]) -> None:
        self.events = events

    def stop(self) -> None:
        pass

    def press(self, seat: int, t_ns: int) -> None:
        assert self.events is not None
        self.events.put(InputEvent("seat", seat, "press", t_ns, self.clock, self.name))


FIXED_NOW = 7_000_000_000_000


def test_gpio_with_injected_factory() -> None:
    factory = MockFactory()
    src = build_source("gpio", CFG, pin_factory=factory)
    assert isinstance(src, GpioSource) and isinstance(src, InputSource)
    assert [(b.role, b.seat, b.pin) for b in src.buttons] == [
        ("seat", 0, 17),
        ("seat", 1, 27),
        ("seat", 2, 22),
        ("undo", 0, 26),
    ]
    src.stop()
    two = build_source("gpio", CFG, pin_factory=factory, n_seats=2)
    assert isinstance(two, GpioSource)
    assert [b.pin for b in two.buttons] == [17, 27, 26]
    two.stop()
    factory.close()


def test_gpio_needs_pins_for_every_player() -> None:
    with pytest.raises(ConfigError, match="4 players"):
        build_source("gpio", CFG, pin_factory=MockFactory(), n_seats=4)
    with pytest.raises(ConfigError, match="--assign"):
        build_source("gpio", HardwareConfig(), pin_factory=MockFactory())


def test_gpio_without_lgpio_or_chip_names_the_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("LG_WD", str(tmp_path))
    try:
        src = build_source("gpio", CFG)
    except HardwareError as exc:
        assert "--input keyboard" in exc.en or "gpio group" in exc.en
        assert exc.fr != exc.en
    else:  # pragma: no cover - only on a Pi with the buttons' chip
        src.stop()


def test_keyboard_and_sim() -> None:
    kb = build_source("keyboard", CFG, n_seats=3, own_window=False)
    assert isinstance(kb, KeyboardSource) and len([k for k in kb.keys if k.role == "seat"]) == 6
    sim = build_source("sim", CFG, seed=3, speed=0)
    assert isinstance(sim, InputSource) and sim.name == "sim"
    assert sim.n_seats == 3  # type: ignore[attr-defined]


def test_serial_is_loaded_lazily() -> None:
    try:
        src = build_source("serial", CFG, port="loop://")
    except CompanionError as exc:
        # Not written or pyserial missing: the message says what to do.
        assert exc.en.endswith(".") and exc.fr
        if importlib.util.find_spec("companion.inputs.serial_source") is None:
            assert isinstance(exc, HardwareError)
    else:
        assert src.name == "serial"
        src.stop()


def test_unknown_names() -> None:
    with pytest.raises(ConfigError, match="bluetooth"):
        build_source("bluetooth", CFG)
    with pytest.raises(ConfigError):
        build_source("", CFG)
    with pytest.raises(HardwareError, match="-m pip install 'pyserial"):
        load_class("companion.inputs.no_such_module.Thing", extra="serial")


def test_failed_combination_leaves_nothing_claimed() -> None:
    factory = MockFactory()
    with pytest.raises(ConfigError):
        build_source("gpio+bluetooth", CFG, pin_factory=factory)
    # GPIO17 was claimed by the first part and released again.
    build_source("gpio", CFG, pin_factory=factory).stop()
    factory.close()


def test_combined_sources_share_one_clock() -> None:
    stamps = iter(range(FIXED_NOW, FIXED_NOW + 10_000_000, 1000))
    kb = KeyboardSource.from_config(CFG.keyboard, 2, own_window=False, now_ns=lambda: next(stamps))
    board = BoardClockSource()
    combo = CombinedSource([kb, board], now_ns=lambda: FIXED_NOW)
    assert combo.name == "keyboard+board"
    # The keyboard's 20 ms is the coarser resolution.
    assert combo.clock == Clock("CLOCK_MONOTONIC", kb.clock.resolution_ns)
    q: queue.Queue[QueueItem] = queue.Queue()
    combo.start(q)
    try:
        kb.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2"))
        board.press(0, FIXED_NOW - 1_000_000 + 500)
        board.events.put(SourceStatus("board", "disconnected"))  # type: ignore[union-attr]
        got = [q.get(timeout=5) for _ in range(3)]
    finally:
        combo.stop()
    events = sorted((x for x in got if isinstance(x, InputEvent)), key=lambda e: e.t_ns)
    # The board's clock runs 1 ms behind: its press, 500 ns after the key on the common clock.
    assert [(e.source, e.seat, e.t_ns) for e in events] == [
        ("keyboard", 1, FIXED_NOW),
        ("board", 0, FIXED_NOW + 500),
    ]
    # Each event keeps its own source's resolution on the common clock: the keyboard's is the
    # coarsest, the board's is its own (or the offset's uncertainty).
    assert all(e.clock.name == combo.clock.name for e in events)
    assert events[0].clock == combo.clock
    assert events[1].clock.resolution_ns < combo.clock.resolution_ns
    assert any(isinstance(x, SourceStatus) for x in got)
    assert not any(t.name.startswith("merge-") and t.is_alive() for t in threading.enumerate())


def test_clockless_source_cannot_be_combined() -> None:
    class Anonymous:
        name = "anon"

        def start(self, events: queue.Queue[QueueItem]) -> None: ...

        def stop(self) -> None: ...

    with pytest.raises(ConfigError, match="anon"):
        CombinedSource([Anonymous()])
