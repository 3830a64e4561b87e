"""games/kilo/strings.py: the French of a refused draw agrees with the rank's gender (a Dame is
feminine), the sentences the rules engine raises (tests/games/kilo/test_rules.py checks them through it)."""

from __future__ import annotations

from companion.cards import Card, CardName, Rank, RankName
from companion.text import Text


def dealt(card: Card, rank: Rank) -> Text:
    return Text("kilo.card.dealt", card=card, ranks=RankName(rank, plural=True), players=4, held="A")


def all_gone(card: Card, rank: Rank) -> Text:
    return Text("kilo.card.all_gone", card=card, ranks=RankName(rank, plural=True))


def returned_later(card: Card, rank: Rank, under: int, above: int) -> Text:
    """As ``KiloGame._none_left`` says it."""
    returned = (
        Text("kilo.card.returned.one", rank=RankName(rank, the=True))
        if under == 1
        else Text("kilo.card.returned.many", under=under, rank=RankName(rank, plural=True))
    )
    return Text("kilo.card.returned_later", card=card, rank=RankName(rank), returned=returned, above=above)


def test_a_queen_agrees_in_the_feminine_and_a_king_in_the_masculine() -> None:
    queen, king = Card.parse("QH"), Card.parse("KH")
    assert "les Dames sont distribuées aux joueurs" in dealt(queen, Rank.QUEEN).fr
    assert "les Rois sont distribués aux joueurs" in dealt(king, Rank.KING).fr
    assert "les quatre Dames sont déjà sorties du tas" in all_gone(queen, Rank.QUEEN).fr
    assert "les quatre Rois sont déjà sortis du tas" in all_gone(king, Rank.KING).fr


def test_returned_cards_agree_in_gender_and_number() -> None:
    queen, king = Card.parse("Q"), Card.parse("K")
    one_queen = returned_later(queen, Rank.QUEEN, 1, 7).fr
    assert "plus aucune Dame au-dessus" in one_queen and "la Dame remise sous le tas ne revient" in one_queen
    two_queens = returned_later(queen, Rank.QUEEN, 2, 7).fr
    assert "les 2 Dames remises sous le tas ne reviennent qu\u2019après les 7 cartes" in two_queens
    one_king = returned_later(king, Rank.KING, 1, 7).fr
    assert "plus aucun Roi au-dessus" in one_king and "le Roi remis sous le tas ne revient" in one_king
    assert (
        "the 1 returned there comes up only after the 7 cards above"
        in returned_later(king, Rank.KING, 1, 7).en
    )
    assert "the 2 returned there come up" in returned_later(king, Rank.KING, 2, 7).en


def test_a_card_in_view_is_named_with_its_article() -> None:
    where = Text("kilo.card.in_front_of", player="Ana")
    said = Text(
        "kilo.card.already_lies", card=Card.parse("QS"), named=CardName(Card.parse("QS")), where=where
    )
    assert said.fr.endswith("la Dame de pique est déjà devant Ana")
    assert said.en.endswith("the Queen of spades already lies in front of Ana")
