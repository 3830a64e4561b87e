"""The wheel as a packager builds it: the firmware and the pinout inside the package (read with
importlib.resources), and what needs them working from it with no checkout around."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    yield next(out.glob("table_companion-*.whl"))


def installed(wheel: Path, where: Path) -> dict[str, str]:
    """The wheel unpacked as pip lays it in site-packages; the environment that imports it first."""
    site = where / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    return {**os.environ, "PYTHONPATH": str(site), "LANG": "C.UTF-8"}


def test_the_wheel_ships_firmware_and_pinout_as_package_data(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    firmware = {Path(n).name for n in names if n.startswith("companion/firmware/")}
    assert firmware == {p.name for p in (ROOT / "firmware").iterdir() if p.suffix in (".py", ".json")}
    assert {
        "companion/py.typed",
        "companion/hardware/pinout.toml",
        "companion/hardware/companion.example.toml",
    } <= set(names)
    assert not [n for n in names if ".data/" in n]  # nothing outside the package (data-files)


def test_the_wheel_ships_every_page_of_the_phones_and_none_reaches_outside(wheel: Path) -> None:
    """The table may have no internet, and nothing is built at install: every page, script and
    style the phones load is in the wheel as it is in the tree, and none names another site."""
    import re

    names = set(zipfile.ZipFile(wheel).namelist())
    static = ROOT / "companion" / "web" / "static"
    files = [p for p in static.iterdir() if p.is_file()]
    assert {f"companion/web/static/{p.name}" for p in files} <= names
    for p in files:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), p.name


def test_render_and_firmware_work_from_the_installed_package(wheel: Path, tmp_path: Path) -> None:
    env = installed(wheel, tmp_path)
    site = tmp_path / "site"
    where = subprocess.run(
        [sys.executable, "-c", "import companion; print(companion.__file__)"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert where.stdout.startswith(str(site)), where  # the wheel's copy, not the checkout
    folder = tmp_path / "empty"
    folder.mkdir()
    render = subprocess.run(
        [sys.executable, "-m", "companion.hardware", "render", "--lang", "en"],
        env=env,
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert render.returncode == 0, render.stderr
    assert "wrote hardware/wiring/pi-4.svg" in render.stdout
    made = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert f"{len(made)} files written in {folder} from {site}" in render.stdout
    assert (folder / "firmware" / "pinmap.py").read_text("utf-8") == (
        ROOT / "firmware" / "pinmap.py"
    ).read_text("utf-8")
    again = subprocess.run(
        [sys.executable, "-m", "companion.hardware", "render", "--lang", "en"],
        env=env,
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert f"0 files written in {folder}" in again.stdout and "wrote" not in again.stdout
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "firmware",
            "install",
            "--port",
            "/dev/ttyACM9",
            "--dry-run",
            "--lang",
            "en",
        ],
        env=env,
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert install.returncode == 0, install.stderr
    assert str(site / "companion" / "firmware") in install.stdout
    version = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--version"],
        env=env,
        capture_output=True,
        text=True,
        cwd=folder,
    )
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert version.stdout == f"companion {declared}\n"
