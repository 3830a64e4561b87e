"""Properties of the Kilo de merde core that hold after any sequence of events the table can enter.

Sequences are built one valid action at a time from the state the engine reports (presses at
random stamps, closes, verdicts, draws of cards the pile can still hold, undos), under random
house rules and player counts; random text streams check that a table log either replays or
stops with ``line N: ...``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.cards import FOUR_SUITS, RANKS, Card, Rank
from companion.errors import LogError, RuleError
from companion.games.kilo.events import Close, Draw, KiloRules, NewKiloGame, Press, Starter, Verdict
from companion.games.kilo.rules import DEALT_RANKS, KiloGame
from companion.games.kilo.slap import SlapWindow
from companion.table.fold import replay
from companion.table.log import Event, Undo

NAMES = ["Alice", "Bruno", "Chloé", "Dédé", "Émile", "Fanny", "Gaston", "Hélène", "Ibrahim", "Julie"]
LINE_N = re.compile(r"^line [1-9][0-9]*: \S")
LIGNE_N = re.compile(r"^ligne [1-9][0-9]*\u202f: \S")

# COMPANION_PROPERTY_SCALE=20 runs twenty times as many examples (a longer hunt, same tests).
SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))
SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


def examples(n: int) -> settings:
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None, suppress_health_check=SLOW_OK)


FAST = examples(60)

rules_st = st.builds(
    KiloRules,
    seven=st.sampled_from(["flush", "first_card_counts"]),
    quads=st.sampled_from(["rank", "rank_or_suit"]),
    passing=st.sampled_from(["one_by_one", "simultaneous"]),
    tie=st.sampled_from(["all_draw", "reslap"]),
    slap_timeout_ms=st.integers(100, 60_000),
)


@st.composite
def setups(draw: st.DrawFn) -> NewKiloGame:
    n = draw(st.integers(3, 10))
    return NewKiloGame(players=NAMES[:n], rounds=draw(st.integers(1, 4)), rules=draw(rules_st))


# --- checks on a state --------------------------------------------------------------------------


def check_cards_conserved(game: KiloGame) -> None:
    """Every card of the pile's ranks is in the never-drawn part, a returned block, or in front
    of exactly one player: four of each rank, no dealt rank anywhere, and no kilos below zero."""
    source, counts = game.draw_source()
    unknown = counts if source == "unknown" else {}
    blocks = game.returned_blocks()
    fronts = {p: game.cards_of(p) for p in game.players}
    assert set(unknown) <= game.pile_ranks
    for rank in RANKS:
        returned = sum(c.rank is rank for block in blocks for c in block)
        in_front = sum(c.rank is rank for cards in fronts.values() for c in cards)
        total = unknown.get(rank, 0) + returned + in_front
        assert total == (4 if rank in game.pile_ranks else 0), (rank, unknown, blocks, fronts)
    assert game.pile_ranks == frozenset(RANKS) - DEALT_RANKS[len(game.players)]
    in_front_total = sum(len(cards) for cards in fronts.values())
    assert game.pile_count + in_front_total == 4 * len(game.pile_ranks)
    assert game.known_bottom == sum(len(b) for b in blocks)
    for player in game.players:
        assert game.kilos(player) >= 0
    assert all(row["kilos"] >= 0 for row in game.to_json()["standings"])
    assert all(k >= 0 for row in game.history for k in row)


def can_undo(game: KiloGame) -> bool:
    try:
        game.check(Undo())
    except RuleError:
        return False
    return True


# --- building valid sequences -------------------------------------------------------------------


def draw_card(draw: st.DrawFn, game: KiloGame) -> Card:
    """A card the pile can give next, written with or without its suit."""
    source, counts = game.draw_source()
    assert source != "empty" and counts
    if source == "returned" and draw(st.booleans()):
        card = draw(st.sampled_from(game.returned_blocks()[0]))
        if draw(st.booleans()):
            return card
        assert card.rank is not None
        return Card(card.rank)
    rank: Rank = draw(st.sampled_from(sorted(counts, key=lambda r: r.order)))
    suit = draw(st.sampled_from([None, *FOUR_SUITS]))
    return Card(rank, suit)


def next_event(draw: st.DrawFn, game: KiloGame, base_us: int) -> Event:
    timeout_us = game.rules.slap_timeout_ms * 1000
    kinds = ["press"] * 4 + ["close", "starter"]
    if game.awaiting == "verdict":
        kinds += ["verdict"] * 4
    if game.awaiting == "draw":
        kinds += ["draw"] * 6
    if can_undo(game):
        kinds.append("undo")
    kind = draw(st.sampled_from(kinds))
    stamp = st.integers(base_us - timeout_us, base_us + 3 * timeout_us)
    if kind == "press":
        return Press(player=draw(st.sampled_from(game.players)), t_us=draw(stamp))
    if kind == "close":
        return Close(t_us=draw(stamp))
    if kind == "starter":
        return Starter(player=draw(st.sampled_from(game.players)))
    if kind == "undo":
        return Undo()
    if kind == "verdict":
        if draw(st.booleans()):
            return Verdict(valid=True)
        pressers = [p for p in game.players if game.window_pressed(p)]
        penalized = draw(st.none() | st.lists(st.sampled_from(pressers), unique=True, max_size=len(pressers)))
        return Verdict(valid=False, penalized=penalized)
    player = draw(st.sampled_from(game.owed_draws))
    card = draw_card(draw, game)
    try:
        game.check(Draw(player=player, card=card))
    except RuleError:
        # A suit can be refused (that exact card lies elsewhere); the rank alone never is.
        assert card.suit is not None, f"{card} offered by draw_source() was refused"
        assert card.rank is not None
        card = Card(card.rank)
    return Draw(player=player, card=card)


@st.composite
def games(draw: st.DrawFn, max_steps: int = 90) -> tuple[list[Event], KiloGame, list[Any]]:
    """A live game after a random valid sequence; the states seen after every step."""
    setup = draw(setups())
    game = KiloGame(setup)
    events: list[Event] = [setup]
    base_us = draw(st.integers(0, 2**40))
    snapshots: list[Any] = []
    for _ in range(draw(st.integers(0, max_steps))):
        event = next_event(draw, game, base_us)
        game.apply(event)  # type: ignore[arg-type]
        events.append(event)
        if isinstance(event, Verdict):
            base_us += game.rules.slap_timeout_ms * 1000 * 4
        check_cards_conserved(game)
        snapshots.append(game.awaiting)
    return events, game, snapshots


@FAST
@given(games())
def test_cards_are_conserved_and_kilos_never_negative(
    played: tuple[list[Event], KiloGame, list[Any]],
) -> None:
    _, game, _ = played
    check_cards_conserved(game)


@FAST
@given(games())
def test_replaying_the_export_gives_the_live_state(played: tuple[list[Event], KiloGame, list[Any]]) -> None:
    events, game, _ = played
    export = ["# exported\n", *(event.to_json() + "\n" for event in events)]
    assert replay(export).to_json() == game.to_json()


# Undo against an independent replay, with mixed clock resolutions and undos in a row:
# tests/games/kilo/test_rules_undo.py (this file's older undo property returned early in a third of its
# examples and compared the engine with itself).


# --- order of arrival ---------------------------------------------------------------------------


@st.composite
def windows(draw: st.DrawFn) -> tuple[list[str], int, list[tuple[str, int]], int | None]:
    n = draw(st.integers(3, 10))
    players = NAMES[:n]
    timeout_us = draw(st.integers(100, 60_000)) * 1000
    t0 = draw(st.integers(-(2**40), 2**40))
    stamp = st.integers(t0, t0 + 2 * timeout_us) | st.sampled_from([t0, t0 + 1, t0 + timeout_us])
    presses = draw(st.lists(st.tuples(st.sampled_from(players), stamp), min_size=1, max_size=25))
    close = draw(st.none() | stamp)
    return players, timeout_us, presses, close


@FAST
@given(windows(), st.data())
def test_order_of_arrival_does_not_matter_to_the_window(
    window: tuple[list[str], int, list[tuple[str, int]], int | None], data: st.DataObject
) -> None:
    players, timeout_us, presses, close = window
    items: list[tuple[str, int] | int] = [*presses, *([close] if close is not None else [])]

    def result(arrival: list[tuple[str, int] | int]) -> Any:
        w = SlapWindow(players, timeout_us)
        for item in arrival:
            if isinstance(item, int):
                w.close(item)
            else:
                w.add(*item)
        return w.result()

    expected = result(items)
    for _ in range(3):
        assert result(data.draw(st.permutations(items))) == expected
    # The result is the rule itself: earliest press of each player, counted up to the close.
    earliest: dict[str, int] = {}
    for player, t_us in presses:
        earliest[player] = min(t_us, earliest.get(player, t_us))
    limit = min(earliest.values()) + timeout_us
    # a close stamped before the first press closed no window (docs/table-log.md)
    limit = limit if close is None or close < min(earliest.values()) else min(limit, close)
    counted = sorted((t, players.index(p), p) for p, t in earliest.items() if t <= limit)
    assert [(p.player, p.t_us) for p in expected.order] == [(p, t) for t, _, p in counted]
    assert expected.claimant == (counted[0][2] if counted else None)


@FAST
@given(windows(), st.booleans(), st.data())
def test_order_of_arrival_does_not_matter_to_the_engine(
    window: tuple[list[str], int, list[tuple[str, int]], int | None], valid: bool, data: st.DataObject
) -> None:
    players, timeout_us, presses, close = window
    setup = NewKiloGame(players=players, rounds=3, rules=KiloRules(slap_timeout_ms=timeout_us // 1000))
    events: list[Event] = [Press(player=p, t_us=t) for p, t in presses]
    if close is not None:
        events.append(Close(t_us=close))

    def judged(arrival: list[Event]) -> Any:
        game = KiloGame(setup)
        for event in arrival:
            game.apply(event)  # type: ignore[arg-type]
        before = game.window()
        if game.awaiting != "verdict":
            return before, None
        game.apply(Verdict(valid=valid))
        return before, game.to_json()

    expected = judged(events)
    for _ in range(3):
        assert judged(data.draw(st.permutations(events))) == expected


# --- any text at all ----------------------------------------------------------------------------

CARDS_TEXT = ["7", "7H", "10", "10S", "A", "AD", "KH", "2C", "JK", "K*", "11", "7X", "", "qh", "8s"]
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
PLAYER = st.sampled_from([*NAMES[:5], "Zoé", "", "alice", 7]) | ANY_JSON
STAMP = st.integers(-10, 20_000_000) | st.sampled_from([2**70, -(2**70), 1.5, "12", True]) | ANY_JSON


@st.composite
def event_dicts(draw: st.DrawFn) -> Any:
    kind = draw(
        st.sampled_from(
            [
                "press",
                "close",
                "verdict",
                "draw",
                "starter",
                "undo",
                "new_game",
                "round_end",
                "pass",
                "trick_end",
                "game_end",
                "slap",
                "PRESS",
                None,
                3,
            ]
        )
    )
    obj: dict[str, Any] = {"type": kind}
    if kind in ("press", "draw", "starter"):
        obj["player"] = draw(PLAYER)
    if kind in ("press", "close"):
        obj["t_us"] = draw(STAMP)
    if kind == "draw":
        obj["card"] = draw(st.sampled_from(CARDS_TEXT) | ANY_JSON)
    if kind == "verdict":
        obj["valid"] = draw(st.booleans() | ANY_JSON)
        if draw(st.booleans()):
            obj["penalized"] = draw(st.lists(PLAYER, max_size=3) | ANY_JSON)
    if kind == "new_game":
        obj.update(
            game=draw(st.sampled_from(["kilo", "cinq-rois", "treize", "poker"])),
            players=draw(st.lists(PLAYER, max_size=11)),
            rounds=draw(STAMP),
        )
    if draw(st.integers(0, 9)) == 0:  # a key that does not belong, or a missing one
        if len(obj) > 0 and draw(st.booleans()):
            obj.pop(draw(st.sampled_from(sorted(obj))))
        else:
            obj[draw(st.sampled_from(["plyer", "t", "valid", "extra", "card"]))] = draw(ANY_JSON)
    return obj


def _valid_start(draw: st.DrawFn) -> str:
    setup = draw(setups())
    return setup.to_json()


@st.composite
def streams(draw: st.DrawFn) -> list[str]:
    lines: list[str] = []
    if draw(st.integers(0, 4)):
        lines.append(_valid_start(draw))
    line = st.one_of(
        event_dicts().map(lambda d: json.dumps(d, ensure_ascii=False)),
        event_dicts().map(lambda d: json.dumps(d)[: len(json.dumps(d)) // 2]),  # truncated
        ANY_JSON.map(json.dumps),
        st.text(max_size=30),
        st.sampled_from(
            [
                "",
                "   ",
                "# a comment",
                "{",
                "null",
                "[]",
                "{}",
                '{"type": "undo"}',
                "\ufeff{}",
                "NaN",
                "1e999",
            ]
        ),
    )
    lines.extend(draw(st.lists(line, max_size=40)))
    return [text if draw(st.booleans()) else text + "\n" for text in lines]


START = '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 2}\n'


@examples(300)
@given(streams())
@example([START, '{"type": "press", "player": "A", "t_us": ' + "9" * 4301 + "}\n"])
@example([START, "[" * 3000 + "]" * 3000 + "\n"])
@example(
    [
        START,
        '{"type": "press", "player": "A", "t_us": 5}\n',
        '{"type": "close", "t_us": 1}',
        '{"type": "verdict", "valid": true}',
    ]
)
def test_any_stream_replays_or_names_its_line(lines: list[str]) -> None:
    try:
        engine = replay(lines)
    except LogError as err:
        assert LINE_N.match(str(err)), str(err)
        assert LIGNE_N.match(err.message("fr")), err.message("fr")
        assert 1 <= err.line <= max(len(lines), 1)
        return
    assert isinstance(engine, KiloGame)
    check_cards_conserved(engine)
    json.dumps(engine.to_json())
