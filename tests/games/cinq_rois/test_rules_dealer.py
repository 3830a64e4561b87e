"""The ``dealer`` event of Les Cinq Rois: the first dealer drawn by lot at the table."""

from __future__ import annotations

import pytest

from companion.errors import LogError, RuleError
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.table.fold import replay
from companion.table.log import Undo
from tests.conftest import typographic


def game(dealer: str | None = None) -> CinqRoisGame:
    return CinqRoisGame(NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer=dealer))


def test_drawn_dealer_deals_round_one_and_the_deal_moves_on() -> None:
    g = game()
    assert g.dealer_open and g.dealer == "Ana"  # the default until a draw
    g.apply(Dealer(player="Cy"))
    assert not g.dealer_open and g.dealer_drawn == "Cy"
    assert (g.dealer, g.first_player) == ("Cy", "Ana")
    g.apply(RoundEnd(out="Ana", points={"Ben": 3, "Cy": 4}))
    assert g.dealer == "Ana" and g.results[0].dealer == "Cy"


@pytest.mark.parametrize(
    "setup,before,words",
    [
        ("Ben", [], "Ben is named in new_game"),
        (None, [Dealer(player="Ben")], "Ben was drawn (undo first)"),
        (None, [RoundEnd(out="Ana", points={"Ben": 1, "Cy": 2})], "round 1 is already counted"),
    ],
)
def test_a_dealer_that_cannot_be_drawn_is_refused_and_changes_nothing(
    setup: str | None, before: list[object], words: str
) -> None:
    g = game(setup)
    for event in before:
        g.apply(event)  # type: ignore[arg-type]
    state = g.to_json()
    with pytest.raises(RuleError) as err:
        g.apply(Dealer(player="Cy"))
    assert words in err.value.en and err.value.fr
    assert g.to_json() == state
    with pytest.raises(RuleError, match=r"unknown player 'Zed'"):
        g.check(Dealer(player="Zed"))


def test_undo_cancels_the_draw() -> None:
    g = game()
    g.apply(Dealer(player="Ben"))
    g.apply(Undo())
    assert g.dealer_open and g.dealer == "Ana" and g.last_undone == Dealer(player="Ben")
    with pytest.raises(RuleError):
        g.apply(Undo())


def test_replay_reads_it_and_names_the_line() -> None:
    head = '{"type": "new_game", "game": "cinq-rois", "players": ["Ana", "Ben"]}'
    g = replay([head, '{"type": "dealer", "player": "Ben"}'])
    assert g.to_json()["dealer"] == "Ben"
    with pytest.raises(LogError, match=r"^line 3: Ana cannot be drawn"):
        replay([head, '{"type": "dealer", "player": "Ben"}', '{"type": "dealer", "player": "Ana"}'])


@pytest.mark.parametrize(
    "setup,before,en,fr",
    [
        (
            # A dealer named in new_game stays named: no "undo first", undo cannot change it.
            "Ben",
            [],
            "Cy cannot be drawn to deal first: Ben is named in new_game",
            "Cy ne peut pas être tiré pour donner en premier\u202f: Ben est nommé dans new_game",
        ),
        (
            None,
            [Dealer(player="Ben")],
            "Cy cannot be drawn to deal first: Ben was drawn (undo first)",
            "Cy ne peut pas être tiré pour donner en premier\u202f: Ben a été tiré au sort (annulez d'abord)",
        ),
        (
            None,
            [Dealer(player="Ben"), RoundEnd(out="Ana", points={"Ben": 1, "Cy": 2})],
            "Cy cannot be drawn to deal first: round 1 is already counted (Ben dealt it)",
            "Cy ne peut pas être tiré pour donner en premier\u202f: la donne 1 est déjà comptée "
            "(Ben l'a distribuée)",
        ),
    ],
)
def test_a_refused_draw_says_who_deals_and_what_would_help(
    setup: str | None, before: list[object], en: str, fr: str
) -> None:
    g = game(setup)
    for event in before:
        g.apply(event)  # type: ignore[arg-type]
    with pytest.raises(RuleError) as err:
        g.check(Dealer(player="Cy"))
    assert (err.value.en, err.value.fr) == (en, typographic(fr))


def test_the_drawn_dealer_and_undoing_it() -> None:
    g = game()
    assert g.dealer_drawn is None
    g.apply(Dealer(player="Cy"))
    assert g.dealer_drawn == "Cy" and g.dealer_of(2) == "Ana" and g.first_player_of(1) == "Ana"
    g.apply(Undo())
    assert g.dealer_drawn is None and g.dealer_open and g.dealer == "Ana"
    assert g.last_undone == Dealer(player="Cy")
    # A dealer drawn again after the undo deals round 1 as if the first draw never happened.
    g.apply(Dealer(player="Ben"))
    assert (g.dealer, g.first_player) == ("Ben", "Cy")
