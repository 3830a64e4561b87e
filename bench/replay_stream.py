"""`companion replay` of very long logs: peak memory and time, and a file that is not a log.

    python bench/replay_stream.py [--events 1000000] [--skip-long]

Writes two logs of ``events`` events to a scratch folder, straight as text (no engine involved):
a Kilo de merde game of presses each judged a false slap that nobody pays for (half the events
are verdicts, each a decision undo could reach back to), and a 13 feuilles game of passes (every
event a decision). Each is replayed by the real command in a child process; the child's peak RSS
(``ru_maxrss``), wall time and CPU time are reported, targets 150 MB and 15 s (issue 22). Then
``companion replay /dev/zero`` under a 150 MB address-space limit: it must end in one sentence
(the line-length cap, ``MAX_LINE_BYTES``), never a MemoryError traceback. One JSON object a line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_kilo(path: Path, events: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write('{"type": "new_game", "game": "kilo", "players": ["Ana", "Bea", "Cy"], "rounds": 99}\n')
        for i in range((events - 1) // 2):
            out.write(
                f'{{"type": "press", "player": "Ana", "t_us": {i * 10_000_000}}}\n'
                '{"type": "verdict", "valid": false, "penalized": []}\n'
            )


def write_treize(path: Path, events: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(
            '{"type": "new_game", "game": "treize", "players": ["Ana", "Bea", "Cy", "Dom"], '
            '"starter": "Ana"}\n'
        )
        # Bea, Cy and Dom pass, Ana clears the table and leads again: a game of passes only.
        for i in range(events - 1):
            out.write(f'{{"type": "pass", "player": "{("Bea", "Cy", "Dom")[i % 3]}"}}\n')


def run_child(args: list[str], limit_bytes: int | None = None) -> tuple[int, str, float, float, float]:
    """Run ``companion ARGS``: exit code, stderr, seconds, peak RSS in MB, CPU seconds (what a
    busy shared machine does not stretch, unlike the wall time)."""

    def limit() -> None:
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    return proc.returncode, err, seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--skip-long", action="store_true", help="only the /dev/zero check")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="companion-replay-stream-"))
    try:
        if not args.skip_long:
            for name, write in (("kilo_verdicts", write_kilo), ("treize_passes", write_treize)):
                log = work / f"{name}.jsonl"
                write(log, args.events)
                rc, err, seconds, rss, cpu = run_child(["replay", str(log), "--lang", "en"])
                print(
                    json.dumps(
                        {
                            "name": f"replay_stream.{name}",
                            "events": args.events,
                            "bytes": log.stat().st_size,
                            "exit": rc,
                            "seconds": round(seconds, 2),
                            "cpu_s": round(cpu, 2),
                            "peak_rss_mb": round(rss, 1),
                            "target": "peak_rss_mb <= 150 and seconds <= 15",
                            "ok": rc == 0 and rss <= 150 and seconds <= 15,
                            **({"stderr": err[-500:]} if rc else {}),
                        }
                    ),
                    flush=True,
                )
                log.unlink()
        rc, err, seconds, rss, _ = run_child(
            ["replay", "/dev/zero", "--lang", "en"], limit_bytes=150 * 1024 * 1024
        )
        lines = err.strip().splitlines()
        clean = rc == 2 and len(lines) == 1 and "Traceback" not in err
        print(
            json.dumps(
                {
                    "name": "replay_stream.dev_zero",
                    "exit": rc,
                    "seconds": round(seconds, 2),
                    "peak_rss_mb": round(rss, 1),
                    "stderr": err.strip()[-300:],
                    "target": "one sentence, exit 2",
                    "ok": clean,
                },
                ensure_ascii=False,
            ),
            flush=True,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
