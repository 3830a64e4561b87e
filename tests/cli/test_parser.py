"""The command line: complete, and cheap to build (``--help`` imports no game, pydantic or pygame)."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.options import GAME_CHOICES
from companion.cli.parser import build_parser
from companion.games import GAMES
from companion.lang import locale_lang, resolve_lang
from tests.conftest import ROOT, run_cli


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
    # The registry's lines (companion.games itself) build the game choices and their help; no
    # game, and not the error family's dataclasses, comes with them.
    code = (
        "import sys; from companion.cli import build_parser; build_parser();"
        "heavy = [m for m in ('pydantic', 'pygame', 'serial', 'gpiozero', 'sqlite3', "
        "'dataclasses', 'companion.errors', 'companion.table.log') if m in sys.modules];"
        "heavy += [m for m in sys.modules if m.startswith('companion.games.')];"
        "print(heavy); sys.exit(1 if heavy else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# --- the one language rule: --lang, else [table] lang, else the locale, else French ----------

LOCALES = [
    ({}, None),
    ({"LANG": "C.UTF-8"}, None),
    ({"LANG": "en_GB.UTF-8"}, "en"),  # Raspberry Pi OS's default
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, None),
    ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, "en"),  # C names no language: the next one does
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANGUAGE": "de:en", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "en_US.ISO-8859-1@euro"}, "en"),
]


@pytest.mark.parametrize(("environ", "expected"), LOCALES, ids=[str(e) for e, _ in LOCALES])
def test_the_locale_counts_when_it_names_french_or_english(
    environ: dict[str, str], expected: str | None
) -> None:
    assert locale_lang(environ) == expected


def test_flag_then_config_then_locale_then_french(tmp_path: Path) -> None:
    french_table = tmp_path / "fr.toml"
    french_table.write_text('[table]\nlang = "fr"\n', encoding="utf-8")
    english_table = tmp_path / "en.toml"
    english_table.write_text('[input]\nsource = "sim"\n\n[table]\nlang = "en"\n', encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text("[table\nlang = ", encoding="utf-8")
    none = str(tmp_path / "none.toml")
    gb = {"LANG": "en_GB.UTF-8"}
    # The Pi's en_GB locale does not turn a French table English...
    assert resolve_lang(["play"], {**gb, "COMPANION_CONFIG": str(french_table)}) == ("fr", False)
    # ... --lang does, and says it was asked (a resumed game keeps its own language otherwise).
    assert resolve_lang(["play", "--lang", "en"], {**gb, "COMPANION_CONFIG": str(french_table)}) == (
        "en",
        True,
    )
    assert resolve_lang(["demo", "--lang=en"], {"COMPANION_CONFIG": str(french_table)}) == ("en", True)
    # --config names the file read, as the command itself reads it.
    assert resolve_lang(
        ["play", "--config", str(english_table)], {"COMPANION_CONFIG": str(french_table)}
    ) == ("en", False)
    assert resolve_lang(["doctor", f"--config={english_table}"], {}) == ("en", False)
    # No config (or one with a mistake, which the command reports): the locale, else French.
    assert resolve_lang(["demo"], {**gb, "COMPANION_CONFIG": none}) == ("en", False)
    assert resolve_lang(["demo"], {**gb, "COMPANION_CONFIG": str(broken)}) == ("en", False)
    assert resolve_lang(["demo"], {"LANG": "C.UTF-8", "COMPANION_CONFIG": none}) == ("fr", False)
    # An unknown --lang chooses nothing: the parser refuses it in the language found.
    assert resolve_lang(["demo", "--lang", "de"], {**gb, "COMPANION_CONFIG": none}) == ("en", False)


def test_everything_printed_follows_the_rule_argparse_included(tmp_path: Path) -> None:
    none = str(tmp_path / "none.toml")
    english = run_cli("demo", "--lang", "de", env={"LANG": "en_US.UTF-8", "COMPANION_CONFIG": none})
    assert english.returncode == 2
    assert english.stderr.startswith("usage: companion demo")
    assert "companion: demo: error: argument --lang: invalid choice: 'de'" in english.stderr
    assert "utilisation" not in english.stderr and "choix" not in english.stderr
    table = tmp_path / "companion.toml"
    table.write_text('[table]\nlang = "fr"\n', encoding="utf-8")
    french = run_cli("play", "--lang", "de", env={"LANG": "en_GB.UTF-8", "COMPANION_CONFIG": str(table)})
    assert french.returncode == 2
    assert french.stderr.startswith("utilisation\u202f: companion play")
    assert "companion: play: erreur\u202f: argument --lang\u202f: choix invalide" in french.stderr
    assert "usage:" not in french.stderr and "invalid choice" not in french.stderr
    # A command's own words too: a whole demo in the locale's English.
    demo = run_cli(
        "demo",
        "--speed",
        "0",
        "--rounds",
        "1",
        "--players",
        "3",
        "--seed",
        "1",
        env={"LANG": "en_GB.UTF-8", "COMPANION_CONFIG": none},
    )
    assert demo.returncode == 0, demo.stderr
    assert "demo: 3 simulated players" in demo.stdout and "Manche" not in demo.stdout


# --- version, bare companion, completion -------------------------------------------------------


def test_version_is_the_distributions_one() -> None:
    import tomllib
    from importlib.metadata import version

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout == f"companion {version('table-companion')}\n"
    assert version("table-companion") == declared
    import companion

    assert companion.__version__ == declared
    # One source: the package writes no version of its own.
    assert not [p for p in (ROOT / "companion").rglob("*.py") if declared in p.read_text("utf-8")]


def test_bare_companion_lists_the_commands_on_stderr() -> None:
    result = run_cli(env={"LANG": "en_GB.UTF-8"})
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("usage: companion") and "Commands:" in lines
    listed = [line.split()[0] for line in lines if line.startswith("  ")]
    assert listed == list(_commands()) and len(lines) < 25


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return dict(sub.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_names_every_command_and_option(shell: str) -> None:
    result = run_cli("--completion", shell, "--lang", "en")
    assert result.returncode == 0, result.stderr
    script = result.stdout
    for name, sub in _commands().items():
        assert re.search(rf"\b{name}\b", script), f"{shell}: no {name}"
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--"):
                    assert flag.removeprefix("--") in script, f"{shell}: no {name} {flag}"
    checker = shutil.which(shell)
    if checker is not None:  # the script is valid for the shell that will read it
        check = subprocess.run([checker, "-n"], input=script, capture_output=True, text=True)
        assert check.returncode == 0, check.stderr


def test_bash_completes_commands_and_choices(tmp_path: Path) -> None:
    script = tmp_path / "companion.bash"
    script.write_text(run_cli("--completion", "bash").stdout, encoding="utf-8")

    def complete(*words: str) -> set[str]:
        line = " ".join(["companion", *words])
        probe = (
            f"source {script}; COMP_WORDS=(companion {' '.join(words)}); "
            f"COMP_CWORD={len(words)}; COMP_LINE='{line}'; COMP_POINT={len(line)}; "
            "_shtab_companion; printf '%s\\n' \"${COMPREPLY[@]}\""
        )
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return set(done.stdout.split())

    assert {"demo", "doctor"} <= complete("d") and "play" not in complete("d")
    assert complete("demo", "c") == {"cinq-rois"}
    assert complete("play", "--lang", "") == {"fr", "en"}


def test_a_named_command_gets_the_same_parser_with_only_its_group_built() -> None:
    """`companion play ...` builds play's group of subcommands only (the rest cost a tenth of
    its way to the first frame); each command's own parser is the one the whole parser has."""
    from companion.cli.completion import subcommands
    from companion.cli.options import Words
    from companion.cli.parser import Parser
    from companion.cli.subcommands import GROUPS

    every = subcommands(build_parser())
    assert set(GROUPS) == set(every)  # every subcommand is in a group
    for name, register in GROUPS.items():
        built = subcommands(build_parser(command=name))
        one = Parser(prog="companion")
        register(one.add_subparsers(dest="command"), Words())
        assert set(built) == set(subcommands(one))  # its group, nothing else
        assert name in built and len(built) < len(every)
        assert built[name].format_help() == every[name].format_help()
    assert set(subcommands(build_parser(command="nonsense"))) == set(every)


def test_each_parser_keeps_its_own_language(capsys: pytest.CaptureFixture[str]) -> None:
    """The language is a parameter of the parser, not a module's state: an English parser built
    after a French one leaves the French one's help and usage errors French."""
    fr = build_parser(lang="fr")
    en = build_parser(lang="en")
    assert "affiche la version" in fr.format_help() and "print the version" in en.format_help()
    with pytest.raises(SystemExit):
        fr.parse_args(["demo", "--speed", "-1"])
    assert "la vitesse doit valoir 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        en.parse_args(["demo", "--speed", "-1"])
    assert "the speed must be 0" in capsys.readouterr().err
