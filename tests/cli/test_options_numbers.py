"""Numbers and folders on the command line: a clean usage error, in the asked language, before
anything is created."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

BAD = [
    (["resume", "--speed", "-1"], "--speed", "the speed must be 0"),
    (["demo", "--speed", "nan"], "--speed", "the speed must be 0"),
    (["demo", "--speed", "inf"], "--speed", "the speed must be 0"),
    (["play", "kilo", "--players", "A,B,C", "--speed", "-1"], "--speed", "the speed must be 0"),
    (["buttons", "--input", "sim", "--seats", "11"], "--seats", "1 to 10, not 11"),
    (["buttons", "--input", "sim", "--seats", "-1"], "--seats", "1 to 10, not -1"),
    (["buttons", "--input", "sim", "--duration", "nan"], "--duration", "above 0"),
    (["buttons", "--input", "sim", "--max-events", "0"], "--max-events", "1 or more"),
    (["demo", "--data-dir", ""], "--data-dir", "the folder is empty"),
    (["games", "--data-dir", ""], "--data-dir", "the folder is empty"),
    (["play", "--data-dir", " "], "--data-dir", "the folder is empty"),
]


@pytest.mark.parametrize(("args", "option", "words"), BAD, ids=[" ".join(a) for a, _, _ in BAD])
def test_bad_number_is_a_usage_error_before_anything_is_made(
    tmp_path: Path, args: list[str], option: str, words: str
) -> None:
    data = tmp_path / "data"
    env = {"SDL_VIDEODRIVER": "dummy", "COMPANION_CONFIG": str(tmp_path / "none.toml")}
    result = run_cli(*args, "--lang", "en", data_dir=data, env=env, cwd=tmp_path, timeout=30)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    error = result.stderr.strip().splitlines()[-1]
    assert f"error: argument {option}: " in error and words in error, error
    assert not data.exists() and list(tmp_path.iterdir()) == []  # nothing created, not even ""
    fr = run_cli(*args, data_dir=data, env=env, cwd=tmp_path, timeout=30)
    assert fr.returncode == 2 and f"erreur\u202f: argument {option}\u202f: " in fr.stderr
    assert not data.exists()


def test_help_speaks_french_and_english_and_every_option_is_explained() -> None:
    def words(*args: str, lang: str) -> str:
        result = run_cli(*args, env={"LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""})
        assert result.returncode == 0, result.stderr
        return " ".join(result.stdout.split())

    fr = words("demo", "--help", lang="fr_FR.UTF-8")
    assert "utilisation" in fr and "au plus vite" in fr and "affiche cette aide" in fr
    en = words("demo", "--help", "--lang", "en", lang="fr_FR.UTF-8")
    assert "usage" in en and "as fast as possible" in en
    assert "usage" in words("--help", lang="en_GB.UTF-8")
    top = words("--help", lang="C.UTF-8")  # French first
    assert "Le companion de la table" in top and "au choix" in top
    for command in ("demo", "resume", "replay", "export", "games", "play", "snapshot", "buttons"):
        text = run_cli(command, "--help", "--lang", "en").stdout
        assert "  -h, --help" in text
    from companion.cli.parser import build_parser

    for lang in ("fr", "en"):
        parser = build_parser(lang=lang)
        sub = next(a for a in parser._actions if a.dest == "command")
        for name, action in sub.choices.items():  # type: ignore[union-attr]
            for option in action._actions:
                assert option.help, f"{lang}: {name} {option.option_strings or option.dest}"


def test_games_json_on_a_fresh_folder(tmp_path: Path) -> None:
    result = run_cli("games", "--json", data_dir=tmp_path / "fresh")
    assert result.returncode == 0 and json.loads(result.stdout) == {"games": []}
    assert not (tmp_path / "fresh").exists()


def test_a_game_resumes_in_the_language_it_began_in(tmp_path: Path) -> None:
    import sqlite3

    data = tmp_path / "data"
    made = run_cli("demo", "--speed", "0", "--rounds", "2", "--seed", "2", "--lang", "en", data_dir=data)
    assert made.returncode == 0
    db = sqlite3.connect(data / "journal.sqlite3")
    (game_id,) = db.execute("SELECT id FROM games").fetchone()
    db.execute("DELETE FROM events WHERE seq > 12")  # as if it had stopped there
    db.execute("UPDATE games SET finished = 0")
    db.commit()
    db.close()
    resumed = run_cli("resume", "--speed", "0", data_dir=data)
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resuming game {game_id} at event 12" in resumed.stdout, resumed.stdout
    assert "Reprise" not in resumed.stdout and "Manche" not in resumed.stdout
    finished = run_cli("resume", "--speed", "0", "--lang", "fr", data_dir=data)  # --lang wins
    assert finished.returncode == 1 and "aucune partie en cours" in finished.stderr
