"""Sources behind sources: several combined into one (``gpio+keyboard``: their stamps converted
to one clock, the coarser resolution the one reported), one supervised (built again when its
thread dies), and a source's class loaded by name with the fix named when it is missing.
``hardware/sources.py`` builds the source the config or ``--input`` names.
"""

from __future__ import annotations

import contextlib
import importlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from companion.errors import ConfigError, HardwareError
from companion.inputs.base import (
    Clock,
    InputEvent,
    InputSource,
    Promise,
    Promising,
    QueueItem,
    SourceStatus,
    promising_of,
    source_thread,
)
from companion.inputs.clocks import ClockMerger, measure_offset
from companion.text import Text

COMMON_CLOCK = Clock("CLOCK_MONOTONIC", 1)


def load_class(path: str, *, extra: str | None = None) -> Any:
    """``package.module.Class`` imported on demand, with the fix named if it is missing."""
    module_name, _, cls_name = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        from companion.advice import pip_install

        hint = Text("inputs.install_extra", pip=pip_install(extra)) if extra else Text("inputs.other_input")
        raise HardwareError("inputs.cannot_load", source=cls_name, exc=exc, hint=hint) from exc
    return getattr(module, cls_name)


_STOP = object()


class _Mark:
    """Put on a part's inner queue behind the presses its promise covers: the forwarder
    publishes the promise when it gets there, once those presses are on the main queue."""

    __slots__ = ("promise", "to")

    def __init__(self, promise: Promise, to: _Forwarded) -> None:
        self.promise = promise
        self.to = to


class _Forwarded:
    """A part's watermark as seen from the main queue: a part promises what is on *its* queue,
    and the combined source's forwarding thread has yet to move it to the main loop's. So the
    part's promise goes down the same queue as its presses (a ``_Mark``) and holds from the
    moment the forwarder reaches it; until then the one before it holds."""

    def __init__(self, part: Promising, inner: queue.Queue[Any]) -> None:
        self.part = part
        self.inner = inner
        self.published = Promise(getattr(part, "name", "?"), None)

    @property
    def lateness_ns(self) -> int:
        # Read when a decision starts waiting: a part's lateness moves (the phones' follows
        # their round trips).
        return self.part.lateness_ns + FORWARD_NS

    def promise(self) -> Promise:
        self.inner.put(_Mark(self.part.promise(), self))
        return self.published

    def ask(self, t_ns: int) -> None:
        self.part.ask(t_ns)


# The forwarding thread's hop from a part's queue to the main one, on top of a part's lateness.
FORWARD_NS = 2_000_000


