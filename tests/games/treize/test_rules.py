"""13 feuilles rules (spec/rules.md section 3): passes, tricks, plays, the advanced match, refusals."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.errors import LogError, RuleError, SetupError
from companion.games import new_engine
from companion.games.treize.events import NewTreizeGame
from companion.games.treize.rules import (
    DEALT,
    MATCH_TARGET,
    LastPlay,
    TreizeGame,
    draw_lots,
    next_starter,
)
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import AnyEvent, event_from_dict
from tests.conftest import ROOT, run_cli, typographic

NAMES = ["Ana", "Bea", "Cy", "Dom", "Eve", "Fab", "Gus"]
EXAMPLE = ROOT / "docs" / "examples" / "treize" / "treize-advanced-with-plays.jsonl"


def game(n: int = 3, variant: str = "basic", starter: str | None = None) -> TreizeGame:
    setup = NewTreizeGame(players=NAMES[:n], variant=variant, starter=starter)  # type: ignore[arg-type]
    engine = new_engine(setup)
    assert isinstance(engine, TreizeGame)
    return engine


def ev(kind: str, **keys: Any) -> AnyEvent:
    return event_from_dict({"type": kind, **keys})


def play(player: str, value: int, count: int) -> AnyEvent:
    return ev("play", player=player, value=value, count=count)


def pass_(player: str, took: int | None = None) -> AnyEvent:
    return ev("pass", player=player) if took is None else ev("pass", player=player, took=took)


def run(g: TreizeGame, *events: AnyEvent) -> TreizeGame:
    for event in events:
        g.apply(event)
    return g


def refused(g: TreizeGame, event: AnyEvent, en: str, fr: str | None = None) -> None:
    """The event is refused with a sentence holding ``en`` (and ``fr``), and nothing changes."""
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.check(event)
    assert en in info.value.en, info.value.en
    if fr is not None:
        assert fr in info.value.fr, info.value.fr
    with pytest.raises(RuleError):
        g.apply(event)
    assert g.to_json() == before


def lines(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(e) for e in events]


HEAD3 = {"type": "new_game", "game": "treize", "players": ["Ana", "Bea", "Cy"]}


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cards_dealt_by_player_count(n: int) -> None:
    g = game(n)
    assert g.dealt == DEALT[n] == {3: 12, 4: 11, 5: 10, 6: 9}[n]
    assert g.counts() == dict.fromkeys(NAMES[:n], DEALT[n])


@pytest.mark.parametrize(
    "players,en,fr",
    [
        (
            ["Ana", "Bea"],
            "line 1: 13 feuilles is played by 3 to 6 players, not 2",
            "13 feuilles se joue de 3 à 6 joueurs, pas 2",
        ),
        (NAMES[:7], "line 1: 13 feuilles is played by 3 to 6 players, not 7", "pas 7"),
    ],
)
def test_player_count_is_refused(players: list[str], en: str, fr: str) -> None:
    with pytest.raises(LogError) as info:
        replay(lines({**HEAD3, "players": players}))
    assert str(info.value) == en
    assert fr in info.value.fr


def test_a_starter_who_is_not_playing_is_refused() -> None:
    with pytest.raises(LogError, match="line 1: the starter 'Zed' is not one of the players"):
        replay(lines({**HEAD3, "starter": "Zed"}))


# --- the spec's minimal log: passes only ---------------------------------------------------------


def test_minimal_log_passes_and_game_end() -> None:
    g = replay(
        lines(
            HEAD3,
            {"type": "pass", "player": "Bea"},
            {"type": "pass", "player": "Cy"},
            {"type": "pass", "player": "Ana"},
            {"type": "game_end", "winner": "Cy"},
        )
    )
    state = g.to_json()
    for key in ["game", "finished", "winners", "games_played", "starter", "passed", "standings"]:
        assert key in state
    assert state["game"] == "treize" and state["finished"] is True
    assert state["winners"] == ["Cy"] and state["games_played"] == 1
    assert state["starter"] is None and state["passed"] == [] and state["awaiting"] == "nothing"
    assert state["standings"] == [{"player": p, "points": 0} for p in ["Ana", "Bea", "Cy"]]
    assert state["tracking"] is False and state["counts"] is None and state["series"] is None


def test_a_trick_ends_by_itself_when_all_but_one_have_passed() -> None:
    g = game(4, starter="Ana")
    run(g, pass_("Cy"))
    assert g.passed == ("Cy",) and g.in_trick == ("Ana", "Bea", "Dom") and g.turn is None
    assert g.mode == "passes" and g.counts() is None and g.series is None and g.legal() is None
    run(g, pass_("Ana"), pass_("Bea"))
    # Dom did not pass: Dom clears the table and leads; everyone is back in.
    assert g.passed == () and g.in_trick == tuple(NAMES[:4])
    assert g.leader == "Dom" and g.turn == "Dom" and g.trick == 2
    run(g, pass_("Dom"))  # without plays, Dom may have led, seen the others play, then passed
    assert g.passed == ("Dom",)


def test_explicit_trick_end_without_plays() -> None:
    g = run(game(3), pass_("Bea"), ev("trick_end"))
    assert g.passed == () and g.trick == 2 and g.leader is None
    assert g.mode == "passes"


# --- drawing lots ----------------------------------------------------------------------------------


def test_draw_lots_before_the_first_card() -> None:
    g = game(3)
    assert g.awaiting == "starter" and g.starter is None and g.turn is None
    run(g, ev("starter", player="Bea"))
    assert g.awaiting == "play" and g.starter == "Bea" and g.turn == "Bea"
    assert g.starter_source == "lots"
    refused(
        g,
        ev("starter", player="Cy"),
        "Cy cannot be drawn to start: Bea starts game 1 (drawn by lot)",
        "Bea commence la partie 1 (tiré au sort)",
    )
    run(g, play("Bea", 5, 1))
    refused(g, ev("starter", player="Cy"), "game 1 has begun")


def test_a_starter_named_at_setup_cannot_be_drawn_again() -> None:
    g = game(3, starter="Cy")
    assert g.awaiting == "play" and g.turn == "Cy"
    refused(g, ev("starter", player="Ana"), "Cy starts game 1 (named at setup)")
    refused(g, play("Ana", 3, 1), "Ana cannot play 1 × 3: it is Cy's turn", "c’est à Cy de jouer")


def test_drawing_lots_for_the_screen() -> None:
    g = game(5)
    drawn = {draw_lots(random.Random(seed), g).player for seed in range(40)}
    assert drawn == set(NAMES[:5])  # everyone can be drawn
    run(g, draw_lots(random.Random(1), g))
    assert g.awaiting == "play"
    with pytest.raises(RuleError, match="no lots to draw"):
        draw_lots(random.Random(1), g)


def test_the_first_play_names_the_starter_when_no_lots_were_drawn() -> None:
    g = run(game(3), play("Cy", 8, 2))
    assert g.starter == "Cy" and g.starter_source == "first_play" and g.turn == "Ana"
    assert g.leader == "Cy" and g.awaiting == "play"


def test_a_pass_first_leaves_the_starter_unknown() -> None:
    g = run(game(3), pass_("Ana"))
    assert g.starter is None and g.awaiting == "play"


# --- the series helper: plays, turn, counts --------------------------------------------------------


def tracked() -> TreizeGame:
    """Ana 2x7, Bea 3x9, Cy passes taking a 7: the series 1x7 3x9, Ana to play."""
    return run(game(3, starter="Ana"), play("Ana", 7, 2), play("Bea", 9, 3), pass_("Cy", took=7))


def test_plays_follow_the_series_and_the_turn() -> None:
    g = tracked()
    assert g.mode == "plays" and g.tracking
    assert g.turn == "Ana" and g.passed == ("Cy",) and g.in_trick == ("Ana", "Bea")
    assert g.counts() == {"Ana": 10, "Bea": 9, "Cy": 13}
    assert str(g.series) == "1×7 3×9"
    legal = g.legal()
    assert legal is not None and legal.values == {
        **{v: 1 for v in range(1, 8)},
        **{v: 3 for v in range(9, 14)},
    }
    state = g.to_json()
    assert state["turn"] == "Ana" and state["in_trick"] == ["Ana", "Bea"]
    assert state["series"]["low"] == {"value": 7, "count": 1}
    assert state["allowed"]["fr"] == (
        "7 ou moins\u202f: 1 carte au moins\u202f; 9 ou plus\u202f: 3 "
        "cartes au moins\u202f; pas de carte entre 7 et 9"
    )
    run(g, play("Ana", 4, 1))
    assert g.turn == "Bea"  # Cy passed: skipped
    run(g, play("Bea", 12, 3))
    assert g.turn == "Ana" and g.last_play is not None and g.last_play.value == 12


def test_options_for_the_two_taps_and_the_card_taken() -> None:
    g = tracked()
    options = g.play_options("Ana")
    assert options[7] == range(1, 11) and options[9] == range(3, 11) and 8 not in options
    assert g.play_options("Bea") == {} and g.play_options("Cy") == {}  # not Bea's turn; Cy passed
    assert g.take_options() == (7, 9)
    start = game(3)  # nobody drawn yet: anyone may lead, with up to the 12 cards dealt
    assert start.play_options("Bea")[13] == range(1, 13)
    untracked = run(game(3), pass_("Ana"))
    assert untracked.play_options("Bea") == {} and untracked.take_options() == ()


@pytest.mark.parametrize(
    "event,en,fr",
    [
        (
            play("Ana", 9, 2),
            "Ana cannot play 2 × 9: at least 3 cards on the 9",
            "Ana ne peut pas jouer 2 × 9\u202f: 3 cartes au moins sur le 9",
        ),
        (
            play("Ana", 11, 2),
            "Ana cannot play 2 × 11: at least 3 cards above the 9 (3 lie on the 9)",
            "3 cartes au moins au-dessus du 9",
        ),
        (
            play("Ana", 8, 4),
            "Ana cannot play 4 × 8: no card between 7 and 9",
            "Ana ne peut pas jouer 4 × 8\u202f: pas de carte entre 7 et 9",
        ),
        (play("Bea", 3, 1), "Bea cannot play 1 × 3: it is Ana's turn", "c’est à Ana de jouer"),
        (
            play("Cy", 3, 1),
            "Cy cannot play 1 × 3: Cy has passed and is out until the trick ends",
            "Cy a passé et ne joue plus jusqu’à la fin de la manche",
        ),
        (
            play("Ana", 13, 11),
            "Ana cannot play 11 × 13: Ana holds only 10 cards",
            "Ana n’a que 10 cartes en main",
        ),
        (play("Zed", 3, 1), "unknown player 'Zed' (players: Ana, Bea and Cy)", "joueur inconnu 'Zed'"),
        (pass_("Cy", took=7), "Cy has already passed in this trick", "Cy a déjà passé dans cette manche"),
        (pass_("Bea", took=9), "Bea cannot pass: it is Ana's turn", None),
        (
            pass_("Ana"),
            'Ana passes: say which card Ana took from the table ("took": 7 or 9)',
            "dites quelle carte Ana a prise",
        ),
        (
            pass_("Ana", took=5),
            "Ana cannot take a 5: there is no 5 on the table (it holds 7 and 9)",
            "il n’y a pas de 5 sur la table",
        ),
        (pass_("Ana", took=14), "Ana cannot take a 14: cards go from 1 to 13", None),
        (ev("trick_end"), "the trick is not over: Ana and Bea are still in", "Ana et Bea jouent encore"),
        (ev("press", player="Ana", t_us=1), "press is not an event of 13 feuilles", None),
    ],
)
def test_refusals_with_plays(event: AnyEvent, en: str, fr: str | None) -> None:
    refused(tracked(), event, en, fr)


def test_a_single_value_on_the_table_needs_no_took() -> None:
    g = run(game(3, starter="Ana"), play("Ana", 6, 2), pass_("Bea"))
    assert str(g.series) == "1×6" and g.count("Bea") == 13


def test_the_player_left_alone_leads_and_cannot_pass() -> None:
    g = run(tracked(), pass_("Ana", took=9))
    assert g.passed == () and g.leader == "Bea" and g.turn == "Bea" and g.series is not None
    assert g.series.empty and g.count("Ana") == 11
    refused(
        g,
        pass_("Bea", took=9),
        "Bea cannot pass: all the others passed, so Bea cleared the table and leads this trick with a play",
        "Bea a vidé la table",
    )
    h = run(game(3, starter="Ana"), play("Ana", 2, 1), pass_("Bea", took=2))
    refused(
        h,
        pass_("Cy", took=2),
        "Cy cannot pass: there is no card on the table to take, Cy must play",
        "Cy ne peut pas passer\u202f: il n’y a aucune carte à prendre sur la table",
    )


def test_plays_are_refused_in_a_game_entered_without_them() -> None:
    g = run(game(3, starter="Ana"), pass_("Bea"))
    refused(
        g, play("Cy", 5, 1), "Cy cannot play 1 × 5 here: plays were not entered since the start of game 1"
    )


def test_the_play_that_empties_a_hand_ends_the_game() -> None:
    g = game(3, variant="advanced", starter="Ana")
    run(
        g,
        play("Ana", 1, 5),
        pass_("Bea", took=1),
        pass_("Cy", took=1),  # Ana 7 left
        play("Ana", 2, 5),
        pass_("Bea", took=2),
        pass_("Cy", took=2),
    )  # Ana 2 left, leads again
    assert g.counts() == {"Ana": 2, "Bea": 14, "Cy": 14}
    run(g, play("Ana", 3, 2))
    assert g.games_played == 1 and not g.finished
    last = g.history[-1]
    assert last.winner == "Ana" and last.by_plays and dict(last.left or ()) == {"Bea": 14, "Cy": 14}
    assert g.total("Bea") == 14 and g.total("Cy") == 14
    # A new deal: the highest total starts (Bea and Cy tied: Bea comes first after Ana).
    assert g.game_number == 2 and g.starter == "Bea" and g.turn == "Bea"
    assert g.starter_source == "totals" and g.mode is None and g.series is not None
    assert g.series.empty and g.counts() == dict.fromkeys(["Ana", "Bea", "Cy"], 12)


def test_game_end_while_plays_are_entered_uses_the_counts() -> None:
    g = run(game(3, variant="advanced"), play("Ana", 7, 2), play("Bea", 9, 3))
    run(g, ev("game_end", winner="Bea"))  # the table's word: the counts give the cards left
    assert dict(g.history[-1].scores) == {"Ana": 10, "Bea": 0, "Cy": 12}
    assert not g.history[-1].by_plays


# --- game_end and the advanced match ---------------------------------------------------------------


@pytest.mark.parametrize(
    "left,en",
    [
        (
            None,
            "Ana won game 1: in the advanced variant, 'left' must give the cards still held by Bea and Cy",
        ),
        ({"Bea": 3}, "'left' must give the cards still held by every player but the winner Ana: Cy missing"),
        ({"Bea": 3, "Cy": -1}, "'left' cannot give Cy -1 cards"),
        (
            {"Bea": 14, "Cy": 2},
            "Bea cannot hold 14 cards: 12 dealt plus 1 taken by passing in game 1 make 13",
        ),
        ({"Ana": 2, "Bea": 3, "Cy": 2}, "Ana won game 1 with an empty hand: 'left' cannot give Ana 2 cards"),
        ({"Bea": 3, "Cy": 2, "Zed": 1}, "unknown player 'Zed'"),
    ],
)
def test_game_end_refusals(left: dict[str, int] | None, en: str) -> None:
    g = run(game(3, variant="advanced"), pass_("Bea"))
    event = ev("game_end", winner="Ana") if left is None else ev("game_end", winner="Ana", left=left)
    refused(g, event, en)


def test_game_end_left_is_optional_in_basic_and_may_name_the_winner_with_zero() -> None:
    g = run(game(3), ev("game_end", winner="Bea", left={"Ana": 4, "Bea": 0, "Cy": 6}))
    assert g.finished and g.winners() == ["Bea"]
    assert [s["points"] for s in g.to_json()["standings"]] == [0, 0, 0]
    assert g.to_json()["last_game"]["left"] == {"Ana": 4, "Cy": 6}


def end(winner: str, **left: int) -> AnyEvent:
    return ev("game_end", winner=winner, left=left)


def test_basic_game_end_without_left_or_plays_knows_no_cards_left() -> None:
    g = run(game(4, starter="Dom"), ev("game_end", winner="Dom"))
    assert g.finished and g.winners() == ["Dom"] and g.to_json()["last_game"]["left"] is None


def test_advanced_match_to_twenty_with_the_next_starter_by_highest_total() -> None:
    g = run(game(3, variant="advanced"), ev("starter", player="Cy"), pass_("Ana"), end("Ana", Bea=7, Cy=3))
    assert g.games_played == 1 and [g.total(p) for p in g.players] == [0, 7, 3]
    assert g.starter == "Bea" and g.awaiting == "play" and g.passed == ()
    refused(g, ev("starter", player="Cy"), "Bea starts game 2 (the highest total starts)")
    run(g, end("Cy", Ana=9, Bea=12))
    # 19 is not 20: the match goes on; Bea (19) starts.
    assert not g.finished and g.total("Bea") == 19 and g.starter == "Bea"
    run(g, end("Bea", Ana=11, Cy=2))
    assert g.finished and [g.total(p) for p in g.players] == [20, 19, 5]
    assert g.winners() == ["Cy"] and g.starter is None and g.awaiting == "nothing"
    assert [s["player"] for s in g.to_json()["standings"]] == ["Cy", "Bea", "Ana"]
    assert [h["totals"] for h in g.to_json()["history"]] == [
        {"Ana": 0, "Bea": 7, "Cy": 3},
        {"Ana": 9, "Bea": 19, "Cy": 3},
        {"Ana": 20, "Bea": 19, "Cy": 5},
    ]
    assert g.to_json()["target"] == MATCH_TARGET == 20


def test_co_winners_on_equal_lowest_totals() -> None:
    g = run(game(4, variant="advanced"), end("Ana", Bea=11, Cy=0, Dom=3))
    assert not g.finished and g.starter == "Bea"
    run(g, end("Cy", Ana=0, Bea=11, Dom=2))
    assert g.finished and g.winners() == ["Ana", "Cy"]
    assert [s["points"] for s in g.to_json()["standings"]] == [0, 0, 5, 22]


def test_next_starter_ties_go_clockwise_from_the_winner() -> None:
    players = ("Ana", "Bea", "Cy", "Dom")
    totals = {"Ana": 5, "Bea": 9, "Cy": 2, "Dom": 9}
    assert next_starter(players, totals, "Ana") == "Bea"
    assert next_starter(players, totals, "Bea") == "Dom"
    assert next_starter(players, totals, "Cy") == "Dom"
    assert next_starter(players, {"Ana": 9, "Bea": 0, "Cy": 0, "Dom": 0}, "Ana") == "Ana"


@pytest.mark.parametrize(
    "variant,games,en,fr",
    [
        ("basic", 1, "the game is over: Ana won", "la partie est finie\u202f: Ana a gagné"),
        ("advanced", 2, "the match is over: a total reached 20, Ana won", "le match est fini"),
    ],
)
def test_nothing_after_the_end_but_undo(variant: str, games: int, en: str, fr: str) -> None:
    g = run(game(3, variant=variant), *[end("Ana", Bea=12, Cy=1)] * games)
    assert g.finished
    for event in [
        pass_("Bea"),
        play("Bea", 3, 1),
        ev("trick_end"),
        end("Bea", Ana=1, Cy=1),
        ev("starter", player="Cy"),
    ]:
        refused(g, event, en, fr)
    run(g, ev("undo"))
    assert not g.finished and g.games_played == games - 1


# --- undo --------------------------------------------------------------------------------------------


def test_undo_cancels_each_kind_of_decision_in_turn() -> None:
    g = game(3, variant="advanced")
    states = [g.to_json()]
    decisions = [
        ev("starter", player="Ana"),
        play("Ana", 1, 5),
        pass_("Bea", took=1),
        pass_("Cy", took=1),
        play("Ana", 2, 5),
        pass_("Bea", took=2),
        pass_("Cy", took=2),
        play("Ana", 3, 2),
        pass_("Ana"),
        ev("trick_end"),
        end("Cy", Ana=4, Bea=2),
    ]
    for event in decisions:
        g.apply(event)
        states.append(g.to_json())
    assert g.games_played == 2 and g.total("Bea") == 16
    for event, before in zip(reversed(decisions), reversed(states[:-1]), strict=True):
        g.apply(ev("undo"))
        assert g.last_undone == event
        assert g.to_json() == before
    refused(g, ev("undo"), "there is nothing to undo", "rien à annuler")


# --- replay, the CLI, the journal ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tail,number,en",
    [
        (
            [{"type": "pass", "player": "Bea"}, {"type": "pass", "player": "Bea"}],
            3,
            "Bea has already passed in this trick",
        ),
        ([{"type": "pass", "player": "Zoé"}], 2, "unknown player 'Zoé'"),
        (
            [
                {"type": "play", "player": "Ana", "value": 4, "count": 2},
                {"type": "play", "player": "Bea", "value": 9, "count": 3},
                {"type": "play", "player": "Cy", "value": 6, "count": 3},
            ],
            4,
            "no card between 4 and 9",
        ),
        (
            [
                {"type": "play", "player": "Ana", "value": 9, "count": 3},
                {"type": "play", "player": "Bea", "value": 9, "count": 2},
            ],
            3,
            "at least 3 cards on the 9",
        ),
        (
            [
                {"type": "play", "player": "Ana", "value": 4, "count": 2},
                {"type": "pass", "player": "Bea", "took": 4},
                {"type": "pass", "player": "Cy", "took": 4},
                {"type": "pass", "player": "Ana"},
            ],
            5,
            "Ana cannot pass: all the others passed, so Ana cleared the table and leads this trick",
        ),
        ([{"type": "play", "player": "Ana", "value": 14, "count": 1}], 2, "'value' is out of range"),
        ([{"type": "play", "player": "Ana", "value": 4}], 2, "a play event needs the key 'count'"),
        (
            [{"type": "pass", "player": "Ana"}, {"type": "game_end", "winner": "Bea"}],
            3,
            "'left' must give the cards still held by Ana and Cy",
        ),
        (
            [
                {"type": "game_end", "winner": "Bea", "left": {"Ana": 12, "Cy": 0}},
                {"type": "game_end", "winner": "Bea", "left": {"Ana": 12, "Cy": 0}},
                {"type": "pass", "player": "Ana"},
            ],
            4,
            "the match is over: a total reached 20, Bea and Cy won",
        ),
    ],
)
def test_replay_stops_at_the_bad_line(tail: list[dict[str, Any]], number: int, en: str) -> None:
    head = {**HEAD3, "variant": "advanced", "starter": "Ana"}
    with pytest.raises(LogError) as info:
        replay(lines(head, *tail))
    assert str(info.value).startswith(f"line {number}: ")
    assert en in str(info.value)


def test_the_documented_example_replays_through_the_cli() -> None:
    expected = json.loads(EXAMPLE.with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = run_cli("replay", str(EXAMPLE), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected
    assert expected["finished"] and expected["winners"] and expected["games_played"] >= 2
    for lang, word in (("fr", "Gagnant"), ("en", "Winner")):
        text = run_cli("replay", str(EXAMPLE), "--lang", lang)
        assert text.returncode == 0 and "13 feuilles" in text.stdout and word in text.stdout


def test_cli_reports_an_illegal_play_on_one_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(
        "\n".join(
            lines(
                {**HEAD3, "starter": "Ana"},
                {"type": "play", "player": "Ana", "value": 9, "count": 3},
                {"type": "play", "player": "Bea", "value": 11, "count": 1},
            )
        ),
        encoding="utf-8",
    )
    result = run_cli("replay", str(log), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        f"companion: {log}\u202f: ligne 3\u202f: Bea ne peut pas jouer 1 × 11\u202f: "
        "3 cartes au moins au-dessus du 9 (il y en a 3 sur le 9)"
    )


def test_summary_in_both_languages() -> None:
    g = tracked()
    fr, en = g.summary("fr"), g.summary("en")
    assert "13 feuilles" in fr and "À Ana de jouer" in fr and "Série\u202f: 1×7 3×9" in fr
    assert "Ana to play" in en and "Passed: Cy" in en and "nothing between 7 and 9" in en


def test_the_table_journals_and_resumes_a_game_with_plays(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewTreizeGame(players=NAMES[:4], variant="advanced"), {})
        for event in [ev("starter", player="Dom"), play("Dom", 6, 2), play("Ana", 3, 2)]:
            table.submit(event)
        with pytest.raises(RuleError, match="no card between 3 and 6"):
            table.submit(play("Bea", 4, 3))  # refused: nothing journaled
        state, seq = table.engine.to_json(), table.seq
        resumed = Table.resume(journal, table.game_id)
        assert resumed.seq == seq == 4 and resumed.engine.to_json() == state


def test_a_checkpoint_is_the_whole_state_with_its_own_containers() -> None:
    """Undo restores the clone: a field the clone forgets would come back wrong."""
    g = run(tracked(), play("Ana", 11, 3))
    state = g._s
    copy = state.clone()
    assert copy == state
    assert all(
        getattr(copy, f.name) is not getattr(state, f.name)
        for f in dataclasses.fields(state)
        if isinstance(getattr(state, f.name), dict | list)
    )


# --- what a player reads: each refusal, the summary and the exported state, word for word ---------


def cleared() -> TreizeGame:
    """Ana 2x6, Bea and Cy pass: Ana cleared the table and leads trick 2."""
    return run(game(3, starter="Ana"), play("Ana", 6, 2), pass_("Bea"), pass_("Cy"))


def advanced_passes() -> TreizeGame:
    """Four players, advanced, plays not entered: Cy drawn by lot, Dom and Ana passed."""
    return run(game(4, variant="advanced"), ev("starter", player="Cy"), pass_("Dom"), pass_("Ana"))


def second_game() -> TreizeGame:
    """Advanced match: Ana won game 1 (Bea kept 7 cards, Cy 3); Bea, highest, starts game 2."""
    return run(game(3, variant="advanced"), ev("starter", player="Cy"), pass_("Ana"), end("Ana", Bea=7, Cy=3))


def tied_match() -> TreizeGame:
    """Advanced match over in two games, Ana and Cy equal lowest at 0."""
    return run(game(4, variant="advanced"), end("Ana", Bea=11, Cy=0, Dom=3), end("Cy", Ana=0, Bea=11, Dom=2))


def basic_won_by_plays() -> TreizeGame:
    """Basic game ended by the play that emptied Ana's hand (12 dealt: 2, then 10)."""
    return run(cleared(), play("Ana", 1, 10))


