"""The one fold of events into a game engine, shared by replay, resume and the live table.

``Fold.feed`` takes events one by one: the first must be a ``new_game``, which picks the game's
engine from the registry; every later one is the engine's (undo included). ``replay`` folds a
table log and reports the first bad line as ``line N: ...``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from companion.errors import CompanionError, LogError, RuleError
from companion.games import new_engine
from companion.games.base import GameEngine
from companion.table.log import AnyEvent, NewGameBase, iter_events


class Fold:
    def __init__(self) -> None:
        self.engine: GameEngine | None = None
        self.count = 0  # events folded

    def feed(self, event: AnyEvent) -> None:
        """Apply one event; raises RuleError (or SetupError) and changes nothing if it is refused."""
        if isinstance(event, NewGameBase):
            if self.engine is not None:
                raise RuleError(
                    "a table log holds one game: a second new_game starts here (split "
                    "the file, one game each)",
                    "un journal de table contient une seule partie : un second "
                    "new_game commence ici (séparez le fichier, une partie chacun)",
                )
            self.engine = new_engine(event)
        elif self.engine is None:
            raise RuleError(
                f"the log must start with a new_game event, not {event.type}",  # type: ignore[attr-defined]
                f"le journal doit commencer par un événement new_game, pas {event.type}",  # type: ignore[attr-defined]
            )
        else:
            self.engine.apply(event)
        self.count += 1


@contextmanager
def few_collections() -> Iterator[None]:
    """A long fold makes many small objects that live on (the undo checkpoints, up to a few
    thousand) and next to no reference cycles: at the collector's default pace it walks them
    again every few hundred allocations, a third of a replay's time. Collect far less often while
    folding; the previous pace comes back after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def replay(lines: Iterable[str] | Iterable[bytes]) -> GameEngine:
    fold = Fold()
    last_line = 0
    with few_collections():
        for number, event in iter_events(lines):
            last_line = number
            try:
                fold.feed(event)
            except CompanionError as err:
                raise LogError(number, err.en, err.fr) from None
    if fold.engine is None:
        raise LogError(
            max(last_line, 1),
            "the log holds no game: it needs a new_game event",
            "le journal ne contient aucune partie : il faut un événement new_game",
        )
    return fold.engine
