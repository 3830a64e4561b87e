"""Les Cinq Rois' actions: what a touch, a key or Enter asks of the game, each a frozen dataclass
(``display.layout.GameAction``) that the game's controls (``controls.py``) dispatch by type.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.display.layout import GameAction, SetupAction
from companion.games.cinq_rois.entry import Mode


@dataclass(frozen=True)
class DrawLots(GameAction):
    """Draw lots for the first dealer."""


@dataclass(frozen=True)
class SkipLots(GameAction):
    """No lots: the table knows who deals first."""


@dataclass(frozen=True)
class PickDealer(GameAction):
    """The table chooses the first dealer instead of drawing lots."""

    seat: int


@dataclass(frozen=True)
class GoOut(GameAction):
    """The player at ``seat`` goes out (or no longer does, touched again)."""

    seat: int


@dataclass(frozen=True)
class TurnPlayed(GameAction):
    """The player at ``seat`` has played their last turn."""

    seat: int


@dataclass(frozen=True)
class ToEntry(GameAction):
    """The last turns are played: on to the round's entry."""


@dataclass(frozen=True)
class CancelOut(GameAction):
    """Nobody went out after all."""


@dataclass(frozen=True)
class SetMode(GameAction):
    """How the round is entered: points, cards left, or whole hands."""

    mode: Mode


@dataclass(frozen=True)
class PickPlayer(GameAction):
    """The player whose round is being entered."""

    seat: int


@dataclass(frozen=True)
class Digit(GameAction):
    digit: str


@dataclass(frozen=True)
class AddCard(GameAction):
    card: str


@dataclass(frozen=True)
class WhyCard(GameAction):
    """Why a card cannot be added, said."""

    card: str


@dataclass(frozen=True)
class Back(GameAction):
    """The last digit or card entered taken back."""


@dataclass(frozen=True)
class Enter(GameAction):
    """The next player still to enter, else the round to the table."""


@dataclass(frozen=True)
class Continue(GameAction):
    """The round's result read: on to the next."""


# --- the setup form's line for Les Cinq Rois (``CinqRoisScreens.setup_action``) --------------


@dataclass(frozen=True)
class NextDealer(SetupAction):
    """The next player as the first dealer, after the last: drawn by lots."""
