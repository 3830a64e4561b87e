"""The boot test's scenario: build the appliance from the install guide, boot it, and record what
a table would see (unit state, restarts, the screen, the journal) across a kill -9, a pulled
plug and a GPIO config on a machine without GPIO. Writes ``observations.json`` in ``--out``;
tests/boot/test_appliance.py asserts on it, bench/boot.py prints its timings.

    python -m tests.boot.scenario --out /tmp/boot

Each phase records what it saw before asserting nothing: a phase that breaks records its error
and the scenario goes on with what it can, so every check reports its own failure."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.boot.appliance import (
    ARCH,
    KIOSK,
    SCREEN,
    SUITE,
    Guest,
    Image,
    booted,
    build_image,
    doc_blocks,
    log,
    png_rgb,
    runnable,
    same_picture,
    share_of_colour,
)

COMPANION = "/home/companion/venv/bin/companion"
CONFIG = "/home/companion/.config/table-companion/companion.toml"
DATA = "/home/companion/.local/share/companion"
CACHE = "/run/companion/cache"  # XDG_CACHE_HOME in hardware/companion.service
STABLE_S = 60
FRAME_S = 300 * ARCH.slower  # seconds to wait for a frame before calling it missing
PLAYERS = "Alice,Bob,Chloé,Dédé"
# A kiosk.md line that changes the machine (the blocks before the first such line only read),
# and one that (re)starts the unit.
RESTARTS = re.compile(r"systemctl (restart|start)\b.*companion")
CHANGES = re.compile(
    r"config set|daemon-reload|systemctl (restart|start|stop|enable|disable)|\b(cp|mv|rm|install) "
)

# A Kilo de merde game, four players, a few events in: the kiosk resumes it (keyboard buttons).
# Beside it, in a journal of its own, the same game on GPIO buttons, for the gpio phase on a
# simulated header (its kiosk resumes it once the config says gpio).
SEED_GAME = f"""
import os, sys
from companion.games import load
from companion.table.journal import Journal
from companion.table.live import Table
for data, source in (('{DATA}.gpio', 'gpio'), ('{DATA}', 'keyboard')):
    with Journal(__import__('pathlib').Path(data), writer=True) as j:
        setup = load('kilo').setup(players='{PLAYERS}'.split(','), rounds=5)
        t = Table.start(j, setup, {{'input': source, 'seed': 7, 'lang': 'fr',
                                   'config': '{CONFIG}'}})
        print(t.game_id)
"""

# The Pi's header as gpio-sim makes it (54 lines, GPIO0..GPIO27 named as on a Pi 5), in the guest.
SIM = "/sys/kernel/config/gpio-sim/pi"
MAKE_SIM_CHIP = f"""
modprobe gpio-sim
d={SIM}
mkdir $d $d/bank0
echo 54 > $d/bank0/num_lines
echo pinctrl-rp1 > $d/bank0/label
for n in $(seq 0 27); do mkdir $d/bank0/line$n; echo GPIO$n > $d/bank0/line$n/name; done
echo 1 > $d/live
udevadm settle
chip=$(cat $d/bank0/chip_name)
echo /sys/devices/platform/$(cat $d/dev_name)/$chip
stat -c '%n %G %a' /dev/$chip
"""
# Seats' buttons and LEDs (BCM numbers, hardware/pinmap.md's), the referee's confirm.
BUTTONS = {"Alice": 17, "Bob": 27, "Chloé": 22, "Dédé": 23}
LEDS = {"Alice": 5, "Bob": 6, "Chloé": 13, "Dédé": 19}
CONFIRM = 24
GPIO_SIM_CONFIG = (
    '[input]\nsource = "gpio"\n\n[gpio]\nseats = ['
    + ", ".join(f"{{ button = {BUTTONS[p]}, led = {LEDS[p]} }}" for p in PLAYERS.split(","))
    + f"]\nreferee = {{ confirm = {CONFIRM} }}\n"
)
# The slap, as the hands make it: Bob first, his contact bouncing (three make-and-break, back to
# back) before it holds, then Alice, Dédé and Chloé 1 ms apart (later if the writes are slower:
# each write's window is what the checks use); all held 80 ms.
SLAP = [("Bob", 0.0), ("Alice", 1.0), ("Dédé", 2.0), ("Chloé", 3.0)]
LOSER = "Chloé"
# The buttons pressed by their lines' pulls (a button to ground: pull-down is the press), from
# the guest, timed on its CLOCK_MONOTONIC: each write's window [before, after] holds the kernel's
# stamp of its edge. Prints one JSON object: {step: ...}.
PRESSER = """
import json, os, sys, time
base, step = sys.argv[1], sys.argv[2]
fds = {}
def pull(pin, down):
    fd = fds.get(pin) or fds.setdefault(pin, os.open(f"{base}/sim_gpio{pin}/pull", os.O_WRONLY))
    t0 = time.monotonic_ns()
    os.pwrite(fd, b"pull-down" if down else b"pull-up", 0)
    return [t0, time.monotonic_ns()]
