"""The suite's two parts (issue 38): ``-m "not boot"`` runs everything but the boot test's checks
of the appliance under QEMU, and ``-m boot`` those checks alone; the README's command runs both."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.boot.appliance import SUITE
from tests.conftest import ROOT


def _collected(tmp_path: Path, marks: str) -> set[str]:
    # COMPANION_BOOT_OBSERVATIONS names a file of observations: the boot test's conftest then
    # starts no scenario, whatever the collection keeps.
    env = {"COMPANION_BOOT_OBSERVATIONS": str(tmp_path / "none.json")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            marks,
            "tests/boot",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode in (0, 5), run.stdout[-2000:] + run.stderr[-2000:]  # 5: none collected
    return {line.split("::")[-1] for line in run.stdout.splitlines() if "::" in line}


def test_the_boot_marker_is_the_checks_of_the_booted_appliance(tmp_path: Path) -> None:
    every: set[str] = set()
    on_the_vm: set[str] = set()
    for module in sorted((ROOT / "tests" / "boot").glob("test_*.py")):  # the checks, the clean-up's
        source = module.read_text(encoding="utf-8")
        every |= set(re.findall(r"^def (test_\w+)", source, re.MULTILINE))
        on_the_vm |= set(
            re.findall(r"^@pytest\.mark\.needs_vm\n(?:@.*\n)*def (test_\w+)", source, re.MULTILINE)
        )
        if not SUITE.gpio_sim:  # the checks of real kernel edges: only where the kernel has gpio-sim
            sim = set(re.findall(r"^@pytest\.mark\.gpio_sim\n(?:@.*\n)*def (test_\w+)", source, re.MULTILINE))
            every -= sim
            on_the_vm -= sim
    assert on_the_vm and every - on_the_vm
    assert _collected(tmp_path, "boot") == on_the_vm
    fast = _collected(tmp_path, "not boot")
    assert fast == every - on_the_vm  # the guide's and the picture's unit tests stay in the fast part


def test_the_readme_says_how_to_run_each_part() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = ".venv/bin/python -m pytest -n 2 --dist loadfile"  # on two workers (pytest-xdist)
    assert command + "\n" in readme  # the whole suite, as .ci/run runs it
    assert command + ' -m "not boot"' in readme
    assert ".venv/bin/python -m pytest -m boot" in readme
    assert command + "\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
