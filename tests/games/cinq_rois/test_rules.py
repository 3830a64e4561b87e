"""Les Cinq Rois rules (spec/rules.md section 2): rounds, bonus, dealer, the three round entries,
every refusal (one sentence, nothing applied), undo, standings, the table log and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card, Rank
from companion.errors import LogError, RuleError, SetupError
from companion.games import new_engine
from companion.games.cinq_rois.events import NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame, RoundResult, max_points
from companion.games.cinq_rois.sim import DECK_SIZE, deal, double_deck, play_game, play_rounds
from companion.games.cinq_rois.solver import fully_combines, solve
from companion.table.fold import replay
from companion.table.log import Undo, event_from_dict
from tests.conftest import run_cli, typographic
from tests.games.cinq_rois.test_solver import brute_force, ref_points, valid_block

NAMES = ["Ana", "Ben", "Cy", "Dom", "Eve", "Fab", "Gus", "Hal"]


def game(n: int = 3, dealer: str | None = None) -> CinqRoisGame:
    return CinqRoisGame(NewCinqRoisGame(players=NAMES[:n], dealer=dealer))


def end(g: CinqRoisGame, **payload: Any) -> None:
    g.apply(RoundEnd.model_validate({"type": "round_end", **payload}))


def refused(g: CinqRoisGame, match: str, **payload: Any) -> RuleError:
    """The event is refused by ``check`` and by ``apply`` with one message in English and French
    (``match`` in English; a single word, a card or a name, in both), and the state is exactly
    as before."""
    before = g.to_json()
    event = RoundEnd.model_validate({"type": "round_end", **payload})
    with pytest.raises(RuleError) as by_check:
        g.check(event)
    with pytest.raises(RuleError) as by_apply:
        g.apply(event)
    assert g.to_json() == before
    err = by_apply.value
    assert err.en == by_check.value.en
    assert match in err.en, err.en
    if " " not in match:  # a card or a player is named in both languages
        assert match in err.fr, err.fr
    assert err.en != err.fr
    return err


# --- setup and the course of a game -------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 8])
def test_two_to_seven_players(n: int) -> None:
    with pytest.raises(SetupError, match="2 to 7 players") as err:
        game(n)
    assert "2 à 7 joueurs" in err.value.fr
    assert game(2).players == ("Ana", "Ben") and len(game(7).players) == 7


def test_dealer_must_be_a_player() -> None:
    with pytest.raises(SetupError, match="'Zoe' is not one of the players"):
        game(3, dealer="Zoe")


def test_rounds_cards_bonus_and_dealer_rotation() -> None:
    g = game(3, dealer="Ben")
    seen = []
    for n in range(1, 12):
        assert g.round == n and g.cards == n + 2 == g.cards_in_round(n)
        seen.append((g.bonus.value if g.bonus else None, g.dealer, g.first_player))
        end(g, out=g.first_player, points={p: n for p in g.players if p != g.first_player})
    assert [b for b, _, _ in seen] == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [d for _, d, _ in seen][:4] == ["Ben", "Cy", "Ana", "Ben"]
    assert [f for _, _, f in seen][:4] == ["Cy", "Ana", "Ben", "Cy"]
    assert g.finished and g.round == 12 and g.awaiting == "nothing"
    assert g.bonus is None and g.dealer is None and g.cards is None
    assert g.headline("fr") == "Partie terminée après 11 donnes"


def test_headline_fr_and_en() -> None:
    g = game(3)
    for _ in range(4):
        end(g, out="Ana", points={"Ben": 5, "Cy": 5})
    assert g.headline("fr") == "Donne 5\u202f: 7 cartes, atout 7, donneur Ben, Cy commence"
    assert g.headline("en") == "Round 5: 7 cards, bonus 7, dealer Ben, Cy plays first"


def test_points_entry_standings_and_co_winners() -> None:
    g = game(3)
    end(g, out="Ana", points={"Ben": 12, "Cy": 30})
    end(g, out="Cy", points={"Ana": 7, "Ben": 0})
    assert g.scores == {"Ana": [0, 7], "Ben": [12, 0], "Cy": [30, 0]}
    assert g.totals == {"Ana": 7, "Ben": 12, "Cy": 30}
    assert g.standings()[0] == ("Ana", 7, (0, 7))
    assert g.winners == []
    for _ in range(9):
        end(g, out="Ben", points={"Ana": 5, "Cy": 0})  # Ana 52, Ben 12, Cy 30
    assert g.finished and g.winners == ["Ben"]
    assert [p for p, _, _ in g.standings()] == ["Ben", "Cy", "Ana"]
    g.apply(Undo())
    end(g, out="Ana", points={"Ben": 40, "Cy": 0})  # Ana 47, Ben 52, Cy 30
    assert g.winners == ["Cy"]


def test_equal_totals_are_co_winners_in_seating_order() -> None:
    g = game(3)
    for _ in range(11):
        end(g, out="Cy", points={"Ana": 3, "Ben": 3})
    g.apply(Undo())
    end(g, out="Ana", points={"Ben": 0, "Cy": 30})  # Ana 30, Ben 30, Cy 30
    assert g.totals == {"Ana": 30, "Ben": 30, "Cy": 30}
    assert g.winners == ["Ana", "Ben", "Cy"]
    assert [p for p, _, _ in g.standings()] == ["Ana", "Ben", "Cy"]
    assert "Gagnants ex æquo\u202f: Ana, Ben, Cy (30 points)" in g.summary("fr")
    assert "Co-winners: Ana, Ben, Cy (30 points)" in g.summary("en")


def test_left_entry_scores_face_values_of_the_round() -> None:
    g = game(3)
    for _ in range(4):
        end(g, out="Ana", points={"Ben": 0, "Cy": 0})
    # Round 5: 7 cards, the 7s are worth 20, a joker 50, K 13.
    end(g, out="Ben", left={"Ana": ["7H", "JK", "KS"], "Cy": []})
    assert g.last_round is not None and g.last_round.scores == {"Ana": 83, "Ben": 0, "Cy": 0}
    state = g.to_json()["last_round"]
    assert state["out"] == "Ben" and state["scores"] == {"Ana": 83, "Ben": 0, "Cy": 0}
    assert state["left"]["Ana"] == ["7H", "JK", "KS"] and state["arrangements"] is None


def test_hands_entry_solves_every_hand() -> None:
    g = game(3)
    # Round 1: 3 cards, the 3s are wild.
    end(g, out="Cy", hands={"Ana": ["KS", "QD", "3C"], "Ben": ["5H", "6H", "JK"], "Cy": ["7S", "7D", "7C"]})
    last = g.to_json()["last_round"]
    assert last["scores"] == {"Ana": 13 + 12 + 20, "Ben": 0, "Cy": 0}
    assert last["arrangements"] == {"Ana": [], "Ben": [["5H", "6H", "JK"]], "Cy": [["7S", "7D", "7C"]]}
    assert last["details"]["Ben"]["combinations"] == [
        [
            {"card": "5H", "as": "5H", "wild": False},
            {"card": "6H", "as": "6H", "wild": False},
            {"card": "JK", "as": "7H", "wild": True},
        ]
    ]
    assert last["left"]["Ana"] == ["3C", "QD", "KS"]  # canonical order: rank, then suit
    assert "Joker→7♥" in g.summary("fr") and "JK→7♥" in g.summary("en")


def test_the_player_who_goes_out_must_fully_combine() -> None:
    g = game(3)
    err = refused(
        g,
        "QD KS",
        out="Ana",
        hands={"Ana": ["KS", "QD", "3C"], "Ben": ["5H", "6H", "JK"], "Cy": ["7S", "7D", "7C"]},
    )
    assert err.en.startswith("Ana cannot go out")
    assert err.fr.startswith("Ana ne peut pas s\u2019exposer")


# --- refusals: one sentence naming the card or player, nothing applied --------------------------


def test_points_for_the_player_who_went_out() -> None:
    err = refused(game(3), "Ana", out="Ana", points={"Ana": 0, "Ben": 4, "Cy": 5})
    assert err.en == "Ana went out and scores 0: give points only for the others"


def test_negative_and_impossible_points() -> None:
    refused(game(3), "Ben cannot score -4", out="Ana", points={"Ben": -4, "Cy": 5})
    # Round 1: three cards are worth at most three jokers, 150.
    assert max_points(3) == 150 and max_points(13) == 6 * 50 + 7 * 20
    refused(game(3), "Cy cannot score 151", out="Ana", points={"Ben": 4, "Cy": 151})


def test_missing_and_unknown_players() -> None:
    refused(game(3), "Cy", out="Ana", points={"Ben": 4})
    refused(game(3), "'Zoe'", out="Ana", points={"Ben": 4, "Cy": 3, "Zoe": 1})
    refused(game(3), "'Zoe'", out="Zoe", points={"Ben": 4, "Cy": 3})
    refused(game(3), "Ana", out="Cy", hands={"Ben": ["3S", "4S", "5S"], "Cy": ["3H", "4H", "5H"]})


def test_exactly_one_way_to_enter_a_round() -> None:
    refused(game(3), "exactly one", out="Ana", points={"Ben": 4, "Cy": 3}, left={"Ben": ["4S"], "Cy": ["3S"]})
    refused(game(3), "exactly one", out="Ana")


def test_cards_that_do_not_exist() -> None:
    err = refused(game(3), "AS", out="Ana", left={"Ben": ["AS"], "Cy": []})
    assert "no Aces and no 2s" in err.en and "sans As ni 2" in err.fr
    assert err.fr.endswith("(pas d’As)")  # elided, never "pas de As"
    err = refused(game(3), "2H", out="Ana", left={"Ben": ["2H"], "Cy": []})
    assert err.fr.endswith("(pas de 2)")
    refused(game(3), "needs its suit", out="Ana", left={"Ben": ["7"], "Cy": []})


def test_third_copy_and_seventh_joker() -> None:
    g = game(3)
    for _ in range(4):
        end(g, out="Ana", points={"Ben": 0, "Cy": 0})
    err = refused(g, "7H", out="Ana", left={"Ben": ["7H", "7H"], "Cy": ["7H"]})
    assert "3 times" in err.en and "(Ben, Ben, Cy)" in err.en
    err = refused(g, "7 jokers", out="Ana", left={"Ben": ["JK"] * 4, "Cy": ["JK"] * 3})
    assert "Ben 4, Cy 3" in err.en
    # Six jokers and two of each card are fine.
    end(g, out="Ana", left={"Ben": ["JK"] * 4 + ["7H"], "Cy": ["JK"] * 2 + ["7H"]})
    assert g.totals["Ben"] == 220


def test_wrong_hand_size_names_the_player_and_sizes() -> None:
    err = refused(
        game(3),
        "Ben's hand has 4 cards: round 1 deals 3",
        out="Ana",
        hands={"Ana": ["3S", "4S", "5S"], "Ben": ["3H", "4H", "5H", "6H"], "Cy": ["7S", "7D", "7C"]},
    )
    assert "la main de Ben a 4 cartes\u202f: la donne 1 en distribue 3" in err.fr
    refused(
        game(3),
        "Ben cannot have 4 cards left: round 1 deals 3",
        out="Ana",
        left={"Ben": ["3H", "4H", "5H", "6H"], "Cy": []},
    )


def test_no_round_after_the_eleventh() -> None:
    g = game(2)
    for _ in range(11):
        end(g, out="Ana", points={"Ben": 1})
    refused(g, "no round 12", out="Ana", points={"Ben": 1})


def test_undo_cancels_the_last_round_only() -> None:
    g = game(3)
    with pytest.raises(RuleError, match="nothing to undo"):
        g.apply(Undo())
    end(g, out="Ana", points={"Ben": 4, "Cy": 5})
    first = g.to_json()
    end(g, out="Ben", points={"Ana": 8, "Cy": 9})
    g.apply(Undo())
    assert g.to_json() == first and g.round == 2
    assert isinstance(g.last_undone, RoundResult) and g.last_undone.out == "Ben"
    g.apply(Undo())
    assert g.round == 1 and g.last_round is None
    with pytest.raises(RuleError, match="nothing to undo"):
        g.check(Undo())


def test_events_of_other_games_are_refused() -> None:
    g = game(3)
    with pytest.raises(RuleError, match="press is not an event of Les Cinq Rois"):
        g.apply(event_from_dict({"type": "press", "player": "Ana", "t_us": 5}))


# --- reporting ----------------------------------------------------------------------------------

SPEC_KEYS = {"game", "round", "finished", "winners", "bonus", "dealer", "standings", "last_round"}


def test_json_keys_of_the_spec() -> None:
    g = game(3, dealer="Cy")
    state = g.to_json()
    assert set(state) >= SPEC_KEYS
    assert state["game"] == "cinq-rois" and state["round"] == 1 and state["bonus"] == "3"
    assert state["dealer"] == "Cy" and state["first_player"] == "Ana"
    assert state["last_round"] is None and state["winners"] == [] and state["finished"] is False
    assert state["standings"] == [{"player": p, "points": 0, "rounds": []} for p in ("Ana", "Ben", "Cy")]
    end(g, out="Ben", points={"Ana": 12, "Cy": 3})
    state = g.to_json()
    assert state["standings"][0] == {"player": "Ben", "points": 0, "rounds": [0]}
    assert state["standings"][-1] == {"player": "Ana", "points": 12, "rounds": [12]}
    assert set(state["last_round"]) >= {"out", "scores", "arrangements"}
    json.dumps(state)  # plain JSON all the way down


def test_summary_in_both_languages() -> None:
    g = game(3)
    end(g, out="Ben", points={"Ana": 12, "Cy": 3})
    fr, en = g.summary("fr"), g.summary("en")
    assert "Donne 2\u202f: 4 cartes, atout 4" in fr and "Classement" in fr
    assert "Round 2: 4 cards, bonus 4" in en and "Standings" in en
    assert "Ben s’expose" in fr and "Ben went out" in en


# --- the table log and the CLI ------------------------------------------------------------------


def log(*events: dict[str, Any], players: list[str] | None = None) -> list[str]:
    start = {"type": "new_game", "game": "cinq-rois", "players": players or ["Ana", "Ben", "Cy"]}
    return [json.dumps(start)] + [json.dumps(e) for e in events]


R1 = {"type": "round_end", "out": "Ana", "points": {"Ben": 4, "Cy": 5}}


@pytest.mark.parametrize(
    "bad,expected",
    [
        ({"type": "round_end", "out": "Ana", "left": {"Ben": ["1H"], "Cy": []}}, "'1H' is not a card"),
        (
            {"type": "round_end", "out": "Ana", "left": {"Ben": ["AH"], "Cy": []}},
            "AH does not exist in Les Cinq Rois",
        ),
        (
            {"type": "round_end", "out": "Ana", "left": {"Ben": ["5S", "5S"], "Cy": ["5S"]}},
            "5S is given 3 times",
        ),
        ({"type": "round_end", "out": "Ana", "left": {"Ben": ["JK"] * 4, "Cy": ["JK"] * 3}}, "7 jokers"),
        (
            {
                "type": "round_end",
                "out": "Ana",
                "hands": {"Ana": ["3S", "4S", "5S"], "Ben": ["3H", "4H"], "Cy": ["7S", "7D", "7C"]},
            },
            "Ben's hand has 2 cards: round 2 deals 4",
        ),
        (
            {"type": "round_end", "out": "Ana", "points": {"Ana": 0, "Ben": 4, "Cy": 5}},
            "Ana went out and scores 0",
        ),
        ({"type": "round_end", "out": "Ana", "points": {"Ben": -1, "Cy": 5}}, "Ben cannot score -1"),
        (
            {"type": "round_end", "out": "Ana", "points": {"Ben": 1, "Cy": 5, "Zed": 2}},
            "unknown player 'Zed'",
        ),
        ({"type": "round_end", "out": "Ana", "points": {"Ben": 1.5, "Cy": 5}}, "whole number"),
    ],
)
def test_replay_bad_lines(bad: dict[str, Any], expected: str) -> None:
    lines = log(R1, bad)
    if "hands" in bad:  # the hand size is that of round 2, with Ana's right
        bad["hands"]["Ana"] = ["3S", "4S", "5S", "6S"]
        bad["hands"]["Cy"] = ["7S", "7D", "7C", "7H"]
        lines = log(R1, bad)
    with pytest.raises(LogError) as err:
        replay(lines)
    assert err.value.en.startswith("line 3: ") and expected in err.value.en, err.value.en


def test_replay_refuses_a_twelfth_round() -> None:
    rounds = [{"type": "round_end", "out": "Ana", "points": {"Ben": 1, "Cy": 2}}] * 12
    with pytest.raises(LogError, match=r"^line 13: the game is over"):
        replay(log(*rounds))


def test_replay_setup_errors_have_a_line() -> None:
    with pytest.raises(LogError, match="line 1: Les Cinq Rois is played by 2 to 7 players, not 8"):
        replay(log(players=NAMES[:8]))
    with pytest.raises(LogError, match="line 1: the dealer 'Bob'"):
        replay(
            [
                json.dumps(
                    {"type": "new_game", "game": "cinq-rois", "players": ["Ana", "Ben"], "dealer": "Bob"}
                )
            ]
        )


def test_replay_with_undo_and_comments() -> None:
    lines = log(R1, {"type": "round_end", "out": "Ben", "points": {"Ana": 9, "Cy": 9}}, {"type": "undo"})
    lines.insert(1, "# a comment")
    engine = replay(lines)
    assert isinstance(engine, CinqRoisGame)
    assert engine.round == 2 and engine.totals == {"Ana": 0, "Ben": 4, "Cy": 5}


def test_new_engine_returns_the_cinq_rois_engine() -> None:
    engine = new_engine(NewCinqRoisGame(players=["Ana", "Ben"]))
    assert isinstance(engine, CinqRoisGame) and engine.game == "cinq-rois"


def test_cli_replay_json_and_errors(tmp_path: Path) -> None:
    events = play_game(["Ana", "Ben", "Cy", "Dom"], random.Random(7))
    good = tmp_path / "game.jsonl"
    good.write_text("".join(e.to_json() + "\n" for e in events), encoding="utf-8")
    proc = run_cli("replay", str(good), "--json")
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout)
    assert set(state) >= SPEC_KEYS and state["finished"] is True and state["round"] == 12
    assert state["bonus"] is None and state["winners"]
    assert all(len(row["rounds"]) == 11 for row in state["standings"])
    assert state["last_round"]["arrangements"] is not None
    proc = run_cli("replay", str(good), "--lang", "en")
    assert proc.returncode == 0 and "Game over after 11 rounds" in proc.stdout

    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text(encoding="utf-8") + json.dumps(R1) + "\n", encoding="utf-8")
    proc = run_cli("replay", str(bad), "--json", "--lang", "en")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"companion: {bad}: line 13: the game is over")


# --- simulated players --------------------------------------------------------------------------


def test_double_deck() -> None:
    deck = double_deck()
    assert len(deck) == DECK_SIZE == 116
    assert sum(c.is_joker for c in deck) == 6
    assert max(deck.count(c) for c in deck if not c.is_joker) == 2
    assert {c.rank for c in deck if c.rank} == set(Rank) - {Rank.ACE, Rank.TWO}


def test_deal_starts_left_of_the_dealer() -> None:
    hands, stock = deal(["Ana", "Ben", "Cy"], 4, "Ben", random.Random(3))
    assert all(len(h) == 6 for h in hands.values()) and len(stock) == 116 - 18
    again, _ = deal(["Ana", "Ben", "Cy"], 4, "Ben", random.Random(3))
    assert again == hands  # the same seed deals the same cards


@pytest.mark.parametrize("players", [2, 5, 7])
def test_simulated_games_are_accepted_and_honest(players: int) -> None:
    names = NAMES[:players]
    for seed in range(3):
        rounds = list(play_rounds(names, random.Random(seed)))
        g = CinqRoisGame(NewCinqRoisGame(players=names))
        for r in rounds:
            assert fully_combines(r.hands[r.out], r.bonus)
            assert all(len(h) == r.round + 2 for h in r.hands.values())
            # Each player's turns are real: the final hand is the dealt hand plus taken cards
            # minus discarded ones.
            for p in names:
                hand = list(r.dealt[p])
                for turn in r.turns:
                    if turn.player == p:
                        hand.append(turn.took)
                        hand.remove(turn.discarded)
                assert sorted(map(str, hand)) == sorted(map(str, r.hands[p]))
            assert [t.went_out for t in r.turns].count(True) == 1
            assert all(t.last_turn for t in r.turns[-(players - 1) :])
            g.apply(r.event())
            assert g.last_round is not None
            # The engine's scores against the test's own reference (rules.md alone): the brute
            # force on hands it can search, and on bigger ones the engine's own arrangement
            # re-checked card by card (real blocks, the hand's cards, the points left).
            for p in names:
                final = r.hands[p]
                if len(final) <= 8:
                    assert g.last_round.scores[p] == brute_force(final, r.bonus), (p, final)
                    continue
                arr = solve(final, r.bonus)
                blocks = [tuple(sorted((pl.card for pl in c.cards), key=str)) for c in arr.combinations]
                assert all(valid_block(b, r.bonus) for b in blocks), blocks
                used = [c for b in blocks for c in b] + list(arr.left)
                assert sorted(map(str, used)) == sorted(map(str, final))
                assert g.last_round.scores[p] == sum(ref_points(c, r.bonus) for c in arr.left)
        assert g.finished and g.winners


def test_play_game_is_deterministic_and_replays() -> None:
    a = play_game(["Ana", "Ben", "Cy", "Dom", "Eve"], random.Random(11), dealer="Cy")
    b = play_game(["Ana", "Ben", "Cy", "Dom", "Eve"], random.Random(11), dealer="Cy")
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert len(a) == 12 and isinstance(a[0], NewCinqRoisGame) and a[0].dealer == "Cy"
    engine = replay(e.to_json() for e in a)
    assert isinstance(engine, CinqRoisGame) and engine.finished
    assert engine.scores == {p: [r.scores[p] for r in engine.results] for p in engine.players}
    assert play_game(["Ana", "Ben", "Cy", "Dom", "Eve"], random.Random(12)) != a


def test_card_parsing_in_events_is_lenient_on_case() -> None:
    g = game(2)
    end(g, out="Ana", left={"Ben": ["jk", "10s", "k*"]})
    assert g.last_round is not None and g.last_round.left is not None
    assert g.last_round.left["Ben"] == (Card.parse("JK"), Card.parse("10S"), Card.parse("K*"))
    assert g.totals["Ben"] == 50 + 10 + 13


# --- any event: accepted whole, or refused with nothing changed ---------------------------------


@st.composite
def round_ends(draw: st.DrawFn, players: list[str], n: int) -> dict[str, Any]:
    names = st.sampled_from([*players, "Zoe"])
    out = draw(names)
    way = draw(st.sampled_from(["points", "left", "hands", "two", "none"]))
    deck = [str(c) for c in double_deck()] + ["AS", "2H", "7"]
    size = n + 2
    event: dict[str, Any] = {"type": "round_end", "out": out}
    who = [p for p in players if p != out or way == "hands"]
    if draw(st.integers(0, 5)) == 0:
        who = draw(st.lists(names, unique=True, max_size=len(players) + 1))
    if way in ("points", "two"):
        event["points"] = {p: draw(st.integers(-3, 160)) for p in who}
    if way in ("left", "two"):
        event["left"] = {p: draw(st.lists(st.sampled_from(deck), max_size=size + 1)) for p in who}
    if way == "hands":
        event["hands"] = {
            p: draw(st.lists(st.sampled_from(deck), min_size=size - 1, max_size=size + 1)) for p in who
        }
    return event


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_round_end_is_all_or_nothing(data: st.DataObject) -> None:
    g = game(3)
    rounds = data.draw(st.integers(0, 11))
    for _ in range(rounds):
        end(g, out="Ben", points={"Ana": 3, "Cy": 4})
    raw = data.draw(round_ends(list(g.players), min(g.round, 11)))
    event = RoundEnd.model_validate(raw)
    before = g.to_json()
    try:
        g.check(event)
    except RuleError as err:
        assert err.en and err.fr and "\n" not in err.en
        with pytest.raises(RuleError):
            g.apply(event)
        assert g.to_json() == before
        return
    g.apply(event)
    last = g.last_round
    assert last is not None and last.scores[event.out] == 0 and g.round == rounds + 2
    assert {
        p: g.totals[p] - before_total
        for p, before_total in ((r["player"], r["points"]) for r in before["standings"])
    } == dict(last.scores)
    g.apply(Undo())
    assert g.to_json() == before


# --- what a player reads: each refusal, the summary and the exported state, word for word ---------

NBSP = "\u202f"


def after_four_rounds() -> CinqRoisGame:
    """Rounds 1-4 counted (Ana out, nobody scored): round 5 deals 7 cards, the 7s are bonus."""
    g = game(3)
    for _ in range(4):
        end(g, out="Ana", points={"Ben": 0, "Cy": 0})
    return g


def eleven_rounds() -> CinqRoisGame:
    g = game(2)
    for _ in range(11):
        end(g, out="Ana", points={"Ben": 1})
    return g


HANDS_1 = {"Ana": ["KS", "QD", "3C"], "Ben": ["5H", "6H", "JK"], "Cy": ["7S", "7D", "7C"]}


@pytest.mark.parametrize(
    "start,payload,en,fr",
    [
        (
            game,
            {"out": "Ana", "points": {"Ana": 0, "Ben": 4, "Cy": 5}},
            "Ana went out and scores 0: give points only for the others",
            f"Ana s'expose et marque 0{NBSP}: donnez les points des autres seulement",
        ),
        (
            game,
            {"out": "Ana", "left": {"Ana": [], "Ben": ["4S"], "Cy": []}},
            "Ana went out and scores 0: give the cards left only for the others",
            f"Ana s'expose et marque 0{NBSP}: donnez les cartes restantes des autres seulement",
        ),
        (
            game,
            {"out": "Ana", "points": {"Ben": -4, "Cy": 5}},
            "Ben cannot score -4: points are 0 or more",
            f"Ben ne peut pas marquer -4{NBSP}: les points sont positifs ou nuls",
        ),
        (
            game,
            {"out": "Ana", "points": {"Ben": 4, "Cy": 151}},
            "Cy cannot score 151: 3 cards are worth at most 150 points in round 1",
            f"Cy ne peut pas marquer 151{NBSP}: 3 cartes valent au plus 150 points à la donne 1",
        ),
        (
            game,
            {"out": "Ana", "points": {"Ben": 4}},
            "points must be given for every player but Ana: missing Cy",
            f"il faut les points de chaque joueur sauf Ana{NBSP}: il manque Cy",
        ),
        (
            lambda: game(4),
            {"out": "Ana", "left": {"Ben": ["4S"]}},
            "the cards left must be given for every player but Ana: missing Cy, Dom",
            f"il faut les cartes restantes de chaque joueur sauf Ana{NBSP}: il manque Cy, Dom",
        ),
        (
            game,
            {"out": "Ana", "points": {"Ben": 4, "Cy": 3, "Zoe": 1}},
            "unknown player 'Zoe' (players: Ana, Ben, Cy)",
            f"joueur inconnu 'Zoe' (joueurs{NBSP}: Ana, Ben, Cy)",
        ),
        (
            game,
            {"out": "Zoe", "points": {"Ben": 4, "Cy": 3}},
            "unknown player 'Zoe' (players: Ana, Ben, Cy)",
            f"joueur inconnu 'Zoe' (joueurs{NBSP}: Ana, Ben, Cy)",
        ),
        (
            game,
            {"out": "Cy", "hands": {"Ben": ["3S", "4S", "5S"], "Cy": ["3H", "4H", "5H"]}},
            "hands missing for Ana: give every player's whole hand, Cy's included",
            f"mains manquantes pour Ana{NBSP}: donnez la main entière de chaque joueur, "
            "y compris celle de Cy",
        ),
        (
            game,
            {"out": "Ana", "points": {"Ben": 4, "Cy": 3}, "left": {"Ben": ["4S"], "Cy": ["3S"]}},
            "a round_end gives exactly one of points, left or hands (got points and left)",
            f"une fin de donne indique un seul de points, left ou hands (ici{NBSP}: points et left)",
        ),
        (
            game,
            {"out": "Ana"},
            "a round_end gives exactly one of points, left or hands (got none)",
            f"une fin de donne indique un seul de points, left ou hands (ici{NBSP}: aucun)",
        ),
        (
            game,
            {"out": "Ana", "left": {"Ben": ["2H"], "Cy": []}},
            "Ben: 2H does not exist in Les Cinq Rois: the decks hold 3 to K in five suits and jokers, "
            "no Aces and no 2s (2s are not used)",
            None,
        ),
        (
            after_four_rounds,
            {"out": "Ana", "left": {"Ben": ["7H", "7H"], "Cy": ["7H"]}},
            "7H is given 3 times this round (Ben, Ben, Cy): the two decks hold each card only twice",
            f"7H est donné 3 fois dans cette donne (Ben, Ben, Cy){NBSP}: les deux jeux n'ont chaque "
            "carte que deux fois",
        ),
        (
            after_four_rounds,
            {"out": "Ana", "left": {"Ben": ["JK"] * 4, "Cy": ["JK"] * 3}},
            "7 jokers this round (Ben 4, Cy 3): the two decks hold only 6",
            f"7 jokers dans cette donne (Ben 4, Cy 3){NBSP}: les deux jeux n'en ont que 6",
        ),
        (
            game,
            {"out": "Ana", "hands": {**HANDS_1, "Ben": ["3H", "4H", "5H", "6H"]}},
            "Ben's hand has 4 cards: round 1 deals 3",
            f"la main de Ben a 4 cartes{NBSP}: la donne 1 en distribue 3",
        ),
        (
            game,
            {"out": "Ana", "hands": {**HANDS_1, "Ben": ["3H", "4H"]}},
            "Ben's hand has 2 cards: round 1 deals 3",
            f"la main de Ben a 2 cartes{NBSP}: la donne 1 en distribue 3",
        ),
        (
            game,
            {"out": "Ana", "left": {"Ben": ["3H", "4H", "5H", "6H"], "Cy": []}},
            "Ben cannot have 4 cards left: round 1 deals 3",
            f"Ben ne peut pas garder 4 cartes{NBSP}: la donne 1 en distribue 3",
        ),
        (
            game,
            {"out": "Ana", "hands": HANDS_1},
            "Ana cannot go out: 3C QD KS cannot be placed in a run or a set (bonus 3)",
            f"Ana ne peut pas s'exposer{NBSP}: 3C QD KS ne se placent dans aucune suite ni famille (atout 3)",
        ),
        (
            eleven_rounds,
            {"out": "Ana", "points": {"Ben": 1}},
            "the game is over: Les Cinq Rois has 11 rounds, there is no round 12",
            f"la partie est finie{NBSP}: Les Cinq Rois se joue en 11 donnes, il n'y a pas de donne 12",
        ),
    ],
)
def test_every_round_refusal_reads_whole_in_both_languages(
    start: Any, payload: dict[str, Any], en: str, fr: str | None
) -> None:
    """The whole sentence is what the player reads, in each language; nothing is applied."""
    g = start()
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.apply(RoundEnd.model_validate({"type": "round_end", **payload}))
    assert info.value.en == en
    if fr is not None:
        assert info.value.fr == typographic(fr)
    assert g.to_json() == before


def test_a_full_hand_in_a_set_and_six_jokers_are_accepted() -> None:
    """The limits are the decks': two copies of a card and six jokers are fine, and a hand of
    exactly the round's size is."""
    g = after_four_rounds()
    end(g, out="Ana", left={"Ben": ["JK"] * 4 + ["7H"], "Cy": ["JK"] * 2 + ["7H"]})
    assert g.totals == {"Ana": 0, "Ben": 220, "Cy": 120}
    g = game(3)
    end(g, out="Cy", hands=HANDS_1)
    assert g.totals == {"Ana": 45, "Ben": 0, "Cy": 0}


