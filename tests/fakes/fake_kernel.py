"""A model of the kernel's GPIO character device (uAPI v2) for the tests: line requests with an
event buffer that keeps the newest events and drops the oldest when full, as gpiolib-cdev does,
and numbered events. Readiness goes through a real pipe, so the reader's poll() is the real one.
"""

import contextlib
import os
import struct
import threading
from collections import deque

EVENT = struct.Struct("<QIIII6I")
DEFAULT_BUFFER = 16
KERNEL_MAX_BUFFER = 1024


class Line:
    def __init__(self, offset, name):
        self.offset = offset
        self.name = name
        self.owner = None  # None, "lgpio" or a request fd
        self.flags = 0
        self.output = False
        self.level = 1  # pulled up, button open


class Chip:
    def __init__(self, label, names):
        self.label = label
        self.names = names
        self.lines = {}

    def line(self, n):
        if n not in self.lines:
            self.lines[n] = Line(n, self.names[n] if n < len(self.names) else "")
        return self.lines[n]


CHIPS = {}


def pi_chips():
    """A Pi 5 on a recent kernel: the header is gpiochip0 (RP1); gpiochip10+ are other chips."""
    CHIPS.clear()
    rp1 = ["ID_SDA", "ID_SCL"] + [f"GPIO{n}" for n in range(2, 28)] + ["PCIE_RP1_WAKE", "FAN_TACH"]
    CHIPS[0] = Chip("pinctrl-rp1", rp1)
    CHIPS[10] = Chip("gpio-brcmstb@107d508500", ["RP1_SDA", "RP1_SCL", "RP1_RUN"] + [""] * 29)
    CHIPS[11] = Chip("gpio-brcmstb@107d517c00", ["HDMI0_SCL", "HDMI0_SDA"] + [""] * 14)
    return CHIPS


class _Request:
    def __init__(self, chip, line, flags, size):
        self.chip, self.line, self.flags, self.size = chip, line, flags, size
        self.events = deque()
        self.seqno = 0
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)


class FakeKernel:
    def __init__(self):
        self.requests = {}
        self.lock = threading.Lock()
        self.paused = False  # a starved reader: events pile up in the kernel's buffer
        self.dropped = 0

    def chips(self):
        return sorted(CHIPS)

    def chip_info(self, chip):
        c = CHIPS[chip]
        return f"gpiochip{chip}", c.label, list(c.names)

    def request_events(self, chip, offset, flags, buffer):
        line = CHIPS[chip].line(offset)
        if line.owner is not None:
            raise OSError(16, "Device or resource busy")
        size = DEFAULT_BUFFER if buffer == 0 else min(buffer, KERNEL_MAX_BUFFER)
        req = _Request(chip, line, flags, size)
        line.owner = req.r
        self.requests[req.r] = req
        return req.r

    def request_for(self, offset):
        return next(r for r in self.requests.values() if r.line.offset == offset)

    def edge(self, offset, t_ns, level):
        """The line changes at kernel time t_ns; the event goes into the request's buffer."""
        with self.lock:
            req = self.request_for(offset)
            req.line.level = level
            req.seqno += 1
            if len(req.events) == req.size:
                req.events.popleft()  # the kernel keeps the newest
                self.dropped += 1
            req.events.append(EVENT.pack(t_ns, 1 if level else 2, offset, req.seqno, req.seqno,
                                         0, 0, 0, 0, 0, 0))
            if not self.paused:
                os.write(req.w, b"e")

    def resume(self):
        with self.lock:
            self.paused = False
            for req in self.requests.values():
                if req.events:
                    os.write(req.w, b"e")

    def read(self, fd):
        with self.lock:
            req = self.requests[fd]
            with contextlib.suppress(BlockingIOError):
                os.read(req.r, 4096)
            out = b""
            for _ in range(64):
                if not req.events:
                    break
                out += req.events.popleft()
            return out

    def get_value(self, fd):
        return self.requests[fd].line.level

    def close(self, fd):
        with self.lock:
            req = self.requests.pop(fd)
            req.line.owner = None
            os.close(req.r)
            os.close(req.w)
