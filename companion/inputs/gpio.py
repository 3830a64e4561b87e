"""Buttons wired to the Pi's 40-pin header, read through libgpiod (the ``gpiod`` binding).

Each button's line is requested from the kernel with the largest event buffer it grants, the
pull-up and both edges; each press is stamped with the kernel's timestamp of its first edge
(CLOCK_MONOTONIC, integer ns), and a gap in a line's event sequence numbers is reported as
dropped edges. Debouncing is our own (``debounce.py``). The seat LEDs are output lines on the
same chip (``companion/hardware/led_lines.py``); gpiozero's ``MockFactory`` drives the same
source in tests through gpiozero's public pin API.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import HardwareError
from companion.inputs.base import Clock, Promise, QueueItem, source_thread
from companion.inputs.debounce import Debouncer, DebounceSettings
from companion.inputs.gpio_decide import STOP, Barrier, EdgeDecider
from companion.inputs.gpio_lines import GpiodLines
from companion.inputs.gpio_pins import ButtonPin, ButtonPinError, ButtonStats, stuck_status
from companion.inputs.gpio_readers import LinesReader, Reader, ZeroReader
from companion.inputs.gpiochip import (
    NO_GPIOD,
    GpioLineError,
    chip_paths,
    find_header_chip,
    gpiod_available,
)

# Kernel edge stamps are nanoseconds, but interrupt latency jitters by about a microsecond, so
# that is the resolution we stand behind.
GPIO_CLOCK = Clock("CLOCK_MONOTONIC", 1_000)

# The kernel stamps an edge in its hard interrupt and queues it from the line's interrupt thread
# (SCHED_FIFO 50: tens of µs on a Pi, under load too). The reader reads every line until it is
# empty *after* reading the clock, so an edge stamped before that reading is read then, unless
# its interrupt thread had not queued it yet: deadlines are decided this far behind the clock for
# that, and no further (it was 5 ms when the reader decided before reading everything: a guess at
# how late the reader itself was; read-until-empty made that guess unnecessary). An edge
# later than this keeps its own stamp all the same (debounce.py, rule 6), it is only "late".
DEFAULT_DELIVERY_MARGIN_NS = 1_000_000
# How long after an instant a healthy reader's watermark passes it, beyond the debounce's own
# delay (the glitch minimum after a contact's last edge) and the margin above: a busy Pi's
# scheduling and a contact still bouncing at that instant.
LATENESS_SLACK_NS = 7_000_000


class GpioSource:
    """Debounced, kernel-stamped presses from buttons between a GPIO pin and ground.

    The lines come from ``lines`` (a ``GpiodLines``: libgpiod on the Pi, a model of the kernel
    in tests) or, for tests and other backends, from a gpiozero ``pin_factory`` such as
    ``MockFactory`` through gpiozero's public pin API (``gpio_readers.py``: one reading loop
    each). ``now_ns`` reads the clock the edges are stamped with; tests inject their own.
    """

    name = "gpio"

    def __init__(
        self,
        buttons: Sequence[ButtonPin],
        *,
        pin_factory: Any = None,
        lines: GpiodLines | None = None,
        settings: DebounceSettings | None = None,
        now_ns: Callable[[], int] = time.monotonic_ns,
        clock: Clock = GPIO_CLOCK,
        delivery_margin_ns: int = DEFAULT_DELIVERY_MARGIN_NS,
    ) -> None:
        if (pin_factory is None) == (lines is None):
            raise TypeError("GpioSource takes either lines or a pin_factory")
        self.buttons = tuple(buttons)
        self.owned_factory: Any = None  # a factory or lines opened for this source, closed on stop
        self.settings = settings if settings is not None else DebounceSettings()
        self.clock = clock
        self._now_ns = now_ns
        self._margin = delivery_margin_ns
        self._lock = threading.Lock()
        self._decide = EdgeDecider(
            self.buttons, name=self.name, clock=clock, lockout_ns=self.settings.lockout_ns, lock=self._lock
        )
        self._thread: threading.Thread | None = None
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._reader: Reader
        if lines is not None:
            self._reader = LinesReader(lines, [b.pin for b in self.buttons], self._inbox)
        else:
            self._reader = ZeroReader(self.buttons, pin_factory, self._inbox)

    # -- Promising: the source's watermark --------------------------------------------------

    @property
    def lateness_ns(self) -> int:
        """How long after an instant a healthy reader's watermark has passed it: the glitch
        minimum after a contact's last edge, the margin behind the clock, and a busy Pi's
        slack (10 ms with the defaults)."""
        return self.settings.glitch_ns + self._margin + LATENESS_SLACK_NS

    def promise(self) -> Promise:
        """Every press (seat or referee button) stamped before ``watermark_ns`` is on the queue:
        the clock read before the latest reading of every line until empty, less the margin,
        held back to the first edge of a contact the debouncer has not decided yet."""
        p = self._decide.promise
        thread = self._thread
        if thread is not None and not thread.is_alive():
            return Promise(self.name, p.watermark_ns, False, self._decide.seats)
        return p

    def ask(self, t_ns: int) -> None:
        """Wake the reader so that it reads every line and decides now, and again when the
        clock has passed ``t_ns`` by the margin or an undecided contact's deadline comes."""
        if t_ns > self._decide.asked:
            self._decide.asked = t_ns
        self._reader.nudge()

    # -- InputSource -------------------------------------------------------------------------

    def start(self, events: queue.Queue[QueueItem]) -> None:
        if self._thread is not None:
            raise RuntimeError("GpioSource already started")
        now = self._now_ns()
        debouncers = [Debouncer(self.settings, active=not level, t_ns=now) for level in self.levels()]
        self._decide.begin(debouncers, events)
        for b, d in zip(self.buttons, debouncers, strict=True):
            if d.stuck:
                events.put(stuck_status(b))
        self._reader.attach()
        reader, decide, now_ns, margin = self._reader, self._decide, self._now_ns, self._margin
        self._thread = source_thread(
            "gpio", lambda: reader.run(decide, now_ns, margin), events, name="gpio-source"
        )
        self._thread.start()

    def stop(self) -> None:
        self._reader.detach()
        if self._thread is not None:
            self._inbox.put(STOP)
            self._reader.wake()
            self._thread.join(timeout=5)
            self._thread = None
        self._reader.close()
        if self.owned_factory is not None:
            self.owned_factory.close()
            self.owned_factory = None

    # -- for the wiring monitor and tests --------------------------------------------------

    def levels(self) -> list[int]:
        """Each button's line now, 1 open (pulled up) and 0 closed: what the debouncers start
        from, and what ``companion doctor`` shows."""
        return self._reader.levels()

    def now_ns(self) -> int:
        """The current time on the clock this source stamps with."""
        return self._now_ns()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every edge delivered so far, and every deadline due now, is decided."""
        barrier = Barrier()
        self._inbox.put(barrier)
        self._reader.wake()
        return barrier.done.wait(timeout)

    def stats(self) -> list[ButtonStats]:
        with self._lock:
            return [
                ButtonStats(b, d.pressed, d.stuck, d.presses, d.bounces, d.glitches)
                for b, d in zip(self.buttons, self._decide.debouncers, strict=True)
            ]


def open_gpio_source(
    buttons: Sequence[ButtonPin],
    *,
    chip: int | None,
    settings: DebounceSettings,
    pin_factory: Any = None,
    open_chip: Callable[[str], Any] | None = None,
    paths: Callable[[], list[str]] = chip_paths,
) -> GpioSource:
    """A GPIO source whose lines are requested through libgpiod on the header's chip, or on
    ``pin_factory`` when it is one of gpiozero's backends (``MockFactory``); the seat LEDs'
    lines (``led_lines.LedLines``) only tell which chip. Nothing is left claimed on error."""
    buttons = list(buttons)
    if pin_factory is not None and not getattr(pin_factory, "buttons_through_gpiod", False):
        return GpioSource(buttons, pin_factory=pin_factory, settings=settings)
    if pin_factory is not None:
        path = str(pin_factory.chip_path)
    else:
        path = find_header_chip(chip, open_chip=open_chip, paths=paths)
    if open_chip is None and not gpiod_available():
        raise HardwareError(NO_GPIOD)
    try:
        lines = GpiodLines(path, [b.pin for b in buttons], open_chip=open_chip)
    except GpioLineError as exc:
        b = next(b for b in buttons if b.pin == exc.pin)
        cause = exc.__cause__ if exc.__cause__ is not None else exc
        raise ButtonPinError(b, cause) from exc.__cause__
    try:
        return GpioSource(buttons, lines=lines, settings=settings)
    except BaseException:
        lines.close()
        raise
