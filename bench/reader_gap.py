"""The longest gap between two commits of a running game while a reader holds a read
transaction (a `sqlite3` shell, a backup, a slow export); one JSON object a line on stdout.

    python bench/reader_gap.py              # a reader holds for 60 s, 13 feuilles demos meanwhile
    python bench/reader_gap.py --quick      # 8 s

The reader opens the journal read-only, reads a row and keeps its transaction open; meanwhile
`companion demo treize --speed 0` runs again and again (300 commits each, a checkpoint every 32),
its commits traced (COMPANION_TRACE_COMMITS=1) and stamped as they arrive. A checkpoint that
waited for the reader would show as a gap of the busy timeout (5 s). Each demo is one run: its
longest gap; the figure is the median over runs (the slowest run is ``p99``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import itertools

from core import companion_command, filesystem_of, report

from companion.table.journal import FILENAME


def one_demo(env: dict[str, str], seed: int) -> tuple[float, int]:
    """Longest gap (ms) between two commits of one demo, and its number of commits."""
    proc = subprocess.Popen(
        [*companion_command(), "demo", "treize", "--speed", "0", "--seed", str(seed)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    stamps = [time.perf_counter() for line in proc.stderr if line.startswith("#committed")]
    if proc.wait(timeout=600) != 0:
        raise RuntimeError("companion demo failed")
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    return max(gaps, default=0.0) * 1000, len(stamps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="hold for 8 s: a smoke run")
    parser.add_argument("--hold", type=float, default=None, help="seconds the reader holds (60)")
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the journal lives (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    hold = args.hold or (8.0 if args.quick else 60.0)
    base = Path(tempfile.mkdtemp(prefix="companion-reader-gap-", dir=args.dir))
    try:
        data = base / "data"
        env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
        env.update(COMPANION_DATA_DIR=str(data), COMPANION_TRACE_COMMITS="1")
        one_demo(env, 0)  # the journal exists, with a game the reader can hold on to
        reader = sqlite3.connect(f"file:{data / FILENAME}?mode=ro", uri=True, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()
        runs: list[list[float]] = []
        commits = 0
        start = time.monotonic()
        try:
            while time.monotonic() - start < hold or not runs:
                gap, n = one_demo(env, len(runs) + 1)
                runs.append([gap])
                commits += n
        finally:
            held = time.monotonic() - start
            # What the reader's snapshot kept in the -wal: every commit since it began (no
            # checkpoint may copy past a snapshot a reader still holds, nor start the -wal over).
            wal_held = (data / (FILENAME + "-wal")).stat().st_size
            reader.close()
        # The next writer's first checkpoint, the reader gone, copies it all; what is left of
        # the file's size after one more demo (SQLite reuses it from the start).
        one_demo(env, 0)
        wal_after = (
            (data / (FILENAME + "-wal")).stat().st_size if (data / (FILENAME + "-wal")).exists() else 0
        )
        # The same demos with no reader: what the machine itself (its load, the engine's work
        # between two commits) puts between commits.
        alone: list[list[float]] = []
        alone_commits = 0
        for i in range(len(runs)):
            gap, n = one_demo(env, i + 1)
            alone.append([gap])
            alone_commits += n
        report(
            "reader.commit_gap.none",
            "ms",
            alone,
            "median",
            50,
            n=alone_commits,
            fs=filesystem_of(base),
            command="the same demos, no reader",
        )
        report(
            "reader.commit_gap.max",
            "ms",
            runs,
            "median",
            50,
            n=commits,
            held_s=round(held, 1),
            wal_bytes_held=wal_held,
            wal_bytes_after=wal_after,
            fs=filesystem_of(base),
            command="companion demo treize --speed 0, again and again, while a reader "
            "holds a read transaction",
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
