"""The appliance's start-up under QEMU: power-on to multi-user (the guest agent answers) and to
the table's first frame, and kill -9 of the companion to its unit active again and to its first
frame (systemd's restart, Python's start, the resumed game drawn). A frame that does not come
within the scenario's wait (FRAME_S) is reported as null.

    python bench/boot.py [--runs 3]

Builds the image the boot test builds (docs/install-pi.md run in a Debian system; the base
system is cached in ~/.cache/companion-boot), then boots it ``--runs`` times. Needs root,
mmdebstrap and qemu-system-x86_64 (.ci/run installs them). Prints one JSON object per line.

These are TCG figures: every guest instruction is emulated on one host core, several times
slower than a Raspberry Pi 4 or 5 runs the same boot natively, and they move with the host's
load. They compare the appliance with itself from one change to the next, not with a Pi."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.boot.appliance import booted, build_image, missing_tools
from tests.boot.scenario import Scenario


def frame(probe: Scenario, guest: object, since: float, name: str) -> float | None:
    try:
        return probe.first_frame(guest, since, name)  # type: ignore[arg-type]
    except TimeoutError:
        return None


def _median(values: list[float | None]) -> float | None:
    """The median of the frames that came; null when none did."""
    came = [v for v in values if v is not None]
    return statistics.median(came) if came else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    lacking = missing_tools()
    if lacking:
        print(json.dumps({"error": "needs " + ", ".join(lacking)}))
        return 1
    out = Path(tempfile.mkdtemp(prefix="companion-boot-bench-"))
    t0 = time.monotonic()
    image = build_image(out / "machine")
    print(
        json.dumps(
            {
                "bench": "boot",
                "what": "image build (base system cached)",
                "seconds": round(time.monotonic() - t0, 1),
            }
        ),
        flush=True,
    )
    probe = Scenario(out)
    boots: list[float] = []
    restarts: list[float] = []
    firsts: list[float | None] = []
    frames: list[float | None] = []
    for run in range(args.runs):
        with booted(image, out / "machine", f"bench{run}") as guest:
            agent = guest.wait_agent()
            first = frame(probe, guest, guest.started, f"bench{run}")
            pid = guest.unit("MainPID")["MainPID"]
            guest.sh(f"kill -9 {pid}")
            t = time.monotonic()
            while True:
                u = guest.unit("MainPID", "ActiveState")
                if u["MainPID"] not in ("0", pid) and u["ActiveState"] == "active":
                    break
                time.sleep(0.2)
            active = round(time.monotonic() - t, 2)
            restart = frame(probe, guest, t, f"bench{run}-restart")
            boots.append(agent)
            restarts.append(active)
            firsts.append(first)
            frames.append(restart)
            print(
                json.dumps(
                    {
                        "bench": "boot",
                        "run": run,
                        "power_on_to_agent_s": round(agent, 1),
                        "power_on_to_first_frame_s": first,
                        "kill9_to_unit_active_s": active,
                        "kill9_to_first_frame_s": restart,
                    }
                ),
                flush=True,
            )
            guest.power_cut()
    print(
        json.dumps(
            {
                "bench": "boot",
                "runs": args.runs,
                "accel": "tcg, 1 vCPU",
                "median_power_on_to_agent_s": statistics.median(boots),
                "median_kill9_to_unit_active_s": statistics.median(restarts),
                "median_power_on_to_first_frame_s": _median(firsts),
                "median_kill9_to_first_frame_s": _median(frames),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
