"""What every subcommand's options are made of: the language of their help (``Words``, given
to each group of subcommands, never a module global), the options several commands share, the
numbers checked as they are parsed (so a bad one is refused before anything is created), and a
subcommand's function named and imported when it runs (``Lazy``).
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.i18n import CATALOGUE
from companion.i18n import french_typography as _typography
from companion.lang import LANGS
from companion.table.registry import DEFAULT_GAME, GAMES

# The games as the registry names them (its lines only: no game is imported).
GAME_CHOICES = tuple(GAMES)
MAX_SEATS = max(g.max_players for g in GAMES.values())  # the most players any game takes
START, SEP = "\x1e", "\x1f"  # around the English and French halves of a usage error


def _bad(en: str, fr: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(START + en + SEP + _typography(fr))


def _number(text: str, kind: Callable[[str], Any]) -> Any:
    try:
        return kind(text)
    except ValueError:
        what = ("a whole number", "un nombre entier") if kind is int else ("a number", "un nombre")
        raise _bad(f"{text!r} is not {what[0]}", f"{text!r} n'est pas {what[1]}") from None


def speed(text: str) -> float:
    value = float(_number(text, float))
    if not (math.isfinite(value) and value >= 0):
        raise _bad(
            f"the speed must be 0 (as fast as possible) or more, like 1 or 4, not {text}",
            f"la vitesse doit valoir 0 (au plus vite) ou plus, comme 1 ou 4, pas {text}",
        )
    return value


def duration(text: str) -> float:
    value = float(_number(text, float))
    if not (math.isfinite(value) and value > 0):
        raise _bad(
            f"the duration is a number of seconds above 0, like 30, not {text}",
            f"la durée est un nombre de secondes au-dessus de 0, comme 30, pas {text}",
        )
    return value


def seats(text: str) -> int:
    value = int(_number(text, int))
    if not 1 <= value <= MAX_SEATS:
        raise _bad(
            f"the number of seats is 1 to {MAX_SEATS}, not {text}",
            f"le nombre de places va de 1 à {MAX_SEATS}, pas {text}",
        )
    return value


def count(text: str) -> int:
    value = int(_number(text, int))
    if value < 1:
        raise _bad(f"the count is 1 or more, not {text}", f"le nombre est 1 ou plus, pas {text}")
    return value


def rotation(text: str) -> int:
    value = int(_number(text, int))
    if value not in (0, 90, 180, 270):
        raise _bad(
            f"the screen turns by 0, 90, 180 or 270 degrees (clockwise), not {text}",
            f"l'écran tourne de 0, 90, 180 ou 270 degrés (sens horaire), pas {text}",
        )
    return value


def folder(text: str) -> Path:
    if not text.strip():
        raise _bad(
            "the folder is empty: give a path, or leave the option out for the default folder",
            "le dossier est vide : indiquez un chemin, ou omettez l'option pour le dossier par défaut",
        )
    return Path(text)


class Lazy:
    """A subcommand's function, imported on first call."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __call__(self, args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(self.module), self.name)(args) or 0)


class DefaultLang(str):
    """``--lang`` left out: the language the rule found, but a resumed game may speak its own."""


def lang_given(args: argparse.Namespace) -> bool:
    return not isinstance(getattr(args, "lang", None), DefaultLang)


def games_listed(conj: str, default_note: str = "") -> str:
    """The registry's games as a help text lists them: "kilo (default), cinq-rois or treize"."""
    names = [g + default_note if g == DEFAULT_GAME else g for g in GAMES]
    return ", ".join(names[:-1]) + f" {conj} " + names[-1]


LANG_HELP = (
    "language of everything printed: fr or en (default: [table] lang in the config, "
    "else the locale's when French or English, else fr)",
    "langue de tout ce qui est affiché : fr ou en (par défaut : [table] lang de la "
    "configuration, sinon celle de la locale si elle est française ou anglaise, sinon fr)",
)


class Words:
    """The language of the help being built (``lang``) and the one ``--lang`` left out reads as
    (``default_lang``, what ``companion.lang.resolve_lang`` found); called with a help text's
    English and French, it gives the one to show (French with its typography: U+202F before
    : ; ! ?)."""

    __slots__ = ("default_lang", "lang")  # a plain class: --help imports no dataclasses

    def __init__(self, lang: str = "en", default_lang: str = "fr") -> None:
        self.lang = lang
        self.default_lang = default_lang

    def __call__(self, en: str, fr: str) -> str:
        return _typography(fr) if self.lang == "fr" else en

    def key(self, key: str) -> str:
        """A help text of the catalogue, as it is written there."""
        fr, en = CATALOGUE[key]
        return self(en, fr)

    def rounds_help(self, default: str) -> str:
        """--rounds for the games that take it: "Kilo de merde: 1 to 99 (default 10)"."""
        parts = [(g.title, getattr(g, default)) for g in GAMES.values() if getattr(g, default)]
        return self(
            "; ".join(f"{title}: 1 to 99 (default {n})" for title, n in parts),
            " ; ".join(f"{title} : 1 à 99 (par défaut {n})" for title, n in parts),
        )

    def players_help(self) -> str:
        ranges = ", ".join(f"{name} {g.min_players}-{g.max_players}" for name, g in GAMES.items())
        return self(f"{ranges} (default 5)", f"{ranges} (par défaut 5)")

    def lang_option(self, parser: argparse.ArgumentParser, resumed: bool = False) -> None:
        extra = (
            ("; a resumed game keeps its own", " ; une partie reprise garde la sienne")
            if resumed
            else ("", "")
        )
        parser.add_argument(
            "--lang",
            choices=LANGS,
            default=DefaultLang(self.default_lang),
            help=self(LANG_HELP[0] + extra[0], LANG_HELP[1] + extra[1]),
        )

    def data_option(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--data-dir",
            type=folder,
            default=None,
            help=self(
                "folder of the journal (default: the user's data folder, or $COMPANION_DATA_DIR)",
                "dossier du journal (par défaut : le dossier de données de "
                "l'utilisateur, ou $COMPANION_DATA_DIR)",
            ),
        )

    def common(self, parser: argparse.ArgumentParser, *, data: bool = True, resumed: bool = False) -> None:
        self.lang_option(parser, resumed)
        if data:
            self.data_option(parser)

    def config_option(self, parser: argparse.ArgumentParser) -> None:
        """One ``--config`` for every command that reads the table's settings, with one help."""
        parser.add_argument(
            "--config",
            type=Path,
            default=None,
            help=self(
                "config file (TOML) (default: $COMPANION_CONFIG, else "
                "~/.config/table-companion/companion.toml)",
                "fichier de configuration (TOML) (par défaut : $COMPANION_CONFIG, sinon "
                "~/.config/table-companion/companion.toml)",
            ),
        )

    def json(self, parser: argparse.ArgumentParser, en: str, fr: str) -> None:
        parser.add_argument("--json", action="store_true", help=self(en, fr))

    def rotate_option(self, parser: argparse.ArgumentParser, default_help: tuple[str, str]) -> None:
        parser.add_argument(
            "--rotate",
            type=rotation,
            default=None,
            metavar="DEGREES",
            help=self(
                f"a screen mounted turned: 0, 90, 180 or 270 degrees clockwise (default: {default_help[0]})",
                "un écran monté tourné : 0, 90, 180 ou 270 degrés dans le sens "
                f"horaire (par défaut : {default_help[1]})",
            ),
        )
