"""The last N debounced events with their sequence numbers, kept for a host that reconnects."""

import array


class EventRing:
    """Event ``seq`` lives at slot ``seq % size`` until ``size`` newer events overwrite it."""

    def __init__(self, size=256):
        self.size = size
        self.next = 0
        self._code = array.array("H", [0] * size)  # role << 12 | index << 4 | kind
        # A list, not an array: stamps go past 2**32 and may be big ints on the Pico.
        self._t = [0] * size

    def oldest(self):
        return self.next - self.size if self.next > self.size else 0

    def push(self, role, index, kind, t_us):
        i = self.next % self.size
        self._code[i] = (role << 12) | (index << 4) | kind
        self._t[i] = t_us
        self.next += 1

    def get(self, seq):
        """(role, index, kind, t_us) of a held event."""
        i = seq % self.size
        c = self._code[i]
        return c >> 12, (c >> 4) & 0xFF, c & 0xF, self._t[i]
