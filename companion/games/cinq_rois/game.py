"""The game registry's entry for this game."""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.games.cinq_rois.events import EVENTS, NewCinqRoisGame
from companion.table.log import NewGameBase


class CinqRois:
    name = "cinq-rois"
    setup = NewCinqRoisGame
    events = EVENTS

    def new_engine(self, setup: NewGameBase) -> Any:
        raise RuleError("this game can be read but not yet scored by this version of the companion",
                        "ce jeu est lu mais pas encore compté par cette version du compagnon")

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewGameBase:
        raise NotImplementedError

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        raise NotImplementedError

    def screens(self) -> Any:
        raise NotImplementedError


GAME = CinqRois()
