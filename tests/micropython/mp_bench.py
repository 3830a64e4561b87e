# The firmware's board loop under MicroPython, for bench/serial_link.py: one JSON line a figure.
# usage: micropython mp_bench.py FIRMWARE_DIR order ROUNDS SEED
#        micropython mp_bench.py FIRMWARE_DIR stall pio|irq ROUNDS SEED STALL_US
#        micropython mp_bench.py FIRMWARE_DIR ring SEED SLAPS
#        micropython mp_bench.py FIRMWARE_DIR absence SLAP_EVERY_US SLAPS
import sys

sys.path.insert(0, sys.argv[1])

import json
import random
import struct

import buttonboard
import machine
import piocapture
import rp2
import wire
from fakeclock import BufferIO, FakeClock

SEATS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
REF = (12, 13, 14)


def board(path, t0=1000):
    machine.reset()
    rp2.reset()
    clock = FakeClock(t0)
    rp2.use_clock(clock)
    io = BufferIO()
    b = buttonboard.Board(
        machine.Pin,
        machine.mem32,
        clock.ticks_us,
        io,
        machine.unique_id(),
        7,
        SEATS,
        REF,
        (),
        pio=piocapture.PioCapture if path == "pio" else None,
    )
    return b, clock, io


def presses(io):
    out = []
    for chunk in bytes(io.tx).split(b"\x00"):
        if not chunk:
            continue
        p = wire.cobs_decode(chunk)
        if p and p[0] == wire.EVENT:
            _, _, _, index, kind, t = struct.unpack("<BIBBBQ", p[:-2])
            if kind == 1:
                out.append((index, t))
    io.tx[:] = b""
    return out


def order(rounds, seed):
    # Ten seats pressed 1 us apart in a random order, every round; the board must stamp them 1 us
    # apart in that order.
    random.seed(seed)
    b, clock, io = board("pio")
    ties = inversions = wrong = 0
    t = 100000
    for _ in range(rounds):
        seats = list(range(10))
        for i in range(9, 0, -1):
            j = random.getrandbits(8) % (i + 1)
            seats[i], seats[j] = seats[j], seats[i]
        for i, s in enumerate(seats):
            clock.set(t + i)
            machine.drive([(SEATS[s], 0)])
        clock.set(t + 5000)
        b.step()
        clock.set(t + 40000)
        machine.drive([(g, 1) for g in SEATS])
        clock.set(t + 80000)
        b.step()
        got = presses(io)
        got.sort(key=lambda x: x[1])
        stamps = [x[1] for x in got]
        ties += len(stamps) - len(set(stamps))
        inversions += sum(1 for a, c in zip([x[0] for x in got], seats) if a != c)  # noqa: B905
        wrong += 0 if stamps == [t + i for i in range(10)] else 1
        t += 100000
    return {"rounds": rounds, "ties": ties, "inversions": inversions, "wrong_stamps": wrong, "lost": b.lost()}


def stall(path, rounds, seed, stall_us):
    # All ten players slap within 4 ms, each contact bouncing 1..15 times, 1..512 us apart, while
    # the main loop is away for stall_us; then it comes back. Every press must be there, at its
    # first edge.
    random.seed(seed)
    b, clock, io = board(path)
    missing = extra = late = edges = 0
    t0 = 200000
    for _ in range(rounds):
        evs = []
        firsts = {}
        for seat in range(10):
            t = t0 + random.getrandbits(12)
            firsts[seat] = t
            level = 0
            for _ in range(1 + 2 * (random.getrandbits(3))):
                evs.append((t, SEATS[seat], level))
                level = 1 - level
                t += 1 + random.getrandbits(9)
        evs.sort()
        edges += len(evs)
        for t, g, level in evs:
            clock.set(t)
            machine.drive([(g, level)])
        clock.set(t0 + stall_us)
        b.step()
        clock.set(t0 + stall_us + 40000)
        b.step()
        machine.drive([(g, 1) for g in SEATS])
        clock.set(t0 + stall_us + 100000)
        b.step()
        got = dict(presses(io))
        for seat, t in firsts.items():
            if seat not in got:
                missing += 1
            elif got[seat] != t:
                late += 1
        extra += sum(1 for s in got if s not in firsts)
        t0 += stall_us + 200000
    return {
        "path": path,
        "rounds": rounds,
        "presses": 10 * rounds,
        "edges": edges,
        "stall_ms": stall_us / 1000,
        "missing": missing,
        "extra": extra,
        "not_at_first_edge": late,
        "lost_reported": b.lost(),
    }


def ring(seed, slaps):
    # The main loop never runs while bouncy 10-player slaps come one after the other: how many
    # the DMA ring holds, and what the board says once it has lost some.
    random.seed(seed)
    b, clock, _ = board("pio")
    t0 = 200000
    records = 1  # the levels at start
    held = None
    for k in range(slaps):
        evs = []
        for seat in range(10):
            t = t0 + random.getrandbits(12)
            level = 0
            for _ in range(1 + 2 * (random.getrandbits(3))):
                evs.append((t, SEATS[seat], level))
                level = 1 - level
                t += 1 + random.getrandbits(9)
            evs.append((t0 + 60000 + random.getrandbits(10), SEATS[seat], 1))
        evs.sort()
        for t, g, level in evs:
            clock.set(t)
            if machine.level(g) != level:
                records += 1
            machine.drive([(g, level)])
        if held is None and records > b.capture.ring_records:
            held = k
        t0 += 200000
    clock.advance(10000)
    b.step()
    return {
        "ring_records": b.capture.ring_records,
        "records_made": records,
        "slaps_held": held,
        "lost_reported": b.lost(),
        "lost_expected": max(0, records - b.capture.ring_records),
    }


def absence(every_us, slaps):
    # No host reads anything: every slap is 10 presses and 10 releases kept in the board's event
    # ring. When the host comes back it asks for everything since seq 0.
    b, clock, io = board("pio")
    t = 100000
    for _ in range(slaps):
        for s in range(10):
            clock.set(t + s * 50)
            machine.drive([(SEATS[s], 0)])
        clock.set(t + 60000)
        machine.drive([(g, 1) for g in SEATS])
        t += every_us
        clock.set(t - 1000)
        b.step()
    io.tx[:] = b""
    body = bytes([wire.RESEND, 0, 0, 0, 0])
    crc = wire.crc16(body)
    line = ":" + "".join(f"{x:02x}" for x in body + bytes([crc & 0xFF, crc >> 8])) + "\n"
    io.rx.extend(line.encode())
    b.step()
    done = None
    for chunk in bytes(io.tx).split(b"\x00"):
        p = wire.cobs_decode(chunk) if chunk else None
        if p and p[0] == wire.RESEND_DONE:
            done = struct.unpack("<BIII", p[:-2])
    _, requested, first, nxt = done
    return {
        "slaps": slaps,
        "events": nxt,
        "ring_events": b.ring.size,
        "kept": nxt - first,
        "lost_reported": first - requested,
        "slap_every_s": every_us / 1e6,
    }


cmd = sys.argv[2]
if cmd == "order":
    r = order(int(sys.argv[3]), int(sys.argv[4]))
elif cmd == "ring":
    r = ring(int(sys.argv[3]), int(sys.argv[4]))
elif cmd == "stall":
    r = stall(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
else:
    r = absence(int(sys.argv[3]), int(sys.argv[4]))
print(json.dumps(r))
