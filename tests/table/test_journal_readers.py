"""A reader holding a read transaction in another process (a `sqlite3` shell, a backup, a slow
export) never makes the writer wait (issue 22, point 3): a checkpoint returns at once with what it
could copy, and the next commit goes through. No timing is asserted: the writer is given a busy
timeout of ten minutes, so a checkpoint or commit that waited for the reader would hang until the
test's own bound (a minute) ran out; each call runs in a thread the test waits on."""

from __future__ import annotations

import functools
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.games.kilo.events import NewKiloGame, Press
from companion.table.journal import CHECKPOINT_EVERY, FILENAME, WAL_KEEP_BYTES, Journal
from companion.table.live import Table

SETUP = NewKiloGame(players=["A", "B", "C"], rounds=2)
WAITED_OUT = 60.0  # seconds: only ever reached when a call waits on the reader (busy timeout 600 s)

# The reader: another process, as a user's `sqlite3` shell is; it says "holding" once its
# snapshot is taken and keeps it until its stdin closes.
READER = """
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, isolation_level=None)
db.execute("BEGIN")
print(db.execute("SELECT count(*) FROM events").fetchone()[0], flush=True)
print("holding", flush=True)
sys.stdin.read()
db.execute("COMMIT")
"""


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, SETUP, {"input": "sim"})
        for i in range(5):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        # Any wait would be a long one (Python's default is 5 s, the frozen screen of the issue).
        journal._db.execute("PRAGMA busy_timeout = 600000")
        yield table


def hold(tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    """A process holding a read snapshot of the journal (it lets go when its stdin closes), and
    the events it sees."""
    proc = subprocess.Popen(
        [sys.executable, "-c", READER, str(tmp_path / FILENAME)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    seen = int(proc.stdout.readline())
    assert proc.stdout.readline().strip() == "holding"
    return proc, seen


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[int]:
    """A process holding a read snapshot of the journal; yields the events it sees."""
    proc, seen = hold(tmp_path)
    try:
        yield seen
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=WAITED_OUT) == 0


def returns(call: Callable[[], object]) -> None:
    """Run ``call`` in a thread and wait for it; fail if it is still waiting after WAITED_OUT."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as err:  # handed to the test's thread
            failed.append(err)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(WAITED_OUT)
    assert not worker.is_alive(), "the writer waited on the reader"
    if failed:
        raise failed[0]


def frames(journal: Journal) -> tuple[int, int]:
    """(frames in the -wal, frames copied into the journal) as a PASSIVE checkpoint sees them."""
    busy, log, copied = journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0
    return log, copied


def count(folder: Path) -> int:
    db = sqlite3.connect(f"file:{folder / FILENAME}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        db.close()


def test_a_checkpoint_with_a_reader_holding_returns_and_the_next_commit_goes_through(
    table: Table, reader: int, tmp_path: Path
) -> None:
    journal = table.journal
    assert reader == 6  # the reader's snapshot: the new game and five presses
    # Commits after the reader's snapshot, past a periodic checkpoint (_after_commit), each one
    # returning although the reader still needs the journal as it was.
    for i in range(CHECKPOINT_EVERY + 3):
        returns(functools.partial(table.submit, Press(player="ABC"[i % 3], t_us=100 + i)))
    returns(journal.checkpoint)
    log, copied = frames(journal)
    assert copied < log  # the reader was in the way: what it still needs stays in the -wal
    returns(lambda: table.submit(Press(player="A", t_us=1000)))
    assert count(tmp_path) == 6 + CHECKPOINT_EVERY + 3 + 1  # every commit is in the journal
    # The end of a game checkpoints too, and a reader's borrowed writer settles (TRUNCATE with
    # no busy wait): neither waits.
    returns(lambda: journal.mark_finished(table.game_id, False))
    returns(journal.settle)


def test_once_the_reader_is_gone_the_next_checkpoint_copies_everything(table: Table, tmp_path: Path) -> None:
    journal = table.journal
    proc, _ = hold(tmp_path)
    for i in range(10):
        returns(functools.partial(table.submit, Press(player="ABC"[i % 3], t_us=100 + i)))
    log, copied = frames(journal)
    assert copied < log
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=WAITED_OUT) == 0
    returns(journal.checkpoint)
    log, copied = frames(journal)
    assert copied == log  # nothing left behind for a deleted -wal to take away


def test_the_wal_grown_behind_a_reader_is_cut_back_once_it_is_gone(table: Table, tmp_path: Path) -> None:
    journal = table.journal
    wal = tmp_path / (FILENAME + "-wal")
    proc, _ = hold(tmp_path)
    seq = 0
    while wal.stat().st_size <= 2 * WAL_KEEP_BYTES:  # every commit kept for the reader
        seq += 1
        table.submit(Press(player="ABC"[seq % 3], t_us=100 + seq))
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=WAITED_OUT) == 0
    journal.checkpoint()  # the reader gone: everything copied
    table.submit(Press(player="A", t_us=10**6))  # the -wal starts over, and is cut back
    assert wal.stat().st_size <= WAL_KEEP_BYTES
    assert count(tmp_path) == 6 + seq + 1
