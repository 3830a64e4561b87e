"""Clock epochs (issue 20, points 1-2): a press says which clock and which run of it (a boot of
the Pi, of the board) stamped it; a slap window never compares stamps of two epochs, and a new
epoch closes the open window before its first press. Old logs (no epoch) replay as before."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import event as hyp_event
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kilo.events import Close, Draw, KiloRules, NewKiloGame, Press, Verdict
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.tally import tally
from companion.table.fold import replay
from companion.table.log import Event, Undo, parse_event
from tests.games.kilo.test_rules_undo import EXAMPLES, NAMES, a_card, can_undo, engine_state, without_undone

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
NEW = {"type": "new_game", "game": "kilo", "players": PLAYERS, "rounds": 3}
S = 1_000_000


def press(player: str, t_us: int, epoch: str | None = None, clock: str = "CLOCK_MONOTONIC") -> dict[str, Any]:
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
    state = run(
        [
            press("Alice", 900 * S, "b:1", board),
            press("Bob", 3 * S, "b:2", board),
            {"type": "verdict", "valid": True},
        ]
    )
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Alice"]


def test_after_the_verdict_the_next_window_takes_the_new_epoch() -> None:
    state = run(
        [
            *POWER_CUT,
            {"type": "verdict", "valid": True},
            {"type": "draw", "player": "Chloé", "card": "8"},
            {"type": "draw", "player": "Dédé", "card": "9"},
            press("Dédé", 40 * S, "boot:two"),
            press("Alice", 40 * S + 5, "boot:two"),
            {"type": "verdict", "valid": True},
        ]
    )
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Dédé", "Alice"]


def test_undo_replays_the_presses_in_their_epochs() -> None:
    events = [
        press("Alice", 10, "e1"),
        press("Bob", 20, "e1"),
        press("Chloé", 30, "e1"),
        press("Dédé", 40, "e1"),
        {"type": "verdict", "valid": True},
        press("Alice", 7 * S, "e2"),
        press("Bob", 5, "e1"),
        {"type": "undo"},
    ]
    undone = run(events)
    # The log without the verdict, replayed from scratch, is the truth undo must give.
    assert undone["window"] == run([e for e in events[:-1] if e.get("type") != "verdict"])["window"]
    assert undone["ignored_presses"] == 1


def test_old_logs_without_epochs_judge_as_before() -> None:
    state = run(
        [
            press("Alice", 3600 * S),
            press("Bob", 3600 * S + 40_000),
            press("Chloé", 25 * S),
            {"type": "verdict", "valid": True},
        ]
    )
    # No epoch named: one clock for the whole log, as the shared spec says.
    assert state["last_slap"]["order"][0]["player"] == "Chloé"


def test_the_statistics_fold_agrees_with_the_engine() -> None:
    events = [*POWER_CUT, {"type": "verdict", "valid": True}]
    fact = tally(NEW, events).slaps[0]
    assert [p for p, _ in fact.order] == ["Alice", "Bob"]


def test_a_late_press_stamped_before_a_reslap_verdict_does_not_open_the_next_window() -> None:
    """Suspected point: a press stamped before the verdict but arriving after it (the board's
    resend after a reconnect, a slow source) opens the next window; with ``tie = reslap`` it
    even becomes the re-slap's claimant."""
    new = {**NEW, "rules": {"tie": "reslap"}}
    events = [
        new,
        press("Alice", 100, "e"),
        press("Bob", 200, "e"),
        press("Chloé", 400, "e"),
        press("Dédé", 400, "e"),
        {"type": "verdict", "valid": True},
        # Bob pressed again at 350, before the verdict; it reaches the table after it.
        press("Bob", 350, "e"),
        press("Alice", 9_000, "e"),
    ]
    state = replay(json.dumps(e, ensure_ascii=False) for e in events).to_json()
    assert state["last_slap"]["losers"] == []  # the tie was replayed
    assert [p["player"] for p in state["window"]["order"]] == ["Alice"]


def test_a_press_made_before_the_verdict_is_counted_as_ignored_and_undo_takes_it_back() -> None:
    new = {**NEW, "rules": {"tie": "reslap"}}
    judged = [
        press("Alice", 100, "e"),
        press("Bob", 200, "e"),
        press("Chloé", 400, "e"),
        press("Dédé", 400, "e"),
    ]
    late = press("Bob", 350, "e")
    after = replay(
        json.dumps(e, ensure_ascii=False) for e in [new, *judged, {"type": "verdict", "valid": True}, late]
    ).to_json()
    assert after["ignored_presses"] == 1 and after["window"]["order"] == []
    # Undone, the verdict never was: Bob's late press is one more press of the open window.
    undone = replay(
        json.dumps(e, ensure_ascii=False)
        for e in [new, *judged, {"type": "verdict", "valid": True}, late, {"type": "undo"}]
    )
    plain = replay(json.dumps(e, ensure_ascii=False) for e in [new, *judged, late])
    assert undone.to_json()["window"] == plain.to_json()["window"]
    assert isinstance(undone, KiloGame) and isinstance(plain, KiloGame)
    assert undone.ignored_presses == plain.ignored_presses == 0


