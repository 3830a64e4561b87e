"""The firmware's debouncer decides exactly as companion.inputs.debounce on the same edges."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from mpy_helpers import run_mp

from companion.inputs.debounce import Debouncer, DebounceSettings, Stuck, Transition, Unstuck

US = 1000


def cases(n: int) -> list[dict[str, Any]]:
    rnd = random.Random(20240605)
    out = []
    for _ in range(n):
        lockout = rnd.choice([30_000, 30_000, 10_000, 5_000])
        glitch = rnd.choice([2_000, 2_000, 0, 500, lockout])
        stuck = rnd.choice([None, 10_000_000, 200_000])
        t0 = rnd.choice([0, 2**30 - 50_000, 5_000_000_000_000])
        active = rnd.random() < 0.1
        t = t0
        level = active
        edges = []
        for _ in range(rnd.randint(0, 40)):
            t += rnd.choice([rnd.randint(0, 200), rnd.randint(0, 3_000), rnd.randint(0, 80_000)])
            level = not level if rnd.random() < 0.9 else level
            edges.append([t, level])
        # A few edges delivered late: the rules treat them as simultaneous with the last one.
        if edges and rnd.random() < 0.1:
            edges.append([edges[-1][0] - 7, not edges[-1][1]])
        out.append(
            {
                "lockout": lockout,
                "glitch": glitch,
                "stuck": stuck,
                "t0": t0,
                "active": active,
                "edges": edges,
                "until": t + rnd.choice([0, 1_000, 100_000, 20_000_000]),
            }
        )
    return out


def host(case: dict[str, Any]) -> dict[str, Any]:
    s = DebounceSettings(
        lockout_ns=case["lockout"] * US,
        glitch_ns=case["glitch"] * US,
        stuck_ns=None if case["stuck"] is None else case["stuck"] * US,
    )
    d = Debouncer(s, active=case["active"], t_ns=case["t0"] * US)
    out = []
    for t, active in case["edges"]:
        out += d.edge(t * US, active)
    out += d.poll(case["until"] * US)
    decisions = []
    for x in out:
        if isinstance(x, Transition):
            decisions.append([1 if x.edge == "press" else 0, x.t_ns // US])
        elif isinstance(x, Stuck):
            decisions.append([2, x.since_ns // US])
        elif isinstance(x, Unstuck):
            decisions.append([3, x.t_ns // US])
    return {
        "decisions": decisions,
        "bounces": d.bounces,
        "glitches": d.glitches,
        "presses": d.presses,
    }


def test_firmware_and_host_debounce_agree(tmp_path: Path) -> None:
    cs = cases(600)
    f = tmp_path / "cases.json"
    f.write_text(json.dumps(cs))
    proc = run_mp("mp_debounce.py", str(f))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert len(got) == len(cs)
    decided = 0
    for i, (case, fw) in enumerate(zip(cs, got, strict=True)):
        want = host(case)
        assert fw == want, f"case {i}: {case}"
        decided += len(want["decisions"])
    assert decided > 300  # the cases do exercise presses, not just silence
