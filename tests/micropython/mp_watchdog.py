# The board's host-liveness watchdog (issue 20), run by MicroPython's unix port from
# tests/firmware/test_buttonboard_watchdog.py: the LEDs go dark by themselves when the host falls silent.
# usage: micropython mp_watchdog.py FIRMWARE_DIR
# Prints one JSON object per test: {"test", "ok", "error"}.
import sys

sys.path.insert(0, sys.argv[1])

import json
from binascii import hexlify

import buttonboard
import machine
import rp2
import wire
from fakeclock import BufferIO, FakeClock

LED0 = 15


def make_board():
    machine.reset()
    rp2.reset()
    clock = FakeClock(1000)
    rp2.use_clock(clock)
    io = BufferIO()
    b = buttonboard.Board(
        machine.Pin,
        machine.mem32,
        clock.ticks_us,
        io,
        machine.unique_id(),
        7,
        (2, 3, 4, 5),
        (12, 13, None),
        (15, 16, 17, None),
        machine="fake",
    )
    return b, clock, io


def command(io, body):
    crc = wire.crc16(body)
    io.rx.extend(b":" + hexlify(body + bytes([crc & 0xFF, crc >> 8])) + b"\n")


def set_leds(io, on, blink=0):
    command(io, bytes([wire.SET_LEDS, on & 0xFF, on >> 8, blink & 0xFF, blink >> 8]))


def run_for(b, clock, us, step=10000):
    end = clock.t + us
    while clock.t < end:
        clock.advance(step)
        b.step()


def eq(a, b, what=""):
    if a != b:
        raise AssertionError(f"{what}: {a!r} != {b!r}")


def leds_go_dark_when_the_host_falls_silent():
    b, clock, io = make_board()
    set_leds(io, 0b0011)
    run_for(b, clock, 20000)
    eq(machine.level(LED0), 1, "lit by the host")
    # The host sends its LED state every second; while it does, the LEDs stay as it said.
    for _ in range(5):
        run_for(b, clock, 900000)
        set_leds(io, 0b0011)
    run_for(b, clock, 20000)
    eq(machine.level(LED0), 1, "still lit while the host speaks")
    # The host is gone (killed, unplugged on its side, its "off" lost): dark on its own.
    run_for(b, clock, buttonboard.HOST_SILENT_US + 20000)
    eq((b.led_on, b.led_blink), (0, 0), "LED state after silence")
    eq(machine.level(LED0), 0, "dark after the host fell silent")


def the_host_back_lights_them_again():
    b, clock, io = make_board()
    set_leds(io, 0b0001)
    run_for(b, clock, buttonboard.HOST_SILENT_US + 20000)
    eq(machine.level(LED0), 0, "dark")
    set_leds(io, 0b0001)
    run_for(b, clock, 20000)
    eq(machine.level(LED0), 1, "lit again")


failed = 0
for f in (leds_go_dark_when_the_host_falls_silent, the_host_back_lights_them_again):
    try:
        f()
        print(json.dumps({"test": f.__name__, "ok": True, "error": ""}))
    except Exception as e:
        failed += 1
        print(json.dumps({"test": f.__name__, "ok": False, "error": f"{type(e).__name__}: {e}"}))
sys.exit(1 if failed else 0)
