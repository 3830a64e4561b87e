"""Kilo de merde rules (spec/rules.md section 1), every switch, every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.cards import Rank
from companion.errors import LogError, RuleError
from companion.games.kilo.events import Draw, NewKiloGame, Press, Verdict
from companion.games.kilo.rules import DEALT_RANKS, KiloGame, pile_ranks
from companion.table.fold import replay
from companion.table.log import Undo

NAMES = ["Ana", "Bea", "Cy", "Dom", "Eve", "Fab", "Gus", "Hal", "Ivy", "Jo"]


def game(n: int = 4, rounds: int = 3, **rules: Any) -> KiloGame:
    return KiloGame(NewKiloGame(players=NAMES[:n], rounds=rounds, rules=rules))


def slap(g: KiloGame, stamps: dict[str, int], valid: bool = True, penalized: list[str] | None = None) -> None:
    for player, t in stamps.items():
        g.apply(Press(player=player, t_us=t))
    g.apply(Verdict(valid=valid, penalized=penalized))


def everyone(g: KiloGame, last: str, base: int = 1000) -> dict[str, int]:
    stamps = {p: base + 10 * i for i, p in enumerate(g.players) if p != last}
    stamps[last] = base + 10_000
    return stamps


def draw(g: KiloGame, player: str, card: str) -> None:
    g.apply(Draw.model_validate({"type": "draw", "player": player, "card": card}))


@pytest.mark.parametrize("n,size", [(3, 40), (4, 36), (5, 32), (6, 28), (7, 24), (8, 20), (9, 16), (10, 12)])
def test_deal_table_and_pile_size(n: int, size: int) -> None:
    g = game(n)
    assert g.pile_count == size
    assert Rank.SEVEN not in DEALT_RANKS[n] and Rank.ACE not in DEALT_RANKS[n]
    assert len(DEALT_RANKS[n]) == n  # one rank a player: four cards each
    assert {Rank.KING, Rank.QUEEN, Rank.JACK} <= DEALT_RANKS[n]
    assert pile_ranks(n) | DEALT_RANKS[n] == set(Rank)


def test_kilos_per_card_and_standings() -> None:
    g = game(4, rounds=9)
    for card, kilos in [("AS", 100), ("10H", 10), ("3", 3)]:
        slap(g, everyone(g, "Bea"))
        before = g.kilos("Bea")
        draw(g, "Bea", card)
        assert g.kilos("Bea") - before == kilos
    state = g.to_json()
    assert [s["player"] for s in state["standings"]] == ["Ana", "Cy", "Dom", "Bea"]
    assert state["standings"][3] == {"player": "Bea", "kilos": 113, "cards": ["AS", "10H", "3"], "flushes": 0}


def test_face_cards_value_when_in_the_pile() -> None:
    g = game(3, rounds=5)  # at 3 players only K Q J are dealt... so 2 is in the pile
    slap(g, everyone(g, "Cy"))
    draw(g, "Cy", "2C")
    assert g.kilos("Cy") == 2


def test_valid_slap_ends_the_round_and_the_game() -> None:
    g = game(3, rounds=2)
    slap(g, everyone(g, "Ana"))
    assert g.awaiting == "draw" and g.owed_draws == ("Ana",)
    draw(g, "Ana", "5H")
    assert g.round == 2 and g.awaiting == "play"
    slap(g, everyone(g, "Bea"))
    draw(g, "Bea", "9H")
    assert g.finished and g.awaiting == "nothing" and g.round == 2
    assert g.winners() == ["Cy"]
    assert g.history == ((5, 0, 0), (5, 9, 0))


def test_co_winners() -> None:
    g = game(3, rounds=1)
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "5H")
    assert g.winners() == ["Bea", "Cy"]


def test_flush_returns_cards_under_the_pile() -> None:
    g = game(4, rounds=9)
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "AS")
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "7H")
    assert g.kilos("Dom") == 0 and g.cards_of("Dom") == ()
    assert g.known_bottom == 2 and g.pile_count == 36 - 2 + 2
    assert g.flushes("Dom") == 1


def test_first_card_counts_keeps_a_first_seven() -> None:
    g = game(4, rounds=9, seven="first_card_counts")
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "7H")
    assert g.kilos("Dom") == 7
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "7S")  # not the first card: flush, both 7s go under
    assert g.kilos("Dom") == 0 and g.known_bottom == 2
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "7C")  # first card since the flush: kept again
    assert g.kilos("Dom") == 7


def test_flush_with_default_rule_even_as_first_card() -> None:
    g = game(4)
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "7")
    assert g.kilos("Ana") == 0 and g.known_bottom == 1


def test_returned_block_comes_up_only_after_the_rest() -> None:
    g = game(10, rounds=99)  # pile of 12: A, 7, 10 (four of each)
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "AS")
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "7S")  # AS and 7S now lie under the pile
    slap(g, everyone(g, "Bea"))
    with pytest.raises(
        RuleError,
        match="AS cannot be drawn: the Ace of spades already lies among the cards returned under the pile",
    ):
        draw(g, "Bea", "AS")
    draw(g, "Bea", "AH")
    for card in ["AD", "AC", "10S", "10H", "10D", "10C"]:
        slap(g, everyone(g, "Bea"))
        draw(g, "Bea", card)
    for player, card in [("Cy", "7H"), ("Dom", "7D"), ("Eve", "7C")]:  # each 7 flushes too
        slap(g, everyone(g, player))
        draw(g, player, card)
    assert g.pile_count == 5 and g.known_bottom == 5
    assert g.draw_source() == ("returned", {Rank.ACE: 1, Rank.SEVEN: 1})
    slap(g, everyone(g, "Fab"))
    with pytest.raises(RuleError, match="next ones are AS 7S"):
        draw(g, "Fab", "10")
    draw(g, "Fab", "A")  # rank only: the AS of the first block
    assert g.pile_count == 4 and g.cards_of("Fab")[0].rank is Rank.ACE


def test_empty_pile_ends_the_game_when_a_draw_is_owed() -> None:
    # With the default flush every 7 goes back under the pile, so the pile can only run out when
    # first 7s are kept.
    g = game(10, rounds=99, seven="first_card_counts")
    for player, card in [("Ana", "7S"), ("Bea", "7H"), ("Cy", "7D"), ("Dom", "7C")]:
        slap(g, everyone(g, player))
        draw(g, player, card)
        assert g.kilos(player) == 7
    for card in [f"{r}{s}" for r in ("A", "10") for s in "SHDC"]:
        slap(g, everyone(g, "Eve"))
        draw(g, "Eve", card)
    assert g.pile_count == 0 and not g.finished and g.awaiting == "play"
    slap(g, everyone(g, "Fab"))
    assert g.finished and g.end_reason == "pile_empty" and g.awaiting == "nothing"
    assert g.winners() == ["Fab", "Gus", "Hal", "Ivy", "Jo"]
    with pytest.raises(RuleError, match="game is over"):
        draw(g, "Fab", "5")


def test_tie_with_empty_pile_after_first_draw() -> None:
    g = game(10, rounds=99, seven="first_card_counts")
    for player, card in [("Ana", "7S"), ("Bea", "7H"), ("Cy", "7D"), ("Dom", "7C")]:
        slap(g, everyone(g, player))
        draw(g, player, card)
    for card in [f"{r}{s}" for r in ("A", "10") for s in "SHDC"][:-1]:
        slap(g, everyone(g, "Eve"))
        draw(g, "Eve", card)
    slap(g, {p: (5 if p in ("Ivy", "Jo") else 1) for p in g.players})  # Ivy and Jo tie last
    draw(g, "Ivy", "10C")
    assert g.finished and g.end_reason == "pile_empty" and g.owed_draws == () and g.awaiting == "nothing"


def test_false_slap_penalizes_the_claimant_and_the_round_goes_on() -> None:
    g = game(4)
    slap(g, {"Bea": 100, "Ana": 400}, valid=False)
    assert g.owed_draws == ("Bea",) and g.last_slap and g.last_slap.losers == ("Bea",)
    draw(g, "Bea", "5S")
    assert g.round == 1 and g.awaiting == "play"


def test_false_slap_with_named_players() -> None:
    g = game(4)
    slap(g, {"Bea": 100, "Ana": 400, "Cy": 420}, valid=False, penalized=["Cy", "Ana"])
    assert g.owed_draws == ("Ana", "Cy")  # seat order
    with pytest.raises(RuleError, match="did not press"):
        g2 = game(4)
        slap(g2, {"Bea": 100}, valid=False, penalized=["Dom"])


def test_tie_all_draw_and_reslap() -> None:
    g = game(4)
    slap(g, {"Ana": 0, "Bea": 5, "Cy": 90, "Dom": 90})
    assert g.owed_draws == ("Cy", "Dom") and g.last_slap and g.last_slap.margin_us == 0
    draw(g, "Cy", "5S")
    assert g.round == 1
    draw(g, "Dom", "5H")
    assert g.round == 2
    r = game(4, tie="reslap")
    slap(r, {"Ana": 0, "Bea": 5, "Cy": 90, "Dom": 90})
    assert r.owed_draws == () and r.last_slap and r.last_slap.losers == () and r.round == 1
    assert r.awaiting == "play"
    slap(r, {"Ana": 0, "Bea": 5, "Cy": 90, "Dom": 91})
    assert r.owed_draws == ("Dom",)


def test_timeout_non_pressers_draw() -> None:
    g = game(5, slap_timeout_ms=100)
    slap(g, {"Ana": 0, "Bea": 50_000, "Cy": 99_000, "Dom": 100_001})
    assert g.owed_draws == ("Dom", "Eve")
    assert g.last_slap and g.last_slap.margin_us is None


def test_presses_while_draws_are_owed_are_ignored() -> None:
    g = game(4)
    slap(g, everyone(g, "Dom"))
    g.apply(Press(player="Ana", t_us=99))
    assert g.ignored_presses == 1 and g.awaiting == "draw"
    draw(g, "Dom", "5C")
    assert g.awaiting == "play"


@pytest.mark.parametrize(
    "card,fragment",
    [
        ("KH", "KH cannot be drawn: Kings are dealt to the players at 4 players, the pile holds A 3-10"),
        ("2", "2s are dealt"),
        ("JK", "no joker"),
        ("7*", "suits S H D C"),
    ],
)
def test_impossible_cards(card: str, fragment: str) -> None:
    g = game(4)
    slap(g, everyone(g, "Ana"))
    with pytest.raises(RuleError) as info:
        draw(g, "Ana", card)
    assert fragment in str(info.value)
    assert info.value.message("fr") != info.value.message("en")


def test_a_fifth_ace_does_not_exist() -> None:
    g = game(4, rounds=9)
    for s in "SHDC":
        slap(g, everyone(g, "Ana"))
        draw(g, "Ana", "A" + s)
    slap(g, everyone(g, "Bea"))
    with pytest.raises(RuleError, match="all four Aces have already left the pile"):
        draw(g, "Bea", "A")


def test_suit_checked_against_cards_already_drawn() -> None:
    g = game(4, rounds=9)
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "9H")
    slap(g, everyone(g, "Bea"))
    with pytest.raises(RuleError, match="9 of hearts already lies in front of Ana"):
        draw(g, "Bea", "9h")
    draw(g, "Bea", "9")  # rank only is fine: three 9s are left


def test_refusals_that_change_nothing() -> None:
    g = game(4)
    before = json.dumps(g.to_json())
    with pytest.raises(RuleError, match="no slap to judge"):
        g.apply(Verdict(valid=True))
    with pytest.raises(RuleError, match="nobody does"):
        draw(g, "Ana", "5S")
    with pytest.raises(RuleError, match="nothing to undo"):
        g.apply(Undo())
    with pytest.raises(RuleError, match="unknown player 'Zed'"):
        g.apply(Press(player="Zed", t_us=1))
    assert json.dumps(g.to_json()) == before
    slap(g, everyone(g, "Dom"))
    with pytest.raises(RuleError, match="Dom must draw"):
        draw(g, "Ana", "5S")
    with pytest.raises(RuleError, match="draws are owed first"):
        g.apply(Verdict(valid=True))


def test_undo_a_draw_then_a_verdict() -> None:
    g = game(4)
    slap(g, everyone(g, "Dom"))
    after_verdict = json.dumps(g.to_json())
    draw(g, "Dom", "AS")
    assert g.round == 2
    g.apply(Undo())
    assert json.dumps(g.to_json()) == after_verdict
    g.apply(Undo())
    assert g.awaiting == "verdict" and g.owed_draws == ()
    assert len(g.window().order) == 4
    g.apply(Verdict(valid=False))
    assert g.owed_draws == (g.window().claimant or "Ana",) or g.owed_draws == ("Ana",)


def test_undo_keeps_presses_made_after_the_decision() -> None:
    g = game(4)
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "AS")
    g.apply(Press(player="Cy", t_us=50_000))  # a new window in round 2
    g.apply(Undo())  # the draw is undone: the press now falls while a draw is owed
    assert g.awaiting == "draw" and g.ignored_presses == 1


def test_undo_after_game_over_reopens_it() -> None:
    g = game(3, rounds=1)
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "5H")
    assert g.finished
    g.apply(Undo())
    assert not g.finished and g.awaiting == "draw"


def test_replay_errors_name_the_line() -> None:
    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C", "D"], "rounds": 2}',
        "",
        "# comment",
        '{"type": "press", "player": "A", "t_us": 5}',
        '{"type": "draw", "player": "A", "card": "KH"}',
    ]
    with pytest.raises(LogError) as info:
        replay(lines)
    assert str(info.value).startswith("line 5: A does not owe a draw")


def _refusal(g: KiloGame, card: str) -> RuleError:
    from companion.cards import parse_card

    with pytest.raises(RuleError) as info:
        g.check_card(parse_card(card))
    return info.value


def test_french_refusals_agree_in_gender_and_elide() -> None:
    g = game(3, rounds=20)
    assert "les Dames sont distribuées aux joueurs" in _refusal(g, "QH").fr
    assert "les Rois sont distribués aux joueurs" in _refusal(g, "KH").fr
    slap(g, everyone(g, "Bea"))
    draw(g, "Bea", "AS")
    err = _refusal(g, "AS")
    assert "l’As de pique est déjà devant Bea" in err.fr, err.fr
    assert "the Ace of spades already lies in front of Bea" in err.en


def test_sevens_under_the_pile_are_not_called_gone() -> None:
    """Regression: "les quatre 7 sont déjà sortis du tas" when they lay under the pile."""
    g = game(3, rounds=20)
    for suit in "SHDC":
        slap(g, everyone(g, "Cy"))
        draw(g, "Cy", "7" + suit)  # a flush: the 7 goes under the pile
    err = _refusal(g, "7")
    assert "sortis" not in err.fr and "already left" not in err.en
    assert "les 4 7 remis sous le tas ne reviennent qu’après les 36 cartes du dessus" in err.fr, err.fr
    assert "come up only after the 36 cards above" in err.en


def test_plural_forms_follow_the_number() -> None:
    from companion.i18n import t

    assert t("pile", "fr", count=1, bottom=1) == "Tas\u202f: 1 carte, dont 1 remise dessous"
    assert t("pile", "fr", count=2, bottom=3) == "Tas\u202f: 2 cartes, dont 3 remises dessous"
    assert t("pile", "en", count=1, bottom=0).startswith("Pile: 1 card,")
    assert t("pile", "en", count=0, bottom=0).startswith("Pile: 0 cards,")


def test_player_count_refusal_speaks_french_too() -> None:
    from companion.table.log import EventError, event_from_dict

    with pytest.raises(EventError) as info:
        event_from_dict({"type": "new_game", "game": "kilo", "players": ["A", "B"], "rounds": 1})
    assert info.value.fr == "le Kilo de merde se joue de 3 à 10 joueurs, pas 2"


def test_the_first_dealer_is_drawn_once_before_the_first_slap() -> None:
    from companion.games.kilo.events import Dealer

    g = game(4)
    assert g.dealer_open
    g.apply(Dealer(player="Cy"))
    assert g.dealer == "Cy" and g.to_json()["dealer"] == "Cy" and not g.dealer_open
    with pytest.raises(RuleError) as info:
        g.check(Dealer(player="Ana"))
    assert "premier donneur" in info.value.fr
    late = game(4)
    late.apply(Press(player="Ana", t_us=5))
    with pytest.raises(RuleError):
        late.check(Dealer(player="Ana"))
    with pytest.raises(RuleError):
        game(4).check(Dealer(player="Zed"))


def test_french_numbers_have_a_decimal_comma_and_spaced_percent() -> None:
    from companion.i18n import ms, t

    fr = t("odds", "fr", ace=0.113, seven=0.05, exp=15.53)
    assert "As 11\u202f%" in fr and "15,5 kg" in fr and "." not in fr.split("kg")[0]
    assert t("odds", "en", ace=0.113, seven=0.05, exp=15.53).startswith("Next card: Ace 11%,")
    assert ms(1_111_300, "fr") == "1\u202f111 ms" and ms(1_111_300, "en") == "1,111 ms"
    # A tenth tells two close slaps apart; above 10 ms it carries nothing ("+140,0 ms").
    assert ms(319_000, "fr") == "319 ms" and ms(140_000, "fr") == "140 ms"
    assert ms(3_200, "fr") == "3,2 ms" and ms(9_940, "en") == "9.9 ms"


def test_system_refusals_are_said_in_french_too() -> None:
    import errno

    from companion.i18n import os_reason

    err = FileNotFoundError(errno.ENOENT, "No such file or directory")
    assert os_reason(err, "fr") == "fichier ou dossier introuvable"
    assert os_reason(err, "en") == "No such file or directory"


def test_the_round_cut_short_by_the_empty_pile_is_in_the_history() -> None:
    # As test_empty_pile_ends_the_game_when_a_draw_is_owed: round 13 ends with the game, and its
    # kilos are the history's last row (the rounds before it each ended with a draw).
    g = game(10, rounds=99, seven="first_card_counts")
    for player, card in [("Ana", "7S"), ("Bea", "7H"), ("Cy", "7D"), ("Dom", "7C")]:
        slap(g, everyone(g, player))
        draw(g, player, card)
    for card in [f"{r}{s}" for r in ("A", "10") for s in "SHDC"]:
        slap(g, everyone(g, "Eve"))
        draw(g, "Eve", card)
    before = g.to_json()["history"]
    assert len(before) == 12
    slap(g, everyone(g, "Fab"))
    assert g.end_reason == "pile_empty"
    assert g.to_json()["history"] == [*before, [7, 7, 7, 7, 440, 0, 0, 0, 0, 0]]


def test_cards_returned_under_the_pile_are_named_in_both_languages() -> None:
    g = game(10, rounds=99)
    assert g.returned_blocks() == ()
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "AS")
    slap(g, everyone(g, "Ana"))
    draw(g, "Ana", "7S")
    assert [[str(c) for c in block] for block in g.returned_blocks()] == [["AS", "7S"]]
    slap(g, everyone(g, "Bea"))
    with pytest.raises(RuleError) as err:
        draw(g, "Bea", "AS")
    assert err.value.message("fr") == (
        "AS ne peut pas être pioché\u202f: l\u2019As de pique est déjà parmi les cartes remises sous le tas"
    )
    with pytest.raises(RuleError) as err:
        g.apply(Press(player="Zed", t_us=5))
    assert (
        err.value.message("en")
        == "unknown player 'Zed' (players: Ana, Bea, Cy, Dom, Eve, Fab, Gus, Hal, Ivy, Jo)"
    )
    assert "(joueurs\u202f: Ana, Bea, Cy, Dom, Eve, Fab, Gus, Hal, Ivy, Jo)" in err.value.message("fr")


def test_the_summary_is_the_narrators_in_the_language_asked() -> None:
    from companion.games.kilo.narrate import kilo_summary

    g = game(4)
    slap(g, everyone(g, "Dom"))
    assert g.summary() == kilo_summary(g, "fr") and g.summary().startswith("Kilo de merde — Manche 1/3")
    assert g.summary("en") == kilo_summary(g, "en") and g.summary("en").startswith(
        "Kilo de merde — Round 1/3"
    )


def test_the_exported_state_holds_every_field_by_its_name() -> None:
    """What `companion replay --json` and the phones read: each key spelled as documented."""
    from companion.games.kilo.odds import pile_odds

    g = game(4, rounds=3)
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "AS")
    slap(g, everyone(g, "Dom"))
    draw(g, "Dom", "7H")  # flushes the AS and itself under the pile
    slap(g, {"Bea": 5_000_000}, valid=False)
    draw(g, "Bea", "5C")
    g.apply(Press(player="Cy", t_us=9_000_000))
    g.apply(Press(player="Ana", t_us=9_000_120))
    assert g.to_json() == {
        "game": "kilo",
        "players": ["Ana", "Bea", "Cy", "Dom"],
        "rules": {
            "seven": "flush",
            "quads": "rank",
            "passing": "one_by_one",
            "tie": "all_draw",
            "slap_timeout_ms": 5000,
        },
        "round": 3,
        "rounds": 3,
        "finished": False,
        "end_reason": None,
        "winners": [],
        "awaiting": "verdict",
        "owed_draws": [],
        "starter": None,
        "dealer": None,
        "standings": [
            {"player": "Ana", "kilos": 0, "cards": [], "flushes": 0},
            {"player": "Cy", "kilos": 0, "cards": [], "flushes": 0},
            {"player": "Dom", "kilos": 0, "cards": [], "flushes": 1},
            {"player": "Bea", "kilos": 5, "cards": ["5C"], "flushes": 0},
        ],
        "pile": {"count": 35, "known_bottom": 2, **pile_odds(g).to_json()},
        "window": {
            "order": [{"player": "Cy", "t_us": 9_000_000}, {"player": "Ana", "t_us": 9_000_120}],
            "close_us": 14_000_000,
        },
        "last_slap": {
            "order": [{"player": "Bea", "t_us": 5_000_000}],
            "losers": ["Bea"],
            "margin_us": None,
            "valid": False,
            "tied": False,
            "non_pressers": ["Ana", "Cy", "Dom"],
        },
        "slaps": 3,
        "draws": 3,
        "ignored_presses": 0,
        "history": [[0, 0, 0, 100], [0, 0, 0, 0]],
    }
