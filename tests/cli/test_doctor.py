"""``companion doctor``: one line per check, a fix for each failure, exit 1 if any fails, and no
crash whatever it finds. Real backends: gpiozero's MockFactory, the firmware behind a pty, real
SQLite files damaged on purpose."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.cli import doctor
from companion.cli.doctor import Context, run_checks
from companion.cli.screen_state import Screen
from companion.cli.unit_file import readable_by
from companion.i18n import french_typography
from tests.conftest import skip_unless_ci

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """
[input]
source = "gpio"
[gpio]
seats = [{ button = 17, led = 5 }, { button = 27 }, { button = 22 }]
[gpio.referee]
undo = 12
"""


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("SDL_VIDEODRIVER", "COMPANION_CONFIG", "COMPANION_DATA_DIR", "DISPLAY", "WAYLAND_DISPLAY")
    }
    env["HOME"] = str(tmp_path / "home")
    env.update(extra)
    return env


def _doctor(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "doctor", *args],
        env=_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )


def _by_key(ctx: Context) -> dict[str, doctor.Check]:
    return {c.key: c for c in run_checks(ctx)}


def test_nothing_attached_one_line_per_check_and_a_fix_for_each_failure(tmp_path: Path) -> None:
    # A correct headless install, over SSH: no screen is the normal case, not a failure.
    proc = _doctor(tmp_path, "--lang", "en", SSH_CONNECTION="10.0.0.2 5000 10.0.0.1 22")
    lines = proc.stdout.splitlines()
    assert len(lines) == len(doctor.CHECKS) + 1, proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout
    for line in lines[:-1]:
        assert line.startswith(("[ok]", "[FAIL]", "[--]")), line
        if line.startswith("[FAIL]"):
            assert " → fix: " in line
    assert "[--]   display: no screen here (normal over SSH)" in lines
    assert lines[-1] == "All good."
    assert proc.stderr == ""
    fr = _doctor(tmp_path, "--lang", "fr", SSH_TTY="/dev/pts/0")
    assert fr.returncode == 0 and "pas d\u2019écran ici (normal par SSH)" in fr.stdout


def test_a_screen_asked_for_and_not_found_is_a_failure(tmp_path: Path) -> None:
    proc = _doctor(tmp_path, "--lang", "en", SDL_VIDEODRIVER="no-such-driver")
    assert proc.returncode == 1
    line = next(x for x in proc.stdout.splitlines() if " display: " in x)
    assert line.startswith("[FAIL] display: no display available with SDL_VIDEODRIVER="), line
    assert proc.stdout.splitlines()[-1] == "1 check failed."


def test_all_good_exits_zero_in_french_and_json(tmp_path: Path) -> None:
    proc = _doctor(tmp_path, SDL_VIDEODRIVER="dummy")
    assert proc.returncode == 0, proc.stdout
    assert "[ok]   écran\u202f: pilote SDL dummy" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "Tout va bien."
    proc = _doctor(tmp_path, "--json", SDL_VIDEODRIVER="dummy")
    report = json.loads(proc.stdout)
    assert report["failed"] == 0
    assert [c["key"] for c in report["checks"]] == [
        "python",
        "config",
        "display",
        "graphics",
        "gpio",
        "buttons",
        "serial",
        "data",
        "journal",
        "service",
        "voice",
    ]


def test_corrupted_journal_is_one_failure_with_the_fix(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"SQLite format 3\0" + b"\x13" * 4000)
    proc = _doctor(tmp_path, "--data-dir", str(data), "--lang", "en", SDL_VIDEODRIVER="dummy")
    assert proc.returncode == 1
    line = next(x for x in proc.stdout.splitlines() if "journal:" in x)
    assert line.startswith("[FAIL] journal: ") and "is damaged" in line
    assert f"mv {data / 'journal.sqlite3'}" in line


def test_a_game_that_no_longer_replays_is_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    demo = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "demo",
            "--speed",
            "0",
            "--seed",
            "3",
            "--players",
            "3",
            "--rounds",
            "1",
            "--data-dir",
            str(data),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert demo.returncode == 0
    with sqlite3.connect(data / "journal.sqlite3") as db:
        game_id = db.execute("SELECT id FROM games").fetchone()[0]
        db.execute('UPDATE events SET payload = \'{"type": "draw"}\' WHERE seq = 3')
    check = _by_key(Context(data_dir=data))["journal"]
    assert check.status == "fail"
    assert check.en.startswith(f"1 of 1 game does not replay: {game_id}")
    assert check.fr.startswith(f"1 partie sur 1 ne se rejoue pas : {game_id}")
    assert check.fix_en and check.fix_fr


def test_unreadable_data_folder(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    checks = _by_key(Context(data_dir=not_a_folder / "data"))
    assert checks["data"].status == "fail"
    assert "is not writable" in checks["data"].en and "--data-dir" in checks["data"].fix_en
    assert checks["journal"].status in ("ok", "fail")  # looked at, no crash


def test_bad_config_is_reported_and_the_other_checks_still_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[gpio]\nseats = [{ button = 17 }, { button = 17 }]\n")
    proc = _doctor(tmp_path, "--config", str(bad), "--lang", "en", SDL_VIDEODRIVER="dummy")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("[FAIL] config: GPIO17 is used twice")
    assert len(lines) == len(doctor.CHECKS) + 1


class HeldPin(MockPin):  # type: ignore[misc]
    """A pin whose button is held down, or whose wire touches ground: the short to ground wins
    over the internal pull-up, so the pin reads 0 from the moment it is opened."""

    held: ClassVar[set[int]] = set()

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.info.name in {f"GPIO{n}" for n in self.held}:
            self.drive_low()


def test_stuck_button_is_named_and_released_ones_are_read(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG)
    factory = MockFactory()
    try:
        checks = _by_key(Context(config_path=cfg, data_dir=tmp_path, pin_factory=factory))
        assert checks["gpio"].status == "ok" and "MockFactory" in checks["gpio"].en
        assert checks["buttons"].status == "ok"
        assert "4 buttons all released" in checks["buttons"].en
    finally:
        factory.close()
    HeldPin.held = {27}  # seat 2 held down
    factory = MockFactory(pin_class=HeldPin)
    try:
        checks = _by_key(Context(config_path=cfg, data_dir=tmp_path, pin_factory=factory))
        assert checks["buttons"].status == "fail"
        assert checks["buttons"].en.endswith("stuck or shorted to ground: seat 2 (GPIO27)")
        assert "companion buttons" in checks["buttons"].fix_en
    finally:
        factory.close()


def test_a_pin_already_taken_is_named_with_the_fix(tmp_path: Path) -> None:
    from gpiozero import Button

    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG)
    factory = MockFactory()
    held = Button(22, pin_factory=factory)  # as the running companion would hold it
    try:
        check = _by_key(Context(config_path=cfg, data_dir=tmp_path, pin_factory=factory))["buttons"]
    finally:
        held.close()
        factory.close()
    assert check.status == "fail" and check.en.startswith("cannot read GPIO22 (seat 3)")
    assert "systemctl stop companion" in check.fix_en


@pytest.fixture
def fk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The model of the kernel's GPIO character device (tests/fakes), as on a Pi 5."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "fakes"))
    monkeypatch.delitem(sys.modules, "fake_kernel", raising=False)
    import fake_kernel

    fake_kernel.pi_chips()
    yield fake_kernel
    fake_kernel.CHIPS.clear()


def _kernel_ctx(tmp_path: Path, kernel: Any, config: str | None = CONFIG) -> Context:
    cfg = None
    if config is not None:
        cfg = tmp_path / "c.toml"
        cfg.write_text(config)
    return Context(config_path=cfg, data_dir=tmp_path, open_chip=kernel.open_chip, chip_paths=kernel.paths)


def test_the_header_chip_is_found_by_its_line_names_and_buttons_read_through_libgpiod(
    tmp_path: Path, fk: Any
) -> None:
    kernel = fk.FakeKernel()
    checks = _by_key(_kernel_ctx(tmp_path, kernel))
    assert checks["gpio"].status == "ok", checks["gpio"]
    assert checks["gpio"].en == ("/dev/gpiochip0 (pinctrl-rp1, 30 lines), buttons through libgpiod")
    assert checks["buttons"].status == "ok", checks["buttons"]
    assert checks["buttons"].en == (
        "4 buttons all released (seat 1 GPIO17=1, seat 2 GPIO27=1, seat 3 GPIO22=1, "
        "referee button undo GPIO12=1)"
    )
    # Read as the table reads them: one request per line, pulled up, both edges; then let go.
    assert "/dev/gpiochip0" in kernel.opened and kernel.requests == []
    assert fk.CHIPS[0].line(17).owner is None


def test_a_held_button_is_named_from_its_line_level(tmp_path: Path, fk: Any) -> None:
    kernel = fk.FakeKernel()
    fk.CHIPS[0].line(27).level = 0  # seat 2 closed to ground
    check = _by_key(_kernel_ctx(tmp_path, kernel))["buttons"]
    assert check.status == "fail"
    assert check.en == "pressed at rest, stuck or shorted to ground: seat 2 (GPIO27)"
    assert check.fr.startswith("appuyé au repos, coincé ou en court-circuit avec la masse")


def test_a_line_held_by_a_running_companion_is_named_with_the_fix(tmp_path: Path, fk: Any) -> None:
    kernel = fk.FakeKernel()
    chip = kernel.open_chip("/dev/gpiochip0")
    held = chip.request_lines({22: None})  # the running companion's request
    try:
        check = _by_key(_kernel_ctx(tmp_path, kernel))["buttons"]
    finally:
        held.release()
    assert check.status == "fail" and check.en.startswith("cannot read GPIO22 (seat 3): ")
    assert "systemctl stop companion" in check.fix_en
    assert "systemctl stop companion" in check.fix_fr
    assert kernel.requests == []  # the lines doctor did get are given back


def test_gpio_configured_on_a_machine_without_a_header_fails_with_the_fix(tmp_path: Path, fk: Any) -> None:
    fk.CHIPS.clear()
    fk.CHIPS[0] = fk.Chip("gpio-mockup-A", ["", "", "", ""])  # a laptop's only GPIO chip
    kernel = fk.FakeKernel()
    checks = _by_key(_kernel_ctx(tmp_path, kernel))
    assert checks["gpio"].status == "fail"
    assert "lines named GPIO0..GPIO27" in checks["gpio"].en
    assert "(looked at: /dev/gpiochip0)" in checks["gpio"].en
    assert "GPIO0..GPIO27" in checks["gpio"].fr
    assert 'source = "keyboard"' in checks["gpio"].fix_en
    assert checks["buttons"].status == "fail"
    assert kernel.requests == []  # nothing opened


def test_no_header_and_no_gpio_input_is_a_skip(tmp_path: Path, fk: Any) -> None:
    fk.CHIPS.clear()
    kernel = fk.FakeKernel()
    checks = _by_key(_kernel_ctx(tmp_path, kernel, config=None))
    assert checks["gpio"].status == "skip"
    assert checks["gpio"].en == (
        "no Raspberry Pi GPIO header here (chips: no /dev/gpiochip* at all); input is keyboard"
    )
    assert checks["gpio"].fr == (
        "pas de connecteur GPIO de Raspberry Pi ici (puces : aucun /dev/gpiochip*) ; l'entrée est keyboard"
    )
    assert checks["buttons"].status == "skip"


def test_a_chip_the_user_may_not_open_says_which_group(tmp_path: Path, fk: Any) -> None:
    kernel = fk.FakeKernel()
    kernel.denied.add("/dev/gpiochip0")
    check = _by_key(_kernel_ctx(tmp_path, kernel))["gpio"]
    assert check.status == "fail"
    assert "No permission to open /dev/gpiochip0" in check.en
    assert "sudo usermod -aG gpio $USER" in check.en
    assert "Pas le droit d’ouvrir /dev/gpiochip0" in check.fr


def test_pico_board_version_and_round_trip(tmp_path: Path) -> None:
    from tests.serial_helpers import FirmwareBoard  # type: ignore[import-not-found]

    board = FirmwareBoard(boot_id=5)
    try:
        check = _by_key(Context(data_dir=tmp_path, port=board.pty.path))["serial"]
    finally:
        board.close()
    assert check.status == "ok", check
    shipped = doctor.shipped_firmware_version()
    assert shipped is not None
    assert f"firmware {shipped} (as shipped)" in check.en and "round trip" in check.en


def test_a_port_that_is_not_our_board(tmp_path: Path) -> None:
    check = _by_key(Context(data_dir=tmp_path, port="loop://"))["serial"]
    assert check.status == "fail" and "companion firmware install" in check.en


def test_service_not_installed_is_skipped_and_a_dead_one_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _by_key(Context(data_dir=tmp_path, unit=tmp_path / "none.service"))["service"].status == "skip"
    unit = tmp_path / "companion-doctor-test.service"
    unit.write_text("[Unit]\n")
    # A systemctl of our own on PATH (a real program), answering as systemd does.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    systemctl = bin_dir / "systemctl"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for stdout, stderr, status, words in [
        ("inactive", "", "fail", "companion-doctor-test.service is inactive"),
        ("failed", "", "fail", "companion-doctor-test.service is failed"),
        ("active", "", "ok", "companion-doctor-test.service is active"),
        (
            "",
            "System has not been booted with systemd as init system (PID 1). Can't operate.\n"
            "Failed to connect to bus: Host is down",
            "skip",
            "this system was not booted with systemd",
        ),
    ]:
        systemctl.write_text(
            f"#!/bin/sh\nprintf '%s' '{stdout}'\nprintf '%s' \"{stderr}\" >&2\n"
            f"[ -n '{stdout}' ] && [ '{stdout}' != active ] && exit 3\n"
            "[ -z '{stdout}' ] && exit 1\nexit 0\n"
        )
        systemctl.chmod(0o755)
        check = _by_key(Context(data_dir=tmp_path, unit=unit))["service"]
        assert (check.status, words in check.en) == (status, True), (check.status, check.en)
        if status == "fail":
            assert "journalctl -u companion-doctor-test.service" in check.fix_en
        assert "Failed to connect" not in check.en


def test_a_check_that_breaks_is_a_failure_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def check_python(ctx: Context) -> doctor.Check:
        raise RuntimeError("boom")

    monkeypatch.setattr(doctor, "CHECKS", (check_python, doctor.check_data))
    checks = list(run_checks(Context(data_dir=tmp_path)))
    assert [c.status for c in checks] == ["fail", "ok"]
    assert "RuntimeError: boom" in checks[0].en


# --- numbers and counts ------------------------------------------------------------------------


def test_sizes_and_counts_are_written_as_each_language_writes_them(tmp_path: Path) -> None:
    assert doctor.size_text(79_866 * 2**20, "fr") == "78,0 Go"  # was "79,866 Mo"
    assert doctor.size_text(79_866 * 2**20, "en") == "78.0 GB"
    assert doctor.size_text(512 * 2**20, "fr") == "512 Mo"
    assert doctor.size_text(300 * 2**30, "en") == "300 GB"
    data = _by_key(Context(data_dir=tmp_path))["data"]
    assert " Go libres)" in data.fr or " Mo libres)" in data.fr or " To libres)" in data.fr
    assert "," not in data.en.rpartition("(")[2]  # no thousands comma read as a decimal one
    journal = tmp_path / "one"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "demo",
            "--speed",
            "0",
            "--seed",
            "3",
            "--players",
            "3",
            "--rounds",
            "1",
            "--data-dir",
            str(journal),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    check = _by_key(Context(data_dir=journal))["journal"]
    assert check.en.endswith("integrity ok, 1 game replays"), check.en
    assert check.fr.endswith("intégrité ok, 1 partie qui se rejoue"), check.fr
    config = tmp_path / "one-seat.toml"
    config.write_text("[gpio]\nseats = [{ button = 17 }]\n")
    check = _by_key(Context(data_dir=tmp_path, config_path=config))["config"]
    assert "1 GPIO seat)" in check.en and "1 place GPIO)" in check.fr


# --- the unit ----------------------------------------------------------------------------------

UNIT = """\
[Service]
User={user}
{runtime}ProtectHome=tmpfs
BindReadOnlyPaths=-/home/companion/.config/table-companion
ExecStart=/home/companion/venv/bin/companion play --fullscreen --resume \\
    --config {config}
