"""Debounce rules shared with the Pico firmware: one press per press, stamped at its first edge."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.inputs.debounce import (
    Debouncer,
    DebounceSettings,
    Decision,
    Stuck,
    StuckGuard,
    Transition,
    Unstuck,
)

US = 1_000
MS = 1_000_000
# COMPANION_PROPERTY_SCALE=0.1 (bench/mutation.py) runs a tenth of the examples, 20 at least.
SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))
T0 = 5_000_000_000_000  # an uptime of well over an hour, as on a real Pi


def run(edges: list[tuple[int, bool]], until: int, d: Debouncer | None = None) -> list[Decision]:
    d = d if d is not None else Debouncer()
    out: list[Decision] = []
    for t, level in edges:
        out += d.edge(t, level)
    out += d.poll(until)
    return out


def transitions(decisions: list[Decision]) -> list[tuple[str, int]]:
    return [(x.edge, x.t_ns) for x in decisions if isinstance(x, Transition)]


def bounce_train(start: int, offsets: list[int], first: bool) -> list[tuple[int, bool]]:
    """Edges alternating from ``first`` at ``start`` then at each offset (ns after start)."""
    edges = [(start, first)]
    level = first
    for off in sorted(offsets):
        level = not level
        edges.append((start + off, level))
    return edges


def test_clean_press_and_release() -> None:
    out = run([(T0, True), (T0 + 80 * MS, False)], T0 + 200 * MS)
    assert transitions(out) == [("press", T0), ("release", T0 + 80 * MS)]


def test_press_is_decided_after_the_glitch_minimum_not_before() -> None:
    d = Debouncer()
    assert d.edge(T0, True) == []
    assert d.poll(T0 + 2 * MS - 1) == []
    assert transitions(d.poll(T0 + 2 * MS)) == [("press", T0)]
    assert d.pressed


def gaps_to_offsets(gaps: list[int]) -> list[int]:
    out, t = [], 0
    for g in gaps:
        t += g
        out.append(t)
    return out


# Contact bounce: edges microseconds to a fraction of a millisecond apart, each run shorter than
# the glitch minimum (a level that lasts that long is a decision, see rule 2).
BOUNCE_GAP = st.integers(1, 2 * MS - 1)


@settings(max_examples=max(20, int(300 * SCALE)), deadline=None)
@given(
    pairs=st.integers(min_value=0, max_value=10),
    data=st.data(),
)
def test_bouncy_press_gives_one_press_at_first_edge(pairs: int, data: st.DataObject) -> None:
    # 2*pairs bounce edges after the first one, each run shorter than the glitch minimum.
    gaps = st.lists(BOUNCE_GAP, min_size=2 * pairs, max_size=2 * pairs)
    offsets = gaps_to_offsets(data.draw(gaps))
    release_offsets = gaps_to_offsets(data.draw(gaps))
    d = Debouncer()
    edges = bounce_train(T0, offsets, True) + bounce_train(T0 + 100 * MS, release_offsets, False)
    out = run(edges, T0 + 300 * MS, d)
    assert transitions(out) == [("press", T0), ("release", T0 + 100 * MS)]
    assert d.bounces == 4 * pairs
    assert d.glitches == 0


@settings(max_examples=max(20, int(200 * SCALE)), deadline=None)
@given(
    offsets=st.lists(st.integers(1, 2 * MS - 1), min_size=1, max_size=19, unique=True).filter(
        lambda xs: len(xs) % 2 == 1
    )
)
def test_pulse_shorter_than_minimum_is_no_press(offsets: list[int]) -> None:
    d = Debouncer()
    out = run(bounce_train(T0, offsets, True), T0 + 100 * MS, d)
    assert transitions(out) == []
    assert d.glitches == 1
    assert not d.pressed


def test_pulse_closer_than_the_glitch_minimum_merges_with_the_press() -> None:
    # Rest shorter than the glitch minimum cannot be told from bounce: one press, first edge.
    edges = [(T0, True), (T0 + 1 * MS, False), (T0 + 2_500_000, True)]
    assert transitions(run(edges, T0 + 50 * MS)) == [("press", T0)]


def test_pulse_then_rest_longer_than_the_glitch_minimum_is_forgotten() -> None:
    # Once the line has rested for the glitch minimum the pulse is over (issue 10, finding 1).
    edges = [(T0, True), (T0 + 1 * MS, False), (T0 + 4 * MS, True)]
    assert transitions(run(edges, T0 + 50 * MS)) == [("press", T0 + 4 * MS)]


def test_glitch_then_later_press_is_stamped_at_its_own_edge() -> None:
    edges = [(T0, True), (T0 + MS // 2, False), (T0 + 40 * MS, True)]
    d = Debouncer()
    out = run(edges, T0 + 100 * MS, d)
    assert transitions(out) == [("press", T0 + 40 * MS)]
    assert d.glitches == 1


def test_quick_tap_released_inside_lockout_is_released_when_lockout_ends() -> None:
    out = run([(T0, True), (T0 + 10 * MS, False)], T0 + 100 * MS)
    rel = [x for x in out if isinstance(x, Transition) and x.edge == "release"]
    assert [(x.t_ns, x.decided_ns) for x in rel] == [(T0 + 10 * MS, T0 + 30 * MS)]


def test_release_bounce_makes_no_second_press() -> None:
    edges = [(T0, True), *bounce_train(T0 + 60 * MS, [10000, 20000, 30000, 1_500_000], False)]
    out = run(edges, T0 + 500 * MS)
    assert transitions(out) == [("press", T0), ("release", T0 + 60 * MS)]


def test_two_buttons_one_microsecond_apart_keep_their_order() -> None:
    a, b = Debouncer(), Debouncer()
    out_b = run([(T0 + 1000, True)], T0 + 10 * MS, b)
    out_a = run([(T0, True)], T0 + 10 * MS, a)
    (pa,) = transitions(out_a)
    (pb,) = transitions(out_b)
    assert pb[1] - pa[1] == 1000


def test_edges_delivered_late_inside_a_candidate_are_counted_late() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS, False)
    d.edge(T0 + MS - 5, True)  # arrived out of order inside the candidate: taken at T0 + 1 ms
    assert transitions(d.poll(T0 + 50 * MS)) == [("press", T0)]
    assert d.late == 1


def test_held_past_limit_is_stuck_then_released() -> None:
    s = DebounceSettings(stuck_ns=1_000 * MS)
    d = Debouncer(s)
    out = run([(T0, True)], T0 + 2_000 * MS, d)
    assert transitions(out) == [("press", T0)]
    assert [x for x in out if isinstance(x, Stuck)] == [Stuck(T0, T0 + 1_000 * MS)]
    assert d.stuck
    out = run([(T0 + 3_000 * MS, False)], T0 + 3_100 * MS, d)
    assert transitions(out) == [("release", T0 + 3_000 * MS)]
    assert Unstuck(T0 + 3_000 * MS) in out
    assert not d.stuck
    # It counts again: a new press is a plain press.
    out = run([(T0 + 4_000 * MS, True)], T0 + 4_010 * MS, d)
    assert transitions(out) == [("press", T0 + 4_000 * MS)]


def test_held_at_start_is_stuck_until_released() -> None:
    d = Debouncer(active=True, t_ns=T0)
    assert d.stuck and d.pressed
    out = run([(T0 + 50 * MS, False)], T0 + 100 * MS, d)
    assert Unstuck(T0 + 50 * MS) in out
    assert not d.stuck


def test_next_deadline_tells_when_to_poll() -> None:
    d = Debouncer(DebounceSettings(stuck_ns=None))
    assert d.next_deadline() is None
    d.edge(T0, True)
    assert d.next_deadline() == T0 + 2 * MS
    d.poll(T0 + 2 * MS)
    assert d.next_deadline() == T0 + 30 * MS
    d.poll(T0 + 30 * MS)
    assert d.next_deadline() is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"glitch_ns": -1},
        {"glitch_ns": 40 * MS, "lockout_ns": 30 * MS},
        {"stuck_ns": 10 * MS},
    ],
)
def test_inconsistent_settings_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        DebounceSettings(**kwargs)  # type: ignore[arg-type]


def test_stuck_guard_window_and_release() -> None:
    g = StuckGuard()
    assert g.observe(0, "press", 1) is True
    assert g.window_opened() == [0]
    assert g.is_stuck(0)
    assert g.observe(1, "press", 2) is True
    assert g.observe(0, "release", 3) is False
    assert not g.is_stuck(0)
    assert g.observe(0, "press", 4) is True
    g.mark_stuck(1)
    assert g.observe(1, "press", 5) is False


# --- rule 7: edges lost (blind) ---------------------------------------------------------------


def test_a_candidate_away_from_rest_when_edges_were_lost_starts_again_after_them() -> None:
    d = Debouncer()
    assert d.edge(T0, True) == []
    d.blind(T0 + MS // 2, T0 + 10 * MS)  # the line was pressed when the kernel lost track
    assert d.next_deadline() == T0 + 12 * MS  # a new candidate, stamped at the first edge kept
    out = d.poll(T0 + 12 * MS - 1)
    assert out == []
    assert transitions(d.poll(T0 + 12 * MS)) == [("press", T0 + 10 * MS)]
    assert d.glitches == 0 and d.presses == 1


def test_a_candidate_back_at_rest_when_edges_were_lost_is_forgotten() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS // 2, False)  # back at rest before the loss
    d.blind(T0 + MS, T0 + 10 * MS)
    assert d.next_deadline() is None
    assert d.poll(T0 + 100 * MS) == [] and d.glitches == 0 and not d.pressed
    # The glitch lends nothing to the press after it.
    assert transitions(run([(T0 + 50 * MS, True)], T0 + 100 * MS, d)) == [("press", T0 + 50 * MS)]


def test_decisions_due_before_the_loss_are_made_before_it() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + 40 * MS, False)  # a release candidate, due at T0 + 42 ms
    d.blind(T0 + 45 * MS, T0 + 60 * MS)
    # The release was due before the loss: decided then (its lockout runs on), nothing reopens.
    assert not d.pressed and d.next_deadline() == T0 + 70 * MS
    assert d.poll(T0 + 200 * MS) == []


def test_a_lockout_ending_in_the_dark_opens_its_candidate_after_the_loss() -> None:
    d = Debouncer()
    run([(T0, True)], T0 + 5 * MS, d)  # pressed, locked out until T0 + 30 ms
    d.edge(T0 + 10 * MS, False)  # released inside the lockout: bounce for now
    d.blind(T0 + 20 * MS, T0 + 50 * MS)
    out = d.poll(T0 + 200 * MS)
    assert transitions(out) == [("release", T0 + 50 * MS)]  # never earlier than what was seen


def test_an_edge_after_a_loss_older_than_its_end_is_late() -> None:
    d = Debouncer()
    d.blind(T0, T0 + 10 * MS)
    d.edge(T0 + 10 * MS, True)
    d.edge(T0 + 5 * MS, False)  # older than the loss's end, inside the candidate
    assert d.late == 1
    assert transitions(d.poll(T0 + 100 * MS)) == []  # taken at T0 + 10 ms: back at rest, a glitch
    assert d.glitches == 1


def test_a_loss_forgets_the_dropped_glitch() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS // 2, False)
    d.poll(T0 + 10 * MS)  # dropped as a glitch at T0 + 2.5 ms
    assert d.glitches == 1
    d.blind(T0 + 10 * MS, T0 + 20 * MS)
    # An edge older than the drop would have revived the glitch; after the loss it cannot.
    d.edge(T0 + MS, True)
    assert d.glitches == 1


# --- rule 6: late edges -----------------------------------------------------------------------


def test_an_edge_older_than_a_dropped_glitch_revives_it_at_its_first_edge() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS // 2, False)
    d.poll(T0 + 3 * MS)  # dropped at T0 + 2.5 ms
    assert d.glitches == 1
    # A busy thread hands over an edge of T0 + 2 ms: the line was not at rest after all.
    d.edge(T0 + 2 * MS, True)
    assert d.glitches == 0
    assert transitions(d.poll(T0 + 100 * MS)) == [("press", T0)]


def test_an_edge_older_than_the_last_but_after_the_drop_opens_its_own_candidate() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS // 2, False)
    d.poll(T0 + 20 * MS)  # dropped at T0 + 2.5 ms, polled on to T0 + 20 ms
    d.edge(T0 + 10 * MS, True)  # older than the last poll, after the drop: its own stamp
    assert d.glitches == 1 and d.late == 0
    assert transitions(d.poll(T0 + 100 * MS)) == [("press", T0 + 10 * MS)]


def test_counters_of_a_bouncy_press_with_a_late_edge() -> None:
    d = Debouncer()
    out = run([(T0, True), (T0 + 100 * US, False), (T0 + 200 * US, True)], T0 + 5 * MS, d)
    assert transitions(out) == [("press", T0)]
    assert (d.bounces, d.glitches, d.presses, d.late) == (2, 0, 1, 0)
    d.edge(T0 + 10 * MS, False)
    d.edge(T0 + 9 * MS, True)  # late, inside the lockout
    assert (d.bounces, d.late) == (4, 1)
    assert d.raw is True and d.pressed


def test_an_edge_from_inside_the_loss_is_taken_at_its_end() -> None:
    d = Debouncer()
    d.edge(T0, True)
    d.blind(T0 + MS // 2, T0 + 10 * MS)  # the candidate starts again at T0 + 10 ms
    d.edge(T0 + 5 * MS, False)  # stamped inside the loss, handed over after it
    assert d.late == 1
    assert transitions(d.poll(T0 + 100 * MS)) == [] and d.glitches == 1
