"""Pty-backed boards for the serial source tests and bench: the real firmware under MicroPython,
or a scripted board written in Python for protocol corner cases."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

import serial

from companion.inputs import protocol as p
from companion.inputs.base import InputEvent, QueueItem, SourceStatus
from tests.mpy_helpers import FIRMWARE, MPY_TESTS, micropython

SEAT_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
REFEREE_PINS = (12, 13, 14)


def wait_for(pred: Callable[[], bool], timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


class Pty:
    """A pty pair; the test keeps the slave open so that the master never sees a hang-up."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no newline mangling: bytes as the board sent them
        self.path = os.ttyname(self.slave)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class FirmwareBoard:
    """The firmware's main loop in a MicroPython subprocess on the far side of a pty."""

    def __init__(self, boot_id: int = 1, start_us: int | str = 2**30 - 800_000, capture: str = "pio") -> None:
        self.boot_id = boot_id
        self.start_us = start_us
        self.capture = capture  # "pio" (the PIO model and DMA ring) or "irq" (the fallback)
        self.lines: list[list[str]] = []
        self._cond = threading.Condition()
        self._dir = tempfile.TemporaryDirectory()
        self._start()

    def _start(self) -> None:
        self.pty = Pty()
        fifo = Path(self._dir.name) / f"ctl{time.monotonic_ns()}"
        os.mkfifo(fifo)
        self.proc = subprocess.Popen(
            [
                micropython(),
                str(MPY_TESTS / "mp_board.py"),
                str(FIRMWARE),
                str(fifo),
                str(self.boot_id),
                str(self.start_us),
                self.capture,
            ],
            stdin=self.pty.master,
            stdout=self.pty.master,
            stderr=subprocess.PIPE,
            cwd=MPY_TESTS,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self._ctl = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                time.sleep(0.01)
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()
        self.wait_line(lambda w: w[0] == "ready", "board ready")

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            words = raw.decode(errors="replace").split()
            with self._cond:
                self.lines.append(words)
                self._cond.notify_all()

    def wait_line(self, pred: Callable[[list[str]], bool], what: str, timeout: float = 60) -> list[str]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for w in self.lines:
                    if w and pred(w):
                        return w
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise AssertionError(f"board never said {what}: {self.lines[-5:]}")
                self._cond.wait(left)

    def tie_ns(self) -> int:
        """The host's CLOCK_MONOTONIC less the board's clock (the fake board's runs at its pace):
        the offset the host's heartbeats should find, to within USB_OFFSET_UNCERTAINTY_NS."""
        w = self.wait_line(lambda w: w[0] == "ready", "board ready")
        return int(w[2]) * 1000

    def fired(self) -> list[tuple[int, int, int, int]]:
        """(t64, gpio, level, real_us) of every edge the fake pins made, in order."""
        with self._cond:
            return [(int(w[1]), int(w[2]), int(w[3]), int(w[4])) for w in self.lines if w[0] == "fired"]

    def sent(self) -> dict[int, int]:
        with self._cond:
            return {int(w[1]): int(w[2]) for w in self.lines if w[0] == "sent"}

    def edge(self, delay_us: int, gpio: int, level: int) -> None:
        os.write(self._ctl, f"edge {delay_us} {gpio} {level}\n".encode())

    def press(self, gpio: int, delay_us: int, hold_us: int = 60_000) -> None:
        self.edge(delay_us, gpio, 0)
        self.edge(delay_us + hold_us, gpio, 1)

    def wait_fired(self, n: int, timeout: float = 60) -> list[tuple[int, int, int, int]]:
        wait_for(lambda: len(self.fired()) >= n, timeout, f"{n} edges fired")
        return self.fired()

    def reset(self, boot_id: int) -> None:
        """Power-cycle: a new process with a new pty (the device node comes back anew)."""
        self.kill()
        self.boot_id = boot_id
        with self._cond:
            self.lines.clear()
        self._start()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.write(self._ctl, b"quit\n")
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        os.close(self._ctl)
        self.pty.close()

    def close(self) -> None:
        self.kill()
        self._dir.cleanup()


class Plug:
    """A port factory whose cable the test can pull: closes the open port, refuses to reopen."""

    def __init__(self, path: Callable[[], str]) -> None:
        self._path = path
        self.plugged = True
        self.opened: list[serial.Serial] = []

    def __call__(self) -> serial.Serial:
        if not self.plugged:
            raise FileNotFoundError(2, "No such file or directory", self._path())
        port = serial.Serial(self._path(), timeout=0.05)
        self.opened.append(port)
        return port

    def pull(self) -> None:
        self.plugged = False
        for port in self.opened:
            port.close()


def drain(q: queue.Queue[QueueItem]) -> list[QueueItem]:
    out: list[QueueItem] = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


class Collector:
    """Everything the source put on its queue, gathered by a thread as the main loop would."""

    def __init__(self) -> None:
        self.q: queue.Queue[QueueItem] = queue.Queue()
        self.items: list[tuple[float, QueueItem]] = []
        self._lock = threading.Lock()

    def collect(self) -> None:
        for item in drain(self.q):
            with self._lock:
                self.items.append((time.monotonic(), item))

    def events(self) -> list[InputEvent]:
        self.collect()
        return [x for _, x in self.items if isinstance(x, InputEvent)]

    def statuses(self) -> list[SourceStatus]:
        self.collect()
        return [x for _, x in self.items if isinstance(x, SourceStatus)]

    def wait_events(self, n: int, timeout: float = 60) -> list[InputEvent]:
        wait_for(lambda: len(self.events()) >= n, timeout, f"{n} input events")
        return self.events()


class ScriptedBoard:
    """A board written in Python on a pty, for what the firmware never does (noise, old versions)."""

    def __init__(self, hello: p.Hello | p.ForeignHello | None, on_command: Any = None) -> None:
        self.pty = Pty()
        self.hello = hello
        self.commands: list[p.HostCommand] = []
        self._on_command = on_command
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        os.write(self.pty.master, data)

    def _run(self) -> None:
        buf = b""
        while not self._stop.is_set():
            try:
                import select

                r, _, _ = select.select([self.pty.master], [], [], 0.05)
                if not r:
                    continue
                buf += os.read(self.pty.master, 4096)
            except OSError:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    cmd = p.parse_command(line)
                except p.FrameError:
                    continue
                self.commands.append(cmd)
                if isinstance(cmd, p.HelloRequest) and self.hello is not None:
                    self.write(p.encode_frame(self.hello))  # type: ignore[arg-type]
                if self._on_command is not None:
                    self._on_command(self, cmd)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.pty.close()
