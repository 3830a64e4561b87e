"""Simulated 13 feuilles matches: real hands, legal plays, and logs that replay to the same state."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.games import new_engine
from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter
from companion.games.treize.rules import DEALT, MATCH_TARGET, TreizeGame
from companion.games.treize.series import VALUES
from companion.games.treize.sim import DECK_COPIES, Style, deal, deck, simulate_match
from companion.table.fold import replay
from companion.table.log import AnyEvent, Event, Undo, dump_events, parse_event

NAMES = ["Ana", "Bea", "Cy", "Dom", "Eve", "Fab"]


def engine_of(events: list[Event]) -> TreizeGame:
    first = events[0]
    assert isinstance(first, NewTreizeGame)
    g = new_engine(first)
    assert isinstance(g, TreizeGame)
    for event in events[1:]:
        g.apply(event)  # type: ignore[arg-type]
    return g


def test_the_modelled_deck_deals_the_seed_s_hands() -> None:
    cards = deck()
    assert len(cards) == 65 and Counter(cards) == dict.fromkeys(VALUES, DECK_COPIES)
    for n in (3, 4, 5, 6):
        hands = deal(random.Random(n), n)
        assert [sum(h.values()) for h in hands] == [DEALT[n]] * n
        total = Counter[int]()
        for hand in hands:
            total.update(hand)
        assert all(total[v] <= DECK_COPIES for v in total)


def test_a_five_player_advanced_match_is_complete() -> None:
    # How fast it runs is for a bench to say (replaying: bench/replay_stream.py), never a timed
    # assert on a shared machine.
    events = simulate_match(random.Random(2026), NAMES[:5])
    g = replay(list(dump_events(events)))
    assert isinstance(g, TreizeGame) and g.finished and g.games_played >= 2
    assert max(g.total(p) for p in g.players) >= MATCH_TARGET
    assert all(h.by_plays for h in g.history)  # every game ended on the play that emptied a hand
    assert any(isinstance(e, Play) for e in events) and any(isinstance(e, Pass) for e in events)
    assert isinstance(events[1], Starter)  # the first starter drawn by lot


def test_the_same_seed_gives_the_same_match() -> None:
    a = [e.to_json() for e in simulate_match(random.Random(7), NAMES[:4])]
    b = [e.to_json() for e in simulate_match(random.Random(7), NAMES[:4])]
    c = [e.to_json() for e in simulate_match(random.Random(8), NAMES[:4])]
    assert a == b and a != c


def test_a_basic_game_is_one_game() -> None:
    events = simulate_match(random.Random(3), NAMES[:3], variant="basic", draw_lots=False)
    g = engine_of(events)
    assert g.finished and g.games_played == 1 and len(g.winners()) == 1
    first = events[0]
    assert isinstance(first, NewTreizeGame) and first.starter is not None


def test_the_minimal_form_has_no_plays_and_ends_each_game_with_left() -> None:
    events = simulate_match(random.Random(11), NAMES[:6], enter_plays=False)
    assert not any(isinstance(e, Play) for e in events)
    assert all(e.took is None for e in events if isinstance(e, Pass))
    ends = [e for e in events if isinstance(e, GameEnd)]
    g = engine_of(events)
    assert g.finished and len(ends) == g.games_played and not g.tracking
    assert [h.winner for h in g.history] == [e.winner for e in ends]


def test_players_who_never_pass_by_choice_still_finish() -> None:
    events = simulate_match(
        random.Random(5), NAMES[:3], style=Style(pass_chance=0.0, dump_chance=0.0, take_own_chance=0.0)
    )
    assert engine_of(events).finished


def test_every_simulated_play_is_legal_and_hands_stay_honest() -> None:
    """Each play, checked before it is applied, fits the series and the hand; counts stay >= 0."""
    for seed in range(15):
        events = simulate_match(random.Random(seed), NAMES[: 3 + seed % 4])
        g = engine_of(events[:1])
        for event in events[1:]:
            if isinstance(event, Play):
                legal = g.legal()
                assert legal is not None and legal.allows(event.value, event.count)
                assert g.turn == event.player
                held = g.count(event.player)
                assert held is not None and event.count <= held
            g.check(event)  # type: ignore[arg-type]
            g.apply(event, checked=True)  # type: ignore[arg-type]
            counts = g.counts()
            assert counts is None or min(counts.values()) >= 0
        assert g.finished


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 6),
    plays=st.booleans(),
    variant=st.sampled_from(["basic", "advanced"]),
    cut=st.floats(0, 1),
)
def test_simulated_matches_replay_to_the_same_state_and_undo_restores(
    seed: int, n: int, plays: bool, variant: str, cut: float
) -> None:
    events = simulate_match(random.Random(seed), NAMES[:n], enter_plays=plays, variant=variant)  # type: ignore[arg-type]
    direct = engine_of(events)
    text = list(dump_events(events))
    assert [parse_event(line) for line in text] == events  # the log's lines round-trip
    replayed = replay(text)
    assert replayed.to_json() == direct.to_json()
    assert direct.finished
    # Undo of the decision at a random point gives back the state just before it.
    k = 1 + int(cut * (len(events) - 2))
    g = engine_of(events[:k])
    before = g.to_json()
    g.apply(events[k])  # type: ignore[arg-type]
    g.apply(Undo())
    assert g.to_json() == before and g.last_undone == events[k]
    # ... and the rest of the match then replays as before.
    for event in events[k:]:
        g.apply(event)  # type: ignore[arg-type]
    assert g.to_json() == direct.to_json()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_a_refused_event_changes_nothing(seed: int, data: st.DataObject) -> None:
    events = simulate_match(random.Random(seed), NAMES[:4])
    k = data.draw(st.integers(1, len(events) - 1))
    g = engine_of(events[:k])
    before = g.to_json()
    player = data.draw(st.sampled_from(NAMES[:4]))
    attempt: AnyEvent = data.draw(
        st.sampled_from(
            [
                Play(player=player, value=data.draw(st.integers(1, 13)), count=data.draw(st.integers(1, 6))),
                Pass(player=player, took=data.draw(st.none() | st.integers(0, 14))),
                Starter(player=player),
            ]
        )
    )
    try:
        g.apply(attempt)
    except RuleError as err:
        assert err.en and err.fr and g.to_json() == before
    else:
        g.apply(Undo())
        assert g.to_json() == before


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_simulated_matches_of_every_size_end(n: int) -> None:
    for seed in range(5):
        g = engine_of(simulate_match(random.Random(seed * 10 + n), NAMES[:n]))
        assert g.finished and g.winners()
        best = min(g.total(p) for p in g.players)
        assert all(g.total(p) == best for p in g.winners())
