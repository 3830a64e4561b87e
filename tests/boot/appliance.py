"""The table as an appliance, for real: a Debian system built from Debian's packages, the
companion installed in it by docs/install-pi.md's own shell blocks, booted in QEMU (TCG) with a
virtio-gpu DRM device, driven through QMP (screen, keys, power) and the QEMU guest agent.

Used by tests/boot/scenario.py (the boot test) and bench/boot.py (boot-to-first-frame)."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.boot.arches import ARCHES

# The tree installed into the image: this one, or another checkout (to show that the boot test
# fails on an older companion: COMPANION_BOOT_SOURCE=/path/to/checkout).
ROOT = Path(os.environ.get("COMPANION_BOOT_SOURCE") or Path(__file__).resolve().parents[2])
DOC = ROOT / "docs" / "install-pi.md"
KIOSK = ROOT / "docs" / "kiosk.md"  # its "Check it" block runs in the booted guest as it stands


@dataclass(frozen=True)
class Suite:
    """A Debian release standing for a Raspberry Pi OS one: its Python, the newest glibc its
    wheels may ask for, the kernel package and the extra suites (``SUITE-backports``) it needs."""

    name: str
    python: str
    glibc: int  # 2.N
    kernel: str
    extra_suites: tuple[str, ...] = ()
    gpio_sim: bool = False  # its kernel has gpio-sim: the buttons are simulated lines


SUITES = {
    # Pi OS trixie (Python 3.13), what CI runs. Trixie's own kernel (6.12) lacks CONFIG_GPIO_SIM;
    # its backports kernel (7.3) has it as a module: the booted appliance reads real kernel edges
    # from gpio-sim.
    "trixie": Suite("trixie", "3.13", 41, "linux-image-amd64/trixie-backports", ("trixie-backports",), True),
    # Pi OS bookworm (Python 3.11): COMPANION_BOOT_SUITE=bookworm. Its kernel has no gpio-sim,
    # so its GPIO phase is the one without a chip.
    "bookworm": Suite("bookworm", "3.11", 36, "linux-image-amd64"),
}
SUITE = SUITES[os.environ.get("COMPANION_BOOT_SUITE") or "trixie"]
# amd64, the boot test's; arm64 (a Pi's), bench/boot.py --arch arm64's (tests/boot/arches.py).
ARCH = ARCHES[os.environ.get("COMPANION_BOOT_ARCH") or "amd64"]
# Raspberry Pi OS Lite, as far as the install guide is concerned: systemd, udev, sudo, Python
# and the groups of the Pi's devices. The guest agent and the kernel are the test rig's (and
# libgpiod's tools, with which the rig presses the simulated buttons: gpioinfo, gpioget).
BASE_PACKAGES = [
    "systemd-sysv",
    "udev",
    "dbus",
    "sudo",
    "kmod",
    "python3",
    ARCH.kernel(SUITE.kernel),
    "initramfs-tools",
    "qemu-guest-agent",
    "procps",
    "gpiod",
    # Pi OS has them; trixie's minimal system no longer brings groupadd or adduser along.
    "passwd",
    "adduser",
]
# The emulated CPU (COMPANION_BOOT_CPU to try another). TCG's "max" boots faster than an older
# model without AVX: power-on to the guest agent took 81 s of QEMU's CPU time with "max", 112 s
# with "Nehalem" (the same image, side by side on one machine).
CPU = os.environ.get("COMPANION_BOOT_CPU") or ARCH.cpu
SCREEN = (1280, 800)  # virtio-gpu's mode: the connector's preferred resolution
BUILDER_VERSION = "1"
MASKED = [
    "apt-daily.timer",
    "apt-daily-upgrade.timer",
    "dpkg-db-backup.timer",
    "fstrim.timer",
    "e2scrub_all.timer",
    "e2scrub_reap.service",
    "man-db.timer",
    "systemd-binfmt.service",
    "proc-sys-fs-binfmt_misc.automount",
    "systemd-pstore.service",
    "modprobe@dm_mod.service",
    "modprobe@efi_pstore.service",
    "modprobe@fuse.service",
    "modprobe@loop.service",
]


def log(msg: str) -> None:
    print(f"[boot {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def missing_tools() -> list[str]:
    """What this machine lacks to build and boot the appliance (``.ci/run`` installs them)."""
    need = ["mmdebstrap", "mkfs.ext4", "unshare", "chroot"]
    lacking = [tool for tool in need if shutil.which(tool) is None] + ARCH.missing()
    if os.geteuid() != 0:
        lacking.append("root (mmdebstrap and chroot)")
    return lacking


def mirror() -> str:
    """The Debian mirror this machine's apt uses (the same registry CI reaches)."""
    for src in Path("/etc/apt/sources.list.d").glob("*.sources"):
        m = re.search(r"^URIs:\s*(\S+)", src.read_text(encoding="utf-8"), re.M)
        if m and "security" not in m.group(1):
            return m.group(1)
    return "http://deb.debian.org/debian"


