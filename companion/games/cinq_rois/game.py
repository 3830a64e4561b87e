"""The game registry's entry for this game."""

from __future__ import annotations

from typing import Any

import companion.games.cinq_rois.strings  # noqa: F401  (the game's strings join the catalogue)
from companion.games.cinq_rois.events import EVENTS, NewCinqRoisGame
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.table.log import NewGameBase


class CinqRois:
    name = "cinq-rois"
    setup = NewCinqRoisGame
    events = EVENTS

    def new_engine(self, setup: NewGameBase) -> CinqRoisGame:
        assert isinstance(setup, NewCinqRoisGame)
        return CinqRoisGame(setup)

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewGameBase:
        from companion.games.cinq_rois.demo import new_demo_setup

        return new_demo_setup(players)

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        from companion.games.cinq_rois.demo import Demo

        Demo(table, seed, speed, lang, out).run()

    def screens(self) -> Any:
        from companion.games.cinq_rois.screens import CinqRoisScreens

        return CinqRoisScreens()


GAME = CinqRois()