"""


def fake_systemctl(tmp_path: Path, *, active: str = "active", restarts: int = 0, booted: bool = True) -> str:
    """A systemctl that answers as systemd would (a real program, run by doctor)."""
    tool = tmp_path / "systemctl"
    if booted:
        tool.write_text(f"""#!/bin/sh
echo "$@" >> "$0.calls"
case "$1" in
  cat) cat "$FAKE_UNIT" ;;
  is-active) echo {active}; [ {active} = active ] ;;
  show) echo {restarts} ;;
esac
""")
    else:
        tool.write_text(
            '#!/bin/sh\necho "System has not been booted with systemd as init system '
            '(PID 1). Can\'t operate." >&2\necho "Failed to connect to bus: Host is '
            'down" >&2\nexit 1\n'
        )
    tool.chmod(0o755)
    return str(tool)


def unit_context(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    runtime: bool = True,
    config: Path | None = None,
    **fake: object,
) -> Context:
    import getpass

    cfg = config or tmp_path / "conf" / "companion.toml"
    if config is None:
        cfg.parent.mkdir(exist_ok=True)
        cfg.write_text(CONFIG)
    unit = tmp_path / "companion.service"
    unit.write_text(
        UNIT.format(
            user=getpass.getuser(), config=cfg, runtime="RuntimeDirectory=companion\n" if runtime else ""
        )
    )
    monkeypatch.setenv("FAKE_UNIT", str(unit))
    return Context(data_dir=tmp_path, unit=unit, config_path=cfg, systemctl=fake_systemctl(tmp_path, **fake))  # type: ignore[arg-type]


def test_the_unit_as_it_should_be(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = _by_key(unit_context(tmp_path, monkeypatch))["service"]
    assert check.status == "ok" and "never restarted" in check.en, check


def test_restarts_are_a_problem_with_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = _by_key(unit_context(tmp_path, monkeypatch, restarts=3))["service"]
    assert check.status == "fail"
    assert "restarted 3 times after failing" in check.en and "relancé 3 fois" in check.fr
    assert "journalctl -u companion.service -e" in check.fix_en
    one = _by_key(unit_context(tmp_path, monkeypatch, restarts=1))["service"]
    assert "restarted 1 time after" in one.en


def test_a_unit_without_runtime_directory_under_protecthome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = _by_key(unit_context(tmp_path, monkeypatch, runtime=False))["service"]
    assert check.status == "fail" and "RuntimeDirectory=" in check.en
    assert "RuntimeDirectory=companion" in check.fix_en and "RuntimeDirectory=companion" in check.fix_fr


def test_a_config_the_unit_cannot_see_or_that_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hidden = Path("/home/nobody-here/companion.toml")
    ctx = unit_context(tmp_path, monkeypatch, config=hidden)
    ctx.config_path = None
    check = _by_key(ctx)["service"]
    assert check.status == "fail" and "hides" in check.en
    assert f"BindReadOnlyPaths={hidden.parent}" in check.fix_en
    missing = tmp_path / "gone" / "companion.toml"
    ctx = unit_context(tmp_path, monkeypatch, config=missing)
    ctx.config_path = None
    check = _by_key(ctx)["service"]
    assert check.status == "fail" and "does not exist" in check.en
    assert f"companion buttons --assign --output {missing}" in check.fix_en


def test_a_config_its_user_may_not_read(tmp_path: Path) -> None:
    import pwd

    try:
        pwd.getpwnam("nobody")
    except KeyError:
        skip_unless_ci("no user nobody here (Debian has one)")
    secret = tmp_path / "secret.toml"
    secret.write_text(CONFIG)
    secret.chmod(0o600)
    owner = pwd.getpwuid(secret.stat().st_uid).pw_name
    assert readable_by(secret, "nobody") is (owner == "nobody")
    assert readable_by(secret, owner) is True
    assert readable_by(secret, "no-such-user-here") is None


def test_a_machine_not_booted_with_systemd_says_so_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = _by_key(unit_context(tmp_path, monkeypatch, booted=False))["service"]
    assert check.status == "skip", check
    assert check.en == (
        "companion.service is installed, but this system was not booted with "
        "systemd (a container or a chroot): it cannot run here"
    )
    assert "\n" not in check.fr and "bus" not in check.en


def test_a_drm_screen_without_desktop_opengl_would_stay_black(tmp_path: Path) -> None:
    # The boot test found it: SDL's kmsdrm driver without libOpenGL falls back to its OpenGL ES
    # renderer, whose textures stay empty on Mesa's software rasteriser: a black table screen.
    dri = tmp_path / "dri"
    dri.mkdir()
    found = {"libEGL.so.1", "libgbm.so.1"}
    ctx = Context(dri=dri, loadable=lambda name: name in found)
    assert doctor.check_graphics(ctx).status == "skip"  # no DRM card: a desktop draws
    (dri / "card0").touch()
    check = doctor.check_graphics(ctx)
    assert check.line("en") == (
        "[FAIL] graphics libraries: the screen would stay black: "
        "libopengl0 missing → fix: sudo apt install -y libopengl0"
    )
    assert "il manque libopengl0" in check.line("fr")
    found.add("libGL.so.1")  # a desktop's GLVND libGL does as well
    assert doctor.check_graphics(ctx).status == "ok"
    found.discard("libgbm.so.1")
    assert "libgbm1 missing" in doctor.check_graphics(ctx).en


def test_doctor_asks_systemd_once_whether_the_unit_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each systemctl is a process (and up to 2 s on a loaded Pi): the screen check and the
    # service check share one answer.
    ctx = unit_context(tmp_path, monkeypatch)
    ctx.display_env = {"SDL_VIDEODRIVER": "dummy"}
    checks = _by_key(ctx)
    assert checks["display"].status == "skip" and checks["service"].status == "ok"
    calls = (tmp_path / "systemctl.calls").read_text().splitlines()
    assert calls.count("is-active companion.service") == 1, calls


def test_a_running_kiosk_keeps_its_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The boot test found it: doctor's screen probe opened the DRM device while the service was
    # still starting, and the service failed and was restarted. A running unit is not probed.
    ctx = unit_context(tmp_path, monkeypatch)
    ctx.display_env = {"SDL_VIDEODRIVER": "dummy"}  # a screen a probe would find at once
    display = _by_key(ctx)["display"]
    assert display.status == "skip", display
    assert display.en == (
        "companion.service is running and holds the screen (sudo systemctl "
        "stop companion.service to check the screen here)"
    )
    assert "tient l'écran" in display.fr
    stopped = unit_context(tmp_path, monkeypatch, active="inactive")
    stopped.display_env = {"SDL_VIDEODRIVER": "dummy"}
    assert _by_key(stopped)["display"].status == "ok"


class Machine:
    """A kernel's device tree as sysfs shows it (folders, attribute files, the symlinks of
    /sys/bus and /sys/class) and its /dev/dri, in a folder: doctor reads it as it reads /sys."""

    def __init__(self, root: Path) -> None:
        self.sysfs, self.dri, self.udev_queue = root / "sys", root / "dev" / "dri", root / "run" / "queue"
        self.dri.mkdir(parents=True)
        self.udev_queue.parent.mkdir()

    def device(self, path: str, bus: str, **attrs: str) -> Path:
        dev = self.sysfs / "devices" / path
        dev.mkdir(parents=True)
        for name, value in attrs.items():
            (dev / name).write_text(value + "\n")
        link = self.sysfs / "bus" / bus / "devices" / dev.name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(dev)
        return dev

    def bind(self, dev: Path, bus: str, driver: str) -> None:
        drv = self.sysfs / "bus" / bus / "drivers" / driver
        drv.mkdir(parents=True, exist_ok=True)
        (dev / "driver").symlink_to(drv)

    def card(self, dev: Path, n: int, *outputs: str, node: bool = True) -> None:
        cls = self.sysfs / "class" / "drm"
        cls.mkdir(parents=True, exist_ok=True)
        for name in (f"card{n}", *(f"card{n}-{o}" for o in outputs)):
            (dev / "drm" / f"card{n}" / name).mkdir(parents=True, exist_ok=True)
            (cls / name).symlink_to(dev / "drm" / f"card{n}" / name)
        (dev / "drm" / f"card{n}" / f"card{n}" / "device").symlink_to(dev)
        if node:
            (self.dri / f"card{n}").touch()

    def context(self, **kw: Any) -> Context:
        return Context(sysfs=self.sysfs, dri=self.dri, udev_queue=self.udev_queue, **kw)


def test_a_screen_on_its_way_is_late_not_absent(tmp_path: Path) -> None:
    # The boot test's machine: QEMU's virtio-gpu, whose DRM card came two minutes after
    # power-on under emulation (udev loading its driver): the screen is coming.
    m = Machine(tmp_path)
    pci = m.device("pci0000:00/0000:00:01.0", "pci", **{"class": "0x038000"})
    m.bind(pci, "pci", "virtio-pci")
    gpu = m.device("pci0000:00/0000:00:01.0/virtio1", "virtio", device="0x0010")
    ctx = m.context(display_env={"SDL_VIDEODRIVER": "kmsdrm"})
    assert doctor.screen_state(ctx).state == "absent"  # udev done, and no driver has it
    assert doctor.screen_state(ctx).en == "no driver has the graphics device virtio1"
    m.udev_queue.touch()  # udev still working through its events
    display = doctor.check_display(ctx)
    assert display.line("en") == (
        "[--]   display: the screen is late, not absent: the kernel has the graphics device "
        "virtio1, udev is still loading drivers; the companion's service waits for it (run "
        "doctor again in a minute)"
    )
    assert display.line("fr") == french_typography(
        "[--]   écran : l'écran est en retard, pas absent : le noyau a le périphérique graphique "
        "virtio1, udev charge encore les pilotes ; le service du companion l'attend (relancez "
        "doctor dans une minute)"
    )
    m.udev_queue.unlink()
    m.bind(gpu, "virtio", "virtio_gpu")  # its driver loaded: the card is being made
    assert doctor.screen_state(ctx).en == (
        "the driver virtio_gpu has the graphics device virtio1, its DRM card is not there yet"
    )
    assert "le pilote virtio_gpu a le périphérique graphique virtio1" in doctor.screen_state(ctx).fr
    m.card(gpu, 0, "Virtual-1", node=False)
    assert doctor.screen_state(ctx).state == "absent"  # no node, and udev has nothing left to do
    m.udev_queue.touch()
    assert doctor.screen_state(ctx).en == "the kernel has made card0, udev has not made /dev/dri/card0 yet"
    (m.dri / "card0").touch()
    assert doctor.screen_state(ctx) == Screen("ready", "/dev/dri/card0", "/dev/dri/card0")


def test_a_pi_5s_render_only_card_is_no_screen_and_its_display_card_may_be_late(tmp_path: Path) -> None:
    # A Pi 5: card0 is the 3D engine (v3d, no outputs); the display's card (vc4's driver on the
    # VideoCore) comes once all its parts are bound.
    m = Machine(tmp_path)
    v3d = m.device("platform/axi/1002000000.v3d", "platform", modalias="of:Nv3dT(null)Cbrcm,2712-v3d")
    m.bind(v3d, "platform", "v3d")
    m.card(v3d, 0)
    ctx = m.context()
    assert doctor.screen_state(ctx) == Screen(
        "absent", "card0: no display output", "card0 : aucune sortie d'écran"
    )
    gpu = m.device("platform/axi/axi:gpu", "platform", modalias="of:NgpuT(null)Cbrcm,bcm2712-vc6")
    m.bind(gpu, "platform", "vc4-drm")
    late = doctor.screen_state(ctx)
    assert late.state == "late" and "vc4-drm has the graphics device axi:gpu" in late.en
    m.card(gpu, 1, "HDMI-A-1", "HDMI-A-2", "Writeback-1")
    assert doctor.screen_state(ctx).state == "ready"


def test_nothing_graphic_is_absent(tmp_path: Path) -> None:
    m = Machine(tmp_path)
    m.udev_queue.touch()  # udev busy with other devices is no promise of a screen
    m.device("pci0000:00/0000:00:02.0", "pci", **{"class": "0x020000"})  # a network card
    assert doctor.screen_state(m.context()) == Screen(
        "absent", "no graphics device", "aucun périphérique graphique"
    )


def test_a_late_screen_has_its_libraries_checked_and_the_waiting_service_is_not_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = Machine(tmp_path / "machine")
    gpu = m.device("platform/gpu", "platform", modalias="of:NgpuT(null)Cbrcm,bcm2711-vc5")
    ctx = m.context(loadable=lambda name: name != "libOpenGL.so.0" and name != "libGL.so.1")
    assert doctor.check_graphics(ctx).status == "skip"  # nothing coming: nothing to draw with
    m.bind(gpu, "platform", "vc4-drm")
    assert "libopengl0 missing" in doctor.check_graphics(ctx).en  # coming: it would stay black
    # The unit waits on the screen's device (hardware/99-companion-screen.rules): inactive, not failed.
    waiting = unit_context(tmp_path, monkeypatch, active="inactive")
    waiting.sysfs, waiting.dri, waiting.udev_queue = m.sysfs, m.dri, m.udev_queue
    service = doctor.check_service(waiting)
    assert service.status == "skip" and service.en.startswith("the screen is late, not absent: the driver")
    m.card(gpu, 0, "HDMI-A-1")  # the screen came, the unit did not start: now that is a fault
    waiting.found.clear()
    assert doctor.check_service(waiting).en == "companion.service is inactive"
