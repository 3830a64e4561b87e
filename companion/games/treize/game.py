"""The game registry's entry for this game."""

from __future__ import annotations

from typing import Any

import companion.games.treize.strings  # noqa: F401  (the game's strings join the catalogue)
from companion.games.treize.events import EVENTS, NewTreizeGame
from companion.games.treize.rules import TreizeGame
from companion.table.log import NewGameBase


class Treize:
    name = "treize"
    setup = NewTreizeGame
    events = EVENTS

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


GAME = Treize()
