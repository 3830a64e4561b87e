"""``companion firmware install`` and ``companion firmware info``."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.cli import firmware as firmware_cli
from tests.serial_helpers import FirmwareBoard


def parse(*argv: str) -> object:
    return build_parser().parse_args(["firmware", *argv])


def test_install_copies_every_firmware_file_then_resets() -> None:
    calls: list[list[str]] = []

    def run(cmd: Sequence[str]) -> int:
        calls.append(list(cmd))
        return 0

    out = io.StringIO()
    args = parse("install", "--port", "/dev/ttyACM7", "--lang", "en")
    assert firmware_cli.cmd_install(args, run=run, out=out) == 0  # type: ignore[arg-type]
    (cmd,) = calls
    assert cmd[cmd.index("connect") + 1] == "/dev/ttyACM7"
    copied = [Path(c).name for c in cmd[cmd.index("cp") + 1 : cmd.index(":")]]
    assert copied == list(firmware_cli.FIRMWARE_FILES)
    assert copied[-1] == "main.py"
    assert cmd[-2:] == ["+", "reset"]
    assert "companion firmware info" in out.getvalue()
    # The list is complete: every firmware module is copied, nothing else.
    on_disk = {f.name for f in firmware_cli.firmware_dir().glob("*.py")}
    assert set(firmware_cli.FIRMWARE_FILES) == on_disk


def test_install_reports_mpremote_failure_with_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("install", "--port", "/dev/ttyACM7", "--lang", "fr")
    assert firmware_cli.cmd_install(args, run=lambda cmd: 1, out=io.StringIO()) == 1  # type: ignore[arg-type]
    assert "rebranchez" in capsys.readouterr().err


def test_install_dry_run_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "install", "--port", "/dev/ttyACM7", "--dry-run"]) == 0
    assert "mpremote" in capsys.readouterr().out


def test_install_without_firmware_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["firmware", "install", "--port", "x", "--source", str(tmp_path), "--lang", "en"])
    assert code == 2
    assert "--source" in capsys.readouterr().err


def test_info_shows_version_and_pin_map(capsys: pytest.CaptureFixture[str]) -> None:
    board = FirmwareBoard(boot_id=77)
    try:
        assert main(["firmware", "info", "--port", board.pty.path, "--lang", "en"]) == 0
        text = capsys.readouterr().out
        assert "Firmware 0.3.0, protocol v2" in text
        assert "Capture: PIO + DMA, resolution 1 µs" in text
        assert "E6614103E7452D2F" in text
        assert "seat  1: button GP2   LED GP15" in text
        assert "undo     : button GP14" in text
        assert main(["firmware", "info", "--port", board.pty.path, "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["boot_id"] == 77
        assert info["seat_pins"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        assert info["rtt_ms"] is not None
    finally:
        board.close()


def test_info_on_something_else_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "info", "--port", "loop://"]) == 2
    assert "companion firmware install" in capsys.readouterr().err
