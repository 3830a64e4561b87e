"""The firmware's PIO program, cycle by cycle in the RP2040 PIO emulator (pioemu).

Pins in the emulator are numbered from the program's ``in_base`` (bit 0 is GP2, seat 1). One
state machine cycle is 40 ns: the firmware runs the program at 25 MHz (sysclk / 5 on RP2040,
/ 6 on RP2350), so 25 cycles are one microsecond.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest

from tests.mpy_helpers import MPY_TESTS
from tests.pio_helpers import Program, firmware_constant, load, records, run

ALL_UP = 0x1FFF
LOOP = 25


@pytest.fixture(scope="module")
def prog() -> Program:
    return load()


def waveform(changes: list[tuple[int, int, int]]) -> Callable[[int], int]:
    """Levels from [(cycle, pin, level)]: each change holds from its cycle on."""
    changes = sorted(changes)

    def levels(clock: int) -> int:
        v = ALL_UP
        for c, pin, level in changes:
            if c > clock:
                break
            v = (v | (1 << pin)) if level else (v & ~(1 << pin))
        return v

    return levels


def first_low(recs: list[tuple[int, int]], pin: int) -> int:
    return next(stamp for stamp, levels in recs if not (levels >> pin) & 1)


def test_written_once_in_the_firmware_and_fits_the_pio(prog: Program) -> None:
    assert len(prog.words) <= 32  # one PIO instance's instruction memory
    assert "in pins, 13" in prog.pioasm
    assert prog.decorator == {"in_shiftdir": "rp2.PIO.SHIFT_LEFT", "fifo_join": "rp2.PIO.JOIN_RX"}
    assert firmware_constant("LOOP_CYCLES") == LOOP
    assert firmware_constant("SM_FREQ") == LOOP * 1_000_000
    assert firmware_constant("N_PINS") == 13


def test_every_path_takes_25_cycles_so_a_stamp_is_one_microsecond(prog: Program) -> None:
    # Worst case: a change at every sample (the longer-looking path, with two pushes) and no
    # change at all, alternating and mixed. Every loop is 25 cycles whichever way it goes.
    for name, wave in {
        "still": lambda c: ALL_UP,
        "change every loop": lambda c: ALL_UP ^ ((c // LOOP) & 1),
        "change every other loop": lambda c: ALL_UP ^ ((c // (2 * LOOP)) & 1),
        "random": lambda c: ALL_UP ^ (random.Random(c // 7).getrandbits(13)),
    }.items():
        pushes, samples = run(prog, wave, 60 * LOOP)
        gaps = {b - a for a, b in itertools.pairwise(samples)}
        assert gaps == {LOOP}, name
        # The stamp of a record is the number of the sample it came from.
        recs = records(pushes)
        for stamp, _ in recs:
            assert 0 <= stamp < len(samples)
        assert recs[0][0] == 0  # the levels at start are always the first record


def test_stamp_is_the_first_sample_at_or_after_the_edge(prog: Program) -> None:
    _, samples = run(prog, lambda c: ALL_UP, 10 * LOOP)
    s0 = samples[0]
    for c in range(s0 + 1, s0 + 3 * LOOP + 1):
        recs = records(run(prog, waveform([(c, 0, 0)]), c + 2 * LOOP)[0])
        want = -(-(c - s0) // LOOP)  # ceil
        assert first_low(recs, 0) == want, c


def test_ten_seats_pressed_one_microsecond_apart_keep_their_order(prog: Program) -> None:
    rnd = random.Random(1)
    order = list(range(10))
    for _ in range(25):
        rnd.shuffle(order)
        c0 = rnd.randrange(10, 10 + LOOP)  # any phase against the samples
        wave = waveform([(c0 + LOOP * i, seat, 0) for i, seat in enumerate(order)])
        recs = records(run(prog, wave, c0 + 12 * LOOP)[0])
        stamps = [first_low(recs, seat) for seat in order]
        assert stamps == list(range(stamps[0], stamps[0] + 10))  # no tie, no inversion


def test_all_ten_seats_at_once_are_one_record(prog: Program) -> None:
    wave = waveform([(200, seat, 0) for seat in range(10)])
    recs = records(run(prog, wave, 300)[0])
    assert len(recs) == 2
    assert recs[1][1] == ALL_UP & ~0x3FF


def test_a_bounce_of_one_clock_is_caught_only_on_a_sample(prog: Program) -> None:
    _, samples = run(prog, lambda c: ALL_UP, 10 * LOOP)
    on = samples[4]
    recs = records(run(prog, waveform([(on, 3, 0), (on + 1, 3, 1)]), on + 3 * LOOP)[0])
    assert [(s, lv) for s, lv in recs[1:]] == [(4, ALL_UP & ~8), (5, ALL_UP)]
    recs = records(run(prog, waveform([(on + 1, 3, 0), (on + 2, 3, 1)]), on + 3 * LOOP)[0])
    assert len(recs) == 1  # between two samples: never seen, and nothing else goes wrong


def test_bouncy_press_one_clock_bounces_first_edge_kept(prog: Program) -> None:
    # Contact bounce with one-clock gaps and runs, then settles down: the first sample that saw
    # the contact closed carries the press's stamp (here the first contact, one clock long, ends
    # on sample 3 and is missed: the press is one microsecond late, never early); the program
    # keeps its 25-cycle loop throughout.
    _, samples = run(prog, lambda c: ALL_UP, 10 * LOOP)
    start = samples[3] - 1
    changes = []
    level = 0
    for i in range(60):
        changes.append((start + i, 5, level))
        level ^= 1
    changes.append((start + 60, 5, 0))
    wave = waveform(changes)
    pushes, s = run(prog, wave, start + 8 * LOOP)
    recs = records(pushes)
    assert wave(samples[3]) & (1 << 5)
    assert first_low(recs, 5) == 4 == next(k for k, c in enumerate(s) if not wave(c) & (1 << 5))
    assert recs[-1][1] == ALL_UP & ~(1 << 5)
    assert {b - a for a, b in itertools.pairwise(s)} == {LOOP}


def test_a_glitch_shorter_than_a_microsecond_may_be_missed_longer_never(prog: Program) -> None:
    seen = set()
    for c in range(100, 100 + LOOP):
        recs = records(run(prog, waveform([(c, 7, 0), (c + LOOP - 1, 7, 1)]), c + 3 * LOOP)[0])
        seen.add(len(recs) > 1)
        recs = records(run(prog, waveform([(c, 7, 0), (c + LOOP, 7, 1)]), c + 3 * LOOP)[0])
        assert len(recs) == 3, c  # down and up again: a pulse of a whole loop always shows
    assert seen == {True, False}


def test_the_fake_rp2_of_the_micropython_tests_pushes_what_the_program_pushes(
    prog: Program, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tests/micropython/rp2.py stands for this program in the firmware tests; it must push the
    # same records for the same edges. An edge anywhere in the microsecond before sample t is
    # stamped t; edges in one microsecond are one sample.
    def load_fake(name: str) -> Any:
        spec = importlib.util.spec_from_file_location(name, MPY_TESTS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, mod)
        spec.loader.exec_module(mod)
        return mod

    machine = load_fake("machine")
    rp2 = load_fake("rp2")
    _, samples = run(prog, lambda c: ALL_UP, 3 * LOOP)
    s0 = samples[0]
    rnd = random.Random(7)
    compared = 0
    for _ in range(40):
        edges: list[tuple[int, int, int]] = []  # (us, pin, level), in the order they happen
        level = [1] * 13
        for t in sorted(rnd.randrange(1, 30) for _ in range(rnd.randrange(1, 14))):
            pin = rnd.randrange(13)
            level[pin] ^= 1
            edges.append((t, pin, level[pin]))
        # The emulator: each edge at a cycle within its microsecond, in the same order.
        cyc = []
        for t in sorted({e[0] for e in edges}):
            same = [e for e in edges if e[0] == t]
            offsets = sorted(rnd.sample(range(LOOP), len(same)), reverse=True)
            cyc += [(s0 + LOOP * t - r, pin, lv) for r, (_, pin, lv) in zip(offsets, same, strict=True)]
        want = records(run(prog, waveform(cyc), s0 + 32 * LOOP)[0])

        # The fake, as the firmware tests drive it: machine.drive at fake microsecond t.
        machine.reset()
        rp2.reset()
        clock = types.SimpleNamespace(t=0)
        rp2.use_clock(clock)
        for g in range(2, 15):
            machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)
        ring = bytearray(8192)
        dma = rp2.DMA()
        dma.config(read=0x50200020, write=ring, count=2048, ctrl=dma.pack_ctrl(), trigger=True)
        sm = rp2.StateMachine(0, None, in_base=machine.Pin(2))
        sm.active(1)
        for t, pin, lv in edges:
            clock.t = t
            machine.drive([(2 + pin, lv)])
        words = [int.from_bytes(ring[4 * i : 4 * i + 4], "little") for i in range(2048 - dma.count)]
        # One record per drive in the fake: what a sample sees is the last one of its microsecond.
        last: dict[int, int] = {}
        for i in range(0, len(words), 2):
            last[words[i + 1]] = words[i]
        got: list[tuple[int, int]] = []
        for stamp, lv in sorted(last.items()):
            if not got or got[-1][1] != lv:
                got.append((stamp, lv))
        assert got == want, edges
        compared += len(want)
    assert compared > 100