def cache_dir() -> Path:
    base = os.environ.get("COMPANION_BOOT_CACHE") or Path.home() / ".cache" / "companion-boot"
    path = ARCH.cache(Path(base))
    path.mkdir(parents=True, exist_ok=True)
    return path


# --- the install guide's blocks -----------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    where: str  # "computer", "pi-admin" (your user, with sudo) or "pi-companion"
    lines: tuple[str, ...]


HARDWARE = "# (matériel)"  # a line that needs the real buttons, Pico or screen: not run here
WHERE = {
    "# sur votre ordinateur": "computer",
    "# sur le pi, en tant que vous": "pi-admin",
    "# sur le pi, en tant que companion": "pi-companion",
}


def doc_blocks(doc: Path = DOC) -> list[Block]:
    """Every ```sh block of the guide, with who runs it (its first line says so)."""
    blocks = []
    for body in re.findall(r"^```sh\n(.*?)^```", doc.read_text(encoding="utf-8"), re.M | re.S):
        lines = body.strip("\n").splitlines()
        head = lines[0].lower() if lines else ""
        where = next((w for key, w in WHERE.items() if head.startswith(key)), None)
        if where is None:
            raise ValueError(f"{doc.name}: a block does not say who runs it: {head!r}")
        blocks.append(Block(where, tuple(lines[1:])))
    return blocks


def runnable(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#") and HARDWARE not in line


# A booted system's commands: the image is built in a chroot, so these run on first boot.
NEEDS_BOOTED = re.compile(
    r"systemctl (status|start|restart|is-active)|udevadm (control|trigger)|"
    r"journalctl|companion doctor"
)


# --- building the image -------------------------------------------------------------------------


@dataclass(frozen=True)
class Image:
    kernel: Path
    initrd: Path
    disk: Path
    booted_lines: tuple[tuple[str, str], ...]  # (where, line) to run once the guest is up
    seeded: str = ""  # what the seed script printed (build_image's ``seed``)


def _run(cmd: list[str] | str, **kw: Any) -> subprocess.CompletedProcess[str]:
    shell = isinstance(cmd, str)
    proc = subprocess.run(cmd, shell=shell, text=True, capture_output=True, check=False, **kw)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd!r} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def base_tar(cache: Path) -> Path:
    """Where the base system's tarball is cached: named by its package list."""
    key = hashlib.sha256(json.dumps([SUITE.name, BASE_PACKAGES, BUILDER_VERSION]).encode()).hexdigest()
    return cache / f"base-{SUITE.name}-{key[:12]}.tar"


def base_rootfs(cache: Path) -> Path:
    """Debian (SUITE) with BASE_PACKAGES, as a tarball cached by its package list."""
    tar = base_tar(cache)
    if tar.exists():
        return tar
    # One build at a time: .ci/run starts one beside its Python installs (a minute on a machine
    # with an empty cache), and the scenario then waits for it here instead of building its own.
    with (cache / "base.lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for the base system another process is building ({tar.name})")
            fcntl.flock(lock, fcntl.LOCK_EX)
        if tar.exists():
            return tar
        return _mmdebstrap(tar)


