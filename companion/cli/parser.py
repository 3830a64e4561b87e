"""The whole command line in one place: every subcommand, its options and their help.

Building the parser imports no command's module: each subcommand names its function, which is
imported when it runs (``Lazy``). That keeps ``companion --help`` as fast as a bare Python start.
Help and usage errors speak the language of ``--lang`` (else of the environment, French first);
numbers are checked here, so a bad one is refused before anything is created.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from companion.games import DEFAULT_GAME, GAMES
from companion.i18n import CATALOGUE
from companion.i18n import french_typography as _typography
from companion.lang import LANGS

# The games as the registry names them (its lines only: no game is imported).
GAME_CHOICES = tuple(GAMES)
INPUT_CHOICES = ("gpio", "serial", "keyboard", "sim")
MAX_SEATS = max(g.max_players for g in GAMES.values())  # the most players any game takes
_START, _SEP = "\x1e", "\x1f"  # around the English and French halves of a usage error

# argparse's own words (Python's gettext catalogue has no French one).
_ARGPARSE_FR = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "options": "options",
    "show this help message and exit": "affiche cette aide et quitte",
    # The program's name tags the line as in English ("companion: "), the French sentence follows.
    "%(prog)s: error: %(message)s\n": "%(prog)s: erreur : %(message)s\n",
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "choix invalide : %(value)r (choisissez parmi %(choices)s)"
    ),
    "the following arguments are required: %s": "ces arguments sont obligatoires : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "expected one argument": "il faut une valeur",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s) : %(value)r",
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "ambiguous option: %(option)s could match %(matches)s": (
        "option ambiguë : %(option)s peut désigner %(matches)s"
    ),
}
_ARGPARSE_FR = {en: _typography(fr) for en, fr in _ARGPARSE_FR.items()}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one sentence in the chosen language."""

    lang = "en"
    _width: int | None = None  # the terminal's, measured once a process

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter at every add_argument (to check the metavar), and each one
        # measured the terminal (shutil.get_terminal_size): 120 of them, about 0.02 s of CPU at
        # every start (`history --help` 0.09 -> 0.07 s under load). Once, with the width
        # HelpFormatter would find (COLUMNS too).
        if Parser._width is None:
            import shutil

            Parser._width = shutil.get_terminal_size().columns - 2
        return self.formatter_class(prog=self.prog, width=Parser._width)  # type: ignore[call-arg]

    def error(self, message: str) -> NoReturn:
        if _SEP in message:  # one of our checks below: "argument --x: <START>en<SEP>fr"
            prefix, _, both = message.partition(_START)
            en, _, fr = both.partition(_SEP)
            message = prefix + (fr if self.lang == "fr" else en)
        self.print_usage(sys.stderr)
        # "companion: demo: error: ..." as Unix tools tag their messages; the words in the
        # parser's language.
        where = self.prog.removeprefix("companion").strip()
        template = (
            _ARGPARSE_FR["%(prog)s: error: %(message)s\n"]
            if self.lang == "fr"
            else "%(prog)s: error: %(message)s\n"
        )
        self.exit(2, template % {"prog": "companion" + (": " + where if where else ""), "message": message})


