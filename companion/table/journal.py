"""The journal: every event of every game, appended to SQLite before it changes any state.

WAL with ``synchronous=FULL``: once ``append`` returns, the event survives a pulled plug. Rows are
never updated or deleted (undo is an event); the ``games`` row keeps a ``finished`` hint that
readers re-check by folding. A lock file keeps a second companion from writing the same journal.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, JournalError
from companion.table.log import AnyEvent, Event, NewGameBase, event_from_dict

SCHEMA_VERSION = 1
FILENAME = "journal.sqlite3"
_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    created_ns INTEGER NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    recorded_ns INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("companion", appauthor=False))


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    game: str
    players: tuple[str, ...]
    created_ns: int
    meta: dict[str, Any]
    finished: bool
    events: int


class Journal:
    """One SQLite journal. ``writer=True`` takes the lock; readers never change the file."""

    def __init__(self, data_dir: Path, *, writer: bool) -> None:
        self.data_dir = data_dir
        self.path = data_dir / FILENAME
        self.writer = writer
        self._lock_fd: int | None = None
        if writer:
            self._take_lock()
        elif not self.path.exists():
            raise JournalError(
                f"there is no journal at {self.path} yet: no game has been played with this "
                "data directory",
                f"il n'y a pas encore de journal dans {self.path} : aucune partie n'a été jouée "
                "avec ce dossier de données")
        try:
            self._db = self._open()
        except BaseException:
            self._release_lock()
            raise

    # --- opening -------------------------------------------------------------------------------

    def _broken(self, why: str) -> JournalError:
        return JournalError(
            f"the journal {self.path} cannot be read ({why}); it was left untouched: move it "
            "aside to start a new journal, or pass --data-dir to use another folder",
            f"le journal {self.path} est illisible ({why}) ; il n'a pas été modifié : "
            "déplacez-le pour en commencer un nouveau, ou indiquez un autre dossier avec "
            "--data-dir")

    def _take_lock(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.data_dir / "journal.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise JournalError(
                f"cannot write the journal folder {self.data_dir} ({err.strerror}); pass "
                "--data-dir with a folder you can write to",
                f"impossible d'écrire dans le dossier du journal {self.data_dir} "
                f"({err.strerror}) ; indiquez un dossier accessible avec --data-dir") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise JournalError(
                f"another companion (pid {other}) is already using the journal in "
                f"{self.data_dir}: close it first, or pass --data-dir to keep a separate journal",
                f"un autre companion (pid {other}) utilise déjà le journal de {self.data_dir} : "
                "fermez-le d'abord, ou indiquez un autre dossier avec --data-dir") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None

    def _open(self) -> sqlite3.Connection:
        exists = self.path.exists()
        if exists and not self.path.is_file():
            raise self._broken("it is not a file")
        if exists and not os.access(self.path, os.R_OK | (os.W_OK if self.writer else 0)):
            raise self._broken("permission denied")
        try:
            uri = self.path.as_uri() + ("" if self.writer else "?mode=ro")
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if self.writer:
                if not tables and version == 0:
                    db.execute("PRAGMA journal_mode=WAL")
                    db.execute("BEGIN IMMEDIATE")
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                    db.execute("COMMIT")
                    tables = {"games", "events"}
                    version = SCHEMA_VERSION
                elif version == SCHEMA_VERSION:
                    db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
            if version != SCHEMA_VERSION or not {"games", "events"} <= tables:
                raise self._broken(f"not a companion journal of version {SCHEMA_VERSION}")
        except sqlite3.Error as err:
            db.close()
            raise self._broken(str(err)) from None
        except JournalError:
            db.close()
            raise
        return db

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release_lock()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------------

    def new_game(self, first: Event, game: str, players: tuple[str, ...],
                 meta: dict[str, Any]) -> str:
        game_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
        now = time.time_ns()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO games (id, game, players, created_ns, meta) VALUES (?, ?, ?, ?, ?)",
                (game_id, game, json.dumps(list(players), ensure_ascii=False), now,
                 json.dumps(meta)))
            self._db.execute("INSERT INTO events VALUES (?, 1, ?, ?)",
                             (game_id, first.to_json(), now))
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            self._rollback()
            raise JournalError(f"could not write to the journal {self.path}: {err}",
                               f"impossible d'écrire dans le journal {self.path} : {err}") from None
        return game_id

    def append(self, game_id: str, seq: int, event: Event) -> None:
        """Commit one event durably. ``seq`` must be the next number: a gap or a repeat fails."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?)",
                             (game_id, seq, event.to_json(), time.time_ns()))
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            self._rollback()
            raise JournalError(f"could not write to the journal {self.path}: {err}",
                               f"impossible d'écrire dans le journal {self.path} : {err}") from None

    def mark_finished(self, game_id: str, finished: bool) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    # --- reading -------------------------------------------------------------------------------

    _SELECT = ("SELECT g.id, g.game, g.players, g.created_ns, g.meta, g.finished, "
               "(SELECT count(*) FROM events e WHERE e.game_id = g.id) FROM games g ")

    def _infos(self, where: str = "", params: tuple[object, ...] = ()) -> list[GameInfo]:
        try:
            rows = self._db.execute(self._SELECT + where, params).fetchall()
            return [GameInfo(r[0], r[1], tuple(json.loads(r[2])), r[3], json.loads(r[4]),
                             bool(r[5]), r[6]) for r in rows]
        except (sqlite3.Error, ValueError) as err:
            raise self._broken(str(err)) from None

    def games(self) -> list[GameInfo]:
        return self._infos("ORDER BY g.created_ns, g.id")

    def game(self, game_id: str | None) -> GameInfo:
        """One game by id, or the most recent one; looked up alone, not by listing them all."""
        if game_id is None:
            found = self._infos("ORDER BY g.created_ns DESC, g.id DESC LIMIT 1")
            if not found:
                raise JournalError(f"the journal {self.path} holds no game yet",
                                   f"le journal {self.path} ne contient encore aucune partie")
            return found[0]
        found = self._infos("WHERE g.id = ?", (game_id,))
        if found:
            return found[0]
        latest = self._infos("ORDER BY g.created_ns DESC, g.id DESC LIMIT 5")
        if not latest:
            raise JournalError(f"the journal {self.path} holds no game yet",
                               f"le journal {self.path} ne contient encore aucune partie")
        known = ", ".join(g.id for g in reversed(latest))
        raise JournalError(
            f"no game {game_id!r} in the journal (latest: {known}); `companion games` lists "
            "them all",
            f"aucune partie {game_id!r} dans le journal (dernières : {known}) ; "
            "`companion games` les liste toutes")

    def payloads(self, game_id: str) -> Iterator[tuple[int, str]]:
        try:
            cursor = self._db.execute(
                "SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
            yield from cursor
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

    def events(self, game_id: str) -> Iterator[tuple[int, AnyEvent]]:
        expected = 1
        game: str | None = None
        for seq, payload in self.payloads(game_id):
            if seq != expected:
                raise self._broken(f"event {expected} of game {game_id} is missing")
            try:
                event = event_from_dict(json.loads(payload), game)
            except (ValueError, CompanionError) as err:
                raise self._broken(f"event {seq} of game {game_id}: {err}") from None
            if isinstance(event, NewGameBase):
                game = event.game
            yield seq, event
            expected += 1
