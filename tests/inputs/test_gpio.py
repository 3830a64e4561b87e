"""The GPIO source, driven through gpiozero's real MockFactory and MockPin code."""

from __future__ import annotations

import gc
import queue
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from gpiozero.pins.pi import PiPin

from companion.errors import ConfigError, HardwareError
from companion.inputs.base import InputEvent, InputSource, QueueItem
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import GPIO_CLOCK, GpioSource
from companion.inputs.gpio_pins import ButtonPin
from companion.inputs.gpio_readers import ticks_to_ns
from companion.inputs.gpiochip import explain_chip_failure
from tests.gpio_helpers import (
    ClockedMockFactory,
    ClockedMockPin,
    FakeClock,
    bounce_offsets,
    drain,
    presses,
    statuses,
)

MS = 1_000_000
PINS = [17, 27, 22, 23]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def rig(
    clock: FakeClock,
) -> Iterator[tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory]]:
    factory = ClockedMockFactory(clock)
    buttons = [ButtonPin("seat", i, p) for i, p in enumerate(PINS)]
    src = GpioSource(
        buttons,
        pin_factory=factory,
        settings=DebounceSettings(stuck_ns=1_000 * MS),
        now_ns=clock,
        delivery_margin_ns=0,
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    yield src, q, factory
    src.stop()
    factory.close()


def pin(factory: ClockedMockFactory, n: int) -> ClockedMockPin:
    p = factory.pin(n)
    assert isinstance(p, ClockedMockPin)
    return p


def settle(src: GpioSource, clock: FakeClock, t_ns: int) -> None:
    clock.set(t_ns)
    assert src.flush()


def test_is_an_input_source(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory],
) -> None:
    assert isinstance(rig[0], InputSource)


def test_real_monotonic_stamps_through_plain_mockpin() -> None:
    # gpiozero's own MockPin stamps edges with time.monotonic() float seconds.
    factory = MockFactory()
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory)
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        before = time.monotonic_ns()
        factory.pin(17).drive_low()
        after = time.monotonic_ns()
        ev = q.get(timeout=5)
        assert isinstance(ev, InputEvent)
        assert (ev.role, ev.seat, ev.edge, ev.clock, ev.source) == (
            "seat",
            0,
            "press",
            GPIO_CLOCK,
            "gpio",
        )
        assert before - 1000 <= ev.t_ns <= after + 1000
    finally:
        src.stop()
        factory.close()


