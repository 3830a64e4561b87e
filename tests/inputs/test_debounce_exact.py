"""Exact values of the debounce's outputs and counters, each pinned because a mutant of
companion/inputs/debounce.py changed it and every other test still passed (bench/mutation.py
debounce; the mutant each test kills is named in its docstring, see docs/mutants.md)."""

from __future__ import annotations

import pytest

from companion.inputs.debounce import (
    Debouncer,
    DebounceSettings,
    Decision,
    Stuck,
    StuckGuard,
    Transition,
    Unstuck,
)

MS = 1_000_000
T0 = 5_000_000_000_000


def transitions(decisions: list[Decision]) -> list[tuple[str, int]]:
    return [(x.edge, x.t_ns) for x in decisions if isinstance(x, Transition)]


def test_without_a_glitch_minimum_a_press_is_decided_at_its_own_edge() -> None:
    """A clock that starts at 0 (the default) decides a press at 0, within the edge call that
    brought it (``__init__`` mutant 2: a start at 1; ``edge`` mutant 39: the second advance
    loses its output)."""
    d = Debouncer(DebounceSettings(glitch_ns=0))
    assert d.edge(0, True) == [Transition("press", 0, 0)]
    assert d.pressed and d.presses == 1


def test_a_new_debouncer_reports_the_level_it_was_given() -> None:
    """``raw`` is a bool from the start (``__init__`` mutant 7: None)."""
    assert Debouncer().raw is False
    assert Debouncer(active=True, t_ns=T0).raw is True
    assert Debouncer().stuck is False and Debouncer().pressed is False


def test_an_edge_stamped_before_the_debouncer_started_keeps_its_stamp() -> None:
    """The line was idle: rule 6, the edge opens its candidate at its own stamp (``__init__``
    mutant 13: the last glitch starts as "" and is read as one)."""
    d = Debouncer(t_ns=T0)
    assert d.edge(T0 - MS, True) == []
    out = d.poll(T0 + 100 * MS)
    assert out[0] == Transition("press", T0 - MS, T0 + MS)
    assert d.late == 0


def test_edges_with_the_same_stamp_are_not_late() -> None:
    """A coarse clock stamps a bounce's edges alike; none is older than the last (``edge``
    mutant 6: ``<`` becomes ``<=``)."""
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0, False)
    d.edge(T0, True)
    assert d.late == 0 and d.bounces == 2
    assert transitions(d.poll(T0 + 100 * MS)) == [("press", T0)]


def test_each_late_edge_is_counted() -> None:
    """(``edge`` mutant 18: ``late = 1``.)"""
    d = Debouncer()
    d.edge(T0, True)
    d.edge(T0 + MS, False)
    d.edge(T0 + MS - 5, True)
    d.edge(T0 + MS - 3, False)
    assert d.late == 2


