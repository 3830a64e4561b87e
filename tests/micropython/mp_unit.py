# Firmware unit tests, run by MicroPython's unix port (see tests/test_firmware_unit.py).
# usage: micropython mp_unit.py FIRMWARE_DIR VECTORS_JSON
# Prints one JSON object per test: {"test", "ok", "error", "data"}.
import sys

sys.path.insert(0, sys.argv[1])

import json
from binascii import hexlify, unhexlify

import buttonboard
import machine
import micropython
import wire
from evring import EventRing
from fakeclock import BufferIO, FakeClock
from ticks64 import Ticks64

with open(sys.argv[2]) as _f:
    VECTORS = json.load(_f)
WRAP = 1 << 30
SEATS = (2, 3, 4, 5)
REF = (12, 13, None)
LEDS = (15, 16, 17, None)
TESTS = []


def test(f):
    TESTS.append(f)
    return f


def eq(a, b, what=""):
    if a != b:
        raise AssertionError(f"{what}: {a!r} != {b!r}")


def make_board(t0, **kw):
    machine.reset()
    clock = FakeClock(t0)
    io = BufferIO()
    b = buttonboard.Board(
        machine.Pin,
        machine.mem32,
        clock.ticks_us,
        io,
        machine.unique_id(),
        0x1234ABCD,
        SEATS,
        REF,
        LEDS,
        machine="fake",
        **kw,
    )
    return b, clock, io


def frames(tx):
    """Board frames in a tx buffer, decoded with the firmware's own wire functions."""
    out = []
    for chunk in bytes(tx).split(b"\x00"):
        if not chunk:
            continue
        p = wire.cobs_decode(chunk)
        body = p[:-2]
        assert wire.crc16(body) == p[-2] | (p[-1] << 8)
        out.append(body)
    return out


def events(tx):
    import struct

    return [struct.unpack("<BIBBBQ", b)[1:] for b in frames(tx) if b[0] == wire.EVENT]


def run_until(board, clock, t_end, step=500):
    while clock.t < t_end:
        clock.advance(step)
        board.step()


