"""``companion play`` without a game name, as the kiosk unit starts it: the game the table played
last (by the journal's order, not the clock), else the setup screen where the game is chosen."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.cli import build_parser
from companion.cli import play as play_cli
from companion.games import load
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``cmd_play`` hands to the screen's loop, instead of running it."""
    seen: dict[str, Any] = {}

    def run(journal: Any, table: Any, ui: Any, input_name: str, *rest: Any) -> int:
        seen.update(table=table, ui=ui, input=input_name)
        return 0

    monkeypatch.setattr(play_cli, "_run", run)
    return seen


def play(*args: str) -> int:
    parsed = build_parser().parse_args(["play", *args])
    return int(parsed.func(parsed))


def begin(data: Path, game: str, players: list[str]) -> str:
    with Journal(data, writer=True) as journal:
        return Table.start(
            journal, load(game).setup(game=game, players=players), {"input": "keyboard"}
        ).game_id


def test_an_empty_journal_opens_the_setup_screen(opened: dict[str, Any]) -> None:
    assert play("--fullscreen", "--resume") == 0
    assert opened["table"] is None
    ui = opened["ui"]
    assert ui.screen is None and ui.setup.game == "kilo" and ui.game == "kilo"


def test_the_game_played_last_by_the_journals_order(opened: dict[str, Any], _isolated_data_dir: Path) -> None:
    data = _isolated_data_dir
    begin(data, "cinq-rois", ["Ana", "Ben"])
    last = begin(data, "treize", ["Cid", "Dan", "Eva", "Fé"])
    # The Pi's clock was set back at boot (no battery): the newer game looks older.
    with sqlite3.connect(data / FILENAME) as db:
        db.execute("UPDATE games SET created_ns = 1 WHERE id = ?", (last,))
    assert play("--fullscreen") == 0
    ui = opened["ui"]
    assert opened["table"] is None
    assert ui.game == "treize" and ui.setup.game == "treize"
    assert ui.setup.players == ["Cid", "Dan", "Eva", "Fé"]
    # --players without a game: a new game of that kind with them.
    assert play("--players", "Gil,Hugo,Inès") == 0
    table: Any = opened["table"]  # (a new dict value: the assert above narrowed the old one)
    assert table.engine.game == "treize"


def test_resume_still_resumes_the_unfinished_game(opened: dict[str, Any], _isolated_data_dir: Path) -> None:
    game_id = begin(_isolated_data_dir, "cinq-rois", ["Ana", "Ben", "Cid"])
    assert play("--fullscreen", "--resume") == 0
    assert opened["table"].game_id == game_id and opened["ui"].game == "cinq-rois"


def test_a_named_game_is_still_that_game(opened: dict[str, Any], _isolated_data_dir: Path) -> None:
    begin(_isolated_data_dir, "treize", ["Cid", "Dan", "Eva"])
    assert play("cinq-rois") == 0
    assert opened["ui"].setup.game == "cinq-rois" and opened["table"] is None