def one_left() -> TreizeGame:
    """Ana 11x5 (1 card left), Bea takes the 5, Cy too: Ana leads trick 2 with her last card."""
    return run(game(3, starter="Ana"), play("Ana", 5, 11), pass_("Bea"), pass_("Cy"))


TOLD = "(play goes clockwise)"
TOLD_FR = "(on joue dans le sens des aiguilles d'une montre)"
NBSP = "\u202f"


@pytest.mark.parametrize(
    "start,event,en,fr",
    [
        (
            tracked,
            play("Bea", 3, 1),
            f"Bea cannot play 1 × 3: it is Ana's turn {TOLD}",
            f"Bea ne peut pas jouer 1 × 3{NBSP}: c'est à Ana de jouer {TOLD_FR}",
        ),
        (
            tracked,
            pass_("Bea", took=9),
            f"Bea cannot pass: it is Ana's turn {TOLD}",
            f"Bea ne peut pas passer{NBSP}: c'est à Ana de jouer {TOLD_FR}",
        ),
        (
            tracked,
            play("Cy", 3, 1),
            "Cy cannot play 1 × 3: Cy has passed and is out until the trick ends",
            f"Cy ne peut pas jouer 1 × 3{NBSP}: Cy a passé et ne joue plus jusqu'à la fin de la manche",
        ),
        (
            tracked,
            play("Zed", 3, 1),
            "unknown player 'Zed' (players: Ana, Bea and Cy)",
            f"joueur inconnu 'Zed' (joueurs{NBSP}: Ana, Bea et Cy)",
        ),
        (
            tracked,
            play("Ana", 13, 11),
            "Ana cannot play 11 × 13: Ana holds only 10 cards",
            f"Ana ne peut pas jouer 11 × 13{NBSP}: Ana n'a que 10 cartes en main",
        ),
        (
            tracked,
            pass_("Cy", took=7),
            "Cy has already passed in this trick: Cy is back in when the trick ends",
            f"Cy a déjà passé dans cette manche{NBSP}: Cy revient à la manche suivante",
        ),
        (
            tracked,
            pass_("Ana"),
            'Ana passes: say which card Ana took from the table ("took": 7 or 9)',
            f'Ana passe{NBSP}: dites quelle carte Ana a prise sur la table ("took"{NBSP}: 7 ou 9)',
        ),
        (
            tracked,
            pass_("Ana", took=14),
            "Ana cannot take a 14: cards go from 1 to 13",
            f"Ana ne peut pas prendre de 14{NBSP}: les cartes vont de 1 à 13",
        ),
        (
            tracked,
            pass_("Ana", took=0),
            "Ana cannot take a 0: cards go from 1 to 13",
            f"Ana ne peut pas prendre de 0{NBSP}: les cartes vont de 1 à 13",
        ),
        (
            tracked,
            ev("trick_end"),
            "the trick is not over: Ana and Bea are still in (with plays entered, a trick ends by "
            "itself when all but one have passed)",
            f"la manche n'est pas finie{NBSP}: Ana et Bea jouent encore (quand les coups sont saisis, "
            "une manche finit d'elle-même quand tous sauf un ont passé)",
        ),
        (
            tracked,
            ev("press", player="Ana", t_us=1),
            "press is not an event of 13 feuilles (pass, play, trick_end, game_end, starter, undo)",
            "press n'est pas un événement de 13 feuilles (pass, play, trick_end, game_end, starter, undo)",
        ),
        (
            tracked,
            ev("starter", player="Bea"),
            "Bea cannot be drawn to start: game 1 has begun (lots are drawn before the first card)",
            f"Bea ne peut pas être tiré au sort{NBSP}: la partie 1 a commencé (on tire au sort avant "
            "la première carte)",
        ),
        (
            lambda: game(3),
            ev("undo"),
            "there is nothing to undo: no pass, play or game result is in force",
            f"rien à annuler{NBSP}: aucune passe, aucun coup ni résultat n'est en vigueur",
        ),
        (
            lambda: run(game(3), pass_("Ana")),
            play("Bea", 3, 1),
            "Bea cannot play 1 × 3 here: plays were not entered since the start of game 1, so its "
            "series is unknown (the helper starts with the next game)",
            f"Bea ne peut pas jouer 1 × 3 ici{NBSP}: les coups n'ont pas été saisis depuis le début "
            "de la partie 1, sa série est inconnue (l'aide reprend à la partie suivante)",
        ),
        (
            lambda: game(3, starter="Ana"),
            ev("starter", player="Bea"),
            "Bea cannot be drawn to start: Ana starts game 1 (named at setup)",
            f"Bea ne peut pas être tiré au sort{NBSP}: Ana commence la partie 1 (désigné au départ)",
        ),
        (
            lambda: run(game(3), ev("starter", player="Cy")),
            ev("starter", player="Bea"),
            "Bea cannot be drawn to start: Cy starts game 1 (drawn by lot)",
            f"Bea ne peut pas être tiré au sort{NBSP}: Cy commence la partie 1 (tiré au sort)",
        ),
        (
            second_game,
            ev("starter", player="Cy"),
            "Cy cannot be drawn to start: Bea starts game 2 (the highest total starts)",
            f"Cy ne peut pas être tiré au sort{NBSP}: Bea commence la partie 2 (le plus haut total commence)",
        ),
        (
            cleared,
            pass_("Ana"),
            "Ana cannot pass: all the others passed, so Ana cleared the table and leads this trick "
            "with a play",
            f"Ana ne peut pas passer{NBSP}: tous les autres ont passé, donc Ana a vidé la table et "
            "entame cette manche en jouant",
        ),
        (
            # Not the one who cleared the table: the general reason, not "all the others passed".
            cleared,
            pass_("Bea"),
            "Bea cannot pass: there is no card on the table to take, Bea must play",
            f"Bea ne peut pas passer{NBSP}: il n'y a aucune carte à prendre sur la table, Bea doit jouer",
        ),
        (
            lambda: run(game(3, variant="advanced"), pass_("Bea")),
            ev("game_end", winner="Ana"),
            "Ana won game 1: in the advanced variant, 'left' must give the cards still held by Bea and Cy",
            f"Ana a gagné la partie 1{NBSP}: en variante avancée, 'left' doit donner les cartes qui "
            "restent à Bea et Cy",
        ),
        (
            lambda: run(game(4, variant="advanced"), pass_("Bea")),
            end("Ana", Bea=1),
            "'left' must give the cards still held by every player but the winner Ana: Cy and Dom missing",
            f"'left' doit donner les cartes qui restent à chaque joueur sauf le gagnant Ana{NBSP}: "
            "il manque Cy et Dom",
        ),
        (
            lambda: run(game(3, variant="advanced"), pass_("Bea")),
            end("Ana", Bea=14, Cy=2),
            "Bea cannot hold 14 cards: 12 dealt plus 1 taken by passing in game 1 make 13",
            f"Bea ne peut pas avoir 14 cartes{NBSP}: 12 distribuées plus 1 prise en passant dans la "
            "partie 1 font 13",
        ),
        (
            lambda: run(game(3, variant="advanced"), pass_("Bea"), pass_("Cy"), pass_("Bea")),
            end("Ana", Bea=15, Cy=2),
            "Bea cannot hold 15 cards: 12 dealt plus 2 taken by passing in game 1 make 14",
            f"Bea ne peut pas avoir 15 cartes{NBSP}: 12 distribuées plus 2 prises en passant dans la "
            "partie 1 font 14",
        ),
        (
            # The winner's own zero is fine; the check goes on to the others (Bea's 14).
            lambda: game(3, variant="advanced"),
            end("Ana", Ana=0, Bea=14, Cy=2),
            "Bea cannot hold 14 cards: 12 dealt plus 0 taken by passing in game 1 make 12",
            f"Bea ne peut pas avoir 14 cartes{NBSP}: 12 distribuées plus 0 prise en passant dans la "
            "partie 1 font 12",
        ),
        (
            lambda: game(3, variant="advanced"),
            end("Ana", Ana=1, Bea=4, Cy=2),
            "Ana won game 1 with an empty hand: 'left' cannot give Ana 1 card",
            f"Ana a gagné la partie 1 la main vide{NBSP}: 'left' ne peut pas donner 1 carte à Ana",
        ),
        (
            lambda: game(3, variant="advanced"),
            end("Ana", Bea=-2, Cy=2),
            "'left' cannot give Bea -2 cards: a hand holds 0 cards or more",
            f"'left' ne peut pas donner -2 cartes à Bea{NBSP}: une main compte 0 carte ou plus",
        ),
        (
            basic_won_by_plays,
            pass_("Bea"),
            "the game is over: Ana won (start a new game)",
            f"la partie est finie{NBSP}: Ana a gagné (commencez une nouvelle partie)",
        ),
        (
            tied_match,
            pass_("Bea"),
            "the match is over: a total reached 20, Ana and Cy won",
            # "victoire d'Ana", elided as French writes it (not "victoire de Ana").
            f"le match est fini{NBSP}: un total a atteint 20, victoire d\u2019Ana et Cy",
        ),
    ],
)
def test_every_refusal_reads_whole_in_both_languages(start: Any, event: AnyEvent, en: str, fr: str) -> None:
    """A refused event says, in one sentence in each language, what is wrong and what is right:
    the whole sentence is what the player reads, so the whole sentence is checked."""
    g = start()
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.apply(event)
    assert (info.value.en, info.value.fr) == (en, typographic(fr))
    assert g.to_json() == before


