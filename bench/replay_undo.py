"""Replay of a long Kilo de merde log with many undos, against the same game without them.

    python bench/replay_undo.py [--events 10000] [--undos 150] [--runs 5]

Two logs of the same game (``bench/core.py``'s generator): one where the table judged ``undos``
slaps wrongly, undid each and judged again (so it holds ``undos`` undo events, spread through the
game), one where it judged right the first time; plus a third ending with ``undos`` undos in a
row (the deepest case: each undo restores an older checkpoint). One JSON object a line, the
median of ``runs`` in-process replays (``companion.table.fold.replay`` on the file's lines, as
``companion replay`` does), target 0.5 s. Undo restores a checkpoint and re-applies only the
presses since, so the undos cost next to nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from core import generate_game

from companion.table.fold import replay
from companion.table.log import Undo


def timed(lines: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds (a busy shared machine stretches the first, not the second)."""
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        replay(lines, read_only=True)  # as `companion replay` reads a log
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times), statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--undos", type=int, default=150)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    # Enough undone decisions: the generator undoes a verdict with this probability (and a
    # mistyped draw now and then); keep exactly ``undos`` of them, each with its wrong decision.
    rate = 2 * args.undos / (args.events / 8)
    events = generate_game(args.events + 4 * args.undos, p_undo_verdict=rate)
    undo_at = [i for i, e in enumerate(events) if isinstance(e, Undo)]
    if len(undo_at) < args.undos:
        raise SystemExit(f"only {len(undo_at)} undos generated: ask for fewer")
    # Each undo follows its wrong decision at once, so the pair together changes nothing:
    # dropping pairs gives the same game with fewer undos.
    extra = {j for i in undo_at[args.undos :] for j in (i - 1, i)}
    with_undos = [e for i, e in enumerate(events) if i not in extra][: args.events]
    pairs = {j for i, e in enumerate(with_undos) if isinstance(e, Undo) for j in (i - 1, i)}
    without = [e for i, e in enumerate(with_undos) if i not in pairs]
    deep = [*without[: args.events - args.undos], *[Undo()] * args.undos]

    for name, log in (("with_undos", with_undos), ("without_undos", without), ("undos_in_a_row", deep)):
        lines = [e.to_json() + "\n" for e in log]
        seconds, cpu_s = timed(lines, args.runs)
        print(
            json.dumps(
                {
                    "name": f"replay.{name}",
                    "unit": "s",
                    "median": round(seconds, 3),
                    "cpu_median": round(cpu_s, 3),
                    "events": len(log),
                    "undos": sum(isinstance(e, Undo) for e in log),
                    "bytes": sum(len(line.encode()) for line in lines),
                    "runs": args.runs,
                    "target": 0.5,
                    "ok": seconds <= 0.5,
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
