"""The journal: every event of every game, appended to SQLite before it changes any state.

WAL with ``synchronous=FULL``: once ``append`` returns, the event survives a pulled plug; regular
checkpoints keep it safe from a deleted ``-wal`` too (docs/decisions.md). Rows are never updated
or deleted (undo is an event); the ``games`` row keeps a ``finished`` hint that readers re-check by
folding. A lock file keeps a second companion from writing the same journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, JournalError
from companion.table import journal_errors as err
from companion.table.journal_files import file_damage, on_read_only_fs
from companion.table.journal_lock import take_lock, writer_alive
from companion.table.journal_schema import POSITIONS, SCHEMA, SCHEMA_VERSION, SUMMARIES, foreign_schema

if TYPE_CHECKING:
    from companion.table.log import AnyEvent, Event

# A checkpoint costs about four commits (bench/journal_sync.py); one every 32 events bounds what a
# deleted -wal followed by a crash could lose to the last 32 events, and detection of the deletion
# (``_after_commit``) brings that to none.
CHECKPOINT_EVERY = 32
FILENAME = "journal.sqlite3"
# What the -wal is cut back to when it starts over after growing (a reader held a snapshot):
# far more than the 32 events between two checkpoints, so a game never pays for the cut.
WAL_KEEP_BYTES = 1 << 20


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    from companion.paths import xdg_data_dir

    return xdg_data_dir("companion")


@dataclass(frozen=True, slots=True)
class Summary:
    """One row of ``summaries`` (journal_schema.SUMMARIES): what a listing reads of a game
    instead of replaying it, true while the game has exactly ``events`` events of ``bytes``
    bytes. ``record``, ``slaps`` and ``sheet`` are JSON texts, decoded only when asked for."""

    game_id: str
    events: int
    version: int
    bytes: int
    digest: str
    record: str
    slaps: str
    sheet: str


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
    """One SQLite journal. ``writer=True`` takes the lock; readers never change the file.

    Every check that can refuse a journal runs before SQLite opens it for writing: SQLite would
    otherwise "recover" a damaged file (replay and delete its ``-wal``) before we could say no.
    """

    def __init__(self, data_dir: Path, *, writer: bool, wait: bool = True) -> None:
        # SQLite URIs need an absolute path; a relative --data-dir is relative to where we run.
        self.data_dir = Path(os.path.abspath(data_dir))
        self.path = self.data_dir / FILENAME
        self.wal = self.data_dir / (FILENAME + "-wal")
        self.writer = writer
        self._lock_fd: int | None = None
        self._since_checkpoint = 0
        # The table's loop shows a batch the moment its COMMIT returns and checkpoints after
        # that (``checkpoint_due``): a checkpoint costs several commits, and made before the
        # frame it was half of a flood's steps' wait (bench/gpio.py). Nothing waits on it to be
        # durable: the -wal already is.
        self.defer_checkpoints = False
        self.checkpoint_due = False
        # Told after each commit of events (the phones' server wakes on it instead of polling);
        # called on the writer's thread, so it must only hand the news over.
        self.on_commit: Callable[[], None] | None = None
        try:
            # Inside the try: a name too long for the system is an OSError, said as such.
            if self.data_dir.exists() and not self.data_dir.is_dir():
                raise err.not_a_folder(self.data_dir, FILENAME)
            if writer:
                self._lock_fd = take_lock(self.data_dir, wait=wait)
            elif not self.path.exists() and not self.wal.exists():
                raise err.no_journal_yet(self.path)
            self._db = self._open()
        except OSError as exc:
            self._release_lock()
            if isinstance(exc, JournalError):
                raise
            raise err.unreachable(self.data_dir, exc) from None
        except BaseException:
            self._release_lock()
            raise

    # --- opening -------------------------------------------------------------------------------

    def _broken(self, why: str, fr_why: str | None = None) -> JournalError:
        return err.broken(self.path, why, fr_why)

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None

    def _inspect(self) -> None:
        """Refuse, before SQLite sees it, a file that is not a whole companion journal."""
        damage = file_damage(
            self.path, self.wal, judge_wal=lambda: self.writer or not writer_alive(self.data_dir)
        )
        if damage is not None:
            raise self._broken(*damage)

    def _connect(self, query: str) -> sqlite3.Connection:
        uri = self.path.as_uri() + query
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    def _check(self, db: sqlite3.Connection, *, deep: bool) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version != SCHEMA_VERSION or not {"games", "events"} <= tables:
            raise self._broken(
                f"not a companion journal of version {SCHEMA_VERSION}",
                f"ce n'est pas un journal du companion de version {SCHEMA_VERSION}",
            )
        if deep:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise self._broken(f"damaged: {verdict}", f"abîmé : {verdict}")
            foreign = foreign_schema(db)
            if foreign:
                raise err.foreign_sql(self.path, foreign)

    def _open_reader(self) -> sqlite3.Connection:
        """Read-only: mode=ro never writes the journal or its -wal; immutable=1 on read-only
        media, where SQLite cannot even create the -shm it needs for a WAL journal."""
        try:
            db = self._connect("?mode=ro")
            self._check(db, deep=False)
            return db
        except sqlite3.Error as exc:
            with contextlib.suppress(UnboundLocalError, sqlite3.Error):
                db.close()
            writable = os.access(self.data_dir, os.W_OK) and not on_read_only_fs(self.data_dir)
            if writable:
                raise self._broken(str(exc)) from None
            if self.wal.exists() and self.wal.stat().st_size > 0:
                raise err.read_only_media(self.path, self.wal) from None
        try:
            db = self._connect("?mode=ro&immutable=1")
            self._check(db, deep=False)
            return db
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None

    def _create(self) -> None:
        """A new journal is built aside and linked into place whole: a crash or a full disk
        never leaves a half-made journal that a later run would have to judge."""
        tmp = self.data_dir / f".{FILENAME}.{os.getpid()}.new"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        try:
            db = sqlite3.connect(tmp, isolation_level=None)
            try:
                db.execute("PRAGMA synchronous=FULL")
                db.execute("BEGIN IMMEDIATE")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
                db.execute("PRAGMA journal_mode=WAL")
            finally:
                db.close()
            os.link(tmp, self.path)  # never replaces: a journal made meanwhile is kept
            dir_fd = os.open(self.data_dir, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except FileExistsError:
            pass
        except sqlite3.Error as exc:
            if err.is_full(exc, self.data_dir):
                raise err.disk_full(self.data_dir) from None
            raise err.cannot_create(self.path, exc) from None
        except OSError as exc:
            raise err.os_error(self.data_dir, exc) from None
        finally:
            for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _open(self) -> sqlite3.Connection:
        self._inspect()
        if not self.writer:
            return self._open_reader()
        if not self.path.exists():
            self._create()
            self._inspect()
        else:
            self._judge_before_writing()
        try:
            db = self._connect("")
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None
        try:
            self._prepare_writer(db)
        except sqlite3.Error as exc:
            db.close()
            if err.is_full(exc, self.data_dir):
                raise err.disk_full(self.data_dir) from None
            if getattr(exc, "sqlite_errorcode", 0) == sqlite3.SQLITE_READONLY:
                raise err.read_only(self.path) from None
            raise self._broken(str(exc)) from None
        except JournalError:
            db.close()
            raise
        return db

    def _judge_before_writing(self) -> None:
        """Judge an existing journal read-only first: refusing must never cost a byte."""
        probe = self._open_reader()
        try:
            self._check(probe, deep=True)
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None
        finally:
            probe.close()
        if not os.access(self.path, os.W_OK) or on_read_only_fs(self.data_dir):
            raise err.read_only(self.path)

    def _prepare_writer(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        # A reader holding a snapshot keeps every later commit in the -wal (no checkpoint
        # may copy past it); once it is gone the -wal starts over from its beginning but
        # would keep its size for the rest of the evening. Cut back to this when it does.
        db.execute(f"PRAGMA journal_size_limit={WAL_KEEP_BYTES}")
        self._check(db, deep=False)
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'summaries'").fetchone():
            db.execute(SUMMARIES)  # a journal written before summaries: events untouched
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'positions'").fetchone():
            db.execute(POSITIONS)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release_lock()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------------

    def new_game(self, first: Event, game: str, players: tuple[str, ...], meta: dict[str, Any]) -> str:
        import secrets  # here: readers never make an id

        game_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
        now = time.time_ns()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO games (id, game, players, created_ns, meta) VALUES (?, ?, ?, ?, ?)",
                (game_id, game, json.dumps(list(players), ensure_ascii=False), now, json.dumps(meta)),
            )
            self._db.execute("INSERT INTO events VALUES (?, 1, ?, ?)", (game_id, first.to_json(), now))
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise err.write_error(self.path, self.data_dir, exc) from None
        self._after_commit()
        return game_id

    def append(self, game_id: str, seq: int, event: Event, positions: dict[str, int] | None = None) -> None:
        """Commit one event durably. ``seq`` must be the next number: a gap or a repeat fails."""
        self.append_many(game_id, [(seq, event)], positions)

    def append_many(
        self, game_id: str, rows: list[tuple[int, Event]], positions: dict[str, int] | None = None
    ) -> None:
        """Commit events in one transaction (one fsync): all of them are durable when this
        returns, or none is (SQLite rolls the whole transaction back, whatever the failure).
        ``positions``: where the game stands in its sources' streams once these are in
        (``positions()``), committed with them or not at all."""
        if not rows:
            return
        now = time.time_ns()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?)",
                [(game_id, seq, event.to_json(), now) for seq, event in rows],
            )
            if positions:
                self._db.executemany(
                    "INSERT OR IGNORE INTO positions VALUES (?, ?, ?)",
                    [(game_id, stream, at) for stream, at in positions.items()],
                )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise err.write_error(self.path, self.data_dir, exc, len(rows)) from None
        self._after_commit(len(rows))

    def _after_commit(self, events: int = 1) -> None:
        """Copy the -wal into the journal every CHECKPOINT_EVERY events, and at once if the -wal
        was deleted: SQLite keeps writing to the deleted file, which a crash would lose."""
        self._since_checkpoint += events
        if not self.wal.exists():
            self.checkpoint()
        elif self._since_checkpoint >= CHECKPOINT_EVERY:
            if self.defer_checkpoints:
                self.checkpoint_due = True
            else:
                self.checkpoint()
        if self.on_commit is not None:
            self.on_commit()

    def checkpoint(self) -> None:
        """PASSIVE: copy what no reader still needs and never wait. TRUNCATE (or FULL, RESTART)
        waits on the busy timeout for every reader to finish, a frozen table screen for as long
        as someone holds a read transaction (a `sqlite3` shell, a backup, a slow export)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._since_checkpoint = 0
            self.checkpoint_due = False

    def settle(self) -> None:
        """Empty the -wal into the journal if no reader needs it now; never waits (a reader
        that borrowed the lock to append summaries leaves no -wal behind for the next look)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA busy_timeout=0")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def mark_finished(self, game_id: str, finished: bool) -> None:
        """The ``finished`` hint, re-checked by readers (they fold the game). A game's summary
        is not written here: ``stats.remember`` does it, above the journal."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))
        self.checkpoint()

    def add_summaries(self, rows: list[Summary]) -> None:
        """Append summaries in one transaction; one already there for the same game, count and
        version is kept."""
        if not rows:
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT OR IGNORE INTO summaries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (r.game_id, r.events, r.version, r.bytes, r.digest, r.record, r.slaps, r.sheet)
                    for r in rows
                ],
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise err.cannot_write(self.path, exc) from None
        self._after_commit(0)

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    # --- reading -------------------------------------------------------------------------------

    _SELECT = (
        "SELECT g.id, g.game, g.players, g.created_ns, g.meta, g.finished, "
        "(SELECT count(*) FROM events e WHERE e.game_id = g.id) FROM games g "
    )

    # The games alone, their event count left at -1: counting is a scan of every event (a
    # tenth of a second per 2,000 games), which ``stats.records`` does once for all, or not at
    # all when the journal's files are as its cache last saw them.
    _SELECT_UNCOUNTED = "SELECT g.id, g.game, g.players, g.created_ns, g.meta, g.finished, -1 FROM games g "

    def _infos(
        self, where: str = "", params: tuple[object, ...] = (), *, counted: bool = True
    ) -> list[GameInfo]:
        try:
            select = self._SELECT if counted else self._SELECT_UNCOUNTED
            rows = self._db.execute(select + where, params).fetchall()
            # One decode for every game's players and meta (two thousand games: 4,000 calls to
            # json.loads cost more than the query); a row that is not JSON, or whose text spills
            # over its neighbours, makes the parts not line up: then row by row, which names it.
            try:
                parts = json.loads("[" + ",".join(f"[{r[2]},{r[4]}]" for r in rows) + "]")
                if len(parts) != len(rows) or not all(
                    type(p) is list and len(p) == 2 and type(p[0]) is list and type(p[1]) is dict
                    for p in parts
                ):
                    raise ValueError("not one pair per game")
            except (ValueError, RecursionError):
                parts = [(json.loads(r[2]), json.loads(r[4])) for r in rows]
            return [
                GameInfo(r[0], r[1], tuple(p[0]), r[3], p[1], bool(r[5]), r[6])
                for r, p in zip(rows, parts, strict=True)
            ]
        except (sqlite3.Error, ValueError) as exc:
            raise self._broken(str(exc)) from None

    # Insertion order (SQLite's rowid), never created_ns: a Pi without a real-time clock may
    # boot in the past, and the game being played must still be the latest.
    def games(self, *, counted: bool = True) -> list[GameInfo]:
        """Every game, oldest first; ``counted=False`` leaves ``events`` at -1 (see above)."""
        return self._infos("ORDER BY g.rowid", counted=counted)

    def last_game(self) -> GameInfo | None:
        """The game begun last, by the order the journal recorded them (not by the clock, which
        a Pi without a battery may set back at boot); None in an empty journal."""
        found = self._infos("ORDER BY g.rowid DESC LIMIT 1")
        return found[0] if found else None

    def game(self, game_id: str | None) -> GameInfo:
        """One game by id, or the most recent one; looked up alone, not by listing them all."""
        if game_id is None:
            found = self._infos("ORDER BY g.rowid DESC LIMIT 1")
            if not found:
                raise err.no_game_yet(self.path)
            return found[0]
        found = self._infos("WHERE g.id = ?", (game_id,))
        if found:
            return found[0]
        latest = self._infos("ORDER BY g.rowid DESC LIMIT 5")
        if not latest:
            raise err.no_game_yet(self.path)
        raise err.unknown_game(game_id, ", ".join(g.id for g in reversed(latest)))

    def payloads(self, game_id: str) -> Iterator[tuple[int, str]]:
        try:
            cursor = self._db.execute(
                "SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            yield from cursor
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None

    def sizes(self) -> dict[str, int]:
        """Bytes of payload per game, summed by SQLite without a row reaching Python: with the
        count, what tells a game whose rows were changed in place from the one cached."""
        try:
            return dict(
                self._db.execute(
                    "SELECT game_id, sum(length(CAST(payload AS BLOB))) FROM events GROUP BY game_id"
                ).fetchall()
            )
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None

    def tallies(self) -> dict[str, tuple[int, int]]:
        """(events, bytes of payload) per game, in one pass over the events summed by SQLite:
        what tells a summary or a cached record still true of its game."""
        try:
            rows = self._db.execute(
                "SELECT game_id, count(*), sum(length(CAST(payload AS BLOB))) FROM events GROUP BY game_id"
            )
            return {game_id: (n, size) for game_id, n, size in rows}
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None

    def fingerprint(self, settled_s: float = 2.0) -> str | None:
        """The journal's files as they stand (inode, size and modification time of the file
        and its -wal, and the -wal's header, which SQLite changes each time it starts the
        -wal over): while it is unchanged, no row was written. Taken before reading, so what
        is read is at least as new. None when either file changed less than ``settled_s``
        ago: a commit within the same tick of a coarse file clock, into a -wal that did not
        grow, could then leave it the same."""
        parts = []
        now = time.time_ns()
        for path in (self.path, self.wal):
            try:
                st = os.stat(path)
            except FileNotFoundError:
                parts.append("-")
                continue
            except OSError:
                return None
            if now - st.st_mtime_ns < settled_s * 1e9:
                return None
            parts.append(f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}")
        try:
            with open(self.wal, "rb") as handle:
                parts.append(handle.read(32).hex())
        except FileNotFoundError:
            pass
        except OSError:
            return None
        return "/".join(parts)

    def summaries(self, version: int) -> dict[str, list[Summary]]:
        """The stored summaries of ``version``, by game, their JSON texts left undecoded; none in
        a journal written before summaries."""
        out: dict[str, list[Summary]] = {}
        try:
            rows = self._db.execute(
                "SELECT game_id, events, version, bytes, digest, record, slaps, sheet FROM summaries "
                "WHERE version = ?",
                (version,),
            )
            for row in rows:
                out.setdefault(row[0], []).append(Summary(*row))
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise self._broken(str(exc)) from None
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None
        return out

    def positions(self, game_id: str) -> dict[str, int]:
        """Where the game stands in each stream its sources can replay: the position after the
        last event of it the table handled (see ``journal_schema.POSITIONS``); empty in a journal written
        before positions were kept."""
        try:
            rows = self._db.execute(
                "SELECT stream, max(position) FROM positions WHERE game_id = ? GROUP BY stream",
                (game_id,),
            )
            return {stream: at for stream, at in rows}
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise self._broken(str(exc)) from None
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None
        return {}

    def all_payloads(self, *, raw: bool = False) -> Iterator[tuple[str, Any]]:
        """(game id, payload) of every event, game by game in seq order; ``raw``: the payload
        as its UTF-8 bytes."""
        column = "CAST(payload AS BLOB)" if raw else "payload"
        try:
            yield from self._db.execute(f"SELECT game_id, {column} FROM events ORDER BY game_id, seq")
        except sqlite3.Error as exc:
            raise self._broken(str(exc)) from None

    def events(self, game_id: str) -> Iterator[tuple[int, AnyEvent]]:
        # The event models (pydantic) load here, not with the module: readers of payloads alone
        # (stats, history, export) never pay for them.
        from companion.table.log import NewGameBase, parse_event

        expected = 1
        game: str | None = None
        for seq, payload in self.payloads(game_id):
            if seq != expected:
                raise err.event_missing(self.path, game_id, expected)
            try:
                event = parse_event(payload, game)
            except (ValueError, CompanionError) as exc:
                raise err.event_damaged(self.path, game_id, seq, exc) from None
            if isinstance(event, NewGameBase):
                game = event.game
            yield seq, event
            expected += 1