def test_counters_add_up_over_several_presses_and_glitches() -> None:
    """(``_decide`` mutants 9 and 20: ``glitches = 1``, ``presses = 1``.)"""
    d = Debouncer()
    t = T0
    for _ in range(3):
        d.edge(t, True)
        d.edge(t + MS // 2, False)  # a glitch
        d.poll(t + 10 * MS)
        d.edge(t + 20 * MS, True)  # a press
        d.poll(t + 60 * MS)
        d.edge(t + 100 * MS, False)
        d.poll(t + 200 * MS)
        t += 300 * MS
    assert (d.presses, d.glitches) == (3, 3)


def test_a_late_edge_after_a_stuck_report_opens_its_own_candidate() -> None:
    """Idle, an edge older than the last decision (the stuck report) is taken at its own stamp
    (``edge`` mutant 22: the last glitch becomes "" after each edge and is read as one)."""
    d = Debouncer(DebounceSettings(stuck_ns=40 * MS))
    d.edge(T0, True)
    assert d.poll(T0 + 50 * MS) == [Transition("press", T0, T0 + 2 * MS), Stuck(T0, T0 + 40 * MS)]
    # Handed over late by a busy thread: after the lockout, before the stuck report.
    assert d.edge(T0 + 35 * MS, False) == []
    assert d.late == 0
    out = d.poll(T0 + 100 * MS)
    assert out == [Transition("release", T0 + 35 * MS, T0 + 40 * MS), Unstuck(T0 + 35 * MS)]


def test_a_release_undecided_when_the_stuck_limit_comes_is_decided_after_it() -> None:
    """The stuck limit falls inside a release's candidate: the release may still be a glitch, so
    the button is reported stuck first, then released (``_decide`` mutant 5: the candidate
    decided glitch_ns early; mutant 43: ``stuck`` None after the release)."""
    d = Debouncer(DebounceSettings(stuck_ns=40 * MS))
    d.edge(T0, True)
    d.poll(T0 + 35 * MS)
    d.edge(T0 + 39 * MS, False)
    out = d.poll(T0 + 100 * MS)
    assert out == [
        Stuck(T0, T0 + 40 * MS),
        Transition("release", T0 + 39 * MS, T0 + 41 * MS),
        Unstuck(T0 + 39 * MS),
    ]
    assert d.stuck is False


def test_the_edge_a_lockout_end_turns_into_a_candidate_is_no_bounce() -> None:
    """Rule 4: released inside the press's lockout, the release edge is bounce until the lockout
    ends, then the release's first edge (``_decide`` mutants 56, 57, 58 on ``bounces -= 1``)."""
    d = Debouncer()
    out = d.edge(T0, True)
    out += d.edge(T0 + 10 * MS, False)
    assert d.bounces == 1
    out += d.poll(T0 + 100 * MS)
    assert transitions(out) == [("press", T0), ("release", T0 + 10 * MS)]
    assert d.bounces == 0


def test_a_released_button_is_not_held_when_a_window_opens() -> None:
    """(``StuckGuard.observe`` mutant 6: the release forgets another key.)"""
    g = StuckGuard()
    g.observe("a", "press", 1)
    g.observe("a", "release", 2)
    assert g.window_opened() == []
    assert not g.is_stuck("a")


def test_a_release_never_seen_pressed_is_no_error() -> None:
    """A source started with the button down sends a release first (``StuckGuard.observe``
    mutant 8: ``pop(key)`` without a default raises)."""
    g = StuckGuard()
    assert g.observe("a", "release", 1) is False
    assert g.window_opened() == []


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"glitch_ns": -1}, "debounce times must be >= 0"),
        ({"lockout_ns": -1, "glitch_ns": -1}, "debounce times must be >= 0"),
        ({"glitch_ns": 0, "lockout_ns": -1}, "debounce times must be >= 0"),
        ({"glitch_ns": 31 * MS, "lockout_ns": 30 * MS}, "glitch minimum must not exceed the lockout"),
        ({"lockout_ns": 30 * MS, "stuck_ns": 30 * MS}, "stuck limit must be longer than the lockout"),
    ],
)
def test_settings_refused_say_which_rule_they_break(kwargs: dict[str, int], words: str) -> None:
    """(``__post_init__`` mutants on the messages, and on ``stuck_ns <= lockout_ns``.)"""
    with pytest.raises(ValueError, match=f"^{words}$"):
        DebounceSettings(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"glitch_ns": 0, "lockout_ns": 0, "stuck_ns": 1},  # every limit at its least
        {"glitch_ns": 30 * MS, "lockout_ns": 30 * MS},  # a glitch minimum as long as the lockout
        {"lockout_ns": 30 * MS, "stuck_ns": 30 * MS + 1},
    ],
)
def test_settings_at_their_bounds_are_accepted(kwargs: dict[str, int]) -> None:
    """(``__post_init__`` mutants 3 to 5 and 9: ``< 0`` made ``< 1`` or ``<= 0``, ``>`` made ``>=``.)"""
    s = DebounceSettings(**kwargs)  # type: ignore[arg-type]
    assert (s.glitch_ns, s.lockout_ns) == (kwargs.get("glitch_ns", 2 * MS), kwargs["lockout_ns"])


# --- rule 4: a lockout's end (mutant numbers from here on: the run of 262 mutants) ---------

NO_STUCK = DebounceSettings(stuck_ns=None)  # next_deadline then names only the debounce's own


def pressed_then(
    release_at: int, settings: DebounceSettings | None = None
) -> tuple[Debouncer, list[Decision]]:
    """A press at T0 (locked out until T0 + 30 ms), a release edge ``release_at`` after T0,
    polled long after."""
    d = Debouncer(settings)
    out = d.edge(T0, True)
    out += d.poll(T0 + 5 * MS)
    out += d.edge(T0 + release_at, False)
    out += d.poll(T0 + 100 * MS)
    return d, out