@pytest.mark.parametrize(
    "event,en,fr",
    [
        (
            Undo(),
            "there is nothing to undo: no round has been counted",
            f"rien à annuler{NBSP}: aucune donne n'a été comptée",
        ),
        (
            event_from_dict({"type": "press", "player": "Ana", "t_us": 5}),
            "press is not an event of Les Cinq Rois",
            "press n'est pas un événement des Cinq Rois",
        ),
    ],
)
def test_other_refusals_read_whole_in_both_languages(event: Any, en: str, fr: str) -> None:
    with pytest.raises(RuleError) as info:
        game(3).apply(event)
    assert (info.value.en, info.value.fr) == (en, typographic(fr))


def test_setup_refusals_read_whole_in_both_languages() -> None:
    with pytest.raises(SetupError) as few:
        game(1)
    assert (few.value.en, few.value.fr) == (
        "Les Cinq Rois is played by 2 to 7 players, not 1",
        "Les Cinq Rois se joue de 2 à 7 joueurs, pas 1",
    )
    with pytest.raises(SetupError) as stranger:
        game(3, dealer="Zoe")
    assert (stranger.value.en, stranger.value.fr) == (
        "the dealer 'Zoe' is not one of the players (Ana, Ben, Cy)",
        typographic("le donneur 'Zoe' n'est pas un des joueurs (Ana, Ben, Cy)"),
    )


