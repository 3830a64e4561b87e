"""Per-game summaries in the journal (issue 22, a club's 2,000 games): ``games``, ``history``,
``stats`` and ``export --csv`` read each game's summary instead of replaying it, and a summary
always says what a full replay of the game's events says, undo and unfinished games included.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games import load
from companion.table import stats
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from companion.table.log import Undo
from tests.table.test_stats import random_game


class _Cut(Exception):
    """The table stops here, as a pulled plug stops it."""


def _demo(journal: Journal, name: str, seed: int, *, cut: int | None = None) -> Table:
    """One demo game of ``name``; ``cut``: stopped after that many events, unfinished."""
    game = load(name)
    low = {"kilo": 3, "cinq-rois": 2, "treize": 3}[name]
    setup = game.demo_setup(low + seed % 3, 2, seed)
    table = Table.start(journal, setup, {"input": "sim", "seed": seed, "lang": "en"})
    if cut is not None:
        real = table.submit

        def submit(event: Any) -> None:
            if table.seq >= cut:
                raise _Cut
            real(event)

        table.submit = submit  # type: ignore[method-assign]
    with contextlib.suppress(_Cut):
        game.run_demo(table, seed, 0, "en", io.StringIO())
    return table


def _mixed_journal(data: Path) -> list[str]:
    """Finished and unfinished games of the three games, undos of the last event (so a finished
    game is unfinished again), an undo then the same event again, random Kilo games full of
    undone verdicts; returns what was done to each game, for the messages."""
    done = []
    rng = random.Random(22)
    with Journal(data, writer=True) as journal:
        for i, name in enumerate(["kilo", "cinq-rois", "treize"] * 3):
            how = ("whole", "cut", "undone", "redone")[i % 4]
            table = _demo(journal, name, i, cut=rng.randint(2, 40) if how == "cut" else None)
            if how in ("undone", "redone") and table.engine.finished:
                last = table.recent[-1]
                table.submit(Undo())
                assert not table.engine.finished, name
                if how == "redone":
                    table.submit(last)
                    assert table.engine.finished, name
            done.append(f"{name} {how}")
        for seed in range(6):
            events, _ = random_game(seed)
            keep = len(events) if seed % 2 else rng.randint(2, len(events))
            table = Table.start(journal, events[0], {"input": "sim"})
            for event in events[1:keep]:
                table.submit(event)
            done.append(f"random kilo {seed} ({keep} of {len(events)} events)")
    return done


def _seen(record: stats.GameRecord) -> Any:
    """What the commands show of a record."""
    return (
        record.to_json(),
        record.slaps,
        record.flushes,
        json.loads(json.dumps(record.sheet)),
    )


def _no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> Any:
        raise AssertionError("a game was replayed although its summary was there")

    monkeypatch.setattr(stats, "_read", refuse)
    monkeypatch.setattr(Table, "load", refuse)


def test_a_summary_is_what_a_full_replay_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    done = _mixed_journal(data)
    with Journal(data, writer=False) as journal:
        infos = journal.games()
        truth = {info.id: _seen(stats._read(journal, info)) for info in infos}
        assert all(t[0]["error"] is None for t in truth.values())
        assert {t[0]["finished"] for t in truth.values()} == {True, False}
        # First look: the games that ended have their summary; the others are replayed once
        # and their summary stored.
        first = stats.records(journal, slaps=True, sheets=True)
    assert [_seen(r) for r in first] == list(truth.values())
    _no_replay(monkeypatch)
    with Journal(data, writer=False) as journal:
        again = stats.records(journal, slaps=True, sheets=True)
    for what, record, (game_id, seen) in zip(done, again, truth.items(), strict=True):
        assert record.id == game_id
        assert _seen(record) == seen, what


def _events_digest(data: Path) -> str:
    db = sqlite3.connect(data / FILENAME)
    try:
        rows = db.execute("SELECT game_id, seq, payload, recorded_ns FROM events ORDER BY game_id, seq")
        return hashlib.sha256(repr(rows.fetchall()).encode()).hexdigest()
    finally:
        db.close()


COMMANDS = [["games", "--json"], ["history", "--json"], ["stats", "--json"], ["export", "--csv", "--all"]]


def _outputs(data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    out = []
    for command in COMMANDS:
        (data / "stats-cache.json").unlink(missing_ok=True)  # cold: only the journal
        assert main([*command, "--lang", "en"]) == 0, command
        out.append(capsys.readouterr().out)
    return out


def test_the_listings_do_not_replay_when_summaries_are_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    with Journal(data, writer=True) as journal:
        for i, name in enumerate(["kilo", "cinq-rois", "treize"] * 2):
            _demo(journal, name, i)
    # The table summed up each game as it ended: no reader had to.
    db = sqlite3.connect(data / FILENAME)
    try:
        assert db.execute("SELECT count(DISTINCT game_id) FROM summaries").fetchone()[0] == 6
    finally:
        db.close()
    truth = _outputs(data, capsys, monkeypatch)
    _no_replay(monkeypatch)
    assert _outputs(data, capsys, monkeypatch) == truth


def test_a_journal_written_before_summaries_gets_them_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older journal (no summaries table): the first look replays each game and stores its
    summary, appended beside the events, which stay byte for byte as they were."""
    data = tmp_path / "data"
    with Journal(data, writer=True) as journal:
        for i, name in enumerate(["kilo", "cinq-rois", "treize"]):
            _demo(journal, name, i)
    db = sqlite3.connect(data / FILENAME)
    db.execute("DROP TABLE IF EXISTS summaries")
    db.commit()
    db.close()
    events = _events_digest(data)
    truth = _outputs(data, capsys, monkeypatch)
    assert _events_digest(data) == events
    _no_replay(monkeypatch)
    assert _outputs(data, capsys, monkeypatch) == truth
    assert _events_digest(data) == events


def _age(data: Path, seconds: float) -> None:
    """The journal's files as if last written ``seconds`` ago (a fresh file is never trusted
    unscanned: see ``Journal.fingerprint``)."""
    then = time.time() - seconds
    for path in data.iterdir():
        os.utime(path, (then, then))


def _games(data: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    assert main(["games", "--json", "--data-dir", str(data), "--lang", "en"]) == 0
    return {g["id"]: g["events"] for g in json.loads(capsys.readouterr().out)["games"]}


def test_an_unchanged_journal_is_not_counted_again_and_a_change_is_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    with Journal(data, writer=True) as journal:
        _demo(journal, "kilo", 1)
        cut = _demo(journal, "treize", 2, cut=12)
    # The first look replays the unfinished game and appends its summary: a change, seen as
    # such by the look after it, which finds the files as they now are.
    first = _games(data, capsys)
    assert first[cut.game_id] == 12
    _age(data, 60)
    assert _games(data, capsys) == first
    head = json.loads((data / stats.CACHE_NAME).read_bytes().split(b"\n")[0])
    assert head["journal"], head

    def no_scan(self: Journal) -> Any:
        raise AssertionError("the journal was scanned although its files did not change")

    with monkeypatch.context() as patch:
        patch.setattr(Journal, "tallies", no_scan)
        assert _games(data, capsys) == first
    # One more event in a game the cache holds, the files then aged again: their size and
    # time differ from what the cache saw, so the games are counted again.
    with Journal(data, writer=True) as journal:
        Table.load(journal, cut.game_id).submit(Undo())
    _age(data, 30)
    assert _games(data, capsys) == {**first, cut.game_id: 13}
