# The firmware's board on either capture path, replaying scenarios the property tests generate
# (tests/firmware/test_firmware_capture_properties.py). One JSON scenario per line on stdin, one JSON result
# per
# line on stdout, so one interpreter serves a whole hypothesis run.
# usage: micropython mp_scenario.py FIRMWARE_DIR
# scenario: {"path": "irq"|"pio", "seats": [gpio...], "edges": [[t_us, gpio, level]...] sorted,
#            "steps": [t_us...] sorted (when the main loop runs), "end": t_us,
#            "handler_us": n, "entry_us": n, "reads": {"intr": us, "level": us, "clock": us}}
# result: {"events": [[role, index, kind, t_us]...], "lost": n, "resolution_us": n}
import sys

sys.path.insert(0, sys.argv[1])

import json

import buttonboard
import machine
import piocapture
import rp2
import wire
from fakeclock import BufferIO, FakeClock


def run(sc):
    machine.reset()
    rp2.reset()
    clock = FakeClock(1000)
    rp2.use_clock(clock)
    io = BufferIO()

    def ticks_us():
        machine.charge("clock")  # a read in a handler costs its time (the model's)
        return clock.ticks_us()

    b = buttonboard.Board(
        machine.Pin,
        machine.mem32,
        ticks_us,
        io,
        machine.unique_id(),
        1,
        sc["seats"],
        (),
        (),
        machine="fake",
        pio=piocapture.PioCapture if sc["path"] == "pio" else None,
    )
    steps = sc["steps"] + [sc["end"]]
    machine.play(sc["edges"], clock, sc["handler_us"], sc["entry_us"], steps, b.step, sc.get("reads"))
    out = []
    for chunk in bytes(io.tx).split(b"\x00"):
        if not chunk:
            continue
        p = wire.cobs_decode(chunk)
        body = p[:-2]
        if body[0] == wire.EVENT:
            role, index, kind = body[5], body[6], body[7]
            t = 0
            for k in range(8):
                t |= body[8 + k] << (8 * k)
            out.append([role, index, kind, t])
    return {"events": out, "lost": b.lost(), "resolution_us": b.capture.resolution_us}


while True:
    line = sys.stdin.readline()
    if not line:
        break
    try:
        res = run(json.loads(line))
    except Exception as e:  # the test sees what went wrong, and the server goes on
        res = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(res) + "\n")
    sys.stdout.flush()