def _bad(en: str, fr: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(_START + en + _SEP + _typography(fr))


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


def _rotate_option(parser: argparse.ArgumentParser, default_help: tuple[str, str]) -> None:
    parser.add_argument(
        "--rotate",
        type=rotation,
        default=None,
        metavar="DEGREES",
        help=_h(
            f"a screen mounted turned: 0, 90, 180 or 270 degrees clockwise (default: {default_help[0]})",
            "un écran monté tourné : 0, 90, 180 ou 270 degrés dans le sens "
            f"horaire (par défaut : {default_help[1]})",
        ),
    )


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


_LANG = "en"
_DEFAULT = "fr"


class DefaultLang(str):
    """``--lang`` left out: the language the rule found, but a resumed game may speak its own."""


def lang_given(args: argparse.Namespace) -> bool:
    return not isinstance(getattr(args, "lang", None), DefaultLang)


def _h(en: str, fr: str) -> str:
    """A help text in the parser's language (French with its typography: U+202F before : ; ! ?)."""
    return _typography(fr) if _LANG == "fr" else en


def _hk(key: str) -> str:
    """A help text of the catalogue, as it is written there."""
    fr, en = CATALOGUE[key]
    return _h(en, fr)


def _games_listed(conj: str, default_note: str = "") -> str:
    """The registry's games as a help text lists them: "kilo (default), cinq-rois or treize"."""
    names = [g + default_note if g == DEFAULT_GAME else g for g in GAMES]
    return ", ".join(names[:-1]) + f" {conj} " + names[-1]


def _rounds_help(default: str) -> str:
    """--rounds for the games that take it: "Kilo de merde: 1 to 99 (default 10)"."""
    parts = [(g.title, getattr(g, default)) for g in GAMES.values() if getattr(g, default)]
    return _h(
        "; ".join(f"{title}: 1 to 99 (default {n})" for title, n in parts),
        " ; ".join(f"{title} : 1 à 99 (par défaut {n})" for title, n in parts),
    )


def _players_help() -> str:
    ranges = ", ".join(f"{name} {g.min_players}-{g.max_players}" for name, g in GAMES.items())
    return _h(f"{ranges} (default 5)", f"{ranges} (par défaut 5)")


LANG_HELP = (
    "language of everything printed: fr or en (default: [table] lang in the config, "
    "else the locale's when French or English, else fr)",
    "langue de tout ce qui est affiché : fr ou en (par défaut : [table] lang de la "
    "configuration, sinon celle de la locale si elle est française ou anglaise, sinon fr)",
)


def _lang_option(parser: argparse.ArgumentParser, resumed: bool = False) -> None:
    extra = (
        ("; a resumed game keeps its own", " ; une partie reprise garde la sienne") if resumed else ("", "")
    )
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=DefaultLang(_DEFAULT),
        help=_h(LANG_HELP[0] + extra[0], LANG_HELP[1] + extra[1]),
    )


def _data_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=folder,
        default=None,
        help=_h(
            "folder of the journal (default: the user's data folder, or $COMPANION_DATA_DIR)",
            "dossier du journal (par défaut : le dossier de données de "
            "l'utilisateur, ou $COMPANION_DATA_DIR)",
        ),
    )


def _common(parser: argparse.ArgumentParser, *, data: bool = True, resumed: bool = False) -> None:
    _lang_option(parser, resumed)
    if data:
        _data_option(parser)


def _config_option(parser: argparse.ArgumentParser) -> None:
    """One ``--config`` for every command that reads the table's settings, with one help."""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help=_h(
            "config file (TOML) (default: $COMPANION_CONFIG, else ~/.config/table-companion/companion.toml)",
            "fichier de configuration (TOML) (par défaut : $COMPANION_CONFIG, sinon "
            "~/.config/table-companion/companion.toml)",
        ),
    )


def _json(parser: argparse.ArgumentParser, en: str, fr: str) -> None:
    parser.add_argument("--json", action="store_true", help=_h(en, fr))


