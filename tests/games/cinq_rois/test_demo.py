"""`companion demo cinq-rois`: a whole simulated game through the journal, its narration, its
export replaying to the same state, and a resume that ends as if never interrupted."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.games.cinq_rois.demo import dealer_rng, new_demo_setup, round_rng
from companion.games.cinq_rois.events import Dealer
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.sim import play_round
from companion.table.journal import Journal
from companion.table.live import Table
from tests.conftest import run_cli


def test_demo_tells_the_whole_game_card_by_card(tmp_path: Path) -> None:
    result = run_cli("demo", "cinq-rois", "--speed", "0", "--seed", "4", "--players", "5", data_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Démo de Les Cinq Rois\u202f: 5 joueurs simulés (graine 4)" in out
    assert re.search(r"Tirage au sort du premier donneur\u202f: \w+\.", out)
    assert out.count("— Donne ") == 11
    assert "— Donne 1\u202f: 3 cartes, atout 3, donneur" in out
    assert "— Donne 11\u202f: 13 cartes, atout R, donneur" in out  # R for Roi
    assert re.search(r"\[\S+=\S+", out)  # a wild and what it stands for
    assert re.search(r"reste( \S+)+ → \d+ pts", out)  # cards left over and their points
    assert re.search(r"^Gagnants?( ex æquo)?\u202f: \w+.* avec \d+ points?$", out, re.M)


def test_demo_json_and_export_replay_to_the_same_state(tmp_path: Path) -> None:
    result = run_cli(
        "demo",
        "cinq-rois",
        "--speed",
        "0",
        "--seed",
        "9",
        "--players",
        "7",
        "--lang",
        "en",
        "--json",
        data_dir=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["finished"] and state["round"] == 12 and state["winners"]
    assert "Les Cinq Rois demo: 7 simulated players" in result.stderr
    assert "First dealer drawn by lot" in result.stderr
    export = run_cli("export", data_dir=tmp_path)
    assert export.returncode == 0
    lines = export.stdout.splitlines()
    assert json.loads(lines[1])["type"] == "dealer"
    log = tmp_path / "game.jsonl"
    log.write_text(export.stdout, encoding="utf-8")
    replayed = run_cli("replay", str(log), "--json", data_dir=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    again = json.loads(replayed.stdout)
    state.pop("game_id")
    assert again == state


def test_same_seed_same_game(tmp_path: Path) -> None:
    a = run_cli("demo", "cinq-rois", "--speed", "0", "--seed", "3", data_dir=tmp_path / "a")
    b = run_cli("demo", "cinq-rois", "--speed", "0", "--seed", "3", data_dir=tmp_path / "b")
    strip = lambda s: "\n".join(s.splitlines()[2:])  # noqa: E731 (game id and path differ)
    assert strip(a.stdout) == strip(b.stdout)


def test_an_interrupted_demo_resumes_to_the_same_end(tmp_path: Path) -> None:
    whole = run_cli(
        "demo", "cinq-rois", "--speed", "0", "--seed", "21", "--players", "4", data_dir=tmp_path / "whole"
    )
    assert whole.returncode == 0, whole.stderr
    # The same demo killed after round 4: its journal holds the dealer and four rounds.
    with Journal(tmp_path / "cut", writer=True) as journal:
        table = Table.start(journal, new_demo_setup(4), {"input": "sim", "seed": 21, "lang": "fr"})
        game = table.engine
        assert isinstance(game, CinqRoisGame)
        players = game.players
        table.submit(Dealer(player=players[dealer_rng(21).randrange(4)]))
        for n in range(1, 5):
            assert game.dealer is not None  # four rounds in, the game is not over
            table.submit(play_round(players, n, game.dealer, round_rng(21, n)).event())
    resumed = run_cli("resume", "--speed", "0", data_dir=tmp_path / "cut")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.count("— Donne ") == 7
    a = run_cli("export", data_dir=tmp_path / "whole").stdout.splitlines()
    b = run_cli("export", data_dir=tmp_path / "cut").stdout.splitlines()
    assert a == b and len(a) == 13


def test_demo_refuses_rounds_and_a_bad_player_count(tmp_path: Path) -> None:
    for args, words in ((["--players", "8"], "2 to 7"), (["--rounds", "3"], "--rounds")):
        result = run_cli("demo", "cinq-rois", *args, "--lang", "en", data_dir=tmp_path)
        assert result.returncode == 2 and words in result.stderr
        assert "Traceback" not in result.stderr
