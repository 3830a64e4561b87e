"""The GPIO kind for bench/event_time.py (run by it; not a script of its own): the real
``GpioSource`` reading libgpiod's public API over the kernel model (tests/fakes/fake_kernel.py)
on the real clock, with its default debounce and margin. A press is a contact closing at the
instant it is made (the kernel's stamp) and bouncing open and closed again within 0.6 ms, as a
slapped arcade button does; it opens 80 ms later.

Every edge is stamped at the instant it is meant for, as the kernel's hard interrupt stamps it,
and queued when the bench's thread gets there, as the interrupt thread queues it: a thread that
waits for the GIL (or sleeps past 0.3 ms) queues it late, it does not move it. So the contact the
source reads is the one the bench made whatever the load, and its press is stamped at its first
edge, the instant the press was made (``chloe_at`` in bench/event_time.py): that is the truth
the race sweep judges from, and the table's stamp is the same instant (debounce.py, rule 6, when
the edge came late). Stamped at insertion instead, a bounce's closing held up 2 ms or more
behind its opening made the first closing a glitch and the press the later one's, after the
instant the sweep judged from."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fakes"))

from companion.inputs.gpio import GpioSource
from companion.inputs.gpio_lines import GpiodLines
from companion.inputs.gpio_pins import ButtonPin

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

    def then(pin: int, t_ns: int, steps: list[tuple[int, int]]) -> None:
        # One thread for a press's later edges, so they reach the kernel in their order; each
        # stamped t_ns + its offset however late the thread gets to it (see the docstring).
        def run() -> None:
            for offset_ns, level in steps:
                at = t_ns + offset_ns
                wait_s = (at - time.monotonic_ns()) / 1e9
                if wait_s > 0:
                    time.sleep(wait_s)
                kernel.edge(pin, at, level)

        threading.Thread(target=run, daemon=True).start()

    def press(seat: int, t_ns: int) -> None:
        pin = pins[seat]
        steps = [(0, 0), (300_000, 1), (600_000, 0), (80 * MS, 1)]
        # The edges due already go in now, together (late, if this thread was held up since
        # t_ns; all the bounce for a press made a while ago: the slaps that open the window).
        now = time.monotonic_ns()
        for offset_ns, level in steps:
            if t_ns + offset_ns <= now:
                kernel.edge(pin, t_ns + offset_ns, level)
        then(pin, t_ns, [(o, lv) for o, lv in steps if t_ns + o > now])

    return source, press
