"""The README's exit-code table, held over every subcommand's refusals: 0 done, 1 could not do
it, 2 bad usage or bad input, 130 Ctrl-C, 143 (SIGTERM); every message on stderr says
``companion:``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

# (what is refused, the command line ({tmp} is the test's folder), what the folder holds, code)
REFUSALS = [
    ("bare", [], "", 2),
    ("demo: too few players", ["demo", "--players", "2"], "", 2),
    ("demo: unknown language", ["demo", "--lang", "de"], "", 2),
    ("resume: nothing to resume", ["resume"], "", 1),
    ("resume: unknown game", ["resume", "nosuchid"], "game", 2),
    ("replay: no such file", ["replay", "{tmp}/missing.jsonl"], "", 2),
    ("replay: not a table log", ["replay", "{tmp}/notes.txt"], "notes", 2),
    ("export: no journal yet", ["export"], "", 1),
    ("export: unknown game", ["export", "nosuchid"], "game", 2),
    ("export: --all without --csv", ["export", "--all"], "", 2),
    ("export: unreadable journal", ["export", "--csv"], "garbage", 1),
    ("games: unreadable journal", ["games"], "garbage", 1),
    ("games: unknown option", ["games", "--players", "3"], "", 2),
    ("history: unknown game", ["history", "--game", "poker"], "", 2),
    ("history: unreadable journal", ["history"], "garbage", 1),
    ("stats: unknown player", ["stats", "Nobody"], "game", 2),
    ("stats: unreadable journal", ["stats"], "garbage", 1),
    ("play: unknown language", ["play", "--lang", "de"], "", 2),
    ("play: no display", ["play", "kilo", "--players", "A,B,C"], "", 1),
    ("snapshot: unknown screen", ["snapshot", "nosuch", "--out", "{tmp}/x.png"], "", 2),
    ("snapshot: no --out", ["snapshot", "table"], "", 2),
    ("buttons: no seats", ["buttons", "--input", "sim", "--seats", "0"], "", 2),
    ("buttons: no Pico", ["buttons", "--input", "serial", "--max-events", "1"], "", 1),
    ("firmware: no action", ["firmware"], "", 2),
    ("firmware: not a board", ["firmware", "info", "--port", "loop://"], "", 2),
    ("config: no action", ["config"], "", 2),
    ("config: refused value", ["config", "set", "table.lang", "de", "--config", "{tmp}/c.toml"], "", 2),
    ("config: unknown setting", ["config", "get", "tabel.lang", "--config", "{tmp}/c.toml"], "", 2),
    ("config: not a file", ["config", "set", "table.lang", "fr", "--config", "{tmp}"], "", 2),
    ("doctor: a check fails", ["doctor", "--config", "{tmp}/bad.toml"], "bad config", 1),
]


def _prepare(tmp: Path, holds: str) -> None:
    data = tmp / "data"
    if holds == "game":
        made = run_cli(
            "demo", "--speed", "0", "--rounds", "1", "--players", "3", "--seed", "1", data_dir=data
        )
        assert made.returncode == 0, made.stderr
    elif holds == "garbage":
        data.mkdir()
        (data / "journal.sqlite3").write_text("not a journal, only words " * 4, encoding="utf-8")
    elif holds == "notes":
        (tmp / "notes.txt").write_text("shopping: bread, cheese\n", encoding="utf-8")
    elif holds == "bad config":
        (tmp / "bad.toml").write_text('[input]\nsource = "pigeon"\n', encoding="utf-8")


def readme_codes() -> dict[int, str]:
    """The table under "## Exit codes" in the README: code -> meaning."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(m[1]): m[2].strip() for m in re.finditer(r"^\| (\d+) \| ([^|]+) \|", section, re.M)}


def test_the_readme_table_is_the_one_held_here() -> None:
    assert set(readme_codes()) == {0, 1, 2, 130, 143}
    assert {code for *_, code in REFUSALS} <= set(readme_codes())


def test_every_subcommand_has_its_refusals_here() -> None:
    from companion.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    tried = {args[0] for _, args, _, _ in REFUSALS if args}
    assert tried == set(sub.choices), set(sub.choices) ^ tried  # type: ignore[arg-type]


