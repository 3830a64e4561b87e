# The Pico's stamp resolution on the interrupt fallback, modelled: how long the firmware's
# IRQ handler (irqcapture.py) runs, for one pin's edge and for ten seats read at once, on the
# MicroPython unix port, against an empty handler. Prints one JSON line.
# usage: micropython mp_irq_cost.py FIRMWARE_DIR
import sys

sys.path.insert(0, sys.argv[1])

import json
import time

import buttonboard
import irqcapture
import machine
import pinmap
from fakeclock import FakeClock
from stdio import StdIO

clock = FakeClock(1000)
board = buttonboard.Board(
    machine.Pin,
    machine.mem32,
    clock.ticks_us,
    StdIO(),
    machine.unique_id(),
    1,
    pinmap.SEAT_PINS,
    pinmap.REFEREE_PINS,
    pinmap.LED_PINS,
    pio=None,
)
gpios = list(pinmap.SEAT_PINS) + [p for p in pinmap.REFEREE_PINS if p is not None]
# On the Pico mem32[GPIO_IN] is a native subscript; the fake machine's is a Python method call,
# which would weigh on the ratio: a dict stands in for it here.
mem = {irqcapture.GPIO_IN: machine.levels()}
# The same for mem16 over IO_BANK0 INTR (the halfwords the buttons' edge bits are in), and for the
# IRQ objects' flags(), a native method on the Pico (a builtin here: int() is 0, "no edge").
mem16 = {irqcapture.INTR_RP2040 + 2 * h: 0 for h in range(8)}
capture = irqcapture.IrqCapture(board._pins, [1] * len(gpios), clock.ticks_us, gpios, mem, mem16)


class _NativeIrq:
    flags = int


capture._irqs = [_NativeIrq() for _ in gpios]
handler = capture._handler(0)
pin = capture._pins[0]


def empty(_pin):
    pass


def once(fn, n, moved=0):
    # Past SLOTS calls the handler writes the last slot and counts the loss: the same work.
    t0 = time.ticks_us()
    for _ in range(n):
        mem[0xD0000004] ^= moved
        fn(pin)
    return time.ticks_diff(time.ticks_us(), t0) / n


ALL_SEATS = 0
for g in pinmap.SEAT_PINS:
    ALL_SEATS |= 1 << g
# Pairs measured back to back, so that a busy host slows both alike; the median pair counts.
n = 2000


def median_pair(moved):
    # Interleaved runs, the fastest of each: on a loaded host a run is only ever slowed down, and
    # the empty call (a fraction of a microsecond) is the figure most easily disturbed.
    hs, es = [], []
    for _ in range(31):
        hs.append(once(handler, n, moved))
        es.append(once(empty, n, moved))
    return min(hs), min(es)


# One pin's edge (its level toggles each call), and the worst case: all ten seats moved at once,
# each latched by the one read.
h, e = median_pair(1 << pinmap.SEAT_PINS[0])
h10, e10 = median_pair(ALL_SEATS)

# The reads inside the handler (issue 34, case 5: the bound counts the time from a pin's INTR
# read to the clock read): one INTR halfword read as the handler makes it, and a plain read
# (GPIO_IN's subscript, ticks_us's call), each against an empty loop's turn.
ha = capture._ha
raw = capture._raw
tk = clock.ticks_us
addr = ha[0]


def timed(body, n):
    t0 = time.ticks_us()
    body(n)
    return time.ticks_diff(time.ticks_us(), t0) / n


def bare(n):
    for _ in range(n):
        pass


# Locals, as the handler binds them. One INTR read as the handler makes it, unrolled.
def slots(n, ha=ha, raw=raw, mem=mem16):
    for _ in range(n):
        raw[0] = mem[ha[0]]


def subscripts(n, mem=mem16, addr=addr):
    for _ in range(n):
        x = mem[addr]  # noqa: F841 - the read is what is timed


def ticks(n, tk=tk):
    for _ in range(n):
        x = tk()  # noqa: F841


def calls(n, f=empty, pin=pin):
    for _ in range(n):
        f(pin)


m = 20000
best = {}
for name, body in (("bare", bare), ("slots", slots), ("sub", subscripts), ("ticks", ticks), ("call", calls)):
    best[name] = min(timed(body, m) for _ in range(15))
call = best["call"] - best["bare"]
print(
    json.dumps(
        {
            "handler_us": h,
            "empty_call_us": e,
            "handler_ten_us": h10,
            "empty_ten_us": e10,
            "halfwords": len(ha),
            "intr_read_in_calls": (best["slots"] - best["bare"]) / call,
            "subscript_in_calls": (best["sub"] - best["bare"]) / call,
            "ticks_in_calls": (best["ticks"] - best["bare"]) / call,
        }
    )
)
