"""The table: one game, its journal and its engine. ``submit`` is the only way the state changes.

An event is checked, then committed to the journal, then applied: a crash at any point leaves a
journal whose replay is a state the table really saw. The table screen may ``hold`` its commits
while it handles the presses that arrived together, then ``commit`` them in one transaction
before anything of them is shown (docs/decisions.md, "Group commit").
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import deque
from typing import Any

from companion.errors import CompanionError, JournalError
from companion.table.fold import fold_journal
from companion.table.journal import Journal
from companion.table.log import AnyEvent, NewGame, check_new_names
from companion.table.registry import new_engine
from companion.table.seam import GameEngine

# Crash tests read this to know which events the process saw committed before it was killed.
_TRACE = os.environ.get("COMPANION_TRACE_COMMITS") == "1"


class Table:
    def __init__(
        self, journal: Journal, game_id: str, engine: GameEngine, seq: int, meta: dict[str, Any]
    ) -> None:
        self.journal = journal
        self.game_id = game_id
        self.engine = engine
        self.seq = seq  # number of events journaled for this game
        self.meta = meta
        self.recent: deque[AnyEvent] = deque(maxlen=2)  # the last events, for resumable loops
        # Applied but not yet journaled, while held: nothing of them may be shown before commit.
        self.pending: list[tuple[int, AnyEvent]] | None = None
        self._finished_at_commit: bool | None = None
        # Where the game stands in its sources' replayable streams (a Pico board's boot): the
        # position after the last event of each the table handled, from the journal for a
        # resumed game; the ones not journaled yet go with the next events written.
        self.positions: dict[str, int] = {}
        self._unsaved: dict[str, int] = {}

    @classmethod
    def start(cls, journal: Journal, setup: NewGame, meta: dict[str, Any]) -> Table:
        check_new_names(setup.players)  # every new game, whichever screen or command starts it
        engine = new_engine(setup)
        game_id = journal.new_game(setup, setup.game, tuple(setup.players), meta)
        if _TRACE:
            print(f"#committed {game_id} 1", file=sys.stderr, flush=True)
        return cls(journal, game_id, engine, 1, meta)

    @classmethod
    def resume(cls, journal: Journal, game_id: str | None = None) -> Table:
        """Rebuild a game from the journal; without an id, the most recent unfinished one."""
        if game_id is None:
            candidates = [g for g in reversed(journal.games()) if not g.finished]
            if not candidates:
                raise JournalError(
                    "live.there_unfinished_game",
                )
            for info in candidates:
                table = cls.load(journal, info.id)
                if not table.engine.finished:
                    return table
                # The hint was stale (killed just before it was written).
                journal.mark_finished(info.id, True)
                _sum_up(journal, info.id, table.engine.to_json())
            raise JournalError("live.resume")
        return cls.load(journal, game_id)

    @classmethod
    def load(cls, journal: Journal, game_id: str) -> Table:
        info = journal.game(game_id)
        recent: deque[AnyEvent] = deque(maxlen=2)
        engine, seq = fold_journal(journal, info.id, recent)
        table = cls(journal, info.id, engine, seq, info.meta)
        table.recent = recent
        table.positions = journal.positions(info.id)
        return table

    def handled(self, stream: str, position: int) -> None:
        """The table has handled a source's events up to ``position`` in ``stream``
        (``InputEvent.resume_at``): kept with the next events journaled, before any of them
        (an event this one makes is in the same transaction)."""
        if position > self.positions.get(stream, -1):
            self.positions[stream] = position
            self._unsaved[stream] = position

    def submit(self, event: AnyEvent) -> None:
        """Check, journal, then apply; raises RuleError (nothing written) if the rules refuse.
        While held, the event is applied now and journaled by ``commit``."""
        self.engine.check(event)
        if self.pending is None:
            points, self._unsaved = self._unsaved, {}
            try:
                self.journal.append(self.game_id, self.seq + 1, event, points)
            except BaseException:
                self._unsaved = {**points, **self._unsaved}
                raise
            if _TRACE:
                print(f"#committed {self.game_id} {self.seq + 1}", file=sys.stderr, flush=True)
        else:
            self.pending.append((self.seq + 1, event))
        self.seq += 1
        self.recent.append(event)
        was_finished = self.engine.finished
        self.engine.apply(event, checked=True)
        if self.engine.finished != was_finished:
            if self.pending is None:
                self._mark_finished(self.engine.finished)
            else:
                self._finished_at_commit = self.engine.finished  # the hint follows its events

    def hold(self) -> None:
        """From now on ``submit`` applies at once and journals at ``commit``."""
        if self.pending is None:
            self.pending = []

    def commit(self) -> None:
        """Journal what was held, in one transaction, and stop holding.

        If the journal refuses, none of the held events is in it, so the table goes back to the
        journal's state (replayed from it) before the JournalError is raised: the table never
        holds a state the journal could not give back after a pulled plug.
        """
        rows, self.pending = self.pending, None
        finished, self._finished_at_commit = self._finished_at_commit, None
        if not rows:
            return
        points, self._unsaved = self._unsaved, {}
        try:
            self.journal.append_many(self.game_id, rows, points)
        except CompanionError:
            back = Table.load(self.journal, self.game_id)
            self.engine, self.seq, self.recent = back.engine, back.seq, back.recent
            self.positions = back.positions  # what was handled but not kept is asked again
            raise
        if _TRACE:
            for seq, _ in rows:
                print(f"#committed {self.game_id} {seq}", file=sys.stderr, flush=True)
        if finished is not None:
            self._mark_finished(finished)

    def _mark_finished(self, finished: bool) -> None:
        # The engine has folded exactly the journal's events here: the game's summary is
        # taken from it, not from a replay.
        self.journal.mark_finished(self.game_id, finished)
        if finished:
            _sum_up(self.journal, self.game_id, self.engine.to_json())


def _sum_up(journal: Journal, game_id: str, state: dict[str, Any]) -> None:
    """The game's summary into the journal now, after its last commit (and into
    stats-cache.json): the players' next `history`, `stats`, `games` or `export --csv` finds it
    ready. ``state`` is the engine's ``to_json()`` after the last committed event, which saves
    replaying the game. Best effort: a missing summary only costs one replay later."""
    from companion.table.stats import remember

    with contextlib.suppress(CompanionError, OSError, ValueError):
        remember(journal, game_id, state)