def _commands(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help=_h(
            f"a whole game with simulated players (default: {GAMES[DEFAULT_GAME].title})",
            f"une partie entière avec des joueurs simulés (par défaut : {GAMES[DEFAULT_GAME].title})",
        ),
    )
    p.add_argument(
        "game",
        nargs="?",
        default=DEFAULT_GAME,
        choices=GAME_CHOICES,
        help=_h(_games_listed("or", " (default)"), _games_listed("ou", " (par défaut)")),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help=_h(
            "same seed, same game (default: random)", "même graine, même partie (par défaut : au hasard)"
        ),
    )
    p.add_argument(
        "--players",
        type=int,
        default=5,
        help=_players_help(),
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=_rounds_help("demo_rounds"),
    )
    p.add_argument(
        "--speed",
        type=speed,
        default=1.0,
        help=_h(
            "1 = real time, 4 = four times faster, 0 = as fast as possible",
            "1 = temps réel, 4 = quatre fois plus vite, 0 = au plus vite",
        ),
    )
    _json(p, "print the final state as JSON on stdout", "affiche l'état final en JSON sur la sortie standard")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_demo"))

    p = sub.add_parser(
        "resume",
        help=_h(
            "continue the last unfinished game exactly", "reprend exactement la dernière partie inachevée"
        ),
    )
    p.add_argument(
        "game_id",
        nargs="?",
        default=None,
        help=_h(
            "the game to continue (default: the latest unfinished one)",
            "la partie à reprendre (par défaut : la dernière inachevée)",
        ),
    )
    p.add_argument(
        "--speed",
        type=speed,
        default=1.0,
        help=_h(
            "simulated players: 1 = real time, 0 = as fast as possible",
            "joueurs simulés : 1 = temps réel, 0 = au plus vite",
        ),
    )
    _json(p, "print the final state as JSON on stdout", "affiche l'état final en JSON sur la sortie standard")
    _common(p, resumed=True)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_resume"))

    p = sub.add_parser(
        "replay",
        help=_h(
            "replay a table log (JSON Lines) and print the state",
            "rejoue un journal de table (JSON Lines) et affiche l'état",
        ),
    )
    p.add_argument(
        "file",
        help=_h("the table log, or - for standard input", "le journal de table, ou - pour l'entrée standard"),
    )
    _json(p, "the state as one JSON object", "l'état en un objet JSON")
    _common(p, data=False)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_replay"))

    p = sub.add_parser(
        "export",
        help=_h(
            "print a stored game as a table log, or score sheets as CSV",
            "affiche une partie enregistrée comme journal de table, ou les feuilles de score en CSV",
        ),
    )
    p.add_argument(
        "game_id",
        nargs="?",
        default=None,
        help=_h(
            "the game to export (default: the most recent one)",
            "la partie à exporter (par défaut : la plus récente)",
        ),
    )
    p.add_argument(
        "--csv",
        action="store_true",
        help=_hk("cli.help.export_csv"),
    )
    p.add_argument(
        "--all",
        action="store_true",
        help=_h("--csv: every stored game", "--csv : toutes les parties enregistrées"),
    )
    p.add_argument(
        "--comment",
        action="store_true",
        help=_h(
            "start the table log with a # line naming the version and the game "
            "(replay skips it; JSON Lines readers such as jq do not)",
            "commence le journal de table par une ligne # qui nomme la version et "
            "la partie (replay l'ignore ; les lecteurs JSON Lines comme jq non)",
        ),
    )
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_export"))

    p = sub.add_parser("games", help=_h("list the stored games", "liste les parties enregistrées"))
    _json(p, "the list as one JSON object", "la liste en un objet JSON")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_games"))


def _history(sub: Any) -> None:
    p = sub.add_parser(
        "history",
        help=_h(
            "the stored games: date, game, players, winner",
            "les parties enregistrées : date, jeu, joueurs, vainqueur",
        ),
    )
    p.add_argument(
        "--game", choices=GAME_CHOICES, default=None, help=_h("only this game", "seulement ce jeu")
    )
    _demos(p)
    _json(p, "the list as one JSON object", "la liste en un objet JSON")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_history"))

    p = sub.add_parser(
        "stats",
        help=_hk("cli.help.stats"),
    )
    p.add_argument(
        "player",
        nargs="?",
        default=None,
        help=_h("one player in detail (default: all)", "un joueur en détail (par défaut : tous)"),
    )
    p.add_argument(
        "--game", choices=GAME_CHOICES, default=None, help=_h("only this game", "seulement ce jeu")
    )
    _demos(p)
    _json(p, "the numbers as one JSON object", "les chiffres en un objet JSON")
    p.add_argument(
        "--html",
        metavar="FILE",
        default=None,
        help=_h(
            "write the evening as one self-contained page (charts included) to FILE",
            "écrire la soirée en une page autonome (graphiques compris) dans FICHIER",
        ),
    )
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_stats"))


def _demos(p: Any) -> None:
    p.add_argument(
        "--demos",
        action="store_true",
        help=_h(
            "count the games `companion demo` played too (left out by default)",
            "compte aussi les parties jouées par `companion demo` (laissées de côté par défaut)",
        ),
    )


