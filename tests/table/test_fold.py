"""The fold's side of `companion replay`'s shortcut (table/fold.py: replay, _fold), small and
quick enough for bench/mutation.py's fold selection: tests/table/test_fold_replay_fast.py checks the outputs
over
every project log, too slow to run once per mutant. Each test failed on a mutant of fold.py that
tests/table/test_log.py let through (issue 22)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.table import fold as fold_module
from companion.table.fold import replay
from tests.table.test_fold_replay_fast import UNDO, kilo_log, outcome, plain


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


# The scan against the plainest reading of its rule: the last line (numbered from where the
# reader stood, from 1) that holds `undo` or a backslash, 0 when none does. Pieces that build and
# break the mark (`und` + `o` across lines, a backslash at a chunk's edge), lines with and
# without their newline, text lines with a lone surrogate (a line iter_events reads as it comes).
_PIECES = [b"undo", b"\\", b"und", b"o", b"u", b"x", b'{"type":"press"}', "é".encode()]


def _reference(lines: list[bytes]) -> int:
    return max((i for i, line in enumerate(lines, 1) if b"undo" in line or b"\\" in line), default=0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map(b"".join), max_size=8),
    st.booleans(),
    st.lists(st.sampled_from(_PIECES), max_size=4).map(b"".join),
    st.integers(1, 9),
)
def test_the_scan_reads_like_its_rule(
    body: list[bytes], last_newline: bool, before: bytes, chunk: int
) -> None:
    lines = [line + b"\n" for line in body]
    if lines and not last_newline:
        lines[-1] = lines[-1][:-1]
    expected = _reference(lines)
    assert fold_module._last_undo_line(lines) == expected  # a list of bytes
    texts = [line.decode("utf-8") + "\udc80" for line in lines]  # str lines, a lone surrogate each
    assert fold_module._last_undo_line(texts) == expected
    # A stream: only what follows where it stood counts (`before` and its newline are not lines of
    # the log), it is left where it stood, and chunks of any size find the same line.
    old = fold_module._SCAN_CHUNK
    fold_module._SCAN_CHUNK = chunk
    try:
        stream = io.BytesIO(before + b"\n" + b"".join(lines))
        stream.seek(len(before) + 1)
        assert fold_module._last_undo_line(stream) == expected
        assert stream.tell() == len(before) + 1
    finally:
        fold_module._SCAN_CHUNK = old


def test_a_log_the_scan_cannot_read_as_bytes_is_not_scanned(tmp_path: Path) -> None:
    text = io.StringIO("x\nundo\n")
    text.seek(2)
    assert fold_module._last_undo_line(text) is None
    assert text.tell() == 2  # left where it stood, to be read as it comes
    assert fold_module._last_undo_line(iter([b"undo\n"])) is None  # no tell(): read once
    closed = io.BytesIO(b"undo\n")
    closed.close()
    assert fold_module._last_undo_line(closed) is None  # ValueError on tell()
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"undo\n")
    with path.open("rb") as handle:
        assert fold_module._start_of(handle) == 0
        handle.readline()
        assert fold_module._start_of(handle) == 5
    assert fold_module._start_of([b"x"]) == 0
    assert fold_module._start_of(iter([b"x"])) is None
    with open("/dev/null", "rb") as null:  # not a regular file: read once, as it comes
        assert fold_module._start_of(null) is None


def test_the_scan_reads_a_file_in_bounded_chunks() -> None:
    """A million-event log is scanned in pieces of ``_SCAN_CHUNK`` (1 MiB), never read whole:
    the replay's memory stays flat whatever the file's size (issue 22: peak RSS <= 150 MB)."""

    asked: list[int | None] = []

    class Recorded(io.BytesIO):
        def read(self, size: int | None = -1, /) -> bytes:
            asked.append(size)
            return super().read(size)

    stream = Recorded(b"x\n" * (3 * fold_module._SCAN_CHUNK // 2) + b"undo\n")
    assert fold_module._last_undo_line(stream) == 3 * fold_module._SCAN_CHUNK // 2 + 1
    assert asked == [fold_module._SCAN_CHUNK] * 5  # 3 MiB, the last 5 bytes, then the empty read
