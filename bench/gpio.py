"""GPIO source figures through gpiozero's MockFactory; one JSON object per line on stdout.

    python bench/gpio.py [--presses 10000] [--latency-samples 5000] [--seed 1]

1. bouncy presses: 0-20 bounce edges over 0-5 ms per press and release, stamped by a chosen
   kernel clock; counts doubles, misses and stamps that differ from the first edge.
2. latency: edge callback -> event on the queue, with the debounce waits set to zero so the figure
   is our pipeline's cost (the default 2 ms glitch minimum is added on purpose, on top).
3. ordering: seats pressed 1 µs apart, delivered in shuffled order from several threads.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gpiozero.pins.mock import MockFactory
from gpiozero.pins.pi import PiPin
from test_gpio_support import ClockedMockFactory, FakeClock

from companion.inputs.base import InputEvent, QueueItem
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import ButtonPin, GpioSource

MS = 1_000_000
PINS = [17, 27, 22, 23, 24, 25, 5, 6, 12, 13]


def emit(rec: dict[str, Any]) -> None:
    print(json.dumps(rec), flush=True)


def started_source() -> tuple[FakeClock, Any, GpioSource, queue.Queue[QueueItem]]:
    """The real GPIO source on gpiozero's mock pins, driven by a controllable clock."""
    clock = FakeClock()
    factory = ClockedMockFactory(clock)
    src = GpioSource(
        [ButtonPin("seat", i, p) for i, p in enumerate(PINS)],
        pin_factory=factory,
        now_ns=clock,
        delivery_margin_ns=0,
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    return clock, factory, src, q


def bouncy(n: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    clock, factory, src, q = started_source()
    expected: list[tuple[int, int]] = []
    t = clock() + MS
    started = time.perf_counter()
    for i in range(n):
        seat = rng.randrange(len(PINS))
        pin = factory.pin(PINS[seat])
        for start, first in ((t, True), (t + 40 * MS + rng.randrange(100 * MS), False)):
            k = rng.choice(range(0, 21, 2))
            span = rng.randrange(0, 5 * MS + 1)
            pin.edge_at(start, first)
            level = first
            for off in sorted(rng.sample(range(1, max(span, k + 1) + 1), k)):
                level = not level
                pin.edge_at(start + off, level)
            if first:
                expected.append((seat, start))
            t = start + 50 * MS
        t += 100 * MS
        if i % 500 == 499:
            clock.set(t)
            src.flush()
    clock.set(t + 1000 * MS)
    src.flush()
    elapsed = time.perf_counter() - started
    src.stop()
    got: list[tuple[int, int]] = []
    while True:
        try:
            ev = q.get_nowait()
        except queue.Empty:
            break
        if isinstance(ev, InputEvent) and ev.edge == "press":
            got.append((ev.seat, ev.t_ns))
    exp_set, got_set = set(expected), set(got)
    doubles = len(got) - len(got_set) + len([g for g in got_set if g not in exp_set])
    return {
        "bench": "gpio.bouncy_presses",
        "presses": n,
        "events": len(got),
        "doubles": doubles,
        "misses": len(exp_set - got_set),
        "stamp_not_first_edge": len(got_set - exp_set),
        "wall_s": round(elapsed, 3),
    }


def latency(samples: int) -> dict[str, Any]:
    factory = MockFactory()
    src = GpioSource(
        [ButtonPin("seat", 0, 17)],
        pin_factory=factory,
        settings=DebounceSettings(lockout_ns=0, glitch_ns=0, stuck_ns=None),
        delivery_margin_ns=0,
    )
    put_at: list[int] = []

    class TimedQueue(queue.Queue):  # type: ignore[type-arg]
        def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
            put_at.append(time.perf_counter_ns())
            super().put(item, block, timeout)

    q = TimedQueue()
    src.start(q)
    pin = factory.pin(17)
    lat: list[int] = []
    for _ in range(samples):
        for drive in (pin.drive_low, pin.drive_high):
            n = len(put_at)
            t0 = time.perf_counter_ns()
            drive()
            q.get(timeout=5)
            lat.append(put_at[n] - t0)
    src.stop()
    lat.sort()

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] / 1000, 1)

    return {
        "bench": "gpio.callback_to_queue_us",
        "samples": len(lat),
        "p50": pct(0.50),
        "p99": pct(0.99),
        "max": round(lat[-1] / 1000, 1),
        "mean": round(statistics.fmean(lat) / 1000, 1),
        "note": "debounce waits set to 0; with defaults add glitch_ms (2) + delivery margin (5)",
    }


def ordering(rounds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    clock, factory, src, q = started_source()
    wrong = 0
    t = clock() + MS
    for _ in range(rounds):
        order = list(range(len(PINS)))
        rng.shuffle(order)  # true press order, 1 µs apart
        stamps = {seat: t + i * 1000 for i, seat in enumerate(order)}
        delivery = list(order)
        rng.shuffle(delivery)  # callbacks arrive in another order, from several threads
        threads = [
            threading.Thread(target=PiPin._call_when_changed, args=(factory.pin(PINS[s]), stamps[s], False))
            for s in delivery
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        clock.set(t + 10 * MS)
        src.flush()
        got = []
        while len(got) < len(PINS):
            ev = q.get(timeout=5)
            if isinstance(ev, InputEvent):
                got.append(ev)
        if [e.seat for e in sorted(got, key=lambda e: e.t_ns)] != order:
            wrong += 1
        if [e.t_ns for e in got] != sorted(stamps.values()):
            wrong += 1  # also emitted in stamp order
        for s in delivery:
            PiPin._call_when_changed(factory.pin(PINS[s]), t + 60 * MS, True)
        t += 200 * MS
        clock.set(t)
        src.flush()
        while not q.empty():
            q.get_nowait()
    src.stop()
    return {
        "bench": "gpio.ordering_1us",
        "rounds": rounds,
        "seats": len(PINS),
        "spacing_ns": 1000,
        "misordered_rounds": wrong,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--presses", type=int, default=10_000)
    ap.add_argument("--latency-samples", type=int, default=5_000)
    ap.add_argument("--ordering-rounds", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    emit(bouncy(a.presses, a.seed))
    emit(latency(a.latency_samples))
    emit(ordering(a.ordering_rounds, a.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
