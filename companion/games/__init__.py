"""The games, one package each. Their registry (names, packages, titles, player ranges, ``load``)
lives in ``companion.table.registry``, below them, so that the table and the screen kit can find a
game by name without importing one; it is named here too for the floors above the games."""

from companion.table.registry import (
    DEFAULT_GAME,
    GAME_NAMES,
    GAMES,
    NAMES,
    GameInfo,
    info,
    load,
    new_engine,
)

__all__ = ["DEFAULT_GAME", "GAMES", "GAME_NAMES", "NAMES", "GameInfo", "info", "load", "new_engine"]
