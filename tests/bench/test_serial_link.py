"""bench/serial_link.py's capture figures run and speak their format (one JSON object a line).

The figures asserted are counts (ties, inversions, presses missing, edges lost), not timings.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_quick_capture_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "serial_link.py"), "--quick", "--pio"],
        capture_output=True,
        text=True,
        timeout=280,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    by = {(x["bench"], x.get("path")): x for x in lines}
    assert set(by) == {
        ("pio.loop", None),
        ("pio.order.emulator", None),
        ("pio.order.model", None),
        ("stall", "pio"),
        ("stall", "irq"),
        ("ring", None),
        ("absence", None),
    }
    assert all(x["ok"] for x in lines), lines
    assert by["pio.loop", None]["resolution_us"] == 1.0
    assert by["ring", None]["lost_reported"] > 0  # the bench does go past the ring, and says so