@test
def ticks64_follows_true_time_across_wraps():
    c = FakeClock(WRAP - 1000)
    t = Ticks64(c.ticks_us)
    eq(t.t, WRAP - 1000)
    for _ in range(20):
        c.advance((1 << 28) + 12345)
        eq(t.now(), c.t, "now")
    return {"wraps": c.t // WRAP}


@test
def ticks64_extends_irq_stamps_taken_around_the_wrap():
    c = FakeClock(WRAP - 10)
    t = Ticks64(c.ticks_us)
    eq(t.extend((WRAP + 5) & 0x3FFFFFFF), WRAP + 5, "after the wrap")
    c.set(WRAP + 20)
    t.now()
    eq(t.extend((WRAP - 3) & 0x3FFFFFFF), WRAP - 3, "before the wrap, read after it")
    eq(t.extend((WRAP + 30) & 0x3FFFFFFF), WRAP + 30, "just after")


@test
def ring_keeps_the_last_n_with_their_sequence_numbers():
    r = EventRing(256)
    for s in range(300):
        r.push(s % 4, s % 10, s % 2, (1 << 40) + s)
    eq(r.next, 300)
    eq(r.oldest(), 44)
    for s in range(44, 300):
        eq(r.get(s), (s % 4, s % 10, s % 2, (1 << 40) + s), f"seq {s}")


@test
def irq_handler_allocates_nothing():
    b, _, _ = make_board(WRAP - 50)
    pin = b._pins[0]
    micropython.heap_lock()
    try:
        for _ in range(10):
            b._irq(pin)
    finally:
        micropython.heap_unlock()
    eq(b._qi[0], 10)


@test
def irq_queue_overflow_is_counted_not_fatal():
    b, _, io = make_board(1000)
    for _ in range(100):
        b._irq(None)
    eq(b.overflows(), 100 - 63)
    b.step()  # drains what it kept; the line never changed, so no event
    eq(events(io.tx), [])


@test
def press_stamps_are_64_bit_across_the_wrap():
    b, clock, io = make_board(WRAP - 20000)
    clock.set(WRAP - 5000)
    machine.drive([(2, 0)])  # seat 0 pressed just before the wrap
    clock.set(WRAP + 7000)
    machine.drive([(3, 0)])  # seat 1 just after
    run_until(b, clock, WRAP + 100000)
    t1 = clock.t
    machine.drive([(2, 1), (3, 1)])
    run_until(b, clock, WRAP + 200000)
    run_until(b, clock, 3 * WRAP + 10, step=1 << 27)  # two more wraps, main loop running
    t = clock.t
    machine.drive([(4, 0)])
    run_until(b, clock, t + 100000)
    eq(
        events(io.tx),
        [
            (0, 0, 0, 1, WRAP - 5000),
            (1, 0, 1, 1, WRAP + 7000),
            (2, 0, 0, 0, t1),
            (3, 0, 1, 0, t1),
            (4, 0, 2, 1, t),
        ],
    )
    return {"last_stamp": t}


@test
def simultaneous_presses_on_two_pins_get_the_same_stamp():
    b, clock, io = make_board(5000)
    clock.set(123456)
    machine.drive([(5, 0), (2, 0), (12, 0)])  # seats 3 and 0 and confirm, same instant
    run_until(b, clock, 200000)
    ev = events(io.tx)
    eq(len(ev), 3)
    eq(sorted((e[1], e[2]) for e in ev), [(0, 0), (0, 3), (1, 0)])
    eq(set(e[4] for e in ev), {123456}, "stamps")
    return {"skew_us": max(e[4] for e in ev) - min(e[4] for e in ev)}


@test
def bouncy_press_is_one_press_at_its_first_edge():
    b, clock, io = make_board(1000)
    t0 = 50000
    for i, dt in enumerate((0, 40, 90, 300, 310)):
        clock.set(t0 + dt)
        machine.drive([(3, i & 1)])
    clock.set(t0 + 80000)
    for i, dt in enumerate((0, 50, 120, 900, 1000)):
        clock.set(t0 + 80000 + dt)
        machine.drive([(3, 1 - (i & 1))])
    run_until(b, clock, t0 + 300000)
    eq([(e[2], e[3], e[4]) for e in events(io.tx)], [(1, 1, t0), (1, 0, t0 + 80000)])


@test
def short_pulse_is_a_glitch_and_no_press():
    b, clock, io = make_board(1000)
    clock.set(20000)
    machine.drive([(4, 0)])
    clock.set(21500)  # 1.5 ms < 2 ms minimum
    machine.drive([(4, 1)])
    run_until(b, clock, 200000)
    eq(events(io.tx), [])
    eq(b._deb[2].glitches, 1)


@test
def held_at_boot_is_reported_stuck():
    machine.reset()
    machine.Pin(13, machine.Pin.IN, machine.Pin.PULL_UP)
    machine.drive([(13, 0)])
    clock = FakeClock(777)
    io = BufferIO()
    b = buttonboard.Board(
        machine.Pin, machine.mem32, clock.ticks_us, io, machine.unique_id(), 1, SEATS, REF, LEDS
    )
    b.step()
    eq(events(io.tx), [(0, 2, 1, 2, 777)])


@test
def commands_hello_resend_ping_leds():
    b, clock, io = make_board(1000)
    for k, gpio in enumerate((2, 3, 4)):
        clock.set(10000 + k * 100000)
        machine.drive([(gpio, 0)])
        run_until(b, clock, 10000 + k * 100000 + 50000)
    io.tx[:] = b""
    io.rx.extend(b"noise\x03\n:zz\n")
    io.rx.extend(VECTORS["host_commands"][0]["line"].encode())  # hello request
    io.rx.extend(b":" + hexlify(b"\x83\x01\x00\x00\x00") + b"\n")  # bad crc: ignored
    body = b"\x83\x01\x00\x00\x00"
    crc = wire.crc16(body)
    io.rx.extend(b":" + hexlify(body + bytes([crc & 0xFF, crc >> 8])) + b"\n")
    body = b"\x84\x03\x0d\x03\x0d"
    crc = wire.crc16(body)
    io.rx.extend(b":" + hexlify(body + bytes([crc & 0xFF, crc >> 8])) + b"\r\n")
    body = b"\x82\x03\x00\x02\x00"
    crc = wire.crc16(body)
    io.rx.extend(b":" + hexlify(body + bytes([crc & 0xFF, crc >> 8])) + b"\n")
    clock.advance(100)
    b.step()
    bodies = frames(io.tx)
    types = [x[0] for x in bodies]
    eq(types, [wire.HELLO, wire.EVENT, wire.EVENT, wire.RESEND_DONE, wire.PONG], "replies")
    eq(b.led_on, 3)
    eq(b.led_blink, 2)
    eq(machine.Pin(15).value(), 1)  # seat 0 lit
    eq(b.reader.bad, 2)
    return {"frames": [hexlify(wire.frame(x)).decode() for x in bodies]}


@test
def led_blink_follows_the_board_clock():
    b, clock, _ = make_board(0)
    b.led_blink = 1
    seen = set()
    for _ in range(8):
        clock.advance(125000)
        b.step()
        seen.add(machine.level(15))
    eq(seen, {0, 1})


@test
def wire_matches_shared_vectors():
    for v in VECTORS["crc16"]:
        eq(wire.crc16(unhexlify(v["data"])), v["crc"], "crc " + v["data"])
    for v in VECTORS["cobs"]:
        raw, enc = unhexlify(v["raw"]), unhexlify(v["encoded"])
        eq(wire.cobs_encode(raw), enc, "cobs encode " + v["raw"][:16])
        eq(wire.cobs_decode(enc), raw, "cobs decode " + v["raw"][:16])
    n = 0
    for v in VECTORS["board_frames"]:
        m = v["message"]
        t = m["type"]
        if t == "Event":
            got = wire.event(
                m["seq"],
                ["seat", "confirm", "cancel", "undo"].index(m["role"]),
                m["index"],
                ["release", "press", "stuck", "unstuck"].index(m["kind"]),
                m["t_us"],
            )
        elif t == "Heartbeat":
            got = wire.heartbeat(m["t_us"], m["next_seq"], m["overflows"])
        elif t == "Pong":
            got = wire.pong(m["nonce"], m["t_us"])
        elif t == "ResendDone":
            got = wire.resend_done(m["requested"], m["first"], m["next_seq"])
        elif t == "Hello":
            got = wire.hello(
                m["firmware"],
                unhexlify(m["uid"]),
                m["boot_id"],
                m["next_seq"],
                m["oldest_seq"],
                m["lockout_us"],
                m["glitch_us"],
                m["stuck_ms"],
                m["seat_pins"],
                m["referee_pins"],
                m["led_pins"],
                m["machine"],
            )
        else:
            continue  # another protocol version: not something this firmware sends
        eq(hexlify(got).decode(), v["wire"], v["name"])
        n += 1
    codes = {"HelloRequest": 0x81, "SetLeds": 0x82, "Resend": 0x83, "Ping": 0x84}
    for v in VECTORS["host_commands"]:
        m = v["message"]
        r = wire.LineReader()
        got = None
        for ch in v["line"].encode():
            x = r.feed(ch)
            if x is not None:
                got = x
        a, b = {
            "HelloRequest": ("protocol", None),
            "SetLeds": ("on_mask", "blink_mask"),
            "Resend": ("from_seq", None),
            "Ping": ("nonce", None),
        }[m["type"]]
        want = (codes[m["type"]], m[a], m[b] if b else 0)
        eq(got, want, v["name"])
        eq(got[0], codes[m["type"]])
    for line in VECTORS["bad_commands"]:
        r = wire.LineReader()
        for ch in line.encode() + b"\n":
            eq(r.feed(ch), None, "bad command " + line)
    # frames in the noisy stream: every good one decodes with the firmware's COBS too
    for s in VECTORS["streams"]:
        good = 0
        for chunk in unhexlify(s["wire"]).split(b"\x00"):
            p = wire.cobs_decode(chunk) if chunk else None
            if p and len(p) > 2 and wire.crc16(p[:-2]) == p[-2] | (p[-1] << 8):
                good += 1
        eq(good, len(s["expect"]), s["name"])
    return {"frames_checked": n}


only = sys.argv[3:] if len(sys.argv) > 3 else None
failed = 0
for f in TESTS:
    name = f.__name__
    if only and name not in only:
        continue
    try:
        data = f()
        print(json.dumps({"test": name, "ok": True, "error": "", "data": data}))
    except Exception as e:
        failed += 1
        sys.print_exception(e)
        print(json.dumps({"test": name, "ok": False, "error": f"{type(e).__name__}: {e}", "data": None}))
sys.exit(1 if failed else 0)
