"""Hostile table logs through the CLI: each one a clear sentence with its line, never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli, skip_unless_ci

START = '{"type": "new_game", "game": "kilo", "players": ["Alice", "Bob", "Chloé"], "rounds": 1}\n'
SLAP = (
    '{"type": "press", "player": "Alice", "t_us": 100}\n'
    '{"type": "press", "player": "Bob", "t_us": 200}\n'
    '{"type": "press", "player": "Chloé", "t_us": 300}\n'
    '{"type": "verdict", "valid": true}\n'
)


def _refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_close_before_any_press_changes_nothing() -> None:
    log = START + '{"type": "close", "t_us": 1}\n' + SLAP
    result = run_cli("replay", "-", "--json", stdin=log)
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["owed_draws"] == ["Chloé"] and state["slaps"] == 1
    assert [p["player"] for p in state["last_slap"]["order"]] == ["Alice", "Bob", "Chloé"]


BAD_NAMES = {
    "surrogate": ('"\\ud800"', "U+D800"),
    "nul": ('"Al\\u0000ice"', "U+0000"),
    "newline": ('"Eve\\nWinner: Eve with 0 kg"', "U+000A"),
    "bidi": ('"\\u202eecilA"', "U+202E"),
    "zero-width": ('"Al\\u200bice"', "U+200B"),
}


@pytest.mark.parametrize("name", BAD_NAMES)
def test_names_must_be_plain_visible_text(tmp_path: Path, name: str) -> None:
    literal, code = BAD_NAMES[name]
    log = f'{{"type": "new_game", "game": "kilo", "players": ["Bob", "Dan", {literal}], "rounds": 1}}\n'
    path = tmp_path / "log.jsonl"
    path.write_text(log, encoding="utf-8")
    for mode in ([], ["--json"]):
        line = _refused(run_cli("replay", str(path), *mode, "--lang", "en"), "line 1:", code)
        assert "plain visible text" in line
    _refused(run_cli("replay", str(path)), "ligne 1\u202f:", code, "texte visible")
    snap = run_cli(
        "snapshot",
        "table",
        "--log",
        str(path),
        "--out",
        str(tmp_path / "s.png"),
        "--lang",
        "en",
        env={"SDL_VIDEODRIVER": "dummy"},
    )
    assert snap.returncode != 0 and "Traceback" not in snap.stderr and code in snap.stderr
    assert not (tmp_path / "s.png").exists()


def test_a_press_by_the_other_spelling_of_a_name_is_the_same_player() -> None:
    decomposed = START.replace("Chloé", "Chloe\u0301")
    log = decomposed + SLAP  # the presses spell "Chloé" precomposed
    result = run_cli("replay", "-", "--json", stdin=log)
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["players"] == ["Alice", "Bob", "Chloé"]
    both = START.replace('"Chloé"', '"Chloé", "Chloe\u0301"')
    _refused(run_cli("replay", "-", "--lang", "en", stdin=both), "line 1", "two players")


def test_non_utf8_byte_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    body = (START + SLAP).encode()
    path.write_bytes(body + b"# comment\n" * 35 + b'{"type": "press", "player": "Bob\xff"}\n')
    line_no = body.count(b"\n") + 36
    assert line_no == 41
    _refused(run_cli("replay", str(path), "--lang", "en"), "line 41:", "UTF-8")
    piped = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", "-", "--lang", "en"],
        input=path.read_bytes(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert piped.returncode == 2 and piped.stderr.decode().startswith("companion: stdin: line 41:")


def test_duplicate_keys_are_refused() -> None:
    log = START + SLAP.replace('"valid": true', '"valid": false, "valid": true')
    _refused(run_cli("replay", "-", "--lang", "en", stdin=log), "line 5:", "'valid'", "twice")
    _refused(run_cli("replay", "-", stdin=log), "ligne 5\u202f:", "deux fois")


def test_ctrl_c_while_reading_stdin_is_a_clean_stop() -> None:
    # A user's Ctrl-C reaches a program started from a terminal; pytest itself may run with
    # SIGINT ignored (nohup, a background job), which its children would inherit: give the child
    # the terminal's default back.
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "replay", "-", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None
    proc.stdin.write(START)
    proc.stdin.flush()
    # Wait for the event "blocked reading standard input" (the read syscall on fd 0).
    read_nr = {"x86_64": "0", "aarch64": "63", "armv7l": "3"}.get(os.uname().machine)
    if read_nr is None or not os.path.exists(f"/proc/{proc.pid}/syscall"):
        proc.kill()
        skip_unless_ci("cannot see the process's syscall here")
    deadline = time.monotonic() + 60
    while True:
        try:
            fields = Path(f"/proc/{proc.pid}/syscall").read_text().split()
        except (OSError, PermissionError):
            fields = []
        if fields[:2] == [read_nr, "0x0"]:
            break
        assert time.monotonic() < deadline, fields
        time.sleep(0.01)  # polling /proc for the event; no timing is asserted
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip() == "companion: Interrupted."
