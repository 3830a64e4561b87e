"""What the phones show, read from the journal: the table's own record, never its live objects.

The server's thread keeps its own read-only journal connection and its own fold of the game being
played, fed only the events it has not seen, so the table's thread is never asked for anything
and a phone always shows a state the table really journaled.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games import GAMES, load
from companion.games.base import GameEngine
from companion.table.fold import Fold
from companion.table.journal import Journal

SeatHex = Callable[[int], str]  # a seat's colour as CSS writes it ("#rrggbb"), the screen's


def standings_of(game_id: str, seq: int, engine: GameEngine, seat_hex: SeatHex) -> dict[str, Any]:
    """The page's data for one state of one game: plain JSON, in both languages. The keys every
    game has, then the game's own (``Game.feed``)."""
    players = list(engine.players)
    standings = engine.standings()
    scores = [row[1] for row in standings]
    rows = []
    for row in standings:
        name, score = row[0], row[1]
        # Every game ranks the lowest score first; equal scores share a place, as on the table's
        # screen (four players at 0 kilos are all first, not first to fourth).
        place = 1 + sum(1 for other in scores if other < score)
        seat = players.index(name)
        rows.append({"name": name, "seat": seat, "score": score, "place": place, "color": seat_hex(seat)})
    game = load(engine.game)
    out: dict[str, Any] = {
        "game_id": game_id,
        "seq": seq,
        "game": engine.game,
        "title": GAMES[engine.game].title,
        "players": players,
        "finished": bool(engine.finished),
        "standings": rows,
        "summary": {"fr": engine.summary("fr"), "en": engine.summary("en")},
        "colors": [seat_hex(seat) for seat in range(len(players))],
        # What a scorer's phone may enter: the scorer's page draws its form by the event's type.
        "scorer_events": list(game.scorer_events),
    }
    out.update(game.feed(engine))
    return out


class Feed:
    """The journal as the phones see it; ``poll`` returns the new page data when it changed."""

    def __init__(self, data_dir: Path, seat_hex: SeatHex) -> None:
        self.data_dir = data_dir
        self.seat_hex = seat_hex  # the screen's palette, given by the server (web stands on no display)
        self._journal: Journal | None = None
        self.game_id: str | None = None
        self.seq = 0
        self._fold: Fold | None = None
        self._version: int | None = None
        self.page: dict[str, Any] | None = None

    def _open(self) -> Journal | None:
        if self._journal is None:
            try:
                self._journal = Journal(self.data_dir, writer=False)
            except CompanionError:
                return None  # no game journaled yet: nothing to show
        return self._journal

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def poll(self, game_id: str | None) -> dict[str, Any] | None:
        """The page data if the game or its journal moved since the last call, else None."""
        if game_id is None:
            return None
        journal = self._open()
        if journal is None:
            return None
        # PRAGMA data_version changes when another connection commits: a cheap "anything new?".
        version = int(journal._db.execute("PRAGMA data_version").fetchone()[0])
        if game_id == self.game_id and version == self._version:
            return None
        self._version = version
        if game_id != self.game_id:
            self.game_id, self.seq, self._fold = game_id, 0, Fold()
        assert self._fold is not None
        before = self.seq
        try:
            for seq, payload in journal.payloads(game_id):
                if seq <= self.seq:
                    continue
                from companion.table.log import parse_event

                engine = self._fold.engine
                self._fold.feed(parse_event(payload, engine.game if engine else None))
                self.seq = seq
        except CompanionError:
            self.game_id = None  # rebuilt whole at the next poll
            return None
        if self.seq == before and self.page is not None:
            return None
        engine = self._fold.engine
        if engine is None:
            return None
        self.page = standings_of(game_id, self.seq, engine, self.seat_hex)
        return self.page

    @property
    def n_seats(self) -> int:
        engine = self._fold.engine if self._fold is not None else None
        return len(engine.players) if engine is not None else 0
