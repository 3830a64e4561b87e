"""13 feuilles' actions: what a touch, a key or Enter asks of the game, each a frozen dataclass
(``display.layout.GameAction``) that the game's controls (``controls.py``) dispatch by type.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.display.layout import GameAction, SetupAction


@dataclass(frozen=True)
class DrawLots(GameAction):
    """Draw lots for who starts."""


@dataclass(frozen=True)
class NextGame(GameAction):
    """The game's scores read: on to the next game."""


@dataclass(frozen=True)
class PassTurn(GameAction):
    """``player`` passes (touching their seat)."""

    player: str


@dataclass(frozen=True)
class Took(GameAction):
    """The card a passing player took from the stacks, by value."""

    value: int


@dataclass(frozen=True)
class OpenPlay(GameAction):
    """Start entering the play of the player whose turn it is."""


@dataclass(frozen=True)
class ChooseValue(GameAction):
    value: int


@dataclass(frozen=True)
class ChooseCount(GameAction):
    count: int


@dataclass(frozen=True)
class WhyValue(GameAction):
    """Why this value cannot be played now, said."""

    value: int

    def why(self) -> GameAction:
        return self


@dataclass(frozen=True)
class WhyCount(GameAction):
    """Why this many cards cannot be played now, said."""

    count: int

    def why(self) -> GameAction:
        return self


@dataclass(frozen=True)
class PlayEntered(GameAction):
    """The value and count entered are the play."""


@dataclass(frozen=True)
class ToggleHelper(GameAction):
    """The table's helper (the plays followed) on or off, before the game has started."""


@dataclass(frozen=True)
class OpenEnd(GameAction):
    """Start entering the end of a game played without the plays."""


@dataclass(frozen=True)
class Winner(GameAction):
    player: str


@dataclass(frozen=True)
class CardsLeft(GameAction):
    """One more (``step`` 1) or one fewer (-1) card left in ``player``'s hand."""

    player: str
    step: int


@dataclass(frozen=True)
class EndGame(GameAction):
    """The game's end as entered goes to the table."""


# --- the setup form's lines for 13 feuilles (``TreizeScreens.setup_action``) -----------------


@dataclass(frozen=True)
class NextVariant(SetupAction):
    """The advanced variant, or the basic one."""


@dataclass(frozen=True)
class HelperSetting(SetupAction):
    """The helper (what a player may put down) on or off."""


SetupChoice = NextVariant | HelperSetting
