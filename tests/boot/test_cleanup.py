"""The boot scenario dies with the pytest run that started it, and takes its folder with it
(issue 38): a pytest run killed mid-boot leaves no QEMU and no folder behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.boot.appliance import ROOT, missing_tools
from tests.boot.watchdog import clean, group_alive, wait_for_exit
from tests.conftest import skip_unless_ci


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie has exited: only its parent's wait is missing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def until(pred, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_a_pytest_run_killed_mid_boot_leaves_no_qemu_and_no_folder(tmp_path: Path) -> None:
    killed_mid_boot(tmp_path, [])


def test_a_pytest_xdist_run_killed_mid_boot_leaves_no_qemu_and_no_folder(tmp_path: Path) -> None:
    # The README's command runs the suite under pytest-xdist: there the scenario is the controller's.
    killed_mid_boot(tmp_path, ["-n", "2"])


def killed_mid_boot(tmp_path: Path, workers: list[str]) -> None:
    if missing_tools():
        skip_unless_ci("the boot test needs " + ", ".join(missing_tools()))
    # The boot test's conftest, in a pytest run of its own, starts QEMU as the scenario does (a
    # stand-in that stays mid-boot for ever instead of the minutes of a real boot).
    env = {
        **os.environ,
        "TMPDIR": str(tmp_path),
        "COMPANION_BOOT_SCENARIO_MODULE": "tests.boot.stand_in",
    }
    env.pop("COMPANION_BOOT_OBSERVATIONS", None)
    env.pop("COMPANION_BOOT_KEEP", None)
    check = "tests/boot/test_appliance.py::test_the_image_is_built_by_the_install_guide"
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, check],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    qemu = 0
    try:
        until(lambda: list(tmp_path.glob("companion-boot-*/qemu.pid")), 120, "QEMU to start")
        (pidfile,) = tmp_path.glob("companion-boot-*/qemu.pid")
        folder = pidfile.parent
        qemu = int(pidfile.read_text())
        assert alive(qemu) and "qemu-system" in Path(f"/proc/{qemu}/cmdline").read_text()
        # The scenario (QEMU's parent) is the run's own child: under xdist, the controller's, not a
        # worker's (a worker ends with its share of the tests, and each would start one).
        assert parent(parent(qemu)) == run.pid
        assert (folder / "machine" / "disk.img").exists()
        run.send_signal(signal.SIGKILL)  # no clean-up of its own runs
        run.wait()
        until(lambda: not alive(qemu) and not folder.exists(), 60, "QEMU and the folder to go")
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        if qemu and alive(qemu):  # (the code under test failed: leave nothing running)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(os.getpgid(qemu), signal.SIGKILL)
    assert not list(tmp_path.glob("companion-boot-*"))


def test_the_watchdog_waits_for_its_parent_then_kills_the_group_and_removes_the_folder(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "boot"
    (folder / "machine").mkdir(parents=True)
    parent = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    group = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        keeper = subprocess.Popen(
            [sys.executable, "-m", "tests.boot.watchdog", str(parent.pid), str(group.pid), str(folder)],
            cwd=ROOT,
        )
        with pytest.raises(subprocess.TimeoutExpired):
            keeper.wait(timeout=1)  # the parent lives: nothing is touched
        assert folder.exists() and group.poll() is None
        assert parent.stdin is not None
        parent.stdin.close()  # the parent ends
        assert keeper.wait(timeout=60) == 0
        assert group.wait(timeout=10) == -signal.SIGKILL and not folder.exists()
    finally:
        for p in (parent, group):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_clean_of_a_group_already_gone_removes_the_folder(tmp_path: Path) -> None:
    gone = subprocess.Popen(["true"], start_new_session=True)
    gone.wait()
    (tmp_path / "f").mkdir()
    clean(gone.pid, tmp_path / "f")
    assert not group_alive(gone.pid) and not (tmp_path / "f").exists()
    wait_for_exit(gone.pid)  # an exited process: returns at once


def test_clean_never_reaches_into_a_mount_a_killed_build_left_inside(tmp_path: Path) -> None:
    """A chroot's /dev or /proc left mounted in the folder by a killed build: unmounted, never
    emptied (a host's /dev/shm bound there would lose its files)."""
    if os.geteuid() != 0:
        skip_unless_ci("mounting a tmpfs needs root")
    folder = tmp_path / "boot"
    shared = tmp_path / "shared"  # stands for a host folder bound into the chroot
    (folder / "machine" / "root" / "dev").mkdir(parents=True)
    shared.mkdir()
    (shared / "segment").write_text("in use")
    target = folder / "machine" / "root" / "dev"
    subprocess.run(["mount", "--bind", str(shared), str(target)], check=True)
    try:
        gone = subprocess.Popen(["true"], start_new_session=True)
        gone.wait()
        clean(gone.pid, folder)
        assert not folder.exists()
        assert (shared / "segment").read_text() == "in use"
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False, capture_output=True)
