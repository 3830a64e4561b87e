from __future__ import annotations

import pytest

from companion.cards import RANKS, Card, Rank, Suit, describe_ranks, parse_card
from companion.errors import CardError


@pytest.mark.parametrize(
    "text,rank,suit",
    [
        ("7H", Rank.SEVEN, Suit.HEARTS),
        ("10S", Rank.TEN, Suit.SPADES),
        ("QC", Rank.QUEEN, Suit.CLUBS),
        ("K*", Rank.KING, Suit.STARS),
        ("ad", Rank.ACE, Suit.DIAMONDS),
        ("10s", Rank.TEN, Suit.SPADES),
        ("7", Rank.SEVEN, None),
        ("10", Rank.TEN, None),
        ("j", Rank.JACK, None),
    ],
)
def test_parse(text: str, rank: Rank, suit: Suit | None) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


def test_joker_and_printing_round_trip() -> None:
    assert parse_card("JK").is_joker and parse_card("jk").is_joker
    for text in ["7H", "10S", "QC", "K*", "JK", "7", "10", "A"]:
        card = parse_card(text)
        assert str(card) == text
        assert eval(repr(card), {"Card": Card}) == card  # repr round-trips


@pytest.mark.parametrize("bad", ["", "1H", "11", "HH", "7X", "10 S", "Z", "JKH", "0S"])
def test_bad_cards_are_refused_with_the_notation(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert "7H" in str(info.value)  # says what would be right
    assert isinstance(info.value, ValueError)
    assert "valeur" in info.value.message("fr")


def test_names_in_both_languages() -> None:
    assert parse_card("QH").name_in("fr") == "Dame de cœur"
    assert parse_card("QH").name_in("en") == "Queen of hearts"
    assert parse_card("K*").name_in("fr") == "Roi d'étoile"
    assert parse_card("7").name_in("en") == "7"


def test_describe_ranks_compacts_runs() -> None:
    pile_at_4 = set(RANKS) - {Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TWO}
    assert describe_ranks(pile_at_4) == "A 3-10"
    assert describe_ranks({Rank.ACE, Rank.SEVEN}) == "A 7"


def test_cards_in_a_line_of_text_read_as_the_language_writes_them() -> None:
    from companion.cards import card_short, cards_short, parse_card

    hand = [parse_card(c) for c in ("QH", "4C", "10S", "JD", "K*", "JK", "7")]
    assert cards_short(hand, "fr") == "D♥ 4♣ 10♠ V♦ R★ Joker 7"
    assert cards_short(hand, "en") == "Q♥ 4♣ 10♠ J♦ K★ JK 7"
    assert "C" not in card_short(parse_card("4C"), "fr")  # C would read as cœur
