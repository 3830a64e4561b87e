"""`resume` and "the latest game" follow the journal's insertion order, never the wall clock:
a Pi without a real-time clock may boot 40 minutes in the past after a power cut."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.games.kilo.events import NewKiloGame, Press
from companion.table.journal import Journal
from companion.table.live import Table

SETUP = NewKiloGame(players=["A", "B", "C"], rounds=2)


def test_resume_takes_the_game_inserted_last_even_when_the_clock_went_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = time.time_ns
    with Journal(tmp_path, writer=True) as journal:
        older = Table.start(journal, SETUP, {})
        older.submit(Press(player="A", t_us=1))
        # The power cut: the Pi boots with its clock 40 minutes behind and a new game starts.
        monkeypatch.setattr(time, "time_ns", lambda: real() - 40 * 60 * 10**9)
        playing = Table.start(journal, SETUP, {})
        playing.submit(Press(player="B", t_us=2))
        playing.submit(Press(player="C", t_us=3))
    monkeypatch.setattr(time, "time_ns", real)
    with Journal(tmp_path, writer=True) as journal:
        assert Table.resume(journal).game_id == playing.game_id
        assert journal.game(None).id == playing.game_id
        assert [g.id for g in journal.games()] == [older.game_id, playing.game_id]
