"""A microsecond clock the test moves by hand; ``ticks_us`` wraps at 2**30 like the Pico's."""


class FakeClock:
    def __init__(self, t_us=0):
        self.t = t_us  # the true 64-bit time, for the test to compare with

    def ticks_us(self):
        return self.t & 0x3FFFFFFF

    def set(self, t_us):
        self.t = t_us

    def advance(self, dt_us):
        self.t += dt_us


class BufferIO:
    """The board's serial link as two byte buffers."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self._pos = 0

    def read_byte(self):
        if self._pos >= len(self.rx):
            return -1
        b = self.rx[self._pos]
        self._pos += 1
        return b

    def write(self, data):
        self.tx.extend(data)
