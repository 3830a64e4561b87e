"""time.ticks_us() extended to a 64-bit microsecond count that survives the 2**30 wrap."""

from micropython import const

# ticks_us() wraps at 2**30 on the Pico (and Pico 2): small ints are 31 bits on a 32-bit port.
# The mask is our own rather than time.ticks_diff so that a fake clock can test the wrap on any
# port, whatever its own ticks period.
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


class Ticks64:
    """Call ``now()`` at least every 2**29 us (~9 min); the main loop does, many times a second."""

    def __init__(self, ticks_us):
        self._ticks = ticks_us
        self._raw = ticks_us() & _MASK
        # Starts at the raw count, so that early on it is the real time since reset.
        self.t = self._raw

    def now(self):
        raw = self._ticks() & _MASK
        self.t += (raw - self._raw) & _MASK
        self._raw = raw
        return self.t

    def extend(self, raw):
        """A raw 30-bit stamp taken within 2**29 us of the last ``now()``, before or after it."""
        return self.t + (((raw - self._raw + _HALF) & _MASK) - _HALF)
