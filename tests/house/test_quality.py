"""Lint and types as tests, so CI holds them: ruff on everything, mypy --strict on the pure core."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

# The pure core: every game's rules, events and solvers, with the shared vocabulary under them.
CORE = [
    "companion/cards.py",
    "companion/errors.py",
    "companion/i18n.py",
    "companion/table/log.py",
    "companion/games/__init__.py",
    "companion/games/base.py",
    "companion/inputs/debounce.py",
    "companion/inputs/clocks.py",
    *sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "companion" / "games").glob("*/*.py")
        if p.stem
        in {
            "rules",
            "events",
            "solver",
            "series",
            "sim",
            "slap",
            "odds",
            "tally",
            "state",
            "refusals",
            "__init__",
        }
    ),
]

# Formatted with `ruff format` ([tool.ruff.format]) and held so: the whole tree.
FORMATTED = ["companion", "tests", "bench"]


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "companion", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_passes_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *CORE], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_bare_mypy_checks_the_package_strict_and_the_tests() -> None:
    # What a contributor types: pyproject.toml's `files` and `strict` say what is checked.
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    checked = int(result.stdout.split("found in ")[1].split()[0])
    assert checked > len(list((ROOT / "companion").rglob("*.py")))  # the tests too


def test_formatted_files_stay_formatted() -> None:
    # The formatter policy ([tool.ruff.format]): `ruff format` is applied file by file as the
    # tree is brought to it; the files listed here are formatted and must stay so.
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--diff", *FORMATTED],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_imports_nothing_from_the_edges() -> None:
    code = (
        "import sys, companion.games.kilo.rules, companion.table.fold, companion.games.kilo.odds, "
        "companion.games.kilo.narrate;"
        "bad = [m for m in ('pygame', 'gpiozero', 'serial', 'sqlite3', 'lgpio') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
