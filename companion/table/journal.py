"""The journal: every event of every game, appended to SQLite before it changes any state.

WAL with ``synchronous=FULL``: once ``append`` returns, the event survives a pulled plug; regular
checkpoints keep it safe from a deleted ``-wal`` too (docs/decisions.md). Rows are never updated
or deleted (undo is an event); the ``games`` row keeps a ``finished`` hint that readers re-check by
folding. A lock file keeps a second companion from writing the same journal.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import sqlite3
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, DataDirError, JournalError, UnknownGameError, cut, shown
from companion.i18n import os_reason

if TYPE_CHECKING:
    from companion.table.log import AnyEvent, Event

SCHEMA_VERSION = 1
# A checkpoint costs about four commits (bench/journal_sync.py); one every 32 events bounds what a
# deleted -wal followed by a crash could lose to the last 32 events, and detection of the deletion
# (``_after_commit``) brings that to none.
CHECKPOINT_EVERY = 32
FILENAME = "journal.sqlite3"
# What the -wal is cut back to when it starts over after growing (a reader held a snapshot):
# far more than the 32 events between two checkpoints, so a game never pays for the cut.
WAL_KEEP_BYTES = 1 << 20
_SCHEMA = (
    """
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
    + """
CREATE TABLE summaries (
    game_id TEXT NOT NULL REFERENCES games(id),
    events INTEGER NOT NULL,
    version INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    digest TEXT NOT NULL,
    record TEXT NOT NULL,
    slaps TEXT NOT NULL,
    sheet TEXT NOT NULL,
    UNIQUE (game_id, events, version)
);
"""
    + """
CREATE TABLE positions (
    game_id TEXT NOT NULL REFERENCES games(id),
    stream TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (game_id, stream, position)
) WITHOUT ROWID;
"""
)
# What ``history``, ``stats``, ``games`` and ``export --csv`` read instead of replaying a game
# (docs/decisions.md, "Summaries"): one row per game and event count, appended after the
# events it sums up, never updated. A summary is true of the game while the game has exactly
# ``events`` events of ``bytes`` bytes; any later event (an undo too) makes it stale, and the next
# reader replays the game once and appends a new one. Journals written before this table existed
# get it from their next writer.
_SUMMARIES = _SCHEMA.split(";")[2]
# Where a game stands in the streams of events its sources can replay (a Pico board's boot:
# ``InputEvent.resume_at``): the position after the last event of that stream the table
# handled, written in the same transaction as the events that handling journaled, so that a
# resumed game asks the board for exactly what came after (docs/decisions.md, "Resume").
# The journal's, not the table log's: a replay needs the events alone. Appended, never updated:
# a stream's position is its largest. Journals written before this table get it from their next
# writer.
_POSITIONS = _SCHEMA.split(";")[3]


def _schema_rows(sql: str) -> set[tuple[str, str, str]]:
    return {
        ("table", name, " ".join(statement.split()))
        for statement in sql.split(";")
        if statement.strip()
        for name in [statement.split()[2]]
    }


# What ``_create`` makes, as sqlite_master keeps it (whitespace aside). Anything else in a
# journal (a trigger, a view, an index, a changed table) came from elsewhere.
# (A rowid table, not WITHOUT ROWID as events: a summary is a few kilobytes, which an index-shaped
# table would spill to overflow pages, twice the size on disk.)
_OURS = _schema_rows(_SCHEMA) | {
    ("index", "sqlite_autoindex_games_1", ""),
    ("index", "sqlite_autoindex_summaries_1", ""),
}


def foreign_schema(db: sqlite3.Connection) -> str:
    """The schema objects of ``db`` that the companion did not create, named, or ''."""
    found = []
    for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master"):
        if (kind, name, " ".join((sql or "").split())) not in _OURS:
            found.append(f"{kind} {name[:40]!r}")
    return ", ".join(found[:3]) + (f" (+{len(found) - 3})" if len(found) > 3 else "")


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    from companion.paths import xdg_data_dir

    return xdg_data_dir("companion")


_WAL_MAGIC = {0x377F0682: "<", 0x377F0683: ">"}  # checksum words little- or big-endian


