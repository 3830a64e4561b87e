"""Shared fixtures: an isolated data folder for every test, and a helper to run the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import pygame

    from companion.table.journal import Journal

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    # The companion follows the locale when neither --lang nor the config says: the tests
    # expect French there, on a developer's en_GB laptop as on CI.
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield data
    # The short forms chosen at a table hold for the process (display/names.py): a test's
    # choices are not the next test's.
    if "companion.display.names" in sys.modules:
        sys.modules["companion.display.names"].forget()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    """A journal open for writing in the test's own folder (the screen tests' table)."""
    from companion.table.journal import Journal

    with Journal(tmp_path, writer=True) as j:
        yield j


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    """The 7" screen's window (dummy video driver), closed after the test. pygame is imported
    here, so tests that never ask for a screen never load it."""
    import pygame

    from companion.display.app import open_display

    surface = open_display((800, 480), fullscreen=False)
    yield surface
    pygame.display.quit()


def skip_unless_ci(reason: str) -> None:
    """Skip where a machine cannot run a test (a developer's laptop, a real Pi), but fail on CI:
    .ci/run installs everything, so a skip there would hide a missing install step."""
    if os.environ.get("CI"):
        pytest.fail(f"this test must not skip on CI: {reason}")
    pytest.skip(reason)


def run_cli(
    *args: str,
    data_dir: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    if data_dir is not None:
        full_env["COMPANION_DATA_DIR"] = str(data_dir)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=full_env,
        timeout=timeout,
        cwd=cwd or ROOT,
    )


def typographic(fr: str) -> str:
    """French as a player reads it: an elision's apostrophe between two letters is the
    typographic one (U+2019), "n'est" -> "n’est"; quotes around a name ('Zoe') stay."""
    import re

    return re.sub(r"(?<=[A-Za-zÀ-ÿ])'(?=[A-Za-zÀ-ÿ])", "\u2019", fr)
