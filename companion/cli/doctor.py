"""``companion doctor``: what works and what does not on this machine, one line per check, with
the fix for each failure. It never crashes: a check that breaks is itself reported as a failure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from companion.advice import pip, pip_install
from companion.cli.screen_state import Screen
from companion.cli.screen_state import screen_state as read_screen_state
from companion.cli.unit_file import NOT_BOOTED, Unit, readable_by
from companion.i18n import count, french_typography, number

Status = Literal["ok", "fail", "skip"]
MIN_PYTHON = (3, 11)
SYSTEMD_UNIT = Path("/etc/systemd/system/companion.service")
DISPLAY_TIMEOUT_S = 1.5


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report: what was checked, what was found, and the fix if it failed."""

    key: str
    status: Status
    en: str
    fr: str
    fix_en: str = ""
    fix_fr: str = ""

    def line(self, lang: str) -> str:
        tag = {"ok": "[ok]  ", "fail": "[FAIL]" if lang == "en" else "[ÉCHEC]", "skip": "[--]  "}
        title = TITLES[self.key][0 if lang == "en" else 1]
        text = self.en if lang == "en" else self.fr
        out = (
            f"{tag[self.status]} {title}: {text}" if lang == "en" else f"{tag[self.status]} {title} : {text}"
        )
        fix = self.fix_en if lang == "en" else self.fix_fr
        if fix:
            out += (" → fix: " if lang == "en" else " → solution : ") + fix
        return out if lang == "en" else french_typography(out)


TITLES = {
    "python": ("Python", "Python"),
    "config": ("config", "configuration"),
    "display": ("display", "écran"),
    "graphics": ("graphics libraries", "bibliothèques graphiques"),
    "gpio": ("GPIO", "GPIO"),
    "buttons": ("buttons", "boutons"),
    "serial": ("Pico board", "boîtier Pico"),
    "data": ("data folder", "dossier de données"),
    "journal": ("journal", "journal"),
    "service": ("systemd service", "service systemd"),
    "voice": ("voice", "voix"),
}


