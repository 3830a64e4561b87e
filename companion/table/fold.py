"""Fold a table log into a game engine; the first bad line stops it with ``line N: ...``."""

from __future__ import annotations

from collections.abc import Iterable

from companion.errors import CompanionError, LogError
from companion.games import GameEngine, new_engine
from companion.table.log import NewCinqRoisGame, NewKiloGame, NewTreizeGame, iter_events


def replay(lines: Iterable[str]) -> GameEngine:
    engine: GameEngine | None = None
    last_line = 0
    for number, event in iter_events(lines):
        last_line = number
        try:
            if isinstance(event, NewKiloGame | NewCinqRoisGame | NewTreizeGame):
                if engine is not None:
                    raise LogError(number, "a table log holds one game: a second new_game starts "
                                   "here (split the file, one game each)",
                                   "un journal de table contient une seule partie : un second "
                                   "new_game commence ici (séparez le fichier, une partie chacun)")
                engine = new_engine(event)
                continue
            if engine is None:
                raise LogError(number, f"the log must start with a new_game event, not "
                               f"{event.type}", "le journal doit commencer par un événement "
                               f"new_game, pas {event.type}")
            engine.apply(event)
        except LogError:
            raise
        except CompanionError as err:
            raise LogError(number, err.en, err.fr) from None
    if engine is None:
        raise LogError(max(last_line, 1), "the log holds no game: it needs a new_game event",
                       "le journal ne contient aucune partie : il faut un événement new_game")
    return engine