def test_the_summary_is_in_french_unless_asked() -> None:
    g = game(3)
    assert g.summary() == g.summary("fr") != g.summary("en")
    assert g.headline() == g.headline("fr")


def summary_cases() -> list[tuple[str, Any, str, str]]:
    def points() -> CinqRoisGame:
        g = game(3)
        end(g, out="Ben", points={"Ana": 12, "Cy": 3})
        return g

    def left() -> CinqRoisGame:
        g = after_four_rounds()
        end(g, out="Ben", left={"Ana": ["7H", "JK", "KS"], "Cy": []})
        return g

    def hands() -> CinqRoisGame:
        g = game(3)
        end(g, out="Cy", hands=HANDS_1)
        return g

    return [
        (
            "new",
            lambda: game(3, dealer="Cy"),
            f"Les Cinq Rois — Donne 1{NBSP}: 3 cartes, atout 3, donneur Cy, Ana commence\n"
            f"Classement{NBSP}:\n"
            "   1. Ana    0   (—)\n"
            "   2. Ben    0   (—)\n"
            "   3. Cy     0   (—)",
            "Les Cinq Rois — Round 1: 3 cards, bonus 3, dealer Cy, Ana plays first\n"
            "Standings:\n"
            "   1. Ana    0   (—)\n"
            "   2. Ben    0   (—)\n"
            "   3. Cy     0   (—)",
        ),
        (
            "points",
            points,
            f"Les Cinq Rois — Donne 2{NBSP}: 4 cartes, atout 4, donneur Ben, Cy commence\n"
            f"Classement{NBSP}:\n"
            "   1. Ben    0   (0)\n"
            "   2. Cy     3   (3)\n"
            "   3. Ana   12   (12)\n"
            f"Donne 1 (atout 3){NBSP}: Ben s'expose{NBSP}; Ana 12, Cy 3",
            "Les Cinq Rois — Round 2: 4 cards, bonus 4, dealer Ben, Cy plays first\n"
            "Standings:\n"
            "   1. Ben    0   (0)\n"
            "   2. Cy     3   (3)\n"
            "   3. Ana   12   (12)\n"
            "Round 1 (bonus 3): Ben went out; Ana 12, Cy 3",
        ),
        (
            "left",
            left,
            f"Les Cinq Rois — Donne 6{NBSP}: 8 cartes, atout 8, donneur Cy, Ana commence\n"
            f"Classement{NBSP}:\n"
            "   1. Ben    0   (0 0 0 0 0)\n"
            "   2. Cy     0   (0 0 0 0 0)\n"
            "   3. Ana   83   (0 0 0 0 83)\n"
            f"Donne 5 (atout 7){NBSP}: Ben s'expose{NBSP}; Ana 83, Cy 0\n"
            "    Ana reste 7♥ Joker R♠ (83)\n"
            "    Cy  reste — (0)",
            "Les Cinq Rois — Round 6: 8 cards, bonus 8, dealer Cy, Ana plays first\n"
            "Standings:\n"
            "   1. Ben    0   (0 0 0 0 0)\n"
            "   2. Cy     0   (0 0 0 0 0)\n"
            "   3. Ana   83   (0 0 0 0 83)\n"
            "Round 5 (bonus 7): Ben went out; Ana 83, Cy 0\n"
            "    Ana left 7♥ JK K♠ (83)\n"
            "    Cy  left — (0)",
        ),
        (
            "hands",
            hands,
            f"Les Cinq Rois — Donne 2{NBSP}: 4 cartes, atout 4, donneur Ben, Cy commence\n"
            f"Classement{NBSP}:\n"
            "   1. Ben    0   (0)\n"
            "   2. Cy     0   (0)\n"
            "   3. Ana   45   (45)\n"
            f"Donne 1 (atout 3){NBSP}: Cy s'expose{NBSP}; Ana 45, Ben 0\n"
            "    Ana   reste 3♣ D♦ R♠ (45)\n"
            "    Ben [5♥ 6♥ Joker→7♥]  reste — (0)\n"
            "    Cy  [7♠ 7♦ 7♣]  reste — (0)",
            "Les Cinq Rois — Round 2: 4 cards, bonus 4, dealer Ben, Cy plays first\n"
            "Standings:\n"
            "   1. Ben    0   (0)\n"
            "   2. Cy     0   (0)\n"
            "   3. Ana   45   (45)\n"
            "Round 1 (bonus 3): Cy went out; Ana 45, Ben 0\n"
            "    Ana   left 3♣ Q♦ K♠ (45)\n"
            "    Ben [5♥ 6♥ JK→7♥]  left — (0)\n"
            "    Cy  [7♠ 7♦ 7♣]  left — (0)",
        ),
        (
            "over",
            eleven_rounds,
            "Les Cinq Rois — Partie terminée après 11 donnes\n"
            f"Classement{NBSP}:\n"
            "   1. Ana    0   (0 0 0 0 0 0 0 0 0 0 0)\n"
            "   2. Ben   11   (1 1 1 1 1 1 1 1 1 1 1)\n"
            f"Donne 11 (atout K){NBSP}: Ana s'expose{NBSP}; Ben 1\n"
            f"Gagnant{NBSP}: Ana (0 points)",
            "Les Cinq Rois — Game over after 11 rounds\n"
            "Standings:\n"
            "   1. Ana    0   (0 0 0 0 0 0 0 0 0 0 0)\n"
            "   2. Ben   11   (1 1 1 1 1 1 1 1 1 1 1)\n"
            "Round 11 (bonus K): Ana went out; Ben 1\n"
            "Winner: Ana (0 points)",
        ),
    ]