class CombinedSource:
    """Several sources behind one; every event leaves on the common clock.

    A source may only learn its clock once started (the Pico board names its clock in its hello):
    such a source is tied to the common clock at ``start``, and one with a ``clock_offset()``
    (a drifting crystal) is re-tied before each of its events is converted, with the offset of
    that event's own epoch (a board that rebooted has a new clock, tied anew; a board that was
    not there at start is tied at its first press)."""

    def __init__(
        self,
        sources: Sequence[InputSource],
        *,
        common: Clock = COMMON_CLOCK,
        now_ns: Callable[[], int] = time.monotonic_ns,
        offset_wait_s: float = 2.0,
    ) -> None:
        self.sources = tuple(sources)
        self.name = "+".join(s.name for s in self.sources)
        self.merger = ClockMerger(common)
        self._now_ns = now_ns
        self._offset_wait_s = offset_wait_s
        for s in self.sources:
            if not hasattr(s, "clock"):
                raise ConfigError(
                    "registry.init",
                    name=s.name,
                )
            clock = getattr(s, "clock", None)
            if clock is None and not hasattr(s, "clock_offset"):
                raise self._untied(s, "?")
            if isinstance(clock, Clock):
                self._tie(s, clock)
        self._inner: list[queue.Queue[Any]] = []
        self._threads: list[threading.Thread] = []
        self._promising: list[_Forwarded] = []

    def promising(self) -> list[_Forwarded]:
        """The parts' watermarks, each as it holds on the main queue (``_Forwarded``)."""
        return list(self._promising)

    @property
    def clock(self) -> Clock:
        """The coarsest clock of the sources tied so far (each event keeps its own)."""
        return self.merger.clock

    def _untied(self, s: Any, clock_name: str) -> ConfigError:
        return ConfigError(
            "registry.untied",
            name=s.name,
            clock_name=clock_name,
            common=self.merger.common.name,
        )

    def _tie(self, s: Any, clock: Clock) -> None:
        if self.merger.knows(clock):
            return
        if clock.name == self.merger.common.name:
            self.merger.add(clock)
        elif hasattr(s, "clock_offset"):
            deadline = time.monotonic() + self._offset_wait_s
            offset = s.clock_offset()
            while offset is None and time.monotonic() < deadline:
                time.sleep(0.02)  # the board's first heartbeat is at most 250 ms away
                offset = s.clock_offset()
            if offset is None:
                raise self._untied(s, clock.name)
            self.merger.add(clock, offset)
        elif hasattr(s, "now_ns"):
            try:
                self.merger.add(clock, measure_offset(s.now_ns, self._now_ns))
            except ValueError:
                raise self._untied(s, clock.name) from None
        else:
            raise self._untied(s, clock.name)

    def start(self, events: queue.Queue[QueueItem]) -> None:
        started: list[InputSource] = []
        try:
            for s in self.sources:
                inner: queue.Queue[Any] = queue.Queue()
                s.start(inner)
                started.append(s)
                clock = getattr(s, "clock", None)
                if isinstance(clock, Clock):
                    self._tie(s, clock)
                elif not hasattr(s, "clock_offset"):
                    raise self._untied(s, "?")
                t = source_thread(
                    self.name, partial(self._forward, s, inner, events), events, name=f"merge-{s.name}"
                )
                t.start()
                self._inner.append(inner)
                self._threads.append(t)
                self._promising += [_Forwarded(part, inner) for part in promising_of(s)]
        except BaseException:
            for s in started:
                s.stop()
            self._join()
            raise

    def stop(self) -> None:
        for s in self.sources:
            s.stop()
        self._join()

    def _join(self) -> None:
        for inner in self._inner:
            inner.put(_STOP)
        for t in self._threads:
            t.join(5)
        self._inner.clear()
        self._threads.clear()
        self._promising.clear()

    def _forward(self, source: Any, inner: queue.Queue[Any], events: queue.Queue[Any]) -> None:
        drifting = hasattr(source, "clock_offset")
        while True:
            item = inner.get()
            if item is _STOP:
                return
            if type(item) is _Mark:
                item.to.published = item.promise  # what came before it is on the main queue
                continue
            if isinstance(item, InputEvent):
                if drifting and item.clock.name != self.merger.common.name:
                    offset = self._offset_of(source, item.clock)
                    if offset is not None:
                        self.merger.update(item.clock, offset)
                if not self.merger.converts(item.clock):
                    events.put(
                        SourceStatus(
                            self.name,
                            "error",
                            item.seat if item.role == "seat" else None,
                            f"A press of the {source.name} buttons was dropped: its clock "
                            f"({item.clock.name}) could not be tied to the others yet.",
                            f"Un appui des boutons {source.name} a été écarté : son horloge "
                            f"({item.clock.name}) n'a pas encore pu être reliée aux autres.",
                        )
                    )
                    continue
                item = self.merger.convert(item)
            events.put(item)

    def _offset_of(self, source: Any, clock: Clock) -> Any:
        """The offset of ``clock``'s own epoch; after a reboot, its first heartbeat is awaited
        (a quarter of a second away) rather than the old boot's offset used."""
        deadline = time.monotonic() + self._offset_wait_s
        offset = source.clock_offset(clock)
        while offset is None and time.monotonic() < deadline:
            time.sleep(0.02)
            offset = source.clock_offset(clock)
        return offset


