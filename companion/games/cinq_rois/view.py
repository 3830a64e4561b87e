"""A read-only picture of a game of Les Cinq Rois for the screens: built once per change, never
mutated, so a redraw never touches the engine and a snapshot of a table log draws the same way."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.cinq_rois.rules import MAX_COPIES, MAX_JOKERS, CinqRoisGame, RoundResult
from companion.games.cinq_rois.solver import (
    GAME_RANKS,
    ROUNDS,
    SUITS,
    Arrangement,
    bonus_rank,
    cards_in_round,
)

# The cards of the two decks as the entry grid offers them: 11 ranks x 5 suits, then the joker.
GRID_RANKS: tuple[str, ...] = tuple(r.value for r in GAME_RANKS)
GRID_SUITS: tuple[str, ...] = tuple(s.value for s in SUITS)
JOKER = "JK"


@dataclass(frozen=True, slots=True)
class PlacedView:
    card: str
    stands_for: str
    wild: bool


@dataclass(frozen=True, slots=True)
class CombinationView:
    kind: str  # "run" or "set"
    cards: tuple[PlacedView, ...]


@dataclass(frozen=True, slots=True)
class ArrangementView:
    combinations: tuple[CombinationView, ...]
    left: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class RoundView:
    round: int
    dealer: str
    bonus: str
    out: str
    entry: str  # "points", "left" or "hands"
    scores: tuple[int, ...]  # seating order
    totals: tuple[int, ...]  # running totals after this round, seating order
    left: tuple[tuple[str, ...], ...] | None  # seating order, for "left" and "hands"
    arrangements: tuple[ArrangementView, ...] | None  # seating order, for "hands"


@dataclass(frozen=True, slots=True)
class View:
    players: tuple[str, ...]
    round: int  # the round to play, 12 when finished
    rounds: int
    finished: bool
    cards: int | None
    bonus: str | None
    dealer: str | None
    first_player: str | None
    dealer_open: bool  # the first dealer may still be drawn by lot
    dealer_drawn: str | None
    totals: tuple[int, ...]  # seating order
    places: tuple[int, ...]  # seating order, 1 = lowest total (ties share a place)
    moves: tuple[int, ...]  # places gained in the last round (negative: lost), seating order
    order: tuple[int, ...]  # seats, lowest total first
    history: tuple[RoundView, ...]
    winners: tuple[str, ...]
    headline: tuple[str, str]  # (fr, en)

    def seat_of(self, name: str) -> int:
        return self.players.index(name)

    @property
    def last(self) -> RoundView | None:
        return self.history[-1] if self.history else None

    @property
    def leaders(self) -> tuple[str, ...]:
        if not self.history:
            return ()
        return tuple(self.players[s] for s in range(len(self.players)) if self.places[s] == 1)

    @property
    def game(self) -> str:
        return "cinq-rois"


def _arrangement(a: Arrangement) -> ArrangementView:
    return ArrangementView(
        tuple(
            CombinationView(
                c.kind, tuple(PlacedView(str(p.card), str(p.stands_for), p.wild) for p in c.cards)
            )
            for c in a.combinations
        ),
        tuple(str(c) for c in a.left),
        a.points,
    )


def _places(totals: list[int]) -> tuple[int, ...]:
    return tuple(1 + sum(1 for o in totals if o < x) for x in totals)


def _round_view(r: RoundResult, players: tuple[str, ...], totals: list[int]) -> RoundView:
    return RoundView(
        r.round,
        r.dealer,
        r.bonus.value,
        r.out,
        r.entry,
        tuple(r.scores[p] for p in players),
        tuple(totals),
        None if r.left is None else tuple(tuple(str(c) for c in r.left.get(p, ())) for p in players),
        None if r.arrangements is None else tuple(_arrangement(r.arrangements[p]) for p in players),
    )


def build_view(game: CinqRoisGame) -> View:
    players = game.players
    running = [0] * len(players)
    history: list[RoundView] = []
    before = list(running)
    for r in game.results:
        before = list(running)
        running = [running[i] + r.scores[p] for i, p in enumerate(players)]
        history.append(_round_view(r, players, running))
    places = _places(running)
    moves = (
        tuple(a - b for a, b in zip(_places(before), places, strict=True))
        if history
        else ((0,) * len(players))
    )
    order = tuple(sorted(range(len(players)), key=lambda s: (running[s], s)))
    bonus = game.bonus
    return View(
        players=players,
        round=game.round,
        rounds=ROUNDS,
        finished=game.finished,
        cards=game.cards,
        bonus=None if bonus is None else bonus.value,
        dealer=game.dealer,
        first_player=game.first_player,
        dealer_open=game.dealer_open,
        dealer_drawn=game.dealer_drawn,
        totals=tuple(running),
        places=places,
        moves=moves,
        order=order,
        history=tuple(history),
        winners=tuple(game.winners),
        headline=(game.headline("fr"), game.headline("en")),
    )


def round_facts(n: int) -> tuple[int, str]:
    """Cards dealt and bonus rank of round ``n``."""
    return cards_in_round(n), bonus_rank(n).value


__all__ = [
    "GRID_RANKS",
    "GRID_SUITS",
    "JOKER",
    "MAX_COPIES",
    "MAX_JOKERS",
    "View",
    "build_view",
    "round_facts",
]
