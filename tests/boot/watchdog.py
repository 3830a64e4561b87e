"""The boot scenario's keeper: when the pytest run that started it ends, however it ends (a
normal finish, a Ctrl-C, a kill -9 that runs no clean-up of its own), the scenario's process
group (the scenario, QEMU, mmdebstrap, the tree's removal) is killed and its folder, with its
gigabyte of disk image, removed (issue 38: a pytest killed by a newcomer left QEMU running and
1.3 GB in /tmp).

    python -m tests.boot.watchdog PARENT_PID GROUP_ID FOLDER

It runs in a session of its own, so the signal that ends pytest's group does not end it first.
It waits on a pidfd of the parent, not by polling."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path


def wait_for_exit(pid: int) -> None:
    """Returns once ``pid`` has exited (at once if it already has)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([fd], [], [])
    finally:
        os.close(fd)


def group_alive(pgid: int) -> bool:
    """Some process of group ``pgid`` still runs (a zombie, killed and not yet waited for by
    its parent, does not: kill(-pgid, 0) would count it)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def clean(pgid: int, folder: Path, timeout_s: float = 60) -> None:
    """Kill the group (and wait until nothing of it is left, so that nothing writes into the
    folder as it goes), then remove the folder."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    deadline = time.monotonic() + timeout_s
    # The group's processes are not our children: nothing to wait on but their disappearance
    # (a SIGKILLed QEMU is gone within milliseconds; the bound is for a process stuck in D state).
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    # A mount a killed build left inside (a chroot's /proc, /dev) goes first: removing the
    # folder must never reach into the file systems mounted there.
    inside = str(folder.resolve()) + "/"
    for target in sorted(mounts_under(inside), key=len, reverse=True):
        subprocess.run(["umount", "-l", target], check=False, capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def mounts_under(prefix: str) -> list[str]:
    """The mount points below ``prefix`` (a folder path ending in /), from this namespace's table."""
    found = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        target = line.split()[1].replace("\\040", " ")
        if target.startswith(prefix):
            found.append(target)
    return found


def main(argv: list[str]) -> int:
    parent, pgid, folder = int(argv[0]), int(argv[1]), Path(argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C meant for pytest: pytest's to handle
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closed: pytest goes, then we clean
    wait_for_exit(parent)
    clean(pgid, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
