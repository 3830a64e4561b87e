"""The USB serial link as the board loop wants it: non-blocking byte reads, blocking writes."""

import select
import sys


class StdIO:
    def __init__(self, stdin=None, stdout=None):
        self._stdin = stdin if stdin is not None else sys.stdin
        self._in = self._stdin.buffer
        self._out = (stdout if stdout is not None else sys.stdout).buffer
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)

    def read_byte(self):
        """The next byte, or -1 if none is waiting."""
        try:
            for _, ev in self._poll.poll(0):
                if ev & select.POLLIN:
                    b = self._in.read(1)
                    if b:
                        return b[0]
        except OSError:
            # No host on the other end (a pty whose slave is closed): nothing to read.
            pass
        return -1

    def write(self, data):
        try:
            self._out.write(data)
        except OSError:
            # Host gone: the ring keeps the events, the host asks for them when it is back.
            pass
