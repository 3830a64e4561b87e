# Runs the firmware's debouncer over cases from a JSON file; prints the decisions as JSON.
# usage: micropython mp_debounce.py FIRMWARE_DIR CASES_JSON
import sys

sys.path.insert(0, sys.argv[1])

import json

from debounce import Debouncer

with open(sys.argv[2]) as f:
    CASES = json.load(f)

out = []
for case in CASES:
    got = []
    d = Debouncer(
        0,
        lambda _k, kind, t, got=got: got.append([kind, t]),
        case["lockout"],
        case["glitch"],
        case["stuck"],
        case["active"],
        case["t0"],
    )
    for e in case["edges"]:
        t, active = e[0], e[1]
        if len(e) == 3:  # a loss: the edges after t and up to e[2] are gone
            d.blind(t, e[2])
        elif active is None:  # the host polled here: later edges may be late
            d.poll(t)
        else:
            d.edge(t, active)
    d.poll(case["until"])
    out.append(
        {"decisions": got, "bounces": d.bounces, "glitches": d.glitches, "presses": d.presses, "late": d.late}
    )
print(json.dumps(out))
