"""Simulated 13 feuilles players at a real table: the demo's and ``--input sim``'s decisions.

``sim.simulate_match`` plays a whole match by itself; here the table is the real engine (fed
through the journal), so the players keep hands in step with the events the table accepted and
decide one move at a time. Hands are dealt from ``(seed, game number)`` and every choice is drawn
from ``(seed, moves so far)``, so a match killed and resumed goes on exactly as it would have.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter, TrickEnd
from companion.games.treize.rules import TreizeGame, draw_lots
from companion.games.treize.series import MIN_VALUE
from companion.games.treize.sim import Style, _options, deal
from companion.table.log import AnyEvent, Event, Undo

Hands = dict[str, Counter[int]]
DECISIONS = (Starter, Pass, Play, TrickEnd, GameEnd)


def lots_rng(seed: int, game_number: int) -> random.Random:
    """The draw of lots for a game: the same at every replay or resume of the table."""
    return random.Random(f"{seed}:lots:{game_number}")


class AutoPlayer:
    """The simulated players' hands and choices, kept in step with the table's events."""

    def __init__(self, seed: int, players: Iterable[str], style: Style | None = None) -> None:
        self.seed = seed
        self.players = tuple(players)
        self.style = style or Style()
        self.game_number = 1
        self.hands = self._deal(1)
        self._saved: list[tuple[Hands, int]] = []  # before each decision in force, for undo

    @classmethod
    def from_events(cls, seed: int, events: Iterable[AnyEvent]) -> AutoPlayer:
        """Catch up with a journal (a resumed game): its ``new_game`` first."""
        items = list(events)
        setup = items[0]
        assert isinstance(setup, NewTreizeGame)
        bot = cls(seed, setup.players)
        shadow = TreizeGame(setup)
        for event in items[1:]:
            shadow.apply(event)
            bot.observe(event, shadow.game_number)
        return bot

    def _deal(self, game_number: int) -> Hands:
        rng = random.Random(f"{self.seed}:deal:{game_number}")
        return dict(zip(self.players, deal(rng, len(self.players)), strict=True))

    @property
    def moves(self) -> int:
        """Decisions in force: the index of the next move's random draw."""
        return len(self._saved)

    def observe(self, event: AnyEvent, game_number: int) -> None:
        """The table accepted ``event``; ``game_number`` is the game in play after it."""
        if isinstance(event, Undo):
            if self._saved:
                self.hands, self.game_number = self._saved.pop()
            return
        if not isinstance(event, DECISIONS):
            return
        self._saved.append(({p: Counter(h) for p, h in self.hands.items()}, self.game_number))
        if isinstance(event, Play):
            hand = self.hands[event.player]
            hand[event.value] = max(0, hand[event.value] - event.count)
        elif isinstance(event, Pass) and event.took is not None:
            self.hands[event.player][event.took] += 1
        if game_number != self.game_number:
            self.game_number = game_number
            self.hands = self._deal(game_number)

    def decide(self, game: TreizeGame, seed: int | None = None) -> Event | None:
        """The next move at the table, or None when there is none to make (the match is over,
        or the game is entered without plays)."""
        if game.finished:
            return None
        if game.awaiting == "starter":
            return draw_lots(lots_rng(self.seed if seed is None else seed, game.game_number), game)
        player = game.turn
        series = game.series
        held = game.count(player) if player is not None else None
        if player is None or series is None or held is None:
            return None
        rng = random.Random(f"{self.seed}:move:{game.game_number}:{self.moves}")
        hand = self.hands[player]
        options = [(v, lo, min(hi, held)) for v, lo, hi in _options(hand, series) if lo <= held]
        if options and (series.empty or rng.random() >= self.style.pass_chance):
            value, least, most = rng.choice(options)
            count = most if rng.random() < self.style.dump_chance else least
            return Play(player=player, value=value, count=count)
        if series.empty:
            # The hand lost step with the table (plays entered by hand): the leader must play.
            value = next((v for v, n in sorted(hand.items()) if n), MIN_VALUE)
            return Play(player=player, value=value, count=1)
        on_table = list(series.values)
        own = [v for v in on_table if hand[v]]
        took = rng.choice(own if own and rng.random() < self.style.take_own_chance else on_table)
        return Pass(player=player, took=took)
