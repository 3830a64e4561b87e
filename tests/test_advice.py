"""Every piece of advice the command line prints names a command or a key that exists: each test
runs the command the advice names, as a new user would."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from tests.conftest import ROOT, run_cli, skip_unless_ci

EXAMPLE = ROOT / "hardware" / "companion.example.toml"
NO_LGPIO = importlib.util.find_spec("gpiod") is None or not list(Path("/dev").glob("gpiochip*"))


def no_screen_env(tmp_path: Path) -> dict[str, str]:
    return {
        "DISPLAY": "",
        "WAYLAND_DISPLAY": "",
        "SDL_VIDEODRIVER": "",
        "COMPANION_CONFIG": str(tmp_path / "none.toml"),
    }


def clean(result: object, code: int | None = None) -> str:
    rc, err = result.returncode, result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in err and "unrecognized arguments" not in err, err
    if code is not None:
        assert rc == code, err
    return str(err)


def test_play_honours_the_config_source(tmp_path: Path) -> None:
    if not NO_LGPIO:
        skip_unless_ci("a Pi with lgpio would open the GPIO buttons for real")
    from tests.test_paths_sandbox import first_frame_then_alive

    env = dict(
        os.environ,
        COMPANION_CONFIG=str(tmp_path / "none.toml"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        COMPANION_DATA_DIR=str(tmp_path / "data"),
        COMPANION_TRACE_FRAMES="1",
    )
    # The screen comes up and says why the buttons do not work (a kiosk must not exit here).
    err = first_frame_then_alive(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "play",
            "kilo",
            "--config",
            str(EXAMPLE),
            "--players",
            "a,b,c",
            "--lang",
            "en",
        ],
        env,
    )
    assert "GPIO0..GPIO27" in err or "gpiod" in err  # source = "gpio" was read, not ignored


def test_assign_with_another_source_says_what_to_run(tmp_path: Path) -> None:
    env = no_screen_env(tmp_path)
    err = clean(run_cli("buttons", "--assign", "--input", "sim", "--lang", "en", env=env), 2)
    assert "leave --input out" in err and "`companion buttons --input sim`" in err
    advised = run_cli(
        "buttons", "--input", "sim", "--speed", "0", "--max-events", "4", "--lang", "en", env=env
    )
    clean(advised, 0)
    assert advised.stdout.count("Seat") + advised.stdout.count("seat") >= 1, advised.stdout


def test_assign_without_gpio_says_why_and_a_command_that_works_here(tmp_path: Path) -> None:
    if not NO_LGPIO:
        skip_unless_ci("gpiod and a GPIO chip are here: --assign would listen for real")
    env = no_screen_env(tmp_path)
    err = clean(run_cli("buttons", "--assign", "--lang", "en", env=env), 1)
    if importlib.util.find_spec("gpiod") is None:
        assert f"{sys.executable} -m pip install '" in err and "gpiod" in err  # venv's pip, real names
    else:  # a laptop: libgpiod is installed, installing it again would change nothing
        assert "no GPIO chip" in err and "pip install" not in err, err
    assert "use --input sim" not in err  # the old loop: --assign ignores --input
    assert "`companion buttons --input keyboard`" in err
    # The advised keyboard monitor, on this screenless machine, says so instead of hanging.
    if any(Path("/dev/dri").glob("card*")):
        skip_unless_ci("this machine has a DRM screen: the keyboard monitor would open it")
    err = clean(run_cli("buttons", "--input", "keyboard", "--lang", "en", env=env, timeout=30), 1)
    assert "no screen here" in err and "`companion buttons --input sim`" in err
    fr = clean(run_cli("buttons", env=env, timeout=30), 1)  # no config, no screen: same sentence
    assert "pas d\u2019écran ici" in fr


def test_serial_advice_names_a_key_and_a_command_that_exist(tmp_path: Path) -> None:
    missing = "/dev/companion-no-such-pico"
    config = tmp_path / "companion.toml"
    config.write_text(f'[input]\nsource = "serial"\n\n[serial]\nport = "{missing}"\n')
    err = clean(run_cli("buttons", "--config", str(config), "--duration", "5", "--lang", "en", timeout=60), 1)
    assert f"{missing} does not exist" in err  # the [serial] port key was read
    assert "--serial-port" not in err
    assert "[serial] port" in err and "`companion firmware info --port PORT`" in err
    checked = run_cli("firmware", "info", "--port", missing, "--lang", "en", timeout=60)
    assert checked.returncode != 0 and missing in clean(checked)
    lines = checked.stderr.strip().splitlines()
    assert len(lines) == 1


def test_no_serial_port_flag_anywhere() -> None:
    for path in [*ROOT.glob("companion/**/*.py"), *ROOT.glob("docs/*.md")]:
        assert "--serial-port" not in path.read_text(encoding="utf-8"), path


def test_the_docs_name_the_config_file_the_program_reads() -> None:
    from companion.hardware.config import default_config_path

    env = dict(os.environ)
    try:
        os.environ.pop("COMPANION_CONFIG", None)
        os.environ.pop("XDG_CONFIG_HOME", None)
        default = default_config_path()
    finally:
        os.environ.clear()
        os.environ.update(env)
    shown = "~/" + str(default.relative_to(Path.home()))
    assert shown == "~/.config/table-companion/companion.toml"
    kiosk = (ROOT / "docs" / "kiosk.md").read_text()
    assert "~/companion.toml" not in kiosk and shown in kiosk
    assert shown in EXAMPLE.read_text()
    pico = (ROOT / "docs" / "pico.md").read_text()
    assert "stops `play` at once" not in pico