@pytest.mark.parametrize("name,start,fr,en", summary_cases(), ids=[c[0] for c in summary_cases()])
def test_the_summary_reads_the_table_in_both_languages(name: str, start: Any, fr: str, en: str) -> None:
    """What `companion replay` and the web feed print: the round to play, the standings with
    every round's score, the last round as entered (cards left, combinations with what each wild
    stands for), the winner."""
    g = start()
    assert g.summary("fr") == typographic(fr)
    assert g.summary("en") == en


def test_the_exported_state_of_a_new_game() -> None:
    assert game(3, dealer="Cy").to_json() == {
        "game": "cinq-rois",
        "players": ["Ana", "Ben", "Cy"],
        "round": 1,
        "rounds": 11,
        "cards": 3,
        "finished": False,
        "winners": [],
        "awaiting": "round_end",
        "bonus": "3",
        "dealer": "Cy",
        "first_player": "Ana",
        "standings": [{"player": p, "points": 0, "rounds": []} for p in ("Ana", "Ben", "Cy")],
        "last_round": None,
        "history": [],
    }


def test_the_exported_state_after_points_and_left() -> None:
    g = game(3)
    end(g, out="Ben", points={"Ana": 12, "Cy": 3})
    r1 = {"round": 1, "dealer": "Ana", "bonus": "3", "out": "Ben", "entry": "points"}
    assert g.to_json() == {
        "game": "cinq-rois",
        "players": ["Ana", "Ben", "Cy"],
        "round": 2,
        "rounds": 11,
        "cards": 4,
        "finished": False,
        "winners": [],
        "awaiting": "round_end",
        "bonus": "4",
        "dealer": "Ben",
        "first_player": "Cy",
        "standings": [
            {"player": "Ben", "points": 0, "rounds": [0]},
            {"player": "Cy", "points": 3, "rounds": [3]},
            {"player": "Ana", "points": 12, "rounds": [12]},
        ],
        "last_round": {
            **r1,
            "scores": {"Ana": 12, "Ben": 0, "Cy": 3},
            "arrangements": None,
            "left": None,
            "details": None,
        },
        "history": [{**r1, "scores": {"Ana": 12, "Ben": 0, "Cy": 3}}],
    }
    end(g, out="Cy", left={"Ana": ["JK", "4S"], "Ben": []})
    assert g.to_json()["last_round"] == {
        "round": 2,
        "dealer": "Ben",
        "bonus": "4",
        "out": "Cy",
        "entry": "left",
        "scores": {"Ana": 70, "Ben": 0, "Cy": 0},
        "arrangements": None,
        "left": {"Ana": ["JK", "4S"], "Ben": [], "Cy": []},
        "details": None,
    }


