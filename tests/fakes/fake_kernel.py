"""A model of the kernel's GPIO character device (uAPI v2) behind libgpiod's public ``Chip`` API,
for the tests: ``FakeKernel.open_chip`` stands where ``gpiod.Chip`` does in production.

What it models is the uAPI's documented behaviour (Documentation/userspace-api/gpio/, linux/gpio.h)
and gpiolib-cdev.c's, with libgpiod 2.x's reading on top: a request's event buffer (a kfifo)
holds ``event_buffer_size`` events (0: 16 per line; capped at GPIO_V2_LINES_MAX * 16 = 1024),
rounded up to a power of two as kfifo_alloc does; when it is full the kernel drops the *oldest*
event (linereq_put_event); every event carries its line's sequence number and a request-wide one,
both counted from 1 and counting dropped events too; a line held by one request cannot be
requested again (EBUSY); an output line (the seat LEDs)
takes its ``output_value`` at the request and ``set_value`` after, and is an input again, at
rest, once released. A read (``read_edge_events``) returns at most ``max_events`` events,
64 when not given (the Python binding's default), and never more than the request's libgpiod
buffer (its ``event_buffer_size``: 0 gives 64, more than 1024 gives 1024); it *blocks* while the
kernel's buffer is empty (the request's fd is a blocking one: libgpiod's "will block if no event
was queued"), so a reader must poll before it reads again. Readiness goes through a real pipe,
written as the event goes in (the kernel's poll() looks at the kfifo itself), so the reader's
poll() is the real one, and what it reads are gpiod's own value types (EdgeEvent, ChipInfo,
LineInfo, Value). The interrupt thread's delay (the kernel stamps an edge in the hard interrupt
and queues it from its thread a little later) is the caller's: ``edge`` takes the stamp.
"""

import contextlib
import errno
import os
import threading
import time
from collections import deque
from typing import Any

import gpiod
from gpiod.line import Bias, Direction, Edge, Value

DEFAULT_PER_LINE = 16
KERNEL_MAX_BUFFER = 64 * 16
READ_DEFAULT = 64  # the Python binding's read_edge_events(max_events=None)
LIBGPIOD_DEFAULT_BUFFER = 64  # gpiod_edge_event_buffer_new(0)
BLOCKED_READ_S = 3


def _kfifo_size(n):
    """kfifo_alloc rounds its size up to a power of two."""
    size = 1
    while size < n:
        size *= 2
    return size


class Line:
    def __init__(self, offset, name):
        self.offset = offset
        self.name = name
        self.owner = None  # None or the request that holds it
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


CHIPS: dict[int, Chip] = {}


def pi_chips():
    """A Pi 5 on a recent kernel: the header is gpiochip0 (RP1); gpiochip10+ are other chips."""
    CHIPS.clear()
    rp1 = ["ID_SDA", "ID_SCL"] + [f"GPIO{n}" for n in range(2, 28)] + ["PCIE_RP1_WAKE", "FAN_TACH"]
    CHIPS[0] = Chip("pinctrl-rp1", rp1)
    CHIPS[10] = Chip("gpio-brcmstb@107d508500", ["RP1_SDA", "RP1_SCL", "RP1_RUN"] + [""] * 29)
    CHIPS[11] = Chip("gpio-brcmstb@107d517c00", ["HDMI0_SCL", "HDMI0_SDA"] + [""] * 14)
    return CHIPS


def _number(path):
    name = os.path.basename(path)
    if not name.startswith("gpiochip") or not name[8:].isdigit() or int(name[8:]) not in CHIPS:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
    return int(name[8:])


def _drain(fd):
    with contextlib.suppress(BlockingIOError):
        while os.read(fd, 65536):
            pass


def _ready(fd):
    with contextlib.suppress(BlockingIOError):  # a full pipe is readable already
        os.write(fd, b"e")


