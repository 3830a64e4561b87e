# The firmware's main loop on the unix port, as the far end of a pty: the e2e tests and the
# latency bench drive its fake pins through a FIFO.
# usage: micropython mp_board.py FIRMWARE_DIR CONTROL_FIFO BOOT_ID START_US|real [pio|irq]
# (the capture path: "pio", the default, is the fake rp2's PIO model and DMA ring; "irq" the
# per-pin interrupt latch a board falls back to)
# stdin/stdout: the serial link (pty master). Control lines:
#   edge DELAY_US GPIO LEVEL   change a pin DELAY_US after this line is read
#   quit
# Reports on stderr: "ready T TIE_US", "fired T64 GPIO LEVEL REAL_US", "sent SEQ REAL_US"
# (TIE_US: the host's CLOCK_MONOTONIC, in us, less the board's clock, which runs at its pace: what
# the host's clock offset should find; REAL_US: that clock when the line was written).
import sys

sys.path.insert(0, sys.argv[1])

import select
import time

import buttonboard
import machine
import pinmap
import piocapture
import rp2
import wire
from fakeclock import FakeClock
from stdio import StdIO

err = sys.stderr


class LoggingIO(StdIO):
    """Notes when each event frame leaves the board, for latency measurements."""

    def write(self, data):
        super().write(data)
        body = wire.cobs_decode(data[1:-1])
        if body and body[0] == wire.EVENT:
            seq = body[1] | (body[2] << 8) | (body[3] << 16) | (body[4] << 24)
            err.write(f"sent {seq} {time.ticks_us()}\n")


real0 = time.ticks_us()
start = None if sys.argv[4] == "real" else int(sys.argv[4])


def target():
    now = time.ticks_us()
    return now if start is None else start + time.ticks_diff(now, real0)


clock = FakeClock(target())
rp2.use_clock(clock)
path = sys.argv[5] if len(sys.argv) > 5 else "pio"
io = LoggingIO()
board = buttonboard.Board(
    machine.Pin,
    machine.mem32,
    clock.ticks_us,
    io,
    machine.unique_id(),
    int(sys.argv[3]),
    pinmap.SEAT_PINS,
    pinmap.REFEREE_PINS,
    pinmap.LED_PINS,
    machine="MicroPython unix port (fake pins)",
    status_led=pinmap.STATUS_LED,
    pio=piocapture.PioCapture if path == "pio" else None,
)
ctl = open(sys.argv[2], "rb")  # noqa: SIM115 - open for the whole run
poll = select.poll()
poll.register(ctl, select.POLLIN)
pending = []  # [t64, gpio, level], kept sorted
line = bytearray()
err.write(f"ready {clock.t} {0 if start is None else real0 - start}\n")
running = True
dirty = False
while running:
    now = target()
    # One byte per ready poll: a stream read(n) waits for all n bytes on MicroPython.
    while any(ev & select.POLLIN for _, ev in poll.poll(0)):
        for ch in ctl.read(1) or b"":
            if ch != 10:
                line.append(ch)
                continue
            words = bytes(line).decode().split()
            line = bytearray()
            if words and words[0] == "edge":
                pending.append([now + int(words[1]), int(words[2]), int(words[3])])
                dirty = True
            elif words and words[0] == "quit":
                running = False
    if dirty:
        pending.sort()  # once per pass: sorting per line made a long script stall the loop
        dirty = False
    while pending and pending[0][0] <= now:
        t, gpio, level = pending.pop(0)
        t = max(t, clock.t)  # a line read late fires late; the report says when
        clock.set(t)
        machine.drive([(gpio, level)])
        err.write(f"fired {t} {gpio} {level} {time.ticks_us()}\n")
    if now > clock.t:
        clock.set(now)
    board.step()
    time.sleep_us(200)
board.close()
