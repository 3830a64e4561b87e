"""games/kilo/refusals.py: the French of a refused draw agrees with the rank's gender (a Dame is
feminine), the sentences the rules engine raises (tests/test_kilo.py checks them through it)."""

from __future__ import annotations

from companion.cards import Card, Rank
from companion.games.kilo import refusals


def test_a_queen_agrees_in_the_feminine_and_a_king_in_the_masculine() -> None:
    queen, king = Card.parse("QH"), Card.parse("KH")
    assert "les Dames sont distribuées aux joueurs" in refusals.dealt(queen, Rank.QUEEN, 4, "A")[1]
    assert "les Rois sont distribués aux joueurs" in refusals.dealt(king, Rank.KING, 4, "A")[1]
    assert "les quatre Dames sont déjà sorties du tas" in refusals.all_gone(queen, Rank.QUEEN)[1]
    assert "les quatre Rois sont déjà sortis du tas" in refusals.all_gone(king, Rank.KING)[1]


def test_returned_cards_agree_in_gender_and_number() -> None:
    queen, king = Card.parse("Q"), Card.parse("K")
    one_queen = refusals.returned_later(queen, Rank.QUEEN, 1, 7)[1]
    assert "plus aucune Dame au-dessus" in one_queen and "la Dame remise sous le tas ne revient" in one_queen
    two_queens = refusals.returned_later(queen, Rank.QUEEN, 2, 7)[1]
    assert "les 2 Dames remises sous le tas ne reviennent qu'après les 7 cartes" in two_queens
    one_king = refusals.returned_later(king, Rank.KING, 1, 7)[1]
    assert "plus aucun Roi au-dessus" in one_king and "le Roi remis sous le tas ne revient" in one_king
    assert (
        "the 1 returned there comes up only after the 7 cards above"
        in refusals.returned_later(king, Rank.KING, 1, 7)[0]
    )
    assert "the 2 returned there come up" in refusals.returned_later(king, Rank.KING, 2, 7)[0]


def test_a_card_in_view_is_named_with_its_article() -> None:
    en, fr = refusals.already_lies(Card.parse("QS"), Rank.QUEEN, ("in front of Ana", "devant Ana"))
    assert fr.endswith("la Dame de pique est déjà devant Ana")
    assert en.endswith("the Queen of spades already lies in front of Ana")
