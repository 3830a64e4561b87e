"""Kilo de merde's actions: what a touch, a key or Enter asks of the game, each a frozen dataclass
(``display.layout.GameAction``) that the game's controls (``controls.py``) dispatch by type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.display.layout import GameAction, SetupAction


@dataclass(frozen=True)
class Judge(GameAction):
    """The referee's answer to a claim: valid, or false (then who slapped in error is picked)."""

    valid: bool


@dataclass(frozen=True)
class Toggle(GameAction):
    """A player picked (or unpicked) among those who slapped in error."""

    keeps_message: ClassVar[bool] = True
    name: str


@dataclass(frozen=True)
class ConfirmFalse(GameAction):
    """The false slap judged, with the players picked."""


@dataclass(frozen=True)
class Continue(GameAction):
    """The slap's result read: on to the card entry."""


@dataclass(frozen=True)
class PickRank(GameAction):
    keeps_message: ClassVar[bool] = True
    rank: str

    def why(self) -> GameAction:
        return Why(self.rank)


@dataclass(frozen=True)
class PickSuit(GameAction):
    """A suit picked for the card drawn; None: no suit (the rank alone)."""

    keeps_message: ClassVar[bool] = True
    suit: str | None

    def why(self) -> GameAction:
        return Why(self.suit)


@dataclass(frozen=True)
class Why(GameAction):
    """Why a rank, a card (``"7H"``) or the ranks aside (``"7 8"``) cannot be drawn, said."""

    key: str | None

    def why(self) -> GameAction:
        return self


@dataclass(frozen=True)
class DrawCard(GameAction):
    """The card entered is the one the loser drew."""


@dataclass(frozen=True)
class SetStarter(GameAction):
    player: str


@dataclass(frozen=True)
class DrawLots(GameAction):
    """Draw lots for the first dealer."""


# --- the setup form's lines for Kilo (``KiloScreens.setup_action``) --------------------------


@dataclass(frozen=True)
class Rounds(SetupAction):
    """One round more (``step`` 1) or fewer (-1), from 1 to 99."""

    step: int


@dataclass(frozen=True)
class NextRule(SetupAction):
    """The next choice of the house rule ``name`` (``RULE_CHOICES``)."""

    name: str


@dataclass(frozen=True)
class SlapTimeout(SetupAction):
    """The next longer (``step`` 1) or shorter (-1) slap timeout (``TIMEOUTS_MS``)."""

    step: int


SetupChoice = Rounds | NextRule | SlapTimeout
