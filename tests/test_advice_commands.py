"""Every command an advice string names exists: walked over every string of the package (the
catalogue, the errors, doctor's fixes), not one message at a time. A companion subcommand must be
one the parser knows, with flags it takes; pip goes through the venv's own interpreter and names
packages that exist; sudo, systemctl and usermod name real programs, verbs and groups."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
import sys
import tomllib
from pathlib import Path

import pytest

from companion.advice import extra_requirements, pip_install, pip_upgrade
from companion.cli import build_parser
from tests.conftest import ROOT

# Programs advice may run with sudo, systemctl's verbs and the groups a user may be added to
# (Raspberry Pi OS's own groups), kept here so a typo in the package fails this test.
SUDO_PROGRAMS = {
    "usermod",
    "systemctl",
    "chown",
    "chmod",
    "cp",
    "install",
    "apt",
    "apt-get",
    "udevadm",
    "raspi-config",
    "mv",
    "rm",
}
SYSTEMCTL_VERBS = {
    "start",
    "stop",
    "restart",
    "status",
    "enable",
    "disable",
    "daemon-reload",
    "is-active",
    "show",
    "cat",
    "reload",
    "mask",
    "unmask",
    "edit",
}
GROUPS = {"gpio", "dialout", "video", "render", "input", "audio", "i2c", "spi", "plugdev"}
PLACEHOLDER = "\x00"  # stands for an f-string's {value}


def strings() -> list[tuple[str, str]]:
    """(where, text) for every string in the package; f-strings with their values as
    PLACEHOLDER."""
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                parts = []
                for value in node.values:
                    inside.add(id(value))
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        parts.append(value.value)
                    else:
                        parts.append(PLACEHOLDER)
                found.append((f"{rel}:{node.lineno}", "".join(parts)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside:
                found.append((f"{rel}:{node.lineno}", node.value))
    return found


ALL = strings()


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


PARSER = build_parser()
COMMANDS = subparsers(PARSER)


def flags_of(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


def command_tail(text: str, start: int) -> list[str]:
    """The words of a command from ``start``, up to where the sentence goes on."""
    rest = re.split(
        r"[`;,)(]|\.(?:\s|$)| then | puis | to put | pour | if | si | shows | montre |"
        r" dit | lists | liste ",
        text[start:],
    )[0]
    return rest.split()


def test_every_companion_command_named_is_one_the_parser_takes() -> None:
    checked = 0
    for where, text in ALL:
        for match in re.finditer(r"(^|`|run |lancez |: |\$ )companion ([a-z][a-z-]*)", text):
            sub = match[2]
            if sub not in COMMANDS:
                if match[1] in ("", ": "):
                    continue  # prose: "companion is running"
                pytest.fail(f"{where}: `companion {sub}` is not a subcommand: {text!r}")
            parser = COMMANDS[sub]
            words = command_tail(text, match.end())
            nested = subparsers(parser)
            if nested and words and words[0] in nested:
                parser = nested[words.pop(0)]
            for word in words:
                flag = word.split("=")[0]
                if flag.startswith("--") and PLACEHOLDER not in flag:
                    assert flag in flags_of(parser), f"{where}: companion {sub} has no {flag}: {text!r}"
            checked += 1
    assert checked > 15


def test_no_bare_pip_is_advised_outside_the_advice_module() -> None:
    """`pip install` alone runs the system's pip (or none): advice goes through advice.py."""
    bare = [
        (w, t) for w, t in ALL if re.search(r"pip install", t) and not w.startswith("companion/advice.py")
    ]
    assert bare == []


def known_packages() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    lines = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        lines += extra
    return {re.split(r"[<>=!~;\[ ]", line, maxsplit=1)[0].lower() for line in lines}


@pytest.mark.parametrize("extra", ["gpio", "serial"])
def test_pip_advice_uses_this_venv_and_names_the_extras_real_packages(extra: str) -> None:
    command = shlex.split(pip_install(extra))
    assert command[:4] == [sys.executable, "-m", "pip", "install"]
    names = [re.split(r"[<>=!~]", spec)[0].lower() for spec in command[4:]]
    assert names and set(names) <= known_packages() - {"table-companion"}
    assert set(names) == {re.split(r"[<>=!~]", r)[0].lower() for r in extra_requirements(extra)}
    en, fr = pip_upgrade()
    assert fr.startswith(f"{sys.executable} -m pip install --upgrade")
    assert en.startswith(f"{sys.executable} -m pip install --upgrade")
    assert "table-companion" not in en.split("--upgrade")[1].split()[:1]  # not an index name


def test_sudo_systemctl_and_usermod_name_real_things() -> None:
    checked = 0
    for where, text in ALL:
        for match in re.finditer(r"sudo ([a-z-]+)", text):
            assert match[1] in SUDO_PROGRAMS, f"{where}: sudo {match[1]}: {text!r}"
            checked += 1
        for match in re.finditer(r"systemctl ([a-z-]+)", text):
            if text[match.end() : match.end() + 1] not in ("", " "):
                continue
            assert match[1] in SYSTEMCTL_VERBS or match[1] == "is", f"{where}: systemctl {match[1]}: {text!r}"
            checked += 1
        for match in re.finditer(r"usermod -aG ([a-z-]+)", text):
            assert match[1] in GROUPS, f"{where}: group {match[1]}: {text!r}"
    assert checked > 5


def test_the_messages_as_shown_name_the_venv(tmp_path: Path) -> None:
    from companion.errors import HardwareError
    from companion.i18n import en_fr
    from companion.inputs.gpiochip import NO_GPIOD_EN, NO_GPIOD_FR
    from companion.inputs.registry import load_class

    for text in (
        NO_GPIOD_EN,
        NO_GPIOD_FR,
        *en_fr("buttons.assign_no_gpiod", pip=pip_install("gpio")),
        *en_fr("fw.no_mpremote", pip=pip_install("serial")),
    ):
        assert f"{sys.executable} -m pip install" in text and "table-companion[" not in text
    with pytest.raises(HardwareError) as err:
        load_class("companion.no_such_source.Source", extra="serial")
    assert f"{sys.executable} -m pip install 'pyserial" in err.value.en
