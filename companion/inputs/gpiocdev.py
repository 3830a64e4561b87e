"""Edge events straight from the kernel's GPIO character device (uAPI v2), for the Pi's buttons.

lgpio (and so gpiozero's lgpio pins) requests each line with the kernel's default event buffer
(16 events) and drops the kernel's sequence numbers before Python sees an edge. A bouncy press
while the reading thread is starved can then overflow the buffer, the kernel drops the *oldest*
event, i.e. the press's first edge, and nothing says so. Here each line is requested with the
largest buffer the kernel grants (``GPIO_V2_LINES_MAX * 16`` = 1024 events), and every event's
``line_seqno`` is checked: a gap means the kernel dropped edges, which the source reports
instead of stamping a press late in silence.

``KernelGpio`` is the seam: the real one does ``ioctl``/``read`` on ``/dev/gpiochipN``; tests pass
a model of the kernel with the same five methods.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import glob
import logging
import os
import re
import select
import struct
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger("companion.inputs")

GPIO_V2_LINES_MAX = 64
# The kernel caps a request's buffer here (gpiolib-cdev.c, linereq_create); asking more is no use.
MAX_EVENT_BUFFER = GPIO_V2_LINES_MAX * 16

FLAG_INPUT = 1 << 2
FLAG_EDGE_RISING = 1 << 4
FLAG_EDGE_FALLING = 1 << 5
FLAG_BIAS_PULL_UP = 1 << 8
FLAG_BIAS_PULL_DOWN = 1 << 9
FLAG_BIAS_DISABLED = 1 << 10
EVENT_RISING = 1
EVENT_FALLING = 2

EVENT = struct.Struct("<QIIII6I")  # struct gpio_v2_line_event: 48 bytes


class _Attr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("padding", ctypes.c_uint32), ("value", ctypes.c_uint64)]


class _ConfigAttr(ctypes.Structure):
    _fields_ = [("attr", _Attr), ("mask", ctypes.c_uint64)]


class _LineConfig(ctypes.Structure):
    _fields_ = [
        ("flags", ctypes.c_uint64),
        ("num_attrs", ctypes.c_uint32),
        ("padding", ctypes.c_uint32 * 5),
        ("attrs", _ConfigAttr * 10),
    ]


class LineRequest(ctypes.Structure):
    """struct gpio_v2_line_request."""

    _fields_ = [
        ("offsets", ctypes.c_uint32 * GPIO_V2_LINES_MAX),
        ("consumer", ctypes.c_char * 32),
        ("config", _LineConfig),
        ("num_lines", ctypes.c_uint32),
        ("event_buffer_size", ctypes.c_uint32),
        ("padding", ctypes.c_uint32 * 5),
        ("fd", ctypes.c_int32),
    ]


class _LineValues(ctypes.Structure):
    _fields_ = [("bits", ctypes.c_uint64), ("mask", ctypes.c_uint64)]


class _ChipInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 32), ("label", ctypes.c_char * 32),
                ("lines", ctypes.c_uint32)]


class _LineInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 32),
        ("consumer", ctypes.c_char * 32),
        ("offset", ctypes.c_uint32),
        ("num_attrs", ctypes.c_uint32),
        ("flags", ctypes.c_uint64),
        ("attrs", _Attr * 10),
        ("padding", ctypes.c_uint32 * 4),
    ]


def _iowr(nr: int, size: int) -> int:
    return (3 << 30) | (size << 16) | (0xB4 << 8) | nr


GET_CHIPINFO = (2 << 30) | (ctypes.sizeof(_ChipInfo) << 16) | (0xB4 << 8) | 0x01
GET_LINEINFO = _iowr(0x05, ctypes.sizeof(_LineInfo))
GET_LINE = _iowr(0x07, ctypes.sizeof(LineRequest))
GET_VALUES = _iowr(0x0E, ctypes.sizeof(_LineValues))


@dataclass(frozen=True, slots=True)
class LineEvent:
    t_ns: int  # the kernel's CLOCK_MONOTONIC stamp of the edge
    level: int  # 1 after a rising edge, 0 after a falling one
    line_seqno: int


def parse_events(data: bytes) -> list[LineEvent]:
    out = []
    for ts, ev_id, _offset, _seqno, line_seqno, *_ in EVENT.iter_unpack(data):
        out.append(LineEvent(ts, 1 if ev_id == EVENT_RISING else 0, line_seqno))
    return out


class Kernel(Protocol):
    """What we ask of the kernel; ``KernelGpio`` is the real one."""

    def chip_info(self, chip: int) -> tuple[str, str, list[str]]: ...

    def request_events(self, chip: int, offset: int, flags: int, buffer: int) -> int: ...

    def read(self, fd: int) -> bytes: ...

    def get_value(self, fd: int) -> int: ...

    def close(self, fd: int) -> None: ...


class KernelGpio:
    """The GPIO character device through ``ioctl``: no library between the kernel and us."""

    def chips(self) -> list[int]:
        found = (re.fullmatch(r"/dev/gpiochip(\d+)", p) for p in glob.glob("/dev/gpiochip*"))
        return sorted(int(m.group(1)) for m in found if m)

    def _open(self, chip: int) -> int:
        return os.open(f"/dev/gpiochip{chip}", os.O_RDWR | os.O_CLOEXEC)

    def chip_info(self, chip: int) -> tuple[str, str, list[str]]:
        """The chip's name, label and its lines' names."""
        fd = self._open(chip)
        try:
            info = _ChipInfo()
            fcntl.ioctl(fd, GET_CHIPINFO, info)
            names = []
            for offset in range(info.lines):
                li = _LineInfo()
                li.offset = offset
                fcntl.ioctl(fd, GET_LINEINFO, li)
                names.append(li.name.decode(errors="replace"))
            return info.name.decode(), info.label.decode(), names
        finally:
            os.close(fd)

    def request_events(self, chip: int, offset: int, flags: int, buffer: int) -> int:
        fd = self._open(chip)
        try:
            req = LineRequest()
            req.offsets[0] = offset
            req.num_lines = 1
            req.consumer = b"table-companion"
            req.config.flags = flags
            req.event_buffer_size = buffer
            fcntl.ioctl(fd, GET_LINE, req)
            line_fd = int(req.fd)
        finally:
            os.close(fd)
        os.set_blocking(line_fd, False)
        return line_fd

    def read(self, fd: int) -> bytes:
        try:
            return os.read(fd, EVENT.size * 64)
        except BlockingIOError:
            return b""

    def get_value(self, fd: int) -> int:
        vals = _LineValues(0, 1)
        fcntl.ioctl(fd, GET_VALUES, vals)
        return int(vals.bits & 1)

    def close(self, fd: int) -> None:
        os.close(fd)


def header_chip(kernel: Kernel, chips: Iterable[int]) -> int | None:
    """The chip of the 40-pin header: the one whose line n is named ``GPIOn`` most often for
    n in 0..27 (Pi 5: RP1, ``gpiochip0`` or ``gpiochip4`` depending on the kernel; Pi 4 and
    earlier: the BCM chip, where some lines carry their function's name instead)."""
    best, best_score = None, 0
    for chip in chips:
        try:
            _, _, names = kernel.chip_info(chip)
        except OSError:
            continue
        score = sum(1 for n, name in enumerate(names[:28]) if name == f"GPIO{n}")
        if score > best_score:
            best, best_score = chip, score
    return best


EdgeCallback = Callable[[int, int], None]  # (t_ns, level)
GapCallback = Callable[[int, int], None]  # (events lost, stamp of the first event after the gap)


class _Line:
    __slots__ = ("fd", "gap", "last_seq", "on_edge")

    def __init__(self, fd: int, on_edge: EdgeCallback, gap: GapCallback) -> None:
        self.fd = fd
        self.on_edge = on_edge
        self.gap = gap
        self.last_seq = 0  # the kernel numbers a line's events from 1


class EventReader:
    """One thread that reads every requested line's events and checks their sequence numbers."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self._lines: dict[int, _Line] = {}
        self._lock = threading.Lock()
        self._reading = threading.Lock()  # held while a line is read: unwatch waits for it
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._stop = False
        self.on_crash: Callable[[BaseException], None] | None = None

    def watch(self, fd: int, on_edge: EdgeCallback, on_gap: GapCallback) -> None:
        with self._lock:
            self._lines[fd] = _Line(fd, on_edge, on_gap)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="gpio-events", daemon=True)
                self._thread.start()
        os.write(self._wake_w, b"w")

    def unwatch(self, fd: int) -> None:
        """Stop reading ``fd``; once this returns the reader will not touch it again."""
        with self._lock:
            self._lines.pop(fd, None)
        with self._reading:
            pass
        os.write(self._wake_w, b"w")

    def close(self) -> None:
        with self._lock:
            self._stop = True
            thread, self._thread = self._thread, None
        os.write(self._wake_w, b"q")
        if thread is not None:
            thread.join(5)
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _run(self) -> None:
        try:
            self._loop()
        except Exception as exc:
            log.exception("the GPIO event reader stopped")
            self._thread = None  # the next watch() starts a new reader (a source restarted)
            if self.on_crash is not None:
                self.on_crash(exc)

    def _loop(self) -> None:
        while True:
            with self._lock:
                if self._stop:
                    return
                lines = dict(self._lines)
            poller = select.poll()
            poller.register(self._wake_r, select.POLLIN)
            for fd in lines:
                poller.register(fd, select.POLLIN | select.POLLPRI)
            for fd, _ in poller.poll():
                if fd == self._wake_r:
                    os.read(self._wake_r, 64)
                    continue
                with self._reading:
                    with self._lock:
                        line = self._lines.get(fd)
                    if line is not None:
                        self._drain(line)

    def _drain(self, line: _Line) -> None:
        while True:
            try:
                data = self.kernel.read(line.fd)
            except OSError as exc:
                if exc.errno in (errno.EAGAIN, errno.EBADF):
                    return
                raise
            if not data:
                return
            for ev in parse_events(data):
                if ev.line_seqno != line.last_seq + 1 and line.last_seq:
                    line.gap(ev.line_seqno - line.last_seq - 1, ev.t_ns)
                elif not line.last_seq and ev.line_seqno > 1:
                    line.gap(ev.line_seqno - 1, ev.t_ns)
                line.last_seq = ev.line_seqno
                line.on_edge(ev.t_ns, ev.level)
