"""Game engines, found by the table log's game name."""

from __future__ import annotations

from companion.errors import RuleError
from companion.games.base import GameEngine
from companion.tablelog import GAME_NAMES, NewCinqRoisGame, NewGame, NewKiloGame


def new_engine(setup: NewGame) -> GameEngine:
    if isinstance(setup, NewKiloGame):
        from companion.games.kilo import KiloGame

        return KiloGame(setup)
    if isinstance(setup, NewCinqRoisGame):
        from companion.games.cinq_rois.rules import CinqRoisGame

        return CinqRoisGame(setup)
    name = GAME_NAMES[setup.game]
    raise RuleError(
        f"{name} games can be read but not yet scored by this version of the companion",
        f"les parties de {name} sont lues mais ne sont pas encore comptées par cette version")


__all__ = ["GameEngine", "new_engine"]