def test_refusals_before_the_game_in_both_languages() -> None:
    with pytest.raises(RuleError) as drawn:
        draw_lots(random.Random(1), game(3, starter="Ana"))
    assert (drawn.value.en, drawn.value.fr) == (
        "there are no lots to draw: who starts this game is already known",
        f"pas de tirage au sort{NBSP}: on sait déjà qui commence cette partie",
    )
    with pytest.raises(SetupError) as stranger:
        TreizeGame(NewTreizeGame(players=["Ana", "Bea", "Cy"], variant="basic", starter="Zed"))
    assert (stranger.value.en, stranger.value.fr) == (
        "the starter 'Zed' is not one of the players (Ana, Bea and Cy)",
        typographic("celui qui commence, 'Zed', n'est pas un des joueurs (Ana, Bea et Cy)"),
    )


def test_a_pass_may_take_the_highest_card_on_the_table() -> None:
    """Taking a 13 is a legal pass (cards go up to 13), and the card named is the one taken."""
    g = run(game(3, starter="Ana"), play("Ana", 7, 2), play("Bea", 13, 3), pass_("Cy", took=13))
    assert str(g.series) == "2×7 2×13" and g.count("Cy") == 13
    # The higher of two values, not the first listed.
    g = run(game(4, starter="Ana"), play("Ana", 7, 2), play("Bea", 9, 3), pass_("Cy", took=9))
    assert str(g.series) == "2×7 2×9"


