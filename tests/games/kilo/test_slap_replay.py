"""The slap window's side of a long replay's shortcuts (issue 22), judged with tests/games/kilo/test_slap.py
when
bench/mutation.py mutates slap.py.

A verdict no longer builds the frozen ``SlapResult``: it checks that the window is not empty and
reads ``judge()``; the next window is ``following()`` the judged one. ``add`` records the latest
stamp inline. Each test here failed on a mutant of slap.py that tests/games/kilo/test_slap.py let through.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kilo.slap import SlapWindow

SEATS = ("Ana", "Bea", "Cy", "Dom")
EPOCHS: list[Any] = [None, ("pi", "boot-1"), ("pi", "boot-2")]


@settings(
    max_examples=max(10, int(200 * float(os.environ.get("COMPANION_PROPERTY_SCALE", "1")))), deadline=None
)
@given(
    st.lists(
        st.one_of(
            st.tuples(
                st.just("press"),
                st.sampled_from(SEATS),
                st.integers(0, 40_000),
                st.sampled_from([1, 60, 20_000]),
                st.sampled_from(EPOCHS),
            ),
            st.tuples(st.just("close"), st.integers(0, 40_000)),
        ),
        max_size=12,
    ),
    st.sampled_from([None, (("pi", "boot-1"), 5_000)]),
)
def test_a_windows_shortcuts_say_what_its_result_says(steps: list[tuple[Any, ...]], floor: Any) -> None:
    """What a verdict's check asks instead of the window's result: "nobody has pressed"
    (``is_empty``) is "no press counts" (a window's first press always counts: no close before
    it ends it). And ``following()`` is the window a verdict built anew before: no press, the
    same seats and clock, floored at the judged window's horizon. Seen failing with a close
    before the first press taken as the window's, and with the floor copied instead of the
    horizon."""
    window = SlapWindow(SEATS, 20_000, floor=floor)
    for step in steps:
        if step[0] == "press":
            window.add(*step[1:])
        else:
            window.close(step[1])
        result = window.result()
        assert window.is_empty == (not result.order)
        after = window.following()
        anew = SlapWindow(SEATS, 20_000, floor=window.horizon())
        assert fields(after) == fields(anew) and after.result() == anew.result()
        # And they go on the same: the next press of each step, in both.
        if step[0] == "press":
            assert after.add(*step[1:]) == anew.add(*step[1:])
            assert fields(after) == fields(anew) and after.result() == anew.result()


def fields(window: SlapWindow) -> Any:
    """What a window is: what it pickles (its cached result aside)."""
    return window.__reduce__()[1]


BOOT = ("pi", "boot-1")


def test_a_press_at_the_floor_belongs_to_the_judged_window() -> None:
    window = SlapWindow(SEATS, 20_000, floor=(BOOT, 5_000))
    assert window.add("Ana", 5_000, 1, BOOT) is False  # made before the verdict: not this window's
    assert window.is_empty and window.presses_seen == 0
    assert window.add("Ana", 5_000, 1, ("pi", "boot-2")) is True  # another boot: no floor
    other = SlapWindow(SEATS, 20_000, floor=(BOOT, 5_000))
    assert other.add("Bea", 5_001, 1, BOOT) is True
    assert other.add("Cy", 6_000, 1, ("pi", "boot-2")) is False  # the window's epoch is boot-1's
    assert other.presses_seen == 1 and not other.pressed("Cy")


def test_the_latest_stamp_is_the_latest_whatever_the_order_they_came_in() -> None:
    window = SlapWindow(SEATS, 20_000)
    assert window.add("Ana", 9_000, 1, BOOT) is True
    assert window.add("Bea", 4_000, 1, BOOT) is True
    assert window.horizon() == (BOOT, 9_000)
    # A second press of a player, later than the first: recorded (seen), not counted.
    assert window.add("Ana", 12_000, 1, BOOT) is True
    assert window.presses_seen == 3 and window.horizon() == (BOOT, 12_000)
    assert [p.t_us for p in window.result().order] == [4_000, 9_000]
    assert window.following().floor == (BOOT, 12_000)


def test_what_undo_and_its_file_use_of_a_window() -> None:
    """Undo re-applies summed presses through ``accepts`` and ``saw`` (no longer called by
    ``add``, which records the latest stamp itself), keeps ``copy()`` of windows and pickles them
    to its file: slap.py mutants that only tests/games/kilo/test_slap_epochs.py (Kilo's selection) reached."""
    window = SlapWindow(SEATS, 20_000, floor=(BOOT, 5_000))
    assert window.accepts(BOOT) and window.accepts(None) and window.horizon() is None
    restored = pickle.loads(pickle.dumps(window))  # an empty window: its epoch still unset
    assert restored.accepts(("pi", "boot-2")) and fields(restored) == fields(window)
    window.add("Ana", 9_000, 1, BOOT)
    assert window.accepts(BOOT) and not window.accepts(("pi", "boot-2"))
    window.saw(12_000)
    window.saw(11_000)
    assert window.horizon() == (BOOT, 12_000)
    copy = window.copy()
    assert fields(copy) == fields(window) and copy.floor == (BOOT, 5_000)
    assert copy.horizon() == (BOOT, 12_000) and not copy.accepts(("pi", "boot-2"))
    copy.add("Bea", 13_000, 1, BOOT)
    assert window.presses_seen == 1 and not window.pressed("Bea")
    assert fields(pickle.loads(pickle.dumps(window))) == fields(window)
    # A clock that names no run (an old board) gives no horizon, whatever its name.
    for epoch in (("pi", None), (None, None)):
        unnamed = SlapWindow(SEATS, 20_000)
        unnamed.add("Ana", 9_000, 1, epoch)
        assert unnamed.horizon() is None
    named = SlapWindow(SEATS, 20_000)
    named.add("Ana", 9_000, 1, (None, "boot-1"))
    assert named.horizon() == ((None, "boot-1"), 9_000)
