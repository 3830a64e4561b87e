"""What a game provides: its events, its engine, and (loaded only by the edges that need them) its
screens, its simulated table and what a seat button means in it. The table defines it, below the
games that implement it (``companion.games.base`` names it for them).

The core half (``Game.setup``, ``Game.events``, ``Game.new_engine``) is pure. The other members
return objects of the display or CLI layers; they are typed loosely here so that the core imports
nothing from the edges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.table.log import AnyEvent, Event, NewGameBase


class GameEngine(Protocol):
    """A fold over one game's events. Undo is the engine's: only it knows which events are table
    decisions (undoable) and which are hardware facts (kept), and what state came before."""

    game: str
    players: tuple[str, ...]
    setup: Any

    @property
    def finished(self) -> bool: ...

    @property
    def awaiting(self) -> str: ...

    def check(self, event: AnyEvent) -> None:
        """Raise RuleError if ``event`` cannot be applied now; never changes the state."""

    def apply(self, event: AnyEvent, *, checked: bool = False) -> None:
        """Apply one event; raises RuleError and leaves the state as it was. ``checked=True``
        means ``check`` has just accepted this very event, so it is not checked twice."""

    def no_undo_ahead(self) -> None:
        """No undo follows in the log being folded (a replay that read it ahead): keep no copy of
        the state for undo from now on. Feeding an ``undo`` after this is the caller's error."""

    def to_json(self) -> dict[str, Any]:
        """The state as the table log's ``--json`` result."""

    def summary(self, lang: str) -> str:
        """A readable account of the state for a terminal."""


class Game(Protocol):
    """One entry of the registry, as its package's ``game.GAME`` provides it."""

    name: str
    setup: type[NewGameBase]  # the ``new_game`` model with this game's keys
    events: Mapping[str, type[Event]]  # the game's own events by ``type`` (``undo`` is common)

    def new_engine(self, setup: NewGameBase) -> GameEngine: ...

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewGameBase:
        """The ``new_game`` of ``companion demo`` for this game."""

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        """Play ``table``'s game to its end with simulated players, narrating to ``out``."""

    def screens(self) -> Any:
        """The game's table screens (a ``display.game_ui.GameScreens``); imports pygame."""
