"""Lint and types as tests, so CI holds them: ruff on everything, mypy --strict on the pure core."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

CORE = ["companion/cards.py", "companion/errors.py", "companion/slap.py", "companion/odds.py",
        "companion/tablelog.py", "companion/games", "companion/i18n.py", "companion/inputs/debounce.py",
        "companion/inputs/clocks.py"]


def test_ruff_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "companion", "tests", "bench"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_passes_mypy_strict() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", *CORE], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_imports_nothing_from_the_edges() -> None:
    code = ("import sys, companion.games.kilo, companion.replay, companion.odds, companion.narrate;"
            "bad = [m for m in ('pygame', 'gpiozero', 'serial', 'sqlite3', 'lgpio') if m in sys.modules];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
