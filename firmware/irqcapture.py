"""The fallback when PIO or DMA cannot be claimed: edges stamped in a per-pin interrupt handler.

Each pin has its own handler (so we know which pin moved, even when its contact reopened before
the handler read it) and its own fixed latch slots, so a busy main loop cannot overflow them.
A slot holds one lockout window: the first edge that opened it and the last level seen in it;
the debounce rules decide at most one thing per window, so nothing they would decide is lost
while the slots last. When they do not, the loss is counted and reported as lost.
"""

import array

import machine
from micropython import const

_MASK30 = const(0x3FFFFFFF)
WINDOWS = const(4)  # lockout windows latched per pin between two main-loop passes
CAPTURE_IRQ = const(0)
# Not measured on a board: MicroPython's hard IRQ entry on the RP2040 plus this handler, as a
# bound. The unix-port model (bench/gpio.py, "pico.irq_model") puts it at 51-62 us. Two presses
# closer than this may be stamped in the wrong order (the handlers run one at a time): the host
# ties them.
RESOLUTION_US = const(60)


class IrqCapture:
    path = CAPTURE_IRQ
    resolution_us = RESOLUTION_US
    align_us = 0
    lag_us = 0
    rearms = 0
    ring_records = 0

    def __init__(self, pin_objs, levels, ticks_us, lockout_us):
        n = len(pin_objs)
        self._ticks = ticks_us
        self._lockout = lockout_us
        self._pins = pin_objs
        # Written by the handlers only; preallocated; every value is a small int.
        self._n = array.array("i", [0] * n)  # windows opened since the main loop read them
        self._t0 = array.array("i", [0] * (n * WINDOWS))  # raw stamp of a window's first edge
        self._t1 = array.array("i", [0] * (n * WINDOWS))  # raw stamp of its last edge
        self._lv = array.array("i", [0] * (n * WINDOWS))  # level read at its last edge
        self._over = array.array("i", [0] * n)  # windows that found no free slot
        # The main loop's copy, and each pin's level as the debouncers last heard it.
        self._level = array.array("i", levels)
        self.lost = 0
        trig = pin_objs[0].IRQ_FALLING | pin_objs[0].IRQ_RISING if n else 0
        for k in range(n):
            pin_objs[k].irq(handler=self._handler(k), trigger=trig, hard=True)

    def _handler(self, k):
        # One closure per pin, made here. It closes over two names only: MicroPython calls a
        # closure with more than a few cells through a heap-allocated argument array.
        me = self

        def handler(pin):
            t = me._ticks() & _MASK30
            level = pin.value()
            nw = me._n
            base = k * WINDOWS
            c = nw[k]
            if c == 0 or ((t - me._t0[base + c - 1]) & _MASK30) > me._lockout:
                if c == WINDOWS:
                    me._over[k] += 1
                else:
                    me._t0[base + c] = t
                    c += 1
                    nw[k] = c
            me._t1[base + c - 1] = t
            me._lv[base + c - 1] = level

        return handler

    def poll(self, clock, sink):
        """The latched edges of every pin, in stamp order, as sink(t64, k, active)."""
        nw = self._n
        taken = []
        # One critical section for every pin, so that no edge latched meanwhile can be older
        # than one already handed on.
        state = machine.disable_irq()
        for k in range(len(nw)):
            c = nw[k]
            if c:
                base = k * WINDOWS
                taken.append((k, self._t0[base:base + c], self._t1[base:base + c],
                              self._lv[base:base + c], self._over[k]))
                nw[k] = 0
                self._over[k] = 0
        machine.enable_irq(state)
        if not taken:
            return
        edges = []
        for k, t0, t1, lv, over in taken:
            self.lost += over
            level = self._level[k]
            for j in range(len(t0)):
                # The window's first edge moved the pin away from where it was, whatever the
                # level was by the time the handler read it.
                # (The running count keeps a pin's edges of one stamp in their order.)
                level = 1 - level
                edges.append((clock.extend(t0[j]), len(edges), k, not level))
                if lv[j] != level:
                    level = lv[j]
                    edges.append((clock.extend(t1[j]), len(edges), k, not level))
            self._level[k] = level
        edges.sort()
        for t, _, k, active in edges:
            sink(t, k, active)

    def close(self):
        for pin in self._pins:
            pin.irq(handler=None)
