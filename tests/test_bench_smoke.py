"""The benchmark script runs and speaks its format: one JSON object a line, every figure named.

A behaviour check only: the figures themselves depend on the machine and are never asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = {
    "adjudication.engine_press", "adjudication.slap_window", "journal.append", "table.submit",
    "replay.table_log", "replay.journal", "demo.wall",
}
KEYS = {"name", "unit", "median", "p99", "runs", "n", "target", "ok"}


def test_quick_run_prints_one_json_object_per_figure(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "core.py"), "--quick",
                           "--dir", str(tmp_path)], capture_output=True, text=True, timeout=240,
                          cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    names = [line["name"] for line in lines]
    assert sorted(names) == sorted(EXPECTED)  # each figure once
    for line in lines:
        assert set(line) >= KEYS, line
        assert line["unit"] in ("us", "ms", "s")
        assert isinstance(line["median"], float | int) and line["median"] > 0
        assert line["p99"] >= line["median"]
        assert line["runs"] >= 1 and line["n"] >= 1
        assert isinstance(line["ok"], bool)
    by_name = {line["name"]: line for line in lines}
    assert by_name["replay.table_log"]["undos"] >= 1  # the generated game exercises undo
    assert list(tmp_path.iterdir()) == []  # the journals it wrote are cleaned up