def _play(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help=_h(
            "the table screen (pygame): play a game with buttons",
            "l'écran de table (pygame) : jouer avec des boutons",
        ),
    )
    p.add_argument(
        "game",
        nargs="?",
        default=None,
        help=_h(
            f"{_games_listed('or')} (default: the game the table played last; "
            f"{DEFAULT_GAME} with --players and none played yet)",
            f"{_games_listed('ou')} (par défaut : le jeu joué en dernier à "
            f"la table ; {DEFAULT_GAME} avec --players et aucune partie encore)",
        ),
    )
    p.add_argument(
        "--input",
        default=None,
        help=_h(
            "button source: gpio, serial, keyboard or sim, or e.g. gpio+keyboard "
            "(default: [input] source in the config, else keyboard, or the "
            "resumed game's)",
            "source des boutons : gpio, serial, keyboard ou sim, ou par exemple "
            "gpio+keyboard (par défaut : [input] source de la configuration, "
            "sinon keyboard, ou celle de la partie reprise)",
        ),
    )
    p.add_argument(
        "--web",
        action="store_true",
        help=_h(
            "serve the phones: standings, seat pads and the scorer's entry "
            "([web] in the config; off by default)",
            "servir les téléphones : classement, boutons des places et saisie du "
            "marqueur ([web] de la configuration ; désactivé par défaut)",
        ),
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--window", action="store_true", help=_h("in a window (the default)", "dans une fenêtre (par défaut)")
    )
    mode.add_argument(
        "--fullscreen", action="store_true", help=_h("the whole screen (kiosk)", "tout l'écran (kiosque)")
    )
    p.add_argument(
        "--size",
        default=None,
        help=_h(
            "window size WIDTHxHEIGHT, e.g. 800x480",
            "taille de la fenêtre LARGEURxHAUTEUR, par exemple 800x480",
        ),
    )
    _rotate_option(
        p, ("[display] rotate in the config, else 0", "[display] rotate de la configuration, sinon 0")
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="GAME_ID",
        help=_h(
            "reopen an interrupted game (default: the latest unfinished one)",
            "rouvre une partie interrompue (par défaut : la dernière inachevée)",
        ),
    )
    p.add_argument(
        "--players",
        default=None,
        help=_h(
            "comma-separated names in seating order: skip the setup screen",
            "noms séparés par des virgules, dans l'ordre des places : saute l'écran de préparation",
        ),
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=_rounds_help("play_rounds"),
    )
    _config_option(p)
    p.add_argument(
        "--seed", type=int, default=None, help=_h("simulated players' seed", "graine des joueurs simulés")
    )
    p.add_argument(
        "--speed",
        type=speed,
        default=1.0,
        help=_h(
            "simulated players' speed: 1 = real time, 0 = as fast as possible",
            "vitesse des joueurs simulés : 1 = temps réel, 0 = au plus vite",
        ),
    )
    p.add_argument("--mute", action="store_true", help=_h("no sound", "sans son"))
    _lang_option(p, resumed=True)
    _data_option(p)
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_play"))

    p = sub.add_parser(
        "snapshot",
        help=_h(
            "draw one screen of the table for a table log, to PNG",
            "dessine un écran de la table pour un journal de table, en PNG",
        ),
    )
    p.add_argument(
        "screen",
        help=_h(
            "a screen of the log's game (e.g. table, setup, rules, status); a wrong name lists them",
            "un écran du jeu du journal (par exemple table, setup, rules, status) ; un mauvais nom les liste",
        ),
    )
    p.add_argument(
        "--log",
        default=None,
        help=_h(
            "table log (JSON Lines); none: no game yet",
            "journal de table (JSON Lines) ; sans : pas encore de partie",
        ),
    )
    p.add_argument(
        "--size",
        default="1280x720",
        help=_h("WIDTHxHEIGHT (default 1280x720)", "LARGEURxHAUTEUR (par défaut 1280x720)"),
    )
    _lang_option(p)
    p.add_argument("--out", required=True, help=_h("the PNG file to write", "le fichier PNG à écrire"))
    _rotate_option(
        p,
        (
            "0; --size is then the display's, the frame is laid out turned",
            "0 ; --size est alors celle de l'écran, l'image est composée tournée",
        ),
    )
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_snapshot"))


