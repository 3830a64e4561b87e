"""The game registry's entry for this game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import companion.games.cinq_rois.strings  # noqa: F401  (the game's strings join the catalogue)
from companion.games.base import Game, GameEngine, Outcome, points_outcome
from companion.games.cinq_rois.events import EVENTS, NewCinqRoisGame
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.stats import STATS
from companion.table.log import AnyEvent, NewGameBase


class CinqRois:
    stats = STATS
    name = "cinq-rois"
    setup = NewCinqRoisGame
    events = EVENTS
    scorer_events = ("round_end",)

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

    def feed(self, engine: GameEngine) -> dict[str, Any]:
        from companion.games.cinq_rois.feed import feed

        assert isinstance(engine, CinqRoisGame)
        return feed(engine)

    def scorer_entry(
        self, event: AnyEvent, engine: GameEngine
    ) -> tuple[AnyEvent | None, tuple[str, str] | None]:
        from companion.games.cinq_rois.scorer import scorer_entry

        assert isinstance(engine, CinqRoisGame)
        return scorer_entry(event, engine)

    def play_keys(self, rounds: int | None) -> dict[str, Any]:
        return {}

    def outcome(self, rows: list[dict[str, Any]], text: str, state: Callable[[], dict[str, Any]]) -> Outcome:
        return points_outcome(rows[0].get("players", ()), state())


GAME: Game = CinqRois()
