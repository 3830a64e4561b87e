"""bench/boot.py --arch arm64's own parts, without its hour: the choice of machine and suite, what
it says is missing, the user namespace its chroots run in, and the QEMU command line the real
qemu-system-aarch64 accepts (booting a two-instruction kernel that waits for ever)."""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tests.boot.appliance as appliance
from tests.boot.arches import ARCHES, BINFMT_CONF, HELPER, kernel_version
from tests.conftest import skip_unless_ci

ROOT = Path(__file__).resolve().parents[2]
ARM64 = ARCHES["arm64"]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_boot", ROOT / "bench" / "boot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_boots_a_pis_architecture_on_the_boot_tests_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    b = bench()
    monkeypatch.delenv("COMPANION_BOOT_SUITE", raising=False)
    arm = b.parse(["--arch", "arm64"])
    assert b.environment(arm) == {"COMPANION_BOOT_ARCH": "arm64", "COMPANION_BOOT_SUITE": "trixie"}
    assert b.environment(b.parse([])) == {"COMPANION_BOOT_ARCH": "amd64", "COMPANION_BOOT_SUITE": "trixie"}
    assert b.parse(["--arch", "arm64", "--suite", "bookworm"]).suite == "bookworm"
    monkeypatch.setenv("COMPANION_BOOT_SUITE", "bookworm")  # as the boot test reads it
    assert b.parse(["--arch", "arm64"]).suite == "bookworm"
    with pytest.raises(SystemExit):
        b.parse(["--arch", "armhf"])
    assert b.percentile([], 0.5) is None
    assert b.percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert b.percentile([float(n) for n in range(1, 101)], 0.99) == 99.0


def test_an_arm64_build_names_what_it_lacks_and_the_package_that_brings_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no QEMU at all
    monkeypatch.setattr("tests.boot.arches.BINFMT_CONF", tmp_path / "qemu-aarch64.conf")
    monkeypatch.setattr(platform, "release", lambda: "6.1.0-28-amd64")
    lacking = " | ".join(ARM64.missing())
    assert "qemu-system-aarch64 (apt-get install qemu-system-arm)" in lacking
    assert "apt-get install qemu-user-static" in lacking
    assert "Linux 6.7 or later" in lacking and "6.1.0-28-amd64" in lacking
    monkeypatch.setattr(platform, "release", lambda: "6.18.44-fc")
    assert kernel_version() == (6, 18)
    assert "Linux" not in " | ".join(ARM64.missing())


def test_arm64_packages_cache_and_chroots_are_its_own() -> None:
    assert ARM64.kernel("linux-image-amd64/trixie-backports") == "linux-image-arm64/trixie-backports"
    assert ARCHES["amd64"].kernel("linux-image-amd64") == "linux-image-amd64"
    assert ARM64.cache(Path("/c")) == Path("/c/arm64") and ARCHES["amd64"].cache(Path("/c")) == Path("/c")
    assert ARCHES["amd64"].confined(["mmdebstrap", "x"]) == ["mmdebstrap", "x"]
    assert ARM64.confined(["mmdebstrap", "x"]) == [sys.executable, str(HELPER), "--binfmt", "mmdebstrap", "x"]


def _can_namespace() -> str | None:
    if os.geteuid() != 0:
        return "root (it writes the namespace's id maps)"
    if kernel_version() < (6, 7) or not BINFMT_CONF.exists():
        return "Linux 6.7 and qemu-user-static"
    return None


def test_the_chroots_namespace_registers_qemu_user_in_its_own_binfmt_misc_only() -> None:
    if reason := _can_namespace():
        skip_unless_ci(f"needs {reason}")
    inside = subprocess.run(
        [*ARM64.confined(["sh", "-c", "id -u; cat /proc/sys/fs/binfmt_misc/qemu-aarch64"])],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert inside.splitlines()[0] == "0" and "enabled" in inside, inside
    assert "interpreter /usr/libexec/qemu-binfmt/aarch64-binfmt-P" in inside, inside
    assert "flags: POF" in inside, inside  # the handler opened at registration: usable in a chroot
    # The host's binfmt_misc neither mounted by it nor given the handler.
    assert not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists()
    failed = subprocess.run(ARM64.confined(["sh", "-c", "exit 7"]), check=False, timeout=60)
    assert failed.returncode == 7


def test_qemu_system_aarch64_takes_the_arm64_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The machine the bench boots: virt, -cpu max, the disk and the screen on virtio-pci."""
    if shutil.which(ARM64.qemu) is None:
        skip_unless_ci(f"needs {ARM64.qemu} (apt-get install qemu-system-arm)")
    # A raw arm64 kernel of two instructions: wfi; b .-4 (the vCPU waits: no host time spent).
    kernel = tmp_path / "Image"
    kernel.write_bytes(struct.pack("<II", 0xD503207F, 0x17FFFFFF))
    (tmp_path / "initrd").write_bytes(b"\0" * 512)
    with (tmp_path / "disk.img").open("wb") as disk:
        disk.truncate(1 << 20)
    monkeypatch.setattr(appliance, "ARCH", ARM64)
    monkeypatch.setattr(appliance, "CPU", ARM64.cpu)
    image = appliance.Image(kernel, tmp_path / "initrd", tmp_path / "disk.img", ())
    guest = appliance.Guest(image, tmp_path, "arm")
    try:
        assert guest.command("query-target")["arch"] == "aarch64"
        assert guest.command("qom-get", path="/machine", property="type").startswith("virt-")
        cpus = guest.command("query-cpus-fast")
        assert len(cpus) == 1 and cpus[0]["target"] == "aarch64", cpus
        devices = {
            (d["id"]["vendor"], d["id"]["device"])
            for bus in guest.command("query-pci")
            for d in bus["devices"]
        }
        # virtio (0x1af4): the disk (transitional block 0x1001), the screen (gpu 0x1050).
        assert {(0x1AF4, 0x1001), (0x1AF4, 0x1050)} <= devices, sorted(devices)
    finally:
        guest.power_cut()