def test_a_player_with_one_card_left_may_lead_with_it() -> None:
    g = one_left()
    assert g.count("Ana") == 1 and g.turn == "Ana"
    assert g.play_options("Ana") == {v: range(1, 2) for v in range(1, 14)}
    run(g, play("Ana", 13, 1))
    assert g.finished and g.winners() == ["Ana"]
    # Once the game is over nobody has anything to play.
    assert g.play_options("Bea") == {} and g.play_options("Ana") == {}


def test_lots_cannot_be_drawn_once_the_game_has_begun_whatever_came_first() -> None:
    """A pass then a trick end (plays not entered), or a play then a pass: the game has begun."""
    begun = "game 1 has begun (lots are drawn before the first card)"
    for events in (
        [pass_("Ana"), ev("trick_end")],
        [ev("trick_end")],
        [play("Ana", 6, 2), pass_("Bea")],
    ):
        g = run(game(4), *events)
        assert g.awaiting == "play"
        with pytest.raises(RuleError, match=re.escape(begun)):
            g.apply(ev("starter", player="Cy"))


def test_a_trick_end_first_means_plays_are_not_entered() -> None:
    g = run(game(4), ev("trick_end"))
    assert g.mode == "passes" and not g.tracking and g.count("Ana") is None and g.counts() is None
    assert g.trick == 2 and g.leader is None and g.turn is None


