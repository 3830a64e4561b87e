"""The kiosk in its unit's sandbox: a read-only home, no XDG_RUNTIME_DIR, no LG_WD, buttons
configured on GPIO on a machine without them. The real ``companion play`` the unit starts must
come up, say what is wrong on the screen, and stay up (a crash would be a restart loop)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.errors import HardwareError
from companion.i18n import t
from companion.paths import ensure_dir, ensure_runtime_dir, runtime_dir
from companion.text import Text
from tests.conftest import ROOT, skip_unless_ci

GPIO_CONFIG = """\
[input]
source = "gpio"

[gpio]
seats = [{ button = 17, led = 5 }, { button = 27, led = 6 }, { button = 22, led = 13 }]
"""
UNSET = (
    "XDG_RUNTIME_DIR",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "LG_WD",
    "RUNTIME_DIRECTORY",
    "COMPANION_CONFIG",
    "DISPLAY",
    "WAYLAND_DISPLAY",
)


def read_only_home(tmp_path: Path) -> tuple[Path, list[str]]:
    """A home nobody can write, as ``ProtectHome=tmpfs`` makes it: as root a read-only tmpfs
    mounted in a private mount namespace (root ignores file modes), else a folder mode 0555."""
    home = tmp_path / "home"
    home.mkdir()
    if os.geteuid() != 0:
        home.chmod(0o555)
        return home, []
    if shutil.which("unshare") is None:
        skip_unless_ci("root without unshare cannot make a read-only home")
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o ro,size=64k tmpfs {home}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        skip_unless_ci(f"no mount namespace here ({probe.stderr.strip()})")
    return home, [
        "unshare",
        "-m",
        "sh",
        "-c",
        'mount -t tmpfs -o ro,size=64k tmpfs "$HOME" && exec "$@"',
        "sh",
    ]


def sandbox_env(tmp_path: Path, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(
        HOME=str(home),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        COMPANION_DATA_DIR=str(tmp_path / "data"),
        COMPANION_TRACE_FRAMES="1",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    env.update(extra)
    return env


def first_frame_then_alive(cmd: list[str], env: dict[str, str]) -> str:
    """Starts ``cmd``; waits for its first frame, then for one more second of life; returns its
    stderr. Fails if it exits first."""
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    framed = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if line.startswith("#frame"):
                framed.set()
        framed.set()  # end of stream: the process is gone

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        framed.wait(timeout=60)
        assert proc.poll() is None, f"exited with {proc.returncode}:\n{''.join(lines)}"
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1.0)  # still up a second after its first frame
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=10)
    text = "".join(lines)
    assert "Traceback" not in text, text
    return text


@pytest.mark.parametrize(
    "game", [["--resume"], ["kilo", "--players", "a,b,c"]], ids=["resume-nothing", "new-game"]
)
def test_kiosk_command_survives_the_sandbox(tmp_path: Path, game: list[str]) -> None:
    # (The LEDs went from lgpio, which needed a working folder, to libgpiod's output lines,
    # which need none: issue 35. The read-only home is what this holds now.)
    home, wrap = read_only_home(tmp_path)
    config = tmp_path / "etc" / "companion.toml"
    config.parent.mkdir()
    config.write_text(GPIO_CONFIG)
    extra: dict[str, str] = {}
    # The unit's command (hardware/companion.service), with a game or without.
    cmd = [
        *wrap,
        sys.executable,
        "-m",
        "companion.cli",
        "play",
        "--fullscreen",
        *game,
        "--config",
        str(config),
        "--lang",
        "en",
    ]
    err = first_frame_then_alive(cmd, sandbox_env(tmp_path, home, **extra))
    # The reason, once, in the unit's journal; the screen shows it too (tests/display/test_app.py).
    # (The stop at the end is a SIGTERM: the table says once how to go on, as Ctrl-C does.)
    hint = t("cli.interrupted", "en")
    reason = [
        line for line in err.splitlines() if line and not line.startswith("#frame") and hint not in line
    ]
    assert reason and all("GPIO" in line for line in reason), err
    assert err.count(hint) <= 1, err
    # Buttons and LEDs come through libgpiod: with no header chip the sentence says so.
    assert "GPIO0..GPIO27" in err or "gpiod" in err, err


def test_the_units_runtime_directory_is_used(tmp_path: Path) -> None:
    """With RuntimeDirectory= (systemd sets $RUNTIME_DIRECTORY), the table's runtime folder is
    there, and the read-only home is never asked for one."""
    home, wrap = read_only_home(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text(GPIO_CONFIG)
    run = tmp_path / "run"
    run.mkdir()
    cmd = [
        *wrap,
        sys.executable,
        "-m",
        "companion.cli",
        "play",
        "--fullscreen",
        "--resume",
        "--config",
        str(config),
        "--lang",
        "en",
    ]
    err = first_frame_then_alive(cmd, sandbox_env(tmp_path, home, RUNTIME_DIRECTORY=str(run)))
    assert "runtime folder" not in err and "GPIO" in err, err


def test_runtime_dir_prefers_the_units(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RUNTIME_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert runtime_dir() == tmp_path / "a"
    monkeypatch.delenv("RUNTIME_DIRECTORY")
    assert runtime_dir() == tmp_path / "table-companion"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert runtime_dir() == tmp_path / "cache" / "table-companion"


def test_a_folder_that_cannot_be_made_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")  # a file where a folder should go: refused even for root
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with pytest.raises(HardwareError) as err:
        ensure_runtime_dir()
    en, fr = err.value.en, err.value.fr
    assert str(blocker / "table-companion") in en and str(blocker / "table-companion") in fr
    assert "RuntimeDirectory=companion" in en and "RuntimeDirectory=companion" in fr
    assert en.count(". ") == 0 and en.endswith(".")
    assert ensure_dir(tmp_path / "x" / "y") == tmp_path / "x" / "y"


def test_every_folder_the_companion_makes_goes_through_ensure_dir() -> None:
    """A bare mkdir would raise OSError under the unit's read-only home: a traceback, and with
    Restart=on-failure a loop. The journal's own guarded mkdir is the one exception."""
    allowed = {"companion/paths.py", "companion/table/journal_lock.py", "companion/cli/doctor.py"}
    bare = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel not in allowed and (".mkdir(" in text or "makedirs(" in text):
            bare.append(rel)
    assert bare == []


def test_assign_into_a_folder_that_cannot_be_made_says_so(tmp_path: Path) -> None:
    from companion.errors import ConfigError

    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ConfigError) as err:
        ensure_dir(
            blocker / "de avance",  # said as given: no French elision inside a folder's name
            what=Text.pair(en="the config folder", fr="le dossier de configuration"),
            error=ConfigError,
        )
    assert str(blocker / "de avance") in err.value.fr and "Not a directory" in err.value.en


def test_a_kiosk_with_a_broken_config_shows_why_instead_of_restarting(tmp_path: Path) -> None:
    home, wrap = read_only_home(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text("[display]\nrotate = 45\n")
    cmd = [
        *wrap,
        sys.executable,
        "-m",
        "companion.cli",
        "play",
        "--fullscreen",
        "--resume",
        "--config",
        str(config),
        "--lang",
        "en",
    ]
    err = first_frame_then_alive(cmd, sandbox_env(tmp_path, home))
    assert "[display] rotate = 45 is refused" in err
