"""The appliance's start-up under QEMU: power-on to multi-user (the guest agent answers) and to
the table's first frame, and kill -9 of the companion to its unit active again and to its first
frame (systemd's restart, Python's start, the resumed game drawn). A frame that does not come
within the scenario's wait (FRAME_S) is reported as null.

    python bench/boot.py [--runs 3]
    python bench/boot.py --arch arm64

Builds the image the boot test builds (docs/install-pi.md run in a Debian system; the base
system is cached in ~/.cache/companion-boot), then boots it ``--runs`` times. Needs root,
mmdebstrap and qemu-system-x86_64 (.ci/run installs them). Prints one JSON object per line.

``--arch arm64`` builds the same image for a Pi's architecture (Debian trixie's arm64 packages,
run through qemu-user while it is built: tests/boot/arches.py) and runs the boot test's whole
scenario on it once, under qemu-system-aarch64 (``-M virt -cpu max``): power-on to the first
frame, kill -9 to the first frame and, where the kernel has gpio-sim, kernel edge to frame,
then the boot test's own checks on what it saw. It needs qemu-system-arm and qemu-user-static
besides (it says so when they are missing), and about an hour and a half on a loaded machine:
not CI's.

These are TCG figures: every guest instruction is emulated on one host core, several times
slower than a Raspberry Pi 4 or 5 runs the same boot natively (arm64 under TCG slower still than
amd64: each aarch64 instruction is translated to x86), and they move with the host's load. They
compare the appliance with itself from one change to the next, not with a Pi."""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The architecture and the suite are chosen before tests.boot.appliance is imported (it reads
# them from the environment when imported, as the boot test does): main() imports it.
if TYPE_CHECKING:
    from tests.boot.scenario import Scenario


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="boots of the amd64 image")
    parser.add_argument(
        "--arch",
        choices=("amd64", "arm64"),
        default="amd64",
        help="amd64: the boot test's machine; arm64: a Pi's, the boot test's scenario once",
    )
    parser.add_argument(
        "--suite",
        choices=("bookworm", "trixie"),
        default=None,
        help="the Debian release (default: COMPANION_BOOT_SUITE, else trixie, as the boot test)",
    )
    args = parser.parse_args(argv)
    if args.suite is None:
        args.suite = os.environ.get("COMPANION_BOOT_SUITE") or "trixie"
    return args


def environment(args: argparse.Namespace) -> dict[str, str]:
    """What tests/boot/appliance.py reads of the architecture and the suite."""
    return {"COMPANION_BOOT_ARCH": args.arch, "COMPANION_BOOT_SUITE": args.suite}


def percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile (0..1) of ``values`` (bench/core.py's); null when none."""
    if not values:
        return None
    ranked = sorted(values)
    return ranked[max(1, math.ceil(q * len(ranked))) - 1]


def frame(probe: Scenario, guest: object, since: float, name: str) -> float | None:
    try:
        return probe.first_frame(guest, since, name)  # type: ignore[arg-type]
    except TimeoutError:
        return None


def _median(values: list[float | None]) -> float | None:
    """The median of the frames that came; null when none did."""
    came = [v for v in values if v is not None]
    return statistics.median(came) if came else None


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    os.environ.update(environment(args))
    # The scenario's screen checks load pygame here: its banner would break the JSON lines.
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    from tests.boot.appliance import missing_tools

    lacking = missing_tools()
    if lacking:
        print(json.dumps({"error": f"{args.arch} {args.suite} needs " + ", ".join(lacking)}))
        return 1
    out = Path(tempfile.mkdtemp(prefix="companion-boot-bench-"))
    try:
        return scenario(args, out) if args.arch == "arm64" else boots(args, out)
    finally:
        # The image, its tree and the screendumps: a bench leaves no folder in /tmp
        # (COMPANION_BOOT_KEEP=1, as for the boot test: all but the disk image, to look at).
        if os.environ.get("COMPANION_BOOT_KEEP") == "1":
            shutil.rmtree(out / "machine", ignore_errors=True)
            print(json.dumps({"bench": "boot", "kept": str(out)}), flush=True)
        else:
            shutil.rmtree(out, ignore_errors=True)


def scenario(args: argparse.Namespace, out: Path) -> int:
    """The boot test's scenario, once, then the boot test's checks on what it saw."""
    from tests.boot.appliance import ARCH, CPU
    from tests.boot.scenario import Scenario

    t0 = time.monotonic()
    run = Scenario(out)
    run.run()
    obs = run.obs
    obs["total_s"] = round(time.monotonic() - t0, 1)
    run.save()
    edges = [float(v) for v in obs.get("edge_to_frame_ms") or []]
    print(
        json.dumps(
            {
                "bench": "boot",
                "arch": ARCH.name,
                "suite": args.suite,
                "accel": f"tcg, 1 vCPU, {ARCH.qemu} -M {ARCH.board} -cpu {CPU}",
                "build_s": obs.get("build_s"),
                "power_on_to_agent_s": obs.get("boot_to_agent_s"),
                "power_on_to_first_frame_s": obs.get("boot_to_first_frame_s"),
                "kill9_to_first_frame_s": obs.get("restart_to_first_frame_s"),
                "gpio_sim": obs.get("gpio_sim"),
                "edge_to_frame_ms": edges,
                "edge_to_frame_ms_p50": percentile(edges, 0.5),
                "edge_to_frame_ms_p99": percentile(edges, 0.99),
                "phase_s": obs.get("phase_s"),
                "phases_failed": sorted(obs.get("errors", {})),
                "total_s": obs["total_s"],
            }
        ),
        flush=True,
    )
    for name, error in sorted(obs.get("errors", {}).items()):
        print(json.dumps({"bench": "boot", "phase_failed": name, "error": error[-1500:]}), flush=True)
    # The boot test's own checks, on these observations (pytest reads them instead of booting).
    root = Path(__file__).resolve().parents[1]
    checks = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "needs_vm",
            "-rfEs",
            str(root / "tests" / "boot" / "test_appliance.py"),
        ],
        cwd=root,
        env={**os.environ, "COMPANION_BOOT_OBSERVATIONS": str(out / "observations.json")},
        capture_output=True,
        text=True,
        check=False,
    )
    summary = [line for line in checks.stdout.splitlines() if line.startswith(("FAILED", "ERROR", "SKIPPED"))]
    print(
        json.dumps(
            {
                "bench": "boot",
                "arch": ARCH.name,
                "checks": "tests/boot/test_appliance.py -m needs_vm",
                "result": (checks.stdout.strip().splitlines() or ["(no output)"])[-1],
                "not_passed": summary,
            }
        ),
        flush=True,
    )
    return 0 if not obs.get("errors") and checks.returncode == 0 else 1


def boots(args: argparse.Namespace, out: Path) -> int:
    """Power-on and kill -9 to first frame, ``--runs`` boots of one image."""
    from tests.boot.appliance import booted, build_image
    from tests.boot.scenario import Scenario

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
