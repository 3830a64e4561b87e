"""The machines the appliance is built for and booted on: amd64 (the boot test, CI's) and arm64
(a Pi's architecture, ``bench/boot.py --arch arm64``), both under QEMU's TCG, never KVM.

An arm64 image is built on this amd64 machine from Debian's arm64 packages: mmdebstrap and the
install guide's blocks run its programs through qemu-user (``qemu-aarch64``). The kernel runs
them for a chroot through binfmt_misc; the handler is registered in a binfmt_misc of a private
user namespace (one instance per user namespace since Linux 6.7), so the host's own binfmt_misc
is neither mounted nor changed, and nothing stays registered once the build ends.

Run as a script, it is that namespace: ``python arches.py --binfmt CMD...`` runs CMD as root of
a new user and mount namespace (ids 0..65535 mapped one to one: the image's owners are the
host's) with qemu-aarch64 registered in it."""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

HELPER = Path(__file__).resolve()
# qemu-user-static's handler for aarch64 ELF files (flags OPF: the interpreter is opened when
# registered, so it runs inside the chroot without being copied there).
BINFMT_CONF = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")
IDS = 65536  # the ids mapped into the namespace: Debian's system and user ids, nobody (65534)


@dataclass(frozen=True)
class Arch:
    """A Debian architecture and the QEMU machine that boots it (direct kernel boot: QEMU loads
    Debian's kernel and initrd itself, so neither needs firmware: no BIOS boot menu on q35, no
    UEFI (qemu-efi-aarch64) on ``virt``)."""

    name: str  # Debian's (dpkg --print-architecture)
    machine: str  # the kernel's (uname -m): the suffix of pip's platform tags
    qemu: str  # the system emulator
    board: str  # its -machine
    cpu: str  # its -cpu (COMPANION_BOOT_CPU overrides)
    console: str  # the serial console the kernel and a getty use
    # How many times longer the same guest work takes under TCG than amd64's on amd64 (every
    # aarch64 instruction translated to x86, Mesa's llvmpipe among them): the waits for a frame
    # scale by it.
    slower: int = 1

    @property
    def foreign(self) -> bool:
        """Whether this machine's programs need qemu-user to run here."""
        return self.machine != platform.machine()

    def kernel(self, package: str) -> str:
        """The suite's kernel package (named for amd64) for this architecture."""
        return package.replace("-amd64", f"-{self.name}")

    def cache(self, base: Path) -> Path:
        """Its own cache folder: base system, the guide's packages and the wheels differ."""
        return base if not self.foreign else base / self.name

    def confined(self, argv: list[str]) -> list[str]:
        """``argv`` as it runs for this architecture's chroots: a foreign one inside a user
        namespace whose binfmt_misc runs the image's programs through qemu-user."""
        if not self.foreign:
            return argv
        return [sys.executable, str(HELPER), "--binfmt", *argv]

    def missing(self) -> list[str]:
        """What this machine lacks to build and boot it, with the package that brings it."""
        lacking = []
        if shutil.which(self.qemu) is None:
            package = "qemu-system-arm" if self.name == "arm64" else "qemu-system-x86"
            lacking.append(f"{self.qemu} (apt-get install {package})")
        if self.foreign:
            if not BINFMT_CONF.exists() or shutil.which("qemu-aarch64-static") is None:
                lacking.append(f"qemu-user-static ({BINFMT_CONF}: apt-get install qemu-user-static)")
            if kernel_version() < (6, 7):
                lacking.append(
                    f"Linux 6.7 or later for a binfmt_misc of a private user namespace "
                    f"(this one is {platform.release()})"
                )
        return lacking


ARCHES = {
    # q35 and "max": see appliance.CPU for the figures that chose it.
    "amd64": Arch("amd64", "x86_64", "qemu-system-x86_64", "q35", "max", "ttyS0"),
    # virt, the board QEMU models for any aarch64 system; "max" with QEMU's own pointer
    # authentication (pauth-impdef): the architected QARMA cipher, emulated instruction by
    # instruction, slows every function return of the guest under TCG (QEMU's docs).
    "arm64": Arch("arm64", "aarch64", "qemu-system-aarch64", "virt", "max,pauth-impdef=on", "ttyAMA0", 3),
}


def kernel_version() -> tuple[int, int]:
    major, minor = platform.release().split(".")[:2]
    return int(major), int("".join(c for c in minor if c.isdigit()) or 0)


# --- the private namespace (run as a script) -----------------------------------------------------

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000


def _binfmt_namespace(argv: list[str]) -> int:
    """Run ``argv`` as root of a new user and mount namespace, qemu-aarch64 registered in the
    namespace's own binfmt_misc; its exit code."""
    libc = ctypes.CDLL(None, use_errno=True)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a single thread, as unshare(CLONE_NEWUSER) requires
        try:
            if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
                raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER | CLONE_NEWNS)")
            os.write(ready_w, b"x")
            os.read(go_r, 1)  # the parent has written the id maps
            # The namespace's mounts stay its own; its binfmt_misc is a new instance.
            script = (
                "mount --make-rprivate / && "
                "mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc && "
                f'cat "{BINFMT_CONF}" > /proc/sys/fs/binfmt_misc/register && exec "$@"'
            )
            os.execvp("sh", ["sh", "-c", script, "sh", *argv])
        except BaseException as exc:  # the child never returns into the caller's code
            print(f"arches: {exc}", file=sys.stderr, flush=True)
        os._exit(127)
    try:
        os.read(ready_r, 1)
        for name in ("uid_map", "gid_map"):
            Path(f"/proc/{pid}/{name}").write_text(f"0 0 {IDS}\n", encoding="ascii")
    except BaseException:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        raise
    os.write(go_w, b"x")
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--binfmt":
        sys.exit(f"usage: {sys.argv[0]} --binfmt CMD [ARG...]")
    sys.exit(_binfmt_namespace(sys.argv[2:]))
