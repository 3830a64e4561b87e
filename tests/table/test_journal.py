"""The SQLite journal: durable appends, bad journals left untouched, one writer at a time."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.games.kilo.events import NewKiloGame, Press, Verdict
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from tests.conftest import run_cli

SETUP = NewKiloGame(players=["A", "B", "C"], rounds=2)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_journal_is_wal_and_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, SETUP, {"input": "test"})
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        table.submit(Press(player="A", t_us=1))
    # A separate connection sees the committed event: it was durable before the state changed.
    db = sqlite3.connect(tmp_path / FILENAME)
    rows = db.execute("SELECT seq, payload FROM events ORDER BY seq").fetchall()
    assert [json.loads(p)["type"] for _, p in rows] == ["new_game", "press"]


def test_refused_event_is_not_journaled(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, SETUP, {})
        with pytest.raises(ValueError, match="no slap to judge"):
            table.submit(Verdict(valid=True))
        assert table.seq == 1
        assert [s for s, _ in journal.payloads(table.game_id)] == [1]


def test_resume_rebuilds_the_same_state(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, SETUP, {})
        for player, t in [("A", 1), ("B", 2), ("C", 3)]:
            table.submit(Press(player=player, t_us=t))
        table.submit(Verdict(valid=True))
        live = table.engine.to_json()
    with Journal(tmp_path, writer=True) as journal:
        again = Table.resume(journal)
        assert again.engine.to_json() == live and again.seq == 5


def test_second_writer_is_refused(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True):
        with pytest.raises(JournalError, match=r"another companion .* is already using"):
            Journal(tmp_path, writer=True)
        # another process, too: the lock is an OS lock, not a Python object
        result = run_cli("demo", "--speed", "0", "--rounds", "1", "--lang", "en", data_dir=tmp_path)
        assert result.returncode == 1
        assert "another companion" in result.stderr and "--data-dir" in result.stderr
        assert "Traceback" not in result.stderr
        readers = run_cli("games", data_dir=tmp_path)  # readers are welcome meanwhile
        assert readers.returncode == 0


@pytest.mark.parametrize("content", [b"this is not a database" * 100, b"SQLite format 3\x00" + b"\x01" * 200])
def test_broken_journal_is_reported_and_left_untouched(tmp_path: Path, content: bytes) -> None:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / FILENAME
    path.write_bytes(content)
    before = digest(path)
    for args in (["games"], ["export"], ["resume"], ["demo", "--speed", "0", "--rounds", "1"]):
        result = run_cli(*args, "--lang", "en", data_dir=tmp_path)
        assert result.returncode != 0, args
        assert "cannot be read" in result.stderr and "left untouched" in result.stderr, args
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([FILENAME, "journal.lock"])


def test_other_sqlite_database_is_not_taken_over(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = digest(tmp_path / FILENAME)
    result = run_cli("demo", "--speed", "0", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 1 and "not a companion journal" in result.stderr
    assert digest(tmp_path / FILENAME) == before


def test_journal_path_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / FILENAME).mkdir(parents=True)
    result = run_cli("games", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 1 and "it is not a file" in result.stderr


def test_unknown_game_id_and_empty_journal(tmp_path: Path) -> None:
    result = run_cli("export", "nope", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 1 and "no journal" in result.stderr
    run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "1", data_dir=tmp_path)
    result = run_cli("export", "nope", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 2 and "no game 'nope'" in result.stderr  # bad input
    assert "companion games" in result.stderr
    result = run_cli("resume", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 1 and "no unfinished game" in result.stderr


def test_corrupted_event_row_is_named(tmp_path: Path) -> None:
    run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "1", data_dir=tmp_path)
    db = sqlite3.connect(tmp_path / FILENAME)
    game_id = db.execute("SELECT id FROM games").fetchone()[0]
    db.execute('UPDATE events SET payload = \'{"type": "draw"}\' WHERE seq = 3')
    db.execute("UPDATE games SET finished = 0")
    db.commit()
    db.close()
    result = run_cli("resume", "--lang", "en", data_dir=tmp_path)
    assert result.returncode == 1
    assert f"event 3 of game {game_id}" in result.stderr


def test_data_dir_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run_cli("demo", "--speed", "0", "--data-dir", str(blocker / "sub"), "--lang", "en")
    assert result.returncode == 1 and "cannot write the journal folder" in result.stderr


def test_games_lists_and_export_replays(tmp_path: Path) -> None:
    assert "No stored games" in run_cli("games", "--lang", "en", data_dir=tmp_path).stdout
    run_cli("demo", "--speed", "0", "--rounds", "2", "--seed", "5", data_dir=tmp_path)
    listing = json.loads(run_cli("games", "--json", data_dir=tmp_path).stdout)["games"]
    assert len(listing) == 1 and listing[0]["finished"] and listing[0]["input"] == "sim"
    exported = run_cli("export", listing[0]["id"], data_dir=tmp_path).stdout
    # Pure JSON Lines, as jq and every JSON Lines reader want them: each line one JSON object.
    assert all(isinstance(json.loads(line), dict) for line in exported.splitlines())
    replayed = run_cli("replay", "-", "--json", stdin=exported)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["finished"] is True
    # The comment line only when asked; replay still reads it (the format allows comments).
    from companion import version

    commented = run_cli("export", listing[0]["id"], "--comment", data_dir=tmp_path).stdout
    assert commented == f"# companion {version()} export of game {listing[0]['id']}\n" + exported
    replayed = run_cli("replay", "-", "--json", stdin=commented)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["finished"] is True
