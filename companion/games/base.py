"""The small surface every game engine offers: apply an event, report standings, say what is next."""

from __future__ import annotations

from typing import Any, Protocol

from companion.table.log import AnyEvent


class GameEngine(Protocol):
    game: str
    players: tuple[str, ...]

    @property
    def finished(self) -> bool: ...

    @property
    def awaiting(self) -> str: ...

    def check(self, event: AnyEvent) -> None:
        """Raise RuleError if ``event`` cannot be applied now; never changes the state."""

    def apply(self, event: AnyEvent, *, checked: bool = False) -> None:
        """Apply one event; raises RuleError and leaves the state as it was. ``checked=True``
        means ``check`` has just accepted this very event, so it is not checked twice."""

    def to_json(self) -> dict[str, Any]:
        """The state as the table log's ``--json`` result."""

    def summary(self, lang: str) -> str:
        """A readable account of the state for a terminal."""
