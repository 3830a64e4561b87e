"""The GPIO reader in event time (issue 34, case 4): every edge still in the kernel is read
before anything is decided up to the clock, and the source's watermark (``GpioSource.promise``)
says how far its presses are all on the queue.

The kernel is the model of tests/fakes (libgpiod's reads: at most 64 events a call unless asked
for more, a read of an empty buffer blocks). What happens *between* two steps of the reader (an
edge landing on another line while the reader is held up) is scripted on the reader's own clock
reads and reads, so each case runs the same every time."""

from __future__ import annotations

import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.inputs.base import InputEvent, Promise, Promising, QueueItem
from companion.inputs.debounce import Debouncer, DebounceSettings, Transition
from companion.inputs.gpio import DEFAULT_DELIVERY_MARGIN_NS, GpioSource
from companion.inputs.gpio_lines import MAX_EVENT_BUFFER, GpiodLines
from companion.inputs.gpio_pins import ButtonPin
from tests.gpio_helpers import FakeClock, drain, presses, statuses
from tests.serial_helpers import wait_for

FAKES = Path(__file__).resolve().parents[1] / "fakes"
US = 1_000
MS = 1_000_000
PINS = [17, 27, 22, 23, 24, 25, 5, 6]


class ReaderClock(FakeClock):
    """A FakeClock that, once armed, runs ``hook`` at the reader's first clock read after its
    wait returned a line with events: what the kernel did while the reader, woken, was held
    up before it looked at the clock."""

    def __init__(self) -> None:
        super().__init__()
        self._hook: Callable[[], None] | None = None
        self._armed = threading.Event()
        self._woken = threading.Event()

    @property
    def armed(self) -> bool:
        return self._armed.is_set()

    def arm(self, hook: Callable[[], None]) -> None:
        self._hook = hook
        self._woken.clear()
        self._armed.set()

    def woke(self) -> None:
        if self._armed.is_set():
            self._woken.set()

    reader_reads = 0  # the source thread's clock reads

    def __call__(self) -> int:
        if threading.current_thread().name == "gpio-source":
            self.reader_reads += 1
        if self._woken.is_set() and threading.current_thread().name == "gpio-source":
            self._woken.clear()
            self._armed.clear()
            hook, self._hook = self._hook, None
            assert hook is not None
            hook()
        return super().__call__()


class WatchedLines(GpiodLines):
    """The real GpiodLines, telling the clock when a wait returned lines with events."""

    clock: ReaderClock

    def wait(self, timeout_s: float) -> list[tuple[int, int]]:
        ready = super().wait(timeout_s)
        if ready:
            self.clock.woke()
        return ready


@pytest.fixture
def fk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delitem(sys.modules, "fake_kernel", raising=False)
    import fake_kernel

    fake_kernel.pi_chips()
    yield fake_kernel


class Rig:
    def __init__(self, fk: Any, seats: int, margin_ns: int | None, q: Any = None) -> None:
        self.kernel = fk.FakeKernel()
        self.clock = ReaderClock()
        self.pins = PINS[:seats]
        lines = WatchedLines("/dev/gpiochip0", self.pins, open_chip=self.kernel.open_chip)
        lines.clock = self.clock
        kw: dict[str, Any] = {} if margin_ns is None else {"delivery_margin_ns": margin_ns}
        self.src = GpioSource(
            [ButtonPin("seat", i, p) for i, p in enumerate(self.pins)], lines=lines, now_ns=self.clock, **kw
        )
        self.q: queue.Queue[QueueItem] = queue.Queue() if q is None else q
        self.src.start(self.q)

    def idle(self) -> None:
        assert self.src.flush()


@pytest.fixture
def rig(fk: Any) -> Iterator[Rig]:
    r = Rig(fk, 2, None)
    yield r
    r.src.stop()


@pytest.fixture
def rig8(fk: Any) -> Iterator[Rig]:
    r = Rig(fk, 8, None)
    yield r
    r.src.stop()


def _seat_stamps(items: list[QueueItem]) -> list[tuple[int, int]]:
    return [(e.seat, e.t_ns) for e in presses(items)]


