"""``companion demo``: a whole Kilo de merde game with simulated players and a simulated table.

Presses travel the same path as real buttons (source thread -> queue -> main loop -> journal ->
engine). Every choice of the simulated table is a function of the seed and the state, so a demo
killed at any moment and resumed with ``companion resume`` ends exactly as if never interrupted.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable
from typing import Any, TextIO

from companion.cards import FOUR_SUITS, Card
from companion.games import NAMES
from companion.games.kilo.events import Close, Draw, NewKiloGame, Press, Verdict
from companion.games.kilo.narrate import draw_line, pile_line, slap_lines, standings_line
from companion.games.kilo.rules import KiloGame
from companion.i18n import t
from companion.inputs.base import InputEvent, QueueItem
from companion.inputs.sim import BurstEnd, SimSource, plan_slap
from companion.table.live import Table
from companion.table.log import Undo

P_WRONG_CARD = 0.04  # the table mistypes a card now and then, then undoes it


def choose_card(game: KiloGame, rng: random.Random) -> Card:
    """A card off the top of the simulated physical pile: uniform over what it can hold."""
    source, counts = game.draw_source()
    if source == "returned":
        return rng.choice(game.returned_blocks()[0])
    ranks = sorted(counts, key=lambda r: r.order)
    rank = rng.choices(ranks, weights=[counts[r] for r in ranks])[0]
    seen = {c.suit for p in game.players for c in game.cards_of(p) if c.rank is rank}
    seen |= {c.suit for block in game.returned_blocks() for c in block if c.rank is rank}
    free = [s for s in FOUR_SUITS if s not in seen]
    return Card(rank, rng.choice(free)) if free else Card(rank)


def _mistake(seed: int, index: int) -> bool:
    return random.Random(f"{seed}:mistake:{index}").random() < P_WRONG_CARD


class Demo:
    """The main loop of a demo: the simulated table judges slaps as planned and enters cards.

    Each step is a function of the seed, the state and the last two journaled events, which is
    what makes a resumed demo continue exactly.
    """

    def __init__(
        self, table: Table, source: SimSource, out: TextIO, lang: str, events: queue.Queue[Any] | None = None
    ) -> None:
        assert isinstance(table.engine, KiloGame)
        self.table = table
        self.game: KiloGame = table.engine
        self.source = source
        self.seed = source.seed
        self.out = out
        self.lang = lang
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def _last(self, back: int = 1) -> object:
        recent = self.table.recent
        return recent[-back] if len(recent) >= back else None

    def run(self, on_step: Callable[[], None] | None = None) -> None:
        game = self.game
        self.source.start(self.events)
        try:
            announced = -1
            while True:
                if self._correct_mistake():
                    continue
                if game.finished:
                    break
                if announced != game.round:
                    announced = game.round
                    self.say(t("demo.round", self.lang, round=game.round, rounds=game.rounds))
                if game.awaiting == "draw":
                    corrected_next = self._draw(game.owed_draws[0])
                    # A mistyped card is undone at the next step: the standings wait for it.
                    if not corrected_next and (not game.owed_draws or game.finished):
                        self.say(t("demo.standings", self.lang, line=standings_line(game)))
                        self.say(pile_line(game, self.lang))
                else:
                    self._slap()
                if on_step:
                    on_step()
        finally:
            self.source.stop()
        self._finale()

    def _slap(self) -> None:
        game = self.game
        players = game.players
        plan = plan_slap(self.seed, game.slaps_judged, len(players), self.source.timeout_ms)
        skip = {i for i, p in enumerate(players) if game.window_pressed(p)}
        self.source.trigger_slap(plan.index, skip)
        while True:
            item: QueueItem | BurstEnd = self.events.get()
            if isinstance(item, BurstEnd):
                break
            if isinstance(item, InputEvent) and item.role == "seat" and item.edge == "press":
                self.table.submit(Press(player=players[item.seat], t_us=item.t_us))
        if plan.kind == "timeout" and not isinstance(self._last(), Close):
            # The main loop closes a window when its timeout runs out, stamped on the same clock.
            self.table.submit(Close(t_us=plan.close_us))
        if plan.kind == "false":
            penalized = [players[s] for s in plan.penalized]
            self.table.submit(Verdict(valid=False, penalized=penalized if len(penalized) > 1 else None))
        else:
            self.table.submit(Verdict(valid=True))
        slap = game.last_slap
        assert slap is not None
        for line in slap_lines(game, slap, self.lang):
            self.say(line)

    def _draw(self, player: str) -> bool:
        """Enter the card ``player`` drew; True when the table mistyped it (undone next step)."""
        game = self.game
        index = game.draws_made
        true = choose_card(game, random.Random(f"{self.seed}:draw:{index}"))
        if _mistake(self.seed, index) and not isinstance(self._last(), Undo):
            rng = random.Random(f"{self.seed}:wrong:{index}")
            wrong = next((c for c in (choose_card(game, rng) for _ in range(5)) if c != true), true)
            self.table.submit(Draw(player=player, card=wrong))
            self.say(draw_line(game, self.lang))  # as the table saw it, until it is undone
            return True  # _correct_mistake undoes it on the next step
        self.table.submit(Draw(player=player, card=true))
        self.say(draw_line(game, self.lang))
        return False

    def _correct_mistake(self) -> bool:
        last = self._last()
        if (
            isinstance(last, Draw)
            and not isinstance(self._last(2), Undo)
            and _mistake(self.seed, self.game.draws_made - 1)
        ):
            self.table.submit(Undo())
            self.say(
                t(
                    "demo.undo",
                    self.lang,
                    what=t(
                        "demo.undone_draw", self.lang, name=last.player, card=last.card.name_in(self.lang)
                    ),
                )
            )
            return True
        return False

    def _finale(self) -> None:
        game = self.game
        if game.end_reason == "pile_empty":
            self.say(t("ended.pile_empty", self.lang))
        winners = game.winners()
        key = "winners" if len(winners) == 1 else "co_winners"
        self.say(t(key, self.lang, names=", ".join(winners), kilos=game.kilos(winners[0])))


def new_demo_setup(players: int, rounds: int) -> NewKiloGame:
    return NewKiloGame(players=list(NAMES[:players]), rounds=rounds)
