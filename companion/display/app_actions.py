"""The App's own actions (confirm, cancel, undo, the menu, the screens, sound, voice, language,
the phones' codes, a game again or a new one), each a frozen dataclass that ``Controls``
(``display/controls.py``) dispatches by type; a game's are ``layout.GameAction``s, the setup
form's ``layout.SetupAction``s. Nothing here draws or imports pygame: the phones' server builds
some of them too."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Confirm:
    """Enter or the referee's confirm button: what it means on the screen shown (the game's
    first, then the App's: again, the new game of the form, back to the game's screen)."""


@dataclass(frozen=True)
class Cancel:
    """Escape or the referee's cancel button: the game's screen first, then the App's."""


@dataclass(frozen=True)
class Undo:
    """The table's last event taken back."""


@dataclass(frozen=True)
class Dismiss:
    """The message on screen closed."""


@dataclass(frozen=True)
class Nav:
    """Show ``screen`` ("auto": the screen the table's state calls for)."""

    screen: str


@dataclass(frozen=True)
class Menu:
    """The menu opened, or closed."""


@dataclass(frozen=True)
class Mute:
    """The sounds turned off, or on."""


@dataclass(frozen=True)
class Voice:
    """The voice turned on, or off."""


@dataclass(frozen=True)
class Lang:
    """The other language, kept in the table's config."""


@dataclass(frozen=True)
class WebRevoke:
    """A lost phone: a new code for ``who`` (a seat's index as a string, or "scorer")."""

    who: str


@dataclass(frozen=True)
class WebPage:
    """The phones' codes that did not fit: the next page of them."""


@dataclass(frozen=True)
class Again:
    """The same game anew, once it is over."""


@dataclass(frozen=True)
class NewGame:
    """A new game: the setup form, filled from the game being left."""


@dataclass(frozen=True)
class Noop:
    """Nothing, beyond what every action does (the message cleared, the menu closed): Enter on a
    game not yet over, a phone's code that has no button."""


# Every action of the App's own: ``Controls.do`` handles each (mypy checks the match is exhaustive).
AppAction = (
    Confirm
    | Cancel
    | Undo
    | Dismiss
    | Nav
    | Menu
    | Mute
    | Voice
    | Lang
    | WebRevoke
    | WebPage
    | Again
    | NewGame
    | Noop
)
