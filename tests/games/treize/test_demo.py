"""`companion demo treize`: a whole advanced match through the journal; export, replay, resume."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from companion.games import load
from companion.games.treize.autoplay import AutoPlayer
from companion.games.treize.rules import TreizeGame
from companion.table.journal import Journal
from companion.table.live import Table
from tests.conftest import run_cli


def test_demo_narrates_a_whole_advanced_match(tmp_path: Path) -> None:
    result = run_cli("demo", "treize", "--players", "5", "--speed", "0", "--seed", "1", data_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.replace("\u202f", " ")
    assert "Démo de 13 feuilles : 5 joueurs simulés (graine 1)" in out
    assert "— Partie 1 : " in out and "(tiré au sort) —" in out
    assert re.search(r"^  \S+ joue \d+ × \d+ +table : (\d+×\d+ ?)+$", out, re.M)
    assert re.search(r"^  \S+ passe et prend un \d+$", out, re.M)
    assert re.search(r"^  Manche finie : \S+ vide la table et entame\.$", out, re.M)
    assert re.search(r"gagne la partie \d+ !$", out, re.M)
    assert re.search(r"^  Points : ", out, re.M) and re.search(r"^  Totaux : ", out, re.M)
    assert "(plus haut total) —" in out  # games after the first
    assert re.search(r"^Vainqueurs? (ex aequo )?: .+ avec \d+ points?$", out, re.M)


def test_demo_json_equals_the_replay_of_its_export(tmp_path: Path) -> None:
    demo = run_cli(
        "demo",
        "treize",
        "--players",
        "4",
        "--speed",
        "0",
        "--seed",
        "8",
        "--lang",
        "en",
        "--json",
        data_dir=tmp_path,
    )
    assert demo.returncode == 0, demo.stderr
    state = json.loads(demo.stdout)
    assert state["finished"] and state["winners"] and state["variant"] == "advanced"
    assert max(s["points"] for s in state["standings"]) >= 20
    assert "13 feuilles demo: 4 simulated players" in demo.stderr
    assert "plays" in demo.stderr and "passes and takes a" in demo.stderr
    export = run_cli("export", data_dir=tmp_path)
    assert export.returncode == 0
    log = tmp_path / "match.jsonl"
    log.write_text(export.stdout, encoding="utf-8")
    replayed = run_cli("replay", str(log), "--json")
    assert replayed.returncode == 0, replayed.stderr
    state.pop("game_id")
    assert json.loads(replayed.stdout) == state


def test_same_seed_same_match(tmp_path: Path) -> None:
    a = run_cli("demo", "treize", "--speed", "0", "--seed", "3", data_dir=tmp_path / "a")
    b = run_cli("demo", "treize", "--speed", "0", "--seed", "3", data_dir=tmp_path / "b")
    strip = lambda s: "\n".join(s.splitlines()[2:])  # noqa: E731 (game id and path differ)
    assert strip(a.stdout) == strip(b.stdout) and len(a.stdout.splitlines()) > 50


def test_a_resumed_demo_ends_as_if_never_interrupted(tmp_path: Path) -> None:
    whole = run_cli(
        "demo",
        "treize",
        "--players",
        "3",
        "--speed",
        "0",
        "--seed",
        "4",
        "--json",
        data_dir=tmp_path / "whole",
    )
    assert whole.returncode == 0, whole.stderr
    # The same demo, stopped after 40 moves (as if killed), then `companion resume`.
    data = tmp_path / "cut"
    game = load("treize")
    with Journal(data, writer=True) as journal:
        table = Table.start(journal, game.demo_setup(3, None, 4), {"input": "sim", "seed": 4, "lang": "fr"})
        bot = AutoPlayer(4, table.engine.players)
        engine = table.engine
        assert isinstance(engine, TreizeGame)
        for _ in range(40):
            move = bot.decide(engine)
            assert move is not None
            table.submit(move)
            bot.observe(move, engine.game_number)
    resumed = run_cli("resume", "--speed", "0", "--json", data_dir=data)
    assert resumed.returncode == 0, resumed.stderr
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    a.pop("game_id"), b.pop("game_id")
    assert a == b


def test_run_demo_in_process_is_fast_enough_to_follow(tmp_path: Path) -> None:
    game = load("treize")
    out = io.StringIO()
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, game.demo_setup(6, None, 2), {"input": "sim", "seed": 2})
        game.run_demo(table, 2, 0.0, "en", out)
        assert table.engine.finished
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("— Game 1: ") and lines[-1].startswith(("Winner", "Co-winners"))


def test_a_demo_killed_at_random_moments_resumes_exactly(tmp_path: Path) -> None:
    import random
    import signal

    from tests.table.test_live_crash import journal_payloads, start

    game = ["treize", "--seed", "21", "--players", "6"]
    args = ["--speed", "0", "--lang", "en"]
    done = run_cli("demo", *game, *args, data_dir=tmp_path / "reference")
    assert done.returncode == 0, done.stderr
    reference = journal_payloads(tmp_path / "reference")
    assert len(reference) > 200
    data = tmp_path / "killed"
    rng = random.Random(3)
    for kill in range(4):
        committed = journal_payloads(data)
        # Killed on reading the line the process prints after commit number ``at`` (a third of
        # the way into what is left at most), not after a random sleep: every kill falls
        # mid-match whatever the machine's load (the rest of the match is dozens of synchronous
        # commits away).
        at = len(committed) + rng.randint(1, (len(reference) - len(committed)) // 3)
        process = start(["demo", *game, *args] if not committed else ["resume", *args], data)
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("#committed") and int(line.split()[-1]) >= at:
                process.send_signal(signal.SIGKILL)
                break
        process.communicate(timeout=30)
        after = journal_payloads(data)
        assert at <= len(after) < len(reference), (kill, at, len(after))  # cut half-way
        assert after == reference[: len(after)]  # exactly the uninterrupted match, so far
    while len(journal_payloads(data)) < len(reference):
        resumed = (
            run_cli("resume", *args, data_dir=data)
            if journal_payloads(data)
            else run_cli("demo", *game, *args, data_dir=data)
        )
        assert resumed.returncode == 0, resumed.stderr
    assert journal_payloads(data) == reference