def _wal_sum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum (the same sums SQLite checks on recovery), continued from s0, s1."""
    words = iter(struct.unpack(f"{order}{len(data) // 4}I", data))
    for a in words:
        b = next(words)
        s0 = (s0 + a + s1) & 0xFFFFFFFF
        s1 = (s1 + b + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> tuple[str, str] | None:
    """Where a ``-wal`` left by a run that did not close would lose committed events, in English
    and French; None when SQLite's recovery will keep every one of them.

    SQLite's recovery reads the frames in order and silently stops at the first one whose salts
    or checksum do not match, dropping every later transaction. Only the last transaction in the
    file may legitimately be cut short (a pulled plug during its write, before its commit
    returned); a bad frame before it means events the players saw committed would vanish.
    """
    try:
        with open(wal, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    if len(data) < 32:
        return None  # SQLite reads a WAL without a whole header as empty: nothing was committed
    magic, version, page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    order = _WAL_MAGIC.get(magic)
    header_ok = (
        order is not None
        and version == 3007000
        and page >= 512
        and not page & (page - 1)
        and _wal_sum(data[:24], order, 0, 0) == (c1, c2)
    )
    if not header_ok:
        # Without a header no frame can be checked; the frames' own headers still tell whether
        # more than one transaction (so at least one acknowledged) was written.
        page = page if 512 <= page <= 65536 and not page & (page - 1) else 0
        if page == 0 or len(data) < 32 + 2 * (page + 24):
            return None
        salt1, salt2 = struct.unpack(">2I", data[32 + 8 : 32 + 16])
    size = page + 24
    frames = (len(data) - 32) // size
    heads = [struct.unpack_from(">6I", data, 32 + i * size) for i in range(frames)]
    ours = [i for i, h in enumerate(heads) if (h[2], h[3]) == (salt1, salt2)]
    if not ours:
        return None
    # A commit followed by more frames of this generation was acknowledged: the writer went on.
    acked = [i for i in ours if heads[i][1] and i < ours[-1]]
    if not acked:
        return None
    last = acked[-1]
    if not header_ok:
        return (
            f"the header of its {wal.name} is damaged, so SQLite would silently ignore every event in it",
            f"l'en-tête de son {wal.name} est abîmé, SQLite ignorerait sans rien dire tous "
            "les événements qu'il contient",
        )
    assert order is not None
    sums = (c1, c2)
    for i in range(last + 1):
        at = 32 + i * size
        h = heads[i]
        sums = _wal_sum(data[at : at + 8], order, *sums)
        sums = _wal_sum(data[at + 24 : at + size], order, *sums)
        if (h[2], h[3]) != (salt1, salt2) or sums != (h[4], h[5]):
            lost = sum(1 for j in ours if j >= i and heads[j][1])
            return (
                f"frame {i + 1} of {frames} of its {wal.name} is damaged, so SQLite would "
                f"silently drop the {lost} transaction(s) committed after it",
                f"la trame {i + 1} sur {frames} de son {wal.name} est abîmée, SQLite "
                f"abandonnerait sans rien dire les {lost} transaction(s) validée(s) après "
                "elle",
            )
    return None


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
        self._wait = wait  # for the lock: False when another companion writing means "not now"
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
                raise DataDirError(
                    f"{self.data_dir} is not a folder: --data-dir names the folder that holds the "
                    f"journal ({FILENAME}), e.g. --data-dir {self.data_dir.parent}",
                    f"{self.data_dir} n'est pas un dossier : --data-dir nomme le dossier qui contient "
                    f"le journal ({FILENAME}), par ex. --data-dir {self.data_dir.parent}",
                )
            if writer:
                self._take_lock()
            elif not self.path.exists() and not self.wal.exists():
                raise JournalError(
                    f"there is no journal at {self.path} yet: no game has been played with "
                    "this data directory",
                    f"il n'y a pas encore de journal dans {self.path} : aucune partie n'a été "
                    "jouée avec ce dossier de données",
                )
            self._db = self._open()
        except OSError as err:
            self._release_lock()
            if isinstance(err, JournalError):
                raise
            raise self._unreachable(err) from None
        except BaseException:
            self._release_lock()
            raise

    # --- opening -------------------------------------------------------------------------------

    def _broken(self, why: str, fr_why: str | None = None) -> JournalError:
        return JournalError(
            f"the journal {self.path} cannot be read ({why}); it was left untouched: move it "
            "aside to start a new journal, or pass --data-dir to use another folder",
            f"le journal {self.path} est illisible ({fr_why or why}) ; il n'a pas été modifié : "
            "déplacez-le pour en commencer un nouveau, ou indiquez un autre dossier avec "
            "--data-dir",
        )

    def _disk_full(self) -> JournalError:
        return JournalError(
            f"the disk holding {self.data_dir} is full: free some space on it (or pass "
            "--data-dir with a folder on another disk), then run the command again; the journal "
            "was left as it was",
            f"le disque de {self.data_dir} est plein : libérez de la place (ou indiquez avec "
            "--data-dir un dossier sur un autre disque), puis relancez la commande ; le journal "
            "n'a pas été modifié",
        )

    def _read_only(self, what: Path) -> JournalError:
        return JournalError(
            f"{what} is read-only, so no game can be written there; `companion games` and "
            "`companion export` can still read it: to play, pass --data-dir with a folder you "
            "can write to (copy the journal there to keep its games)",
            f"{what} est en lecture seule, aucune partie ne peut y être écrite ; `companion "
            "games` et `companion export` peuvent encore le lire : pour jouer, indiquez avec "
            "--data-dir un dossier modifiable (copiez-y le journal pour garder ses parties)",
        )

    def _is_disk_full(self) -> bool:
        try:
            st = os.statvfs(self.data_dir)
        except OSError:
            return False
        return st.f_bavail * st.f_frsize < 64 * 1024

    def _os_error(self, err: OSError) -> JournalError:
        if err.errno == errno.ENAMETOOLONG:
            return self._unreachable(err)
        if err.errno in (errno.ENOSPC, errno.EDQUOT) or self._is_disk_full():
            return self._disk_full()
        if err.errno == errno.EROFS or (err.errno in (errno.EACCES, errno.EPERM) and self.data_dir.is_dir()):
            return self._read_only(self.data_dir)
        return JournalError(
            f"cannot write the journal folder {self.data_dir} ({err.strerror}); pass "
            "--data-dir with a folder you can write to",
            f"impossible d'écrire dans le dossier du journal {self.data_dir} "
            f"({os_reason(err)}) ; indiquez un dossier accessible avec --data-dir",
        )

    def _unreachable(self, err: OSError) -> JournalError:
        """The folder itself cannot be looked at: a path too long for the file system, a
        component that is a file, no permission to pass through."""
        shown_dir = cut(str(self.data_dir), 120)
        if err.errno == errno.ENAMETOOLONG:
            return JournalError(
                f"the data folder path is too long for the file system ({len(str(self.data_dir))}"
                f" characters: {shown_dir}); pass --data-dir with a shorter path",
                f"le chemin du dossier de données est trop long pour le système de fichiers "
                f"({len(str(self.data_dir))} caractères : {cut(str(self.data_dir), 120, 'fr')}) "
                "; indiquez un chemin plus court avec --data-dir",
            )
        return JournalError(
            f"the data folder {shown_dir} cannot be reached ({err.strerror}); pass --data-dir "
            "with a folder you can use",
            f"le dossier de données {cut(str(self.data_dir), 120, 'fr')} est inaccessible "
            f"({os_reason(err)}) ; indiquez un dossier utilisable avec --data-dir",
        )

    def _take_lock(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.data_dir / "journal.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise self._os_error(err) from None
        try:
            # A reader's probe (``_writer_alive``) holds the lock for microseconds: wait it out.
            attempts = 20 if self._wait else 1
            for attempt in range(attempts):
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if attempt == attempts - 1:
                        raise
                    time.sleep(0.01)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise JournalError(
                f"another companion (pid {other}) is already using the journal in "
                f"{self.data_dir}: close it first, or pass --data-dir to keep a separate journal",
                f"un autre companion (pid {other}) utilise déjà le journal de {self.data_dir} : "
                "fermez-le d'abord, ou indiquez un autre dossier avec --data-dir",
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as err:
            os.close(fd)
            raise self._os_error(err) from None
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None

    def _inspect(self) -> None:
        """Refuse, before SQLite sees it, a file that is not a whole companion journal."""
        if not self.path.exists():
            if self.wal.exists():
                raise self._broken(
                    f"the file is missing but its {self.wal.name} is there",
                    f"le fichier manque mais son {self.wal.name} est là",
                )
            return
        if not self.path.is_file():
            raise self._broken("it is not a file", "ce n'est pas un fichier")
        if not os.access(self.path, os.R_OK):
            raise self._broken("permission denied", "permission refusée")
        size = self.path.stat().st_size
        with open(self.path, "rb") as handle:
            header = handle.read(100)
        if size < 100 or not header.startswith(b"SQLite format 3\x00"):
            raise self._broken(
                f"{size} bytes: not a companion journal",
                f"{size} octets : ce n'est pas un journal du companion",
            )
        page = int.from_bytes(header[16:18], "big")
        page = 65536 if page == 1 else page
        if page < 512 or page & (page - 1) or size % page:
            raise self._broken(
                f"damaged: {size} bytes is not a whole number of {page}-byte pages; its "
                f"{self.wal.name}, if any, was kept too",
                f"abîmé : {size} octets ne font pas un nombre entier de pages de {page} octets ; "
                f"son {self.wal.name}, s'il existe, a été gardé aussi",
            )
        # A -wal left by a run that did not close is replayed by SQLite, which silently stops
        # at its first damaged frame; judge it first. A live writer's -wal is its own business:
        # SQLite reads it through that writer's index, and it may be half-way through a frame.
        if self.wal.exists() and self.wal.stat().st_size > 32 and (self.writer or not self._writer_alive()):
            try:
                damage = wal_damage(self.wal)
            except OSError as err:
                raise self._broken(
                    f"its {self.wal.name} cannot be read: {err.strerror}",
                    f"son {self.wal.name} est illisible : {os_reason(err)}",
                ) from None
            if damage is not None:
                raise self._broken(*damage)

    def _writer_alive(self) -> bool:
        """Whether a companion holds the writer's lock now. The probe is a shared lock taken and
        dropped at once (``_take_lock`` waits out such a probe); nothing is written."""
        try:
            fd = os.open(self.data_dir / "journal.lock", os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # closing drops the probe's lock
        return False

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
                raise JournalError(
                    f"the journal {self.path} holds SQL not created by the companion "
                    f"({foreign}), which would run on our next write; it was left untouched: "
                    "`companion games`, `history` and `export` still read its games; to play, "
                    "pass --data-dir with another folder",
                    f"le journal {self.path} contient du SQL que le companion n'a pas créé "
                    f"({foreign}), qui s'exécuterait à notre prochaine écriture ; il n'a pas été "
                    "modifié : `companion games`, `history` et `export` lisent encore ses "
                    "parties ; pour jouer, indiquez un autre dossier avec --data-dir",
                )

    def _open_reader(self) -> sqlite3.Connection:
        """Read-only: mode=ro never writes the journal or its -wal; immutable=1 on read-only
        media, where SQLite cannot even create the -shm it needs for a WAL journal."""
        try:
            db = self._connect("?mode=ro")
            self._check(db, deep=False)
            return db
        except sqlite3.Error as err:
            with contextlib.suppress(UnboundLocalError, sqlite3.Error):
                db.close()
            writable = os.access(self.data_dir, os.W_OK) and not self._on_read_only_fs()
            if writable:
                raise self._broken(str(err)) from None
            if self.wal.exists() and self.wal.stat().st_size > 0:
                raise JournalError(
                    f"the journal {self.path} is on read-only media with unfinished writes in "
                    f"{self.wal.name}: copy the whole folder to a writable place and pass "
                    "--data-dir with the copy; nothing was changed",
                    f"le journal {self.path} est sur un support en lecture seule avec des "
                    f"écritures inachevées dans {self.wal.name} : copiez tout le dossier dans un "
                    "endroit modifiable et indiquez la copie avec --data-dir ; rien n'a été "
                    "modifié",
                ) from None
        try:
            db = self._connect("?mode=ro&immutable=1")
            self._check(db, deep=False)
            return db
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

    def _on_read_only_fs(self) -> bool:
        try:
            return bool(os.statvfs(self.data_dir).f_flag & os.ST_RDONLY)
        except OSError:
            return False

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
                for statement in _SCHEMA.split(";"):
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
        except sqlite3.Error as err:
            if getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_FULL or self._is_disk_full():
                raise self._disk_full() from None
            raise JournalError(
                f"could not create the journal {self.path}: {err}",
                f"impossible de créer le journal {self.path} : {err}",
            ) from None
        except OSError as err:
            raise self._os_error(err) from None
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
            # Judge it read-only first: refusing must never cost a byte.
            probe = self._open_reader()
            try:
                self._check(probe, deep=True)
            except sqlite3.Error as err:
                raise self._broken(str(err)) from None
            finally:
                probe.close()
            if not os.access(self.path, os.W_OK) or self._on_read_only_fs():
                raise self._read_only(self.path)
        try:
            db = self._connect("")
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # A reader holding a snapshot keeps every later commit in the -wal (no checkpoint
            # may copy past it); once it is gone the -wal starts over from its beginning but
            # would keep its size for the rest of the evening. Cut back to this when it does.
            db.execute(f"PRAGMA journal_size_limit={WAL_KEEP_BYTES}")
            self._check(db, deep=False)
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'summaries'").fetchone():
                db.execute(_SUMMARIES)  # a journal written before summaries: events untouched
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'positions'").fetchone():
                db.execute(_POSITIONS)
        except sqlite3.Error as err:
            db.close()
            if getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_FULL or self._is_disk_full():
                raise self._disk_full() from None
            if getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_READONLY:
                raise self._read_only(self.path) from None
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
        except sqlite3.Error as err:
            self._rollback()
            raise self._write_error(err) from None
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
        except sqlite3.Error as err:
            self._rollback()
            raise self._write_error(err, len(rows)) from None
        self._after_commit(len(rows))

    def _write_error(self, err: sqlite3.Error, lost: int = 1) -> JournalError:
        if getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_FULL or self._is_disk_full():
            en, fr = (
                ("the last event was not recorded", "le dernier événement n'a pas été enregistré")
                if lost == 1
                else (
                    f"the last {lost} events were not recorded",
                    f"les {lost} derniers événements n'ont pas été enregistrés",
                )
            )
            return JournalError(
                f"the disk holding {self.data_dir} is full: {en}, every earlier one is safe; "
                "free some space, then `companion resume` continues the game",
                f"le disque de {self.data_dir} est plein : {fr}, tous les précédents sont sûrs ; "
                "libérez de la place, puis `companion resume` reprend la partie",
            )
        return JournalError(
            f"could not write to the journal {self.path}: {err}",
            f"impossible d'écrire dans le journal {self.path} : {err}",
        )

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

    def mark_finished(self, game_id: str, finished: bool, state: dict[str, Any] | None = None) -> None:
        """The ``finished`` hint; when the game ended, its summary too. ``state``, the engine's
        ``to_json()`` after the last committed event, saves replaying the game for it."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))
        self.checkpoint()
        if finished:
            # The game's summary goes into the journal now, after its last commit (and into
            # stats-cache.json): the players' next `history`, `stats`, `games` or `export --csv`
            # finds it ready. Best effort: a missing summary only costs one replay later.
            from companion.table.stats import remember

            with contextlib.suppress(CompanionError, OSError, ValueError):
                remember(self, game_id, state)

    def add_summaries(self, rows: list[tuple[str, int, int, int, str, str, str, str]]) -> None:
        """Append summaries (game id, events, version, bytes, digest, record, slaps, sheet) in
        one transaction; one already there for the same game, count and version is kept."""
        if not rows:
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO summaries VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            self._rollback()
            raise JournalError(
                f"could not write to the journal {self.path}: {err}",
                f"impossible d'écrire dans le journal {self.path} : {err}",
            ) from None
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
        except (sqlite3.Error, ValueError) as err:
            raise self._broken(str(err)) from None

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
                raise JournalError(
                    f"the journal {self.path} holds no game yet",
                    f"le journal {self.path} ne contient encore aucune partie",
                )
            return found[0]
        found = self._infos("WHERE g.id = ?", (game_id,))
        if found:
            return found[0]
        latest = self._infos("ORDER BY g.rowid DESC LIMIT 5")
        if not latest:
            raise JournalError(
                f"the journal {self.path} holds no game yet",
                f"le journal {self.path} ne contient encore aucune partie",
            )
        known = ", ".join(g.id for g in reversed(latest))
        raise UnknownGameError(
            f"no game {shown(game_id)} in the journal (latest: {known}); `companion games` lists them all",
            f"aucune partie {shown(game_id, lang='fr')} dans le journal (dernières : {known}) ; "
            "`companion games` les liste toutes",
        )

    def payloads(self, game_id: str) -> Iterator[tuple[int, str]]:
        try:
            cursor = self._db.execute(
                "SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            yield from cursor
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

    def sizes(self) -> dict[str, int]:
        """Bytes of payload per game, summed by SQLite without a row reaching Python: with the
        count, what tells a game whose rows were changed in place from the one cached."""
        try:
            return dict(
                self._db.execute(
                    "SELECT game_id, sum(length(CAST(payload AS BLOB))) FROM events GROUP BY game_id"
                ).fetchall()
            )
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

    def tallies(self) -> dict[str, tuple[int, int]]:
        """(events, bytes of payload) per game, in one pass over the events summed by SQLite:
        what tells a summary or a cached record still true of its game."""
        try:
            rows = self._db.execute(
                "SELECT game_id, count(*), sum(length(CAST(payload AS BLOB))) FROM events GROUP BY game_id"
            )
            return {game_id: (n, size) for game_id, n, size in rows}
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

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

    def summaries(self, version: int) -> dict[str, list[tuple[int, int, str, str, str, str]]]:
        """The stored summaries of ``version``, by game: (events, bytes, digest, record, slaps,
        sheet), JSON text left undecoded. None in a journal written before summaries."""
        out: dict[str, list[tuple[int, int, str, str, str, str]]] = {}
        try:
            rows = self._db.execute(
                "SELECT game_id, events, bytes, digest, record, slaps, sheet FROM summaries "
                "WHERE version = ?",
                (version,),
            )
            for game_id, *rest in rows:
                out.setdefault(game_id, []).append(tuple(rest))
        except sqlite3.OperationalError as err:
            if "no such table" not in str(err):
                raise self._broken(str(err)) from None
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None
        return out

    def positions(self, game_id: str) -> dict[str, int]:
        """Where the game stands in each stream its sources can replay: the position after the
        last event of it the table handled (see ``_POSITIONS``); empty in a journal written
        before positions were kept."""
        try:
            rows = self._db.execute(
                "SELECT stream, max(position) FROM positions WHERE game_id = ? GROUP BY stream",
                (game_id,),
            )
            return {stream: at for stream, at in rows}
        except sqlite3.OperationalError as err:
            if "no such table" not in str(err):
                raise self._broken(str(err)) from None
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None
        return {}

    def all_payloads(self, *, raw: bool = False) -> Iterator[tuple[str, Any]]:
        """(game id, payload) of every event, game by game in seq order; ``raw``: the payload
        as its UTF-8 bytes."""
        column = "CAST(payload AS BLOB)" if raw else "payload"
        try:
            yield from self._db.execute(f"SELECT game_id, {column} FROM events ORDER BY game_id, seq")
        except sqlite3.Error as err:
            raise self._broken(str(err)) from None

    def events(self, game_id: str) -> Iterator[tuple[int, AnyEvent]]:
        # The event models (pydantic) load here, not with the module: readers of payloads alone
        # (stats, history, export) never pay for them.
        from companion.table.log import NewGameBase, parse_event

        expected = 1
        game: str | None = None
        for seq, payload in self.payloads(game_id):
            if seq != expected:
                raise JournalError(
                    f"event {expected} of game {game_id} is missing from the journal {self.path}",
                    f"l'événement {expected} de la partie {game_id} manque dans le journal {self.path}",
                )
            try:
                event = parse_event(payload, game)
            except (ValueError, CompanionError) as err:
                en = err.en if isinstance(err, CompanionError) else str(err)
                fr = err.fr if isinstance(err, CompanionError) else str(err)
                raise JournalError(
                    f"event {seq} of game {game_id} in the journal {self.path} is damaged: {en}",
                    f"l'événement {seq} de la partie {game_id} du journal {self.path} est abîmé : {fr}",
                ) from None
            if isinstance(event, NewGameBase):
                game = event.game
            yield seq, event
            expected += 1
