"""The whole command line in one place: every subcommand, its options and their help.

Building the parser imports no command's module: each subcommand names its function, which is
imported when it runs (``Lazy``). That keeps ``companion --help`` as fast as a bare Python start.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

# The games as the registry names them; a test checks this copy against companion.games.GAMES
# (importing the registry here would cost more than all of the parser).
GAME_CHOICES = ("kilo", "cinq-rois", "treize")
INPUT_CHOICES = ("gpio", "serial", "keyboard", "sim")


class Lazy:
    """A subcommand's function, imported on first call."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __call__(self, args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(self.module), self.name)(args) or 0)


def _common(parser: argparse.ArgumentParser, *, data: bool = True) -> None:
    parser.add_argument("--lang", choices=["fr", "en"], default="fr",
                        help="language of everything printed (default: fr)")
    if data:
        parser.add_argument("--data-dir", type=Path, default=None,
                            help="folder of the journal (default: the user's data folder, or "
                                 "$COMPANION_DATA_DIR)")


def _commands(sub: Any) -> None:
    p = sub.add_parser("demo", help="a whole game with simulated players (default: Kilo de merde)")
    p.add_argument("game", nargs="?", default="kilo", choices=GAME_CHOICES,
                   help="kilo (default), cinq-rois or treize")
    p.add_argument("--seed", type=int, default=None, help="same seed, same game (default: random)")
    p.add_argument("--players", type=int, default=5,
                   help="kilo 3-10, cinq-rois 2-7, treize 3-6 (default 5)")
    p.add_argument("--rounds", type=int, default=None, help="Kilo de merde: 1 to 99 (default 10)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="1 = real time, 4 = four times faster, 0 = as fast as possible")
    p.add_argument("--json", action="store_true", help="print the final state as JSON on stdout")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_demo"))

    p = sub.add_parser("resume", help="continue the last unfinished game exactly")
    p.add_argument("game_id", nargs="?", default=None,
                   help="the game to continue (default: the latest unfinished one)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="simulated players: 1 = real time, 0 = as fast as possible")
    p.add_argument("--json", action="store_true", help="print the final state as JSON on stdout")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_resume"))

    p = sub.add_parser("replay", help="replay a table log (JSON Lines) and print the state")
    p.add_argument("file", help="the table log, or - for standard input")
    p.add_argument("--json", action="store_true", help="the state as one JSON object")
    _common(p, data=False)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_replay"))

    p = sub.add_parser("export", help="print a stored game as a table log, or score sheets "
                                      "as CSV")
    p.add_argument("game_id", nargs="?", default=None, help="default: the most recent game")
    p.add_argument("--csv", action="store_true",
                   help="the score sheet as CSV: a row per player, a column per round (Kilo de "
                        "merde: kilos after the round; other games: points of the round)")
    p.add_argument("--all", action="store_true", help="--csv: every stored game")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_export"))

    p = sub.add_parser("games", help="list the stored games")
    p.add_argument("--json", action="store_true", help="the list as one JSON object")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.commands", "cmd_games"))


def _history(sub: Any) -> None:
    p = sub.add_parser("history", help="the stored games: date, game, players, winner")
    p.add_argument("--game", choices=GAME_CHOICES, default=None, help="only this game")
    p.add_argument("--json", action="store_true", help="the list as one JSON object")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_history"))

    p = sub.add_parser("stats", help="players' numbers: games, wins, and for Kilo de merde "
                                     "kilos, slaps, reaction times, closest escapes")
    p.add_argument("player", nargs="?", default=None, help="one player in detail (default: all)")
    p.add_argument("--game", choices=GAME_CHOICES, default=None, help="only this game")
    p.add_argument("--json", action="store_true", help="the numbers as one JSON object")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.history", "cmd_stats"))


def _play(sub: Any) -> None:
    p = sub.add_parser("play", help="the table screen (pygame): play a game with buttons")
    p.add_argument("game", nargs="?", default="kilo",
                   help="kilo (default), cinq-rois or treize")
    p.add_argument("--input", default=None,
                   help="button source: gpio, serial, keyboard or sim, or e.g. gpio+keyboard "
                        "(default: keyboard, or the resumed game's)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="in a window (the default)")
    mode.add_argument("--fullscreen", action="store_true", help="the whole screen (kiosk)")
    p.add_argument("--size", default=None, help="window size WIDTHxHEIGHT, e.g. 800x480")
    p.add_argument("--resume", nargs="?", const="", default=None, metavar="GAME_ID",
                   help="reopen an interrupted game (default: the latest unfinished one)")
    p.add_argument("--players", default=None,
                   help="comma-separated names in seating order: skip the setup screen")
    p.add_argument("--rounds", type=int, default=None, help="Kilo de merde: 1 to 99 (default 5)")
    p.add_argument("--config", default=None, help="hardware config file (TOML)")
    p.add_argument("--seed", type=int, default=None, help="simulated players' seed")
    p.add_argument("--speed", type=float, default=1.0, help="simulated players' speed")
    p.add_argument("--mute", action="store_true", help="no sound")
    p.add_argument("--lang", default="fr", help="fr (default) or en")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="folder of the journal (default: the user's data folder, or "
                        "$COMPANION_DATA_DIR)")
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_play"))

    p = sub.add_parser("snapshot", help="draw one screen of the table for a table log, to PNG")
    p.add_argument("screen", help="a screen of the log's game (e.g. table, setup, rules, status); "
                                  "a wrong name lists them")
    p.add_argument("--log", default=None, help="table log (JSON Lines); none: no game yet")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    p.add_argument("--lang", default="fr", help="fr (default) or en")
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.set_defaults(func=Lazy("companion.cli.play", "cmd_snapshot"))


def _buttons(sub: Any) -> None:
    p = sub.add_parser(
        "buttons",
        help="live button monitor for wiring, or --assign to write the pin map",
        description="The live button monitor, for wiring and maintenance; --assign writes the "
                    "pin map by asking for each button in turn.",
    )
    p.add_argument(
        "--input",
        default=None,
        help="gpio, serial, keyboard or sim (default: [input] source in the config)",
    )
    p.add_argument("--config", type=Path, default=None, help="config file (TOML)")
    p.add_argument("--seats", type=int, default=None, help="number of seats (sim: default 4)")
    p.add_argument("--lang", choices=["fr", "en"], default="fr",
                   help="language of everything printed (default: fr)")
    p.add_argument("--max-events", type=int, default=None, help="stop after N presses/releases")
    p.add_argument("--duration", type=float, default=None, help="stop after S seconds")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--seed", type=int, default=0, help="sim: seed of the simulated players")
    p.add_argument("--speed", type=float, default=1.0, help="sim: 0 = as fast as possible")
    p.add_argument("--assign", action="store_true", help="press each button in seat order")
    p.add_argument("--referee", action="store_true", help="--assign: also the referee buttons")
    p.add_argument("--output", type=Path, default=None, help="--assign: file to write")
    p.add_argument("--force", action="store_true", help="--assign: overwrite --output")
    p.set_defaults(func=Lazy("companion.cli.buttons", "cmd_buttons"))


def _firmware(sub: Any) -> None:
    fw = sub.add_parser(
        "firmware",
        help="the Pico button board's firmware: install it, or show what a board runs",
        description="The Pico button board: copy the firmware shipped with this copy to a Pico "
                    "running MicroPython, or ask a board what it runs.",
    )
    fsub = fw.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    inst = fsub.add_parser("install", help="copy the firmware to a Pico running MicroPython")
    inst.add_argument("--port", help="serial port of the Pico (default: found by USB id 2E8A)")
    inst.add_argument("--source", help="firmware folder (default: the one shipped with this copy)")
    inst.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    inst.add_argument("--lang", choices=["fr", "en"], default="fr",
                      help="language of everything printed (default: fr)")
    inst.set_defaults(func=Lazy("companion.cli.firmware", "cmd_install"))
    info = fsub.add_parser("info", help="firmware version, unique id and pin map of a board")
    info.add_argument("--port", help="serial port or pyserial URL (default: found by USB id 2E8A)")
    info.add_argument("--json", action="store_true", help="one JSON object instead of text")
    info.add_argument("--lang", choices=["fr", "en"], default="fr",
                      help="language of everything printed (default: fr)")
    info.set_defaults(func=Lazy("companion.cli.firmware", "cmd_info"))


def _doctor(sub: Any) -> None:
    p = sub.add_parser(
        "doctor",
        help="check this machine: Python, display, GPIO, buttons, Pico, journal, config, service",
        description="One line per check, with the fix for each failure; exits 1 if any fails.",
    )
    p.add_argument("--config", type=Path, default=None,
                   help="config file (TOML) (default: $COMPANION_CONFIG or the user's)")
    p.add_argument("--port", default=None,
                   help="serial port of the Pico board (default: found by USB id 2E8A)")
    p.add_argument("--json", action="store_true", help="the checks as one JSON object")
    _common(p)
    p.set_defaults(func=Lazy("companion.cli.doctor", "cmd_doctor"))


def build_parser(description: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=description)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in (_commands, _history, _play, _buttons, _firmware, _doctor):
        register(sub)
    return parser
