"""Simulated players of Les Cinq Rois, for the demo and ``--input sim``: the 116-card double deck,
the deal, and a simple player that really plays each round out (pure: chance comes only from the
``random.Random`` given).

How a simulated round goes, as the seed text describes it: the dealer deals n + 2 cards one by one
from the player on their left, turns the first card of the stock onto the discard pile, and the
player after the dealer starts. On a turn a player takes the top discard if keeping it and then
discarding their worst card leaves fewer points than they hold now, else draws from the stock; they
then discard the card whose loss leaves the fewest points (the solver decides, exactly). A player
whose hand then fully combines goes out; every other player has one last turn, in order, and the
round is scored from everyone's whole hand. When the stock runs out, the discard pile but its top
card is shuffled into a new stock. Nobody is ever allowed to go out with a hand that does not
combine, so every round this produces is one the engine accepts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.cards import JOKER, Card, Rank
from companion.games.cinq_rois.events import NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.solver import (
    GAME_RANKS,
    ROUNDS,
    SUITS,
    bonus_rank,
    card_key,
    card_points,
    cards_in_round,
    solve,
)

DECK_SIZE = 116
# A round in which nobody combines a hand in this many turns is not a plausible game. With 16 of
# the 116 cards wild it does not happen: over 1,320 simulated rounds (2 to 7 players) the longest
# took 46 turns. A bound still beats a hang.
MAX_TURNS = 2000


def double_deck() -> list[Card]:
    """Two 58-card decks: 5 suits x 3..K, twice, and 6 jokers, in a fixed order."""
    return [Card(r, s) for _ in range(2) for s in SUITS for r in GAME_RANKS] + [JOKER] * 6


@dataclass(frozen=True, slots=True)
class Turn:
    player: str
    source: Literal["stock", "discard"]
    took: Card
    discarded: Card
    points: int  # what the hand left would score after the discard
    went_out: bool
    last_turn: bool  # one of the last turns after someone went out


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One simulated round, turn by turn, and the ``round_end`` event that records it."""

    round: int
    dealer: str
    bonus: Rank
    dealt: dict[str, tuple[Card, ...]]
    first_discard: Card
    turns: tuple[Turn, ...]
    out: str
    hands: dict[str, tuple[Card, ...]]

    def event(self) -> RoundEnd:
        return RoundEnd(out=self.out, hands={p: list(h) for p, h in self.hands.items()})


def dealer_of(players: Sequence[str], first_dealer: str, n: int) -> str:
    return players[(players.index(first_dealer) + n - 1) % len(players)]


def deal(
    players: Sequence[str], n: int, dealer: str, rng: random.Random
) -> tuple[dict[str, list[Card]], list[Card]]:
    """Shuffle the double deck and deal round ``n``: the hands and the stock (top card last)."""
    deck = double_deck()
    rng.shuffle(deck)
    seat = players.index(dealer)
    order = [players[(seat + 1 + i) % len(players)] for i in range(len(players))]
    hands: dict[str, list[Card]] = {p: [] for p in players}
    for _ in range(cards_in_round(n)):
        for player in order:
            hands[player].append(deck.pop())
    return hands, deck


def _discard_choice(cards: list[Card], bonus: Rank) -> tuple[Card, int]:
    """The card whose discard leaves the fewest points, and those points; on equal points the
    card worth most goes (it would cost most if the round ended before it could be placed).

    Exact without trying every card: dropping card c leaves at least ``best(cards) - points(c)``
    (put c back as a leftover card), and exactly that when c is left over in the best arrangement.
    So only combined cards worth more than some leftover card need the solver.
    """
    whole = solve(cards, bonus)
    best: tuple[int, int, tuple[int, int, int], Card] | None = None
    for card in whole.left:
        rank = (whole.points - card_points(card, bonus), -card_points(card, bonus), card_key(card), card)
        if best is None or rank[:3] < best[:3]:
            best = rank
    combined = {p.card for c in whole.combinations for p in c.cards}
    for card in sorted(combined, key=lambda c: (-card_points(c, bonus), card_key(c))):
        worth = card_points(card, bonus)
        if best is not None and (whole.points - worth, -worth) > best[:2]:
            break  # sorted by worth: no card after this one can do better
        rest = list(cards)
        rest.remove(card)
        rank = (solve(rest, bonus).points, -worth, card_key(card), card)
        if best is None or rank[:3] < best[:3]:
            best = rank
    assert best is not None
    return best[3], best[0]


def _turn(
    player: str,
    hand: list[Card],
    stock: list[Card],
    discard: list[Card],
    bonus: Rank,
    rng: random.Random,
    last_turn: bool,
) -> Turn:
    now = solve(hand, bonus).points
    top = discard[-1]
    card, after = _discard_choice([*hand, top], bonus)
    if after < now and card != top:
        discard.pop()
        source: Literal["stock", "discard"] = "discard"
        took = top
    else:
        if not stock:
            stock.extend(discard[:-1])
            del discard[:-1]
            rng.shuffle(stock)
        took = stock.pop()
        source = "stock"
        card, after = _discard_choice([*hand, took], bonus)
    hand.append(took)
    hand.remove(card)
    discard.append(card)
    return Turn(
        player,
        source,
        took,
        card,
        after,
        went_out=not last_turn and after == 0 and solve(hand, bonus).fully_combines,
        last_turn=last_turn,
    )


def play_round(players: Sequence[str], n: int, dealer: str, rng: random.Random) -> PlayedRound:
    """Deal and play round ``n`` until a hand fully combines, then the last turns."""
    bonus = bonus_rank(n)
    hands, stock = deal(players, n, dealer, rng)
    dealt = {p: tuple(h) for p, h in hands.items()}
    discard = [stock.pop()]
    first_discard = discard[0]
    turns: list[Turn] = []
    seat = (players.index(dealer) + 1) % len(players)
    out: str | None = None
    for _ in range(MAX_TURNS):
        player = players[seat]
        turn = _turn(player, hands[player], stock, discard, bonus, rng, last_turn=False)
        turns.append(turn)
        seat = (seat + 1) % len(players)
        if turn.went_out:
            out = player
            break
    if out is None:
        raise RuntimeError(f"no simulated hand combined in {MAX_TURNS} turns of round {n}")
    for _ in range(len(players) - 1):
        player = players[seat]
        turns.append(_turn(player, hands[player], stock, discard, bonus, rng, last_turn=True))
        seat = (seat + 1) % len(players)
    return PlayedRound(
        n,
        dealer,
        bonus,
        dealt,
        first_discard,
        tuple(turns),
        out,
        {p: tuple(sorted(hands[p], key=card_key)) for p in players},
    )


def play_rounds(
    players: Sequence[str], rng: random.Random, dealer: str | None = None
) -> Iterator[PlayedRound]:
    """The eleven rounds of a game, one at a time (the demo shows each as it comes)."""
    first = dealer if dealer is not None else players[0]
    for n in range(1, ROUNDS + 1):
        yield play_round(players, n, dealer_of(players, first, n), rng)


def play_game(
    players: Sequence[str], rng: random.Random, dealer: str | None = None
) -> list[NewCinqRoisGame | RoundEnd]:
    """A whole simulated game as table-log events: ``new_game`` then eleven ``round_end``."""
    events: list[NewCinqRoisGame | RoundEnd] = [NewCinqRoisGame(players=list(players), dealer=dealer)]
    events.extend(r.event() for r in play_rounds(players, rng, dealer))
    return events
