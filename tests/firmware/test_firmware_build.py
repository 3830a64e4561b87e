"""Every firmware file compiles with mpy-cross for the Pico's 32-bit MicroPython."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.mpy_helpers import FIRMWARE, tool

FILES = sorted(FIRMWARE.glob("*.py"))


def test_firmware_has_the_expected_files() -> None:
    names = {f.name for f in FILES}
    assert {"main.py", "buttonboard.py", "pinmap.py", "wire.py", "debounce.py"} <= names


@pytest.mark.parametrize("src", FILES, ids=lambda f: f.name)
def test_compiles_for_the_pico(src: Path, tmp_path: Path) -> None:
    # 31-bit small ints and Thumb code: what the RP2040/RP2350 port runs.
    out = tmp_path / (src.stem + ".mpy")
    proc = subprocess.run(
        [tool("mpy-cross"), "-msmall-int-bits=31", "-march=armv6m", "-o", str(out), str(src)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0
