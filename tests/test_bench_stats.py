"""bench/stats.py runs and speaks the bench format (a behaviour check; figures never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_run_prints_one_json_object_per_figure(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "stats.py"),
            "--quick",
            "--games",
            "6",
            "--runs",
            "1",
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [x["name"] for x in lines] == [
        "games.command.first",
        "stats.command.cold",
        "stats.command.after_write",
        "stats.command",
        "history.command.cold",
        "history.command.after_write",
        "history.command",
        "games.command.cold",
        "games.command.after_write",
        "games.command",
        "export_csv.command.cold",
        "export_csv.command.after_write",
        "export_csv.command",
        "doctor.journal.command",
        "doctor.command",
    ]
    for line in lines:
        assert {"name", "unit", "median", "p99", "runs", "n", "target", "ok", "cpu_median"} <= set(line)
        assert line["median"] > 0 and isinstance(line["ok"], bool)
    assert lines[0]["n"] == 6 and lines[0]["events"] > 6
    assert list(tmp_path.iterdir()) == []  # cleaned up
