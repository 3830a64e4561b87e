# The Pico's stamp resolution on the interrupt fallback, modelled: how long the firmware's
# per-pin IRQ handler (irqcapture.py) runs, on the MicroPython unix port, against an empty
# handler. Prints one JSON line.
# usage: micropython mp_irq_cost.py FIRMWARE_DIR
import sys

sys.path.insert(0, sys.argv[1])

import json
import time

import buttonboard
import machine
import pinmap
from fakeclock import FakeClock
from stdio import StdIO

clock = FakeClock(1000)
board = buttonboard.Board(machine.Pin, machine.mem32, clock.ticks_us, StdIO(), machine.unique_id(),
                          1, pinmap.SEAT_PINS, pinmap.REFEREE_PINS, pinmap.LED_PINS, pio=None)
capture = board.capture  # the interrupt path: no PIO offered
handler = capture._handler(0)
pin = capture._pins[0]


def empty(_pin):
    pass


def once(fn, n):
    opened = capture._n
    t0 = time.ticks_us()
    for _ in range(n):
        fn(pin)
        opened[0] = 0  # the main loop took the latch: every call opens a window, the worst case
    return time.ticks_diff(time.ticks_us(), t0) / n


# Pairs measured back to back, so that a busy host slows both alike; the median pair counts.
n = 4000
pairs = sorted(((once(handler, n), once(empty, n)) for _ in range(31)), key=lambda p: p[0] / p[1])
h, e = pairs[len(pairs) // 2]
print(json.dumps({"handler_us": h, "empty_call_us": e}))
