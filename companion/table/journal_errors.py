"""What the journal says when it cannot do what was asked: one function per situation, each
naming the file or folder and the fix, in English and French (the error family: ``errors.py``)."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from companion.errors import CompanionError, DataDirError, JournalError, UnknownGameError
from companion.table.journal_files import is_disk_full
from companion.text import Cut, OsReason, Text


def broken(path: Path, why: str, fr_why: str | None = None) -> JournalError:
    return JournalError("journal.broken", path=path, why=Text.pair(en=why, fr=fr_why or why))


def disk_full(data_dir: Path) -> JournalError:
    return JournalError(
        "journal.disk_full",
        data_dir=data_dir,
    )


def is_full(err: sqlite3.Error, data_dir: Path) -> bool:
    return getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_FULL or is_disk_full(data_dir)


def read_only(what: Path) -> JournalError:
    return JournalError(
        "journal.read_only",
        what=what,
    )


def os_error(data_dir: Path, err: OSError) -> JournalError:
    if err.errno == errno.ENAMETOOLONG:
        return unreachable(data_dir, err)
    if err.errno in (errno.ENOSPC, errno.EDQUOT) or is_disk_full(data_dir):
        return disk_full(data_dir)
    if err.errno == errno.EROFS or (err.errno in (errno.EACCES, errno.EPERM) and data_dir.is_dir()):
        return read_only(data_dir)
    return JournalError("journal.os_error", data_dir=data_dir, why=OsReason(err))


def unreachable(data_dir: Path, err: OSError) -> JournalError:
    """The folder itself cannot be looked at: a path too long for the file system, a
    component that is a file, no permission to pass through."""
    if err.errno == errno.ENAMETOOLONG:
        return JournalError("journal.path_too_long", size=len(str(data_dir)), data_dir=Cut(data_dir, 120))
    return JournalError("journal.unreachable", data_dir=Cut(data_dir, 120), why=OsReason(err))


def not_a_folder(data_dir: Path, filename: str) -> DataDirError:
    return DataDirError(
        "journal.not_a_folder",
        data_dir=data_dir,
        filename=filename,
        parent=data_dir.parent,
    )


def no_journal_yet(path: Path) -> JournalError:
    return JournalError(
        "journal.no_journal_yet",
        path=path,
    )


def locked(data_dir: Path, pid: str) -> JournalError:
    return JournalError(
        "journal.locked",
        pid=pid,
        data_dir=data_dir,
    )


def foreign_sql(path: Path, foreign: str) -> JournalError:
    return JournalError(
        "journal.foreign_sql",
        path=path,
        foreign=foreign,
    )


def read_only_media(path: Path, wal: Path) -> JournalError:
    return JournalError(
        "journal.read_only_media",
        path=path,
        name=wal.name,
    )


def cannot_create(path: Path, err: sqlite3.Error) -> JournalError:
    return JournalError(
        "journal.cannot_create",
        path=path,
        err=err,
    )


def cannot_write(path: Path, err: sqlite3.Error) -> JournalError:
    return JournalError(
        "journal.cannot_write",
        path=path,
        err=err,
    )


def write_error(path: Path, data_dir: Path, err: sqlite3.Error, lost: int = 1) -> JournalError:
    if not is_full(err, data_dir):
        return cannot_write(path, err)
    lost_text = Text("journal.lost_one") if lost == 1 else Text("journal.lost_many", lost=lost)
    return JournalError("journal.write_error", data_dir=data_dir, lost=lost_text)


def no_game_yet(path: Path) -> JournalError:
    return JournalError(
        "journal.no_game_yet",
        path=path,
    )


def unknown_game(game_id: str, known: str) -> UnknownGameError:
    return UnknownGameError(
        "journal.unknown_game",
        game_id=game_id,
        known=known,
    )


def event_missing(path: Path, game_id: str, expected: int) -> JournalError:
    return JournalError(
        "journal.event_missing",
        expected=expected,
        game_id=game_id,
        path=path,
    )


def event_damaged(path: Path, game_id: str, seq: int, err: ValueError | CompanionError) -> JournalError:
    what = err.text if isinstance(err, CompanionError) else Text.pair(en=str(err), fr=str(err))
    return JournalError("journal.event_damaged", seq=seq, game_id=game_id, path=path, what=what)
