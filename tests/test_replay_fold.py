"""The fold's side of `companion replay`'s shortcut (table/fold.py: replay, _fold), small and
quick enough for bench/mutation.py's fold selection: test_replay_fast.py checks the outputs over
every project log, too slow to run once per mutant. Each test failed on a mutant of fold.py that
test_tablelog.py let through (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.table import fold as fold_module
from companion.table.fold import replay
from tests.test_replay_fast import UNDO, kilo_log, outcome, plain


def engines(tmp_path: Path, lines: list[str], **kwargs: bool) -> list[object]:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    with path.open("rb") as handle:
        from_file = replay(handle, **kwargs)
        assert handle.read() == b""  # read to the end once more, from where the scan left it
    return [replay(list(lines), **kwargs), from_file]


def test_past_the_last_undo_the_engine_keeps_no_copies_and_only_then(tmp_path: Path) -> None:
    lines = kilo_log(12, {4})
    expected = outcome(plain(lines))
    for engine in engines(tmp_path, lines, read_only=True):
        assert outcome(engine) == expected  # type: ignore[arg-type]
        assert len(engine._checkpoints) == 0 and not engine._checkpoints.needed  # type: ignore[attr-defined]
    for engine in engines(tmp_path, lines):  # a replay that may play on keeps every copy
        assert outcome(engine) == expected  # type: ignore[arg-type]
        assert len(engine._checkpoints) == 13 and engine._checkpoints.needed  # type: ignore[attr-defined]
    # An undo as the last line: the copies are needed up to it, and nothing is told after.
    tail = [*lines, UNDO]
    for engine in engines(tmp_path, tail, read_only=True):
        assert outcome(engine) == outcome(plain(tail))  # type: ignore[arg-type]
        assert len(engine._checkpoints) == 12 and engine._checkpoints.needed  # type: ignore[attr-defined]


def test_an_undo_past_the_scan_point_folds_again_from_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = kilo_log(8, {2, 6})
    expected = outcome(plain(lines))
    monkeypatch.setattr(fold_module, "_last_undo_line", lambda _lines: 1)
    for engine in engines(tmp_path, lines, read_only=True):
        assert outcome(engine) == expected  # type: ignore[arg-type]


def test_the_scan_finds_the_last_undo_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = kilo_log(30, {2, 9})
    last = max(i for i, line in enumerate(lines, start=1) if "undo" in line)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    # Chunks of a few bytes: a mark cut across two chunks is still found, on the right line.
    for chunk in (1, 2, 3, 5, 64, 1 << 20):
        monkeypatch.setattr(fold_module, "_SCAN_CHUNK", chunk)
        with path.open("rb") as handle:
            assert fold_module._last_undo_line(handle) == last
            assert handle.tell() == 0
    assert fold_module._last_undo_line(lines) == last
    assert fold_module._last_undo_line(kilo_log(3)) == 0