def _buttons(sub: Any) -> None:
    p = sub.add_parser(
        "buttons",
        help=_h(
            "live button monitor for wiring, or --assign to write the pin map",
            "moniteur des boutons en direct pour le câblage, ou --assign pour écrire le plan des broches",
        ),
        description=_h(
            "The live button monitor, for wiring and maintenance; --assign writes "
            "the pin map by asking for each button in turn.",
            "Le moniteur des boutons en direct, pour le câblage et l'entretien ; "
            "--assign écrit le plan des broches en demandant chaque bouton à tour de "
            "rôle.",
        ),
    )
    p.add_argument(
        "--input",
        default=None,
        help=_h(
            "gpio, serial, keyboard or sim (default: [input] source in the config)",
            "gpio, serial, keyboard ou sim (par défaut : [input] source de la configuration)",
        ),
    )
    _config_option(p)
    p.add_argument(
        "--seats",
        type=seats,
        default=None,
        help=_h(
            f"number of seats, 1 to {MAX_SEATS} (sim: default 4)",
            f"nombre de places, 1 à {MAX_SEATS} (sim : 4 par défaut)",
        ),
    )
    _lang_option(p)
    p.add_argument(
        "--max-events",
        type=count,
        default=None,
        help=_h("stop after N presses/releases", "s'arrête après N appuis/relâchés"),
    )
    p.add_argument(
        "--duration",
        type=duration,
        default=None,
        help=_h("stop after S seconds", "s'arrête après S secondes"),
    )
    _json(p, "one JSON object per line", "un objet JSON par ligne")
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help=_h("sim: seed of the simulated players", "sim : graine des joueurs simulés"),
    )
    p.add_argument(
        "--speed",
        type=speed,
        default=1.0,
        help=_h("sim: 1 = real time, 0 = as fast as possible", "sim : 1 = temps réel, 0 = au plus vite"),
    )
    p.add_argument(
        "--assign",
        action="store_true",
        help=_h("press each button in seat order", "appuyez sur chaque bouton dans l'ordre des places"),
    )
    p.add_argument(
        "--referee",
        action="store_true",
        help=_h("--assign: also the referee buttons", "--assign : aussi les boutons d'arbitre"),
    )
    p.add_argument(
        "--output", type=Path, default=None, help=_h("--assign: file to write", "--assign : fichier à écrire")
    )
    p.add_argument(
        "--force", action="store_true", help=_h("--assign: overwrite --output", "--assign : écrase --output")
    )
    p.set_defaults(func=Lazy("companion.cli.buttons", "cmd_buttons"))


def _firmware(sub: Any) -> None:
    fw = sub.add_parser(
        "firmware",
        help=_h(
            "the Pico button board's firmware: install it, or show what a board runs",
            "le firmware de la carte à boutons Pico : l'installer, ou voir ce qu'une carte exécute",
        ),
        description=_h(
            "The Pico button board: copy the firmware shipped with this copy to a "
            "Pico running MicroPython, or ask a board what it runs.",
            "La carte à boutons Pico : copier le firmware livré avec cette copie sur "
            "un Pico sous MicroPython, ou demander à une carte ce qu'elle exécute.",
        ),
    )
    fsub = fw.add_subparsers(
        dest="firmware_command",
        metavar="ACTION",
        required=True,
        help=_h("install or info", "install ou info"),
    )
    inst = fsub.add_parser(
        "install",
        help=_h(
            "copy the firmware to a Pico running MicroPython",
            "copie le firmware sur un Pico sous MicroPython",
        ),
    )
    inst.add_argument(
        "--port",
        help=_h(
            "serial port of the Pico (default: found by USB id 2E8A)",
            "port série du Pico (par défaut : trouvé par l'identifiant USB 2E8A)",
        ),
    )
    inst.add_argument(
        "--source",
        help=_h(
            "firmware folder (default: the one shipped with this copy)",
            "dossier du firmware (par défaut : celui livré avec cette copie)",
        ),
    )
    inst.add_argument(
        "--dry-run",
        action="store_true",
        help=_h("print the mpremote command only", "affiche seulement la commande mpremote"),
    )
    _lang_option(inst)
    inst.set_defaults(func=Lazy("companion.cli.firmware", "cmd_install"))
    info = fsub.add_parser(
        "info",
        help=_h(
            "firmware version, unique id and pin map of a board",
            "version du firmware, identifiant unique et plan des broches d'une carte",
        ),
    )
    info.add_argument(
        "--port",
        help=_h(
            "serial port or pyserial URL (default: found by USB id 2E8A)",
            "port série ou URL pyserial (par défaut : trouvé par l'identifiant USB 2E8A)",
        ),
    )
    _json(info, "one JSON object instead of text", "un objet JSON au lieu du texte")
    _lang_option(info)
    info.set_defaults(func=Lazy("companion.cli.firmware", "cmd_info"))


