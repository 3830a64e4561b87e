"""Card notation shared by all three games: rank then suit, no space (``7H``, ``10S``, ``K*``, ``JK``).

A card may also be written by rank alone (``"7"``, ``"10"``) where only the rank matters, as in the
draws of Kilo de merde; such a card has ``suit is None``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from companion.errors import CardError


class Rank(Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def order(self) -> int:
        """1 for the Ace up to 13 for the King."""
        return _RANK_ORDER[self]

    def name_in(self, lang: str, plural: bool = False) -> str:
        names = _RANK_NAMES_FR if lang == "fr" else _RANK_NAMES_EN
        singular, many = names[self]
        return many if plural else singular

    @property
    def feminine_fr(self) -> bool:
        """French agreement: "les Dames sont distribuées", "les Rois sont distribués"."""
        return self is Rank.QUEEN


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    STARS = "*"

    def name_in(self, lang: str) -> str:
        return (_SUIT_NAMES_FR if lang == "fr" else _SUIT_NAMES_EN)[self]


RANKS: tuple[Rank, ...] = tuple(Rank)
FOUR_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_ORDER = {rank: i + 1 for i, rank in enumerate(RANKS)}
_RANK_BY_TEXT = {rank.value: rank for rank in RANKS}
_SUIT_BY_TEXT = {suit.value: suit for suit in Suit}

_RANK_NAMES_EN = {
    Rank.ACE: ("Ace", "Aces"),
    Rank.TWO: ("2", "2s"),
    Rank.THREE: ("3", "3s"),
    Rank.FOUR: ("4", "4s"),
    Rank.FIVE: ("5", "5s"),
    Rank.SIX: ("6", "6s"),
    Rank.SEVEN: ("7", "7s"),
    Rank.EIGHT: ("8", "8s"),
    Rank.NINE: ("9", "9s"),
    Rank.TEN: ("10", "10s"),
    Rank.JACK: ("Jack", "Jacks"),
    Rank.QUEEN: ("Queen", "Queens"),
    Rank.KING: ("King", "Kings"),
}
_RANK_NAMES_FR = {
    Rank.ACE: ("As", "As"),
    Rank.TWO: ("2", "2"),
    Rank.THREE: ("3", "3"),
    Rank.FOUR: ("4", "4"),
    Rank.FIVE: ("5", "5"),
    Rank.SIX: ("6", "6"),
    Rank.SEVEN: ("7", "7"),
    Rank.EIGHT: ("8", "8"),
    Rank.NINE: ("9", "9"),
    Rank.TEN: ("10", "10"),
    Rank.JACK: ("Valet", "Valets"),
    Rank.QUEEN: ("Dame", "Dames"),
    Rank.KING: ("Roi", "Rois"),
}
_SUIT_NAMES_EN = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
    Suit.STARS: "stars",
}
_SUIT_NAMES_FR = {
    Suit.SPADES: "pique",
    Suit.HEARTS: "cœur",
    Suit.DIAMONDS: "carreau",
    Suit.CLUBS: "trèfle",
    Suit.STARS: "étoile",
}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``rank is None`` only for the joker, ``suit is None`` for a rank-only card."""

    rank: Rank | None
    suit: Suit | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        if self.rank is None:
            return "JK"
        return self.rank.value + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def name_in(self, lang: str) -> str:
        """Spoken name for a player: "Dame de cœur" / "Queen of hearts"."""
        if self.rank is None:
            return "Joker"
        rank = self.rank.name_in(lang)
        if self.suit is None:
            return rank
        if lang == "fr":
            suit = self.suit.name_in(lang)
            return f"{rank} d'{suit}" if suit[0] in "aeéiou" else f"{rank} de {suit}"
        return f"{rank} of {self.suit.name_in(lang)}"


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.STARS: "★"}
# French cards write the Jack, Queen and King as V, D, R (Valet, Dame, Roi).
RANK_LETTERS_FR = {Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"}


def rank_text(rank: Rank, lang: str) -> str:
    """The rank as the language writes it on a card: "V" for the Jack in French, "J" in English."""
    return RANK_LETTERS_FR.get(rank, rank.value) if lang == "fr" else rank.value


def card_short(card: Card, lang: str) -> str:
    """A card as a player reads it in a line of text: the rank as the language writes it and the
    suit's symbol ("D♥" is the Dame de cœur in French, "Q♥" in English); notation is for input,
    where "C" would read as cœur to a French player."""
    if card.rank is None:
        return "Joker" if lang == "fr" else "JK"
    return rank_text(card.rank, lang) + (_SYMBOLS[card.suit] if card.suit is not None else "")


def cards_short(cards: Iterable[Card], lang: str) -> str:
    return " ".join(card_short(c, lang) for c in cards)


def the_fr(name: str, feminine: bool = False) -> str:
    """French definite article before a card's name: "l'As de pique", "la Dame", "le 7"."""
    if name[:1].lower() in "aeéiouh":
        return "l'" + name
    return ("la " if feminine else "le ") + name


class RankName:
    """A rank as a refusal names it, in the sentence's language: "Queens", "les Dames" with
    ``plural``; with ``the``, the French article ("la Dame", "l'As"). Feminine as the rank is,
    for the agreement of the words around it."""

    __slots__ = ("plural", "rank", "the")

    def __init__(self, rank: Rank, *, plural: bool = False, the: bool = False) -> None:
        self.rank, self.plural, self.the = rank, plural, the

    # Equal by value, so the same refusal said again is found in text.py's memo.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, RankName) and (self.rank, self.plural, self.the) == (
            other.rank,
            other.plural,
            other.the,
        )

    def __hash__(self) -> int:
        return hash((RankName, self.rank, self.plural, self.the))

    @property
    def feminine_fr(self) -> bool:
        return self.rank.feminine_fr

    def render(self, lang: str) -> str:
        name = self.rank.name_in(lang, plural=self.plural)
        return the_fr(name, self.feminine_fr) if self.the and lang == "fr" else name