def test_a_release_moving_at_the_lockout_end_is_stamped_at_the_end() -> None:
    """The line changed 1 ms before the end (less than the glitch minimum): the release is
    stamped at the end itself and decided a glitch minimum after its edge (``_decide`` mutant 67:
    ``c - glitch_ns > end``)."""
    d, out = pressed_then(29 * MS)
    assert out[1:] == [Transition("release", T0 + 30 * MS, T0 + 31 * MS)]
    assert d.bounces == 1


def test_a_release_a_glitch_minimum_before_the_end_keeps_its_stamp() -> None:
    """Exactly a glitch minimum before the end the line has been still long enough: stamped at
    its own edge, decided at the end, and the edge is no longer bounce (``_decide`` mutant 68:
    ``>=``)."""
    d, out = pressed_then(28 * MS)
    assert out[1:] == [Transition("release", T0 + 28 * MS, T0 + 30 * MS)]
    assert d.bounces == 0
    d, out = pressed_then(28 * MS + 1)
    assert out[1:] == [Transition("release", T0 + 30 * MS, T0 + 30 * MS + 1)]


def test_a_line_back_at_rest_just_before_the_end_opens_a_candidate_that_is_dropped() -> None:
    """Moving at the end but back at the debounced level: the candidate opens at the end and is
    a glitch, no release."""
    d = Debouncer()
    out = d.edge(T0, True)
    out += d.edge(T0 + 28 * MS + MS // 2, False)
    out += d.edge(T0 + 29 * MS, True)
    assert d.next_deadline() == T0 + 30 * MS
    out += d.poll(T0 + 30 * MS)
    assert d.next_deadline() == T0 + 31 * MS
    out += d.poll(T0 + 100 * MS)
    assert transitions(out) == [("press", T0)] and d.pressed
    assert (d.glitches, d.bounces) == (1, 2)


def test_a_line_still_at_rest_at_the_end_opens_no_candidate() -> None:
    d = Debouncer(NO_STUCK)
    d.edge(T0, True)
    d.edge(T0 + 10 * MS, False)
    d.edge(T0 + 11 * MS, True)
    assert d.poll(T0 + 30 * MS)[1:] == []
    assert d.next_deadline() is None
    assert d.glitches == 0 and d.bounces == 2


def test_a_lockout_ending_in_the_dark_before_the_loss_ends_is_stamped_at_its_end() -> None:
    """Edges were lost up to T0 + 20 ms, before the end at T0 + 30 ms: the release is stamped at
    the end (the later of the two), decided there, and its edge is no bounce (``_decide``
    mutants 59 to 61 on ``bounces -= 1``; ``max`` made ``min`` applied by hand)."""
    d = Debouncer()
    out = d.edge(T0, True)
    out += d.edge(T0 + 10 * MS, False)
    d.blind(T0 + 12 * MS, T0 + 20 * MS)
    out += d.poll(T0 + 100 * MS)
    assert out[1:] == [Transition("release", T0 + 30 * MS, T0 + 30 * MS)]
    assert d.bounces == 0


def test_a_lockout_ending_in_the_dark_at_rest_opens_no_candidate() -> None:
    d = Debouncer(NO_STUCK)
    out = d.edge(T0, True)
    out += d.edge(T0 + 10 * MS, False)
    out += d.edge(T0 + 11 * MS, True)
    d.blind(T0 + 12 * MS, T0 + 29 * MS)
    out += d.poll(T0 + 30 * MS)
    assert d.next_deadline() is None
    out += d.poll(T0 + 100 * MS)
    assert out[1:] == [] and d.bounces == 2 and d.glitches == 0


def test_an_edge_after_a_loss_makes_the_line_seen_again() -> None:
    """After a loss, an edge tells when the line last changed: a lockout's end then stamps a
    release moving at it at the end, one still since at its edge."""
    d = Debouncer()
    d.edge(T0, True)
    d.blind(T0 + 5 * MS, T0 + 6 * MS)
    d.edge(T0 + 10 * MS, False)
    out = d.poll(T0 + 100 * MS)
    assert out == [Transition("release", T0 + 10 * MS, T0 + 30 * MS)]


@pytest.mark.parametrize(
    ("late_at", "stamp", "late"),
    [
        (29 * MS + MS // 2, 30 * MS, 1),  # inside the glitch minimum before the end: at the end
        (28 * MS + 1, 30 * MS, 1),
        (28 * MS, 28 * MS, 0),  # a glitch minimum before: its own stamp
        (30 * MS, 30 * MS, 0),  # at the end itself: its own stamp, not late
        (31 * MS, 31 * MS, 0),  # after the end: its own stamp
    ],
)
def test_a_late_edge_just_before_an_ended_lockout_is_taken_at_its_end(
    late_at: int, stamp: int, late: int
) -> None:
    """Rule 4 for an edge handed over after the lockout's end was decided (and after a stuck
    report, the last decision): within the glitch minimum before the end it opens its candidate
    at the end, counted late; otherwise at its own stamp (``edge`` mutants 29 to 31, 33 to 35;
    ``_decide`` mutant 56: the end never recorded)."""
    d = Debouncer(DebounceSettings(stuck_ns=40 * MS))
    d.edge(T0, True)
    assert d.poll(T0 + 45 * MS) == [Transition("press", T0, T0 + 2 * MS), Stuck(T0, T0 + 40 * MS)]
    assert d.edge(T0 + late_at, False) == []
    assert d.late == late
    out = d.poll(T0 + 100 * MS)
    assert out == [
        Transition("release", T0 + stamp, T0 + 40 * MS + max(0, late_at + 2 * MS - 40 * MS)),
        Unstuck(T0 + stamp),
    ]


def test_late_edges_before_ended_lockouts_each_count() -> None:
    """A late edge inside a candidate, then one just before the lockout's end: two late edges
    (``edge`` mutant 32: ``late = 1``)."""
    d = Debouncer(DebounceSettings(stuck_ns=40 * MS))
    d.edge(T0, True)
    d.edge(T0 + MS // 2, False)
    d.edge(T0 + MS // 4, True)  # late, inside the candidate: taken at T0 + 0.5 ms
    assert d.late == 1
    d.edge(T0 + MS, True)
    d.poll(T0 + 45 * MS)  # pressed at T0, lockout to T0 + 30 ms, stuck at T0 + 40 ms
    d.edge(T0 + 29 * MS + MS // 2, False)
    assert d.late == 2


def test_a_bounce_longer_than_the_lockout_is_one_press_and_no_glitch() -> None:
    """A contact chattering every millisecond for 30 ms: the press is decided 2 ms after its last
    edge, past its own lockout's end, so no lockout is left to end and nothing is dropped after
    the press: the only glitch is the later touch that falls back at once (``_decide`` mutant
    18: the lockout kept, and its end, already past, reopens a candidate that is dropped)."""
    d = Debouncer(NO_STUCK)
    out: list[Decision] = []
    for k in range(31):  # T0 to T0 + 30 ms, ending closed
        out += d.edge(T0 + k * MS, k % 2 == 0)
    out += d.poll(T0 + 40 * MS)
    assert out == [Transition("press", T0, T0 + 32 * MS)]
    assert d.next_deadline() is None
    assert (d.bounces, d.glitches) == (30, 0)
    d.edge(T0 + 50 * MS, True)  # a repeated level: a touch that ends where it began
    d.poll(T0 + 60 * MS)
    assert d.glitches == 1 and d.pressed


def test_an_edge_at_the_instant_a_glitch_was_dropped_keeps_decisions_after_what_was_seen() -> None:
    """Pressed, a 0.5 ms release glitch dropped at T0 + 34.5 ms, the stuck report at T0 + 40 ms;
    a busy thread then hands over a release stamped at the drop itself. It opens its own
    candidate (the glitch stays dropped) and is decided no earlier than the stuck report, the
    last thing seen: reviving the glitch at its drop would take what was seen back to it
    (``edge`` mutant 10: ``t_ns <= dropped``)."""
    d = Debouncer(DebounceSettings(stuck_ns=40 * MS))
    d.edge(T0, True)
    d.poll(T0 + 31 * MS)
    d.edge(T0 + 32 * MS, False)
    d.edge(T0 + 32 * MS + MS // 2, True)
    assert d.poll(T0 + 45 * MS) == [Stuck(T0, T0 + 40 * MS)]
    assert d.glitches == 1
    assert d.edge(T0 + 34 * MS + MS // 2, False) == []
    out = d.poll(T0 + 100 * MS)
    assert out == [
        Transition("release", T0 + 34 * MS + MS // 2, T0 + 40 * MS),
        Unstuck(T0 + 34 * MS + MS // 2),
    ]
    assert (d.glitches, d.late) == (1, 0)
