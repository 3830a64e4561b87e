"""The kernel side of the GPIO buttons: their lines requested through libgpiod (the ``gpiod``
binding), waited on and read until empty by the source's own thread, with the kernel's event
sequence numbers checked for dropped edges.
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable, Sequence
from typing import Any

from companion.inputs.gpiochip import CONSUMER, GpioLineError, explain_chip_failure

# The kernel caps a request's event buffer at GPIO_V2_LINES_MAX * 16 (linux/gpio.h, uAPI v2);
# left at 0 it gives 16 per line, which a bouncy press on a starved Pi can overflow.
MAX_EVENT_BUFFER = 64 * 16

EdgeCallback = Callable[[int, int, int], None]  # (pin, t_ns, level)
GapCallback = Callable[[int, int, int], None]  # (pin, events lost, stamp after the gap)


class GpiodLines:
    """The buttons' lines, one libgpiod request each (so each has the kernel's largest buffer
    to itself), read by the source's own thread, which checks every line's event sequence
    numbers: the edge goes from the kernel to the debouncer with no thread hand-off between.

    ``open_chip`` is the seam: ``gpiod.Chip`` on the Pi; tests pass a model of the kernel's
    GPIO character device with the same public methods."""

    def __init__(
        self, path: str, pins: Sequence[int], *, open_chip: Callable[[str], Any] | None = None
    ) -> None:
        import gpiod
        from gpiod.line import Bias, Direction, Edge

        opener = open_chip if open_chip is not None else gpiod.Chip
        self._rising = gpiod.EdgeEvent.Type.RISING_EDGE
        self.path = path
        self._requests: dict[int, Any] = {}
        self._last_seq: dict[int, int] = {}
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._poller = select.poll()
        self._poller.register(self._wake_r, select.POLLIN)
        self._by_fd: dict[int, tuple[int, Any]] = {}
        settings = gpiod.LineSettings(direction=Direction.INPUT, edge_detection=Edge.BOTH, bias=Bias.PULL_UP)
        try:
            chip = opener(path)
        except OSError as exc:
            self._close_pipe()
            raise explain_chip_failure(path, exc) from exc
        try:
            for pin in pins:
                req = chip.request_lines(
                    {pin: settings}, consumer=CONSUMER, event_buffer_size=MAX_EVENT_BUFFER
                )
                self._requests[pin] = req
                self._last_seq[pin] = 0  # the kernel numbers a line's events from 1
                self._by_fd[req.fd] = (pin, req)
                self._poller.register(req.fd, select.POLLIN | select.POLLPRI)
        except (OSError, ValueError) as exc:
            self.close()
            raise GpioLineError(pin, exc) from exc
        finally:
            chip.close()

    def level(self, pin: int) -> int:
        return int(self._requests[pin].get_value(pin).value)

    def wait(self, timeout_s: float) -> list[tuple[int, int]]:
        """The lines' fds with events, after at most ``timeout_s``; empty on a ``wake()``."""
        ready = self._poller.poll(max(0, int(timeout_s * 1000 + 0.999)))
        if len(ready) == 1 and ready[0][0] != self._wake_r:
            return ready  # the common case: one button's edge
        out = []
        for fd, ev in ready:
            if fd == self._wake_r:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 4096)
            else:
                out.append((fd, ev))
        return out

    def wake(self) -> None:
        """Ends a ``wait`` now (a flush or a stop is waiting on the source's thread)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"w")

    def read(self, ready: list[tuple[int, int]], on_edge: EdgeCallback, on_gap: GapCallback) -> None:
        """Every event of the ready lines until each is empty, in the kernel's order, as
        on_edge(pin, t_ns, level); a gap in a line's sequence numbers first as
        on_gap(pin, lost, stamp after the gap).

        One read returns at most what libgpiod's buffer holds (64 events unless asked for more:
        we ask for the kernel's whole buffer); a read that returns fewer than asked for found
        the kernel's buffer empty (linereq_read copies out events while there are some and
        they fit). One that returns as many may have left some: the line is polled before it is
        read again, as a read of an empty buffer blocks."""
        by_fd, last_seq, rising = self._by_fd, self._last_seq, self._rising
        want = MAX_EVENT_BUFFER
        for fd, _ in ready:
            pin, req = by_fd[fd]
            last = last_seq[pin]
            while True:
                events = req.read_edge_events(want)
                for ev in events:
                    seq = ev.line_seqno
                    if seq != last + 1:
                        # The kernel drops the oldest events of a full buffer: say how many went.
                        on_gap(pin, seq - last - 1, ev.timestamp_ns)
                    last = seq
                    on_edge(pin, ev.timestamp_ns, 1 if ev.event_type is rising else 0)
                if len(events) < want or not select.select((fd,), (), (), 0)[0]:
                    break
            last_seq[pin] = last

    def close(self) -> None:
        for req in self._requests.values():
            with contextlib.suppress(Exception):
                req.release()
        self._requests.clear()
        self._by_fd.clear()
        self._close_pipe()

    def _close_pipe(self) -> None:
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1