def test_the_statistics_fold_keeps_the_horizon_too() -> None:
    new = {**NEW, "rules": {"tie": "reslap"}}
    events = [
        press("Alice", 100, "e"),
        press("Bob", 200, "e"),
        press("Chloé", 400, "e"),
        press("Dédé", 400, "e"),
        {"type": "verdict", "valid": True},
        press("Bob", 350, "e"),
        press("Alice", 9_000, "e"),
        press("Bob", 9_100, "e"),
        press("Chloé", 9_200, "e"),
        press("Dédé", 9_300, "e"),
        {"type": "verdict", "valid": True},
    ]
    fact = tally(new, events).slaps[1]
    assert [p for p, _ in fact.order] == ["Alice", "Bob", "Chloé", "Dédé"]
    assert fact.losers == ("Dédé",)


# --- undo with horizons: the log with its undos is the log without the undone decisions ----------

EPOCHS = [("pico:E661", "boot:a"), ("pico:E661", "boot:b"), (None, None)]


@st.composite
def logs_with_late_presses(draw: st.DrawFn) -> list[Event]:
    """Presses of two boots of a board (and of an old log's one clock), some stamped before the
    latest press of their clock (a resend arriving late), verdicts, draws, closes and chains of
    undos, as a table could enter them."""
    n = draw(st.integers(3, 5))
    setup = NewKiloGame(
        players=NAMES[:n], rounds=3, rules=KiloRules(tie=draw(st.sampled_from(["all_draw", "reslap"])))
    )
    game = KiloGame(setup)
    log: list[Event] = [setup]
    now = {key: draw(st.integers(0, 1000)) for key in EPOCHS}
    for _ in range(draw(st.integers(1, 50))):
        kinds = ["press"] * 4 + ["late"] * 3 + ["close"]
        if game.awaiting == "verdict":
            kinds += ["verdict"] * 4
        if game.awaiting == "draw":
            kinds += ["draw"] * 4
        if can_undo(game):
            kinds += ["undo"] * 3
        kind = draw(st.sampled_from(kinds))
        key = draw(st.sampled_from(EPOCHS))
        events: list[Event]
        if kind in ("press", "late"):
            if kind == "press":
                now[key] += draw(st.integers(0, 3000))
            t_us = now[key] - (draw(st.integers(0, 5000)) if kind == "late" else 0)
            events = [
                Press(
                    player=draw(st.sampled_from(setup.players)),
                    t_us=t_us,
                    res_us=draw(st.sampled_from([None, 1000])),
                    clock=key[0],
                    epoch=key[1],
                )
            ]
        elif kind == "close":
            events = [Close(t_us=now[key] + draw(st.integers(-2000, 2000)))]
        elif kind == "verdict":
            events = [Verdict(valid=draw(st.booleans()))]
        elif kind == "draw":
            events = [Draw(player=game.owed_draws[0], card=a_card(draw, game))]
        else:
            events = [Undo()] * draw(st.integers(1, 3))
        for ev in events:
            if isinstance(ev, Undo) and not can_undo(game):
                break
            game.apply(ev)  # type: ignore[arg-type]
            log.append(ev)
    return log


@settings(max_examples=EXAMPLES, deadline=None)
@given(logs_with_late_presses())
def test_undo_is_the_log_without_the_undone_decisions_across_horizons(log: list[Event]) -> None:
    effective, undos, chain = without_undone(log)
    hyp_event(f"undos: {min(undos, 3)}{'+' if undos > 3 else ''}, longest chain: {min(chain, 3)}")
    plain = KiloGame(log[0])  # type: ignore[arg-type]
    for ev in effective[1:]:
        plain.apply(ev)  # type: ignore[arg-type]
    undone = replay([ev.to_json() for ev in log])
    assert isinstance(undone, KiloGame)
    assert engine_state(undone) == engine_state(plain)


def undone_and_plain(events: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine fed ``events`` (with their undos), and fed the same log without the undone
    decisions."""
    log = [NewKiloGame(**NEW)] + [parse_event(json.dumps(e, ensure_ascii=False), "kilo") for e in events]
    effective, _, _ = without_undone(log)  # type: ignore[arg-type]
    plain = KiloGame(log[0])  # type: ignore[arg-type]
    for ev in effective[1:]:
        plain.apply(ev)  # type: ignore[arg-type]
    undone = replay([ev.to_json() for ev in log])
    assert isinstance(undone, KiloGame)
    return engine_state(undone), engine_state(plain)


VERDICT = {"type": "verdict", "valid": True}


def test_undo_keeps_a_later_press_of_a_player_whose_earliest_fell_before_the_horizon() -> None:
    first = [press(p, 1000 + 100 * i, "e") for i, p in enumerate(PLAYERS)]
    second = [press(p, 2000 + 100 * i, "e") for i, p in enumerate(PLAYERS)]
    events = [
        *first,
        VERDICT,
        {"type": "draw", "player": "Dédé", "card": "5"},
        *second,
        VERDICT,
        # After the second verdict: Bob's press from before the first one's horizon
        # (1,300), then one inside the second window, before his 2,100.
        press("Bob", 1250, "e"),
        press("Bob", 2050, "e"),
        {"type": "undo"},
    ]
    undone, plain = undone_and_plain(events)
    assert ("Bob", 2050) in plain["window"]
    assert undone == plain
