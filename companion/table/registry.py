"""The registry of games: one line per game, found by the name the table log uses.

It stands in the table's floor, below the games: the table, the journal, the fold and the screen
kit find a game by name here, and a game's package is imported only by ``load`` (by name, on first
use), so nothing below the games imports one.

A line names the game's package and what the CLI and setup screen need before anything of the
game is loaded (its title and player range). ``load`` imports the package's ``game`` module only
when that game is used, so ``companion --help`` and a game of Kilo de merde never import the
others. What a game's package provides is the ``Game`` protocol in ``table/seam.py``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from companion.table.log import NewGameBase
    from companion.table.seam import Game, GameEngine
    from companion.table.stats_seam import GameStats


# A named tuple, not a dataclass: the command line's parser builds its choices and help from
# these lines, and `companion --help` imports neither dataclasses nor the error family.
class GameInfo(NamedTuple):
    name: str  # as in the table log's "game"
    package: str
    title: str  # the game's own (French) name, used in both languages
    min_players: int
    max_players: int
    # --rounds' default for `play` and for `demo`; 0: the game takes no --rounds (its rules fix
    # its rounds).
    play_rounds: int = 0
    demo_rounds: int = 0


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo("kilo", "companion.games.kilo", "Kilo de merde", 3, 10, play_rounds=5, demo_rounds=10),
        GameInfo("cinq-rois", "companion.games.cinq_rois", "Les Cinq Rois", 2, 7),
        GameInfo("treize", "companion.games.treize", "13 feuilles", 3, 6),
    )
}

# The game of `play` and `demo` when none is named (and, for `play`, none played yet).
DEFAULT_GAME = "kilo"

# Simulated and default players' names, in seating order.
NAMES: tuple[str, ...] = (
    "Alice",
    "Bruno",
    "Chloé",
    "Dédé",
    "Émile",
    "Fanny",
    "Gaston",
    "Hélène",
    "Ibrahim",
    "Julie",
)

GAME_NAMES: dict[str, str] = {name: info.title for name, info in GAMES.items()}


def info(name: str) -> GameInfo:
    try:
        return GAMES[name]
    except KeyError:
        from companion.errors import SetupError

        known = ", ".join(GAMES)
        raise SetupError(
            f"unknown game {name!r}: the companion knows {known}",
            f"jeu inconnu {name!r} : le companion connaît {known}",
        ) from None


def load(name: str) -> Game:
    """The game's package, imported on first use."""
    module = importlib.import_module(info(name).package + ".game")
    game: Game = module.GAME
    return game


def new_engine(setup: NewGameBase) -> GameEngine:
    return load(setup.game).new_engine(setup)


def stats(name: str) -> GameStats:
    """What the game adds to the players' statistics (``Game.stats``), from its package's
    ``stats`` module alone: the listings read it without loading the game's engine (a warm
    ``companion stats`` imports no engine, no pydantic)."""
    package = info(name).package
    try:
        module = importlib.import_module(package + ".stats")
    except ModuleNotFoundError as err:
        if err.name != package + ".stats":
            raise
        module = None
    found: GameStats | None = getattr(module, "STATS", None)
    if found is None:
        from companion.errors import SetupError

        where = package.replace(".", "/") + "/stats.py"
        raise SetupError(
            f"the game {name!r} gives no statistics: {where} must define STATS "
            "(docs/architecture.md, Adding a game)",
            f"le jeu {name!r} ne donne pas ses statistiques : {where} doit définir STATS "
            "(docs/architecture.md, Adding a game)",
        )
    return found


def every_stats() -> dict[str, GameStats]:
    """Every registered game's statistics, in the registry's order (the order of the listings'
    columns and of the evening page's sections)."""
    return {name: stats(name) for name in GAMES}


__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "GAME_NAMES",
    "NAMES",
    "GameInfo",
    "every_stats",
    "info",
    "load",
    "new_engine",
    "stats",
]