def _mmdebstrap(tar: Path) -> Path:
    log(f"mmdebstrap {SUITE.name} from {mirror()} (cached in {tar.parent})")
    tmp = tar.with_suffix(".part.tar")
    # A small initramfs (the modules a virtio disk needs, not every driver): under TCG the
    # kernel unpacks it byte by byte.
    hook = (
        'mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d" && '
        'echo MODULES=list > "$1/etc/initramfs-tools/conf.d/boot-test.conf" && '
        'printf "virtio_pci\\nvirtio_blk\\next4\\n" > '
        '"$1/usr/share/initramfs-tools/modules.d/boot-test"'
    )
    _run(
        ARCH.confined(
            [
                "mmdebstrap",
                "--variant=apt",
                f"--architectures={ARCH.name}",
                "--include=" + ",".join(BASE_PACKAGES),
                f"--setup-hook={hook}",
                SUITE.name,
                str(tmp),
                *(f"deb {mirror()} {suite} main" for suite in (SUITE.name, *SUITE.extra_suites)),
            ]
        )
    )
    tmp.rename(tar)
    return tar


def wheelhouse(cache: Path, dist: Path) -> Path:
    """Wheels for everything the companion's wheel needs (the guest reaches no index: this
    folder stands in for the package index a Pi would download from)."""
    wheel = next(dist.glob("table_companion-*.whl"))
    house = cache / f"wheelhouse-{SUITE.name}"
    house.mkdir(exist_ok=True)
    # The guest's Python (3.13 on trixie) is not necessarily this machine's: the wheels pip on
    # the guest would take from the index, binary only, for its version, glibc and machine.
    m = ARCH.machine
    platforms = [f"manylinux2014_{m}", *(f"manylinux_2_{n}_{m}" for n in range(17, SUITE.glibc + 1))]
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--only-binary=:all:",
        *(a for p in platforms for a in ("--platform", p)),
        "--python-version",
        SUITE.python,
        "--implementation",
        "cp",
        "--dest",
        str(house),
        f"{wheel}[gpio,serial]",
    ]
    try:  # the wheels kept from the last build, when they still meet the requirements
        _run([*cmd, "--no-index", "--find-links", str(house)])
    except RuntimeError:  # a new or raised requirement: the package index
        _run(cmd)
    for old in house.glob("table_companion-*.whl"):
        old.unlink()
    return house


def chroot_script(root: Path, script: str, user: str | None = None) -> str:
    """Run a shell script in the image, with /proc, /sys and /dev mounted in a private mount
    namespace (gone when it ends, whatever happens)."""
    inner = f"sudo -iu {user} bash -euxo pipefail -s" if user else "bash -euxo pipefail -s"
    wrapper = (
        # (a foreign image's user namespace may mount no proc or sysfs of its own: bound)
        f'set -e; r="{root}"; mount -t proc proc "$r/proc" 2>/dev/null || mount --rbind /proc "$r/proc"; '
        f'mount -t sysfs sys "$r/sys" 2>/dev/null || mount --rbind /sys "$r/sys"; '
        f'mount --rbind /dev "$r/dev"; cp /etc/resolv.conf "$r/etc/resolv.conf" || true; '
        f'exec chroot "$r" {inner}'
    )
    proc = subprocess.run(
        ARCH.confined(["unshare", "--mount", "--propagation", "private", "sh", "-c", wrapper]),
        input=script,
        text=True,
        capture_output=True,
        check=False,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"},
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"in the image, as {user or 'root'}:\n{script}\nexited "
            f"{proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}"
        )
    return proc.stdout


