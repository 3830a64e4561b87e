"""What a game provides: its events, its engine, and (loaded only by the edges that need them) its
screens, its simulated table and what a seat button means in it. The table defines it, below the
games that implement it (``companion.games.base`` names it for them).

The core half (``Game.setup``, ``Game.events``, ``Game.new_engine``) is pure. The other members
return objects of the display or CLI layers; they are typed loosely here so that the core imports
nothing from the edges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.table.log import AnyEvent, Event, NewGameBase
from companion.table.stats_seam import GameStats


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the statistics keep of one stored game (``Game.outcome``)."""

    finished: bool
    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]  # seat order
    unit: str  # "kilos" or "points": how history writes a score
    slaps: tuple[Any, ...] = ()  # judged slaps, for the games that have them
    flushes: tuple[tuple[str, int], ...] = ()


def points_outcome(players: Sequence[str], state: Mapping[str, Any]) -> Outcome:
    """The outcome of a game scored in points, from its engine's ``to_json()``: ``finished``,
    ``winners`` and ``standings`` rows of ``player`` and ``points`` (the game's own keys, so
    only a game whose ``to_json`` writes them calls this)."""
    points = {row["player"]: int(row["points"]) for row in state["standings"]}
    return Outcome(
        bool(state["finished"]),
        tuple(state["winners"] or ()),
        tuple((p, points.get(p, 0)) for p in players),
        "points",
    )


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

    def standings(self) -> Sequence[tuple[Any, ...]]:
        """(player, score, ...) rows, best first: every game ranks the lowest score first."""

    def to_json(self) -> dict[str, Any]:
        """The state as the table log's ``--json`` result."""

    def summary(self, lang: str) -> str:
        """A readable account of the state for a terminal."""


class Game(Protocol):
    """One entry of the registry, as its package's ``game.GAME`` provides it."""

    # Read-only (properties), so that a game's narrower class attributes fit.
    @property
    def name(self) -> str: ...

    @property
    def setup(self) -> type[NewGameBase]:
        """The ``new_game`` model with this game's keys."""

    @property
    def events(self) -> Mapping[str, type[Event]]:
        """The game's own events by ``type`` (``undo`` is common)."""

    def new_engine(self, setup: NewGameBase) -> GameEngine: ...

    def demo_setup(self, players: int, rounds: int | None, seed: int) -> NewGameBase:
        """The ``new_game`` of ``companion demo`` for this game."""

    def run_demo(self, table: Any, seed: int, speed: float, lang: str, out: Any) -> None:
        """Play ``table``'s game to its end with simulated players, narrating to ``out``."""

    def screens(self) -> Any:
        """The game's table screens (a ``display.game_ui.GameScreens``); imports pygame."""

    # --- what the edges ask of a game, so that none of them names one ---------------------------

    @property
    def scorer_events(self) -> tuple[str, ...]:
        """The events a scorer's phone may enter (none: the game has no scorer)."""

    def feed(self, engine: GameEngine) -> dict[str, Any]:
        """The game's own part of the phones' page (plain JSON), after the keys every game has."""

    def scorer_entry(
        self, event: AnyEvent, engine: GameEngine
    ) -> tuple[AnyEvent | None, tuple[str, str] | None]:
        """A scorer's event entered as the table screen enters it: (the event to check and
        journal, None), or (None, the screen's (French, English) refusal)."""

    def play_keys(self, rounds: int | None) -> dict[str, Any]:
        """The ``new_game`` keys of ``companion play --players`` besides the players."""

    def outcome(self, rows: list[dict[str, Any]], text: str, state: Callable[[], dict[str, Any]]) -> Outcome:
        """What the statistics keep of a stored game: ``rows``, its events decoded (``new_game``
        first), ``text`` their JSON, ``state()`` the engine's ``to_json()`` after them (folded
        when first asked for: a game with a quicker fold of its own never asks)."""

    @property
    def stats(self) -> GameStats:
        """What the game adds to the players' statistics and the evening page: its package's
        ``stats.STATS`` (the listings read that module alone, through ``registry.stats``)."""