def _doctor(sub: Any) -> None:
    p = sub.add_parser(
        "doctor",
        help=_h(
            "check this machine: Python, display, GPIO, buttons, Pico, journal, config, service",
            "vérifie cette machine : Python, écran, GPIO, boutons, Pico, journal, configuration, service",
        ),
        description=_h(
            "One line per check, with the fix for each failure; exits 1 if any fails.",
            "Une ligne par vérification, avec le remède de chaque échec ; code de sortie 1 si l'une échoue.",
        ),
    )
    _config_option(p)
    p.add_argument(
        "--port",
        default=None,
        help=_h(
            "serial port of the Pico board (default: found by USB id 2E8A)",
            "port série du boîtier Pico (par défaut : trouvé par l'identifiant USB 2E8A)",
        ),
    )
    _json(p, "the checks as one JSON object", "les vérifications en un objet JSON")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.doctor", "cmd_doctor"))


def _config(sub: Any) -> None:
    p = sub.add_parser(
        "config",
        help=_h(
            "read or change one setting of the config file (the table's language, its buttons...)",
            "lit ou change un réglage du fichier de configuration (la langue de la table, ses boutons...)",
        ),
        description=_h(
            "One setting changed, every other line of the file kept (comments included). "
            "Settings are named section.key, as `companion config show --example` lists them: "
            "`companion config set table.lang fr`.",
            "Un réglage changé, toutes les autres lignes du fichier gardées (commentaires compris). "
            "Les réglages se nomment section.clé, comme les liste `companion config show --example` : "
            "`companion config set table.lang fr`.",
        ),
    )
    csub = p.add_subparsers(
        dest="config_command",
        metavar="ACTION",
        required=True,
        help=_h("show, get, set, unset or path", "show, get, set, unset ou path"),
    )
    actions = {
        "show": ("every setting and its value", "chaque réglage et sa valeur"),
        "get": ("one setting's value", "la valeur d'un réglage"),
        "set": ("change one setting", "change un réglage"),
        "unset": (
            "remove one setting (its default applies)",
            "retire un réglage (sa valeur par défaut s'applique)",
        ),
        "path": ("the config file's path", "le chemin du fichier de configuration"),
    }
    for name, (en, fr) in actions.items():
        a = csub.add_parser(name, help=_h(en, fr))
        if name in ("get", "set", "unset"):
            a.add_argument(
                "key",
                metavar="KEY",
                help=_h("section.key, e.g. table.lang", "section.clé, par ex. table.lang"),
            )
        if name == "set":
            a.add_argument("value", metavar="VALUE", help=_h("e.g. fr, 180, true", "par ex. fr, 180, true"))
        if name == "show":
            a.add_argument(
                "--example",
                action="store_true",
                help=_h(
                    "the example config instead: every setting, commented",
                    "l'exemple de configuration à la place : chaque réglage, commenté",
                ),
            )
        _config_option(a)
        _lang_option(a)
        a.set_defaults(func=Lazy("companion.cli.settings", "cmd_config"))


DESCRIPTION = (
    "The companion of the card table: one subcommand per job; every hardware choice is a flag or config.",
    "Le companion de la table de cartes : une sous-commande par tâche ; chaque choix "
    "matériel est une option ou une entrée de configuration.",
)


class _Version(argparse.Action):
    """``--version``: read from the metadata only when asked (an import costs every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from companion import version

        print(f"companion {version()}")
        parser.exit(0)


SHELLS = ("bash", "zsh", "fish")


def completion(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell``, generated from the parser itself (so it names every
    subcommand and option there is); the shell runs it alone, Python is never started on TAB."""
    if shell == "fish":
        return _fish(parser)
    import shtab

    return str(shtab.complete(parser, shell=shell))