class _Watch:
    """The queue a supervised source fills: passes everything on, except the news of its own
    death, which the supervisor acts on."""

    def __init__(self, events: queue.Queue[Any], on_crash: Callable[[SourceStatus], None]) -> None:
        self._events = events
        self._on_crash = on_crash

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, SourceStatus) and item.crashed:
            self._on_crash(item)
        else:
            self._events.put(item)

    def put_nowait(self, item: Any) -> None:
        self.put(item)


class Supervised:
    """A source that comes back: when one of its reading threads dies (a transient EIO from
    the GPIO chip, a bug), the source is stopped, built again and restarted, and the table is
    told both. The game's source stays the same object; attributes are the current source's.

    A pin factory shared with the LEDs is not rebuilt, only the source on it, so the LEDs go on.
    Restarting waits ``retry_s`` (doubling up to ``max_retry_s`` while building fails)."""

    def __init__(
        self, build: Callable[[], InputSource], *, retry_s: float = 0.2, max_retry_s: float = 5.0
    ) -> None:
        self._build = build
        self.source = build()
        self.name = self.source.name
        self.restarts = 0
        self._retry_s = retry_s
        self._max_retry_s = max_retry_s
        self._events: queue.Queue[Any] | None = None
        self._watch: _Watch | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._restarter: threading.Thread | None = None

    def promising(self) -> list[Promising]:
        """The watermarks of the source running now (a restarted one's, after a restart): its
        reader puts on the main queue through ``_Watch``, with no hop of its own."""
        return promising_of(self.source)

    def __getattr__(self, name: str) -> Any:
        # Only called for what Supervised itself lacks: keys, handle, set_leds, clock...
        return getattr(self.__dict__["source"], name)

    def start(self, events: queue.Queue[QueueItem]) -> None:
        self._events = events
        self._watch = _Watch(events, self._crashed)
        self.source.start(self._watch)  # type: ignore[arg-type]

    def stop(self) -> None:
        self._stopping.set()
        restarter = self._restarter
        if restarter is not None and restarter is not threading.current_thread():
            restarter.join(10)
        with self._lock:
            self.source.stop()

    def _say(self, kind: Any, en: str, fr: str) -> None:
        if self._events is not None:
            self._events.put(SourceStatus(self.name, kind, None, en=en, fr=fr))

    def _crashed(self, status: SourceStatus) -> None:
        # Never wait for the lock here: the restarter holds it while it stops the old source,
        # whose other threads may be dying too (one restart at a time is enough).
        if not self._lock.acquire(blocking=False):
            return
        try:
            if self._stopping.is_set() or (self._restarter is not None and self._restarter.is_alive()):
                return
            self._say(
                "disconnected",
                f"The {self.name} buttons stopped ({status.crashed}): starting them again.",
                f"Les boutons {self.name} se sont arrêtés ({status.crashed}) : redémarrage.",
            )
            self._restarter = threading.Thread(target=self._restart, name=f"restart-{self.name}", daemon=True)
            self._restarter.start()
        finally:
            self._lock.release()

    def _restart(self) -> None:
        delay = self._retry_s
        said = ""
        while not self._stopping.wait(delay):
            with self._lock:
                if self._stopping.is_set():
                    return
                with contextlib.suppress(Exception):  # it is dead already; stop what is left
                    self.source.stop()
                try:
                    source = self._build()
                    source.start(self._watch)  # type: ignore[arg-type]
                except Exception as exc:  # said to the table, then tried again
                    what = f"{type(exc).__name__}: {exc}"
                    if what != said:
                        said = what
                        self._say(
                            "error",
                            f"The {self.name} buttons cannot start again yet ({what}); trying again.",
                            f"Les boutons {self.name} ne redémarrent pas encore ({what}) ; nouvel essai.",
                        )
                    delay = min(delay * 2, self._max_retry_s)
                    continue
                self.source = source
                self.restarts += 1
            self._say(
                "connected",
                f"The {self.name} buttons work again.",
                f"Les boutons {self.name} répondent de nouveau.",
            )
            return