def build_image(work: Path, cache: Path | None = None, seed: str | None = None) -> Image:
    """The appliance's disk: Debian, then docs/install-pi.md's blocks, in order, as the users
    they name. ``work`` receives the kernel, the initrd and the disk image. ``seed``, a Python
    script, runs after the guide in the companion's venv as the companion user (what it prints
    is the image's ``seeded``)."""
    cache = cache or cache_dir()
    work.mkdir(parents=True, exist_ok=True)
    root = work / "root"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    tar = base_rootfs(cache)
    t0 = time.monotonic()
    # The guide's "on your computer" block builds the wheel on this machine: it needs nothing
    # from the image, so it runs beside the image's first blocks (apt's downloads and dpkg) and
    # is waited for where the guide has it.
    blocks = doc_blocks()
    computer = work / "computer"
    with ThreadPoolExecutor(1) as pool:
        built = [
            pool.submit(_computer_build, [line for line in b.lines if runnable(line)], computer)
            for b in blocks
            if b.where == "computer"
        ]
        return _build_image(work, cache, root, tar, blocks, computer, iter(built), t0, seed)


def _build_image(
    work: Path,
    cache: Path,
    root: Path,
    tar: Path,
    blocks: list[Block],
    computer: Path,
    built: Iterator[Future[Path]],
    t0: float,
    seed: str | None = None,
) -> Image:
    _run(["tar", "-C", str(root), "-xpf", str(tar)])
    # What Raspberry Pi OS has and plain Debian does not: the group of the GPIO chips, and the
    # udev rule that gives it the chips (raspberrypi-sys-mods' rule, reduced to the character
    # devices: the companion opens /dev/gpiochip* through libgpiod, as its user, without root).
    chroot_script(
        root,
        "groupadd --system gpio\n"
        'echo \'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"\' '
        "> /etc/udev/rules.d/60-gpiochip.rules\n"
        "echo table > /etc/hostname\n"
        "printf '127.0.1.1 table %s\\n' \"$(hostname)\" >> /etc/hosts\n"
        "printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\\n' > /etc/fstab\n"
        # The console is the test rig's log (ttyS0, ttyAMA0 on arm64); tty1 is the table's screen.
        f"systemctl enable serial-getty@{ARCH.console}.service\n",
    )
    # The emulated CPU's, for every service: Mesa's software renderer (llvmpipe, what draws on
    # virtio-gpu) at 128-bit vectors. At its default 256 bits under QEMU 7.2's TCG, trixie's Mesa
    # 25 died of SIGSEGV in the first frame (SDL's set_mode), by hand as under the unit: its
    # compiled shader faulted on an AVX2 gather (vpgatherdd) reading a texture. A Pi draws with
    # its own GPU (v3d), without llvmpipe or AVX2.
    (root / LLVMPIPE).parent.mkdir(parents=True, exist_ok=True)
    (root / LLVMPIPE).write_text(
        "[Manager]\nDefaultEnvironment=LP_NATIVE_VECTOR_WIDTH=128\n", encoding="utf-8"
    )
    archives = _reuse_debs(cache, root)
    # The test rig's, while the guide's apt lines run: dpkg does not fsync each file it unpacks
    # (the image is written whole by mkfs afterwards; a build that breaks is thrown away).
    unsafe_io = root / UNSAFE_IO
    unsafe_io.parent.mkdir(parents=True, exist_ok=True)
    unsafe_io.write_text("force-unsafe-io\n", encoding="utf-8")
    booted: list[tuple[str, str]] = []
    for block in blocks:
        lines = [line for line in block.lines if runnable(line)]
        if block.where == "computer":
            _computer_copy(lines, computer, root, next(built).result())
            continue
        # `enable --now`: enabled here, started by the first boot, and the whole line run again
        # once booted (starting a running unit changes nothing).
        now = [line.replace(" --now", "") for line in lines if not NEEDS_BOOTED.search(line)]
        booted += [(block.where, line) for line in lines if NEEDS_BOOTED.search(line) or " --now" in line]
        if block.where == "pi-companion":
            # The guest reaches no package index: pip finds the wheels in /tmp/wheelhouse.
            (root / "etc" / "pip.conf").write_text(
                "[global]\nno-index = true\nfind-links = /tmp/wheelhouse\n", encoding="utf-8"
            )
        log(f"install guide, {block.where}: {len(now)} lines")
        chroot_script(
            root, "\n".join(now) + "\n", user="companion" if block.where == "pi-companion" else None
        )
    (root / "etc" / "pip.conf").unlink(missing_ok=True)
    unsafe_io.unlink()
    shutil.rmtree(root / "tmp" / "wheelhouse", ignore_errors=True)
    _keep_debs(cache, root, archives)
    log("the guide's blocks ran: the game seeded, the units masked")
    seeded = ""
    if seed is not None:
        # The test rig's, after the guide, at the host's speed: what an emulated Python start
        # would take a guest's minute for (a game for the kiosk to resume on its first boot).
        seeded = chroot_script(
            root, f"/home/companion/venv/bin/python - <<'EOF'\n{seed}\nEOF\n", user="companion"
        )
    # The test rig's, after the guide: what a Pi does now and then (apt's and dpkg's timers, the
    # weekly trims and scrubs) or never needs here (binfmt, pstore) would only take emulated
    # seconds from the boots and the phases measured.
    chroot_script(root, "systemctl mask " + " ".join(MASKED) + "\n")
    kernel = work / "vmlinuz"
    initrd = work / "initrd.img"
    shutil.copy(sorted((root / "boot").glob("vmlinuz-*"))[-1], kernel)
    shutil.copy(sorted((root / "boot").glob("initrd.img-*"))[-1], initrd)
    disk = work / "disk.img"
    disk.unlink(missing_ok=True)
    log("mkfs.ext4 -d: the tree into the disk image")
    _run(["mkfs.ext4", "-q", "-F", "-L", "table", "-d", str(root), str(disk), "4G"])
    # The tree is in the image: removed beside the boots, not before them (its tens of thousands
    # of files took shutil.rmtree 69 s of the build at load 5).
    gone = root.with_name(f"root.gone.{os.getpid()}.{time.monotonic_ns()}")
    root.rename(gone)
    subprocess.Popen(
        ["nice", "-n", "10", "rm", "-rf", "--one-file-system", str(gone)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    log(f"image ready in {time.monotonic() - t0:.0f} s (after the base system)")
    return Image(kernel, initrd, disk, tuple(booted), seeded)


KEEP_DEBS = "etc/apt/apt.conf.d/99boot-test-keep-debs"
LLVMPIPE = "etc/systemd/system.conf.d/boot-test-llvmpipe.conf"
UNSAFE_IO = "etc/dpkg/dpkg.cfg.d/99boot-test-unsafe-io"


def _reuse_debs(cache: Path, root: Path) -> Path:
    """The packages the guide's apt lines downloaded last time, as the mirror served them, put
    where apt looks before it downloads (it checks each against the index and fetches what
    changed); apt is told to keep what it downloads this time. The image keeps neither."""
    archives = root / "var" / "cache" / "apt" / "archives"
    archives.mkdir(parents=True, exist_ok=True)
    for deb in (cache / "debs").glob("*.deb"):
        with contextlib.suppress(OSError):  # another build replacing the set meanwhile
            _link(deb, archives / deb.name)
    (root / KEEP_DEBS).write_text(
        'APT::Keep-Downloaded-Packages "true";\nBinary::apt::APT::Keep-Downloaded-Packages "true";\n',
        encoding="utf-8",
    )
    return archives


def _keep_debs(cache: Path, root: Path, archives: Path) -> None:
    debs = cache / "debs"
    fresh = cache / f"debs.{os.getpid()}"
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    for deb in archives.glob("*.deb"):  # this build's set: what the mirror no longer serves goes
        _link(deb, fresh / deb.name)
        deb.unlink()
    shutil.rmtree(debs, ignore_errors=True)
    try:
        fresh.rename(debs)
    except OSError:  # another build kept its set first
        shutil.rmtree(fresh, ignore_errors=True)
    (root / KEEP_DEBS).unlink(missing_ok=True)


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system
        shutil.copy2(src, dst)


def _computer_build(lines: list[str], computer: Path) -> Path:
    """The guide's 'on your computer' block, but for its copy to the Pi: its build line runs
    here, on a copy of the repository. Returns the wheelhouse (the wheels the guest's pip finds)."""
    if computer.exists():
        shutil.rmtree(computer)
    files = _run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"]).stdout.split()
    for rel in files:
        src = ROOT / rel
        dst = computer / rel
        if src.is_symlink():  # as a clone has it (companion/firmware links to firmware/)
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dst)
        elif src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    for line in lines:
        if line.startswith("scp "):
            continue
        log(f"on the computer: {line}")
        _run(line, cwd=computer, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return wheelhouse(cache_dir(), computer / "dist")


def _computer_copy(lines: list[str], computer: Path, root: Path, house: Path) -> None:
    """The block's copy to the Pi (``scp``), in the guide's order: a copy into the image's /tmp."""
    for line in lines:
        if line.startswith("scp "):
            args = line.split()[1:-1]  # the files; the last word is the Pi's address
            for pattern in args:
                for src in sorted(computer.glob(pattern)):
                    shutil.copy2(src, root / "tmp" / src.name)
                    os.chmod(root / "tmp" / src.name, 0o644)
    shutil.copytree(house, root / "tmp" / "wheelhouse", dirs_exist_ok=True)


# --- the machine ----------------------------------------------------------------------------------


class JsonSocket:
    """One JSON object a line, over a unix socket (QMP and the guest agent both speak it)."""

    def __init__(self, path: Path, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.buf = b""

    def send(self, obj: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def recv(self, timeout: float) -> dict[str, Any]:
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("socket closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        if not line.strip():
            return self.recv(timeout)
        try:
            msg: dict[str, Any] = json.loads(line)
        except ValueError:  # the guest agent may send a stray 0xff before a sync reply
            return self.recv(timeout)
        return msg

    def close(self) -> None:
        self.sock.close()


class Guest:
    """One boot of the appliance's disk under QEMU (TCG, one vCPU)."""

    def __init__(self, image: Image, work: Path, name: str, gpu: str = "virtio-gpu-pci") -> None:
        self.image, self.work, self.name = image, work, name
        self.qmp_path = work / f"{name}.qmp"
        self.qga_path = work / f"{name}.qga"
        self.console = work / f"{name}.console.log"
        for p in (self.qmp_path, self.qga_path):
            p.unlink(missing_ok=True)
        cmd = [
            ARCH.qemu,
            "-machine",
            ARCH.board,
            "-accel",
            "tcg,thread=single",
            "-cpu",
            CPU,
            "-smp",
            "1",
            "-m",
            "2048",
            "-nodefaults",
            "-no-user-config",
            "-kernel",
            str(image.kernel),
            "-initrd",
            str(image.initrd),
            "-append",
            # mitigations=off: the test rig's kernel on an emulated CPU shares it with nobody;
            # its Spectre defences would only cost emulated instructions.
            f"root=/dev/vda rw console={ARCH.console} panic=-1 quiet loglevel=4 mitigations=off",
            "-drive",
            # unsafe: QEMU drops the guest's flushes to the host file (a throwaway image). What
            # the guest wrote reaches the host file all the same, so a pulled plug (QEMU killed)
            # still loses exactly what the guest had not written yet: the power-cut check keeps
            # its meaning, without a host fdatasync for each of the guest's journal commits.
            f"file={image.disk},format=raw,if=virtio,cache=unsafe",
            "-device",
            f"{gpu},xres={SCREEN[0]},yres={SCREEN[1]}",
            "-device",
            "virtio-keyboard-pci",
            "-device",
            "virtio-tablet-pci",
            "-device",
            "virtio-serial-pci",
            "-chardev",
            f"socket,id=qga,path={self.qga_path},server=on,wait=off",
            "-device",
            "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
            "-qmp",
            f"unix:{self.qmp_path},server=on,wait=off",
            "-serial",
            f"file:{self.console}",
            "-display",
            "none",
            "-no-reboot",
        ]
        # One question and its answer at a time on each socket: the scenario watches the unit
        # on one thread while it looks at the screen on another.
        self._qmp_lock = threading.Lock()
        self._qmp_asked = 0  # the id of the last QMP command (its answer carries it back)
        self._qga_lock = threading.Lock()
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        try:
            self.qmp = JsonSocket(self.qmp_path)
            self.qmp.recv(30)  # the greeting
            self.command("qmp_capabilities")
        except (OSError, ConnectionError) as exc:
            self.proc.kill()
            out = self.proc.communicate()[0].decode(errors="replace")
            raise RuntimeError(f"QEMU did not start: {out[-2000:]}") from exc
        self.qga: JsonSocket | None = None

    # QMP: the machine's own controls.
    def command(self, name: str, **arguments: Any) -> Any:
        with self._qmp_lock:
            self._qmp_asked += 1
            ident = self._qmp_asked
            ask: dict[str, Any] = {"execute": name, "id": ident}
            if arguments:
                ask["arguments"] = arguments
            self.qmp.send(ask)
            while True:
                msg = self.qmp.recv(60)
                # An event, or the answer to an earlier question whose wait gave up: taken for
                # this one, a screendump's "done" would come before QEMU wrote its file (one way
                # a boot run read no file after a success).
                if "event" in msg or msg.get("id") != ident:
                    continue
                if "error" in msg:
                    raise RuntimeError(f"QMP {name}: {msg['error']}")
                return msg.get("return")

    def screendump(self, path: Path) -> bytes:
        """The screen as QEMU's display shows it: raw RGB, SCREEN sized."""
        path.unlink(missing_ok=True)
        self.command("screendump", filename=str(path))
        if not path.exists():  # (QEMU writes the file before it answers)
            raise RuntimeError(f"QMP screendump answered, but {path} was not written")
        return read_ppm(path)[2]

    def key(self, *names: str) -> None:
        """Press and release keys (QEMU key names: "1", "ret", "esc"...) on the virtio keyboard."""
        for name in names:
            for down in (True, False):
                self.command(
                    "input-send-event",
                    events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": name}}}],
                )
                time.sleep(0.05)

    def power_cut(self) -> None:
        """The plug pulled: QEMU killed, nothing flushed by the guest, no shutdown."""
        self.proc.kill()
        self.proc.wait()
        self.qmp.close()
        if self.qga:
            self.qga.close()

    def wait_agent(self, timeout: float = 600) -> float:
        """Seconds from power-on until the guest agent answers (multi-user is up)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"QEMU ended: {self.tail()}")
            try:
                self.qga = JsonSocket(self.qga_path, timeout=5)
                ident = int(time.monotonic() * 1000) % 2**31
                self.qga.send({"execute": "guest-sync", "arguments": {"id": ident}})
                while self.qga.recv(10).get("return") != ident:
                    pass
                return time.monotonic() - self.started
            except (OSError, ConnectionError, TimeoutError):
                if self.qga:
                    self.qga.close()
                self.qga = None
                time.sleep(1)
        raise TimeoutError(f"no guest agent after {timeout} s: {self.tail()}")

    def sh(
        self, script: str, user: str | None = None, timeout: float = 300, check: bool = True
    ) -> tuple[int, str]:
        """A shell command in the guest (as root, or as ``user`` through runuser), with its
        exit code and its output (stdout then stderr)."""
        argv = ["/usr/sbin/runuser", "-l", user, "-c", script] if user else ["/bin/sh", "-c", script]
        pid = self._ask(
            "guest-exec",
            path=argv[0],
            arg=argv[1:],
            env=["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"],
            **{"capture-output": True},
        )["pid"]
        deadline = time.monotonic() + timeout
        while True:
            st = self._ask("guest-exec-status", pid=pid)
            if st.get("exited"):
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"guest: {script!r} still running after {timeout} s")
            time.sleep(0.2)
        out = "".join(
            base64.b64decode(st.get(k, "")).decode("utf-8", "replace") for k in ("out-data", "err-data")
        )
        code = int(st.get("exitcode", -1))
        if check and code != 0:
            raise RuntimeError(f"guest: {script!r} exited {code}:\n{out[-4000:]}")
        return code, out

    def _ask(self, name: str, **arguments: Any) -> Any:
        """One guest agent command and its answer (commands from two threads take turns)."""
        assert self.qga is not None, "wait_agent() first"
        with self._qga_lock:
            self.qga.send({"execute": name, "arguments": arguments})
            return self.qga.recv(30)["return"]

    def unit(self, *props: str) -> dict[str, str]:
        _, out = self.sh("systemctl show companion.service -p " + ",".join(props))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def tail(self, n: int = 3000) -> str:
        try:
            return self.console.read_text(encoding="utf-8", errors="replace")[-n:]
        except OSError:
            return ""

    def shutdown(self) -> None:
        with contextlib.suppress(Exception):
            self.sh("systemctl poweroff", timeout=5, check=False)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- pictures ------------------------------------------------------------------------------------


def read_ppm(path: Path) -> tuple[int, int, bytes]:
    """A binary PPM (P6, 8 bits), QEMU's screendump format: width, height, RGB bytes."""
    data = path.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit P6 PPM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1 : pos + 1 + w * h * 3]


def png_rgb(path: Path) -> tuple[int, int, bytes]:
    import pygame

    surf = pygame.image.load(str(path))
    return surf.get_width(), surf.get_height(), pygame.image.tobytes(surf, "RGB")


def same_picture(a: bytes, b: bytes, channel_tolerance: int = 24) -> float:
    """The share of pixels whose three channels all lie within ``channel_tolerance`` of the
    other picture's (1.0: the same picture). Both are raw RGB of one size."""
    if len(a) != len(b) or not a:
        return 0.0
    close = 0
    n = len(a) // 3
    for i in range(0, len(a), 3):
        if (
            abs(a[i] - b[i]) <= channel_tolerance
            and abs(a[i + 1] - b[i + 1]) <= channel_tolerance
            and abs(a[i + 2] - b[i + 2]) <= channel_tolerance
        ):
            close += 1
    return close / n


def share_of_colour(rgb: bytes, colour: tuple[int, int, int], step: int = 7) -> float:
    """The share of (sampled) pixels of exactly ``colour``: the companion's background fills
    most of its screens, the console's black none of them."""
    # In C, not a Python loop: the screen is looked at twice a second while a frame is awaited,
    # and that host core is the one the rest of the suite runs on. Each sampled pixel's channel
    # becomes 1 where it is the colour's, 0 elsewhere; a pixel counts where all three are 1.
    whole = rgb[: len(rgb) - len(rgb) % 3]
    hits = -1
    for channel, value in enumerate(colour):
        table = bytearray(256)
        table[value] = 1
        ones = int.from_bytes(whole[channel :: 3 * step].translate(table), "big")
        hits = ones if hits < 0 else hits & ones
    total = len(whole[:: 3 * step])
    return hits.bit_count() / max(total, 1)


@contextlib.contextmanager
def booted(image: Image, work: Path, name: str) -> Iterator[Guest]:
    for attempt in range(3):  # QEMU's monitor socket now and then resets its first connection
        try:
            guest = Guest(image, work, name)
            break
        except RuntimeError as exc:
            log(f"QEMU start {attempt + 1} failed: {exc}")
            if attempt == 2:
                raise
    try:
        yield guest
    finally:
        if guest.proc.poll() is None:
            guest.proc.kill()
            guest.proc.wait()
