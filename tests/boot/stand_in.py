"""A stand-in for the boot scenario, for tests/boot/test_cleanup.py: started by the boot test's
conftest as the scenario is (COMPANION_BOOT_SCENARIO_MODULE), it lays a disk image in its folder
and starts QEMU as the scenario does, then stays mid-boot (the emulated CPU stopped: no host
time spent) until it is killed.

    python -m tests.boot.stand_in --out FOLDER"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    out = Path(argv[argv.index("--out") + 1])
    (out / "machine").mkdir(parents=True, exist_ok=True)
    with (out / "machine" / "disk.img").open("wb") as disk:
        disk.truncate(64 << 20)
    qemu = subprocess.Popen(
        [
            "qemu-system-x86_64",
            "-machine",
            "q35",
            "-accel",
            "tcg",
            "-m",
            "64",
            "-nodefaults",
            "-display",
            "none",
            "-S",
        ],
        stdin=subprocess.DEVNULL,
    )
    (out / "qemu.pid.part").write_text(str(qemu.pid), encoding="utf-8")
    (out / "qemu.pid.part").rename(out / "qemu.pid")
    return qemu.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