@dataclass
class Context:
    """What the checks look at; every part can be given, as the tests and the command line do."""

    config_path: Path | None = None
    data_dir: Path | None = None
    port: str | None = None
    pin_factory: Any = None  # gpiozero's MockFactory in tests; else the buttons go through libgpiod
    open_chip: Callable[[str], Any] | None = None  # gpiod.Chip, or the tests' model of the kernel
    chip_paths: Callable[[], list[str]] | None = None  # the /dev/gpiochip* to look at
    unit: Path = SYSTEMD_UNIT
    display_env: dict[str, str] | None = None
    systemctl: str | None = None  # the systemctl to ask (default: the one on PATH)
    dri: Path = Path("/dev/dri")  # where a KMS screen's cards are
    sysfs: Path = Path("/sys")  # the kernel's devices: a screen on its way shows there first
    # There while udev has events to work through (loading drivers, making device nodes): what
    # `udevadm settle` waits on.
    udev_queue: Path = Path("/run/udev/queue")
    # Whether a shared library can be loaded (default: the dynamic loader itself).
    loadable: Callable[[str], bool] | None = None
    config: Any = None  # the HardwareConfig once read
    # The speech engine's path (default: espeak-ng on PATH) and whether an audio device opens
    # (default: SDL's mixer, in a child process): what the voice needs, in the tests' hands too.
    speech_engine: Callable[[], str | None] | None = None
    audio_device: Callable[[], bool] | None = None
    found: dict[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str:
        return "keyboard" if self.config is None else str(self.config.input.source)

    def uses(self, name: str) -> bool:
        return name in self.source.split("+")


def ok(key: str, en: str, fr: str) -> Check:
    return Check(key, "ok", en, fr)


def skip(key: str, en: str, fr: str) -> Check:
    return Check(key, "skip", en, fr)


def fail(key: str, en: str, fr: str, fix_en: str, fix_fr: str) -> Check:
    return Check(key, "fail", en, fr, fix_en, fix_fr)


def _from_error(key: str, err: Any) -> Check:
    """A CompanionError already says what is wrong and the fix, in one sentence per language."""
    return Check(key, "fail", err.en, err.fr)


# --- the checks --------------------------------------------------------------------------------


def check_python(ctx: Context) -> Check:
    v = sys.version_info
    here = f"{v.major}.{v.minor}.{v.micro}"
    if (v.major, v.minor) >= MIN_PYTHON:
        return ok("python", f"{here} ({sys.executable})", f"{here} ({sys.executable})")
    need = ".".join(map(str, MIN_PYTHON))
    return fail(
        "python",
        f"{here} is too old: the companion needs {need} or newer",
        f"{here} est trop ancien : il faut {need} ou plus récent",
        "install Raspberry Pi OS Bookworm or newer (Python 3.11), then recreate the venv",
        "installez Raspberry Pi OS Bookworm ou plus récent (Python 3.11), puis recréez le venv",
    )


def check_config(ctx: Context) -> Check:
    from companion.errors import CompanionError
    from companion.hardware.config import HardwareConfig, default_config_path, load_config

    path = ctx.config_path
    try:
        ctx.config = load_config(path)
    except CompanionError as err:
        ctx.config = HardwareConfig()
        return _from_error("config", err)
    shown = path or default_config_path()
    if path is None and not shown.exists():
        return ok(
            "config",
            f"no file at {shown}: defaults (input {ctx.source})",
            f"pas de fichier {shown} : réglages par défaut (entrée {ctx.source})",
        )
    seats = len(ctx.config.gpio.seats)
    return ok(
        "config",
        f"{shown} is valid (input {ctx.source}, {count(seats, 'GPIO seat', 'GPIO seats', 'en')})",
        f"{shown} est valide (entrée {ctx.source}, {count(seats, 'place GPIO', 'places GPIO', 'fr')})",
    )


_DISPLAY_PROBE = (
    "import os\nos.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
    "import pygame\npygame.display.init()\nprint(pygame.display.get_driver())\n"
    "info = pygame.display.Info()\nprint(info.current_w, info.current_h)\n"
)


def start_display_probe(ctx: Context) -> subprocess.Popen[str]:
    """pygame opens the display in a child process: SDL may hang or crash, doctor may not. It
    starts first and runs while the other checks do."""
    env = dict(os.environ if ctx.display_env is None else ctx.display_env)
    return subprocess.Popen(
        [sys.executable, "-c", _DISPLAY_PROBE],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _no_screen(env: dict[str, str]) -> Check:
    """No screen to expect here: over SSH, or the kiosk's service holding the only one. A note,
    not a failure (a correct headless install exits 0)."""
    if env.get("SSH_CONNECTION") or env.get("SSH_TTY"):
        return skip("display", "no screen here (normal over SSH)", "pas d'écran ici (normal par SSH)")
    return skip(
        "display",
        "no screen here (normal over SSH, or while the companion's service "
        "holds it); set SDL_VIDEODRIVER to check one",
        "pas d'écran ici (normal par SSH, ou quand le service du companion le tient) ; "
        "réglez SDL_VIDEODRIVER pour en vérifier un",
    )


def _screen_holder(ctx: Context) -> str | None:
    """The kiosk's unit when it is running: it holds the screen. Probing the screen then would
    fight it for the DRM device (and, while it is still starting, make it fail and restart)."""
    if not ctx.unit.exists():
        return None
    answered, state = _unit_state(ctx)
    return ctx.unit.name if answered and state in ("active", "activating", "reloading") else None


def _unit_state(ctx: Context) -> tuple[bool, str]:
    """``systemctl is-active`` of the unit, asked once per run (the screen check and the service
    check both need it; each call is a process and up to 2 s)."""
    if "unit_state" not in ctx.found:
        ctx.found["unit_state"] = _systemctl(ctx, "is-active", ctx.unit.name)
    answer: tuple[bool, str] = ctx.found["unit_state"]
    return answer


def screen_state(ctx: Context) -> Screen:
    """The screen's state as this machine's sysfs, /dev/dri and udev queue say (screen_state.py)."""
    return read_screen_state(ctx.sysfs, ctx.dri, ctx.udev_queue)


def _late(key: str, screen: Screen) -> Check:
    return skip(
        key,
        f"the screen is late, not absent: {screen.en}; the companion's service waits for it "
        "(run doctor again in a minute)",
        f"l'écran est en retard, pas absent : {screen.fr} ; le service du companion l'attend "
        "(relancez doctor dans une minute)",
    )


def check_display(ctx: Context) -> Check:
    # (not .get(key, default): the default would ask systemctl again every time)
    holder = ctx.found["screen_holder"] if "screen_holder" in ctx.found else _screen_holder(ctx)
    if holder is not None:
        return skip(
            "display",
            f"{holder} is running and holds the screen (sudo systemctl stop "
            f"{holder} to check the screen here)",
            f"{holder} tourne et tient l'écran (sudo systemctl stop {holder} pour vérifier l'écran ici)",
        )
    env = dict(os.environ if ctx.display_env is None else ctx.display_env)
    chosen = env.get("SDL_VIDEODRIVER")
    # A screen was asked for (a driver, a window system): not finding it is a failure.
    expected = bool(chosen or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    fix_en = (
        "on the Pi run from its console with SDL_VIDEODRIVER=kmsdrm and the user in the "
        "video and render groups (docs/install-pi.md), or from a desktop session; over SSH "
        "there is no screen"
    )
    fix_fr = (
        "sur le Pi lancez depuis sa console avec SDL_VIDEODRIVER=kmsdrm et l'utilisateur "
        "dans les groupes video et render (docs/install-pi.md), ou depuis une session de "
        "bureau ; par SSH il n'y a pas d'écran"
    )
    screen = screen_state(ctx)
    if screen.state == "late":  # SDL would find no screen: not a fault, not yet
        started = ctx.found.pop("display_probe", None)
        if started is not None:
            started.kill()
            started.communicate()
        return _late("display", screen)
    probe = ctx.found.pop("display_probe", None) or start_display_probe(ctx)
    try:
        out, err = probe.communicate(timeout=DISPLAY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        probe.kill()
        probe.communicate()
        return fail(
            "display",
            f"SDL took more than {number(DISPLAY_TIMEOUT_S, 'g', 'en')} s to open a display",
            f"SDL a mis plus de {number(DISPLAY_TIMEOUT_S, 'g', 'fr')} s à ouvrir un écran",
            fix_en,
            fix_fr,
        )
    proc = subprocess.CompletedProcess(probe.args, probe.returncode, out, err)
    lines = proc.stdout.split()
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1][:120]
        if "No module named 'pygame'" in proc.stderr:
            return fail(
                "display",
                "pygame is not installed",
                "pygame n'est pas installé",
                f"{pip()} install pygame-ce",
                f"{pip()} install pygame-ce",
            )
        if not expected:
            return _no_screen(env)
        with_driver = f" with SDL_VIDEODRIVER={chosen}" if chosen else ""
        return fail(
            "display",
            f"no display available{with_driver} ({last})",
            f"aucun écran disponible{with_driver} ({last})",
            fix_en,
            fix_fr,
        )
    driver = lines[0]
    size = "x".join(lines[1:3])
    if driver in ("offscreen", "dummy") and not chosen:
        if not expected:
            return _no_screen(env)
        return fail(
            "display",
            f"no display available (SDL fell back to {driver})",
            f"aucun écran disponible (SDL s'est rabattu sur {driver})",
            fix_en,
            fix_fr,
        )
    return ok("display", f"SDL driver {driver}, {size}", f"pilote SDL {driver}, {size}")


# What SDL's kmsdrm driver (inside pygame-ce's wheel) loads to draw without a desktop, each with
# the Debian package that ships it. Desktop OpenGL is among them: without libOpenGL SDL falls back
# to its OpenGL ES renderer, and with Mesa's software rasteriser that renderer's textures stay
# empty, so the screen stays black while the table runs (found by the boot test, tests/boot/).
KMSDRM_LIBRARIES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("libEGL.so.1",), "libegl1"),
    (("libgbm.so.1",), "libgbm1"),
    (("libOpenGL.so.0", "libGL.so.1"), "libopengl0"),
)


def _loadable(name: str) -> bool:
    import ctypes

    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def check_graphics(ctx: Context) -> Check:
    # A screen on its way needs the libraries as much as one that is there.
    if not any(ctx.dri.glob("card*")) and screen_state(ctx).state != "late":
        return skip(
            "graphics",
            "no DRM device here (a desktop draws the window)",
            "pas de périphérique DRM ici (le bureau dessine la fenêtre)",
        )
    loadable = ctx.loadable or _loadable
    missing = [package for names, package in KMSDRM_LIBRARIES if not any(loadable(name) for name in names)]
    if not missing:
        return ok(
            "graphics",
            "EGL, GBM and OpenGL for SDL's kmsdrm driver",
            "EGL, GBM et OpenGL pour le pilote kmsdrm de SDL",
        )
    packages = " ".join(missing)
    return fail(
        "graphics",
        f"the screen would stay black: {packages} missing",
        f"l'écran resterait noir : il manque {packages}",
        f"sudo apt install -y {packages}",
        f"sudo apt install -y {packages}",
    )


def check_gpio(ctx: Context) -> Check:
    """The header's chip, found as the table finds it (its lines' names, through libgpiod)."""
    wanted = ctx.uses("gpio")
    if ctx.pin_factory is not None:
        name = type(ctx.pin_factory).__name__
        return ok("gpio", f"pin factory {name} (given)", f"fabrique de broches {name} (donnée)")
    from companion.errors import HardwareError
    from companion.inputs.gpiochip import (
        NO_GPIOD,
        NoHeaderChip,
        chip_paths,
        find_header_chip,
        gpiod_available,
    )

    if ctx.open_chip is None and not gpiod_available():
        if not wanted:
            return skip(
                "gpio",
                f"libgpiod's Python binding (gpiod) is not installed; input is {ctx.source}",
                f"l'interface Python de libgpiod (gpiod) n'est pas installée ; l'entrée est {ctx.source}",
            )
        return _from_error("gpio", HardwareError(NO_GPIOD))
    chip = ctx.config.gpio.chip if ctx.config is not None else None
    paths = ctx.chip_paths if ctx.chip_paths is not None else chip_paths
    try:
        path = find_header_chip(chip, open_chip=ctx.open_chip, paths=paths)
        import gpiod

        opener = ctx.open_chip if ctx.open_chip is not None else gpiod.Chip
        with contextlib.closing(opener(path)) as opened:
            info = opened.get_info()
    except (HardwareError, OSError) as err:
        en, fr = getattr(err, "en", str(err)), getattr(err, "fr", str(err))
        if not wanted:
            if isinstance(err, NoHeaderChip):  # a laptop: normal, and no fix to give
                seen_en, seen_fr = err.looked.en, err.looked.fr
                return skip(
                    "gpio",
                    f"no Raspberry Pi GPIO header here (chips: {seen_en}); input is {ctx.source}",
                    f"pas de connecteur GPIO de Raspberry Pi ici (puces : {seen_fr}) ; "
                    f"l'entrée est {ctx.source}",
                )
            return skip("gpio", f"{en} (input is {ctx.source})", f"{fr} (l'entrée est {ctx.source})")
        return fail(
            "gpio",
            f"the config reads buttons from GPIO: {en}",
            f"la configuration lit les boutons sur le GPIO : {fr}",
            'run on a Raspberry Pi, or set [input] source = "keyboard"',
            'lancez sur un Raspberry Pi, ou réglez [input] source = "keyboard"',
        )
    ctx.found["chip_path"] = path
    return ok(
        "gpio",
        f"{path} ({info.label}, {count(info.num_lines, 'line', 'lines', 'en')}), buttons through libgpiod",
        f"{path} ({info.label}, {count(info.num_lines, 'ligne', 'lignes', 'fr')}), boutons par libgpiod",
    )


def check_buttons(ctx: Context) -> Check:
    """Each button's level now, read through the source the table opens (libgpiod on a Pi)."""
    cfg = ctx.config
    if cfg is None or not cfg.gpio.seats:
        return skip("buttons", "no GPIO buttons in the config", "aucun bouton GPIO dans la configuration")
    if ctx.pin_factory is None and "chip_path" not in ctx.found:
        if not ctx.uses("gpio"):
            return skip("buttons", "GPIO not available here", "GPIO indisponible ici")
        return fail(
            "buttons",
            "cannot read the buttons without a GPIO chip",
            "impossible de lire les boutons sans puce GPIO",
            "fix the GPIO line above first",
            "réglez d'abord la ligne GPIO ci-dessus",
        )
    from companion.inputs.gpio import open_gpio_source
    from companion.inputs.gpio_pins import ButtonPin, ButtonPinError

    buttons = [ButtonPin(role, index, pin) for role, index, pin in cfg.gpio.button_pins()]
    try:
        source = open_gpio_source(
            buttons,
            chip=cfg.gpio.chip,
            settings=cfg.debounce.settings(),
            pin_factory=ctx.pin_factory,
            open_chip=ctx.open_chip,
            paths=lambda: [ctx.found["chip_path"]],
        )
    except ButtonPinError as err:  # the pin is taken (by a running companion?) or not there
        name_en, name_fr = err.button.label()
        pin = err.button.pin
        return fail(
            "buttons",
            f"cannot read GPIO{pin} ({name_en}): {err.cause}",
            f"impossible de lire GPIO{pin} ({name_fr}) : {err.cause}",
            "if the companion is running it holds the pins: sudo systemctl stop "
            "companion, then run doctor again",
            "si le companion tourne, il tient les broches : sudo systemctl stop "
            "companion, puis relancez doctor",
        )
    try:
        levels = source.levels()
    finally:
        source.stop()
    shown = []
    stuck = []
    for b, level in zip(buttons, levels, strict=True):
        name_en, name_fr = b.label()
        shown.append(f"{name_en} GPIO{b.pin}={level}")
        if not level:
            stuck.append((name_en, name_fr, b.pin))
    if stuck:
        en = ", ".join(f"{n} (GPIO{p})" for n, _, p in stuck)
        fr = ", ".join(f"{n} (GPIO{p})" for _, n, p in stuck)
        return fail(
            "buttons",
            f"pressed at rest, stuck or shorted to ground: {en}",
            f"appuyé au repos, coincé ou en court-circuit avec la masse : {fr}",
            "free the button, or check that its wire does not touch ground; "
            "`companion buttons` shows it live",
            "libérez le bouton, ou vérifiez que son fil ne touche pas la masse ; "
            "`companion buttons` le montre en direct",
        )
    n = len(shown)
    return ok(
        "buttons",
        f"{count(n, 'button', 'buttons', 'en')} "
        f"{'released' if n == 1 else 'all released'} ({', '.join(shown)})",
        f"{count(n, 'bouton', 'boutons', 'fr')} {'relâché' if n == 1 else 'tous relâchés'} "
        f"({', '.join(shown)})",
    )


def shipped_firmware_version() -> str | None:
    from companion.cli.firmware import firmware_dir

    try:
        text = (firmware_dir() / "buttonboard.py").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r"^FIRMWARE_VERSION\s*=\s*\((\d+),\s*(\d+),\s*(\d+)\)", text, re.M)
    return ".".join(found.groups()) if found else None


