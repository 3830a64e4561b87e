"""A first evening as a newcomer lives it (issue 37): the demo kept out of the table's numbers,
counts and plurals as a person writes them, and every message naming what is wrong in the
language asked, with nothing of another language or another program inside."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli
from companion.games.kilo.events import NewKiloGame

# What English leaks into French look like: Python's json messages, OS errors, argparse.
ENGLISH = re.compile(
    r"Expecting|Unterminated|No such file|Couldn't|invalid choice|choix invalide|starting at|error:"
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command's code and output, French typography's spaces and apostrophes read as plain
    ones (the catalogue's own tests hold the typography)."""
    rc = cli.main(argv)
    out, err = capsys.readouterr()
    plain = str.maketrans({"\u202f": " ", "\u00a0": " ", "\u2019": "'"})
    return rc, out.translate(plain), err.translate(plain)


@pytest.fixture
def demo_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A journal holding one demo: five players, one round that nobody lost (five winners)."""
    rc, _, err = run(
        ["demo", "--speed", "0", "--rounds", "1", "--seed", "3", "--data-dir", str(tmp_path)], capsys
    )
    assert rc == 0, err
    return tmp_path


# --- point 5: a demo is not a game of the table ------------------------------------------------


def test_a_demo_is_marked_and_left_out_of_history_and_stats(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.table.journal import Journal

    with Journal(demo_dir, writer=False) as journal:
        (info,) = journal.games()
    assert info.meta.get("demo") is True
    for command in ("history", "stats"):
        rc, out, _ = run([command, "--data-dir", str(demo_dir), "--lang", "en"], capsys)
        assert rc == 0
        assert "Alice" not in out, command
        assert "demo" in out, (command, out)  # says where they went and how to see them
        rc, out, _ = run([command, "--demos", "--data-dir", str(demo_dir), "--lang", "en"], capsys)
        assert rc == 0 and "Alice" in out, command
    rc, out, _ = run(["stats", "--json", "--data-dir", str(demo_dir)], capsys)
    assert json.loads(out) == {"players": []}
    rc, out, _ = run(["games", "--data-dir", str(demo_dir), "--lang", "en"], capsys)
    assert "Alice" in out and "demo" in out  # the journal's own listing shows every game


# --- point 6: counts and plurals ----------------------------------------------------------------


def test_history_says_one_game_and_joint_winners_in_kg(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run(["history", "--demos", "--data-dir", str(demo_dir), "--lang", "fr"], capsys)
    assert rc == 0
    assert "gagnants ex aequo : Alice, Bruno, Chloé, Dédé, Émile (0 kg)" in out, out
    assert "kilos" not in out
    assert "1 partie, 1 terminée." in out, out
    rc, out, _ = run(["history", "--demos", "--data-dir", str(demo_dir), "--lang", "en"], capsys)
    assert "joint winners: Alice, Bruno, Chloé, Dédé, Émile (0 kg)" in out, out
    assert "1 game, 1 finished." in out, out


def test_a_players_lines_take_the_singular(demo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(["stats", "Alice", "--demos", "--data-dir", str(demo_dir), "--lang", "fr"], capsys)
    assert rc == 0
    assert "Alice : 1 partie, 1 victoire" in out, out
    assert "1 parties" not in out and "1 victoires" not in out
    assert "kg : 0 en tout, 0,0 par partie de Kilo" in out, out
    rc, out, _ = run(["stats", "Alice", "--demos", "--data-dir", str(demo_dir), "--lang", "en"], capsys)
    assert "Alice: 1 game, 1 win" in out, out
    assert "1 games" not in out and "1 wins" not in out


def test_the_stats_table_says_its_average_is_over_kilo_games(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(["stats", "--demos", "--data-dir", str(demo_dir), "--lang", "fr"], capsys)
    head = out.splitlines()[0]
    assert "kg/partie Kilo" in head, head
    _, out, _ = run(["stats", "--demos", "--data-dir", str(demo_dir), "--lang", "en"], capsys)
    assert "kg/Kilo game" in out.splitlines()[0]


# --- point 8: what a newcomer types ------------------------------------------------------------


def test_play_players_with_a_count_says_play_takes_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = run(["play", "--players", "50", "--lang", "fr", "--data-dir", str(tmp_path)], capsys)
    assert rc == 2
    assert "noms" in err and "Alice,Bruno,Chloé" in err, err
    assert "pas 1" not in err
    rc, _, err = run(["play", "--players", "4", "--lang", "en", "--data-dir", str(tmp_path)], capsys)
    assert rc == 2 and "names" in err and "demo --players" in err, err


def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("x", encoding="utf-8")
    for command in ("games", "history", "stats"):
        rc, out, err = run([command, "--data-dir", str(file), "--lang", "fr"], capsys)
        assert rc == 2, (command, out, err)
        assert "n'est pas un dossier" in err.replace("\u2019", "'"), err
        assert "Aucune partie" not in out


# --- point 9: messages that name the file, in one language -------------------------------------


def test_replay_of_a_file_that_is_not_a_log_names_it_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Hello\n\nnot json\n", encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(
        '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 2}\n{"type": "pre\n'
    )
    for path in (readme, cut):
        rc, _, err = run(["replay", str(path), "--lang", "fr"], capsys)
        assert rc == 2
        assert str(path) in err, err
        assert not ENGLISH.search(err), err
        assert "JSON invalide" in err
        rc, _, err = run(["replay", str(path), "--lang", "en"], capsys)
        assert str(path) in err and "not valid JSON" in err, err


def test_a_snapshot_into_a_missing_folder_says_so_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing" / "x.png"
    rc, _, err = run(["snapshot", "table", "--out", str(out), "--lang", "fr"], capsys)
    assert rc != 0
    assert not ENGLISH.search(err), err
    assert str(out.parent) in err and "dossier" in err, err


def test_a_config_typo_points_at_a_command_a_wheel_install_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("[table]\nlangue = 'fr'\n", encoding="utf-8")
    rc, _, err = run(["config", "show", "--config", str(config), "--lang", "en"], capsys)
    assert rc == 2
    assert "hardware/companion.example.toml" not in err
    assert "companion config show --example" in err, err
    rc, out, _ = run(["config", "show", "--example"], capsys)
    assert rc == 0 and "[table]" in out and "[debounce]" in out


def test_an_option_a_command_does_not_have_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(["demo", "--config", "x", "--lang", "fr"], capsys)
    assert rc == 2
    assert "--config" in err and not ENGLISH.search(err), err
    assert "'x'" not in err
    rc, _, err = run(["demo", "--config", "x", "--lang", "en"], capsys)
    assert rc == 2 and "--config" in err and "invalid choice" not in err, err


def test_french_says_companion_the_name_of_the_program() -> None:
    root = Path(__file__).resolve().parents[2] / "companion"
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "compagnon" in line
    ]
    assert not found, found


# --- point 7: one language, and nothing said before a failure ----------------------------------


def _no_display_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER")
    }
    return env


def test_play_with_no_display_speaks_the_language_asked_and_only_it(tmp_path: Path) -> None:
    proc = sys_run(["play", "kilo", "--lang", "fr", "--data-dir", str(tmp_path)])
    assert proc.returncode == 1
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Aucun écran" in lines[0] and lines[0].startswith("companion: "), lines
    assert not ENGLISH.search(lines[0]) and "No display" not in lines[0], lines


def test_resume_of_a_screen_game_says_nothing_before_it_fails(tmp_path: Path) -> None:
    from companion.table.journal import Journal
    from companion.table.live import Table

    with Journal(tmp_path, writer=True) as journal:
        Table.start(journal, NewKiloGame(players=["Ana", "Ben", "Cy"], rounds=5), {"input": "keyboard"})
    proc = sys_run(["resume", "--lang", "en", "--data-dir", str(tmp_path)])
    assert proc.returncode == 1
    assert "Resuming" not in proc.stdout + proc.stderr, proc
    assert "No display" in proc.stderr


def sys_run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *argv],
        capture_output=True,
        text=True,
        env=_no_display_env(),
        timeout=60,
        check=False,
    )


# --- point 12: a hostile name is cut, not echoed whole ------------------------------------------


@pytest.mark.parametrize("game", ["treize", "kilo", "cinq-rois"])
def test_an_unknown_players_name_is_cut_in_the_message(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.games import load

    setup = load(game).setup(players=["Ana", "Bea", "Cy"], **({"rounds": 2} if game == "kilo" else {}))
    event = {
        "treize": {"type": "pass", "player": "Z" * 10_000, "took": 1},
        "kilo": {"type": "press", "player": "Z" * 10_000, "t_us": 1},
        "cinq-rois": {"type": "dealer", "player": "Z" * 10_000},
    }[game]
    log = tmp_path / "long.jsonl"
    log.write_text(setup.model_dump_json() + "\n" + json.dumps(event) + "\n", encoding="utf-8")
    rc, _, err = run(["replay", str(log), "--lang", "fr"], capsys)
    assert rc == 2
    assert "Z" * 61 not in err and len(err) < 400, err[:400]
    assert "10000 caractères" in err or "10 000 caractères" in err, err[:400]


def test_names_that_look_alike_are_refused_for_a_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.errors import SetupError
    from companion.table.log import check_new_names

    for names in (["A", "A ", "B"], ["A", "A\u00a0", "B"], ["A", "\u3164", "B"]):
        NewKiloGame(players=names, rounds=5)  # old logs keep replaying
        with pytest.raises(SetupError):
            check_new_names(names)


# --- point 11: the monitor in time order -------------------------------------------------------


def test_the_sim_monitor_lists_each_burst_in_time_order(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(["buttons", "--input", "sim", "--speed", "0", "--max-events", "60", "--json"], capsys)
    assert rc == 0
    bursts: list[list[int]] = []
    for rec in map(json.loads, out.splitlines()):
        if rec["since_first_us"] == 0 and rec["edge"] == "press":
            bursts.append([])
        bursts[-1].append(rec["since_first_us"])
    assert len(bursts) > 3
    assert all(times == sorted(times) for times in bursts), bursts


def test_assign_on_a_laptop_blames_the_missing_chip_not_gpiod(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from companion.inputs import gpiochip

    if importlib.util.find_spec("gpiod") is None:
        pytest.skip("gpiod is not installed here: the other message is the right one")
    monkeypatch.setattr(gpiochip, "chip_paths", lambda: [])  # a laptop: no /dev/gpiochip*
    rc, _, err = run(["buttons", "--assign", "--lang", "en"], capsys)
    assert rc == 1
    assert "no GPIO chip" in err and "pip install" not in err, err


# --- point 10: one gap convention --------------------------------------------------------------


def test_the_demo_writes_each_gap_to_the_press_before_as_the_slap_screen_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run(
        ["demo", "--speed", "0", "--rounds", "1", "--seed", "3", "--lang", "en", "--data-dir", str(tmp_path)],
        capsys,
    )
    assert rc == 0
    rows = re.findall(r"^\s+\d+\. \S+\s+\+(\d+) ms$", out, re.M)
    margin = re.search(r"Last: \S+, by (\d+) ms", out)
    assert rows and margin is not None, out
    assert rows[-1] == margin.group(1), out  # the last gap is the loser's margin