def until(t):
    while time.monotonic_ns() < t:
        pass
out = {}
if step == "slap":
    plan = json.loads(sys.argv[3])
    start = time.monotonic_ns() + 1_000_000
    for name, pin, at_ms, bounces in plan:
        until(start + int(at_ms * 1e6))
        out[name] = pull(pin, True)
        # Back to back: under TCG on a loaded host one write took 1 to 4 ms (a probe's), so
        # the bounce's span is recorded, to tell a slow rig from a debouncer that splits it.
        for _ in range(bounces):
            pull(pin, False)
            out[name + " bounce"] = [out[name][0], pull(pin, True)[1]]
    until(start + 80_000_000)
    for name, pin, _, _ in plan:
        pull(pin, False)
elif step == "press":
    pin = int(sys.argv[3])
    out["press"] = pull(pin, True)
    until(time.monotonic_ns() + 80_000_000)
    out["release"] = pull(pin, False)
elif step == "burst":
    # Past the kernel's buffer (1024 events a request): the reader is stopped meanwhile (a Pi
    # too busy to read), so the kernel must drop the oldest edges.
    pin, pid, n = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    import signal
    os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic_ns()
        # The pulses the emulated CPU held down 2 ms or more (the host took its core away
        # mid-pulse): as long as a real press, which the debouncer may rightly count as one.
        held = []
        for _ in range(n):
            down = pull(pin, True)
            up = pull(pin, False)
            if up[1] - down[0] >= 2_000_000:
                held.append([down[0], up[1]])
        out["burst"] = [t0, time.monotonic_ns()]
        out["held"] = held
    finally:
        os.kill(pid, signal.SIGCONT)
elif step == "leds":
    pins, seconds = json.loads(sys.argv[3]), float(sys.argv[4])
    files = {p: open(f"{base}/sim_gpio{p}/value") for p in pins}
    seen = {p: [] for p in pins}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for p, f in files.items():
            f.seek(0)
            seen[p].append(int(f.read()))
        time.sleep(0.02)
    out = {str(p): v for p, v in seen.items()}
