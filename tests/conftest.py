"""Shared fixtures: every test isolated from the user who runs the suite (its own HOME, XDG
folders and data folder, none of the user's COMPANION_* variables), and a helper to run the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import pygame

    from companion.table.journal import Journal

ROOT = Path(__file__).resolve().parent.parent


# Variables that tune the test run, not the companion: the property tests' number of examples,
# where the phones' screenshots go, the boot test's source tree, CPU, cache and recorded
# observations. The package reads none of them (tests/house/test_isolation.py checks), so they pass the
# isolation below; every other COMPANION_* variable is the user's and does not.
SUITE_KNOBS = ("COMPANION_PROPERTY_SCALE", "COMPANION_SCREENS_OUT", "COMPANION_BOOT_")
# Where a fresh HOME's XDG folders are (the XDG Base Directory defaults, made explicit so that a
# user's own XDG_CONFIG_HOME=/elsewhere is not read either).
XDG_HOMES = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
}


def is_suite_knob(name: str) -> bool:
    return name.startswith(SUITE_KNOBS)


def isolated_environ(real: Mapping[str, str], home: Path) -> dict[str, str]:
    """The variables a test runs under: ``real`` (the user's) with a fresh ``home`` for HOME and
    the XDG folders, and without the user's COMPANION_* variables. The tools the suite drives
    keep what the user gave them: pip its cache and its user config (its index: tests build the
    wheel, the boot test runs the install guide), the boot test root's cache of built systems
    (~/.cache/companion-boot, minutes to build again)."""
    env = {k: v for k, v in real.items() if not k.startswith("COMPANION_") or is_suite_knob(k)}
    real_home = Path(real.get("HOME") or Path.home())
    env.setdefault("COMPANION_BOOT_CACHE", str(real_home / ".cache" / "companion-boot"))
    env.setdefault("PIP_CACHE_DIR", str(Path(real.get("XDG_CACHE_HOME") or real_home / ".cache") / "pip"))
    pip_conf = Path(real.get("XDG_CONFIG_HOME") or real_home / ".config") / "pip" / "pip.conf"
    if pip_conf.is_file():
        env.setdefault("PIP_CONFIG_FILE", str(pip_conf))
    env["HOME"] = str(home)
    for var, under in XDG_HOMES.items():
        env[var] = str(home / under)
    runtime = home / "run"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    return env


# What the isolation changed in this process's environment, with the value before (None: unset).
_CHANGED: dict[str, str | None] = {}
_HOME: list[Path] = []


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        # pytest-xdist's controller (the README's `-n 2`): the boot scenario is its child, not a
        # worker's. It loads no conftest under tests/boot, so its part is registered here.
        from tests.boot import xdist_scenario

        if not config.pluginmanager.is_registered(xdist_scenario):
            config.pluginmanager.register(xdist_scenario, "companion-boot-xdist")
    # The whole run, collection included, under a HOME of its own: module and session fixtures
    # (servers started once per module) and the boot scenario, started as its checks are
    # collected, are set up before any test's fixture and would otherwise read the user's files.
    if _HOME:
        return  # configured twice in one process (pytest run inside a test by pytester)
    home = Path(tempfile.mkdtemp(prefix="companion-tests-home-"))
    _HOME.append(home)
    env = isolated_environ(os.environ, home)
    for name in set(os.environ) | set(env):
        if os.environ.get(name) != env.get(name):
            _CHANGED[name] = os.environ.get(name)
            if name in env:
                os.environ[name] = env[name]
            else:
                del os.environ[name]


def pytest_unconfigure(config: pytest.Config) -> None:
    # Only what the isolation changed goes back: mutmut runs pytest again in the same process,
    # and a variable a test module set at its import (SDL_VIDEODRIVER) must still be there.
    for name, value in _CHANGED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _CHANGED.clear()
    for home in _HOME:
        shutil.rmtree(home, ignore_errors=True)
    _HOME.clear()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The boot test is the checks that read the booted appliance (tests/boot/conftest.py's
    # needs_vm): `-m "not boot"` leaves them out, and with them the scenario they wait for
    # (tests/boot/ starts it only for a run that keeps them). Its quick unit tests stay.
    for item in items:
        if item.get_closest_marker("needs_vm"):
            item.add_marker(pytest.mark.boot)


@pytest.fixture(autouse=True)
def _isolated_data_dir(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    # Each test its own HOME (outside tmp_path: tests check that folder holds only what they
    # made). monkeypatch changes os.environ, so the subprocesses a test starts inherit it.
    home = tmp_path_factory.mktemp("home")
    for name, value in isolated_environ(os.environ, home).items():
        if os.environ.get(name) != value:
            monkeypatch.setenv(name, value)
    for name in list(os.environ):
        if name.startswith("COMPANION_") and not is_suite_knob(name):
            monkeypatch.delenv(name)  # left by a test that set it without monkeypatch
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

    from companion.display.window import open_display

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
