"""Property tests of the Pico's two capture paths (issue 19): the real firmware, on the MicroPython
unix port, replays generated scenarios of up to ten seats slapping with bounce, glitches before
the presses, the main loop stalled for 0-150 ms, and a chattering line long enough to overflow
the PIO's DMA ring or the interrupt path's ring of reads. The interrupt path runs with the rp2
port's dispatch (GPIO-number order, a 50 us handler, a 10 us entry: tests/micropython/machine.py).

The oracle is the debounce rules themselves (firmware/debounce.py, run here by CPython) applied
to the true edges at their true times. For every scenario:

- with no loss reported, every seat has the oracle's presses and releases, each stamped in
  [its first edge, its first edge + the resolution the board states in hello], and two presses
  of different seats are never inverted by as much as that resolution (the host ties them),
  a transition after a lockout's end its line chattered across included (the rules stamp it at
  the end itself: docs/pico.md, "A lockout's end");
- with a loss reported, no press is stamped earlier than the true press it stands for, and no
  press is made up.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.inputs.debounce import Debouncer, DebounceSettings, Transition
from tests.mpy_helpers import FIRMWARE, MPY_TESTS, micropython

HANDLER_US = 110  # one handler run (firmware/irqcapture.py, RESOLUTION_US)
ENTRY_US = 10
# What each read in a handler costs on the model (its value taken at its end, inside the run):
# an INTR halfword as the handler reads it (unrolled), GPIO_IN, ticks_us. bench/gpio.py
# "pico.irq_model" measures them on the unix port against an empty call (~5.5 and ~1.3 us at its
# 5 us an empty call); 4 us a plain read is the assumption, above that.
READS = {"intr": 6, "level": 4, "clock": 4}
INTR_HALFWORDS = 4  # GP2..GP14, the shipped pin map: INTR halfwords 0 to 3
# An edge just after its pin's INTR halfword was read, back at rest before the level read, is
# seen by the next handler's reads: the rest of this run, an entry, and the next run to its clock.
WINDOW_US = (INTR_HALFWORDS - 1) * READS["intr"] + READS["level"] + READS["clock"]
LOCKOUT_US = 30_000
GLITCH_US = 2_000
STEP_US = 1_000
CHATTER_GPIO = 14  # in the PIO program's 13-pin window from GP2, not a button of these boards


def _firmware_debounce() -> Any:
    spec = importlib.util.spec_from_file_location("fw_debounce", FIRMWARE / "debounce.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


DEB = _firmware_debounce()


class Board:
    """One MicroPython interpreter running tests/micropython/mp_scenario.py for a whole run."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [micropython(), str(MPY_TESTS / "mp_scenario.py"), str(FIRMWARE)],
            cwd=MPY_TESTS,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, sc: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(sc) + "\n")
        self.proc.stdin.flush()
        res: dict[str, Any] = json.loads(self.proc.stdout.readline())
        assert "error" not in res, res["error"]
        return res

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    b = Board()
    yield b
    b.close()


# Runs well clear of the debounce rules' thresholds, so that a stamp late by up to the
# resolution cannot turn a glitch into a press or the other way round: the oracle's verdict is
# then the only right one.
SHORT = st.integers(1, 1_500)  # bounce gaps and glitch lengths: under the 2 ms glitch minimum
GAP_AFTER_GLITCH = st.one_of(st.integers(50, 1_500), st.integers(2_500, 8_000))


@st.composite
def burst(draw: st.DrawFn, t: int, gaps: st.SearchStrategy[int] = SHORT) -> tuple[list[int], int]:
    """A contact closing or opening with bounce: an odd number of edges, runs under 1.5 ms."""
    times = [t]
    for _ in range(2 * draw(st.integers(0, 4))):
        t += draw(gaps)
        times.append(t)
    return times, t


CHATTER = st.integers(1, 80)  # a contact chattering faster than the interrupt path's reads


@st.composite
def next_edge(draw: st.DrawFn, first: int, t: int, after: int) -> tuple[int, st.SearchStrategy[int]]:
    """When the next burst starts, and its bounce: at least ``after`` past the last edge ``t``,
    or (issue 19) chattering across the lockout's end, ``first`` + LOCKOUT_US, its first edge
    up to 150 us before the end and bouncing every 1-80 us."""
    if draw(st.integers(0, 3)) == 0:
        return max(t + 1, first + LOCKOUT_US - draw(st.integers(0, 150))), CHATTER
    return t + draw(st.integers(after, after + 55_000)), SHORT


