"""The game registry's entry for this game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import companion.games.treize.strings  # noqa: F401  (the game's strings join the catalogue)
from companion.games.base import Game, GameEngine, Outcome, points_outcome
from companion.games.treize.events import EVENTS, NewTreizeGame
from companion.games.treize.rules import TreizeGame
from companion.games.treize.stats import STATS
from companion.table.log import AnyEvent, NewGameBase


class Treize:
    stats = STATS
    name = "treize"
    setup = NewTreizeGame
    events = EVENTS
    scorer_events: tuple[str, ...] = ()  # every play is entered on the table's screen

    def new_engine(self, setup: NewGameBase) -> TreizeGame:
        assert isinstance(setup, NewTreizeGame)
        return TreizeGame(setup)

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewGameBase:
        from companion.games import NAMES

        return NewTreizeGame(players=list(NAMES[:players]), variant="advanced")

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        from companion.games.treize.demo import Demo

        Demo(table, seed, speed, out, lang).run()

    def screens(self) -> Any:
        from companion.games.treize.screens import TreizeScreens

        return TreizeScreens()

    def feed(self, engine: GameEngine) -> dict[str, Any]:
        from companion.games.treize.feed import feed

        assert isinstance(engine, TreizeGame)
        return feed(engine)

    def scorer_entry(
        self, event: AnyEvent, engine: GameEngine
    ) -> tuple[AnyEvent | None, tuple[str, str] | None]:
        return event, None

    def play_keys(self, rounds: int | None) -> dict[str, Any]:
        return {"variant": "advanced"}

    def outcome(self, rows: list[dict[str, Any]], text: str, state: Callable[[], dict[str, Any]]) -> Outcome:
        return points_outcome(rows[0].get("players", ()), state())


GAME: Game = Treize()
