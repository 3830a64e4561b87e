"""The firmware type-checks against the MicroPython rp2 port's API (micropython-rp2-rpi-pico-stubs).

A call that does not exist on the Pico (a misspelt ``rp2.DMA`` method, a wrong ``StateMachine``
argument, a ``machine`` function the port lacks) fails here, before anyone flashes a board. The
stubs are the Pico's own modules (``machine``, ``rp2``, ``time``...) and MicroPython's standard
library in place of CPython's, so CPython-only calls fail too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, files
from pathlib import Path

import pytest

from tests.mpy_helpers import FIRMWARE

BOARD_STUBS = "micropython-rp2-rpi-pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"


@pytest.fixture(scope="module")
def typings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stub files laid out as mypy wants them: MicroPython's stdlib as the typeshed."""
    out = tmp_path_factory.mktemp("typings")
    for dist in (BOARD_STUBS, STDLIB_STUBS):
        try:
            listed = files(dist) or []
        except PackageNotFoundError as e:
            raise AssertionError(f"{dist} is not installed: pip install -e '.[test]'") from e
        for f in listed:
            if f.suffix != ".pyi" and f.name != "VERSIONS":
                continue
            if f.parts[0] == "stdlib":
                dst = out / "typeshed" / f
            elif f.parts[0] == "stubs":  # third-party stubs the stdlib stubs rely on
                dst = out / "typeshed" / "stdlib" / f.name
            else:
                dst = out / "path" / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(str(f.locate())), dst)
    return out


def mypy(typings: Path, *paths: Path) -> list[str]:
    """Errors mypy finds in the given files (the stubs' own defects are not ours to fix)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--custom-typeshed-dir",
            str(typings / "typeshed"),
            "--no-site-packages",
            "--check-untyped-defs",
            "--warn-unused-ignores",
            "--no-incremental",
            "--config-file",
            str(typings / "none.ini"),
            "--python-version",
            "3.11",
            *map(str, paths),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
        env={**os.environ, "MYPYPATH": str(typings / "path")},
    )
    assert "error: " in proc.stdout or proc.returncode == 0, proc.stdout + proc.stderr
    ours = {str(p) for p in paths}
    return [ln for ln in proc.stdout.splitlines() if ln.split(":", 1)[0] in ours and ": error:" in ln]


@pytest.fixture(scope="module")
def config(typings: Path) -> Path:
    (typings / "none.ini").write_text("[mypy]\n")
    return typings


def test_firmware_type_checks_against_the_pico_port(config: Path) -> None:
    sources = sorted(FIRMWARE.glob("*.py"))
    assert mypy(config, *sources) == []


def test_a_call_the_pico_does_not_have_fails(config: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import rp2\nimport machine\nimport time\n"
        "d = rp2.DMA()\n"
        "d.configure(count=4)\n"  # it is config()
        "machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UPP)\n"
        "time.monotonic()\n"  # CPython's, not MicroPython's
    )
    errors = mypy(config, bad)
    text = "\n".join(errors)
    assert '"DMA" has no attribute "configure"' in text
    assert "PULL_UPP" in text
    assert 'has no attribute "monotonic"' in text


def test_the_one_register_the_stubs_miss_is_marked(config: Path, tmp_path: Path) -> None:
    # rp2.DMA's read/write/count/ctrl/channel are attributes made in C (rp2_dma.c), which the
    # stub generator does not see. The firmware reads dma.count once, marked; --warn-unused-ignores
    # above proves the mark is still needed, and this shows what it hides.
    src = (FIRMWARE / "piocapture.py").read_text()
    assert src.count("# type: ignore") == 1
    probe = tmp_path / "probe.py"
    probe.write_text("import rp2\nprint(rp2.DMA().count)\n")
    assert any('"DMA" has no attribute "count"' in e for e in mypy(config, probe))
