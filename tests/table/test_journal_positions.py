"""Where a game stands in its sources' replayable streams (issue 34, case 2b): the journal keeps
it in the same transaction as the events it covers, outside the table log, and a resumed game
finds it again."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.games.kilo.events import NewKiloGame, Press
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table

PLAYERS = ["Alice", "Bob", "Chloé"]
BOARD = "pico:E6614103E7452D2F@pico-boot:00000007"


def start(data: Path) -> tuple[Journal, Table]:
    journal = Journal(data, writer=True)
    return journal, Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "serial"})


def test_a_position_is_kept_with_the_next_events_and_found_again_on_resume(tmp_path: Path) -> None:
    journal, table = start(tmp_path)
    try:
        table.hold()
        table.handled(BOARD, 1)  # Alice's press, seq 0
        table.submit(Press(player="Alice", t_us=1_000, res_us=1))
        table.commit()
        assert journal.positions(table.game_id) == {BOARD: 1}
        # Her release (seq 1) makes no event: its position waits for the next one written.
        table.handled(BOARD, 2)
        assert journal.positions(table.game_id) == {BOARD: 1}
        table.handled(BOARD, 3)  # Bob's press, unheld: journaled at once, with it
        table.submit(Press(player="Bob", t_us=2_000, res_us=1))
        assert journal.positions(table.game_id) == {BOARD: 3}
        table.handled(BOARD, 2)  # an older position never takes a stream back
        assert table.positions == {BOARD: 3}
        game_id = table.game_id
    finally:
        journal.close()
    with Journal(tmp_path, writer=True) as again:
        assert Table.resume(again, game_id).positions == {BOARD: 3}
        assert Table.start(again, NewKiloGame(players=PLAYERS, rounds=3), {}).positions == {}


def test_a_refused_batch_keeps_no_position_and_the_table_goes_back_to_the_journal_s(tmp_path: Path) -> None:
    journal, table = start(tmp_path)
    try:
        table.hold()
        table.handled(BOARD, 1)
        table.submit(Press(player="Alice", t_us=1_000, res_us=1))
        table.commit()
        other = sqlite3.connect(tmp_path / FILENAME)
        other.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.seq = 3 "
            "BEGIN SELECT RAISE(ABORT, 'the disk went away'); END"
        )
        other.commit()
        table.hold()
        table.handled(BOARD, 5)
        table.submit(Press(player="Bob", t_us=2_000, res_us=1))
        with pytest.raises(JournalError):
            table.commit()
        other.close()
        # Bob's press is not in the journal, nor the position that covered it: a resume asks
        # the board for it again.
        assert journal.positions(table.game_id) == {BOARD: 1}
        assert table.positions == {BOARD: 1}
    finally:
        journal.close()


def test_positions_stay_out_of_the_table_log(tmp_path: Path) -> None:
    journal, table = start(tmp_path)
    try:
        table.handled(BOARD, 1)
        table.submit(Press(player="Alice", t_us=1_000, res_us=1))
        payloads = [json.loads(text) for _, text in journal.payloads(table.game_id)]
    finally:
        journal.close()
    assert all("position" not in json.dumps(p) and BOARD not in json.dumps(p) for p in payloads)


def test_a_journal_written_before_positions_gets_them_from_its_next_writer(tmp_path: Path) -> None:
    journal, table = start(tmp_path)
    game_id = table.game_id
    journal.close()
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("DROP TABLE positions")
    db.commit()
    db.close()
    with Journal(tmp_path, writer=False) as reader:
        assert reader.positions(game_id) == {}  # a reader changes nothing, and finds none
    with Journal(tmp_path, writer=True) as writer:
        table = Table.resume(writer, game_id)
        table.handled(BOARD, 4)
        table.submit(Press(player="Chloé", t_us=3_000, res_us=1))
        assert writer.positions(game_id) == {BOARD: 4}