def test_the_exported_state_after_hands() -> None:
    g = game(3)
    end(g, out="Cy", hands=HANDS_1)

    def natural(card: str) -> dict[str, Any]:
        return {"card": card, "as": card, "wild": False}

    assert g.to_json()["last_round"] == {
        "round": 1,
        "dealer": "Ana",
        "bonus": "3",
        "out": "Cy",
        "entry": "hands",
        "scores": {"Ana": 45, "Ben": 0, "Cy": 0},
        "arrangements": {"Ana": [], "Ben": [["5H", "6H", "JK"]], "Cy": [["7S", "7D", "7C"]]},
        "left": {"Ana": ["3C", "QD", "KS"], "Ben": [], "Cy": []},
        "details": {
            "Ana": {"combinations": [], "left": ["3C", "QD", "KS"], "points": 45},
            "Ben": {
                "combinations": [[natural("5H"), natural("6H"), {"card": "JK", "as": "7H", "wild": True}]],
                "left": [],
                "points": 0,
            },
            "Cy": {"combinations": [[natural("7S"), natural("7D"), natural("7C")]], "left": [], "points": 0},
        },
    }


def test_the_exported_state_once_over() -> None:
    state = eleven_rounds().to_json()
    assert {k: state[k] for k in ("round", "cards", "finished", "winners", "awaiting")} == {
        "round": 12,
        "cards": None,
        "finished": True,
        "winners": ["Ana"],
        "awaiting": "nothing",
    }
    assert (state["bonus"], state["dealer"], state["first_player"]) == (None, None, None)
    assert [h["dealer"] for h in state["history"]] == ["Ana", "Ben"] * 5 + ["Ana"]
    assert [h["bonus"] for h in state["history"]] == [
        "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ]  # fmt: skip


def test_the_most_a_hand_can_score_is_accepted() -> None:
    """Three jokers in round 1 are worth 150: a score of exactly 150 is possible, so allowed."""
    g = game(3)
    end(g, out="Ana", points={"Ben": 150, "Cy": 0})
    assert g.totals["Ben"] == 150 == max_points(3)


def test_the_summary_shows_each_combination_and_what_each_wild_stands_for() -> None:
    """Two combinations side by side; a wild standing for another card shows it (a face card in
    the reader's language: V/D/R in French); a bonus card standing for itself shows no arrow; and
    the English text keeps a player's name as typed (French typography is for French only)."""
    g = CinqRoisGame(NewCinqRoisGame(players=["Ana", "Ben", "Cy !"], dealer=None))
    for _ in range(3):
        end(g, out="Ana", points={"Ben": 0, "Cy !": 0})
    # Round 4: 6 cards, the 6s are wild.
    end(
        g,
        out="Ana",
        hands={
            "Ana": ["3S", "4S", "5S", "8H", "8D", "8C"],
            "Ben": ["JK", "QS", "KS", "4H", "9D", "10C"],
            "Cy !": ["4S", "5S", "6S", "3C", "3D", "3H"],
        },
    )
    fr, en = g.summary("fr").splitlines()[-3:], g.summary("en").splitlines()[-3:]
    assert fr == [
        "    Ana  [3♠ 4♠ 5♠] [8♥ 8♦ 8♣]  reste — (0)",
        "    Ben  [Joker→V♠ D♠ R♠]  reste 4♥ 9♦ 10♣ (23)",
        f"    Cy{NBSP}! [3♥ 3♦ 3♣] [4♠ 5♠ 6♠]  reste — (0)",
    ]
    assert en == [
        "    Ana  [3♠ 4♠ 5♠] [8♥ 8♦ 8♣]  left — (0)",
        "    Ben  [JK→J♠ Q♠ K♠]  left 4♥ 9♦ 10♣ (23)",
        "    Cy ! [3♥ 3♦ 3♣] [4♠ 5♠ 6♠]  left — (0)",
    ]
