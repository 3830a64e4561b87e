"""One exception family for everything a player or a config can get wrong.

Every error carries its message in French and English; ``str()`` gives English (logs, tracebacks),
``message(lang)`` gives the player's language (French with its typography: U+202F before : ; ! ?).
Subclasses also inherit the matching builtin so callers can catch ``ValueError`` or ``OSError`` as
usual.
"""

from __future__ import annotations

from companion.i18n import french_typography


class CompanionError(Exception):
    """Base class: a problem the user can understand and fix."""

    def __init__(self, en: str, fr: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        # The French half carries French typography (U+202F before : ; ! ?) however it was built.
        self.fr = french_typography(fr) if fr is not None else en

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

    def __init__(self, line: int, en: str, fr: str | None = None) -> None:
        super().__init__(f"line {line}: {en}", f"ligne {line} : {fr if fr is not None else en}")
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


SHOWN = 60  # characters of a hostile value an error repeats


def cut(text: str, limit: int = SHOWN, lang: str = "en") -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: a 50 MB name must not make a
    50 MB message."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} {'caractères' if lang == 'fr' else 'characters'})"


def shown(value: object, limit: int = SHOWN, lang: str = "en") -> str:
    """``repr(value)`` as an error quotes it, cut like ``cut``."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, str | bytes) else len(text)
    return f"{text[:limit]}… ({size} {'caractères' if lang == 'fr' else 'characters'})"