print(json.dumps(out))
"""


# Several companion commands in one Python process, each run by the CLI's own main() as
# `companion ARGS` runs it: under TCG a command's start (its imports, pydantic's schemas first)
# takes most of its time, so the commands a phase asks together share one start.
SEP = "\x1e companion exit "
BATCH = """
import contextlib, io, sys
from companion.cli import main
for argv in {argvs!r}:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    sys.stdout.write({sep!r} + str(code) + "\\n" + out.getvalue())
"""


def backgrounds() -> list[tuple[int, int, int]]:
    """The companion's own ground colours: the screen's and its panels' (a table screen is mostly
    panels, a setup screen mostly ground; the console and a black screen are neither)."""
    from companion.display import theme

    return [tuple(c)[:3] for c in (theme.BG, theme.PANEL)]  # type: ignore[misc]


class Scenario:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.obs: dict[str, Any] = {"screen": list(SCREEN), "errors": {}}
        self.image: Image | None = None
        self.boot_frame: Future[float] | None = None  # power-on to the first frame
        self.settled = 0.0  # when the guide's first-boot lines were done
        self.gpio_started: float | None = None  # when the unit was restarted on GPIO buttons
        self.sim_base = ""  # the simulated header's sysfs folder (sim_gpioN/pull, value)
        self.obs["suite"] = SUITE.name
        self.obs["gpio_sim"] = SUITE.gpio_sim

    def phase(self, name: str, fn: Callable[[], None]) -> None:
        log(f"--- {name}")
        t0 = time.monotonic()
        try:
            fn()
        except Exception:
            self.obs["errors"][name] = traceback.format_exc()[-4000:]
            log(f"{name} failed:\n{self.obs['errors'][name]}")
        self.obs.setdefault("phase_s", {})[name] = round(time.monotonic() - t0, 1)
        self.save()

    def save(self) -> None:
        (self.out / "observations.json").write_text(json.dumps(self.obs, indent=1), encoding="utf-8")

    # --- helpers ---------------------------------------------------------------------------

    # Under TCG on a busy machine SDL's first frame (EGL set-up, llvmpipe compiling its shaders
    # on one emulated CPU) takes one to two minutes; the figure kept is what was measured.
    def first_frame(self, guest: Guest, since: float, name: str, timeout: float = FRAME_S) -> float:
        """Seconds from ``since`` until the companion's screen is up (its ground colours fill a
        good part of the screen; the console or a black screen does not)."""
        grounds = backgrounds()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                rgb = guest.screendump(self.out / f"{name}.ppm")
            except (RuntimeError, ValueError):  # no screen yet: the display drivers change at boot
                rgb = b""
            if sum(share_of_colour(rgb, c) for c in grounds) > 0.25:
                return round(time.monotonic() - since, 2)
            time.sleep(0.5)
        raise TimeoutError(f"no companion frame on the screen after {timeout} s")

    def watch(self, guest: Guest, seconds: float) -> list[dict[str, str]]:
        """The unit's state every 5 s for ``seconds``."""
        seen: list[dict[str, str]] = []
        t0 = time.monotonic()
        while True:
            sample = guest.unit("ActiveState", "SubState", "NRestarts", "MainPID")
            sample["t"] = f"{time.monotonic() - t0:.1f}"  # seconds since the watch began
            seen.append(sample)
            if time.monotonic() - t0 >= seconds:
                return seen
            # Every 5 s from the start, not 5 s after each look: a look slowed by the screen
            # checks running beside the watch does not thin the samples out.
            time.sleep(max(0.5, 5 * len(seen) - (time.monotonic() - t0)))

    def export(self, guest: Guest) -> list[str]:
        """The journal's last game as a table log, one event a line (comments dropped)."""
        _, out = guest.sh(f"COMPANION_DATA_DIR={DATA} {COMPANION} export", user="companion")
        return events_of(out)

    def shader_cache(self, guest: Guest) -> list[str]:
        """Mesa's shader cache in the unit's runtime folder: "path mtime" a file."""
        _, out = guest.sh(f"find {CACHE} -type f -printf '%P %T@\\n' 2>/dev/null", check=False)
        return sorted(out.splitlines())

    def commands(self, guest: Guest, *argvs: list[str]) -> list[str]:
        """The output of each ``companion ARGV``, run in turn in one Python process as the
        companion user (on the journal); a command that does not exit 0 is an error."""
        script = BATCH.format(argvs=list(argvs), sep=SEP)
        _, out = guest.sh(
            f"COMPANION_DATA_DIR={DATA} /home/companion/venv/bin/python - <<'EOF'\n{script}\nEOF",
            user="companion",
        )
        outputs = []
        for argv, part in zip(argvs, out.split(SEP)[1:], strict=True):
            code, _, text = part.partition("\n")
            if code != "0":
                raise RuntimeError(f"guest: companion {' '.join(argv)} exited {code}:\n{text[-2000:]}")
            outputs.append(text)
        return outputs

    def reference(self, log_lines: list[str], screen: str, name: str) -> bytes:
        """The host's own rendering of the same screen of the same game (the snapshot)."""
        log_file = self.out / f"{name}.jsonl"
        log_file.write_text("\n".join(log_lines) + "\n", encoding="utf-8")
        png = self.out / f"{name}.png"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "snapshot",
                screen,
                "--log",
                str(log_file),
                "--size",
                f"{SCREEN[0]}x{SCREEN[1]}",
                "--out",
                str(png),
            ],
            check=True,
            capture_output=True,
            text=True,
            env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin", "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
        )
        return png_rgb(png)[2]

    def matches(self, guest: Guest, ref: bytes, name: str, timeout: float = 120) -> float:
        """The best agreement between the screen and ``ref`` seen within ``timeout`` (the key
        that dismissed the "game resumed" note takes a few emulated seconds to show)."""
        best = 0.0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and best < 0.995:
            best = max(best, same_picture(guest.screendump(self.out / f"{name}.ppm"), ref))
            time.sleep(1)
        return round(best, 4)

    # --- the phases -------------------------------------------------------------------------

    def run(self) -> None:
        work = self.out / "machine"
        t0 = time.monotonic()
        try:
            # The game the kiosk resumes is put in the journal with the image, after the guide:
            # the kiosk systemd starts at boot, and the one the guide restarts, open on it, so
            # the keyboard phase needs no restart of its own (a stop, an emulated Python start
            # to write the game, a start: a minute under TCG).
            self.image = build_image(work, seed=SEED_GAME)
        except Exception:
            self.obs["errors"]["build"] = traceback.format_exc()[-6000:]
            self.save()
            return
        self.obs["gpio_game_id"], self.obs["game_id"] = self.image.seeded.strip().splitlines()[-2:]
        self.obs["build_s"] = round(time.monotonic() - t0, 1)
        self.save()
        with booted(self.image, work, "boot1") as guest, ThreadPoolExecutor(1) as frames:
            self.phase("first_boot", lambda: self.first_boot(guest, frames))
            self.phase("keyboard", lambda: self.keyboard(guest))
            self.phase("kill9", lambda: self.kill9(guest))
            self.phase("before_cut", lambda: self.before_cut(guest))
        with booted(self.image, work, "boot2") as guest:
            self.phase("after_cut", lambda: self.after_cut(guest))
            self.phase("security", lambda: self.security(guest))
            self.phase("gpio", lambda: self.gpio(guest))
            guest.shutdown()

    def first_boot(self, guest: Guest, frames: ThreadPoolExecutor) -> None:
        assert self.image is not None
        # The screen is watched from power-on, beside the guide's lines: the first frame is the
        # kiosk's that systemd started at boot (or, if the guide's restart came first, the
        # restarted one's), and the minutes of waiting for it overlap the guide's lines and the
        # keyboard phase's watch (which waits for it).
        # (From power-on: the boot's minutes are in the wait, hence twice the usual one.)
        self.boot_frame = frames.submit(self.first_frame, guest, guest.started, "first", 2 * FRAME_S)
        self.obs["boot_to_agent_s"] = round(guest.wait_agent(), 1)
        # The install guide's lines that need a running system (systemctl status, udevadm, and
        # its last one, the update's restart).
        ran = []
        for where, line in self.image.booted_lines:
            code, out = guest.sh(line, user="companion" if where == "pi-companion" else None, check=False)
            ran.append({"line": line, "exit": code, "out": out[-1500:]})
        self.obs["booted_lines"] = ran
        self.settled = time.monotonic()  # no restart of the unit from here to the kill -9
        # When the screen's device came (hardware/99-companion-screen.rules) and when systemd
        # first started the kiosk, in seconds of the guest's uptime: the unit waits for it.
        _, out = guest.sh(
            "systemctl show sys-subsystem-drm-companion.device -p ActiveEnterTimestampMonotonic "
            "--value; journalctl -u companion -b -o short-monotonic --no-pager | grep -m1 'Started '",
            check=False,
        )
        lines = out.splitlines()
        started = re.match(r"\[\s*([0-9.]+)\]", lines[1]) if len(lines) > 1 else None
        self.obs["screen_device_s"] = int(lines[0]) / 1e6 if lines and lines[0].isdigit() else None
        self.obs["kiosk_first_start_s"] = float(started[1]) if started else None

    def keyboard(self, guest: Guest) -> None:
        """The game in progress (seeded with the image), resumed by the kiosk with keyboard
        buttons: the screen drawn by SDL's kmsdrm driver is the host's snapshot of that game;
        the unit stays up 60 s."""
        t0 = self.settled  # the guide's lines are done: the kiosk is the one the watch sees
        # The screen is checked while the unit is watched (a key pressed in the meantime must not
        # bring it down either), then docs/kiosk.md's "Check it" block runs (it only reads):
        # the minute of watching is the phase's length, not added to it.
        with ThreadPoolExecutor(1) as pool:
            watching = pool.submit(self.watch, guest, STABLE_S)
            self.screen_check(guest, t0)
            self.obs["kiosk_lines"] = self.kiosk_blocks(guest, check_only=True)
            self.obs["keyboard_watch"] = watching.result()

    def screen_check(self, guest: Guest, t0: float) -> None:
        """The screen drawn by SDL's kmsdrm driver is the host's snapshot of the same game."""
        try:
            assert self.boot_frame is not None, "first_boot did not start the screen's watch"
            self.obs["boot_to_first_frame_s"] = self.boot_frame.result()
            # The first frame from power-on may be the kiosk's the guide then restarted: the
            # one checked is drawn after the guide's lines.
            self.obs["start_to_first_frame_s"] = self.first_frame(guest, t0, "resumed")
            guest.key("esc")  # the "game resumed" note stays until the table's next action
            events = self.export(guest)
            # Nothing is pressed from here to the kill -9: this is the game the kill must not
            # lose (kill9 compares the export after the restart with it).
            self.obs["kill9_events_before"] = events
            ref = self.reference(events, "table", "table-ref")
            self.obs["table_match"] = self.matches(guest, ref, "table-kmsdrm")
            # What the tolerance admits, recorded beside it: a black screen must not pass.
            self.obs["black_match"] = round(same_picture(bytes(len(ref)), ref), 4)
        except Exception:
            self.obs["errors"]["screen"] = traceback.format_exc()[-3000:]

    def kill9(self, guest: Guest) -> None:
        if "kill9_events_before" not in self.obs:  # the screen check broke before its export
            self.obs["kill9_events_before"] = self.export(guest)
        before = guest.unit("MainPID", "NRestarts")
        self.obs["shader_cache_before_kill"] = self.shader_cache(guest)
        guest.sh(f"kill -9 {before['MainPID']}")
        t0 = time.monotonic()
        deadline = t0 + 120
        after = before
        while time.monotonic() < deadline:
            after = guest.unit("MainPID", "NRestarts", "ActiveState")
            if after["MainPID"] not in ("0", before["MainPID"]) and after["ActiveState"] == "active":
                break
            time.sleep(0.5)
        self.obs["kill9"] = {"before": before, "after": after}
        self.obs["shader_cache_after_restart"] = self.shader_cache(guest)
        export, games = self.commands(guest, ["export"], ["games", "--lang", "en"])
        self.obs["kill9_events_after"] = events_of(export)
        self.obs["kill9_games"] = games
        try:
            self.obs["restart_to_first_frame_s"] = self.first_frame(guest, t0, "restarted")
            guest.key("esc")
            ref = self.reference(self.obs["kill9_events_after"], "table", "table-ref2")
            self.obs["kill9_table_match"] = self.matches(guest, ref, "table-after-kill")
        except Exception:
            self.obs["errors"]["screen_after_kill"] = traceback.format_exc()[-3000:]

    def before_cut(self, guest: Guest) -> None:
        """Presses on the keyboard (through evdev, as a table's keys would), then the plug."""
        # The game as the kill -9 phase last exported it (nothing pressed since), else anew.
        n0 = len(self.obs.get("kill9_events_after") or self.export(guest))
        guest.key("1", "2", "3")
        deadline = time.monotonic() + 60
        committed = self.export(guest)
        while len(committed) < n0 + 3 and time.monotonic() < deadline:
            time.sleep(1)
            committed = self.export(guest)
        self.obs["presses_journaled"] = len(committed) - n0
        self.obs["committed_before_cut"] = committed
        guest.key("4")  # a press on its way to the journal when the plug goes
        guest.power_cut()

    def after_cut(self, guest: Guest) -> None:
        self.obs["reboot_to_agent_s"] = round(guest.wait_agent(), 1)
        export, self.obs["after_cut_games"] = self.commands(guest, ["export"], ["games", "--lang", "en"])
        self.obs["after_cut_events"] = events_of(export)
        self.obs["after_cut_unit"] = guest.unit("ActiveState", "NRestarts")

    def kiosk_blocks(self, guest: Guest, check_only: bool) -> list[dict[str, Any]]:
        """docs/kiosk.md's blocks, line by line, as the user each names. ``check_only``: its
        leading blocks that only read ("Check it"); else the others, the phones' (on, then off
        again), with the GPIO config put in place before the last restart of the unit, so that
        this restart is the one that starts the kiosk the gpio phase watches."""
        blocks = doc_blocks(KIOSK)
        n_check = next((i for i, b in enumerate(blocks) if any(map(CHANGES.search, b.lines))), len(blocks))
        if check_only:
            blocks = blocks[:n_check]
        else:
            blocks = blocks[n_check:]
            restarts = [i for i, b in enumerate(blocks) if any(map(RESTARTS.search, b.lines))]
            last_restart = restarts[-1] if restarts else len(blocks)
        ran = []
        for i, block in enumerate(blocks):
            if not check_only and i == last_restart:
                self.gpio_config(guest)
            for line in filter(runnable, block.lines):
                code, out = guest.sh(
                    line, user="companion" if block.where == "pi-companion" else None, check=False
                )
                ran.append({"line": line, "exit": code, "out": out[-3000:]})
                if "systemd-analyze security" in line:
                    self.obs["security"] = out[-3000:]
                if RESTARTS.search(line) and self.obs.get("gpio_configured"):
                    self.gpio_started = time.monotonic()
        return ran

    def security(self, guest: Guest) -> None:
        """docs/kiosk.md's blocks after "Check it" (run during the keyboard phase's watch)."""
        self.obs["kiosk_lines"] = self.obs.get("kiosk_lines", []) + self.kiosk_blocks(guest, check_only=False)

    def gpio_config(self, guest: Guest) -> None:
        """``source = "gpio"`` in the config (not yet started): on a simulated Pi header with
        the seeded GPIO game where the kernel has gpio-sim, else on a fresh journal and no chip."""
        try:
            config = (
                '[input]\nsource = "gpio"\n\n[gpio]\n'
                "seats = [{ button = 17 }, { button = 27 }, { button = 22 }, { button = 23 }]\n"
            )
            if SUITE.gpio_sim:
                lines = guest.sh("set -e\n" + MAKE_SIM_CHIP)[1].strip().splitlines()
                self.sim_base, self.obs["gpio_chip"] = lines[-2], lines[-1]
                config = GPIO_SIM_CONFIG
                # The kiosk says when each frame is shown (its stderr, the unit's journal): the
                # kernel edge to frame figures are read from there.
                guest.sh(
                    "mkdir -p /etc/systemd/system/companion.service.d && printf "
                    "'[Service]\\nEnvironment=COMPANION_TRACE_FRAMES=1\\n' > "
                    "/etc/systemd/system/companion.service.d/90-boot-test-frames.conf && "
                    "systemctl daemon-reload"
                )
            guest.sh(
                f"cp {CONFIG} {CONFIG}.keyboard && cat > {CONFIG} <<'EOF'\n{config}EOF", user="companion"
            )
            # A new game opens on the configured source: the unfinished one is set aside.
            guest.sh(f"COMPANION_DATA_DIR={DATA} {COMPANION} games --lang en", user="companion")
            fresh = f"mv {DATA}.gpio {DATA}" if SUITE.gpio_sim else f"mkdir {DATA}"
            guest.sh(f"mv {DATA} {DATA}.kept && {fresh}", user="companion")
            self.obs["gpio_configured"] = True
        except Exception:
            self.obs["errors"]["gpio_config"] = traceback.format_exc()[-3000:]

    def gpio(self, guest: Guest) -> None:
        """``source = "gpio"``: the table stays up, on a simulated header (then pressed through
        the kernel: ``kernel_edges``) or on a machine with no GPIO (and says so)."""
        if not self.obs.get("gpio_configured"):  # kiosk.md broke before its last restart
            self.gpio_config(guest)
            if not self.obs.get("gpio_configured"):
                raise RuntimeError("the GPIO config could not be put in place")
        if self.gpio_started is None:  # kiosk.md restarted nothing after the GPIO config
            guest.sh("systemctl restart companion")
            self.gpio_started = time.monotonic()
        t0 = self.gpio_started
        with ThreadPoolExecutor(1) as pool:
            watching: Future[list[dict[str, str]]] = pool.submit(self.watch, guest, STABLE_S)
            try:
                self.obs["gpio_first_frame_s"] = self.first_frame(guest, t0, "gpio")
            except TimeoutError as err:
                self.obs["gpio_first_frame_s"] = str(err)
            self.obs["gpio_watch"] = watching.result()
        _, out = guest.sh("journalctl -u companion -b --no-pager -n 60 | grep -v '#frame'", check=False)
        self.obs["gpio_log"] = out[-4000:]
        if SUITE.gpio_sim:
            self.phase("kernel_edges", lambda: self.kernel_edges(guest))

    def press(self, guest: Guest, step: str, *args: str) -> Any:
        """The presser (PRESSER) run in the guest as root by Debian's Python."""
        argv = " ".join(f"'{a}'" for a in (self.sim_base, step, *args))
        _, out = guest.sh(f"python3 - {argv} <<'EOF'\n{PRESSER}\nEOF")
        return json.loads(out.strip().splitlines()[-1])

    def wait_export(self, guest: Guest, done: Callable[[list[str]], bool], timeout: float = 120) -> list[str]:
        deadline = time.monotonic() + timeout
        events = self.export(guest)
        while not done(events) and time.monotonic() < deadline:
            time.sleep(1)
            events = self.export(guest)
        return events

    def kernel_edges(self, guest: Guest) -> None:
        """Seats pressed by their lines' pulls, the kernel stamping each edge: a slap with
        presses 1 ms apart and a bouncing contact, the referee's confirm, a burst past the
        kernel's buffer; what the journal, the LEDs' lines and the screen then say."""
        pid = guest.unit("MainPID")["MainPID"]
        n0 = len(self.export(guest))
        plan = [(name, BUTTONS[name], at, 3 if i == 0 else 0) for i, (name, at) in enumerate(SLAP)]
        self.obs["sim_slap"] = self.press(guest, "slap", json.dumps(plan))
        presses = self.wait_export(guest, lambda ev: sum('"press"' in e for e in ev[n0:]) >= len(SLAP))
        self.obs["sim_after_slap"] = presses[n0:]
        leds = sorted(LEDS.values())
        self.obs["sim_leds_pressed"] = self.press(guest, "leds", json.dumps(leds), "0.5")
        # The window closes slap_timeout_ms (5 s) after the first press; the referee confirms.
        time.sleep(6)
        self.obs["sim_confirm"] = self.press(guest, "press", str(CONFIRM))
        events = self.wait_export(guest, lambda ev: any('"verdict"' in e for e in ev[n0:]))
        self.obs["sim_events"] = events
        self.obs["sim_leds_verdict"] = self.press(guest, "leds", json.dumps(leds), "1.5")
        try:
            guest.key("esc")  # a note left on the screen goes, as on the keyboard phase
            # After a verdict the table shows the slap (who lost, by how much, the card to
            # enter) until the card is entered: the snapshot of that screen.
            ref = self.reference(events, "slap", "sim-ref")
            self.obs["sim_table_match"] = self.matches(guest, ref, "sim-table")
        except Exception:
            self.obs["errors"]["sim_screen"] = traceback.format_exc()[-3000:]
        self.obs["sim_burst"] = self.press(guest, "burst", str(BUTTONS["Alice"]), pid, "700")
        self.obs["sim_after_burst"] = self.export(guest)[len(events) :]
        self.obs["sim_unit_after_burst"] = guest.unit("MainPID", "ActiveState", "NRestarts")
        self.obs["sim_pid_before_burst"] = pid
        _, frames = guest.sh("journalctl -u companion -b -o cat --no-pager | grep '^#frame'", check=False)
        self.obs["sim_frames_ns"] = [
            int(line.split()[2]) for line in frames.splitlines() if line.count(" ") == 2
        ]
        self.obs["edge_to_frame_ms"] = edge_to_frame(
            [w for k, w in self.obs["sim_slap"].items() if " " not in k] + [self.obs["sim_confirm"]["press"]],
            self.obs["sim_frames_ns"],
        )


def edge_to_frame(windows: list[list[int]], frames_ns: list[int]) -> list[float]:
    """For each edge (the window [before, after] of the write that made it, which holds its
    kernel stamp), ms from the write's start to the first frame the kiosk showed after it: at
    most the stamp-to-flip time plus the write's own length (tens of µs)."""
    out = []
    for before, after in windows:
        shown = [t for t in frames_ns if t >= after]
        if shown:
            out.append(round((min(shown) - before) / 1e6, 2))
    return out


def events_of(export: str) -> list[str]:
    return [line for line in export.splitlines() if line.startswith("{")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    out = Path(args.out or tempfile.mkdtemp(prefix="companion-boot-"))
    out.mkdir(parents=True, exist_ok=True)
    scenario = Scenario(out)
    t0 = time.monotonic()
    scenario.run()
    scenario.obs["total_s"] = round(time.monotonic() - t0, 1)
    scenario.obs["done"] = True
    scenario.save()
    log(f"observations in {out / 'observations.json'} ({scenario.obs['total_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
