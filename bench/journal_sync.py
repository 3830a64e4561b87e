"""Cost of one durable append under the two journal modes that survive a deleted side file.

    python bench/journal_sync.py [--events 400] [--dir FOLDER]

One JSON object a line: ``mode``, ``median_ms``, ``p99_ms`` per commit (one event, one
transaction, as ``Journal.append`` does), and for WAL the cost of the checkpoint done at the end
of each round. Run it on the card the Pi boots from: fsync cost is the medium's, not Python's.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from companion.table.journal import CHECKPOINT_EVERY

PAYLOAD = '{"type": "press", "player": "Alice", "t_us": 123456789}'


def run(folder: Path, mode: str, events: int, round_every: int) -> dict[str, object]:
    path = folder / f"{mode}.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA journal_mode={'WAL' if mode.startswith('wal') else 'DELETE'}")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, payload TEXT, ns INTEGER)")
    commits: list[float] = []
    checkpoints: list[float] = []
    for seq in range(1, events + 1):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, PAYLOAD, time.time_ns()))
        db.execute("COMMIT")
        commits.append((time.perf_counter() - start) * 1e3)
        if mode == "wal+checkpoint" and seq % round_every == 0:
            start = time.perf_counter()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            checkpoints.append((time.perf_counter() - start) * 1e3)
    db.close()
    commits.sort()
    line: dict[str, object] = {
        "name": "journal.sync",
        "mode": mode,
        "n": events,
        "median_ms": round(statistics.median(commits), 3),
        "p99_ms": round(commits[int(len(commits) * 0.99) - 1], 3),
        "target_ms": 10,
    }
    if checkpoints:
        checkpoints.sort()
        line["checkpoint_median_ms"] = round(statistics.median(checkpoints), 3)
        line["checkpoint_max_ms"] = round(checkpoints[-1], 3)
        line["round_every"] = round_every
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=400)
    parser.add_argument(
        "--round-every",
        type=int,
        default=CHECKPOINT_EVERY,
        help="events between checkpoints (default: the journal's)",
    )
    parser.add_argument("--dir", type=Path, default=None, help="folder on the medium to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for mode in ("wal", "wal+checkpoint", "delete"):
            print(json.dumps(run(Path(tmp), mode, args.events, args.round_every)), flush=True)


if __name__ == "__main__":
    main()
