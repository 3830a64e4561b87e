"""Kilo de merde's entry in the game registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.base import Game, GameEngine, Outcome
from companion.games.kilo.events import EVENTS, NewKiloGame
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.stats import STATS
from companion.table.log import AnyEvent, NewGameBase


class Kilo:
    stats = STATS
    name = "kilo"
    setup = NewKiloGame
    events = EVENTS
    scorer_events = ("draw",)

    def new_engine(self, setup: NewGameBase) -> KiloGame:
        assert isinstance(setup, NewKiloGame)
        return KiloGame(setup)

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewKiloGame:
        from companion.games import GAMES
        from companion.games.kilo.demo import new_demo_setup

        return new_demo_setup(players, rounds or GAMES[self.name].demo_rounds)

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        from companion.games.kilo.demo import Demo
        from companion.inputs.sim import SimSource

        source = SimSource(
            len(table.engine.players), seed=seed, speed=speed, timeout_ms=table.engine.rules.slap_timeout_ms
        )
        Demo(table, source, out, lang).run()

    def screens(self) -> Any:
        from companion.games.kilo.screens import KiloScreens

        return KiloScreens()

    def feed(self, engine: GameEngine) -> dict[str, Any]:
        from companion.games.kilo.feed import feed

        assert isinstance(engine, KiloGame)
        return feed(engine)

    def scorer_entry(
        self, event: AnyEvent, engine: GameEngine
    ) -> tuple[AnyEvent | None, tuple[str, str] | None]:
        return event, None  # a draw from the phone is the screen's draw as it is

    def play_keys(self, rounds: int | None) -> dict[str, Any]:
        from companion.games import GAMES

        return {"rounds": rounds or GAMES[self.name].play_rounds}

    def outcome(self, rows: list[dict[str, Any]], text: str, state: Callable[[], dict[str, Any]]) -> Outcome:
        # The quick fold (games/kilo/tally.py), not the engine: statistics read every game.
        from companion.games.kilo.tally import tally

        first = rows[0]
        players = tuple(first.get("players", ()))
        t = tally(first, rows[1:], may_undo='"undo"' in text)
        return Outcome(
            t.finished,
            t.winners,
            tuple((p, t.kilos[p]) for p in players),
            "kilos",
            t.slaps,
            tuple((p, t.flushes[p]) for p in players),
        )


GAME: Game = Kilo()