def test_why_the_starter_starts() -> None:
    assert game(3).starter_source is None
    assert game(3, starter="Ana").starter_source == "setup" and game(3, starter="Ana").leader == "Ana"
    assert run(game(3), ev("starter", player="Bea")).starter_source == "lots"
    assert run(game(3), play("Cy", 4, 1)).starter_source == "first_play"
    assert second_game().starter_source == "totals"


def test_the_last_play_shown_is_the_last_play_made_and_a_new_game_has_none() -> None:
    g = run(tracked(), play("Ana", 4, 2))
    assert g.last_play == LastPlay("Ana", 4, 2)
    g = run(game(3, variant="advanced", starter="Ana"), play("Ana", 6, 2), end("Ana", Bea=12, Cy=12))
    assert g.game_number == 2 and g.last_play is None


def test_play_again_keeps_the_setup() -> None:
    setup = NewTreizeGame(players=["Ana", "Bea", "Cy"], variant="advanced", starter="Bea")
    assert TreizeGame(setup).setup == setup


def test_the_summary_is_in_french_unless_asked() -> None:
    g = tracked()
    assert g.summary() == g.summary("fr") != g.summary("en")


@pytest.mark.parametrize(
    "start,fr,en",
    [
        (
            lambda: game(3),
            "13 feuilles (variante de base) — 0 partie jouée\n"
            "Partie 1, manche 1\n"
            f"À tirer au sort{NBSP}: qui commence\n"
            f"Série{NBSP}: -\n"
            f"Permis{NBSP}: n'importe quelle valeur, autant de cartes que voulu\n"
            f"Cartes en main{NBSP}: Ana 12, Bea 12, Cy 12",
            "13 feuilles (basic variant) — 0 games played\n"
            "Game 1, trick 1\n"
            "To draw by lot: who starts\n"
            "Series: -\n"
            "Allowed: any value, as many cards as you like\n"
            "Cards in hand: Ana 12, Bea 12, Cy 12",
        ),
        (
            tracked,
            "13 feuilles (variante de base) — 0 partie jouée\n"
            "Partie 1, manche 1\n"
            "À Ana de jouer\n"
            f"Ont passé{NBSP}: Cy\n"
            f"Série{NBSP}: 1×7 3×9\n"
            f"Permis{NBSP}: 7 ou moins{NBSP}: 1 carte au moins{NBSP}; 9 ou plus{NBSP}: 3 cartes au "
            f"moins{NBSP}; pas de carte entre 7 et 9\n"
            f"Cartes en main{NBSP}: Ana 10, Bea 9, Cy 13",
            "13 feuilles (basic variant) — 0 games played\n"
            "Game 1, trick 1\n"
            "Ana to play\n"
            "Passed: Cy\n"
            "Series: 1×7 3×9\n"
            "Allowed: 7 or lower: at least 1 card; 9 or higher: at least 3 cards; nothing between 7 and 9\n"
            "Cards in hand: Ana 10, Bea 9, Cy 13",
        ),
        (
            advanced_passes,
            "13 feuilles (variante avancée) — 0 partie jouée\n"
            "Partie 1, manche 1\n"
            f"Ont passé{NBSP}: Dom et Ana\n"
            f"Totaux{NBSP}: Ana 0, Bea 0, Cy 0, Dom 0",
            "13 feuilles (advanced variant) — 0 games played\n"
            "Game 1, trick 1\n"
            "Passed: Dom and Ana\n"
            "Totals: Ana 0, Bea 0, Cy 0, Dom 0",
        ),
        (
            second_game,
            "13 feuilles (variante avancée) — 1 partie jouée\n"
            "Partie 2, manche 1\n"
            "À Bea de jouer\n"
            f"Série{NBSP}: -\n"
            f"Permis{NBSP}: n'importe quelle valeur, autant de cartes que voulu\n"
            f"Cartes en main{NBSP}: Ana 12, Bea 12, Cy 12\n"
            f"Totaux{NBSP}: Ana 0, Cy 3, Bea 7\n"
            f"  partie 1{NBSP}: Ana gagne — Ana 0, Bea 7, Cy 3",
            "13 feuilles (advanced variant) — 1 game played\n"
            "Game 2, trick 1\n"
            "Bea to play\n"
            "Series: -\n"
            "Allowed: any value, as many cards as you like\n"
            "Cards in hand: Ana 12, Bea 12, Cy 12\n"
            "Totals: Ana 0, Cy 3, Bea 7\n"
            "  game 1: Ana wins — Ana 0, Bea 7, Cy 3",
        ),
        (
            tied_match,
            "13 feuilles (variante avancée) — 2 parties jouées\n"
            f"Terminé. Gagnants ex æquo{NBSP}: Ana et Cy\n"
            f"Totaux{NBSP}: Ana 0, Cy 0, Dom 5, Bea 22\n"
            f"  partie 1{NBSP}: Ana gagne — Ana 0, Bea 11, Cy 0, Dom 3\n"
            f"  partie 2{NBSP}: Cy gagne — Ana 0, Bea 11, Cy 0, Dom 2",
            "13 feuilles (advanced variant) — 2 games played\n"
            "Finished. Co-winners: Ana and Cy\n"
            "Totals: Ana 0, Cy 0, Dom 5, Bea 22\n"
            "  game 1: Ana wins — Ana 0, Bea 11, Cy 0, Dom 3\n"
            "  game 2: Cy wins — Ana 0, Bea 11, Cy 0, Dom 2",
        ),
        (
            basic_won_by_plays,
            "13 feuilles (variante de base) — 1 partie jouée\n"
            f"Terminé. Gagnant{NBSP}: Ana\n"
            f"  partie 1{NBSP}: Ana gagne — Ana 0, Bea 0, Cy 0",
            "13 feuilles (basic variant) — 1 game played\n"
            "Finished. Winner: Ana\n"
            "  game 1: Ana wins — Ana 0, Bea 0, Cy 0",
        ),
    ],
)
def test_the_summary_reads_the_table_in_both_languages(start: Any, fr: str, en: str) -> None:
    """What `companion replay` and the web feed print, line by line: whose turn, who passed, the
    series and what it allows, the cards in hand, the totals and each game's result."""
    g = start()
    assert g.summary("fr") == typographic(fr)
    assert g.summary("en") == en


