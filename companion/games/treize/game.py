"""The game registry's entry for this game."""

from __future__ import annotations

from typing import Any

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
        raise NotImplementedError

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        raise NotImplementedError

    def screens(self) -> Any:
        raise NotImplementedError


GAME = Treize()
