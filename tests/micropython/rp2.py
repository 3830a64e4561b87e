"""Hand-written stand-in for MicroPython's ``rp2`` on the unix port, for the firmware tests.

It models what firmware/piocapture.py's PIO program does (checked against the real program,
cycle by cycle in the PIO emulator, by tests/firmware/test_piocapture.py): one sample of the button pins per
microsecond, and on any change two words, the levels and the sample's number, moved by DMA into
the ring. Time comes from the test's FakeClock (``use_clock``); edges made by ``machine.drive``
at fake time t are in the sample of t.
"""

import machine

_PIO0_RXF0 = 0x50200020
_clock = [None]
_dmas = []
_free = [12]


def use_clock(clock):
    _clock[0] = clock


def reset(dma_channels=12):
    _dmas.clear()
    _free[0] = dma_channels


def asm_pio(**kw):
    def dec(f):
        return ("asm_pio", f.__name__, kw)

    return dec


class PIO:
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    IN_LOW = 0
    IN_HIGH = 1

    def __init__(self, id):
        self.id = id


class StateMachine:
    def __init__(self, id, program=None, freq=-1, in_base=None, **kw):
        self.id = id
        self.program = program
        self.freq = freq
        self._base = in_base.id if in_base is not None else 0
        self._on = False
        self._t0 = 0
        self._last = -1
        self._fifo = []
        self.stalled = 0

    def active(self, value=None):
        if value is not None:
            on = bool(value)
            if on and not self._on:
                self._t0 = _clock[0].t
                self._last = -1
                machine.watch(self._changed)
                self._on = True
                self._changed()
            elif not on and self._on:
                machine.unwatch(self._changed)
                self._on = False
        return self._on

    def _changed(self):
        levels = (machine.levels() >> self._base) & 0x1FFF
        if levels == self._last:
            return
        self._last = levels
        n = (_clock[0].t - self._t0) & 0xFFFFFFFF
        self._push(levels)
        self._push(n)

    def _push(self, word):
        self._fifo.append(word)
        for d in _dmas:
            if d._read == _PIO0_RXF0 + 4 * self.id:
                d._drain(self._fifo)
        if len(self._fifo) > 8:
            # The real program would stall here (blocking push), and stop counting.
            self.stalled += 1
            self._fifo.pop()


class DMA:
    def __init__(self):
        if _free[0] <= 0:
            raise OSError(16)  # EBUSY, as rp2.DMA() says when no channel is free
        _free[0] -= 1
        self._read = 0
        self._buf = None
        self._left = 0
        self._pos = 0
        self._running = False
        _dmas.append(self)

    def pack_ctrl(self, **kw):
        self.ctrl_fields = kw
        return 0

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if read is not None:
            self._read = read
        if write is not None:
            self._buf = write
            self._pos = 0
        if count is not None:
            self._reload = count
        if trigger:
            self._left = self._reload
            self._running = True

    @property
    def count(self):
        return self._left

    def active(self, value=None):
        return self._running and self._left > 0

    def _drain(self, fifo):
        buf = self._buf
        size = len(buf)
        while fifo and self._left > 0:
            w = fifo.pop(0)
            i = self._pos
            buf[i] = w & 0xFF
            buf[i + 1] = (w >> 8) & 0xFF
            buf[i + 2] = (w >> 16) & 0xFF
            buf[i + 3] = (w >> 24) & 0xFF
            self._pos = (i + 4) % size  # ring_size wraps the write address at the ring's size
            self._left -= 1
        if self._left == 0:
            self._running = False

    def close(self):
        if self in _dmas:
            _dmas.remove(self)
            _free[0] += 1