@pytest.mark.parametrize(("what", "args", "holds", "code"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_exit_as_the_readme_says(
    tmp_path: Path, what: str, args: list[str], holds: str, code: int
) -> None:
    _prepare(tmp_path, holds)
    line = [a.replace("{tmp}", str(tmp_path)) for a in args]
    env = {
        "SDL_VIDEODRIVER": "nosuchdriver",
        "DISPLAY": "",
        "WAYLAND_DISPLAY": "",
        "COMPANION_CONFIG": str(tmp_path / "none.toml"),
    }
    for lang in ("en", "fr"):
        result = run_cli(
            *line,
            *(["--lang", lang] if line and "--lang" not in line else []),
            data_dir=tmp_path / "data",
            env=env,
            cwd=tmp_path,
        )
        assert result.returncode == code, f"{what} ({lang}): {result.stderr}"
        assert "Traceback" not in result.stderr
        said = [x for x in result.stderr.splitlines() if x.strip() and not x.startswith("#")]
        if not line:  # bare `companion`: the short usage and the commands, no error to tag
            assert said[0].startswith(("usage: companion", "utilisation\u202f: companion"))
        elif line[0] == "doctor":  # its report is the output: one line per check, with the fix
            assert said == [] and "bad.toml" in result.stdout
        elif code == 2 and not said[0].startswith("companion:"):  # argparse: usage, then error
            assert said[-1].startswith("companion: "), said
        else:
            assert said and all(x.startswith("companion: ") for x in said), said
            assert result.stdout == "", result.stdout


def _interrupted(tmp_path: Path, sig: signal.Signals) -> tuple[int, str, str]:
    """A demo stopped by ``sig`` once its first round is under way: exit code, stderr, game."""
    # A runner started in the background by a shell without job control (`cmd &` in a script,
    # nohup) ignores SIGINT, and an ignored signal stays ignored across exec: the demo would
    # never see the Ctrl-C and play on to exit 0. A terminal's Ctrl-C reaches a real user's
    # companion with SIGINT at its default, so the child is started that way whatever the runner.
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = _start_demo(tmp_path)
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    assert proc.stdout is not None
    game = ""
    for line in proc.stdout:  # waits on the demo's own words, no sleep
        if line.startswith("Game "):
            game = line.split()[1]
        if "Round 1/" in line:
            break
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err, game


def _start_demo(tmp_path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "demo",
            "--speed",
            "1",
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def test_ctrl_c_is_130_and_the_game_can_be_resumed(tmp_path: Path) -> None:
    code, err, game = _interrupted(tmp_path, signal.SIGINT)
    assert code == 130 and "Traceback" not in err
    assert err.strip() == "companion: Interrupted: `companion resume` continues this game."
    assert run_cli("export", game, data_dir=tmp_path).returncode == 0


def test_sigterm_ends_by_the_signal_after_keeping_the_game(tmp_path: Path) -> None:
    # Dying by the signal (143 in a shell) rather than exiting 143 lets systemd count a stop as
    # clean; the game is journaled up to the last event, and `resume` goes on from there.
    code, err, game = _interrupted(tmp_path, signal.SIGTERM)
    assert code == -signal.SIGTERM and "Traceback" not in err, err
    listed = run_cli("games", "--json", data_dir=tmp_path)
    assert game and game in listed.stdout


# systemd stops the kiosk while it sets up (seconds under the boot test's TCG), and library code
# swallows the SIGTERM's KeyboardInterrupt: pygame's set_mode loaded its window icon through
# Python (pygame.pkgdata.getResource) and cleared whatever that raised, until the table set its
# own icon; any other library may too.
SWALLOWED = {
    "by set_mode": """
import os, signal, sys
import pygame
set_mode = pygame.display.set_mode
def swallowing(*args, **kwargs):
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):  # the handler runs here
            pass
    except KeyboardInterrupt:
        pass  # and C code clears it, as set_mode did with its icon's
    return set_mode(*args, **kwargs)
pygame.display.set_mode = swallowing
from companion.cli import main
sys.exit(main(sys.argv[1:]))
""",
    "by a library during the set-up": """
import os, signal, sys
import companion.display.sound as sound
init = sound.Sounds.__init__
def __init__(self, *args, **kwargs):
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):  # the handler runs here
            pass
    except KeyboardInterrupt:
        pass  # and the library drops it
    init(self, *args, **kwargs)
sound.Sounds.__init__ = __init__
from companion.cli import main
sys.exit(main(sys.argv[1:]))
""",
}


@pytest.mark.parametrize("script", SWALLOWED.values(), ids=SWALLOWED.keys())
def test_sigterm_swallowed_while_the_kiosk_sets_up_still_stops_it(tmp_path: Path, script: str) -> None:
    # The kiosk ran on until systemd's SIGKILL, 90 s later (the boot test's phones restart).
    kiosk = ["play", "--fullscreen", "--resume", "--mute", "--lang", "en"]
    proc = subprocess.run(
        [sys.executable, "-c", script, *kiosk, "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
        timeout=60,
    )
    assert proc.returncode == -signal.SIGTERM, proc.stderr
    assert proc.stderr.strip() == "companion: Interrupted.", proc.stderr


def _table_interrupted(tmp_path: Path, *line: str) -> tuple[int, str]:
    """``companion <line>`` on the table screen (SDL's dummy driver), Ctrl-C once its first
    frame is up: exit code and stderr."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:  # as _interrupted: the child gets SIGINT at its default whatever the runner
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", *line, "--lang", "en", "--data-dir", str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={
                **os.environ,
                "SDL_VIDEODRIVER": "dummy",
                "SDL_AUDIODRIVER": "dummy",
                "COMPANION_TRACE_FRAMES": "1",
                "COMPANION_CONFIG": str(tmp_path / "none.toml"),
            },
        )
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    assert proc.stderr is not None
    said = []
    for line_read in proc.stderr:  # waits on the table's own first frame, no sleep
        said.append(line_read)
        if line_read.startswith("#frame"):
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, "".join(said) + err


def test_ctrl_c_on_the_table_screen_is_130_with_the_resume_hint_in_play_and_resume(tmp_path: Path) -> None:
    """Issue 34 point 6: `play` and `resume` exited 0 with nothing said; the README says 130
    and how to go on, as the demo does."""
    code, err = _table_interrupted(
        tmp_path, "play", "kilo", "--players", "A,B,C", "--input", "keyboard", "--mute"
    )
    assert code == 130 and "Traceback" not in err, err
    hint = "companion: Interrupted: `companion resume` continues this game."
    assert [x for x in err.splitlines() if x.strip() and not x.startswith("#")][-1] == hint, err
    code, err = _table_interrupted(tmp_path, "resume")
    assert code == 130 and "Traceback" not in err, err
    assert [x for x in err.splitlines() if x.strip() and not x.startswith("#")][-1] == hint, err
