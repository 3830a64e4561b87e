"""bench/stats.py runs and speaks the bench format (a behaviour check; figures never asserted)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_prints_one_json_object_per_figure(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "stats.py"),
            "--quick",
            "--games",
            "6",
            "--runs",
            "1",
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [x["name"] for x in lines] == [
        "games.command.first",
        "stats.command.cold",
        "stats.command.after_write",
        "stats.command",
        "history.command.cold",
        "history.command.after_write",
        "history.command",
        "games.command.cold",
        "games.command.after_write",
        "games.command",
        "export_csv.command.cold",
        "export_csv.command.after_write",
        "export_csv.command",
        "doctor.journal.command",
        "doctor.command",
    ]
    for line in lines:
        assert {"name", "unit", "median", "p99", "runs", "n", "target", "ok", "cpu_median"} <= set(line)
        assert line["median"] > 0 and isinstance(line["ok"], bool)
    assert lines[0]["n"] == 6 and lines[0]["events"] > 6
    assert list(tmp_path.iterdir()) == []  # cleaned up


def test_the_built_journal_is_what_a_table_writes_and_doctor_finds_it_healthy(tmp_path: Path) -> None:
    """The copies are games of their own (new id, every row its own), with the events and the
    summary of the game they copy, written by the table's writer: the same tables, and every
    check of `doctor` and `games` passes."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from stats import build_journal  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "bench"))

    data = tmp_path / "data"
    assert build_journal(data, 7, pool=1) > 7
    db = sqlite3.connect(data / "journal.sqlite3")
    games = db.execute("SELECT id, game FROM games ORDER BY rowid").fetchall()
    assert [g for _, g in games] == ["kilo", "cinq-rois", "treize"] * 2 + ["kilo"]
    assert len({i for i, _ in games}) == 7

    def payloads(game_id: str) -> list[str]:
        return [
            r[0] for r in db.execute("SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        ]

    for (original, _), (copy, _) in zip(games, games[3:], strict=False):
        assert payloads(copy) == payloads(original)
    summed = {r[0] for r in db.execute("SELECT game_id FROM summaries")}
    assert summed == {i for i, _ in games}  # each summed up at its end, as the table does
    db.close()
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    for args in (["doctor", "--lang", "en"], ["games"]):
        proc = subprocess.run(
            [sys.executable, "-m", "companion.cli", *args, "--data-dir", str(data)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
            check=False,
        )
        if args[0] == "doctor":
            assert "7 games all replay" in proc.stdout, proc.stdout
        else:
            assert proc.returncode == 0, proc.stderr
