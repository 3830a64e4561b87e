"""docs/install-pi.md as a stranger follows it: every shell line runs here, except those marked
``# (Pi)`` (sudo, hardware, network), which are syntax-checked; the files it installs exist and
agree with it (the systemd unit's paths, the udev rule's USB id)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "install-pi.md"
PI_ONLY = "# (Pi)"


def shell_blocks() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    return [block.strip("\n").splitlines()
            for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)]


def test_the_page_has_its_steps_in_both_languages() -> None:
    text = DOC.read_text(encoding="utf-8")
    for words in ("Raspberry Pi OS Lite", "Bookworm", "venv", "pip install", "systemd",
                  "kmsdrm", "udev", "dialout", "gpio", "touchscreen", "écran tactile", "Sound",
                  "Le son", "Update", "Mettre à jour", "companion doctor"):
        assert words in text, words
    assert len(shell_blocks()) >= 8


@pytest.mark.parametrize("index", range(len(shell_blocks())))
def test_every_block_is_valid_shell(index: int) -> None:
    block = "\n".join(shell_blocks()[index]) + "\n"
    proc = subprocess.run(["bash", "-n"], input=block, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr


def test_pi_only_lines_name_files_that_exist() -> None:
    for block in shell_blocks():
        for line in block:
            for rel in re.findall(r"(?:~|/home/companion)/table-companion/(\S+)", line):
                assert (ROOT / rel.rstrip('"')).exists(), line


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


def test_the_commands_run_from_a_fresh_home(tmp_path: Path) -> None:
    """The page's commands in order, as the companion user, from a copy of the repository
    (standing in for the ``git clone`` line) to a working install, a demo and a doctor."""
    home = tmp_path / "home"
    home.mkdir()
    shutil.copytree(ROOT, home / "table-companion", ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "build",
        "*.egg-info"))
    runnable = [line for block in shell_blocks() for line in block
                if line.strip() and not line.lstrip().startswith("#")
                and not line.rstrip().endswith(PI_ONLY)]
    assert any("pip install" in line for line in runnable)
    assert all("sudo" not in line for line in runnable)
    script = "set -euo pipefail\n" + "\n".join(runnable) + "\n"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COMPANION_", "VIRTUAL_ENV", "PYTHON")) and k not in (
               "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=str(home), SDL_VIDEODRIVER="dummy", PIP_DISABLE_PIP_VERSION_CHECK="1")
    # The python3 of this interpreter's installation, as a Pi would have its own on the PATH.
    base = Path(getattr(sys, "_base_executable", sys.executable)).parent
    env["PATH"] = f"{base}:{env.get('PATH', '')}"
    proc = subprocess.run(["bash", "-c", script], env=env, cwd=home, capture_output=True,
                          text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (home / "venv" / "bin" / "companion").exists()
    assert (home / ".config" / "table-companion" / "companion.toml").exists()
    assert "Tout va bien." in proc.stdout  # the doctor, with no hardware and a dummy display
