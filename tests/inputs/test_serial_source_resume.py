"""Issue 34, case 2b, through the real commands: `companion play` on a Pico board (the firmware
under MicroPython on a pty) is killed with SIGKILL after Alice's slap; Bob and Chloé slap on the
board, which stays powered, while nothing reads it; `companion play --resume` asks the board for
every press after the last one the journal kept, so the window holds all three."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.kilo.events import Press
from companion.games.kilo.rules import KiloGame
from companion.table.journal import Journal
from companion.table.live import Table
from tests.conftest import ROOT
from tests.serial_helpers import FirmwareBoard

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
WRAP = 2**30


class Companion:
    """`companion play` in a subprocess, its trace lines (frames, commits) read as they come."""

    def __init__(self, args: list[str], data: Path) -> None:
        env = {
            **os.environ,
            "COMPANION_DATA_DIR": str(data),
            "COMPANION_TRACE_COMMITS": "1",
            "COMPANION_TRACE_FRAMES": "1",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._cond:
                self.lines.append(line.strip())
                self._cond.notify_all()

    def wait(self, prefix: str, timeout: float = 30) -> str:
        with self._cond:
            ok = self._cond.wait_for(
                lambda: any(x.startswith(prefix) for x in self.lines) or self.proc.poll() is not None,
                timeout,
            )
            found = [x for x in self.lines if x.startswith(prefix)]
            assert ok and found, f"never said {prefix!r}: {self.lines[-10:]}"
            return found[0]

    def stop(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(30)


@pytest.fixture
def board() -> Iterator[FirmwareBoard]:
    b = FirmwareBoard(boot_id=7, start_us=WRAP - 400_000)
    yield b
    b.close()


def test_presses_made_while_the_companion_restarts_are_asked_for_on_resume(
    tmp_path: Path, board: FirmwareBoard
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f'[serial]\nport = "{board.pty.path}"\n', encoding="utf-8")
    data = tmp_path / "data"
    common = ["--config", str(config), "--lang", "en", "--mute"]
    first = Companion(["play", "kilo", "--input", "serial", "--players", ",".join(PLAYERS), *common], data)
    try:
        game_id = first.wait("#committed ").split()[1]
        first.wait("#frame ")  # the board handshaken: the source starts before the first frame
        board.press(2, 1_000, hold_us=40_000)  # Alice slaps
        first.wait(f"#committed {game_id} 2")
    finally:
        first.stop(signal.SIGKILL)
    assert first.proc.returncode == -signal.SIGKILL
    # Nobody reads the board now: Bob and Chloé slap on it.
    board.press(3, 20_000, hold_us=40_000)
    board.press(4, 300_000, hold_us=40_000)
    fired = board.wait_fired(6)
    second = Companion(["play", "--resume", *common], data)
    try:
        second.wait(f"#committed {game_id} 4")
    finally:
        second.stop(signal.SIGTERM)
    with Journal(data, writer=False) as journal:
        table = Table.load(journal, game_id)
        presses = [e for _, e in journal.events(game_id) if isinstance(e, Press)]
    assert [e.player for e in presses] == ["Alice", "Bob", "Chloé"]
    # Each with the board's own stamp, not when the resumed companion read it.
    assert [e.t_us for e in presses] == [t for t, gpio, level, _ in fired if level == 0]
    game = table.engine
    assert isinstance(game, KiloGame)
    assert [p for p in PLAYERS if game.window_pressed(p)] == ["Alice", "Bob", "Chloé"]
