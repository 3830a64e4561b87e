"""Edges captured by a PIO state machine to the microsecond, moved by DMA into a RAM ring.

The PIO program below samples every button pin once per microsecond, with no software in the
way, and on any change pushes the new levels and its own microsecond count. A DMA channel
drains the PIO's FIFO into a ring in RAM; the main loop reads the ring whenever it gets round to
it. See docs/pico.md ("Capture") for the timing and its limits.
"""

import rp2
import uctypes
from micropython import const

try:
    from typing_extensions import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403 - the PIO DSL's names, for the type checker only

N_PINS = const(13)  # pins one `in` reads: seats GP2..GP11 and the referee buttons GP12..GP14
LOOP_CYCLES = const(25)  # state machine cycles per loop, on every path (tests/firmware/test_piocapture.py)
SM_FREQ = const(25_000_000)  # so one loop is exactly 1 us: sysclk 125 or 150 MHz divides evenly
RING_BITS = const(13)  # ring of 2**13 bytes: 2048 words, 1024 records of (levels, count)
_RING_BYTES = const(8192)
_RING_MASK = const(8191)
_USABLE_WORDS = const(2048 - 64)  # records older than this many words are counted lost
_COUNT = const(0x0FFFFFFF)  # DMA transfers before re-arming (28 bits: RP2350's count field)
_MASK30 = const(0x3FFFFFFF)
LAG_US = const(3)  # a sample reaches the ring within one loop; ticks_us itself is +-1 us
_PIO0_RXF0 = const(0x50200020)  # PIO0 RX FIFO of state machine 0, same on RP2040 and RP2350
_DREQ_PIO0_RX0 = const(4)
CAPTURE_PIO = const(1)


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)
def edge_capture():
    # X: levels at the previous sample. OSR: a count that goes down by one every loop, so that
    # ~OSR is the number of the sample (the microsecond since start). Both paths take 25 cycles.
    mov(x, invert(null))  # no previous levels: the first sample is always pushed
    mov(osr, invert(null))  # ~OSR = 0 at the first sample
    wrap_target()
    mov(isr, null)
    in_(pins, 13)  # the sample: the stamp is the number of this cycle's loop
    mov(y, isr)
    jmp(x_not_y, "changed")
    nop()[16]
    label("tick")
    mov(x, osr)
    jmp(x_dec, "dec")  # x - 1, whichever way it jumps
    label("dec")
    mov(osr, x)
    mov(x, y)
    wrap()
    label("changed")
    push(block)  # word 1: the levels (ISR still holds the sample)
    mov(isr, invert(osr))
    push(block)[13]  # word 2: the sample's number
    jmp("tick")


class PioCapture:
    """Claims state machine 0 and a DMA channel; raises OSError/ValueError if it cannot."""

    path = CAPTURE_PIO
    resolution_us = 1
    lag_us = LAG_US

    def __init__(self, pin_cls, gpios, ticks_us, sm_id=0, gpio_in=-1):
        # PIO0 (the FIFO address and DREQ below). On a Pico W the wireless chip's driver holds a
        # PIO1 state machine, and rp2.StateMachine raises ValueError for one that is taken.
        if not 0 <= sm_id <= 3:
            raise ValueError("PIO0 state machines are 0..3")
        base = min(gpios)
        if max(gpios) - base >= N_PINS:
            raise ValueError("button pins span more than 13 GPIOs")
        self._base = base
        self._shift = []
        for g in gpios:
            self._shift.append(g - base)
        self._ticks = ticks_us
        # The DMA ring must sit on a 2**RING_BITS boundary: take twice that and use the aligned half.
        self._mem = bytearray(2 * _RING_BYTES)
        off = (-uctypes.addressof(self._mem)) & _RING_MASK
        self.ring = memoryview(self._mem)[off : off + _RING_BYTES]
        self.ring_records = _USABLE_WORDS // 2
        self._sm = rp2.StateMachine(sm_id, edge_capture, freq=SM_FREQ, in_base=pin_cls(base))
        self._dma = rp2.DMA()
        self._ctrl = self._dma.pack_ctrl(
            size=2,
            inc_read=False,
            inc_write=True,
            ring_size=RING_BITS,
            ring_sel=True,
            treq_sel=_DREQ_PIO0_RX0 + sm_id,
            irq_quiet=True,
        )
        self._dma.config(
            read=_PIO0_RXF0 + 4 * sm_id, write=self.ring, count=_COUNT, ctrl=self._ctrl, trigger=True
        )
        self._done = 0  # words written by earlier DMA runs (re-armed every 2**28 words)
        self._read = 0  # words consumed
        self._t_read = 0  # stamp of the last record read: what came after it may be lost
        self.lost = 0  # records overwritten before the main loop read them
        self.rearms = 0
        # Stamp n is the sample taken n us after the state machine starts. It starts between
        # t_a and t_b: taking t_b means a stamp is never earlier than its edge, and at most
        # align_us late, the same for every pin.
        t_a = ticks_us()
        self._sm.active(1)
        t_b = ticks_us()
        self.origin = t_b & _MASK30
        self.align_us = (t_b - t_a) & _MASK30
        # The program's first record holds every pin's level. Compared with the GPIO_IN word the
        # board's debouncers started from, only pins that really moved since are edges (a level
        # that did not change is no edge, and would only count as a glitch); unknown: all news.
        if gpio_in < 0:
            self._levels = -1
        else:
            self._levels = (gpio_in >> base) & ((1 << N_PINS) - 1)

    def _written(self):
        # dma.count is a register of the channel (rp2_dma.c: rp2_dma_attr), missing from the stubs.
        left = self._dma.count  # type: ignore[attr-defined]
        if left == 0 and not self._dma.active():
            # Every 2**28 words (2**27 edges) the count runs out: start it again where it stopped.
            self._done += _COUNT
            self.rearms += 1
            self._dma.config(count=_COUNT, trigger=True)
            left = _COUNT
        return self._done + _COUNT - left

    def poll(self, clock, sink, blind=None):
        """Every complete record in the ring, oldest first, as sink(t64, k, active) per change;
        after records lost, blind(ta, tb) first: ta the last record read, tb the next one kept."""
        written = self._written() & ~1
        backlog = written - self._read
        lost_from = -1
        if backlog > _USABLE_WORDS:
            # The ring went round before we read it: those records are gone, and said so. The
            # margin keeps us clear of the words the DMA may overwrite while we read.
            skip = backlog - _USABLE_WORDS
            self.lost += skip // 2
            self._read += skip
            lost_from = self._t_read
            # The levels stay those of the last record read: a pin that moved meanwhile shows
            # in the next record, late and said so (lost), and one that did not gets no edge
            # (an edge there would lend its early stamp to a press that follows it).
        ring = self.ring
        shift = self._shift
        while self._read < written:
            i = (self._read * 4) & _RING_MASK
            levels = ring[i] | (ring[i + 1] << 8)
            n = ring[i + 4] | (ring[i + 5] << 8) | (ring[i + 6] << 16) | ((ring[i + 7] & 0x3F) << 24)
            self._read += 2
            t = clock.extend((self.origin + n) & _MASK30)
            if lost_from >= 0:
                if blind is not None:
                    blind(lost_from, t)
                lost_from = -1
            old = self._levels
            for k in range(len(shift)):
                lv = (levels >> shift[k]) & 1
                if old < 0 or ((old >> shift[k]) & 1) != lv:
                    sink(t, k, not lv)
            self._levels = levels
            self._t_read = t

    def close(self):
        self._sm.active(0)
        self._dma.close()
