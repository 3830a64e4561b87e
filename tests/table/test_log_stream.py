"""``companion replay`` reads a log line by line with a cap on a line's length: a file that is
not a table log (``/dev/zero``, one 50 MB line) is refused in one sentence, in bounded memory."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from companion.errors import LogError
from companion.table.fold import replay
from companion.table.log import MAX_LINE_BYTES
from tests.conftest import ROOT

START = '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 2}\n'


def test_a_line_over_the_cap_is_named_and_not_read_whole(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    with log.open("w", encoding="utf-8") as handle:
        handle.write(START)
        handle.write('{"type": "press", "player": "A", "t_us": 1}\n')
        handle.write(" " * (MAX_LINE_BYTES + 1) + "\n")
    with log.open("rb") as handle:
        try:
            replay(handle)
        except LogError as err:
            assert err.line == 3
            assert str(err) == (
                f"line 3: longer than {MAX_LINE_BYTES:,} bytes: a table-log line "
                "holds one event, a few hundred bytes at most"
            )
        else:
            raise AssertionError("a line over the cap was read")
    # Exactly the cap is still a line (blank, here).
    log.write_text(START + " " * (MAX_LINE_BYTES - 1) + "\n", encoding="utf-8")
    with log.open("rb") as handle:
        replay(handle)
    # The same cap on lines given as a list.
    try:
        replay([START, "x" * (MAX_LINE_BYTES + 1)])
    except LogError as err:
        assert err.line == 2 and "longer than" in str(err)
    else:
        raise AssertionError("a line over the cap was read")


def _limit_memory() -> None:
    limit = 400 * 1024 * 1024  # address space: far more than replay needs, far less than /dev/zero
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_replay_of_dev_zero_under_a_memory_limit_is_one_sentence() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", "/dev/zero", "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        preexec_fn=_limit_memory,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    err = proc.stderr.strip()
    assert err.startswith("companion: /dev/zero: line 1: ") and "longer than" in err, proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1


def _peak_rss_mb(log: Path) -> float:
    """``companion replay LOG`` in a child process: its peak resident memory, in MB."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "replay", str(log), "--lang", "en"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, err[-2000:]
    return usage.ru_maxrss / 1024


def _verdicts(path: Path, n: int) -> Path:
    """A Kilo de merde log of ``n`` false slaps nobody pays for: ``n`` decisions undo could reach
    back to, each a copy of the game's state kept for it."""
    with path.open("w", encoding="utf-8") as out:
        out.write(START.replace('"rounds": 2', '"rounds": 99'))
        for i in range(n):
            out.write(
                f'{{"type": "press", "player": "A", "t_us": {i * 10_000_000}}}\n'
                '{"type": "verdict", "valid": false, "penalized": []}\n'
            )
    return path


def test_replay_memory_does_not_grow_with_the_decisions(tmp_path: Path) -> None:
    """Issue 22 point 4: the checkpoints undo needs wait in a temporary file, so 30,000 decisions
    cost what 10 do (kept in memory, they are about 100 MB more)."""
    small = _peak_rss_mb(_verdicts(tmp_path / "small.jsonl", 10))
    large = _peak_rss_mb(_verdicts(tmp_path / "large.jsonl", 30_000))
    assert large - small < 30, (small, large)
