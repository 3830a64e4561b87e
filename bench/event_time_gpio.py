"""The GPIO kind for bench/event_time.py (run by it; not a script of its own): the real
``GpioSource`` reading libgpiod's public API over the kernel model (tests/fakes/fake_kernel.py)
on the real clock, with its default debounce and margin. A press is a contact closing at the
instant it is made (the kernel's stamp) and bouncing open and closed again within 0.6 ms, as a
slapped arcade button does (its later edges come in order, from one thread); it opens 80 ms
later."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fakes"))

from companion.inputs.gpio import ButtonPin, GpiodLines, GpioSource

KIND = "gpio"
PINS = [17, 27, 22, 23, 24, 25, 5, 6, 12, 13]
MS = 1_000_000


def make(n_seats: int) -> tuple[Any, Callable[[int, int], None]]:
    import fake_kernel

    fake_kernel.pi_chips()
    kernel = fake_kernel.FakeKernel()
    pins = PINS[:n_seats]
    lines = GpiodLines("/dev/gpiochip0", pins, open_chip=kernel.open_chip)
    source = GpioSource([ButtonPin("seat", i, p) for i, p in enumerate(pins)], lines=lines)

    def then(pin: int, steps: list[tuple[float, int]]) -> None:
        # One thread for a press's later edges, so they reach the kernel in their order.
        def run() -> None:
            for delay_s, level in steps:
                time.sleep(delay_s)
                kernel.edge(pin, None, level)

        threading.Thread(target=run, daemon=True).start()

    def press(seat: int, t_ns: int) -> None:
        pin = pins[seat]
        if time.monotonic_ns() - t_ns > 1 * MS:
            # Made a while ago (the slaps that open the window): its edges are in the kernel.
            for dt, level in ((0, 0), (300_000, 1), (600_000, 0)):
                kernel.edge(pin, t_ns + dt, level)
            then(pin, [(0.08, 1)])  # let go
        else:
            # Made now: stamped at its instant, its bounce comes as it happens.
            kernel.edge(pin, t_ns, 0)
            then(pin, [(0.0003, 1), (0.0003, 0), (0.08, 1)])

    return source, press