# -- the model itself ------------------------------------------------------------------------


def test_the_kernel_model_reads_as_libgpiod_does(fk: Any) -> None:
    kernel = fk.FakeKernel()
    chip = kernel.open_chip("/dev/gpiochip0")
    import gpiod
    from gpiod.line import Edge

    both = gpiod.LineSettings(edge_detection=Edge.BOTH)
    big = chip.request_lines({17: both}, event_buffer_size=MAX_EVENT_BUFFER)
    small = chip.request_lines({27: both}, event_buffer_size=0)
    odd = chip.request_lines({(22, 23, 24): both}, event_buffer_size=0)
    assert (big.size, small.size, odd.size) == (1024, 16, 64)  # 3 x 16, rounded up by kfifo_alloc
    for k in range(200):
        kernel.edge(17, 1000 + k, k & 1)
    assert len(big.read_edge_events()) == 64  # the binding's default
    assert len(big.read_edge_events(1000)) == 136  # all that is left: the buffer held them all
    for k in range(20):
        kernel.edge(27, 1000 + k, k & 1)
    # 16 kept, the oldest 4 dropped; sequence numbers count the dropped ones too.
    got = small.read_edge_events(1000)
    assert [e.line_seqno for e in got] == list(range(5, 21)) and kernel.dropped == 4
    # libgpiod's own buffer (64 when the request asked for 0) caps a read.
    for k in range(20):
        kernel.edge(22, 5000 + k, k & 1)
    assert len(odd.read_edge_events(1000)) == 20
    # An empty buffer blocks the read until an event comes (the fd is a blocking one).
    t = threading.Timer(0.05, lambda: kernel.edge(17, 9000, 0))
    t.start()
    (ev,) = big.read_edge_events(1000)
    assert ev.timestamp_ns == 9000 and kernel.blocked_reads == 1
    t.join()
    for r in (big, small, odd):
        r.release()


# -- issue 34, case 4 -------------------------------------------------------------------------


def test_a_hundred_queued_glitch_edges_ending_at_rest_are_no_press(rig: Rig) -> None:
    # The reader starved while a contact brushes 100 times (runs of 100 µs, two of its levels
    # read late by the kernel: the same level twice). Read 64 at a time and decided up to the
    # clock after the first 64, the line looked closed for good: a press, then its release.
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t = clock() + MS
    kernel.paused = True
    for k in range(100):
        kernel.edge(27, t + k * 100 * US, (k + (k >= 20) + (k >= 80)) & 1)
    clock.set(t + 50 * MS)
    kernel.resume()
    wait_for(lambda: not kernel.request_for(27).events, 5, "the buffer read")
    assert src.flush()
    clock.set(t + 200 * MS)
    assert src.flush()
    items = drain(q)
    assert [x for x in items if isinstance(x, InputEvent)] == []
    assert statuses(items) == [] and kernel.blocked_reads == 0


def test_an_overflow_dropping_an_odd_number_of_edges_invents_no_press(rig: Rig) -> None:
    # A line chatters 1,031 times (every run 10 µs) while the Pi is stalled, and seat 2 presses
    # 3 ms after it ends at rest: the kernel keeps the newest 1,024 edges, drops 9 and says so.
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t = clock() + MS
    kernel.paused = True
    n = MAX_EVENT_BUFFER + 7
    for k in range(n):
        kernel.edge(27, t + k * 10 * US, (k + (k >= 600)) & 1)  # one level read late (twice 1)
    tp = t + (n - 1) * 10 * US + 3 * MS
    kernel.edge(27, tp, 0)
    kernel.edge(27, tp + 60 * MS, 1)
    assert kernel.dropped == 9  # the first kept edge reads open, as the last one
    clock.set(tp + 200 * MS)
    kernel.resume()
    wait_for(lambda: not kernel.request_for(27).events, 5, "the buffer read")
    assert src.flush()
    items = drain(q)
    assert _seat_stamps(items) == [(1, tp)]
    assert [s.kind for s in statuses(items)] == ["error"]  # the loss, said once