class CardName:
    """An exact card by its name: "the Queen of hearts" / "la Dame de cœur"."""

    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        self.card = card

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardName) and self.card == other.card

    def __hash__(self) -> int:
        return hash((CardName, self.card))

    def render(self, lang: str) -> str:
        name = self.card.name_in(lang)
        assert self.card.rank is not None
        return the_fr(name, self.card.rank.feminine_fr) if lang == "fr" else f"the {name}"


JOKER = Card(None, None)


@lru_cache(maxsize=512)
def parse_card(text: str) -> Card:
    """Parse card notation; lower case is accepted (``"10s"`` is the 10 of spades)."""
    if not isinstance(text, str):
        raise CardError(
            "cards.parse_card",
            text=text,
        )
    raw = text.strip().upper()
    if raw == "JK":
        return JOKER
    suit: Suit | None = None
    rank_text = raw
    if raw and raw[-1] in _SUIT_BY_TEXT:
        suit = _SUIT_BY_TEXT[raw[-1]]
        rank_text = raw[:-1]
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise CardError(
            "cards.not_a_card_notation",
            text=text,
            suits=" ".join(suit.value for suit in Suit),  # the notation's letters, in both languages
        )
    return Card(rank, suit)


def parse_rank(text: str) -> Rank:
    card = parse_card(text)
    if card.rank is None or card.suit is not None:
        raise CardError(
            "cards.parse_rank",
            text=text,
        )
    return card.rank


def describe_ranks(ranks: set[Rank] | frozenset[Rank]) -> str:
    """Compact list for messages: ``A 3-10`` rather than ``A 3 4 5 6 7 8 9 10``."""
    orders = sorted(r.order for r in ranks)
    parts: list[str] = []
    i = 0
    while i < len(orders):
        j = i
        while j + 1 < len(orders) and orders[j + 1] == orders[j] + 1:
            j += 1
        first, last = RANKS[orders[i] - 1].value, RANKS[orders[j] - 1].value
        if j - i >= 2:
            parts.append(f"{first}-{last}")
        else:
            parts.extend(RANKS[o - 1].value for o in orders[i : j + 1])
        i = j + 1
    return " ".join(parts)