ANY_VALUE = {str(v): 1 for v in range(1, 14)}
ZEROS3 = [{"player": p, "points": 0} for p in ("Ana", "Bea", "Cy")]


def test_the_exported_state_during_a_game_with_plays() -> None:
    assert tracked().to_json() == {
        "game": "treize",
        "players": ["Ana", "Bea", "Cy"],
        "variant": "basic",
        "finished": False,
        "winners": [],
        "games_played": 0,
        "starter": "Ana",
        "passed": ["Cy"],
        "standings": ZEROS3,
        "awaiting": "play",
        "game_number": 1,
        "trick": 1,
        "turn": "Ana",
        "leader": "Ana",
        "in_trick": ["Ana", "Bea"],
        "tracking": True,
        "dealt": 12,
        "counts": {"Ana": 10, "Bea": 9, "Cy": 13},
        "series": {
            "stacks": [{"value": 7, "count": 1}, {"value": 9, "count": 3}],
            "low": {"value": 7, "count": 1},
            "high": {"value": 9, "count": 3},
        },
        "allowed": {
            "fr": f"7 ou moins{NBSP}: 1 carte au moins{NBSP}; 9 ou plus{NBSP}: 3 cartes au moins{NBSP}; "
            "pas de carte entre 7 et 9",
            "en": "7 or lower: at least 1 card; 9 or higher: at least 3 cards; nothing between 7 and 9",
            "values": {**{str(v): 1 for v in range(1, 8)}, **{str(v): 3 for v in range(9, 14)}},
        },
        "target": None,
        "last_game": None,
        "history": [],
        "plays": 2,
        "passes": 1,
    }