def _fish(parser: argparse.ArgumentParser) -> str:
    """fish's completions (shtab writes bash, zsh and tcsh only): one ``complete`` line per
    subcommand, option and choice."""

    def quoted(text: str | None) -> str:
        return "'" + (text or "").replace("\\", "\\\\").replace("'", "\\'") + "'"

    lines = [
        "# companion: fish completion, made by `companion --completion fish`",
        "complete -c companion -f",
    ]
    commands = _subcommands(parser)
    none_yet = "not __fish_seen_subcommand_from " + " ".join(commands)
    for action in parser._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                lines.append(
                    f"complete -c companion -n {quoted(none_yet)} -l {flag[2:]} -d {quoted(action.help)}"
                )
    for name, sub in commands.items():
        lines.append(
            f"complete -c companion -n {quoted(none_yet)} -a {name} -d {quoted(_command_help(parser, name))}"
        )
        seen = f"__fish_seen_subcommand_from {name}"
        for action in sub._actions:
            choices = (
                " ".join(str(c) for c in action.choices or ())
                if not isinstance(action, argparse._SubParsersAction)
                else ""
            )
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices:
                    lines.append(f"complete -c companion -n {quoted(seen)} -a {child}")
                continue
            for flag in action.option_strings:
                if not flag.startswith("--"):
                    continue
                takes = action.nargs != 0
                arg = (f" -x -a {quoted(choices)}" if choices else " -r") if takes else ""
                lines.append(
                    f"complete -c companion -n {quoted(seen)} -l {flag[2:]}{arg} -d {quoted(action.help)}"
                )
            if not action.option_strings and choices:
                lines.append(f"complete -c companion -n {quoted(seen)} -a {quoted(choices)}")
            elif not action.option_strings and action.dest == "file":  # replay FILE: files
                lines.append(f"complete -c companion -n {quoted(seen)} -F")
    return "\n".join(lines) + "\n"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _command_help(parser: argparse.ArgumentParser, name: str) -> str:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.dest == name:
                    return choice.help or ""
    return ""


class _Completion(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(completion(parser, str(values)))
        parser.exit(0)


REGISTERS = (_commands, _history, _play, _buttons, _firmware, _config, _doctor)
# Which register adds each subcommand (tests/test_cli_parser.py checks it against REGISTERS).
_GROUPS: dict[str, Callable[[Any], None]] = {
    **dict.fromkeys(("demo", "resume", "replay", "export", "games"), _commands),
    **dict.fromkeys(("history", "stats"), _history),
    **dict.fromkeys(("play", "snapshot"), _play),
    "buttons": _buttons,
    "firmware": _firmware,
    "config": _config,
    "doctor": _doctor,
}


def build_parser(
    description: str | None = None, lang: str = "en", default_lang: str = "fr", command: str | None = None
) -> argparse.ArgumentParser:
    """The parser, its help in ``lang``; argparse's own words are French too when ``lang`` is
    fr (``companion`` sets that up once, for its process). ``--lang`` left out reads as
    ``default_lang``, the language ``resolve_lang`` found. ``command``: the subcommand the
    command line names, if it names one; only its group of subcommands is built (building
    them all was a tenth of `companion play`'s way to its first frame), the same parser for it."""
    global _LANG, _DEFAULT
    _LANG, _DEFAULT = lang, default_lang
    Parser.lang = lang
    try:
        parser = Parser(prog="companion", description=_h(*DESCRIPTION))
        parser.add_argument(
            "--version",
            action=_Version,
            help=_h("print the version and exit", "affiche la version et quitte"),
        )
        parser.add_argument(
            "--completion",
            action=_Completion,
            choices=SHELLS,
            metavar="SHELL",
            help=_h(
                "print the completion script for bash, zsh or fish (see docs/completion.md) and exit",
                "affiche le script de complétion pour bash, zsh ou fish (voir docs/completion.md) et quitte",
            ),
        )
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=_h("one of:", "au choix :"))
        only = _GROUPS.get(command) if command is not None else None
        for register in REGISTERS if only is None else (only,):
            register(sub)
    finally:
        _LANG, _DEFAULT = "en", "fr"
    return parser


def short_usage(parser: argparse.ArgumentParser) -> str:
    """What a bare ``companion`` prints (to stderr): the usage line and one line per command."""
    fr = Parser.lang == "fr"
    lines = [parser.format_usage().rstrip(), "", "Commandes :" if fr else "Commands:"]
    lines += [f"  {name:<9} {_command_help(parser, name)}" for name in _subcommands(parser)]
    lines += [
        "",
        "companion COMMANDE --help : l'aide d'une commande"
        if fr
        else "companion COMMAND --help: the help of one command",
    ]
    text = "\n".join(lines) + "\n"
    return _typography(text) if fr else text


def use_french_argparse() -> None:
    """argparse's own words (usage:, error:...) in French, for this process."""
    argparse._ = lambda text: _ARGPARSE_FR.get(text, text)  # type: ignore[attr-defined]
