"""The suite is isolated from the user who runs it (issue 38): a config file in the user's home,
in their XDG_CONFIG_HOME or named by their COMPANION_CONFIG changes no test's outcome.

The proof runs pytest itself, in a subprocess, under a made-up user whose three config places all
say the same language, on two tests that read the language: the one the issue found failing on a
machine whose user had ``lang = "fr"`` (the CLI's help, in subprocesses), and one here that reads
it in-process. Both must pass whatever that user's config says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SUITE_KNOBS, is_suite_knob

PROBES = [
    "tests/cli/test_options_numbers.py::test_help_speaks_french_and_english_and_every_option_is_explained",
    "tests/house/test_isolation.py::test_probe_the_language_follows_the_locale_alone",
]


def test_probe_the_language_follows_the_locale_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No --lang and no config of the test's own: the locale decides (French by default)."""
    from companion.lang import resolve_lang

    assert resolve_lang(["demo"]) == ("fr", False)
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert resolve_lang(["demo"]) == ("en", False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert resolve_lang(["demo"]) == ("fr", False)


def _user_with_config(root: Path, lang: str) -> dict[str, str]:
    """The environment of a user whose every config place says ``lang``."""
    home = root / "home"
    table = f'[table]\nlang = "{lang}"\n'
    for config_home in (home / ".config", home / "xdg-config"):
        path = config_home / "table-companion" / "companion.toml"
        path.parent.mkdir(parents=True)
        path.write_text(table, encoding="utf-8")
    named = home / "mine.toml"
    named.write_text(table, encoding="utf-8")
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "xdg-config"),
        COMPANION_CONFIG=str(named),
        COMPANION_DATA_DIR=str(home / "games"),
        LANG=f"{lang}_{lang.upper()}.UTF-8",
    )
    return env


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_users_config_changes_no_test(tmp_path: Path, lang: str) -> None:
    env = _user_with_config(tmp_path, lang)
    # The user's config is what the companion reads outside the suite (so the proof proves
    # something): the CLI run here, as that user, speaks the config's language.
    outside = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--help"], env=env, capture_output=True, text=True, timeout=60
    )
    assert ("Le companion de la table" in outside.stdout) == (lang == "fr"), outside.stdout[:300]
    inside = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "basetemp"),
            *PROBES,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert inside.returncode == 0, inside.stdout[-3000:]
    assert re.search(rf"\b{len(PROBES)} passed", inside.stdout), inside.stdout[-500:]
    assert not (tmp_path / "home" / "games").exists()  # nor did any test write in the user's data


@pytest.mark.parametrize("turn", ["first", "second"])
def test_each_test_has_a_fresh_home_its_subprocesses_inherit(tmp_path: Path, turn: str) -> None:
    home = Path(os.environ["HOME"])
    assert [p.name for p in home.iterdir()] == ["run"]  # XDG_RUNTIME_DIR, nothing else
    assert os.environ["XDG_CONFIG_HOME"] == str(home / ".config")
    assert Path(os.environ["XDG_RUNTIME_DIR"]).stat().st_mode & 0o777 == 0o700
    leftover = [k for k in os.environ if k.startswith("COMPANION_") and not is_suite_knob(k)]
    assert leftover == ["COMPANION_DATA_DIR"]  # the test's own (conftest's), in tmp_path
    assert Path(os.environ["COMPANION_DATA_DIR"]).parent == tmp_path
    seen = subprocess.run(
        [sys.executable, "-c", "import os; print(os.path.expanduser('~'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert seen.stdout.strip() == str(home)
    (home / ".config").mkdir()
    (home / ".config" / "left").write_text(turn, encoding="utf-8")  # the next turn's home is empty


def test_the_package_reads_none_of_the_suite_knobs() -> None:
    """The knobs pass the isolation, so none may be a way for a user to change the companion."""
    for path in (ROOT / "companion").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for knob in SUITE_KNOBS:
            assert knob not in text, f"{path} reads {knob}, a variable of the test suite"