def test_the_exported_state_without_plays_knows_no_series_turn_or_counts() -> None:
    assert advanced_passes().to_json() == {
        "game": "treize",
        "players": ["Ana", "Bea", "Cy", "Dom"],
        "variant": "advanced",
        "finished": False,
        "winners": [],
        "games_played": 0,
        "starter": "Cy",
        "passed": ["Dom", "Ana"],
        "standings": [{"player": p, "points": 0} for p in ("Ana", "Bea", "Cy", "Dom")],
        "awaiting": "play",
        "game_number": 1,
        "trick": 1,
        "turn": None,
        "leader": "Cy",
        "in_trick": ["Bea", "Cy"],
        "tracking": False,
        "dealt": 11,
        "counts": None,
        "series": None,
        "allowed": None,
        "target": 20,
        "last_game": None,
        "history": [],
        "plays": 0,
        "passes": 2,
    }


def test_the_exported_state_of_a_new_game_in_a_match() -> None:
    game1 = {
        "game": 1,
        "winner": "Ana",
        "starter": "Cy",
        "left": {"Bea": 7, "Cy": 3},
        "scores": {"Ana": 0, "Bea": 7, "Cy": 3},
        "totals": {"Ana": 0, "Bea": 7, "Cy": 3},
        "by_plays": False,
    }
    state = second_game().to_json()
    assert state == {
        "game": "treize",
        "players": ["Ana", "Bea", "Cy"],
        "variant": "advanced",
        "finished": False,
        "winners": [],
        "games_played": 1,
        "starter": "Bea",
        "passed": [],
        "standings": [
            {"player": "Ana", "points": 0},
            {"player": "Cy", "points": 3},
            {"player": "Bea", "points": 7},
        ],
        "awaiting": "play",
        "game_number": 2,
        "trick": 1,
        "turn": "Bea",
        "leader": "Bea",
        "in_trick": ["Ana", "Bea", "Cy"],
        "tracking": True,
        "dealt": 12,
        "counts": {"Ana": 12, "Bea": 12, "Cy": 12},
        "series": {"stacks": [], "low": None, "high": None},
        "allowed": {
            "fr": "n'importe quelle valeur, autant de cartes que voulu",
            "en": "any value, as many cards as you like",
            "values": ANY_VALUE,
        },
        "target": 20,
        "last_game": game1,
        "history": [game1],
        "plays": 0,
        "passes": 1,
    }


