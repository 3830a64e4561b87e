"""Kilo de merde's entry in the game registry."""

from __future__ import annotations

from typing import Any

from companion.games.kilo.events import EVENTS, NewKiloGame
from companion.games.kilo.rules import KiloGame
from companion.table.log import NewGameBase


class Kilo:
    name = "kilo"
    setup = NewKiloGame
    events = EVENTS

    def new_engine(self, setup: NewGameBase) -> KiloGame:
        assert isinstance(setup, NewKiloGame)
        return KiloGame(setup)

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewKiloGame:
        from companion.games.kilo.demo import new_demo_setup

        return new_demo_setup(players, rounds or 10)

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


GAME = Kilo()
