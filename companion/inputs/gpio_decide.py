"""One step of the GPIO source's reading thread: a batch of edges read up to a clock reading,
given to each button's debouncer, decided in stamp order, put on the queue, and the source's
watermark moved on.

This is the edge-to-queue path (bench/gpio.py, "gpio.kernel_to_queue_us"): each line's next
deadline is kept in ``dues`` (updated when its debouncer changes) so that an edge polls no other
line that has nothing due, the late count is looked at for the lines that had edges only, and a
batch is sorted only when it decides more than one thing.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import Any

from companion.inputs.base import Clock, InputEvent, Promise, QueueItem
from companion.inputs.debounce import Debouncer, Decision, Stuck, Transition, Unstuck
from companion.inputs.gpio_pins import ButtonPin, gap_status, late_status, released_status, stuck_status

Edge = tuple[int, int, Any]  # (button index, t_ns, level, or GAP)


class Gap:
    """In a batch's others: the kernel dropped ``lost`` edges of a line before ``t_ns``."""

    __slots__ = ("index", "lost", "t_ns")

    def __init__(self, index: int, lost: int, t_ns: int) -> None:
        self.index, self.lost, self.t_ns = index, lost, t_ns


class Barrier:
    """In the inbox: set once every edge delivered before it, and every deadline due, is decided."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = threading.Event()


STOP = object()
ASK = object()  # in the inbox: the main loop asked for a watermark (wakes the gpiozero path)
GAP = object()  # in a batch's edges: the kernel dropped that line's edges up to this stamp


class EdgeDecider:
    """The debouncers of a source's buttons and what is decided from them, one batch at a time,
    on the reading thread only (``lock`` guards the debouncers against ``stats()``).

    ``promise`` is the source's watermark (docs/decisions.md, "Event time"): written after the
    batch's puts, read by the main loop; one reference, swapped whole."""

    def __init__(
        self,
        buttons: Sequence[ButtonPin],
        *,
        name: str,
        clock: Clock,
        lockout_ns: int,
        lock: threading.Lock,
    ) -> None:
        self.buttons = tuple(buttons)
        self._name, self._clock, self._lock = name, clock, lock
        # A contact still undecided this long after its first edge is a fault (a line that
        # chatters for ever), not a press in the making: it holds nothing back any more (if it
        # ever is a press, it is a late one, and said so by the main loop).
        self._give_up = lockout_ns
        self._seats = tuple(b.seat for b in self.buttons if b.role == "seat")
        self.promise = Promise(name, None, True, self._seats)
        self.watermark = -1  # the latest promised
        self.asked = -1  # the latest instant the main loop asked about
        self.held_from: int | None = None  # the earliest decision held back
        self.debouncers: list[Debouncer] = []
        self._dues: list[int | None] = []  # each debouncer's next deadline
        self._reported_late: list[int] = []
        self._last_horizon = 0  # decided up to there: edges the kernel dropped are later
        # Decisions stamped at or after the watermark, held until it passes them: past the
        # horizon (an edge read after the clock decided an earlier candidate of its line),
        # another line's edge stamped before them may still be in the kernel; past another
        # line's undecided contact, that contact may still be a press stamped before them (a
        # press that bounces longer is decided later). So the queue is in stamp order.
        self._held: list[tuple[int, Decision]] = []
        self._events: queue.Queue[QueueItem] | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        return self._seats

    def begin(self, debouncers: list[Debouncer], events: queue.Queue[QueueItem]) -> None:
        self.debouncers = debouncers
        self._dues = [d.next_deadline() for d in debouncers]
        self._reported_late = [0] * len(debouncers)
        self._events = events

    def timeout(self, now_ns: int, margin_ns: int) -> float:
        """How long the reader may wait for an edge before a deadline, an ask or a held decision
        needs deciding (at most a second)."""
        deadlines = [d for d in self._dues if d is not None]
        if self.asked >= self.watermark:
            deadlines.append(self.asked)
        if self.held_from is not None:
            deadlines.append(self.held_from)
        if not deadlines:
            return 1.0
        wait_ns = min(deadlines) + margin_ns - now_ns
        return min(max(wait_ns, 0) / 1e9, 1.0)

    def __call__(self, edges: list[Edge], horizon: int, others: list[Any]) -> bool:
        """The edges (index, t_ns, level) and the rest (gaps, flushes, stop) of one batch,
        decided up to ``horizon`` and put on the queue; True to stop."""
        stop, barriers = self._others(others)
        if len(edges) > 1:
            # Lines are read one after the other: order by stamp, not by arrival.
            edges.sort(key=_second)
        out: list[tuple[int, Decision]] = []
        with self._lock:
            late = self._feed(edges, out)
            self._poll(horizon, out)
            mark = self._undecided_mark(horizon)
        self._last_horizon = horizon
        self._publish(self._hold(out, mark, horizon), late, mark)
        for b in barriers:
            b.done.set()
        return stop

    def _others(self, others: list[Any]) -> tuple[bool, list[Barrier]]:
        assert self._events is not None
        stop = False
        barriers: list[Barrier] = []
        for x in others:
            if x is STOP:
                stop = True
            elif type(x) is Gap:
                self._events.put(gap_status(self.buttons[x.index], x.lost))
            elif x is not ASK:
                barriers.append(x)
        return stop, barriers

    def _feed(self, edges: list[Edge], out: list[tuple[int, Decision]]) -> list[int]:
        """Each edge to its line's debouncer; the lines whose late count grew."""
        debouncers, dues, reported_late = self.debouncers, self._dues, self._reported_late
        late: list[int] = []
        for index, t_ns, state in edges:
            d = debouncers[index]
            if state is GAP:
                # The kernel dropped this line's edges since the last read: decide nothing
                # from the level they would have changed (Debouncer.blind).
                d.blind(self._last_horizon, t_ns)
            else:
                for dec in d.edge(t_ns, not state):
                    out.append((index, dec))
                if d.late != reported_late[index]:
                    reported_late[index] = d.late
                    late.append(index)
            dues[index] = d.next_deadline()
        return late

    def _poll(self, horizon: int, out: list[tuple[int, Decision]]) -> None:
        dues = self._dues
        for index, due in enumerate(dues):
            if due is not None and due <= horizon:
                d = self.debouncers[index]
                for dec in d.poll(horizon):
                    out.append((index, dec))
                dues[index] = d.next_deadline()

    def _undecided_mark(self, horizon: int) -> int:
        """What a press not decided yet could be stamped: the watermark stops there."""
        mark = horizon
        floor = horizon - self._give_up
        for d in self.debouncers:
            u = d.undecided_press_ns()
            if u is not None and floor < u < mark:
                mark = u
        return mark

    def _hold(self, out: list[tuple[int, Decision]], mark: int, horizon: int) -> list[tuple[int, Decision]]:
        """``out`` with what was held before, in stamp order, less what is at or after ``mark``
        (held until the watermark passes it)."""
        held = self._held
        if held:
            out += held
            held.clear()
        if len(out) > 1:
            out.sort(key=_stamp_of)
        self.held_from = None
        if out and _stamp_of(out[-1]) >= mark:
            k = next(i for i, x in enumerate(out) if _stamp_of(x) >= mark)
            held.extend(out[k:])
            del out[k:]
            # Woken when the horizon can pass the first held past it; those held for an
            # undecided contact are released at its deadline (in ``dues`` already).
            self.held_from = next((s for s in map(_stamp_of, held) if s >= horizon), None)
        return out

    def _publish(self, out: list[tuple[int, Decision]], late: list[int], mark: int) -> None:
        assert self._events is not None
        put, buttons = self._events.put, self.buttons
        for index, dec in out:
            put(self._to_item(index, dec))
        for index in late:
            put(late_status(buttons[index]))
        # Published after the puts: a loop that reads the promise and then drains the queue
        # has every press it covers (held decisions are at or after it).
        if mark > self.watermark:
            self.watermark = mark
            self.promise = Promise(self._name, mark, True, self._seats)

    def _to_item(self, index: int, dec: Decision) -> QueueItem:
        b = self.buttons[index]
        if isinstance(dec, Transition):
            return InputEvent(b.role, b.seat, dec.edge, dec.t_ns, self._clock, self._name)
        if isinstance(dec, Stuck):
            return stuck_status(b)
        return released_status(b)


def _second(item: tuple[Any, ...]) -> Any:
    return item[1]


def _stamp_of(item: tuple[int, Decision]) -> int:
    return _stamp(item[1])


def _stamp(dec: Decision) -> int:
    if type(dec) is Transition:
        return dec.t_ns
    if isinstance(dec, Stuck):
        return dec.decided_ns
    assert isinstance(dec, Unstuck)
    return dec.t_ns