class Request:
    """A line request (the fd GPIO_V2_GET_LINE_IOCTL returns), with gpiod.LineRequest's methods."""

    def __init__(self, kernel, chip, lines, settings, size, capacity):
        self.kernel = kernel
        self.chip = chip
        self.lines = lines  # {offset: Line}
        self.settings = settings  # {offset: gpiod.LineSettings}, as asked
        self.size = size  # the kernel's buffer, in events
        self.capacity = capacity  # libgpiod's buffer: the most one read can return
        self.reads = 0  # read() calls that returned events
        self.events: deque[Any] = deque()
        self.seqno = 0
        self.line_seqno = dict.fromkeys(lines, 0)
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)
        self.released = False

    @property
    def fd(self):
        return self.r

    @property
    def offsets(self):
        return list(self.lines)

    def get_value(self, offset):
        return Value.ACTIVE if self.lines[offset].level else Value.INACTIVE

    def get_values(self, lines=None):
        return [self.get_value(o) for o in (lines or self.offsets)]

    def set_value(self, offset, value):
        if self.released:
            raise OSError(errno.EBADF, "Bad file descriptor")
        line = self.lines[offset]
        if not line.output:
            raise OSError(errno.EPERM, "Operation not permitted")  # the uAPI refuses an input
        line.level = 1 if value == Value.ACTIVE else 0
        self.kernel.written(self.chip, offset, line.level)

    def wait_edge_events(self, timeout=None):
        import select

        return bool(select.select([self.r], [], [], timeout)[0])

    def read_edge_events(self, max_events=None):
        if self.kernel.read_error is not None:
            raise self.kernel.read_error
        want = min(READ_DEFAULT if max_events is None else max_events, self.capacity)
        with self.kernel.changed:
            if not self.events:
                # linereq_read on a blocking fd waits for an event: a reader that reads an
                # empty line without polling first hangs there. Counted, so tests can say so.
                self.kernel.blocked_reads += 1
                # The kernel would wait for ever; the model gives up after a while so that a
                # test of such a reader fails instead of hanging.
                if not self.kernel.changed.wait_for(lambda: self.events or self.released, BLOCKED_READ_S):
                    raise TimeoutError(f"read of an empty buffer blocked {BLOCKED_READ_S} s (poll first)")
                if self.released:
                    raise OSError(errno.EBADF, "Bad file descriptor")
            _drain(self.r)
            # The kernel copies out events while they fit in the read's buffer (linereq_read).
            out = [self.events.popleft() for _ in range(min(want, len(self.events)))]
            if self.events:
                _ready(self.w)  # still readable: poll() says so again
            self.reads += 1
        hook = self.kernel.after_read.pop(self, None)
        if hook is not None:
            hook()
        return out

    def release(self):
        with self.kernel.changed:
            if self.released:
                return
            self.released = True
            self.kernel.changed.notify_all()
            for line in self.lines.values():
                line.owner = None
                if line.output:
                    line.output, line.level = False, 1
            self.kernel.requests.remove(self)
            os.close(self.r)
            os.close(self.w)


class FakeChip:
    """What ``gpiod.Chip(path)`` gives: chip info, line info, line requests."""

    def __init__(self, kernel, path):
        self.kernel = kernel
        self.number = _number(path)
        self.path = path
        self.closed = False
        kernel.opened.append(path)

    def get_info(self):
        c = CHIPS[self.number]
        return gpiod.ChipInfo(f"gpiochip{self.number}", c.label, len(c.names))

    def get_line_info(self, offset):
        c = CHIPS[self.number]
        line = c.line(offset)
        return gpiod.LineInfo(offset, line.name, line.owner is not None, "", 1, False, 1, 1, 1, 1, False, 0)

    def request_lines(self, config, consumer=None, event_buffer_size=None, output_values=None):
        c = CHIPS[self.number]
        lines, settings = {}, {}
        for key, s in config.items():
            for offset in (key,) if isinstance(key, int) else key:
                if offset >= len(c.names):
                    raise ValueError("line offset of out range")
                line = c.line(offset)
                if line.owner is not None:
                    raise OSError(errno.EBUSY, "Device or resource busy")
                lines[offset], settings[offset] = line, s
        asked = event_buffer_size or 0
        size = DEFAULT_PER_LINE * len(lines) if asked == 0 else min(asked, KERNEL_MAX_BUFFER)
        capacity = LIBGPIOD_DEFAULT_BUFFER if asked == 0 else min(asked, KERNEL_MAX_BUFFER)
        req = Request(self.kernel, self.number, lines, settings, _kfifo_size(size), capacity)
        for offset, line in lines.items():
            line.owner = req
            if settings[offset] is not None and settings[offset].direction == Direction.OUTPUT:
                line.output = True
                line.level = 1 if settings[offset].output_value == Value.ACTIVE else 0
                self.kernel.written(self.number, offset, line.level)
        self.kernel.requests.append(req)
        return req

    def close(self):
        self.closed = True


