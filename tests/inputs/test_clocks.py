"""Converting stamps of different clocks onto one, and reporting the coarser resolution."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.inputs.base import Clock, InputEvent
from companion.inputs.clocks import ClockMerger, Offset, measure_offset

MONO = Clock("CLOCK_MONOTONIC", 1_000)
PICO = Clock("pico:E6614103E7452D2F", 1_000)
KEYS = Clock("CLOCK_MONOTONIC", 20_000_000)


def ticking(start: int, step: int) -> itertools.count[int]:
    return itertools.count(start, step)


@given(
    common_start=st.integers(0, 10**15),
    delta=st.integers(-(10**12), 10**12),
    step=st.integers(1, 50_000),
)
def test_measured_offset_brackets_the_truth(common_start: int, delta: int, step: int) -> None:
    # One underlying time that advances with every read; the source clock is that time - delta.
    now = ticking(common_start, step)
    o = measure_offset(lambda: next(now) - delta, lambda: next(now), samples=4)
    assert abs(o.offset_ns - delta) <= o.uncertainty_ns <= step


def test_offset_picks_the_tightest_bracket() -> None:
    readings = iter([100, 10_100, 1_000, 1_010])  # (before, after) pairs, source in between
    source = iter([5_000, 505])

    o = measure_offset(lambda: next(source), lambda: next(readings), samples=2)
    assert o == Offset(1_005 - 505, 5)


def test_backwards_common_clock_is_refused() -> None:
    r = iter([10, 5])
    with pytest.raises(ValueError):
        measure_offset(lambda: 0, lambda: next(r), samples=1)
    with pytest.raises(ValueError):
        measure_offset(lambda: 0, lambda: 0, samples=0)


def test_convert_and_coarser_resolution() -> None:
    m = ClockMerger(MONO)
    m.add(PICO, Offset(1_000_000, 3_000))
    m.add(KEYS)
    assert m.clock == Clock("CLOCK_MONOTONIC", 20_000_000)
    ev = InputEvent("seat", 2, "press", 42_000, PICO, "serial")
    out = m.convert(ev)
    # The event keeps its own source's resolution (the offset's uncertainty counted in).
    assert (out.t_ns, out.clock, out.seat, out.source) == (
        1_042_000,
        Clock("CLOCK_MONOTONIC", max(PICO.resolution_ns, 3_000)),
        2,
        "serial",
    )


def test_offset_uncertainty_counts_as_resolution() -> None:
    m = ClockMerger(MONO)
    m.add(PICO, Offset(0, 250_000))
    assert m.clock.resolution_ns == 250_000


def test_unknown_clock_is_an_error() -> None:
    m = ClockMerger(MONO)
    with pytest.raises(ValueError):
        m.convert(InputEvent("seat", 0, "press", 1, PICO, "serial"))
    with pytest.raises(ValueError):
        m.add(PICO)
    assert m.knows(MONO) and not m.knows(PICO)


def test_order_across_clocks_is_by_converted_stamp() -> None:
    m = ClockMerger(MONO)
    m.add(PICO, Offset(-500, 0))
    a = m.convert(InputEvent("seat", 0, "press", 10_000, MONO, "gpio"))
    b = m.convert(InputEvent("seat", 1, "press", 10_400, PICO, "serial"))
    assert sorted([a, b], key=lambda e: e.t_ns) == [b, a]


def test_two_boots_of_one_board_convert_each_with_its_own_offset() -> None:
    """A clock is its name and its epoch (issue 20): the board's uid stays across its reboots,
    and a late press of the old boot must not take the new boot's offset."""
    merger = ClockMerger(MONO)
    old = Clock(PICO.name, 1_000, "pico-boot:00000001")
    new = Clock(PICO.name, 1_000, "pico-boot:00000002")
    merger.update(old, Offset(3_575 * 10**9, 500_000))
    merger.update(new, Offset(7_000 * 10**9, 500_000))
    late = InputEvent("seat", 1, "press", 3_600 * 10**9, old, "serial")
    assert merger.convert(late).t_ns == 3_600 * 10**9 + 3_575 * 10**9
    assert merger.to_common(new, 25 * 10**9) == 25 * 10**9 + 7_000 * 10**9
    # A third boot, not measured yet, is not converted with either.
    assert not merger.converts(Clock(PICO.name, 1_000, "pico-boot:00000003"))