def test_the_exported_state_once_over() -> None:
    game1 = {
        "game": 1,
        "winner": "Ana",
        "starter": "Ana",
        "left": {"Bea": 13, "Cy": 13},
        "scores": {"Ana": 0, "Bea": 0, "Cy": 0},
        "totals": {"Ana": 0, "Bea": 0, "Cy": 0},
        "by_plays": True,
    }
    assert basic_won_by_plays().to_json() == {
        "game": "treize",
        "players": ["Ana", "Bea", "Cy"],
        "variant": "basic",
        "finished": True,
        "winners": ["Ana"],
        "games_played": 1,
        "starter": None,
        "passed": [],
        "standings": ZEROS3,
        "awaiting": "nothing",
        "game_number": 1,
        "trick": 2,
        "turn": None,
        "leader": None,
        "in_trick": [],
        "tracking": True,
        "dealt": 12,
        "counts": None,
        "series": None,
        "allowed": None,
        "target": None,
        "last_game": game1,
        "history": [game1],
        "plays": 2,
        "passes": 2,
    }
    over = tied_match().to_json()
    assert over["history"][0]["starter"] is None and over["history"][1]["starter"] == "Bea"
    assert [h["game"] for h in over["history"]] == [1, 2] and over["leader"] is None


def test_an_english_summary_keeps_names_as_typed() -> None:
    """French typography (a narrow space before ! ? : ;) is for the French text only."""
    g = TreizeGame(NewTreizeGame(players=["Ana", "Bea", "Cy !"], variant="basic", starter="Cy !"))
    assert "Cy ! to play" in g.summary("en")
    assert f"À Cy{NBSP}! de jouer" in g.summary("fr")
