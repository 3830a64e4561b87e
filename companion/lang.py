"""The one language rule: ``--lang``, else the config's ``[table] lang``, else the locale, else
French. At the bottom of the package, with the strings, so that every command line (the
companion's own, ``python -m companion.hardware``) reads it without importing the CLI."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

LANGS = ("fr", "en")
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def _flag(args: Sequence[str], name: str) -> str | None:
    """The value of ``--name X`` or ``--name=X`` in ``args`` (the last one wins, as in argparse)."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == name and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith(name + "="):
            found = arg[len(name) + 1 :]
    return found


def locale_lang(environ: Mapping[str, str]) -> str | None:
    """French or English when the locale names one (``fr_FR.UTF-8``, ``en_GB``, ``LANGUAGE=de:en``),
    else None (``C``, ``POSIX``, ``de_DE``...): the first of LC_ALL, LC_MESSAGES, LANG, LANGUAGE
    that names one of the two."""
    for var in LOCALE_VARS:
        for entry in environ.get(var, "").split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGS:
                return code
    return None


def config_lang(path: Path) -> str | None:
    """``[table] lang`` of the config file, if it has a valid one. Read with tomllib alone (no
    pydantic at start-up): a file with a mistake is reported by the command that loads it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    import tomllib  # a file to read: a table without one does not import it before its first frame

    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):
        return None
    table = data.get("table")
    lang = table.get("lang") if isinstance(table, dict) else None
    return lang if lang in LANGS else None


def resolve_lang(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[str, bool]:
    """The one language rule: ``--lang`` (fr or en), else the config's ``[table] lang``, else
    the locale when it names French or English, else French. Returns the language and whether
    ``--lang`` chose it (a resumed game keeps its own language unless ``--lang`` says otherwise).
    An unknown ``--lang`` is not chosen here: the parser refuses it, in the language found."""
    from companion.paths import config_path

    args = list(sys.argv[1:] if argv is None else argv)
    env = os.environ if environ is None else environ
    given = _flag(args, "--lang")
    if given in LANGS:
        return given, True
    config = _flag(args, "--config")
    from_config = config_lang(Path(config) if config else config_path(env))
    return from_config or locale_lang(env) or "fr", False


def help_lang(argv: Sequence[str] | None = None) -> str:
    """The language of help and usage errors: the same rule as everything else."""
    return resolve_lang(argv)[0]


__all__ = ["LANGS", "LOCALE_VARS", "config_lang", "help_lang", "locale_lang", "resolve_lang"]
