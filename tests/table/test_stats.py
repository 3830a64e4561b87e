"""History and statistics: the quick Kilo fold agrees with the engine on whole games (undos of
verdicts and draws, ties, false slaps, a pile that runs out), the per-player numbers are the ones
a table would count by hand, and the commands work as a new user tries them."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.kilo.demo import choose_card
from companion.games.kilo.events import Close, Draw, NewKiloGame, Press, Verdict
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.stats import KiloPart
from companion.games.kilo.tally import tally
from companion.table.log import Undo, iter_events
from companion.table.stats import GameRecord, PlayerStats, SlapFact, player_stats, record_from_payloads

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ana", "Ben", "Cléo", "Dan", "Eva", "Fred", "Gus", "Hana", "Ivo", "Jo")


def random_game(seed: int) -> tuple[list[Any], list[SlapFact]]:
    """A whole game driven through the real engine, and the slaps it judged still in force:
    photo finishes, exact ties, players who never slap, false slaps, undone verdicts and draws,
    bounces and presses while a draw is owed, long games that empty the pile."""
    rng = random.Random(seed)
    n = rng.randint(3, 10)
    p_valid = rng.choice([0.75, 0.3])  # some tables slap in error a lot
    rules = {
        "seven": rng.choice(["flush", "first_card_counts"]),
        "tie": rng.choice(["all_draw", "reslap"]),
        "slap_timeout_ms": 1000,
    }
    setup = NewKiloGame(players=list(NAMES[:n]), rounds=rng.choice([1, 5, 12, 99]), rules=rules)
    game = KiloGame(setup)
    events: list[Any] = [setup]
    slaps: list[SlapFact] = []
    decisions: list[str] = []
    t = 1_000_000

    def push(event: Any) -> None:
        game.apply(event)
        events.append(event)
        if isinstance(event, Verdict | Draw):
            decisions.append(event.type)
        if isinstance(event, Verdict):
            s = game.last_slap
            assert s is not None
            slaps.append(SlapFact(s.order, s.losers, s.margin_us, s.valid, s.tied))

    while not game.finished and len(events) < 3000:
        if decisions and rng.random() < 0.06:
            game.apply(Undo())
            events.append(Undo())
            if decisions.pop() == "verdict":
                slaps.pop()
            continue
        if game.awaiting == "draw":
            if rng.random() < 0.1:
                push(Press(player=rng.choice(game.players), t_us=t))  # ignored: a draw is owed
            push(Draw(player=game.owed_draws[0], card=choose_card(game, rng)))
            continue
        t += 10_000_000
        order = list(game.players)
        rng.shuffle(order)
        if rng.random() < 0.15:
            order.pop()  # someone never slaps
            if rng.random() < 0.5:
                push(Close(t_us=t + 900_000))
        stamp = t
        for i, player in enumerate(order):
            tie = i == len(order) - 1 and rng.random() < 0.2
            stamp += 0 if tie else rng.randrange(1, 300_000)
            push(Press(player=player, t_us=stamp))
            if rng.random() < 0.05:
                push(Press(player=player, t_us=stamp + 40_000))  # a bounce, counts for nothing
        if rng.random() < p_valid:
            push(Verdict(valid=True))
        else:
            penalized = rng.sample(order, k=min(len(order), rng.randint(1, 2)))
            push(Verdict(valid=False, penalized=penalized if rng.random() < 0.5 else None))
    return events, slaps


def test_the_random_games_cover_the_hard_cases() -> None:
    games = [random_game(seed) for seed in range(60)]
    ends = set()
    for events, _slaps in games:
        engine = KiloGame(events[0])
        for event in events[1:]:
            engine.apply(event)
        ends.add(engine.end_reason)
    assert sum(e.type == "undo" for events, _ in games for e in events[1:]) > 50
    assert any(s.tied for _, slaps in games for s in slaps)
    assert any(not s.valid for _, slaps in games for s in slaps)
    assert ends >= {"rounds", "pile_empty"}


@pytest.mark.parametrize("seed", range(60))
def test_quick_fold_agrees_with_the_engine(seed: int) -> None:
    events, slaps = random_game(seed)
    engine = KiloGame(events[0])
    for event in events[1:]:
        engine.apply(event)
    payloads = [json.loads(e.to_json()) for e in events]
    result = tally(payloads[0], payloads[1:])
    assert result.finished == engine.finished
    assert list(result.winners) == engine.winners()
    assert result.kilos == {p: engine.kilos(p) for p in engine.players}
    assert result.flushes == {p: engine.flushes(p) for p in engine.players}
    assert list(result.slaps) == slaps


@pytest.mark.parametrize("seed", [5, 11])  # finished games with flushes and slaps
def test_a_kilo_record_is_what_its_engine_counted(seed: int) -> None:
    """The record history and statistics keep (through ``Game.outcome``): every number of the
    engine, whether the caller folded the game already (a live table's state) or not."""
    events, slaps = random_game(seed)
    engine = KiloGame(events[0])
    for event in events[1:]:
        engine.apply(event)
    payloads = [e.to_json() for e in events]
    for state in (None, engine.to_json()):
        record = record_from_payloads("k", 0, payloads, state)
        assert (record.game, record.unit, record.finished) == ("kilo", "kilos", engine.finished)
        assert list(record.winners) == engine.winners()
        assert record.scores == tuple((p, engine.kilos(p)) for p in engine.players)
        assert record.flushes == tuple((p, engine.flushes(p)) for p in engine.players)
        assert list(record.slaps) == slaps
        assert (record.sheet is None) == (state is None)


@pytest.mark.parametrize("name", ["kilo-four-players", "kilo-timeout-undo"])
def test_quick_fold_agrees_on_the_documented_examples(name: str) -> None:
    text = (ROOT / "docs" / "examples" / f"{name}.jsonl").read_text(encoding="utf-8")
    events = [e for _, e in iter_events(text.splitlines())]
    expected = json.loads((ROOT / "docs" / "examples" / f"{name}.expected.json").read_text())
    record = record_from_payloads("x", 0, [e.to_json() for e in events])
    assert record.finished == expected["finished"]
    assert list(record.winners) == expected["winners"]
    assert dict(record.scores) == {r["player"]: r["kilos"] for r in expected["standings"]}


def test_other_games_go_through_their_engine() -> None:
    text = (ROOT / "docs/examples/treize/treize-advanced-with-plays.jsonl").read_text("utf-8")
    expected = json.loads(
        (ROOT / "docs/examples/treize/treize-advanced-with-plays.expected.json").read_text()
    )
    events = [e for _, e in iter_events(text.splitlines())]
    record = record_from_payloads("t", 0, [e.to_json() for e in events])
    assert record.game == "treize" and record.unit == "points"
    assert list(record.winners) == expected["winners"]
    assert dict(record.scores) == {r["player"]: r["points"] for r in expected["standings"]}


def _slap(
    order: list[tuple[str, int]], losers: tuple[str, ...], valid: bool = True, tied: bool = False
) -> SlapFact:
    margin = order[-1][1] - order[-2][1] if len(order) >= 2 and valid else None
    return SlapFact(tuple(order), losers, margin, valid, tied)


def kilo_part(s: PlayerStats) -> KiloPart:
    part = s.parts["kilo"]
    assert isinstance(part, KiloPart)
    return part


def test_player_numbers_as_a_table_would_count_them() -> None:
    players = ("Ana", "Ben", "Cléo")
    game1 = GameRecord(
        "g1",
        "kilo",
        1,
        players,
        True,
        ("Ana",),
        (("Ana", 5), ("Ben", 30), ("Cléo", 12)),
        "kilos",
        (
            _slap([("Ana", 0), ("Ben", 200_000), ("Cléo", 200_150)], ("Cléo",)),
            _slap([("Ben", 0), ("Ana", 90_000), ("Cléo", 400_000)], ("Cléo",)),
            _slap([("Ben", 0)], ("Ben",), valid=False),
        ),
        (("Ana", 1), ("Ben", 0), ("Cléo", 0)),
    )
    game2 = GameRecord("g2", "treize", 2, ("Ana", "Ben"), True, ("Ben",), (("Ana", 3), ("Ben", 9)), "points")
    unfinished = GameRecord("g3", "kilo", 3, players, False, (), (), "kilos")
    broken = GameRecord("g4", "kilo", 4, players, False, (), (), "", error="damaged")
    stats = player_stats([game1, game2, unfinished, broken])
    ana, ben, cleo = stats["Ana"], stats["Ben"], stats["Cléo"]
    assert (ana.games, ana.wins, ben.games, ben.wins, cleo.games) == (2, 1, 2, 1, 1)
    assert ana.by_game == {"kilo": [1, 1], "treize": [1, 0]}
    assert list(ana.parts) == ["kilo"]  # the games that keep numbers of their own
    a, b, c = (kilo_part(stats[p]) for p in players)
    assert (c.slap_losses, c.times_last, b.false_slaps, a.flushes) == (2, 2, 1, 1)
    assert a.delays_us == [90_000] and a.firsts == 1
    assert c.median_delay_us == 300_075 and c.best_delay_us == 200_150
    assert b.closest_escapes() == [150]  # Ben beat Cléo by 150 µs
    assert a.closest_escapes() == [310_000]
    assert a.kilos == 5 and a.games == 1  # over the Kilo game alone


# --- the commands -------------------------------------------------------------------------------


def _companion(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    """The command line on ``data``: a demo in its own process (it plays a whole game), the
    commands that read the journal in this one (the real ``main``, stdout and stderr captured:
    mutmut sees which test reaches which function only in-process, and it is quicker)."""
    # The journals here are made by `companion demo`, standing in for a table's games: history
    # and stats count them when told to (tests/review/test_newcomer.py holds that they do not unasked).
    demos = ["--demos"] if args[0] in ("history", "stats") else []
    if args[0] == "demo":
        return subprocess.run(
            [sys.executable, "-m", "companion", *args, "--data-dir", str(data)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    import contextlib

    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*args, *demos, "--data-dir", str(data)])
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("stats") / "data"
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        proc = _companion(
            "demo", "--speed", "0", "--seed", str(seed), "--players", str(players), "--rounds", "3", data=data
        )
        assert proc.returncode == 0, proc.stderr
    return data


def test_history_lists_date_game_players_winner(journal: Path) -> None:
    proc = _companion("history", "--lang", "en", data=journal)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 4 and lines[-1] == "3 games, 3 finished."
    assert all("Kilo de merde" in x and ("→  winner: " in x or "→  joint winners: " in x) for x in lines[:3])
    report = json.loads(_companion("history", "--json", data=journal).stdout)
    assert [len(g["players"]) for g in report["games"]] == [3, 4, 5]
    assert all(g["winners"] and g["finished"] for g in report["games"])


def test_stats_table_one_player_and_json(journal: Path) -> None:
    proc = _companion("stats", data=journal)
    assert proc.returncode == 0 and proc.stdout.startswith("joueur")
    assert len(proc.stdout.splitlines()) == 1 + 5  # Alice..Émile
    detail = _companion("stats", "alice", "--lang", "en", data=journal).stdout
    assert detail.startswith("Alice: 3 games, ")
    assert "reaction behind the first slap: median " in detail and "closest escapes" in detail
    data = json.loads(_companion("stats", "--json", data=journal).stdout)
    alice = next(p for p in data["players"] if p["player"] == "Alice")
    assert alice["games"] == 3 and alice["kilo"]["games"] == 3
    assert alice["kilo"]["median_delay_us"] is not None
    wins = sum(p["wins"] for p in data["players"])
    assert wins >= 3  # a tie makes two winners


def test_stats_for_someone_unknown_says_who_is_known(journal: Path) -> None:
    proc = _companion("stats", "Zoé", "--lang", "en", data=journal)
    assert proc.returncode == 2
    assert proc.stderr.startswith("companion: No finished game for 'Zoé' (players: Alice, Bruno")


def test_no_journal_yet(tmp_path: Path) -> None:
    for cmd in ("history", "stats"):
        proc = _companion(cmd, "--lang", "en", data=tmp_path / "none")
        assert proc.returncode == 0 and "No game stored yet" in proc.stdout


def test_a_damaged_game_is_shown_unreadable_and_left_out_of_the_numbers(
    journal: Path, tmp_path: Path
) -> None:
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(journal, copy)
    # Rows are never rewritten, so the stats cache trusts a game's id and event count; damage
    # in place is `companion doctor`'s to find (integrity check and a fold of every game).
    (copy / "stats-cache.json").unlink(missing_ok=True)
    with sqlite3.connect(copy / "journal.sqlite3") as db:
        first = db.execute("SELECT id FROM games ORDER BY created_ns LIMIT 1").fetchone()[0]
        db.execute("UPDATE events SET payload = 'not json' WHERE game_id = ? AND seq = 2", (first,))
    proc = _companion("history", "--lang", "en", data=copy)
    assert proc.returncode == 0
    assert "unreadable" in proc.stdout.splitlines()[0]
    stats = json.loads(_companion("stats", "--json", data=copy).stdout)
    assert next(p for p in stats["players"] if p["player"] == "Alice")["games"] == 2


def test_the_cache_gives_the_same_numbers_and_follows_new_games(journal: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(journal, copy)
    (copy / "stats-cache.json").unlink(missing_ok=True)
    cold = _companion("stats", "--json", data=copy).stdout
    assert (copy / "stats-cache.json").exists()
    assert _companion("stats", "--json", data=copy).stdout == cold
    assert (
        _companion(
            "demo", "--speed", "0", "--seed", "9", "--players", "3", "--rounds", "1", data=copy
        ).returncode
        == 0
    )
    after = json.loads(_companion("stats", "--json", data=copy).stdout)["players"]
    assert next(p for p in after if p["player"] == "Alice")["games"] == 4
    (copy / "stats-cache.json").write_text("{not json")  # a broken cache is only ignored
    assert json.loads(_companion("stats", "--json", data=copy).stdout)["players"] == after


def test_export_csv_score_sheets(journal: Path) -> None:
    proc = _companion("export", "--csv", "--all", data=journal)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0][:9] == ["game_id", "date", "game", "seat", "player", "score", "unit", "winner", "finished"]
    assert rows[0][9:] == ["round_1", "round_2", "round_3"]
    assert len(rows) == 1 + 3 + 4 + 5
    history = json.loads(_companion("history", "--json", data=journal).stdout)["games"]
    for game in history:
        mine = [r for r in rows[1:] if r[0] == game["id"]]
        assert {r[4]: int(r[5]) for r in mine} == game["scores"]
        assert {r[4] for r in mine if r[7] == "1"} == set(game["winners"])
        assert all(r[-1] == r[5] for r in mine)  # kilos after the last round = the score
        assert {(r[2], r[6], r[8]) for r in mine} == {("kilo", "kilos", "1")}  # the unit, finished
        assert [r[3] for r in mine] == [str(seat) for seat in range(1, len(mine) + 1)]
    one = list(csv.reader(io.StringIO(_companion("export", "--csv", data=journal).stdout)))
    assert len(one) == 1 + 5  # the most recent game only
    assert _companion("export", "--all", data=journal).returncode == 2
    assert _companion("export", data=journal).stdout.startswith("{")


def test_cinq_rois_and_treize_in_history_stats_and_score_sheets(tmp_path: Path) -> None:
    from companion.table.journal import Journal
    from companion.table.log import event_from_dict

    data = tmp_path / "data"
    cinq: list[dict[str, Any]] = [{"type": "new_game", "game": "cinq-rois", "players": ["Ana", "Ben", "Cy"]}]
    cinq += [
        {"type": "round_end", "out": "Ben", "points": {"Ana": 5, "Cy": r}} for r in range(11)
    ]  # Ben never scores: he wins with 0
    treize = [
        json.loads(line)
        for line in (ROOT / "docs/examples/treize/treize-advanced-with-plays.jsonl").read_text().splitlines()
        if line.startswith("{")
    ]
    with Journal(data, writer=True) as journal:
        for rows in (cinq, treize):
            game = rows[0]["game"]
            first = event_from_dict(rows[0], None)
            game_id = journal.new_game(first, game, tuple(rows[0]["players"]), {})
            for seq, row in enumerate(rows[1:], start=2):
                journal.append(game_id, seq, event_from_dict(row, game))
    history = json.loads(_companion("history", "--json", data=data).stdout)["games"]
    assert [g["game"] for g in history] == ["cinq-rois", "treize"]
    assert history[0]["winners"] == ["Ben"] and history[0]["scores"] == {"Ana": 55, "Ben": 0, "Cy": 55}
    assert history[0]["unit"] == "points"
    stats = json.loads(_companion("stats", "Ben", "--json", "--game", "cinq-rois", data=data).stdout)[
        "players"
    ]
    assert stats[0]["wins"] == 1 and stats[0]["by_game"] == {"cinq-rois": {"games": 1, "wins": 1}}
    sheet = list(csv.reader(io.StringIO(_companion("export", "--csv", "--all", data=data).stdout)))
    cy = next(r for r in sheet if r[2] == "cinq-rois" and r[4] == "Cy")
    assert cy[5] == "55" and cy[9:20] == [str(r) for r in range(11)]  # points of each round
    treize_rows = [r for r in sheet if r[2] == "treize"]
    assert len(treize_rows) == len(treize[0]["players"])


def test_stats_write_numbers_as_the_language_does(journal: Path) -> None:
    """Issue 11: a decimal comma in French ("2,3" kilos a game, "12,3 ms"), a point in English."""
    import re

    fr_table = _companion("stats", data=journal).stdout
    en_table = _companion("stats", "--lang", "en", data=journal).stdout
    assert re.search(r"\d,\d", fr_table) and not re.search(r"\d\.\d", fr_table), fr_table
    assert re.search(r"\d\.\d", en_table) and not re.search(r"\d,\d", en_table), en_table
    fr_detail = _companion("stats", "alice", data=journal).stdout
    assert re.search(r"kg\u202f: \d+ en tout, \d+,\d par partie de Kilo", fr_detail), fr_detail


def test_the_score_sheet_reads_as_the_table_wrote_it(tmp_path: Path) -> None:
    """Issue 38: every cell of a game's rows as a spreadsheet shows them: seats numbered from 1 in
    seating order (not from 0, not in the standings' order), each player's total and unit, no
    winner and not finished while the game goes on, then one column per round."""
    import time

    from companion.table.journal import Journal
    from companion.table.log import event_from_dict

    data = tmp_path / "data"
    rows: list[dict[str, Any]] = [{"type": "new_game", "game": "cinq-rois", "players": ["Cy", "Ana", "Ben"]}]
    rows += [
        {"type": "round_end", "out": "Ben", "points": {"Ana": 5, "Cy": 3}},
        {"type": "round_end", "out": "Ana", "points": {"Ben": 7, "Cy": 2}},
    ]
    # The game was begun on 2 January 2025 at 20:15:30, the table's local time: the sheet's
    # date is that, not the export's.
    begun = time.mktime((2025, 1, 2, 20, 15, 30, 0, 0, -1))
    with Journal(data, writer=True) as journal:
        first = event_from_dict(rows[0], None)
        with pytest.MonkeyPatch.context() as clock:
            clock.setattr(time, "time_ns", lambda: int(begun * 1e9))
            game_id = journal.new_game(first, "cinq-rois", tuple(rows[0]["players"]), {})
        for seq, row in enumerate(rows[1:], start=2):
            journal.append(game_id, seq, event_from_dict(row, "cinq-rois"))
    # The real command line, in this process (mutmut sees what a subprocess runs, not which
    # test ran it).
    import contextlib

    from companion.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--csv", "--data-dir", str(data)]) == 0
    text = out.getvalue()
    assert text.endswith("\n") and "\r" not in text
    sheet = list(csv.reader(io.StringIO(text)))
    assert sheet[0] == [
        *["game_id", "date", "game", "seat", "player", "score", "unit", "winner", "finished"],
        "round_1",
        "round_2",
    ]
    assert [r[:1] + r[2:] for r in sheet[1:]] == [
        [game_id, "cinq-rois", "1", "Cy", "5", "points", "0", "0", "3", "2"],
        [game_id, "cinq-rois", "2", "Ana", "5", "points", "0", "0", "5", "0"],
        [game_id, "cinq-rois", "3", "Ben", "7", "points", "0", "0", "0", "7"],
    ]
    assert {r[1] for r in sheet[1:]} == {"2025-01-02T20:15:30"}


def test_a_name_a_spreadsheet_would_run_is_shown_as_text(tmp_path: Path) -> None:
    """Old journals and table logs may hold names that start like a formula (new games refuse
    them): the sheet gives them a leading apostrophe, so a spreadsheet shows them and runs
    nothing; other names are left as they are."""
    import contextlib

    from companion.cli import main
    from companion.table.journal import Journal
    from companion.table.log import event_from_dict

    data = tmp_path / "data"
    names = ["=1+1", "Ben", "@Cy", "-2", "+Eve", "Dé=o"]
    first = event_from_dict({"type": "new_game", "game": "cinq-rois", "players": names}, None)
    with Journal(data, writer=True) as journal:
        journal.new_game(first, "cinq-rois", tuple(names), {})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--csv", "--data-dir", str(data)]) == 0
    sheet = list(csv.reader(io.StringIO(out.getvalue())))
    assert [r[4] for r in sheet[1:]] == ["'=1+1", "Ben", "'@Cy", "'-2", "'+Eve", "Dé=o"]
    assert [r[3] for r in sheet[1:]] == ["1", "2", "3", "4", "5", "6"]


def test_export_all_without_csv_says_why_in_the_asked_language(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for lang, said in (
        ("fr", "companion: --all va avec --csv\u202f: un journal de table ne contient qu’une partie.\n"),
        ("en", "companion: --all goes with --csv: a table log holds one game.\n"),
    ):
        done = _companion("export", "--all", "--lang", lang, data=data)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", said)
    assert not data.exists()
