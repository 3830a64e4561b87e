"""Simulated 13 feuilles players: real hands dealt from a modelled deck, legal plays only.

Everything is drawn from the ``random.Random`` given, so a seed gives the same match every time.
The result is the list of table-log events a table would have entered; ``TreizeGame`` accepts
every one of them (the tests replay thousands).

The deck: neither the seed nor the spec gives its make-up. The seed deals up to 6 x 9 = 54 cards
and sets the rest aside, and its legend composes values up to 13 (``series``), so the model is 13
values (1-13) with five cards of each: 65 cards, the smallest even deck that deals 54.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter
from companion.games.treize.rules import DEALT, MATCH_TARGET, next_starter
from companion.games.treize.series import VALUES, Series
from companion.table.log import Event

DECK_COPIES = 5


def deck() -> list[int]:
    """The modelled deck, one value per card, in order."""
    return [v for v in VALUES for _ in range(DECK_COPIES)]


def deal(rng: random.Random, n_players: int) -> list[Counter[int]]:
    """Shuffle the deck and deal each player their cards (12/11/10/9 at 3/4/5/6 players)."""
    cards = deck()
    rng.shuffle(cards)
    size = DEALT[n_players]
    return [Counter(cards[i * size : (i + 1) * size]) for i in range(n_players)]


@dataclass(frozen=True, slots=True)
class Style:
    """How the simulated players choose, all chances in [0, 1]."""

    pass_chance: float = 0.1  # passing although a legal play exists (keeping cards for later)
    dump_chance: float = 0.6  # playing every card of the chosen value, not only the fewest allowed
    take_own_chance: float = 0.7  # taking, when passing, a value already in hand (to build a stack)


@dataclass(slots=True)
class _Game:
    players: tuple[str, ...]
    hands: dict[str, Counter[int]]
    turn: str
    series: Series = field(default_factory=Series)
    passed: list[str] = field(default_factory=list)

    def next_in(self, after: str) -> str:
        n = len(self.players)
        i = self.players.index(after)
        for step in range(1, n + 1):
            p = self.players[(i + step) % n]
            if p not in self.passed:
                return p
        return after


def _options(hand: Counter[int], series: Series) -> list[tuple[int, int, int]]:
    """(value, fewest, most) for every value the hand can legally play on ``series``."""
    found = []
    for value, have in sorted(hand.items()):
        least = series.min_count(value)
        if have and least is not None and least <= have:
            found.append((value, least, have))
    return found


def _turn(rng: random.Random, g: _Game, style: Style, enter_plays: bool) -> tuple[Event, str | None]:
    """One player's turn; returns the event and the winner if that play emptied a hand."""
    player = g.turn
    hand = g.hands[player]
    options = _options(hand, g.series)
    # The leader of a trick must play (there is nothing to take); others may choose to pass.
    if options and (g.series.empty or rng.random() >= style.pass_chance):
        value, least, most = rng.choice(options)
        count = most if rng.random() < style.dump_chance else least
        hand[value] -= count
        g.series = g.series.play(value, count)
        g.turn = g.next_in(player)
        done = sum(hand.values()) == 0
        return Play(player=player, value=value, count=count), player if done else None
    on_table = list(g.series.values)
    own = [v for v in on_table if hand[v]]
    took = rng.choice(own if own and rng.random() < style.take_own_chance else on_table)
    hand[took] += 1
    g.series = g.series.take(took)
    g.passed.append(player)
    still = [p for p in g.players if p not in g.passed]
    if len(still) == 1:
        g.passed.clear()
        g.series = Series()
        g.turn = still[0]
    else:
        g.turn = g.next_in(player)
    return Pass(player=player, took=took if enter_plays else None), None


def simulate_match(
    rng: random.Random,
    players: Sequence[str],
    *,
    variant: Literal["basic", "advanced"] = "advanced",
    enter_plays: bool = True,
    draw_lots: bool = True,
    style: Style | None = None,
    max_turns: int = 200_000,
) -> list[Event]:
    """A whole game (``basic``) or match (``advanced``) as table-log events, ``new_game`` first.

    ``enter_plays=False`` writes the spec's minimal log: passes (without the card taken) and a
    ``game_end`` with every other player's cards left; the plays happen but are not written.
    ``draw_lots`` writes the first starter as a ``starter`` event (the screen's "draw lots"),
    otherwise it is the ``starter`` key of ``new_game``.
    """
    names = tuple(players)
    style = style or Style()
    first = rng.choice(names)
    events: list[Event] = [
        NewTreizeGame(players=list(names), variant=variant, starter=None if draw_lots else first)
    ]
    if draw_lots:
        events.append(Starter(player=first))
    totals = dict.fromkeys(names, 0)
    starter = first
    turns = 0
    while True:
        hands = dict(zip(names, deal(rng, len(names)), strict=True))
        g = _Game(names, hands, turn=starter)
        winner: str | None = None
        while winner is None:
            turns += 1
            if turns > max_turns:
                raise RuntimeError(f"simulated match did not end within {max_turns} turns")
            event, winner = _turn(rng, g, style, enter_plays)
            if enter_plays or not isinstance(event, Play):
                events.append(event)
        left = {p: sum(g.hands[p].values()) for p in names if p != winner}
        if not enter_plays:
            events.append(GameEnd(winner=winner, left=left))
        if variant == "basic":
            return events
        for p, n in left.items():
            totals[p] += n
        if max(totals.values()) >= MATCH_TARGET:
            return events
        starter = next_starter(names, totals, winner)