def test_a_1_ms_brush_landing_while_the_reader_is_held_up_is_no_press(rig: Rig) -> None:
    # Seat 2's contact closes at t (read), reopens at t + 1 ms. Seat 1 presses at t + 1.5 ms and
    # wakes the reader, which is held up before it reads the clock (t + 3 ms); seat 2's reopening
    # reaches the kernel's buffer meanwhile. Deciding up to the clock without reading it made
    # the brush a press at t (and the reopening its release).
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t = clock() + MS
    clock.set(t + 100 * US)
    kernel.edge(27, t, 0)
    rig.idle()

    def held_up() -> None:
        kernel.edge(27, t + 1 * MS, 1)
        clock.set(t + 3 * MS)

    clock.arm(held_up)
    kernel.edge(17, t + 1500 * US, 0)
    wait_for(lambda: not clock.armed and not kernel.request_for(27).events, 5, "the reads")
    clock.set(t + 100 * MS)
    assert src.flush()
    items = drain(q)
    assert _seat_stamps(items) == [(0, t + 1500 * US)]
    assert statuses(items) == []


@pytest.mark.parametrize("late_us", [0, 500, 1_500, 3_000, 5_000, 20_000])
def test_a_first_edge_queued_after_the_reader_passed_its_stamp_is_a_press_at_it(
    rig: Rig, late_us: int
) -> None:
    # The hard interrupt stamps the contact's closing at t0; its interrupt thread queues it
    # late_us after, when the reader has already read its clock (and promised) past t0. The
    # contact reopens 3.5 ms after t0 and closes again 0.4 ms later (stamped as queued). The
    # press keeps its first edge's stamp (debounce.py, rule 6): a late press when the promise
    # had passed t0, never a lost one nor a "stuck" button.
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t = clock() + 10 * MS
    clock.set(t)
    src.ask(t)
    wait_for(lambda: (src.promise().watermark_ns or 0) >= t - DEFAULT_DELIVERY_MARGIN_NS, 5, "the promise")
    t0 = t - late_us * US
    promised = src.promise().watermark_ns or 0
    kernel.edge(17, t0, 0)
    rig.idle()
    for dt, level in ((3_500 * US, 1), (3_900 * US, 0)):
        clock.set(t0 + dt)
        kernel.edge(17, max(t0 + dt, clock()), level)
        rig.idle()
    clock.set(t0 + 100 * MS)
    assert src.flush()
    items = drain(q)
    assert _seat_stamps(items) == [(0, t0)]
    assert [s.kind for s in statuses(items)] == []
    assert (promised > t0) == (late_us * US > DEFAULT_DELIVERY_MARGIN_NS)  # late when it passed t0


def test_a_bounce_queued_after_its_glitch_was_dropped_keeps_the_first_stamp(rig: Rig) -> None:
    # The contact closes at t0, bounces open at t0 + 0.3 ms (both read on time) and closes
    # again at t0 + 0.6 ms, but that edge is queued 5 ms late: by then the reader had taken the
    # 0.3 ms closing for a glitch (back at rest 2 ms). The press is the first edge's all the
    # same (rule 6: dropping the glitch emitted nothing, so its candidate goes on).
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t0 = clock() + 10 * MS
    clock.set(t0 + 300 * US)
    kernel.edge(17, t0, 0)
    kernel.edge(17, t0 + 300 * US, 1)
    rig.idle()
    clock.set(t0 + 5_600 * US)
    assert src.flush()
    assert src.stats()[0].glitches == 1  # dropped, as far as the reader knew
    kernel.edge(17, t0 + 600 * US, 0)
    clock.set(t0 + 100 * MS)
    rig.idle()
    items = drain(q)
    assert _seat_stamps(items) == [(0, t0)]
    assert [s.kind for s in statuses(items)] == []
    assert src.stats()[0].glitches == 0 and src.stats()[0].pressed


