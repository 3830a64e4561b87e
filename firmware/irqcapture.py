"""The fallback when PIO or DMA cannot be claimed: edges stamped in the pins' interrupt handlers.

MicroPython's rp2 port has one interrupt for the GPIO bank; its handler reads the bank's raw
interrupt register eight GPIOs at a time (IO_BANK0 INTR) and, for each GPIO with a latched edge,
acknowledges it and runs its Python handler, one after the other in GPIO order. So that
simultaneous presses are not stamped in GPIO order, a handler does not stamp its own pin only:
it reads every button's latched edges (INTR, in halfwords), every pin's level in one read of SIO
GPIO_IN and the clock once, and latches that read (stamp, levels, the edge bits it had not seen)
if any button moved since the last one, like a sample of the PIO program. A press is then
stamped by the first read after it (at most the interrupt's entry and one handler run late,
whichever pin's handler that is), two presses come out in their order or tied, and a pin that
went and came back before a read is latched as such (both edges at the stamp) whether or not
its own handler has run yet: the edge bits say it moved, the level that it came back. Its own
handler's dispatch acknowledges (clears) its bits; what it cleared that no read had seen comes
back to the handler as the IRQ's flags. The handler's work does not grow with the number of pins
that moved. It writes no register: a bit a read saw stays latched until its pin's own dispatch,
so a pin with a read pending is always dispatched, and an edge repeating a polarity already
latched and seen before that dispatch is told by the level only (the latch holds one of each).

Reads go into one of two banks: the handlers fill one while the main loop empties the other,
swapped under a critical section of a few instructions. A bank is a ring: past ``BANK`` reads
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
# IO_BANK0 INTR0: the bank's raw interrupts, four bits a GPIO (LEVEL_LOW, LEVEL_HIGH, EDGE_LOW,
# EDGE_HIGH from bit 4 * (n % 8)), eight GPIOs a word; the edge bits latch every edge, whether
# the GPIO's interrupt is enabled or not, until written 1 (the RP2040 and RP2350 datasheets,
# IO_BANK0 INTR0-3 "Raw Interrupts"; INTR0 at offset 0xf0 and 0x230). Read in halfwords: a word
# with GPIO7's edge bits (30, 31) set is a big int, which a hard handler cannot allocate.
INTR_RP2040 = const(0x400140F0)
INTR_RP2350 = const(0x40028230)
_EDGES = const(12)  # a GPIO's EDGE_LOW | EDGE_HIGH, as Pin.IRQ_FALLING | Pin.IRQ_RISING
# What a stamp may lag its edge (issue 34, case 5): the interrupt's entry, one handler run, and
# the time from its pin's INTR read to the clock read. An edge just after that INTR read, back
# at rest before the GPIO_IN read, is in neither; its latched bits bring a handler whose reads
# see it: the rest of this run, an entry, and that handler up to its clock read. So the reads
# come first in the handler, back to back and unrolled (a loop's turn costs ~3 empty calls). On
# the model the tests run (tests/micropython/machine.py play(),
# tests/firmware/test_firmware_capture_properties.py):
# a 10 us entry, a 110 us run (above bench/gpio.py's RP2040 estimate, "pico.irq_model", ~95 us),
# 6 us for an INTR halfword read as the handler makes it (the bench: ~5.5 us, a subscript of a
# tuple and of mem16 and a store), 4 us for GPIO_IN's and for ticks_us (the assumption;
# the bench reads ~1.3 us for a subscript, and its ~7 us for ticks_us is a clock_gettime on the
# unix port, a timer register read on the Pico): 10 + 110 + 3 * 6 + 4 + 4 with the four INTR
# halfwords of the shipped pin map (GP2..GP14). Not measured on a board. The host ties presses
# closer than this.
RESOLUTION_US = const(146)
_UNROLLED = const(4)  # INTR halfwords the handler reads unrolled (GP0..GP15 from a multiple of 4)
# Beyond them, per halfword read in a loop, and the loop's own cost (bench/gpio.py's turn, ~15 us).
_LOOP_TURN_US = const(15)
_LOOP_EXTRA_US = const(60)


class IrqCapture:
    path = CAPTURE_IRQ
    resolution_us = RESOLUTION_US
    align_us = 0
    lag_us = 0
    rearms = 0
    ring_records = 0

    def __init__(self, pin_objs, levels, ticks_us, gpios, mem32, mem16=None, intr=INTR_RP2040):
        n = len(pin_objs)
        self._ticks = ticks_us
        self._mem = mem32
        self._mem16 = machine.mem16 if mem16 is None else mem16
        self._pins = pin_objs
        self._gpios = tuple(gpios)
        mask = 0
        seen = 0
        for k in range(n):
            mask |= 1 << gpios[k]
            if levels[k]:
                seen |= 1 << gpios[k]
        self._mask = mask
        # The INTR halfwords (four GPIOs each) holding a button's edge bits, by address: past
        # 2**30 an int lives on the heap, so they are made here and the handler only indexes them.
        h0 = min(gpios) >> 2 if n else 0
        nh = (max(gpios) >> 2) - h0 + 1 if n else 0
        ha = [intr + 2 * (h0 + i) for i in range(nh)]
        em = [0] * nh
        for g in gpios:
            em[(g >> 2) - h0] |= _EDGES << (4 * (g & 3))
        if 0 < nh < _UNROLLED:
            # Padded to the four halfwords the handler reads unrolled: the last one again,
            # with no button's bits (read twice, it changes nothing).
            ha += [ha[-1]] * (_UNROLLED - nh)
            em += [0] * (_UNROLLED - nh)
            nh = _UNROLLED
        self._ha = tuple(ha)
        if nh > _UNROLLED:
            # Pins over more than four halfwords (a pin map spanning more than 16 GPIOs): the
            # handler reads them in a loop, each turn ~15 us on an RP2040 (bench/gpio.py,
            # "pico.irq_model"), so the window from the first read to the clock grows with them.
            self.resolution_us = RESOLUTION_US + (nh - _UNROLLED) * _LOOP_TURN_US + _LOOP_EXTRA_US
        self._em = array.array("i", em)
        self._hk = array.array("i", [(g >> 2) - h0 for g in gpios])  # a button's halfword
        self._sk = array.array("i", [4 * (g & 3) for g in gpios])  # and its bits' shift there
        # Edge bits a read handed on and their pins' dispatch has not acknowledged yet.
        self._seen = array.array("i", [self._mem16[self._ha[i]] & em[i] for i in range(nh)])
        self._nw = array.array("i", [0] * nh)  # the handler's scratch: this read's new bits
        self._raw = array.array("i", [0] * nh)  # and the INTR halfwords as read
        # [bank the handlers write, levels at the last read, reads into bank 0, into bank 1].
        self._m = array.array("i", [0, seen, 0, 0])
        # Per read: its raw stamp, the buttons' levels, the edge bits new at it (per halfword).
        self._w = 2 + nh
        self._r = array.array("i", [0] * (self._w * 2 * BANK))
        # The main loop's copy: each pin's level as the debouncers last heard it.
        self._level = array.array("i", levels)
        self.lost = 0
        self._t_read = 0  # stamp of the last read handed on: what came after it may be lost
        self._irqs = [None] * n
        trig = pin_objs[0].IRQ_FALLING | pin_objs[0].IRQ_RISING if n else 0
        # Every pin's IRQ object is in place before any handler runs (it reads its flags).
        state = machine.disable_irq()
        for k in range(n):
            self._irqs[k] = pin_objs[k].irq(handler=self._handler(k), trigger=trig, hard=True)
        machine.enable_irq(state)

    def _handler(self, k):
        # One closure per pin, made here. It closes over two names only: MicroPython calls a
        # closure with more than a few cells through a heap-allocated argument array.
        me = self

        def handler(pin):
            # Latched edges, then levels, then the clock: the stamp is never earlier than an edge
            # it reports, and an edge between the two reads shows in the level. The reads come
            # first, back to back, and what they mean is worked out after the clock's: the time
            # from a pin's INTR read to the clock read is part of the stated bound (RESOLUTION_US).
            ha = me._ha
            raw = me._raw
            mem = me._mem16
            if len(ha) == 4:  # _UNROLLED: the shipped pin map, four reads and no loop between
                raw[0] = mem[ha[0]]
                raw[1] = mem[ha[1]]
                raw[2] = mem[ha[2]]
                raw[3] = mem[ha[3]]
            else:
                for i in range(len(ha)):
                    raw[i] = mem[ha[i]]
            g = me._mem[GPIO_IN] & me._mask
            t = me._ticks() & _MASK30
            s = me._seen
            hk = me._hk[k]
            # This pin's bits its dispatch cleared that no read handed on: it moved since.
            own = ((me._irqs[k].flags() & _EDGES) << me._sk[k]) & ~s[hk]
            em = me._em
            nw = me._nw
            new = own
            for i in range(len(ha)):
                v = raw[i] & em[i]
                x = v & ~s[i]
                s[i] = v
                nw[i] = x
                new |= x
            nw[hk] |= own
            m = me._m
            if not (new or g ^ m[1]):
                return
            m[1] = g
            b = m[0]
            c = m[2 + b]
            m[2 + b] = c + 1
            w = me._w
            x = w * (b * BANK + (c & _BANK_MASK))  # past BANK reads, over the oldest
            r = me._r
            r[x] = t
            r[x + 1] = g
            for i in range(w - 2):
                r[x + 2 + i] = nw[i]

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
        c = m[2 + b]
        if not c:
            return
        first = 0
        if c > BANK:
            first = c - BANK
            self.lost += first
        gpios = self._gpios
        level = self._level
        hk = self._hk
        sk = self._sk
        r = self._r
        w = self._w
        for x in range(first, c):
            s = w * (b * BANK + (x & _BANK_MASK))
            t = clock.extend(r[s])
            if first and x == first and blind is not None:
                blind(self._t_read, t)
            self._t_read = t
            g = r[s + 1]
            for k in range(len(gpios)):
                lv = (g >> gpios[k]) & 1
                if lv != level[k]:
                    level[k] = lv
                    sink(t, k, lv == 0)
                elif (r[s + 2 + hk[k]] >> sk[k]) & _EDGES:
                    sink(t, k, lv == 1)  # went, and came back
                    sink(t, k, lv == 0)
        m[2 + b] = 0

    def close(self):
        for pin in self._pins:
            pin.irq(handler=None)
