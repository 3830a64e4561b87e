"""Clock epochs (issue 20, points 1-2): a press says which clock and which run of it (a boot of
the Pi, of the board) stamped it; a slap window never compares stamps of two epochs, and a new
epoch closes the open window before its first press. Old logs (no epoch) replay as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.kilo.tally import tally
from companion.table.fold import replay

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
NEW = {"type": "new_game", "game": "kilo", "players": PLAYERS, "rounds": 3}
S = 1_000_000


def press(player: str, t_us: int, epoch: str | None = None, clock: str = "CLOCK_MONOTONIC"
          ) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "press", "player": player, "t_us": t_us}
    if epoch is not None:
        event.update(clock=clock, epoch=epoch)
    return event


def run(events: list[dict[str, Any]]) -> dict[str, Any]:
    engine = replay(json.dumps(e, ensure_ascii=False) for e in [NEW, *events])
    return engine.to_json()  # type: ignore[no-any-return]


POWER_CUT = [
    # Alice and Bob slap at monotonic 3,600 s; the plug is pulled; after the reboot Chloé slaps
    # at 25 s on the new boot's clock.
    press("Alice", 3600 * S, "boot:one"),
    press("Bob", 3600 * S + 40_000, "boot:one"),
    press("Chloé", 25 * S, "boot:two"),
]


def test_a_press_of_a_new_boot_does_not_join_the_window_of_the_old_one() -> None:
    state = run([*POWER_CUT, {"type": "verdict", "valid": True}])
    slap = state["last_slap"]
    # Only the old boot's presses were judged: Chloé's press came after the window closed.
    assert [p["player"] for p in slap["order"]] == ["Alice", "Bob"]
    assert slap["order"][0]["player"] == "Alice"  # Alice stays the claimant
    assert state["ignored_presses"] == 1


def test_the_window_closed_by_a_new_epoch_keeps_late_presses_of_its_own_epoch() -> None:
    # The old boot's resend brings Dédé's press after Chloé's line: still judged with its epoch.
    late = press("Dédé", 3600 * S + 90_000, "boot:one")
    state = run([*POWER_CUT, late, {"type": "verdict", "valid": True}])
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Alice", "Bob", "Dédé"]


def test_a_board_reboot_inside_a_window_is_a_new_epoch_of_the_same_clock_name() -> None:
    board = "pico:E6614103E7452D2F"
    state = run([press("Alice", 900 * S, "b:1", board), press("Bob", 3 * S, "b:2", board),
                 {"type": "verdict", "valid": True}])
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Alice"]


def test_after_the_verdict_the_next_window_takes_the_new_epoch() -> None:
    state = run([*POWER_CUT, {"type": "verdict", "valid": True},
                 {"type": "draw", "player": "Chloé", "card": "8"},
                 {"type": "draw", "player": "Dédé", "card": "9"},
                 press("Dédé", 40 * S, "boot:two"), press("Alice", 40 * S + 5, "boot:two"),
                 {"type": "verdict", "valid": True}])
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Dédé", "Alice"]


def test_undo_replays_the_presses_in_their_epochs() -> None:
    events = [press("Alice", 10, "e1"), press("Bob", 20, "e1"), press("Chloé", 30, "e1"),
              press("Dédé", 40, "e1"), {"type": "verdict", "valid": True},
              press("Alice", 7 * S, "e2"), press("Bob", 5, "e1"), {"type": "undo"}]
    undone = run(events)
    # The log without the verdict, replayed from scratch, is the truth undo must give.
    assert undone["window"] == run([e for e in events[:-1] if e.get("type") != "verdict"])[
        "window"]
    assert undone["ignored_presses"] == 1


def test_old_logs_without_epochs_judge_as_before() -> None:
    state = run([press("Alice", 3600 * S), press("Bob", 3600 * S + 40_000), press("Chloé", 25 * S),
                 {"type": "verdict", "valid": True}])
    # No epoch named: one clock for the whole log, as the shared spec says.
    assert state["last_slap"]["order"][0]["player"] == "Chloé"


def test_the_statistics_fold_agrees_with_the_engine() -> None:
    events = [*POWER_CUT, {"type": "verdict", "valid": True}]
    fact = tally(NEW, events).slaps[0]
    assert [p for p, _ in fact.order] == ["Alice", "Bob"]



@pytest.mark.xfail(strict=True, reason="confirmed, not fixed: a verdict has no time horizon, and "
                   "undo's one-step summary of the presses after a decision cannot apply one "
                   "exactly")
def test_a_late_press_stamped_before_a_reslap_verdict_does_not_open_the_next_window() -> None:
    """Suspected point: a press stamped before the verdict but arriving after it (the board's
    resend after a reconnect, a slow source) opens the next window; with ``tie = reslap`` it
    even becomes the re-slap's claimant."""
    new = {**NEW, "rules": {"tie": "reslap"}}
    events = [new, press("Alice", 100, "e"), press("Bob", 200, "e"), press("Chloé", 400, "e"),
              press("Dédé", 400, "e"), {"type": "verdict", "valid": True},
              # Bob pressed again at 350, before the verdict; it reaches the table after it.
              press("Bob", 350, "e"), press("Alice", 9_000, "e")]
    state = replay(json.dumps(e, ensure_ascii=False) for e in events).to_json()
    assert state["last_slap"]["losers"] == []  # the tie was replayed
    assert [p["player"] for p in state["window"]["order"]] == ["Alice"]