def check_serial(ctx: Context) -> Check:
    wanted = ctx.uses("serial") or ctx.port is not None
    try:
        import serial  # noqa: F401
    except ImportError:
        if not wanted:
            return skip(
                "serial",
                f"pyserial not installed (not needed: input is {ctx.source})",
                f"pyserial pas installé (inutile : l'entrée est {ctx.source})",
            )
        return fail(
            "serial",
            "pyserial is not installed",
            "pyserial n'est pas installé",
            pip_install("serial"),
            pip_install("serial"),
        )
    port = ctx.port
    if port is None:
        from companion.inputs.serial_source import find_board_port

        port = find_board_port()
    if port is None:
        if not wanted:
            return skip(
                "serial", "no Pico board plugged in (USB id 2E8A)", "aucun boîtier Pico branché (USB id 2E8A)"
            )
        return fail(
            "serial",
            "no Pico board plugged in (USB id 2E8A)",
            "aucun boîtier Pico branché (USB id 2E8A)",
            "plug the Pico in with a data USB cable; `companion firmware install` if it is new",
            "branchez le Pico avec un câble USB de données ; `companion firmware install` s'il est neuf",
        )
    from companion.cli.firmware import board_info
    from companion.errors import CompanionError

    try:
        info = board_info(port)
    except CompanionError as err:
        return _from_error("serial", err)
    shipped = shipped_firmware_version()
    rtt_en = rtt_fr = "?"
    if info["rtt_ms"] is not None:
        rtt_en, rtt_fr = (number(info["rtt_ms"], ".1f", lang) + " ms" for lang in ("en", "fr"))
    if shipped is not None and info["firmware"] != shipped:
        return fail(
            "serial",
            f"{port}: firmware {info['firmware']}, this companion ships {shipped}",
            f"{port} : firmware {info['firmware']}, ce companion fournit {shipped}",
            "companion firmware install",
            "companion firmware install",
        )
    return ok(
        "serial",
        f"{port}: firmware {info['firmware']} (as shipped), protocol "
        f"v{info['protocol']}, round trip {rtt_en}",
        f"{port} : firmware {info['firmware']} (celui fourni), protocole "
        f"v{info['protocol']}, aller-retour {rtt_fr}",
    )


