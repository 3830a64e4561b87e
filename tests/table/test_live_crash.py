"""Crash safety: a game killed with SIGKILL at random moments loses no committed event, and
``companion resume`` continues it exactly as if it had never stopped."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from companion.table.fold import replay
from companion.table.journal import FILENAME
from tests.conftest import ROOT, run_cli

KILLS = 52  # 13 in each of the LANES
ARGS = ["--speed", "0", "--lang", "en"]
GAME = ["--seed", "77", "--players", "7", "--rounds", "99"]


def journal_payloads(data: Path) -> list[str]:
    path = data / FILENAME
    if not path.exists():
        return []
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        if "events" not in tables:
            return []
        return [r[0] for r in db.execute("SELECT payload FROM events ORDER BY seq")]
    finally:
        db.close()


def start(args: list[str], data: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, COMPANION_DATA_DIR=str(data), COMPANION_TRACE_COMMITS="1")
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


LANES = 4  # kill sequences run side by side: each one's waits are the others' time to run


def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    reference_dir = tmp_path / "reference"
    done = run_cli("demo", *GAME, *ARGS, data_dir=reference_dir)
    assert done.returncode == 0, done.stderr
    reference = journal_payloads(reference_dir)
    assert len(reference) > 300
    # KILLS kills in all, in LANES independent sequences (each its own journals and its own
    # random moments). Each kill is judged alone, so running the sequences side by side checks
    # what one sequence of KILLS did, in a quarter of its time: most of it was the sleep before
    # each kill and the start of each process, waits the other sequences now fill.
    with ThreadPoolExecutor(LANES) as pool:
        lanes = [
            pool.submit(_kill_lane, tmp_path / f"lane-{n}", random.Random(n + 1), KILLS // LANES, reference)
            for n in range(LANES)
        ]
        for lane in lanes:
            lane.result()


def _kill_lane(base: Path, rng: random.Random, kills_wanted: int, reference: list[str]) -> None:
    data = base / "killed"
    kills = games = 0
    while kills < kills_wanted:
        committed = journal_payloads(data)
        if len(committed) == len(reference):
            # The game ended between kills; play it again from the start in a fresh journal.
            games += 1
            data = base / f"killed-{games}"
            committed = []
        args = ["demo", *GAME, *ARGS] if not committed else ["resume", *ARGS]
        process = start(args, data)
        # Start-up takes a few hundred ms; spread the kills over start-up and play alike.
        time.sleep(rng.uniform(0.05, 0.9))
        process.send_signal(signal.SIGKILL)
        _, err = process.communicate(timeout=30)
        if process.returncode != -signal.SIGKILL:
            assert process.returncode == 0, err  # it finished before the kill: fine
        else:
            kills += 1
        reported = [line.split() for line in err.splitlines() if line.startswith("#committed")]
        after = journal_payloads(data)
        # Every event the process saw committed is in the journal...
        if reported:
            assert len(after) >= int(reported[-1][2])
        # ...and the journal is exactly the uninterrupted game, so far.
        assert after == reference[: len(after)]
    # Finish the last game and compare it whole.
    while len(journal_payloads(data)) < len(reference):
        finished = run_cli("resume", *ARGS, "--json", data_dir=data)
        if not journal_payloads(data):
            finished = run_cli("demo", *GAME, *ARGS, data_dir=data)
        assert finished.returncode == 0, finished.stderr
    assert journal_payloads(data) == reference
    exported = run_cli("export", data_dir=data).stdout
    assert (
        replay(exported.splitlines()).to_json()
        == replay(json.dumps(json.loads(p)) for p in reference).to_json()
    )


def test_resume_state_equals_replay_of_the_journal(tmp_path: Path) -> None:
    process = start(["demo", *GAME, *ARGS], tmp_path)
    deadline = time.monotonic() + 20
    while len(journal_payloads(tmp_path)) < 120 and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    payloads = journal_payloads(tmp_path)
    assert len(payloads) >= 120
    from companion.table.journal import Journal
    from companion.table.live import Table

    with Journal(tmp_path, writer=True) as journal:
        table = Table.resume(journal)
        assert table.seq == len(payloads)
        assert table.engine.to_json() == replay(payloads).to_json()
