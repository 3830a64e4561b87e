"""The one interface every button source implements, and the events it puts on the queue.

A source stamps each edge with its own hardware clock (integer nanoseconds) and names that clock,
so the main loop never compares stamps of different clocks without converting them first.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import secrets
import select
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from companion.i18n import french_typography
from companion.text import Text

log = logging.getLogger("companion.inputs")

Role = Literal["seat", "confirm", "cancel", "undo"]
Edge = Literal["press", "release"]


@dataclass(frozen=True, slots=True)
class Clock:
    """A timestamp domain: events of the same clock can be ordered against each other."""

    name: str  # e.g. "CLOCK_MONOTONIC", "pico:E6614103E7452D2F", "sim", "pygame"
    resolution_ns: int  # smallest step the clock can tell apart (1000 for a µs clock)
    # Which run of that clock: a clock restarts from zero at a boot of its host or board, and
    # stamps of two runs cannot be compared. "" means the default for the name (epoch_of).
    epoch: str = ""


# A clock that is neither the host's CLOCK_MONOTONIC nor a board's starts with this process.
RUN_EPOCH = "run:" + secrets.token_hex(4)
_host_epoch: str | None = None


def host_epoch() -> str:
    """This boot of the host: CLOCK_MONOTONIC restarts at every boot, so its stamps belong to
    it. Linux names the boot; elsewhere the process is the narrowest run we can vouch for."""
    global _host_epoch
    if _host_epoch is None:
        try:
            with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
                _host_epoch = "boot:" + f.read().strip()[:36]
        except OSError:
            _host_epoch = RUN_EPOCH
    return _host_epoch


def epoch_of(clock: Clock) -> str:
    """The run of ``clock`` its stamps belong to (see ``Clock.epoch``)."""
    if clock.epoch:
        return clock.epoch
    return host_epoch() if clock.name == "CLOCK_MONOTONIC" else RUN_EPOCH


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One button edge. ``seat`` is the 0-based seat for role "seat", else the referee button's index."""

    role: Role
    seat: int
    edge: Edge
    t_ns: int
    clock: Clock
    source: str  # "gpio", "serial", "keyboard", "sim"
    # The stamp on the table clock (CLOCK_MONOTONIC of this boot, ns) when the source can say
    # it: what a decision's instant and a watermark are compared with (docs/decisions.md,
    # "Event time"). None: ``t_ns`` is on the table clock already (``clock.name`` is
    # CLOCK_MONOTONIC of this boot), or the source cannot map it (then the arrival counts).
    table_ns: int | None = None
    # Where the source's stream goes on after this edge, when the source keeps one it can be
    # asked to replay after a restart: (the stream's name, the position after this edge). A
    # Pico board's stream is one boot of it ("pico:<uid>@pico-boot:<boot_id>"), the position its
    # next seq. The table journals the latest position it handled with the events it covers
    # (docs/decisions.md, "Resume"), and a resumed game asks for everything after it.
    resume_at: tuple[str, int] | None = None

    @property
    def t_us(self) -> int:
        return self.t_ns // 1000

    @property
    def epoch(self) -> str:
        """The run of the stamping clock (a boot of the host or of the board)."""
        return epoch_of(self.clock)

    @property
    def res_us(self) -> int | None:
        """The stamp's resolution in whole µs for the table log, None when it is 1 µs or finer."""
        res = -(-self.clock.resolution_ns // 1000)
        return res if res > 1 else None


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """Something the table must see about the hardware: board gone/back, a stuck button..."""

    source: str
    kind: Literal["connected", "disconnected", "stuck", "released", "error", "info"]
    seat: int | None = None
    en: str = ""
    fr: str = ""
    crashed: str = ""  # a reading thread died of this ("OSError: ..."): the source is dead

    def __post_init__(self) -> None:
        # French typography (U+202F before : ; ! ?), however the sentence was built.
        object.__setattr__(self, "fr", french_typography(self.fr))

    @property
    def text(self) -> Text:
        """What the table is told, as ``Ui.say`` and the errors carry it (one half stands in
        for a missing other)."""
        return Text.pair(en=self.en or self.fr, fr=self.fr or self.en)


@dataclass(frozen=True, slots=True)
class Promise:
    """What a source promises about the presses still to come from it (its low watermark).

    ``watermark_ns`` is on the table clock (CLOCK_MONOTONIC of this boot, ns): every press this
    source will ever deliver stamped before it is on the main loop's queue already. A source
    publishes it only *after* putting those presses on the queue, so the loop that reads a
    promise and then drains the queue has seen every press the promise covers. None: it cannot
    promise anything yet (a board not tied to the table clock, a phone not synced). ``live``
    False: the source is gone (a board unplugged, every phone gone quiet): a decision does not
    wait for it. ``seats``: the seats the source serves, named on screen as not counted when a
    decision goes on without it (not live, or no watermark past the decision within its
    lateness). ``without``: seats the watermark passed without (one phone gone quiet among
    others: the rest still promise), named as not counted whenever a decision meets them."""

    source: str
    watermark_ns: int | None
    live: bool = True
    seats: tuple[int, ...] = ()
    without: tuple[int, ...] = ()


@runtime_checkable
class Promising(Protocol):
    """A source that publishes a watermark (docs/decisions.md, "Event time").

    ``promise`` is called from the main loop and must not block; ``ask`` (non-blocking too)
    asks the source to make its watermark pass ``t_ns`` as soon as it can: wake the reader and
    read the kernel until empty, ask the board for its clock, ping the phones.
    ``lateness_ns``: how long after an instant the source's watermark normally passes it; the
    loop waits at most that (plus a margin) for it before deciding without the source."""

    lateness_ns: int

    def promise(self) -> Promise: ...

    def ask(self, t_ns: int) -> None: ...


def promising_of(source: object) -> list[Promising]:
    """Every part of ``source`` that publishes a watermark, each once: a wrapper forwards its
    parts (``promising()``: ``Supervised``, ``CombinedSource``), the phones' source its server;
    a source that promises nothing (the keyboard, read by the loop itself) gives none."""
    found: list[Promising] = []
    seen: set[int] = set()

    def walk(s: object) -> None:
        if s is None or id(s) in seen:
            return
        seen.add(id(s))
        parts = getattr(s, "promising", None)
        if callable(parts):
            for part in parts():
                if id(part) not in seen:
                    seen.add(id(part))
                    found.append(part)
            return
        if isinstance(s, Promising):
            found.append(s)
            return
        walk(getattr(s, "server", None))  # the phones' source: its server promises for the pads

    walk(source)
    return found


def table_stamp(event: InputEvent) -> int | None:
    """``event``'s stamp on the table clock (CLOCK_MONOTONIC of this boot, ns), None when its
    source cannot say it (a board not tied to the table clock, the simulator's virtual clock):
    then its arrival is all the loop knows of it."""
    if event.table_ns is not None:
        return event.table_ns
    clock = event.clock
    if clock.name == "CLOCK_MONOTONIC" and epoch_of(clock) == host_epoch():
        return event.t_ns
    return None


QueueItem = InputEvent | SourceStatus
EventQueue = queue.Queue  # queue.Queue[QueueItem]; the main loop is the only consumer

INBOX_MAX = 4096  # items; at 1,000 presses a second, four seconds of a main loop that is stuck


class EventInbox(queue.Queue):  # type: ignore[type-arg]
    """The main loop's queue: bounded, and a source's ``put`` never blocks on it.

    A source thread that blocked would stop reading its hardware (the kernel's or the board's
    buffer would then drop edges in silence). When the queue is full the newest item is dropped
    and counted instead; the main loop reports ``dropped`` to the table."""

    def __init__(self, maxsize: int = INBOX_MAX) -> None:
        super().__init__(maxsize)
        self.dropped = 0
        # The main loop sleeps in poll() on this eventfd (``wait_for_item``), made at its first
        # wait; a put writes to it only while the loop sleeps, so a flood costs no syscall.
        self._wake_fd: int | None = None
        self._sleeping = False

    def put(self, item: object, block: bool = True, timeout: float | None = None) -> None:
        try:
            super().put(item, block=False)
        except queue.Full:
            with self.mutex:
                self.dropped += 1
            return
        # After the item is in: a loop that set _sleeping before this read looks at the queue
        # after setting it (and sees the item) or is woken by this write.
        if self._sleeping:
            fd = self._wake_fd
            if fd is not None:
                os.eventfd_write(fd, 1)

    def fileno(self) -> int:
        """The eventfd a put makes readable while the main loop sleeps on it."""
        if self._wake_fd is None:
            fd = self._wake_fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            weakref.finalize(self, os.close, fd)
        return self._wake_fd

    def wait_for_item(self, timeout: float) -> bool:
        """Sleep until an item is on the queue or ``timeout`` seconds pass; True if one is.

        The main loop's idle wait: one select() on an eventfd (to the microsecond: poll() would
        round a 19 ms look up to 20), not Queue.get's condition variable
        (a lock made, waited on with a timeout, then the condition's lock taken back), which
        made each of the idle loop's 50 wakes a second cost about a fifth more CPU."""
        if self._qsize():
            return True
        fd = self.fileno()
        self._sleeping = True
        try:
            if self._qsize():  # put between the first look and _sleeping: it did not write
                return True
            if select.select((fd,), (), (), max(0.0, timeout))[0]:
                with contextlib.suppress(BlockingIOError):
                    os.eventfd_read(fd)
        finally:
            self._sleeping = False
        return bool(self._qsize())

    def put_nowait(self, item: object) -> None:
        self.put(item, block=False)


@runtime_checkable
class InputSource(Protocol):
    """Started once by the main loop with the queue it must fill; stopped on exit.

    Implementations take their backend (pin factory, serial port/URL, ...) in ``__init__`` and do
    no I/O there beyond what is needed to fail early with a clear HardwareError.
    """

    name: str

    def start(self, events: queue.Queue[QueueItem]) -> None: ...

    def stop(self) -> None: ...


def crash_status(source: str, exc: BaseException) -> SourceStatus:
    """What the table sees when a source's thread died: the buttons of that source are dead."""
    what = f"{type(exc).__name__}: {exc}"
    return SourceStatus(
        source,
        "error",
        None,
        f"The {source} buttons stopped working ({what}); restart the game to use them again.",
        f"Les boutons {source} ne répondent plus ({what}) ; relancez la partie pour les retrouver.",
        crashed=what,
    )


def source_thread(
    source: str,
    target: Callable[[], None],
    events: queue.Queue[QueueItem] | None,
    *,
    name: str,
) -> threading.Thread:
    """A daemon thread running ``target``: an exception never ends it silently, it is logged and
    put on the queue as a source error, so the screen says which buttons are dead."""

    def run() -> None:
        try:
            target()
        except BaseException as exc:
            log.exception("the %s input thread stopped", source)
            if events is not None:
                events.put(crash_status(source, exc))

    return threading.Thread(target=run, name=name, daemon=True)
