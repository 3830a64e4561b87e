"""The one fold of events into a game engine, shared by replay, resume and the live table.

``Fold.feed`` takes events one by one: the first must be a ``new_game``, which picks the game's
engine from the registry; every later one is the engine's (undo included). ``replay`` folds a
table log and reports the first bad line as ``line N: ...``.
"""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from companion.errors import CompanionError, JournalError, LogError, RuleError
from companion.table.log import AnyEvent, NewGameBase, Undo, class_test, is_new_game, iter_events
from companion.table.registry import new_engine
from companion.table.seam import GameEngine

if TYPE_CHECKING:
    from collections import deque

    from companion.table.journal import Journal


class Fold:
    def __init__(self) -> None:
        self.engine: GameEngine | None = None
        self.count = 0  # events folded

    def feed(self, event: AnyEvent) -> None:
        """Apply one event; raises RuleError (or SetupError) and changes nothing if it is refused."""
        if is_new_game(event):
            if self.engine is not None:
                raise RuleError(
                    "fold.feed",
                )
            self.engine = new_engine(event)  # type: ignore[arg-type]
        elif self.engine is None:
            raise RuleError(
                "fold.log_must_start",
                type=event.type,  # type: ignore[attr-defined]
            )
        else:
            self.engine.apply(event)
        self.count += 1


@contextmanager
def few_collections() -> Iterator[None]:
    """A long fold makes many small objects that live on (the undo checkpoints, up to a few
    thousand) and next to no reference cycles: at the collector's default pace it walks them
    again every few hundred allocations, a third of a replay's time. Collect far less often while
    folding; the previous pace comes back after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def fold_journal(
    journal: Journal, game_id: str, recent: deque[AnyEvent] | None = None
) -> tuple[GameEngine, int]:
    """A stored game folded from the journal: its engine and the number of its last event
    (``recent`` keeps the last events if given). A bad event is named as ``event N`` of the
    game, and the game cannot be rebuilt: the same words for ``resume``, ``games`` and ``doctor``."""
    fold = Fold()
    seq = 0
    for seq, event in journal.events(game_id):
        if recent is not None:
            recent.append(event)
        try:
            fold.feed(event)
        except CompanionError as err:
            raise JournalError("fold.does_not_replay", seq=seq, game_id=game_id, what=err.text) from None
    if fold.engine is None:
        raise JournalError("fold.fold_journal", game_id=game_id)
    return fold.engine, seq


def replay(lines: Iterable[str] | Iterable[bytes], *, read_only: bool = False) -> GameEngine:
    """Fold a table log. With ``read_only`` (the caller only reads the result: ``companion
    replay``), when the log can be read twice (a regular file, a list of lines), it is first
    scanned for its last line that may hold an undo: past it, the engine keeps no copy of its
    state for undo (``GameEngine.no_undo_ahead``), the most of a long replay's time. The scan
    only errs on the side of "may": should an undo come after all (a file that grew meanwhile),
    the fold starts again from the top without the shortcut. Without it, the engine returned can
    still undo its decisions (a screen, a test or a caller that plays on)."""
    start = _start_of(lines) if read_only else None
    last_undo = _last_undo_line(lines) if start is not None else None
    with few_collections():
        if last_undo is not None:
            try:
                return _fold(lines, last_undo)
            except _UndoAhead:
                _rewind(lines, start)
        return _fold(lines, None)


is_undo = class_test(Undo)
# What the engine alone cannot take: a new_game (the fold's own) and an undo (the scan's).
_not_plain = class_test((Undo, NewGameBase))


class _UndoAhead(Exception):
    """An undo came after the line the scan said was the last that could hold one."""


def _fold(lines: Iterable[str] | Iterable[bytes], last_undo: int | None) -> GameEngine:
    fold = Fold()
    last_line = 0
    told = last_undo is None  # the engine knows no undo follows (or nothing was scanned)
    for number, event in iter_events(lines):
        last_line = number
        engine = fold.engine
        try:
            if engine is not None and not _not_plain(event):  # most events: one test, one call
                if not told and number > last_undo:  # type: ignore[operator]
                    engine.no_undo_ahead()
                    told = True
                engine.apply(event)  # what feed does with it, one call less an event
                fold.count += 1
                continue
            if last_undo is not None and number > last_undo and is_undo(event):
                raise _UndoAhead
            fold.feed(event)
        except CompanionError as err:
            raise LogError(number, err.text) from None
    if fold.engine is None:
        raise LogError(
            max(last_line, 1),
            "fold.fold",
        )
    return fold.engine


# What the scan looks for: an undo event's type is the word itself, or written with escapes.
_UNDO_MARKS = (b"undo", b"\\")
_SCAN_CHUNK = 1 << 20


def _start_of(lines: object) -> int | None:
    """Where a log that can be read twice starts (0 for a list), None if it cannot be."""
    if isinstance(lines, list):
        return 0
    try:
        if not stat.S_ISREG(os.fstat(lines.fileno()).st_mode):  # type: ignore[attr-defined]
            return None  # a pipe, a terminal, /dev/zero: read once, as it comes
        return int(lines.tell())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None


def _rewind(lines: object, start: int | None) -> None:
    if not isinstance(lines, list):
        lines.seek(start)  # type: ignore[attr-defined]


def _last_undo_line(lines: object) -> int | None:
    """The number of the last line that may hold an undo (0 when none can); None when the log
    cannot be scanned. Lines are numbered as ``iter_events`` numbers them."""
    if isinstance(lines, list):
        for index in range(len(lines) - 1, -1, -1):
            line = lines[index]
            text = line if isinstance(line, bytes) else str(line).encode("utf-8", "surrogatepass")
            if any(mark in text for mark in _UNDO_MARKS):
                return index + 1
        return 0
    try:
        start = lines.tell()  # type: ignore[attr-defined]
        last, newlines, tail = 0, 0, b""
        while True:
            chunk = lines.read(_SCAN_CHUNK)  # type: ignore[attr-defined]
            if not chunk:
                break
            if not isinstance(chunk, bytes):
                lines.seek(start)  # type: ignore[attr-defined]
                return None
            window = tail + chunk  # a mark across two chunks is seen whole
            found = max(window.rfind(mark) for mark in _UNDO_MARKS)
            if found >= 0:
                # The line of the mark: newlines before it in this window, after the tail's
                # (counted with the chunk before).
                last = newlines - tail.count(b"\n") + window.count(b"\n", 0, found) + 1
            newlines += chunk.count(b"\n")
            tail = window[-3:]
        lines.seek(start)  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return last
