"""Game engines, found by the table log's game name."""

from __future__ import annotations

from companion.errors import RuleError
from companion.games.base import GameEngine
from companion.table.log import GAME_NAMES, NewGame, NewKiloGame


def new_engine(setup: NewGame) -> GameEngine:
    if isinstance(setup, NewKiloGame):
        from companion.games.kilo.rules import KiloGame

        return KiloGame(setup)
    name = GAME_NAMES[setup.game]
    raise RuleError(
        f"{name} games can be read but not yet scored by this version of the companion",
        f"les parties de {name} sont lues mais ne sont pas encore comptées par cette version")


__all__ = ["GameEngine", "new_engine"]
