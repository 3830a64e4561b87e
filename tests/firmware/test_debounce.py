"""The firmware's debouncer decides exactly as companion.inputs.debounce on the same edges."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.inputs.debounce import Debouncer, DebounceSettings, Stuck, Transition, Unstuck
from tests.mpy_helpers import run_mp

US = 1000


def cases(n: int) -> list[dict[str, Any]]:
    rnd = random.Random(20240605)
    out: list[dict[str, Any]] = []
    for _ in range(n):
        lockout = rnd.choice([30_000, 30_000, 10_000, 5_000])
        glitch = rnd.choice([2_000, 2_000, 0, 500, lockout])
        stuck = rnd.choice([None, 10_000_000, 200_000])
        t0 = rnd.choice([0, 2**30 - 50_000, 5_000_000_000_000])
        active = rnd.random() < 0.1
        t = t0
        level = active
        edges: list[list[Any]] = []
        for _ in range(rnd.randint(0, 40)):
            t += rnd.choice([rnd.randint(0, 200), rnd.randint(0, 3_000), rnd.randint(0, 80_000)])
            level = not level if rnd.random() < 0.9 else level
            edges.append([t, level])
        # A few edges delivered late: the rules treat them as simultaneous with the last one.
        if edges and rnd.random() < 0.1:
            edges.append([edges[-1][0] - 7, not edges[-1][1]])
        # A busy host: a poll runs ahead of edges that then arrive with older stamps.
        if len(edges) > 2 and rnd.random() < 0.3:
            i = rnd.randrange(1, len(edges))
            edges.insert(i, [edges[i][0] + rnd.choice([500, 3_000, 40_000]), None])
        # A loss (a ring or a kernel buffer that went round): the edges between two are gone,
        # and both debouncers are told so (blind). Its own generator: the other cases stay.
        blinds = random.Random(len(out))
        if len(edges) > 1 and blinds.random() < 0.3:
            i = blinds.randrange(1, len(edges))
            if edges[i][1] is not None and edges[i - 1][1] is not None:
                edges.insert(i, [edges[i - 1][0], "blind", edges[i][0]])
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
    for t, active, *tb in case["edges"]:
        if tb:
            d.blind(t * US, tb[0] * US)
        else:
            out += d.poll(t * US) if active is None else d.edge(t * US, active)
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
        "late": d.late,
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


def _case(edges: list[list[object]], until: int) -> dict[str, Any]:
    return {
        "lockout": 30_000,
        "glitch": 2_000,
        "stuck": None,
        "t0": 0,
        "active": False,
        "edges": edges,
        "until": until,
    }


def test_firmware_hostile_edges_issue_10(tmp_path: Path) -> None:
    # Finding 1: a 0.5 ms crosstalk pulse 10 ms before the press; finding 3: the press's first
    # edge reported at the stale (released) level. Run under the MicroPython unix port.
    T = 1_000_000
    cs = [
        _case([[T, True], [T + 500, False], [T + 10_000, True]], T + 100_000),
        _case([[T, False], [T + 40, True], [T + 90, False], [T + 120, True]], T + 100_000),
        _case([[T, False]], T + 100_000),
    ]
    f = tmp_path / "cases.json"
    f.write_text(json.dumps(cs))
    proc = run_mp("mp_debounce.py", str(f))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got[0]["decisions"] == [[1, T + 10_000]] and got[0]["glitches"] == 1
    assert got[1]["decisions"] == [[1, T]]
    assert got[2]["decisions"] == [] and got[2]["glitches"] == 1
    assert got == [host(c) for c in cs]
