"""The setup form's own actions, each a frozen dataclass (``layout.SetupAction``) that the App's
``Setup`` (``display/setup_actions.py``) dispatches by type; a game's settings add their own
(``games/<g>/actions.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.display.layout import SetupAction


@dataclass(frozen=True)
class Seats(SetupAction):
    """One player more (``step`` 1) or fewer (-1), within the game's bounds."""

    step: int


@dataclass(frozen=True)
class NextGame(SetupAction):
    """The next game of the catalogue, the players kept within its bounds."""


@dataclass(frozen=True)
class NextInput(SetupAction):
    """The next button source (``state.INPUTS``)."""


@dataclass(frozen=True)
class Edit(SetupAction):
    """Type the name of the player at ``index``, or their short form (``short``)."""

    index: int
    short: bool = False


@dataclass(frozen=True)
class Page(SetupAction):
    """The form's page (``state.SETUP_PAGES``): the players or the settings."""

    name: str


@dataclass(frozen=True)
class SeatUp(SetupAction):
    """The player at ``index`` one seat earlier (the first stays first)."""

    index: int


@dataclass(frozen=True)
class Start(SetupAction):
    """A new game from the form."""


# Every action of the form's own: ``Setup`` handles each (mypy checks the match is exhaustive).
FormAction = Seats | NextGame | NextInput | Edit | Page | SeatUp | Start