def _data_dir(ctx: Context) -> Path:
    if ctx.data_dir is not None:
        return ctx.data_dir
    from companion.table.journal import default_data_dir

    return default_data_dir()


def check_data(ctx: Context) -> Check:
    folder = _data_dir(ctx)
    fix_en = (
        f"give the companion's user a folder it can write: sudo chown -R $USER {folder}, "
        "or pass --data-dir (or set COMPANION_DATA_DIR)"
    )
    fix_fr = (
        f"donnez au companion un dossier où il peut écrire : sudo chown -R $USER {folder}, "
        "ou indiquez --data-dir (ou COMPANION_DATA_DIR)"
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as err:
        why = err.strerror or str(err)
        return fail(
            "data",
            f"{folder} is not writable ({why})",
            f"{folder} n'est pas inscriptible ({why})",
            fix_en,
            fix_fr,
        )
    free = shutil.disk_usage(folder).free
    if free < 20 * 2**20:
        return fail(
            "data",
            f"{folder}: only {size_text(free, 'en')} free",
            f"{folder} : {size_text(free, 'fr')} libres seulement",
            "free some space on the SD card",
            "libérez de la place sur la carte SD",
        )
    return ok(
        "data",
        f"{folder} is writable ({size_text(free, 'en')} free)",
        f"{folder} est inscriptible ({size_text(free, 'fr')} libres)",
    )


def size_text(n_bytes: float, lang: str) -> str:
    """A size as a person reads it: "79,9 Go", "512 Mo" in French, "79.9 GB", "512 MB" in
    English (binary units, the way df -h counts)."""
    units = ("Mo", "Go", "To") if lang == "fr" else ("MB", "GB", "TB")
    value, unit = n_bytes / 2**20, 0
    while value >= 1024 and unit < len(units) - 1:
        value, unit = value / 1024, unit + 1
    return f"{number(value, '.1f' if unit and value < 100 else '.0f', lang)} {units[unit]}"


def check_journal(ctx: Context) -> Check:
    from companion.errors import CompanionError
    from companion.table.journal import FILENAME, Journal
    from companion.table.stats import records

    folder = _data_dir(ctx)
    path = folder / FILENAME
    aside_en = (
        f"move {path} aside (mv {path} {path}.broken) to start a new journal; "
        "`companion export` can still read the games that fold"
    )
    aside_fr = (
        f"mettez {path} de côté (mv {path} {path}.broken) pour commencer un nouveau "
        "journal ; `companion export` lit encore les parties qui se rejouent"
    )
    try:
        exists = path.exists()
    except OSError as err:
        exists = False
        return fail(
            "journal",
            f"{path} cannot be looked at ({err.strerror})",
            f"{path} est inaccessible ({err.strerror})",
            aside_en,
            aside_fr,
        )
    if not exists:
        return ok(
            "journal",
            f"no journal yet in {folder} (none played)",
            f"pas encore de journal dans {folder} (aucune partie)",
        )
    try:
        db = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True)
        try:
            rows = [r[0] for r in db.execute("PRAGMA integrity_check")]
        finally:
            db.close()
    except sqlite3.Error as err:
        rows = [str(err)]
    if rows != ["ok"]:
        return fail(
            "journal",
            f"{path} is damaged (SQLite: {rows[0]})",
            f"{path} est abîmé (SQLite : {rows[0]})",
            aside_en,
            aside_fr,
        )
    try:
        with Journal(folder, writer=False) as journal:  # also judges a -wal left by a crash
            # Every game folded through its engine, once: stats-cache.json keeps the games
            # already checked (by `games`, `history`, or the table when the game ended); every
            # event is re-read and fingerprinted, so a row changed in place is folded again.
            found = records(journal, cache_dir=folder, slaps=False, verify=True)
    except CompanionError as err:
        return Check("journal", "fail", err.en, err.fr)
    total = len(found)
    bad = [f"{r.id} ({r.error})" for r in found if r.error is not None]
    if bad:
        n_bad = len(bad)
        return fail(
            "journal",
            f"{number(n_bad, ',.0f', 'en')} of "
            f"{count(total, 'game', 'games', 'en')} "
            f"{'does' if n_bad == 1 else 'do'} not replay: {bad[0]}",
            f"{count(n_bad, 'partie', 'parties', 'fr')} sur {number(total, ',.0f', 'fr')} "
            f"ne {'se rejoue' if n_bad < 2 else 'se rejouent'} pas : {bad[0]}",
            aside_en,
            aside_fr,
        )
    every_en = "replays" if total == 1 else "all replay"
    every_fr = "qui se rejoue" if total < 2 else "qui se rejouent toutes"
    return ok(
        "journal",
        f"{path}: integrity ok, {count(total, 'game', 'games', 'en')} {every_en}",
        f"{path} : intégrité ok, {count(total, 'partie', 'parties', 'fr')} {every_fr}",
    )