@st.composite
def scenarios(draw: st.DrawFn, path: str) -> dict[str, Any]:
    n = draw(st.integers(1, 10))
    seats = list(range(2, 2 + n))
    edges: list[tuple[int, int, int]] = []
    slap = 20_000 + draw(st.integers(0, 50_000))
    end = slap
    for gpio in seats:
        # Around one slap: the seats within a few microseconds to a few milliseconds.
        t = slap + draw(st.one_of(st.integers(0, 80), st.integers(0, 3_000)))
        gaps = SHORT
        for _ in range(draw(st.integers(1, 2))):
            if gaps is SHORT and draw(st.booleans()):  # a glitch first (crosstalk, a brushed button)
                g = draw(SHORT)
                edges += [(t, gpio, 0), (t + g, gpio, 1)]
                t += g + draw(GAP_AFTER_GLITCH)
            times, t = draw(burst(t, gaps))
            edges += [(x, gpio, 1 - (k & 1)) for k, x in enumerate(times)]  # ends down
            t, gaps = draw(next_edge(times[0], t, LOCKOUT_US + 5_000))  # held past the lockout
            times, t = draw(burst(t, gaps))
            edges += [(x, gpio, k & 1) for k, x in enumerate(times)]  # ends up
            t, gaps = draw(next_edge(times[0], t, LOCKOUT_US + 5_000))
        end = max(end, t)
    stall_at = draw(st.integers(10_000, end))
    stall = draw(st.integers(0, 150_000))
    if draw(st.booleans()):
        # A line chattering while the main loop is away: enough edges to overflow the rings.
        gpio = CHATTER_GPIO if path == "pio" and draw(st.booleans()) else draw(st.sampled_from(seats))
        t = stall_at + draw(st.integers(0, 5_000))
        gap = draw(st.one_of(st.integers(1, 3), st.integers(1, 300)))
        count = 2 * draw(st.integers(50, 1_000))
        stop = t + count * gap
        if all(not t - 3 * GLITCH_US <= e[0] <= stop + 3 * GLITCH_US for e in edges if e[1] == gpio):
            edges += [(t + k * gap, gpio, 1 - (k & 1)) for k in range(count)]
            stall = max(stall, stop - stall_at + draw(st.integers(0, 10_000)))
            end = max(end, stop)
            # A seat slapping just after the chatter, still in the stall (issue 19, finding 3).
            other = draw(st.sampled_from(seats))
            tp = stop + draw(st.integers(1, 1_800))
            span = (tp - LOCKOUT_US - GLITCH_US, tp + 2 * LOCKOUT_US + 20_000)
            if other != gpio and all(not span[0] <= e[0] <= span[1] for e in edges if e[1] == other):
                times, tr = draw(burst(tp))
                edges += [(x, other, 1 - (k & 1)) for k, x in enumerate(times)]
                tr += LOCKOUT_US + 5_000
                edges.append((tr, other, 1))
                end = max(end, tr)
    edges.sort()
    # Each line's edges must alternate (a level is where the last edge left it).
    levels: dict[int, int] = {}
    clean: list[tuple[int, int, int]] = []
    for t, gpio, lv in edges:
        if levels.get(gpio, 1) != lv:
            levels[gpio] = lv
            clean.append((t, gpio, lv))
    end += 200_000
    steps = [s for s in range(STEP_US, end, STEP_US) if not stall_at <= s < stall_at + stall]
    return {
        "path": path,
        "seats": seats,
        "edges": [list(e) for e in clean],
        "steps": steps,
        "end": end,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }


def transitions(sc: dict[str, Any]) -> dict[int, list[tuple[int, int]]]:
    """Each seat's presses and releases by the debounce rules on the true edges: (kind, t0)."""
    out: dict[int, list[tuple[int, int]]] = {}
    debs = {}
    for k, gpio in enumerate(sc["seats"]):
        out[k] = []

        def sink(key: int, kind: int, t0: int) -> None:
            if kind in (DEB.PRESS, DEB.RELEASE):
                out[key].append((kind, t0))

        debs[gpio] = DEB.Debouncer(k, sink, LOCKOUT_US, GLITCH_US, 10_000_000, False, 1000)
    for t, gpio, lv in sc["edges"]:
        if gpio in debs:
            debs[gpio].edge(t, lv == 0)
    for d in debs.values():
        d.poll(sc["end"])
    return out