def test_a_contact_left_closed_by_the_last_run_is_held_at_the_start(fk: Any) -> None:
    # The lines are the board's (fake_kernel.CHIPS): a program started again on a Pi whose
    # button was left closed finds it closed, reports it stuck, and takes no press from it until
    # it has been released (a closing edge then repeats the level: no press).
    first = Rig(fk, 1, None)
    first.kernel.edge(17, first.clock() + MS, 0)
    first.src.stop()
    r = Rig(fk, 1, None)
    try:
        kernel, clock, q = r.kernel, r.clock, r.q
        t = clock() + MS
        kernel.edge(17, t, 0)
        clock.set(t + 50 * MS)
        r.idle()
        kernel.edge(17, t + 60 * MS, 1)
        kernel.edge(17, t + 200 * MS, 0)
        clock.set(t + 300 * MS)
        r.idle()
        items = drain(q)
        assert [s.kind for s in statuses(items)] == ["stuck", "released"]
        assert _seat_stamps(items) == [(0, t + 200 * MS)]
    finally:
        r.src.stop()


def test_seat_8_is_never_queued_before_the_seats_that_pressed_before_it(rig8: Rig) -> None:
    # Eight seats press 1 µs apart; seat 8's edge (t0 + 7 µs) wakes the reader, which is held up
    # 7 ms before it reads the clock, while the seven earlier edges reach the kernel's buffers
    # (each line's interrupt thread in its own time). Seat 8 was decided and queued first.
    kernel, clock, src, q = rig8.kernel, rig8.clock, rig8.src, rig8.q
    t0 = clock() + MS
    clock.set(t0)
    rig8.idle()

    def held_up() -> None:
        for seat in range(7):
            kernel.edge(PINS[seat], t0 + seat * US, 0)
        clock.set(t0 + 7 * MS)

    clock.arm(held_up)
    kernel.edge(PINS[7], t0 + 7 * US, 0)
    wait_for(lambda: not clock.armed, 5, "the hold-up")
    clock.set(t0 + 50 * MS)
    assert src.flush()
    got = _seat_stamps(drain(q))
    assert got == [(seat, t0 + seat * US) for seat in range(8)]  # the queue's order is stamp order


def test_a_press_decided_past_the_horizon_waits_for_it(fk: Any) -> None:
    # Seat 1's contact closes at t + 1 ms and bounces open at t + 4 ms: both edges are read
    # after the reader's clock read (t, so the horizon is t - 1 ms), and the second decides the
    # press at t + 1 ms at once. Seat 2's edge stamped t + 0.5 ms reaches the kernel just after:
    # it is after the horizon, so unread is fine, but seat 1's press must not be queued before it.
    r = Rig(fk, 3, 1 * MS)
    kernel, clock, src, q = r.kernel, r.clock, r.src, r.q
    try:
        t = clock() + 10 * MS
        clock.set(t)
        r.idle()
        kernel.after_read[kernel.request_for(PINS[0])] = lambda: kernel.edge(PINS[1], t + 500 * US, 0)

        def held_up() -> None:
            kernel.edge(PINS[0], t + 1 * MS, 0)
            kernel.edge(PINS[0], t + 4 * MS, 1)

        clock.arm(held_up)
        kernel.edge(PINS[2], t - 5 * MS, 1)  # wakes the reader (an open line opening: bounce)
        wait_for(lambda: not kernel.after_read, 5, "the reads")
        clock.set(t + 100 * MS)
        assert src.flush()
        assert _seat_stamps(drain(q)) == [(1, t + 500 * US), (0, t + 1 * MS)]
    finally:
        src.stop()


