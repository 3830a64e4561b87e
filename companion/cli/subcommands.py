"""Every subcommand, its options and their help, in groups (``REGISTERS``): building the parser
imports no command's module, each subcommand names its function (``Lazy``). A group is built in
the language of the ``Words`` it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli.options import (
    GAME_CHOICES,
    MAX_SEATS,
    Lazy,
    Words,
    count,
    duration,
    games_listed,
    seats,
    speed,
)
from companion.table.registry import DEFAULT_GAME, GAMES


def _commands(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "demo",
        help=h(
            f"a whole game with simulated players (default: {GAMES[DEFAULT_GAME].title})",
            f"une partie entière avec des joueurs simulés (par défaut : {GAMES[DEFAULT_GAME].title})",
        ),
    )
    p.add_argument(
        "game",
        nargs="?",
        default=DEFAULT_GAME,
        choices=GAME_CHOICES,
        help=h(games_listed("or", " (default)"), games_listed("ou", " (par défaut)")),
    )
    _seed(
        p,
        h,
        None,
        "same seed, same game (default: random)",
        "même graine, même partie (par défaut : au hasard)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=5,
        help=h.players_help(),
    )
    _rounds(p, h, "demo_rounds")
    _speed(
        p,
        h,
        "1 = real time, 4 = four times faster, 0 = as fast as possible",
        "1 = temps réel, 4 = quatre fois plus vite, 0 = au plus vite",
    )
    _final_state(p, h)
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_demo"))

    p = sub.add_parser(
        "resume",
        help=h(
            "continue the last unfinished game exactly", "reprend exactement la dernière partie inachevée"
        ),
    )
    _game_id(
        p,
        h,
        "the game to continue (default: the latest unfinished one)",
        "la partie à reprendre (par défaut : la dernière inachevée)",
    )
    _speed(
        p,
        h,
        "simulated players: 1 = real time, 0 = as fast as possible",
        "joueurs simulés : 1 = temps réel, 0 = au plus vite",
    )
    _final_state(p, h)
    h.common(p, resumed=True)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_resume"))

    p = sub.add_parser(
        "replay",
        help=h(
            "replay a table log (JSON Lines) and print the state",
            "rejoue un journal de table (JSON Lines) et affiche l'état",
        ),
    )
    p.add_argument(
        "file",
        help=h("the table log, or - for standard input", "le journal de table, ou - pour l'entrée standard"),
    )
    h.json(p, "the state as one JSON object", "l'état en un objet JSON")
    h.common(p, data=False)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_replay"))

    p = sub.add_parser(
        "export",
        help=h(
            "print a stored game as a table log, or score sheets as CSV",
            "affiche une partie enregistrée comme journal de table, ou les feuilles de score en CSV",
        ),
    )
    _game_id(
        p,
        h,
        "the game to export (default: the most recent one)",
        "la partie à exporter (par défaut : la plus récente)",
    )
    p.add_argument(
        "--csv",
        action="store_true",
        help=h.key("cli.help.export_csv"),
    )
    p.add_argument(
        "--all",
        action="store_true",
        help=h("--csv: every stored game", "--csv : toutes les parties enregistrées"),
    )
    p.add_argument(
        "--comment",
        action="store_true",
        help=h(
            "start the table log with a # line naming the version and the game "
            "(replay skips it; JSON Lines readers such as jq do not)",
            "commence le journal de table par une ligne # qui nomme la version et "
            "la partie (replay l'ignore ; les lecteurs JSON Lines comme jq non)",
        ),
    )
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_export"))

    p = sub.add_parser("games", help=h("list the stored games", "liste les parties enregistrées"))
    h.json(p, "the list as one JSON object", "la liste en un objet JSON")
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_games"))


def _history(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "history",
        help=h(
            "the stored games: date, game, players, winner",
            "les parties enregistrées : date, jeu, joueurs, vainqueur",
        ),
    )
    _which_games(p, h)
    h.json(p, "the list as one JSON object", "la liste en un objet JSON")
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_history"))

    p = sub.add_parser(
        "stats",
        help=h.key("cli.help.stats"),
    )
    p.add_argument(
        "player",
        nargs="?",
        default=None,
        help=h("one player in detail (default: all)", "un joueur en détail (par défaut : tous)"),
    )
    _which_games(p, h)
    h.json(p, "the numbers as one JSON object", "les chiffres en un objet JSON")
    p.add_argument(
        "--html",
        metavar="FILE",
        default=None,
        help=h(
            "write the evening as one self-contained page (charts included) to FILE",
            "écrire la soirée en une page autonome (graphiques compris) dans FICHIER",
        ),
    )
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_stats"))


def _which_games(p: Any, h: Words) -> None:
    """The games a list or the numbers count: one game's only, the demos' too."""
    p.add_argument("--game", choices=GAME_CHOICES, default=None, help=h("only this game", "seulement ce jeu"))
    p.add_argument(
        "--demos",
        action="store_true",
        help=h(
            "count the games `companion demo` played too (left out by default)",
            "compte aussi les parties jouées par `companion demo` (laissées de côté par défaut)",
        ),
    )


def _play(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "play",
        help=h(
            "the table screen (pygame): play a game with buttons",
            "l'écran de table (pygame) : jouer avec des boutons",
        ),
    )
    p.add_argument(
        "game",
        nargs="?",
        default=None,
        help=h(
            f"{games_listed('or')} (default: the game the table played last; "
            f"{DEFAULT_GAME} with --players and none played yet)",
            f"{games_listed('ou')} (par défaut : le jeu joué en dernier à "
            f"la table ; {DEFAULT_GAME} avec --players et aucune partie encore)",
        ),
    )
    p.add_argument(
        "--input",
        default=None,
        help=h(
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
        help=h(
            "serve the phones: standings, seat pads and the scorer's entry "
            "([web] in the config; off by default)",
            "servir les téléphones : classement, boutons des places et saisie du "
            "marqueur ([web] de la configuration ; désactivé par défaut)",
        ),
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--window", action="store_true", help=h("in a window (the default)", "dans une fenêtre (par défaut)")
    )
    mode.add_argument(
        "--fullscreen", action="store_true", help=h("the whole screen (kiosk)", "tout l'écran (kiosque)")
    )
    p.add_argument(
        "--size",
        default=None,
        help=h(
            "window size WIDTHxHEIGHT, e.g. 800x480",
            "taille de la fenêtre LARGEURxHAUTEUR, par exemple 800x480",
        ),
    )
    h.rotate_option(
        p, ("[display] rotate in the config, else 0", "[display] rotate de la configuration, sinon 0")
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="GAME_ID",
        help=h(
            "reopen an interrupted game (default: the latest unfinished one)",
            "rouvre une partie interrompue (par défaut : la dernière inachevée)",
        ),
    )
    p.add_argument(
        "--players",
        default=None,
        help=h(
            "comma-separated names in seating order: skip the setup screen",
            "noms séparés par des virgules, dans l'ordre des places : saute l'écran de préparation",
        ),
    )
    _rounds(p, h, "play_rounds")
    h.config_option(p)
    _seed(p, h, None, "simulated players' seed", "graine des joueurs simulés")
    _speed(
        p,
        h,
        "simulated players' speed: 1 = real time, 0 = as fast as possible",
        "vitesse des joueurs simulés : 1 = temps réel, 0 = au plus vite",
    )
    p.add_argument("--mute", action="store_true", help=h("no sound", "sans son"))
    h.lang_option(p, resumed=True)
    h.data_option(p)
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_play"))

    p = sub.add_parser(
        "snapshot",
        help=h(
            "draw one screen of the table for a table log, to PNG",
            "dessine un écran de la table pour un journal de table, en PNG",
        ),
    )
    p.add_argument(
        "screen",
        help=h(
            "a screen of the log's game (e.g. table, setup, rules, status); a wrong name lists them",
            "un écran du jeu du journal (par exemple table, setup, rules, status) ; un mauvais nom les liste",
        ),
    )
    p.add_argument(
        "--log",
        default=None,
        help=h(
            "table log (JSON Lines); none: no game yet",
            "journal de table (JSON Lines) ; sans : pas encore de partie",
        ),
    )
    p.add_argument(
        "--size",
        default="1280x720",
        help=h("WIDTHxHEIGHT (default 1280x720)", "LARGEURxHAUTEUR (par défaut 1280x720)"),
    )
    h.lang_option(p)
    p.add_argument("--out", required=True, help=h("the PNG file to write", "le fichier PNG à écrire"))
    h.rotate_option(
        p,
        (
            "0; --size is then the display's, the frame is laid out turned",
            "0 ; --size est alors celle de l'écran, l'image est composée tournée",
        ),
    )
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_snapshot"))


def _buttons(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "buttons",
        help=h(
            "live button monitor for wiring, or --assign to write the pin map",
            "moniteur des boutons en direct pour le câblage, ou --assign pour écrire le plan des broches",
        ),
        description=h(
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
        help=h(
            "gpio, serial, keyboard or sim (default: [input] source in the config)",
            "gpio, serial, keyboard ou sim (par défaut : [input] source de la configuration)",
        ),
    )
    h.config_option(p)
    p.add_argument(
        "--seats",
        type=seats,
        default=None,
        help=h(
            f"number of seats, 1 to {MAX_SEATS} (sim: default 4)",
            f"nombre de places, 1 à {MAX_SEATS} (sim : 4 par défaut)",
        ),
    )
    h.lang_option(p)
    p.add_argument(
        "--max-events",
        type=count,
        default=None,
        help=h("stop after N presses/releases", "s'arrête après N appuis/relâchés"),
    )
    p.add_argument(
        "--duration",
        type=duration,
        default=None,
        help=h("stop after S seconds", "s'arrête après S secondes"),
    )
    h.json(p, "one JSON object per line", "un objet JSON par ligne")
    _seed(p, h, 0, "sim: seed of the simulated players", "sim : graine des joueurs simulés")
    _speed(p, h, "sim: 1 = real time, 0 = as fast as possible", "sim : 1 = temps réel, 0 = au plus vite")
    p.add_argument(
        "--assign",
        action="store_true",
        help=h("press each button in seat order", "appuyez sur chaque bouton dans l'ordre des places"),
    )
    p.add_argument(
        "--referee",
        action="store_true",
        help=h("--assign: also the referee buttons", "--assign : aussi les boutons d'arbitre"),
    )
    p.add_argument(
        "--output", type=Path, default=None, help=h("--assign: file to write", "--assign : fichier à écrire")
    )
    p.add_argument(
        "--force", action="store_true", help=h("--assign: overwrite --output", "--assign : écrase --output")
    )
    p.set_defaults(func=Lazy("companion.cli.buttons", "cmd_buttons"))


def _firmware(sub: Any, h: Words) -> None:
    fw = sub.add_parser(
        "firmware",
        help=h(
            "the Pico button board's firmware: install it, or show what a board runs",
            "le firmware de la carte à boutons Pico : l'installer, ou voir ce qu'une carte exécute",
        ),
        description=h(
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
        help=h("install or info", "install ou info"),
    )
    inst = fsub.add_parser(
        "install",
        help=h(
            "copy the firmware to a Pico running MicroPython",
            "copie le firmware sur un Pico sous MicroPython",
        ),
    )
    _port(
        inst,
        h,
        "serial port of the Pico (default: found by USB id 2E8A)",
        "port série du Pico (par défaut : trouvé par l'identifiant USB 2E8A)",
    )
    inst.add_argument(
        "--source",
        help=h(
            "firmware folder (default: the one shipped with this copy)",
            "dossier du firmware (par défaut : celui livré avec cette copie)",
        ),
    )
    inst.add_argument(
        "--dry-run",
        action="store_true",
        help=h("print the mpremote command only", "affiche seulement la commande mpremote"),
    )
    h.lang_option(inst)
    inst.set_defaults(func=Lazy("companion.cli.firmware", "cmd_install"))
    info = fsub.add_parser(
        "info",
        help=h(
            "firmware version, unique id and pin map of a board",
            "version du firmware, identifiant unique et plan des broches d'une carte",
        ),
    )
    _port(
        info,
        h,
        "serial port or pyserial URL (default: found by USB id 2E8A)",
        "port série ou URL pyserial (par défaut : trouvé par l'identifiant USB 2E8A)",
    )
    h.json(info, "one JSON object instead of text", "un objet JSON au lieu du texte")
    h.lang_option(info)
    info.set_defaults(func=Lazy("companion.cli.firmware", "cmd_info"))


def _doctor(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "doctor",
        help=h(
            "check this machine: Python, display, GPIO, buttons, Pico, journal, config, service",
            "vérifie cette machine : Python, écran, GPIO, boutons, Pico, journal, configuration, service",
        ),
        description=h(
            "One line per check, with the fix for each failure; exits 1 if any fails.",
            "Une ligne par vérification, avec le remède de chaque échec ; code de sortie 1 si l'une échoue.",
        ),
    )
    h.config_option(p)
    _port(
        p,
        h,
        "serial port of the Pico board (default: found by USB id 2E8A)",
        "port série du boîtier Pico (par défaut : trouvé par l'identifiant USB 2E8A)",
    )
    h.json(p, "the checks as one JSON object", "les vérifications en un objet JSON")
    h.common(p)
    p.set_defaults(func=Lazy("companion.cli.doctor", "cmd_doctor"))


def _config(sub: Any, h: Words) -> None:
    p = sub.add_parser(
        "config",
        help=h(
            "read or change one setting of the config file (the table's language, its buttons...)",
            "lit ou change un réglage du fichier de configuration (la langue de la table, ses boutons...)",
        ),
        description=h(
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
        help=h("show, get, set, unset or path", "show, get, set, unset ou path"),
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
        a = csub.add_parser(name, help=h(en, fr))
        if name in ("get", "set", "unset"):
            a.add_argument(
                "key",
                metavar="KEY",
                help=h("section.key, e.g. table.lang", "section.clé, par ex. table.lang"),
            )
        if name == "set":
            a.add_argument("value", metavar="VALUE", help=h("e.g. fr, 180, true", "par ex. fr, 180, true"))
        if name == "show":
            a.add_argument(
                "--example",
                action="store_true",
                help=h(
                    "the example config instead: every setting, commented",
                    "l'exemple de configuration à la place : chaque réglage, commenté",
                ),
            )
        h.config_option(a)
        h.lang_option(a)
        a.set_defaults(func=Lazy("companion.cli.settings", "cmd_config"))


# The options several subcommands take, each with its own help.


def _speed(p: Any, h: Words, en: str, fr: str) -> None:
    p.add_argument("--speed", type=speed, default=1.0, help=h(en, fr))


def _seed(p: Any, h: Words, default: int | None, en: str, fr: str) -> None:
    p.add_argument("--seed", type=int, default=default, help=h(en, fr))


def _port(p: Any, h: Words, en: str, fr: str) -> None:
    p.add_argument("--port", default=None, help=h(en, fr))


def _game_id(p: Any, h: Words, en: str, fr: str) -> None:
    p.add_argument("game_id", nargs="?", default=None, help=h(en, fr))


def _rounds(p: Any, h: Words, key: str) -> None:
    p.add_argument("--rounds", type=int, default=None, help=h.rounds_help(key))


def _final_state(p: Any, h: Words) -> None:
    h.json(
        p, "print the final state as JSON on stdout", "affiche l'état final en JSON sur la sortie standard"
    )


REGISTERS = (_commands, _history, _play, _buttons, _firmware, _config, _doctor)
# Which register adds each subcommand (tests/cli/test_parser.py checks it against REGISTERS).
GROUPS: dict[str, Callable[[Any, Words], None]] = {
    **dict.fromkeys(("demo", "resume", "replay", "export", "games"), _commands),
    **dict.fromkeys(("history", "stats"), _history),
    **dict.fromkeys(("play", "snapshot"), _play),
    "buttons": _buttons,
    "firmware": _firmware,
    "config": _config,
    "doctor": _doctor,
}
