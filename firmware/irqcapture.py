"""The fallback when PIO or DMA cannot be claimed: edges stamped in the pins' interrupt handlers.

MicroPython's rp2 port has one interrupt for the GPIO bank; its handler walks the GPIOs in
number order and runs the Python handler of each pin with a latched edge, one after the other.
So that simultaneous presses are not stamped in GPIO order, a handler does not stamp its own pin
only: it reads every pin's level in one read of SIO GPIO_IN and the clock once, and latches that
read (stamp and levels) if any button's level changed since the last one, like a sample of the
PIO program. A press is then stamped by the first read after it (at most the interrupt's entry
and one handler run late, whichever pin's handler that is), and two presses come out in their
order or tied. The handler's work does not grow with the number of pins that moved.

Reads go into one of two banks: the handlers fill one while the main loop empties the other,
swapped under a critical section of a few instructions. A pin that moved and came back before
the read is latched as such (both edges at the stamp). A bank is a ring: past ``BANK`` reads
between two main-loop passes the oldest are overwritten, counted lost and reported, as the PIO's
DMA ring does. The main loop then compares the oldest read kept with the levels it knew: a pin
that moved meanwhile gets its edge there, late and said so; one that did not gets none, so no
stamp that survives a loss is earlier than its edge.
"""

import array

import machine
from micropython import const

_MASK30 = const(0x3FFFFFFF)
BANK = const(256)  # reads latched between two main-loop passes (a power of two)
_BANK_MASK = const(255)
CAPTURE_IRQ = const(0)
GPIO_IN = const(0xD0000004)  # SIO: every pin's level in one read, on RP2040 and RP2350
# What a stamp may lag its edge: the interrupt's entry plus one handler run (an edge just after
# a handler's read waits for the next handler). Measured on the model the tests run
# (tests/micropython/mp_unit.py, tests/test_capture_properties.py: a 50 us handler and a 10 us
# entry, above bench/gpio.py's RP2040 estimate of ~42 us for both, "pico.irq_model"); not
# measured on a board. The host ties presses closer than this. Open (docs/pico.md): a pin that
# goes and comes back while a lower pin's handler reads, then moves again before its own
# handler, is stamped by its own handler, later than this (the bank's latched edges, IO_BANK0
# INTR, are not read).
RESOLUTION_US = const(60)


class IrqCapture:
    path = CAPTURE_IRQ
    resolution_us = RESOLUTION_US
    align_us = 0
    lag_us = 0
    rearms = 0
    ring_records = 0

    def __init__(self, pin_objs, levels, ticks_us, gpios, mem32):
        n = len(pin_objs)
        self._ticks = ticks_us
        self._mem = mem32
        self._pins = pin_objs
        self._gpios = tuple(gpios)
        mask = 0
        seen = 0
        for k in range(n):
            mask |= 1 << gpios[k]
            if levels[k]:
                seen |= 1 << gpios[k]
        self._mask = mask
        self._bits = array.array("i", [1 << g for g in gpios])
        # [bank the handlers write, levels at the last read, pins latched ahead of their own
        # handler, reads into bank 0, into bank 1]. Preallocated; every value is a small int.
        self._m = array.array("i", [0, seen, 0, 0, 0])
        # Three words per read: its raw stamp, the buttons' levels it read, and the pins that
        # moved and came back before it.
        self._r = array.array("i", [0] * (3 * 2 * BANK))
        # The main loop's copy: each pin's level as the debouncers last heard it.
        self._level = array.array("i", levels)
        self.lost = 0
        self._t_read = 0  # stamp of the last read handed on: what came after it may be lost
        trig = pin_objs[0].IRQ_FALLING | pin_objs[0].IRQ_RISING if n else 0
        for k in range(n):
            pin_objs[k].irq(handler=self._handler(k), trigger=trig, hard=True)

    def _handler(self, k):
        # One closure per pin, made here. It closes over two names only: MicroPython calls a
        # closure with more than a few cells through a heap-allocated argument array.
        me = self
        bit = self._bits[k]

        def handler(pin):
            # Levels first, then the clock: the stamp is never earlier than an edge it reports.
            g = me._mem[GPIO_IN] & me._mask
            t = me._ticks() & _MASK30
            m = me._m
            ch = g ^ m[1]
            pulse = 0
            if ch & bit or m[2] & bit:
                m[2] &= ~bit  # moved (or an earlier handler's read already latched it)
            else:
                pulse = bit  # moved and came back before this read: both edges, at this stamp
            if not (ch | pulse):
                return
            m[2] |= ch & ~bit  # their own handlers are pending and will find nothing new
            m[1] = g
            b = m[0]
            c = m[3 + b]
            m[3 + b] = c + 1
            s = 3 * (b * BANK + (c & _BANK_MASK))  # past BANK reads, over the oldest
            r = me._r
            r[s] = t
            r[s + 1] = g
            r[s + 2] = pulse

        return handler

    def poll(self, clock, sink, blind=None):
        """The latched edges of every pin, in stamp order, as sink(t64, k, active); after reads
        lost, blind(ta, tb) first: ta the last read handed on, tb the oldest one kept."""
        m = self._m
        # Swap banks: the handlers write the other one from now on, this one is ours. Every
        # read latched before the swap is in it, so none left behind is older than one handed on.
        state = machine.disable_irq()
        b = m[0]
        m[0] = 1 - b
        machine.enable_irq(state)
        c = m[3 + b]
        if not c:
            return
        first = 0
        if c > BANK:
            first = c - BANK
            self.lost += first
        gpios = self._gpios
        level = self._level
        r = self._r
        for x in range(first, c):
            s = 3 * (b * BANK + (x & _BANK_MASK))
            t = clock.extend(r[s])
            if first and x == first and blind is not None:
                blind(self._t_read, t)
            self._t_read = t
            g = r[s + 1]
            pulse = r[s + 2]
            for k in range(len(gpios)):
                lv = (g >> gpios[k]) & 1
                if (pulse >> gpios[k]) & 1:
                    sink(t, k, lv == 1)  # went, and came back
                    sink(t, k, lv == 0)
                elif lv != level[k]:
                    level[k] = lv
                    sink(t, k, lv == 0)
        m[3 + b] = 0

    def close(self):
        for pin in self._pins:
            pin.irq(handler=None)
