"""What a game adds to the players' statistics and to the evening (``Game.stats``): the part of
the seam the listings read. Every game counts games and wins the same way (``table/stats.py``);
a game with numbers of its own (Kilo de merde's kilos and slaps) gives each player a
``PlayerPart`` and says how the listings show it, and a game scored round by round names the
score sheets of the evening page. The generic code (``cli/history.py``, ``table/evening.py``,
``web/evening.py``, ``display/tally.py``) asks these and never names a game.

It stands in the table's floor and imports nothing heavy: a warm ``companion stats`` reads each
game's ``games/<g>/stats.py`` through ``registry.stats`` without loading its engine (nor
pydantic, no dataclass made for the evening: ``table/evening_parts.py`` holds the evening's
sections, plain data that ``web/evening.py`` draws)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from companion.table.evening_parts import Figure, Section
    from companion.table.stats import GameRecord, PlayerStats


class Sheet(NamedTuple):
    """A game scored round by round shows tonight's score sheets on the evening page: its
    section's class and its title's catalogue key."""

    name: str
    title: str


class PlayerPart(Protocol):
    """A game's own numbers of one player over the stored games."""

    @property
    def games(self) -> int:
        """The games of this game counted (0: the player's cells are dashes)."""

    @property
    def tiebreak(self) -> int:
        """Among players with as many wins, the lower is shown first (Kilo de merde's kilos)."""

    def to_json(self) -> dict[str, Any]:
        """``companion stats --json``'s part of the player under the game's name."""

    def lines(self, lang: str) -> list[str]:
        """``companion stats PLAYER``'s lines after the games and wins."""

    def cells(self, lang: str) -> tuple[str, ...]:
        """``companion stats``' cells of the player, one per ``GameStats.columns``."""

    def figures(self, lang: str) -> tuple[Figure, ...]:
        """The evening page's history table's cells, one per ``GameStats.history_heads``."""

    def evening_text(self, wins: int, lang: str) -> str | None:
        """The player's figure in the evening's band under game over (None: the wins alone)."""


class EveningPart(Protocol):
    """A game's part of tonight's evening."""

    def to_json(self) -> dict[str, Any]:
        """Keys added to the evening's JSON, in their order."""

    def sections(self, lang: str) -> tuple[Section, ...]:
        """The page's sections of the game (a section with nothing to show is left out)."""


class NoEvening:
    """The evening part of a game that adds nothing to the page but its score sheets."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return {}

    def sections(self, lang: str) -> tuple[Section, ...]:
        return ()


class GameStats(Protocol):
    """What a game adds to the players' statistics (``games/<g>/stats.py``'s ``STATS``)."""

    @property
    def sheet(self) -> Sheet | None:
        """Tonight's score sheets on the evening page (None: the game shows none)."""

    def part(self) -> PlayerPart | None:
        """A player's numbers before any game (None: the game counts only games and wins)."""

    def add(self, parts: Mapping[str, Any], record: GameRecord) -> None:
        """Count one finished game: ``parts`` are its seated players' ``part()``s."""

    def columns(self, lang: str) -> tuple[tuple[str, int], ...]:
        """``companion stats``' heads and widths of the game's cells."""

    def history_heads(self) -> tuple[str, ...]:
        """The catalogue keys of the evening page's history columns of the game."""

    def evening(self, tonight: Mapping[str, PlayerStats], games: Sequence[GameRecord]) -> EveningPart:
        """The game's part of the evening: ``tonight``, the players' numbers of tonight's
        finished games; ``games``, tonight's readable games in order."""

    def tally_columns(self, parts: Sequence[Any], lang: str) -> list[Any]:
        """The table screen's stats columns (``display.tally.Column``s, a value per part)."""


class SheetStats:
    """The statistics of a game that counts only games and wins, and may show its score
    sheets (``sheet``) on the evening page."""

    __slots__ = ("sheet",)

    def __init__(self, sheet: Sheet | None = None) -> None:
        self.sheet = sheet

    def part(self) -> PlayerPart | None:
        return None

    def add(self, parts: Mapping[str, Any], record: GameRecord) -> None:
        return None

    def columns(self, lang: str) -> tuple[tuple[str, int], ...]:
        return ()

    def history_heads(self) -> tuple[str, ...]:
        return ()

    def evening(self, tonight: Mapping[str, PlayerStats], games: Sequence[GameRecord]) -> EveningPart:
        return NoEvening()

    def tally_columns(self, parts: Sequence[Any], lang: str) -> list[Any]:
        return []
