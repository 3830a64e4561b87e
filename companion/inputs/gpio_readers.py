"""The two ways a GPIO source's edges reach its decider, each with its own reading loop: the
kernel's lines through libgpiod (the Pi), read by the source's thread itself, and gpiozero's pin
backends (``MockFactory``), whose callback threads hand edges over an inbox.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.inputs.gpio_decide import ASK, GAP, EdgeDecider, Gap
from companion.inputs.gpio_lines import GpiodLines
from companion.inputs.gpio_pins import ButtonPin, ButtonPinError


class Reader(Protocol):
    """What a GPIO source asks of where its edges come from."""

    def levels(self) -> list[int]: ...
    def attach(self) -> None: ...
    def wake(self) -> None: ...
    def nudge(self) -> None: ...
    def detach(self) -> None: ...
    def close(self) -> None: ...
    def run(self, decide: EdgeDecider, now_ns: Callable[[], int], margin_ns: int) -> None: ...


def ticks_to_ns(ticks: int | float) -> int:
    """Our pins hand over integer ns; gpiozero's own pins hand over float seconds."""
    if isinstance(ticks, int):
        return ticks
    return round(ticks * 1e9)


class LinesReader:
    """libgpiod: the source's thread waits on the lines' fds itself, reads the kernel's events
    and decides, so an edge reaches the queue without a hand-off to another thread (it was one
    more wake-up on a busy Pi: bench/gpio.py, "gpio.kernel_to_queue_us")."""

    def __init__(self, lines: GpiodLines, pins: Sequence[int], inbox: queue.SimpleQueue[Any]) -> None:
        self.lines = lines
        self._index_of_pin = {pin: i for i, pin in enumerate(pins)}
        self._pins = tuple(pins)
        self._inbox = inbox

    def levels(self) -> list[int]:
        return [self.lines.level(pin) for pin in self._pins]

    def attach(self) -> None:
        """Nothing to attach: the reading thread reads the lines."""

    def wake(self) -> None:
        self.lines.wake()

    def nudge(self) -> None:
        self.lines.wake()

    def detach(self) -> None:
        """Nothing attached."""

    def close(self) -> None:
        self.lines.close()

    def run(self, decide: EdgeDecider, now_ns: Callable[[], int], margin: int) -> None:
        inbox = self._inbox
        get_nowait, empty = inbox.get_nowait, inbox.empty
        index_of = self._index_of_pin
        edges: list[tuple[int, int, Any]] = []
        others: list[Any] = []
        add_edge, add_other = edges.append, others.append

        def on_edge(pin: int, t_ns: int, level: int) -> None:
            add_edge((index_of[pin], t_ns, level))

        def on_gap(pin: int, lost: int, t_ns: int) -> None:
            add_other(Gap(index_of[pin], lost, t_ns))
            add_edge((index_of[pin], t_ns, GAP))  # in stamp order, just before the edge kept

        wait, read = self.lines.wait, self.lines.read
        while True:
            ready = wait(decide.timeout(now_ns(), margin))
            if ready:
                read(ready, on_edge, on_gap)
            # Flushes and stop before the clock: a flush put before it is answered by a step
            # that decided up to a clock read after it.
            while not empty():
                add_other(get_nowait())
            # The clock after those reads, then every line read again until empty: an edge
            # stamped before this instant is read now (it reached its line's buffer while we
            # read the others, or while this thread was held up), unless its interrupt thread
            # had not queued it yet (the margin). Deciding up to a clock read before the reads
            # (or after the ready lines were taken) passed edges still in the kernel: a brush
            # became a press, and a later press on one line was queued before earlier ones.
            horizon = now_ns() - margin
            ready = wait(0)
            if ready:
                read(ready, on_edge, on_gap)
            if decide(edges, horizon, others):
                return
            edges.clear()
            others.clear()


class _EdgeHandler:
    """A pin's ``when_changed`` target; gpiozero holds it weakly, the source strongly."""

    __slots__ = ("__weakref__", "index", "put")

    def __init__(self, index: int, inbox: queue.SimpleQueue[Any]) -> None:
        self.index = index
        self.put = inbox.put

    def __call__(self, ticks: int | float, state: int | bool) -> None:
        # Runs on the backend's callback thread: hand over and return, nothing else.
        self.put((self.index, ticks, state))


class ZeroReader:
    """gpiozero's backends (``MockFactory``): every pin claimed at once, so a wrong pin fails
    before anything has started; the backend's callback threads put edges in the inbox."""

    def __init__(self, buttons: Sequence[ButtonPin], pin_factory: Any, inbox: queue.SimpleQueue[Any]) -> None:
        from gpiozero import GPIOZeroError, InputDevice

        self._inbox = inbox
        self._handlers = [_EdgeHandler(i, inbox) for i in range(len(buttons))]
        self._devices: list[Any] = []
        try:
            for b in buttons:
                self._devices.append(InputDevice(b.pin, pull_up=True, pin_factory=pin_factory))
        except GPIOZeroError as exc:
            self.close()
            raise ButtonPinError(b, exc) from exc

    def levels(self) -> list[int]:
        return [int(dev.pin.state) for dev in self._devices]

    def attach(self) -> None:
        for dev, handler in zip(self._devices, self._handlers, strict=True):
            dev.pin.edges = "both"
            dev.pin.when_changed = handler

    def wake(self) -> None:
        """Nothing to do: whatever is put in the inbox wakes the reading thread."""

    def nudge(self) -> None:
        self._inbox.put(ASK)

    def detach(self) -> None:
        for dev in self._devices:
            if not dev.closed:
                dev.pin.when_changed = None

    def close(self) -> None:
        for dev in self._devices:
            dev.close()

    def run(self, decide: EdgeDecider, now_ns: Callable[[], int], margin: int) -> None:
        inbox = self._inbox
        get, get_nowait, empty = inbox.get, inbox.get_nowait, inbox.empty
        while True:
            try:
                first = get(timeout=decide.timeout(now_ns(), margin))
            except queue.Empty:
                first = None
            # Read the clock before draining: every edge stamped before this instant is then
            # either in the batch or was stamped by a kernel that has not delivered it yet
            # (which is what the delivery margin allows for).
            horizon = now_ns() - margin
            batch = [] if first is None else [first]
            while not empty():  # this thread is the only consumer
                batch.append(get_nowait())
            edges: list[tuple[int, int, Any]] = []
            for x in batch:
                if type(x) is tuple:
                    index, ticks, state = x
                    edges.append((index, ticks if type(ticks) is int else ticks_to_ns(ticks), state))
            if decide(edges, horizon, [x for x in batch if type(x) is not tuple]):
                return