def test_a_press_that_bounces_longer_is_still_queued_first(rig: Rig) -> None:
    # Seat 1 closes at t and bounces for 1.5 ms; seat 2 closes 10 µs later, cleanly. Seat 2's
    # press is sure at t + 2.01 ms, seat 1's only at t + 3.5 ms: seat 2 waits for it on the
    # queue (the watermark stays at seat 1's first edge meanwhile).
    kernel, clock, src, q = rig.kernel, rig.clock, rig.src, rig.q
    t = clock() + MS
    kernel.edge(17, t, 0)
    kernel.edge(17, t + 700 * US, 1)
    kernel.edge(17, t + 1500 * US, 0)
    kernel.edge(27, t + 10 * US, 0)
    clock.set(t + 2500 * US + DEFAULT_DELIVERY_MARGIN_NS)
    assert src.flush()
    assert presses(list(q.queue)) == []
    assert src.promise().watermark_ns == t
    # Seat 2's press waits without the reader spinning: it looks again at seat 1's deadline
    # (every 1 ms here, as this clock stands still), not as fast as it can.
    n, began = clock.reader_reads, time.perf_counter()
    time.sleep(0.05)
    reads, ms = clock.reader_reads - n, (time.perf_counter() - began) * 1000
    assert reads < 4 * ms + 20, (reads, ms)  # two clock reads a step, a step a millisecond
    clock.set(t + 10 * MS)
    assert src.flush()
    assert _seat_stamps(drain(q)) == [(0, t), (1, t + 10 * US)]


def test_read_takes_each_line_until_it_is_empty(fk: Any) -> None:
    # 1,024 events in the kernel's buffer and 600 more landing as the first read returns: one
    # read call of the source's takes them all, in order (libgpiod returns what its buffer holds
    # at most, and a read of an empty buffer would block: the line is polled in between).
    kernel = fk.FakeKernel()
    lines = GpiodLines("/dev/gpiochip0", [17], open_chip=kernel.open_chip)
    try:
        for k in range(MAX_EVENT_BUFFER):
            kernel.edge(17, 1_000 + k, k & 1)
        req = kernel.request_for(17)
        kernel.after_read[req] = lambda: [kernel.edge(17, 10_000 + k, k & 1) for k in range(600)]
        got: list[int] = []
        lines.read(lines.wait(1), lambda pin, t, level: got.append(t), lambda *a: None)
        assert got == [1_000 + k for k in range(MAX_EVENT_BUFFER)] + [10_000 + k for k in range(600)]
        assert not req.events and kernel.blocked_reads == 0 and kernel.dropped == 0
    finally:
        lines.close()


@pytest.mark.parametrize("seed", range(6))
def test_stamp_order_holds_under_a_reader_starved_for_10_ms(rig8: Rig, seed: int) -> None:
    # Rounds of eight seats pressing with bounce, 1 µs to 3 ms apart; in each, the reader is
    # held up 10 ms between its wake and its clock read while a random part of the edges land
    # (the others were in the kernel already). Every press must reach the queue in stamp order
    # at its first edge's stamp.
    rng = random.Random(seed)
    kernel, clock, src, q = rig8.kernel, rig8.clock, rig8.src, rig8.q
    t = clock() + MS
    for _ in range(4):
        clock.set(t)
        rig8.idle()
        at, true = t + MS, []
        edges: list[tuple[int, int, int]] = []
        for seat in rng.sample(range(8), 8):
            true.append((seat, at))
            level, e = 0, at
            edges.append((e, seat, 0))
            for _ in range(rng.choice((0, 2, 4))):
                e += rng.randrange(5 * US, 300 * US)
                level ^= 1
                edges.append((e, seat, level))
            edges.append((at + 40 * MS, seat, 1))
            at += rng.choice((US, rng.randrange(US, 100 * US), rng.randrange(US, 3 * MS)))
        edges.sort()
        presses_end = max(e for e, _, lv in edges if lv == 0) + US
        now: list[tuple[int, int, int]] = []
        later: list[tuple[int, int, int]] = []
        for seat in range(8):
            mine = [x for x in edges if x[1] == seat and x[0] < presses_end]
            k = rng.randrange(len(mine) + 1)  # a line's first k edges are in the kernel already
            now += mine[:k]
            later += mine[k:]
        now.sort()
        later.sort(key=lambda x: (x[1], x[0]))  # each line in its order, the lines interleaved
        kernel.paused = True
        for e, seat, lv in now:
            kernel.edge(PINS[seat], e, lv)

        def held_up(later: list[tuple[int, int, int]] = later, end: int = presses_end) -> None:
            for e, seat, lv in later:
                kernel.edge(PINS[seat], e, lv)
            clock.set(end + 10 * MS)

        clock.arm(held_up)
        kernel.resume()  # the reader wakes on the edges there, and is held up at its clock read
        wait_for(lambda: not clock.armed, 5, "the hold-up")
        for e, seat, lv in edges:
            if e >= presses_end:
                kernel.edge(PINS[seat], e, lv)
        t = at + 200 * MS
        clock.set(t)
        assert src.flush()
        got = _seat_stamps(drain(q))
        assert got == sorted(true, key=lambda x: x[1])


