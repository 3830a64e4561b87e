"""One exception family for everything a player or a config can get wrong.

Every error carries a ``Text``: a catalogue key and the values it names (``raise
ConfigError("config.bad_port", port=value)``), rendered in one place (``companion.text``), where
values from outside are cut and French gets its typography (U+202F before : ; ! ?). ``str()``
gives English (logs, tracebacks), ``message(lang)`` the player's language. The templates are in
``companion/error_strings.py`` (a game's own in ``games/<g>/strings.py``). Subclasses also
inherit the matching builtin so callers can catch ``ValueError`` or ``OSError`` as usual.
"""

from __future__ import annotations

from companion import error_strings as _error_strings  # noqa: F401  (the templates, registered)
from companion.text import SHOWN, Text, cut, shown

__all__ = ["SHOWN", "CompanionError", "Text", "cut", "exit_code", "shown"]


class CompanionError(Exception):
    """Base class: a problem the user can understand and fix.

    Built from a catalogue key and its values, or from a ``Text`` already made (an error passed
    on, one that wraps another's text, or ``Text.pair`` for words the companion does not write);
    a key the catalogue does not hold is refused (``KeyError``) where the error is made."""

    def __init__(self, text: Text | str, /, **fields: object) -> None:
        self.text = text if isinstance(text, Text) else Text(text, **fields)
        super().__init__(self.text)

    # Said when read, not when raised (and then kept): a view asks the rules about every card,
    # and most refusals it collects are never shown in both languages.
    @property
    def en(self) -> str:
        said = self.__dict__.get("_en")
        if said is None:
            said = self.__dict__["_en"] = self.text.render("en")
        return said

    @property
    def fr(self) -> str:
        said = self.__dict__.get("_fr")
        if said is None:
            said = self.__dict__["_fr"] = self.text.render("fr")
        return said

    def __str__(self) -> str:
        return self.en

    def message(self, lang: str = "fr") -> str:
        return self.fr if lang == "fr" else self.en


class CardError(CompanionError, ValueError):
    """A card written in a way that is not valid notation."""


class RuleError(CompanionError, ValueError):
    """An event that the rules of the game do not allow at this point."""


class SetupError(CompanionError, ValueError):
    """A game setup (players, rounds, house rules) that cannot be played."""


class LogError(CompanionError, ValueError):
    """A table-log line that cannot be read; ``line`` is 1-based."""

    def __init__(self, line: int, text: Text | str, /, **fields: object) -> None:
        what = text if isinstance(text, Text) else Text(text, **fields)
        super().__init__("log.at_line", line=line, what=what)
        self.line = line


class JournalError(CompanionError, OSError):
    """The SQLite journal cannot be opened, read or written."""


class DataDirError(JournalError, ValueError):
    """--data-dir names something that is not a folder: the user's value is wrong (exit 2)."""


class UnknownGameError(JournalError, LookupError):
    """A game id that names no game of the journal: the user's input is wrong, the journal is
    fine (``exit_code`` 2, not 1)."""


class ConfigError(CompanionError, ValueError):
    """A configuration file or flag that cannot be used."""


class HardwareError(CompanionError, OSError):
    """A button source that cannot be started (missing library, device, permission)."""


def exit_code(err: BaseException) -> int:
    """The command's exit code for an error (the README's table): 2 when what the user gave is
    wrong (a value, a file's content, a name that is not there), 1 when it was right but could
    not be done (no journal yet, a device missing)."""
    return 2 if isinstance(err, ValueError | LookupError) else 1