def test_presses_one_microsecond_apart_are_ordered(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    t = clock() + MS
    pin(factory, 22).edge_at(t, True)
    pin(factory, 17).edge_at(t + 1_000, True)
    pin(factory, 27).edge_at(t + 2_000, True)
    settle(src, clock, t + 10 * MS)
    got = presses(drain(q))
    assert [(e.seat, e.t_ns) for e in got] == [(2, t), (0, t + 1_000), (1, t + 2_000)]


def test_bouncy_bursts_give_one_press_at_first_edge(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    rng = random.Random(1234)
    p = pin(factory, 23)
    t = clock() + MS
    bounces = 0
    for _ in range(150):
        n_bounce = rng.choice(range(0, 21, 2))  # an even count leaves the contact closed
        offsets = bounce_offsets(rng, n_bounce)
        p.edge_at(t, True)
        level = True
        for off in offsets:
            level = not level
            p.edge_at(t + off, level)
        rel = t + 60 * MS
        p.edge_at(rel, False)
        level = False
        for off in bounce_offsets(rng, n_bounce):
            level = not level
            p.edge_at(rel + off, level)
        bounces += 2 * n_bounce
        settle(src, clock, rel + 50 * MS)
        items = drain(q)
        events = [x for x in items if isinstance(x, InputEvent)]
        assert [(e.edge, e.t_ns) for e in events] == [("press", t), ("release", rel)], n_bounce
        t = rel + 100 * MS
    (s,) = [x for x in src.stats() if x.button.pin == 23]
    assert (s.presses, s.bounces, s.glitches) == (150, bounces, 0)


def test_glitches_give_no_press(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    p = pin(factory, 17)
    t = clock() + MS
    p.edge_at(t, True)
    p.edge_at(t + 500_000, False)
    p.edge_at(t + 100 * MS, True)
    p.edge_at(t + 100 * MS + 1_999_999, False)
    settle(src, clock, t + 200 * MS)
    assert drain(q) == []
    assert src.stats()[0].glitches == 2


def test_callbacks_from_other_threads_out_of_order(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    t = clock() + MS
    # Seat 1 pressed first (by 1 µs) but its callback is delivered last, from another thread:
    # the path lgpio's alert thread takes into gpiozero.
    order = [(pin(factory, 17), t + 1_000), (pin(factory, 22), t + 3_000), (pin(factory, 27), t)]
    threads = []
    for p, stamp in order:
        th = threading.Thread(target=PiPin._call_when_changed, args=(p, stamp, False))
        th.start()
        th.join()
        threads.append(th)
    settle(src, clock, t + 10 * MS)
    got = presses(drain(q))
    assert [(e.seat, e.t_ns) for e in got] == [(1, t), (0, t + 1_000), (2, t + 3_000)]


def test_float_and_integer_ticks() -> None:
    assert ticks_to_ns(5_000_000_000_123) == 5_000_000_000_123
    assert ticks_to_ns(5000.000001) == 5_000_000_001_000


def test_held_past_limit_is_stuck_then_counts_again(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    p = pin(factory, 27)
    t = clock() + MS
    p.edge_at(t, True)
    settle(src, clock, t + 1_500 * MS)
    items = drain(q)
    assert [(e.seat, e.t_ns) for e in presses(items)] == [(1, t)]
    assert [(s.kind, s.seat) for s in statuses(items)] == [("stuck", 1)]
    assert "seat 2" in statuses(items)[0].en and "place 2" in statuses(items)[0].fr
    assert src.stats()[1].stuck
    p.edge_at(t + 2_000 * MS, False)
    settle(src, clock, t + 2_100 * MS)
    items = drain(q)
    assert [(type(x).__name__, getattr(x, "kind", getattr(x, "edge", ""))) for x in items] == [
        ("InputEvent", "release"),
        ("SourceStatus", "released"),
    ]
    p.edge_at(t + 3_000 * MS, True)
    settle(src, clock, t + 3_010 * MS)
    assert [e.t_ns for e in presses(drain(q))] == [t + 3_000 * MS]


def test_button_held_at_start_is_reported_stuck(clock: FakeClock) -> None:
    factory = ClockedMockFactory(clock)
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory, now_ns=clock, delivery_margin_ns=0)
    # Claimed with its pull-up; then a shorted button holds it low before the game starts.
    pin(factory, 17).drive_low()
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        st = q.get(timeout=5)
        assert not isinstance(st, InputEvent) and st.kind == "stuck" and st.seat == 0
        pin(factory, 17).edge_at(clock() + 10 * MS, False)
        settle(src, clock, clock() + 100 * MS)
        items = drain(q)
        assert [getattr(x, "kind", None) for x in items] == [None, "released"]
    finally:
        src.stop()
        factory.close()


def test_callbacks_survive_garbage_collection(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    src, q, factory = rig
    gc.collect()
    t = clock() + MS
    pin(factory, 17).edge_at(t, True)
    settle(src, clock, t + 10 * MS)
    assert [e.t_ns for e in presses(drain(q))] == [t]


def test_referee_buttons(clock: FakeClock) -> None:
    factory = ClockedMockFactory(clock)
    src = GpioSource(
        [ButtonPin("seat", 0, 17), ButtonPin("undo", 0, 5)],
        pin_factory=factory,
        now_ns=clock,
        delivery_margin_ns=0,
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        t = clock() + MS
        pin(factory, 5).edge_at(t, True)
        settle(src, clock, t + 10 * MS)
        (ev,) = presses(drain(q))
        assert (ev.role, ev.seat) == ("undo", 0)
    finally:
        src.stop()
        factory.close()


@pytest.mark.parametrize(
    ("pins", "bad"),
    [([17, 17], "GPIO17"), ([17, 99], "GPIO99"), ([17, 1000], "GPIO1000")],
)
def test_unusable_pin_is_refused_and_nothing_stays_claimed(pins: list[int], bad: str) -> None:
    factory = MockFactory()
    buttons = [ButtonPin("seat", i, p) for i, p in enumerate(pins)]
    with pytest.raises(ConfigError) as err:
        GpioSource(buttons, pin_factory=factory)
    assert bad in err.value.en and bad in err.value.fr
    # The pins claimed before the failure were released: the same pins can be claimed again.
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory)
    src.stop()
    factory.close()


def test_stop_releases_pins_and_thread(clock: FakeClock) -> None:
    factory = ClockedMockFactory(clock)
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory, now_ns=clock)
    src.start(queue.Queue())
    src.stop()
    assert not any(t.name == "gpio-source" and t.is_alive() for t in threading.enumerate())
    GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory, now_ns=clock).stop()
    factory.close()


def test_no_header_chip_names_the_fix() -> None:
    from companion.hardware.led_lines import led_lines

    if not list(Path("/dev").glob("gpiochip*")):
        with pytest.raises(HardwareError) as err:
            led_lines()
        assert "--input keyboard" in err.value.en and "--input keyboard" in err.value.fr
        assert "[gpio]" in err.value.en and "GPIO0..GPIO27" in err.value.en
    else:
        # On a Pi the chip either opens or fails with a sentence naming the fix.
        try:
            led_lines().close()
        except HardwareError as exc:
            assert "gpio group" in exc.en or "--input keyboard" in exc.en


def test_chip_failures_name_the_fix() -> None:
    perm = explain_chip_failure(0, PermissionError(13, "Permission denied"))
    assert "gpio group" in perm.en and "groupe gpio" in perm.fr
    missing = explain_chip_failure(4, OSError("can not open gpiochip"))
    assert "/dev/gpiochip4" in missing.en and "--input keyboard" in missing.en
    assert "--input keyboard" in missing.fr


def test_edges_racing_the_source_thread_are_never_misjudged(
    rig: tuple[GpioSource, queue.Queue[QueueItem], ClockedMockFactory], clock: FakeClock
) -> None:
    # The clock jumps ahead with every edge while the source thread decides deadlines on its
    # own: no edge may be judged as if it had not happened yet.
    src, q, factory = rig
    rng = random.Random(99)
    expected = []
    t = clock() + MS
    for _ in range(400):
        seat = rng.randrange(len(PINS))
        p = pin(factory, PINS[seat])
        for start, first in ((t, True), (t + 40 * MS, False)):
            p.edge_at(start, first)
            level = first
            for off in bounce_offsets(rng, rng.choice(range(0, 21, 2))):
                level = not level
                p.edge_at(start + off, level)
        expected.append((seat, t))
        t += 100 * MS
    settle(src, clock, t + 100 * MS)
    assert [(e.seat, e.t_ns) for e in presses(drain(q))] == expected