# -- the watermark ---------------------------------------------------------------------------


def test_the_source_promises_and_its_watermark_waits_for_an_undecided_contact(fk: Any) -> None:
    r = Rig(fk, 2, 1 * MS)
    try:
        kernel, clock, src = r.kernel, r.clock, r.src
        assert isinstance(src, Promising)
        assert src.lateness_ns >= src.settings.glitch_ns + 1 * MS
        t = clock() + MS
        clock.set(t)
        src.ask(t)
        wait_for(lambda: (src.promise().watermark_ns or 0) >= t - 1 * MS, 5, "the first promise")
        p = src.promise()
        assert p == Promise("gpio", t - 1 * MS, True, (0, 1))  # the clock read, less the margin
        # A contact closes at t + 1 ms: until the debouncer knows whether it is a press, the
        # watermark stays at its first edge, however far the clock goes.
        kernel.edge(27, t + 1 * MS, 0)
        kernel.edge(27, t + 1 * MS + 300 * US, 1)
        kernel.edge(27, t + 1 * MS + 500 * US, 0)
        clock.set(t + 3 * MS)
        src.ask(t + 3 * MS)
        wait_for(lambda: not kernel.request_for(27).events, 5, "the read")
        assert src.flush()
        assert src.promise().watermark_ns == t + 1 * MS
        assert presses(list(r.q.queue)) == []
        # Decided 2 ms after its last edge: the press is on the queue, then the watermark passes.
        clock.set(t + 10 * MS)
        src.ask(t + 9 * MS)
        wait_for(lambda: (src.promise().watermark_ns or 0) >= t + 9 * MS, 5, "the watermark")
        assert _seat_stamps(drain(r.q)) == [(1, t + 1 * MS)]
    finally:
        r.src.stop()


def test_ask_wakes_the_reader_without_any_edge(rig: Rig) -> None:
    clock, src = rig.clock, rig.src
    rig.idle()
    before = src.promise().watermark_ns or 0
    clock.set(clock() + 500 * MS)  # the reader sleeps up to 1 s when nothing is due
    src.ask(clock() - 2 * MS)
    wait_for(lambda: (src.promise().watermark_ns or 0) >= clock() - 2 * MS, 0.5, "the asked watermark")
    assert (src.promise().watermark_ns or 0) > before


def test_ask_for_an_instant_still_to_come_brings_the_reader_back_then(rig: Rig) -> None:
    # Asked about t + 5 ms at t: the reader has nothing to decide, but comes back once the
    # clock can have passed it (t + 5 ms + the margin) instead of sleeping its idle second.
    clock, src = rig.clock, rig.src
    rig.idle()
    t = clock() + 1_000 * MS
    clock.set(t)
    src.ask(t + 5 * MS)
    wait_for(lambda: (src.promise().watermark_ns or 0) >= t - 1 * MS, 0.5, "the first step")
    clock.set(t + 10 * MS)  # no edge, no ask: only the reader's own timeout can see it
    wait_for(lambda: (src.promise().watermark_ns or 0) >= t + 5 * MS, 0.5, "the asked instant")