def _systemctl(ctx: Context, *args: str) -> tuple[bool, str]:
    """(answered, text): systemctl's answer, or the first line of why it could not give one."""
    tool = ctx.systemctl or shutil.which("systemctl")
    if tool is None:
        return False, "systemctl is not installed"
    try:
        proc = subprocess.run([tool, *args], capture_output=True, text=True, timeout=2.0, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return False, str(err)
    if NOT_BOOTED in proc.stderr:
        return False, NOT_BOOTED
    out = proc.stdout.strip()
    return bool(out), out or (proc.stderr.strip().splitlines() or ["?"])[0]


def _unit_problem(ctx: Context, unit: Unit, name: str) -> Check | None:
    """What in the unit itself would stop the table (with the fix), else None."""
    reload_en = f"then sudo systemctl daemon-reload && sudo systemctl restart {name}"
    reload_fr = f"puis sudo systemctl daemon-reload && sudo systemctl restart {name}"
    uses_gpio = ctx.config is not None and ctx.uses("gpio")
    if not unit.runtime and unit.hides(f"/home/{unit.user}/.cache") and uses_gpio:
        return fail(
            "service",
            f"{name} gives {unit.user} no RuntimeDirectory=, and its sandbox "
            "(ProtectHome=) leaves no folder where the GPIO library can work",
            f"{name} ne donne pas de RuntimeDirectory= à {unit.user}, et son bac à sable "
            "(ProtectHome=) ne laisse aucun dossier où la bibliothèque GPIO peut "
            "travailler",
            f"add RuntimeDirectory=companion to its [Service] section ({ctx.unit}), " + reload_en,
            f"ajoutez RuntimeDirectory=companion à sa section [Service] ({ctx.unit}), " + reload_fr,
        )
    if unit.config is None:
        return None
    config = unit.config
    if unit.hides(config):
        return fail(
            "service",
            f"{name} reads {config}, which its sandbox (ProtectHome=) hides",
            f"{name} lit {config}, que son bac à sable (ProtectHome=) cache",
            f"add BindReadOnlyPaths={Path(config).parent} to {ctx.unit}, " + reload_en,
            f"ajoutez BindReadOnlyPaths={Path(config).parent} à {ctx.unit}, " + reload_fr,
        )
    path = Path(config)
    if not path.is_file():
        return fail(
            "service",
            f"{name} reads {config}, which does not exist",
            f"{name} lit {config}, qui n'existe pas",
            f"write it as {unit.user}: companion buttons --assign --output {config}",
            f"écrivez-le en tant que {unit.user} : companion buttons --assign --output {config}",
        )
    if readable_by(path, unit.user) is False:
        return fail(
            "service",
            f"{unit.user}, the user of {name}, may not read {config}",
            f"{unit.user}, l'utilisateur de {name}, ne peut pas lire {config}",
            f"sudo chown {unit.user}: {config}",
            f"sudo chown {unit.user}: {config}",
        )
    return None


def check_service(ctx: Context) -> Check:
    if not ctx.unit.exists():
        return skip("service", f"not installed ({ctx.unit})", f"pas installé ({ctx.unit})")
    name = ctx.unit.name
    answered, text = _systemctl(ctx, "cat", name)
    try:
        unit = Unit.parse(text if answered else ctx.unit.read_text(encoding="utf-8"))
    except OSError as err:
        return fail(
            "service",
            f"{ctx.unit} cannot be read ({err.strerror})",
            f"{ctx.unit} est illisible ({err.strerror})",
            f"sudo chmod a+r {ctx.unit}",
            f"sudo chmod a+r {ctx.unit}",
        )
    problem = _unit_problem(ctx, unit, name)
    if problem is not None:
        return problem
    answered, state = _unit_state(ctx)
    if state == NOT_BOOTED:
        return skip(
            "service",
            f"{name} is installed, but this system was not booted with "
            "systemd (a container or a chroot): it cannot run here",
            f"{name} est installé, mais ce système n'a pas démarré avec systemd (un "
            "conteneur ou un chroot) : il ne peut pas tourner ici",
        )
    if not answered and ctx.systemctl is None and shutil.which("systemctl") is None:
        return skip(
            "service", f"{ctx.unit} is there but systemctl is not", f"{ctx.unit} est là mais pas systemctl"
        )
    why_en = f"journalctl -u {name} -e shows why"
    why_fr = f"journalctl -u {name} -e dit pourquoi"
    if state != "active":
        screen = screen_state(ctx)
        if state in ("inactive", "activating") and screen.state == "late":
            return _late("service", screen)  # it starts when the card comes
        return fail(
            "service",
            f"{name} is {state}",
            f"{name} est {state}",
            f"{why_en}; sudo systemctl restart {name}",
            f"{why_fr} ; sudo systemctl restart {name}",
        )
    _, restarts = _systemctl(ctx, "show", "-p", "NRestarts", "--value", name)
    n = int(restarts) if restarts.isdigit() else 0
    if n > 0:
        return fail(
            "service",
            f"{name} is active but was restarted {count(n, 'time', 'times', 'en')} after failing",
            f"{name} est actif mais a été relancé {count(n, 'fois', 'fois', 'fr')} après un échec",
            f"{why_en}; fix that, then sudo systemctl restart {name} (it counts from 0 again)",
            f"{why_fr} ; corrigez-le, puis sudo systemctl restart {name} (le compte repart de 0)",
        )
    return ok("service", f"{name} is active, never restarted", f"{name} est actif, jamais relancé")


_AUDIO_PROBE = (
    "import os\nos.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
    "import pygame\npygame.mixer.init()\nprint(pygame.mixer.get_init())\n"
)


def _audio_device() -> bool:
    """SDL's mixer opens a device, in a child process (as the display probe: SDL may hang)."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _AUDIO_PROBE],
            capture_output=True,
            text=True,
            timeout=DISPLAY_TIMEOUT_S * 2,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def check_voice(ctx: Context) -> Check:
    """The table's voice (display/voice.py) needs espeak-ng and an audio device: a missing engine
    is a failure where a device would play it; no device is said, not failed."""
    from companion.display.voice import engine_path

    config = ctx.config
    if config is not None and config.sound.voice == "off":
        return skip("voice", 'turned off ([sound] voice = "off")', 'coupée ([sound] voice = "off")')
    engine = (ctx.speech_engine or engine_path)()
    if not (ctx.audio_device or _audio_device)():
        # Nothing would be heard anyway: said, not failed (a server, CI, a Pi without speakers).
        found_en = f"{engine} is ready" if engine else "espeak-ng is not installed"
        found_fr = f"{engine} est prêt" if engine else "espeak-ng n'est pas installé"
        return skip(
            "voice",
            f"no audio device opens here ({found_en}): the table stays silent",
            f"aucun périphérique audio ne s'ouvre ici ({found_fr}) : la table reste muette",
        )
    if engine is None:
        return fail(
            "voice",
            "espeak-ng is not installed: the verdicts are not said aloud",
            "espeak-ng n'est pas installé : les verdicts ne sont pas dits à voix haute",
            "sudo apt install -y espeak-ng",
            "sudo apt install -y espeak-ng",
        )
    return ok("voice", f"{engine} speaks on the audio device", f"{engine} parle sur le périphérique audio")


CHECKS: tuple[Callable[[Context], Check], ...] = (
    check_python,
    check_config,
    check_display,
    check_graphics,
    check_gpio,
    check_buttons,
    check_serial,
    check_data,
    check_journal,
    check_service,
    check_voice,
)


def run_checks(ctx: Context) -> Iterator[Check]:
    """Every check in turn; one that raises is reported as a failure, and the next one runs."""
    try:
        ctx.found["screen_holder"] = _screen_holder(ctx)
        if ctx.found["screen_holder"] is None:  # never probe a screen the kiosk holds
            with contextlib.suppress(OSError):  # check_display tries again and reports why
                ctx.found["display_probe"] = start_display_probe(ctx)
        for check in CHECKS:
            key = check.__name__.removeprefix("check_")
            try:
                yield check(ctx)
            except Exception as err:  # doctor never crashes, whatever it finds
                yield fail(
                    key,
                    f"the check itself failed ({type(err).__name__}: {err})",
                    f"la vérification elle-même a échoué ({type(err).__name__} : {err})",
                    "please report it with this line",
                    "signalez-le avec cette ligne",
                )
    finally:
        probe = ctx.found.pop("display_probe", None)
        if probe is not None:
            probe.kill()
            probe.communicate()


def cmd_doctor(args: argparse.Namespace) -> int:
    lang = args.lang
    ctx = Context(config_path=args.config, data_dir=args.data_dir, port=args.port)
    started = time.monotonic()
    results = []
    for check in run_checks(ctx):
        results.append(check)
        if not args.json:
            print(check.line(lang), flush=True)
    failed = sum(1 for c in results if c.status == "fail")
    if args.json:
        print(
            json.dumps(
                {
                    "checks": [asdict(c) for c in results],
                    "failed": failed,
                    "seconds": round(time.monotonic() - started, 3),
                },
                ensure_ascii=False,
            )
        )
    elif failed:
        print(
            f"{count(failed, 'check', 'checks', 'en')} failed."
            if lang == "en"
            else f"{count(failed, 'vérification', 'vérifications', 'fr')} en échec."
        )
    else:
        print("All good." if lang == "en" else "Tout va bien.")
    return 1 if failed else 0
