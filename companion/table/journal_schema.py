"""The journal's SQLite schema, and what tells a journal's own objects from SQL that came from
elsewhere (a trigger or a view would run on our next write)."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1
SCHEMA = (
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
SUMMARIES = SCHEMA.split(";")[2]
# Where a game stands in the streams of events its sources can replay (a Pico board's boot:
# ``InputEvent.resume_at``): the position after the last event of that stream the table
# handled, written in the same transaction as the events that handling journaled, so that a
# resumed game asks the board for exactly what came after (docs/decisions.md, "Resume").
# The journal's, not the table log's: a replay needs the events alone. Appended, never updated:
# a stream's position is its largest. Journals written before this table get it from their next
# writer.
POSITIONS = SCHEMA.split(";")[3]


def _schema_rows(sql: str) -> set[tuple[str, str, str]]:
    return {
        ("table", name, " ".join(statement.split()))
        for statement in sql.split(";")
        if statement.strip()
        for name in [statement.split()[2]]
    }


# What ``Journal._create`` makes, as sqlite_master keeps it (whitespace aside). Anything else in a
# journal (a trigger, a view, an index, a changed table) came from elsewhere.
# (A rowid table, not WITHOUT ROWID as events: a summary is a few kilobytes, which an index-shaped
# table would spill to overflow pages, twice the size on disk.)
OURS = _schema_rows(SCHEMA) | {
    ("index", "sqlite_autoindex_games_1", ""),
    ("index", "sqlite_autoindex_summaries_1", ""),
}


def foreign_schema(db: sqlite3.Connection) -> str:
    """The schema objects of ``db`` that the companion did not create, named, or ''."""
    found = []
    for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master"):
        if (kind, name, " ".join((sql or "").split())) not in OURS:
            found.append(f"{kind} {name[:40]!r}")
    return ", ".join(found[:3]) + (f" (+{len(found) - 3})" if len(found) > 3 else "")