def check(sc: dict[str, Any], res: dict[str, Any]) -> None:
    """The property, for every transition alike, those after a lockout's end the line moved
    across included (issue 19: they were held to "never early" only until the rules stamped
    them at the end itself)."""
    r = res["resolution_us"]
    want = transitions(sc)
    got: dict[int, list[tuple[int, int]]] = {k: [] for k in want}
    for role, index, kind, t in res["events"]:
        if role == 0 and kind in (DEB.PRESS, DEB.RELEASE):
            got[index].append((kind, t))
    if res["lost"] == 0:
        pairs = []
        for k in want:
            assert [x for x, _ in got[k]] == [x for x, _ in want[k]], (k, got[k], want[k])
            for (kind, o), (_, s) in zip(want[k], got[k], strict=True):
                assert o <= s, ("stamped before its edge", k, kind, s, o)
                assert s <= o + r, ("stamped later than its edge + the resolution", k, kind, s, o, r)
                if kind == DEB.PRESS:
                    pairs.append((o, s))
        for oa, sa in pairs:
            for ob, sb in pairs:
                if oa <= ob:
                    assert sa - sb < r or (oa == ob and sa == sb), (oa, sa, ob, sb, r)
    else:
        for k in want:
            w = [o for kind, o in want[k] if kind == DEB.PRESS]
            g = [s for kind, s in got[k] if kind == DEB.PRESS]
            assert len(g) <= len(w), ("a press made up", k, g, w)
            for s, o in zip(g, w, strict=False):
                assert s >= o, ("stamped before its press", k, s, o)


def _note(sc: dict[str, Any], res: dict[str, Any]) -> None:
    event("loss reported" if res["lost"] else "no loss")
    event(f"{len(sc['seats'])} seats")