class FakeKernel:
    """The kernel's side of the lines of ``CHIPS``. The lines themselves (their levels, who holds
    them) are the board's, in ``CHIPS``, not the kernel's: a new FakeKernel on the same chips
    finds a contact the last one left closed still closed, as a program started again on the Pi
    finds a button held (the source reports it stuck until released). ``pi_chips()`` is a
    fresh board, every button open."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # an event queued, or a request released
        self.blocked_reads = 0  # reads of an empty buffer (they block, as the kernel's do)
        # Called once, right after the next read of that request returns (outside the lock):
        # what happens on the other lines while the reader is between two reads.
        self.after_read = {}
        self.paused = False  # a starved reader: events pile up in the kernel's buffer
        self.dropped = 0
        self.opened = []  # chip paths opened, in order
        self.read_error = None  # an OSError every read raises (the chip went away)
        self.denied = set()  # chip paths the user may not open (not in the gpio group)
        self.writes = []  # (chip, offset, level, monotonic ns) of every output line's setting
        self.wrote = threading.Condition()

    def written(self, chip, offset, level):
        with self.wrote:
            self.writes.append((chip, offset, level, time.monotonic_ns()))
            self.wrote.notify_all()

    def levels(self, offset, chip=0):
        """The levels an output line was set to, in order."""
        with self.wrote:
            return [lv for c, o, lv, _ in self.writes if (c, o) == (chip, offset)]

    def paths(self):
        return [f"/dev/gpiochip{n}" for n in sorted(CHIPS)]

    def open_chip(self, path):
        if path in self.denied:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return FakeChip(self, path)

    def request_for(self, offset):
        return next(r for r in self.requests if offset in r.lines)

    def edge(self, offset, t_ns, level):
        """The line changes at kernel time t_ns; the event goes into its request's buffer.
        ``t_ns`` None: stamped now (CLOCK_MONOTONIC) as it goes in, no interrupt thread delay.
        Returns the stamp."""
        with self.lock:
            if t_ns is None:
                t_ns = time.monotonic_ns()
            req = self.request_for(offset)
            line = req.lines[offset]
            line.level = level
            edge = req.settings[offset].edge_detection
            if edge == Edge.NONE or (edge == Edge.RISING and not level) or (edge == Edge.FALLING and level):
                return
            req.seqno += 1
            req.line_seqno[offset] += 1
            if len(req.events) == req.size:
                req.events.popleft()  # the kernel keeps the newest
                self.dropped += 1
            kind = (gpiod.EdgeEvent.Type.RISING_EDGE if level else gpiod.EdgeEvent.Type.FALLING_EDGE).value
            req.events.append(gpiod.EdgeEvent(kind, t_ns, offset, req.seqno, req.line_seqno[offset]))
            self.changed.notify_all()
            if not self.paused:
                # Readable as soon as it is queued, as the kernel's poll() looks at the kfifo.
                _ready(req.w)
            return t_ns

    def resume(self):
        with self.lock:
            self.paused = False
            for req in self.requests:
                if req.events:
                    _ready(req.w)


__all__ = ["CHIPS", "Bias", "Chip", "Direction", "FakeKernel", "pi_chips"]