def test_a_promise_is_published_only_after_the_presses_it_covers(fk: Any) -> None:
    # Each put checks that the promise visible then does not already cover the item being put.
    seen: list[tuple[int, int | None]] = []
    holder: list[GpioSource] = []

    class Checking(queue.Queue):  # type: ignore[type-arg]
        def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
            if isinstance(item, InputEvent):
                seen.append((item.t_ns, holder[0].promise().watermark_ns))
            super().put(item, block, timeout)

    r = Rig(fk, 2, 1 * MS, Checking())
    holder.append(r.src)
    kernel, clock, src = r.kernel, r.clock, r.src
    try:
        t = clock() + MS
        for k in range(20):
            kernel.edge(PINS[k % 2], t + k * 50 * MS, 0)
            kernel.edge(PINS[k % 2], t + k * 50 * MS + 40 * MS, 1)
            clock.set(t + k * 50 * MS + 45 * MS)
            src.ask(clock())
            assert src.flush()
        assert len(seen) == 40
        assert all(w is None or w <= stamp for stamp, w in seen)
    finally:
        src.stop()


def test_undecided_press_bound_of_the_debouncer() -> None:
    s = DebounceSettings()
    d = Debouncer(s, t_ns=0)
    assert d.undecided_press_ns() is None
    d.edge(10 * MS, True)
    assert d.undecided_press_ns() == 10 * MS  # a candidate: a press at its first edge, maybe
    d.poll(13 * MS)
    assert d.undecided_press_ns() is None  # pressed: only a release can come
    d.edge(50 * MS, False)
    d.poll(53 * MS)
    assert not d.pressed and d.undecided_press_ns() is None
    d.edge(60 * MS, True)  # closes inside the release's lockout (it ends at 80 ms)
    assert d.undecided_press_ns() == 60 * MS
    assert d.poll(90 * MS) == [Transition("press", 60 * MS, 80 * MS)]  # rule 4: at that change
    assert d.undecided_press_ns() is None


def test_a_referee_button_is_a_decision_at_its_first_edge(fk: Any) -> None:
    # The referee's confirm button on GPIO: its press is the decision, made at its first edge's
    # kernel stamp (not when the debouncer was sure, nor when the loop got it), and the
    # watermark waits for it as for a seat's.
    kernel = fk.FakeKernel()
    clock = ReaderClock()
    buttons = [ButtonPin("seat", 0, 17), ButtonPin("confirm", 0, 27)]
    src = GpioSource(
        buttons, lines=GpiodLines("/dev/gpiochip0", [17, 27], open_chip=kernel.open_chip), now_ns=clock
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        t = clock() + MS + 7
        kernel.edge(27, t, 0)
        kernel.edge(27, t + 300 * US, 1)
        kernel.edge(27, t + 800 * US, 0)
        clock.set(t + 2 * MS)
        src.ask(t + 2 * MS)
        wait_for(lambda: not kernel.request_for(27).events, 5, "the read")
        assert src.flush()
        assert src.promise().watermark_ns == t  # the button may still be a press stamped t
        clock.set(t + 5 * MS)
        assert src.flush()
        (ev,) = [x for x in drain(q) if isinstance(x, InputEvent)]
        assert (ev.role, ev.edge, ev.t_ns, ev.clock.name, ev.table_ns) == (
            "confirm",
            "press",
            t,
            "CLOCK_MONOTONIC",
            None,
        )
        assert src.promise().seats == (0,)  # the seats it speaks for: the referee's is none
    finally:
        src.stop()


def test_the_gpiozero_path_promises_too() -> None:
    # gpiozero's backends (MockFactory in tests) hand edges over a callback thread; the same
    # decider publishes the watermark, and ask() wakes that thread through its inbox.
    from tests.gpio_helpers import ClockedMockFactory

    clock = FakeClock()
    factory = ClockedMockFactory(clock)
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory, now_ns=clock)
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        t = clock() + 500 * MS  # the thread sleeps up to 1 s when nothing is due
        clock.set(t)
        src.ask(t - 2 * MS)
        wait_for(lambda: (src.promise().watermark_ns or 0) >= t - 2 * MS, 0.5, "the asked watermark")
        assert src.promise() == Promise("gpio", t - 1 * MS, True, (0,))
    finally:
        src.stop()
        factory.close()