# derandomize pins the seed, not the examples: Hypothesis also draws integers from the constants
# of every project module in sys.modules, so a run of the whole suite tries other scenarios than
# this file alone (that is how the PIO phantom press, below as a plain test, was found).
# COMPANION_PROPERTY_SCALE=10 hunts ten times longer; bench/mutation.py runs a tenth, 20 at least.
SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))
PROPS = settings(
    max_examples=max(20, int(120 * SCALE)),
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


@PROPS
@given(sc=scenarios("irq"))
def test_interrupt_path_stamps_within_its_resolution(board: Board, sc: dict[str, Any]) -> None:
    res = board.run(sc)
    _note(sc, res)
    check(sc, res)


@PROPS
@given(sc=scenarios("pio"))
def test_pio_path_stamps_within_its_resolution(board: Board, sc: dict[str, Any]) -> None:
    res = board.run(sc)
    _note(sc, res)
    check(sc, res)


def _glitch_then_overflow(path: str, press_at: int | None) -> dict[str, Any]:
    # Seat GP2 closes for 0.6 ms across a pass of the main loop, which reads the closing; then,
    # while the loop is away, a line chatters long enough for the ring to go round and take the
    # reopening with it (and the real press that may follow). The example the PIO property found
    # on full-suite runs, cut to its bones.
    chatter = CHATTER_GPIO if path == "pio" else 3
    count, gap = (2_400, 2) if path == "pio" else (1_200, 30)
    start = 31_600
    stop = start + count * gap
    edges = [[30_900, 2, 0], [31_500, 2, 1]]
    if press_at is not None:
        edges += [[press_at, 2, 0], [press_at + 60_000, 2, 1]]
    edges += [[start + k * gap, chatter, 1 - (k & 1)] for k in range(count)]
    edges.sort()
    end = stop + 200_000
    steps = [s for s in range(STEP_US, end, STEP_US) if not 31_000 < s < stop + 5_000]
    return {
        "path": path,
        "seats": [2, 3],
        "edges": edges,
        "steps": steps,
        "end": end,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }


@pytest.mark.parametrize("path", ["pio", "irq"])
@pytest.mark.parametrize("press_at", [None, 34_000])
def test_a_glitch_whose_end_the_ring_lost_lends_no_stamp(
    board: Board, path: str, press_at: int | None
) -> None:
    sc = _glitch_then_overflow(path, press_at)
    res = board.run(sc)
    assert res["lost"] > 0, "the scenario must overflow the ring"
    presses = [e[3] for e in res["events"] if e[0] == 0 and e[1] == 0 and e[2] == 1]
    if press_at is None:
        assert presses == [], ("a glitch's end lost in the overflow made a press of it", presses)
    else:
        assert len(presses) <= 1 and all(t >= press_at for t in presses), (
            "a press after a glitch, both in the overflow, took the glitch's stamp",
            presses,
        )
    check(sc, res)


def test_interrupt_path_lockout_end_under_bounce_is_not_early(board: Board) -> None:
    # Seat GP2: a press, its release at 60 ms (lockout to 90 ms), then a contact chattering every
    # 21 us from 80 ms that ends closed at 95 ms: by the rules, a press stamped when the line last
    # changed before 90 ms (89 996 us here), or at the first edge after it. The board used to
    # decide the lockout's end from its last read before it (89 970 us): an edge just before the
    # end is read only after it, so the press took the older read's stamp, 26 us early. Found by
    # this file's property with seed 1 and 600 examples.
    edges = [[10_000, 2, 0], [60_000, 2, 1]]
    edges += [[80_000 + 21 * k, 2, k & 1] for k in range(715)]
    edges += [[80_000 + 21 * 715, 2, 0], [80_000 + 21 * 715 + 60_000, 2, 1]]
    end = edges[-1][0] + 300_000
    steps = [s for s in range(STEP_US, end, STEP_US) if not 79_000 < s < 100_000]
    sc = {
        "path": "irq",
        "seats": [2],
        "edges": edges,
        "steps": steps,
        "end": end,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }
    res = board.run(sc)
    assert res["lost"] == 0
    presses = [e[3] for e in res["events"] if e[0] == 0 and e[2] == 1]
    assert len(presses) == 2 and presses[1] >= 89_996, ("a press stamped before its first edge", presses)
    check(sc, res)


def test_interrupt_path_pulse_behind_a_pending_handler_within_resolution(board: Board) -> None:
    # Seat GP4 goes and comes back (55 000-55 001 us) while GP2's handler reads, and closes again
    # (55 061 us) before its own handler runs, after GP2's and GP3's: its press used to be stamped
    # by its own handler, 110 us after its first edge (a strict xfail until the handlers read the
    # bank's latched edges, IO_BANK0 INTR). Found by this file's property with seed 3 and 600
    # examples.
    edges = [[55_000, 2, 0], [55_000, 3, 0], [55_000, 4, 0], [55_001, 4, 1], [55_061, 4, 0]]
    edges += [[120_000 + 100 * k, 2 + k, 1] for k in range(3)]
    end = 400_000
    sc = {
        "path": "irq",
        "seats": [2, 3, 4],
        "edges": edges,
        "steps": list(range(STEP_US, end, STEP_US)),
        "end": end,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }
    res = board.run(sc)
    assert res["lost"] == 0
    check(sc, res)


def test_interrupt_path_contact_reopened_inside_another_pin_s_handler_is_ordered_within_the_bound(
    board: Board,
) -> None:
    # Issue 34, case 5. Seat GP2's handler starts 10 us after its edge (55 010 us) and reads
    # INTR halfword 0 (GP0-3) by 55 016 us. GP3 closes at 55 017 us, just after that read, and
    # bounces open at 55 020 us, before the level read (55 038 us): this read sees nothing of
    # it. GP4 closes at 55 023 us, after its own halfword's read but before the level read: it
    # is stamped by this read (55 042 us). GP3 closes for good at 55 100 us; its latched edges
    # bring its own handler after GP2's run ends (55 120 us) and an entry: stamped 55 162 us,
    # 145 us after its first edge and 120 us after GP4's stamp though it came 6 us before.
    # The 120 us once stated ignored the handler's own reads: this pair was out of order by it.
    edges = [[55_000, 2, 0], [55_017, 3, 0], [55_020, 3, 1], [55_023, 4, 0], [55_100, 3, 0]]
    edges += [[120_000 + 100 * k, 2 + k, 1] for k in range(3)]
    end = 400_000
    sc = {
        "path": "irq",
        "seats": [2, 3, 4, 14],  # GP14 (never pressed): four INTR halfwords, as the shipped map
        "edges": edges,
        "steps": list(range(STEP_US, end, STEP_US)),
        "end": end,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }
    res = board.run(sc)
    assert res["lost"] == 0
    presses = {e[1]: e[3] for e in res["events"] if e[0] == 0 and e[2] == DEB.PRESS}
    assert presses == {0: 55_042, 1: 55_162, 2: 55_042}, presses
    assert presses[1] - presses[2] == 120 and presses[1] - 55_017 == ENTRY_US + HANDLER_US + WINDOW_US - 1
    check(sc, res)


def _across(pulse_at: int, path: str = "irq") -> dict[str, Any]:
    # Seat GP2: a press, its release at 80 ms (lockout to 110 ms), then a pulse of 1 us at
    # ``pulse_at`` and the press that stays 0.5 ms later.
    edges = [[50_000, 2, 0], [80_000, 2, 1], [pulse_at, 2, 0], [pulse_at + 1, 2, 1], [110_500, 2, 0]]
    edges.append([200_000, 2, 1])
    return {
        "path": path,
        "seats": [2],
        "edges": edges,
        "steps": list(range(STEP_US, 400_000, STEP_US)),
        "end": 400_000,
        "handler_us": HANDLER_US,
        "entry_us": ENTRY_US,
        "reads": READS,
    }


@pytest.mark.parametrize("path", ["irq", "pio"])
@pytest.mark.parametrize("pulse_at", [109_990, 110_005])
def test_interrupt_path_chatter_across_a_lockout_end_within_resolution(
    board: Board, pulse_at: int, path: str
) -> None:
    # The interrupt path reads either pulse once, a few us after the lockout's end, so it cannot
    # tell them apart. The rules used to make the pulse 10 us before the end bounce (the press at
    # 110 500 us) and the one 5 us after it the press's first edge (at 110 005 us, the line then
    # back at rest for 0.5 ms, under the glitch minimum): the board took the later, 505 us late
    # (a strict xfail until then). Now a line that moved less than the glitch minimum before the
    # end opens its candidate at the end itself: 110 000 us and 110 005 us, within resolution.
    sc = _across(pulse_at, path)
    res = board.run(sc)
    want = [o for kind, o in transitions(sc)[0] if kind == DEB.PRESS]
    assert want == [50_000, max(pulse_at, 110_000)]
    got = [e[3] for e in res["events"] if e[0] == 0 and e[2] == DEB.PRESS]
    assert len(got) == 2 and want[1] <= got[1] <= want[1] + res["resolution_us"], (got, want)
    check(sc, res)


# -- the rules themselves, decided on stamps that lag (issue 19) --------------------------------

US = 1_000  # the host's debouncer counts in ns


def _host_transitions(edges: list[tuple[int, bool]], end: int) -> list[tuple[str, int]]:
    d = Debouncer(DebounceSettings(LOCKOUT_US * US, GLITCH_US * US, None), t_ns=1_000 * US)
    out = []
    for t, active in edges:
        out += d.edge(t * US, active)
    out += d.poll(end * US)
    return [(x.edge, x.t_ns // US) for x in out if isinstance(x, Transition)]


@pytest.mark.parametrize(
    ("pulse_at", "press_at"), [(109_990, 110_000), (110_005, 110_005), (108_600, 110_000)]
)
def test_a_pulse_either_side_of_a_lockout_end_gives_one_stamp(pulse_at: int, press_at: int) -> None:
    # The rules on true times, host side: a 1 us pulse just before the end (lockout to 110 ms)
    # and one just after it, each with the press 0.5 ms later, used to be pressed at 110 500 us
    # and at the pulse; a capture lagging by a few us cannot tell them apart. Now the first is
    # pressed at the end itself (the line changed less than the glitch minimum before it), as is
    # a pulse 1.4 ms before it (back at rest 1.9 ms when the press comes: bounce).
    edges = [(50_000, True), (80_000, False), (pulse_at, True), (pulse_at + 1, False), (110_500, True)]
    got = _host_transitions(edges, 300_000)
    assert got == [("press", 50_000), ("release", 80_000), ("press", press_at)]


def test_a_line_still_since_before_a_lockout_end_keeps_its_stamp() -> None:
    # Released 2.5 ms before the end and still since: the release keeps its own stamp (a quick
    # tap); pressed again 3 ms after the end: its own stamp, the line idle at the end.
    edges = [(50_000, True), (77_500, False), (113_000, True)]
    got = _host_transitions(edges, 300_000)
    assert got == [("press", 50_000), ("release", 77_500), ("press", 113_000)]


def test_a_line_moving_at_a_lockout_end_is_stamped_at_the_end() -> None:
    # Released 0.5 ms before the end of the press's lockout (80 ms): the release is the end's.
    edges = [(50_000, True), (79_500, False)]
    assert _host_transitions(edges, 300_000) == [("press", 50_000), ("release", 80_000)]


def test_an_edge_handed_over_after_an_idle_end_just_before_it_opens_at_the_end() -> None:
    # The end (82 ms) decided idle by a poll, then a busy thread hands over a press stamped 0.2 ms
    # before it: by rule 4 the line was moving at the end, so the press is the end's, not earlier.
    d = Debouncer(DebounceSettings(LOCKOUT_US * US, GLITCH_US * US, None))
    d.edge(50_000 * US, True)
    d.edge(52_000 * US, False)  # released inside the lockout, still since: a release at 52 ms
    d.poll(130_000 * US)  # ... and its own lockout (82 ms) ended idle
    d.edge(81_800 * US, True)  # late: 0.2 ms before that end
    out = d.poll(300_000 * US)
    assert [(x.edge, x.t_ns // US) for x in out if isinstance(x, Transition)] == [("press", 82_000)]
    assert d.late == 1


def test_a_lockout_ending_after_a_loss_is_not_taken_as_moving() -> None:
    # Edges lost from 70 to 89.5 ms, the release's lockout ending at 90 ms with the line at rest:
    # when it last changed is unknown, so the end opens no candidate and a press 1 ms after it
    # keeps its own stamp (opening one at the end would be 1 ms early if the line was still).
    d = Debouncer(DebounceSettings(LOCKOUT_US * US, GLITCH_US * US, None))
    d.edge(20_000 * US, True)
    d.edge(60_000 * US, False)
    d.poll(65_000 * US)  # released at 60 ms, locked out to 90 ms
    d.blind(70_000 * US, 89_500 * US)
    out = d.edge(91_000 * US, True) + d.poll(300_000 * US)
    assert [(x.edge, x.t_ns // US) for x in out if isinstance(x, Transition)] == [("press", 91_000)]


LAG = ENTRY_US + HANDLER_US + WINDOW_US  # the interrupt path's stated resolution
LAGS = st.one_of(st.just(0), st.just(LAG), st.integers(0, LAG))  # the extremes, often


@settings(max_examples=max(50, int(300 * SCALE)), deadline=None, derandomize=True)
@given(sc=scenarios("irq"), data=st.data())
def test_the_rules_decide_on_lagging_stamps_within_the_lag(sc: dict[str, Any], data: st.DataObject) -> None:
    # What the board's property needs of the rules alone, run here by the host's debouncer: every
    # edge stamped up to LAG late (in order, a pulse read at once as two edges at one stamp), the
    # transitions are the same and each is stamped in [its stamp on true times, that + LAG].
    for gpio in sc["seats"]:
        true = [(t, lv == 0) for t, g, lv in sc["edges"] if g == gpio]
        lags = data.draw(st.lists(LAGS, min_size=len(true), max_size=len(true)))
        lagged, last = [], 0
        for (t, active), lag in zip(true, lags, strict=True):
            last = max(last, t + lag)
            lagged.append((last, active))
        want = _host_transitions(true, sc["end"])
        got = _host_transitions(lagged, sc["end"])
        assert [k for k, _ in got] == [k for k, _ in want], (gpio, got, want)
        for (kind, o), (_, s) in zip(want, got, strict=True):
            assert o <= s <= o + LAG, (gpio, kind, s, o)


def test_the_stated_resolution_is_the_bound_these_tests_model() -> None:
    # A read stamps an edge at most an entry, one handler run and the time from its pin's INTR
    # read to the clock read after it (issue 34, case 5): an edge just after that read, gone
    # before the level read, is seen by the next handler. The board states that bound in hello;
    # these tests check every stamp against what it states.
    import re

    src = (FIRMWARE / "irqcapture.py").read_text()
    m = re.search(r"^RESOLUTION_US = const\((\d+)\)", src, re.M)
    assert m is not None
    assert int(m[1]) == ENTRY_US + HANDLER_US + WINDOW_US
