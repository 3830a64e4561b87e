"""The command line: complete, and cheap to build (``--help`` imports no game, pydantic or pygame)."""

from __future__ import annotations

import subprocess
import sys

from companion.cli.parser import GAME_CHOICES, build_parser
from companion.games import GAMES
from tests.conftest import ROOT


def test_the_parser_knows_every_registered_game() -> None:
    assert tuple(GAMES) == GAME_CHOICES


def test_every_subcommand_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, action in sub.choices.items():  # type: ignore[union-attr]
        assert action.format_help(), name
        for option in action._actions:
            if option.dest not in ("help",) and option.option_strings:
                assert option.help, f"{name} {option.option_strings} has no help text"


def test_help_imports_nothing_heavy() -> None:
    code = ("import sys; from companion.cli import build_parser; build_parser();"
            "heavy = [m for m in ('pydantic', 'pygame', 'serial', 'gpiozero', 'sqlite3', "
            "'companion.games', 'companion.table.log') if m in sys.modules];"
            "print(heavy); sys.exit(1 if heavy else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
