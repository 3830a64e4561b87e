"""docs/install-pi.md as a stranger reads it: every block valid shell, the files it copies to the
Pi exist, the unit and the udev rule agree with it. The blocks themselves are run, in order, as
the users they name, in a booted Debian system by tests/boot/ (the boot test)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "install-pi.md"


def shell_blocks() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    return [block.strip("\n").splitlines() for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)]


def test_the_page_has_its_steps_in_both_languages() -> None:
    text = DOC.read_text(encoding="utf-8")
    for words in (
        "Raspberry Pi OS Lite",
        "Bookworm",
        "venv",
        "pip install",
        "systemd",
        "kmsdrm",
        "udev",
        "dialout",
        "gpio",
        "touchscreen",
        "écran tactile",
        "Sound",
        "Le son",
        "Update",
        "Mettre à jour",
        "companion doctor",
    ):
        assert words in text, words
    assert len(shell_blocks()) >= 8


@pytest.mark.parametrize("index", range(len(shell_blocks())))
def test_every_block_is_valid_shell(index: int) -> None:
    block = "\n".join(shell_blocks()[index]) + "\n"
    proc = subprocess.run(["bash", "-n"], input=block, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_files_copied_to_the_pi_exist_and_are_the_ones_installed() -> None:
    lines = [line for block in shell_blocks() for line in block]
    scp = [line for line in lines if line.startswith("scp ")]
    assert len(scp) == 1
    copied = scp[0].split()[1:-1]
    for rel in copied:
        if "*" not in rel:
            assert (ROOT / rel).exists(), rel
    for name in ("companion.service", "99-companion-pico.rules", "99-companion-screen.rules"):
        assert any(f"/tmp/{name}" in line for line in lines), name
        assert any(rel.endswith(name) for rel in copied), name


def test_the_unit_and_the_udev_rule_agree_with_the_page() -> None:
    from companion.inputs.serial_source import PICO_VID

    unit = (ROOT / "hardware" / "companion.service").read_text(encoding="utf-8")
    assert "User=companion" in unit and "/home/companion/venv/bin/companion" in unit
    assert "--config /home/companion/.config/table-companion/companion.toml" in unit
    assert "SDL_VIDEODRIVER=kmsdrm" in unit
    groups = re.search(r"^SupplementaryGroups=(.*)$", unit, re.M)
    assert groups is not None
    page = DOC.read_text(encoding="utf-8")
    usermod = re.search(r"usermod -aG (\S+) companion", page)
    assert usermod is not None and set(usermod.group(1).split(",")) == set(groups.group(1).split())
    rule = (ROOT / "hardware" / "99-companion-pico.rules").read_text(encoding="utf-8")
    lines = [x for x in rule.splitlines() if x.strip() and not x.startswith("#")]
    assert len(lines) == 1
    pairs = dict(re.findall(r'(\w+(?:\{\w+\})?)\s*[=+!]=?\s*"([^"]*)"', lines[0]))
    assert int(pairs["ATTRS{idVendor}"], 16) == PICO_VID
    assert pairs["GROUP"] == "dialout" and pairs["SYMLINK"] == "companion-pico"
