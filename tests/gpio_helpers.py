"""Shared by the GPIO tests (no tests here): MockFactory pins whose edges carry chosen stamps."""

from __future__ import annotations

import queue
import random
import threading
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin

from companion.inputs.base import InputEvent, QueueItem, SourceStatus


class FakeClock:
    """The clock the kernel would stamp edges with, moved by the test."""

    def __init__(self, start_ns: int = 5_000_000_000_000) -> None:
        self._now = start_ns
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._now

    def set(self, t_ns: int) -> None:
        with self._lock:
            self._now = max(self._now, t_ns)

    def advance(self, dt_ns: int) -> int:
        with self._lock:
            self._now += dt_ns
            return self._now


class ClockedMockPin(MockPin):
    """A MockPin whose edges are stamped by the factory's ``clock`` in integer ns, as our lgpio
    pins deliver the kernel's stamps; the rest is gpiozero's own MockPin code."""

    _state: Any  # gpiozero's MockPin keeps the level here

    def _change_state(self, value: Any) -> bool:
        if self._state != value:
            self._state = value
            self._last_change = self.factory.clock()
            return True
        return False

    def _call_when_changed(self) -> None:  # type: ignore[override]
        PiPin._call_when_changed(self, self._last_change, self._state)

    def edge_at(self, t_ns: int, active: bool) -> None:
        """Drive the line as a button to ground would, at kernel time ``t_ns``."""
        self.factory.clock.set(t_ns)
        if active:
            self.drive_low()
        else:
            self.drive_high()


class ClockedMockFactory(MockFactory):
    def __init__(self, clock: FakeClock) -> None:
        super().__init__(pin_class=ClockedMockPin)
        self.clock = clock


def drain(q: queue.Queue[QueueItem]) -> list[QueueItem]:
    out: list[QueueItem] = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def presses(items: list[QueueItem]) -> list[InputEvent]:
    return [x for x in items if isinstance(x, InputEvent) and x.edge == "press"]


def statuses(items: list[QueueItem]) -> list[SourceStatus]:
    return [x for x in items if isinstance(x, SourceStatus)]


def bounce_offsets(rng: random.Random, n: int, max_gap_ns: int = 500_000) -> list[int]:
    """``n`` bounce edges after a first one: each run shorter than the glitch minimum (2 ms),
    as contact bounce is, so that no run is mistaken for a decided level."""
    out, t = [], 0
    for _ in range(n):
        t += rng.randint(1, max_gap_ns)
        out.append(t)
    return out
