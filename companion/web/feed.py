"""What the phones show, read from the journal: the table's own record, never its live objects.

The server's thread keeps its own read-only journal connection and its own fold of the game being
played, fed only the events it has not seen, so the table's thread is never asked for anything
and a phone always shows a state the table really journaled.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from companion.display.theme import seat_color
from companion.errors import CompanionError
from companion.games import GAMES
from companion.table.fold import Fold
from companion.table.journal import Journal


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _hex(seat: int) -> str:
    r, g, b = seat_color(seat)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def standings_of(game_id: str, seq: int, engine: Any) -> dict[str, Any]:
    """The page's data for one state of one game: plain JSON, in both languages."""
    players = list(engine.players)
    rows = []
    standings = engine.standings()
    scores = [row[1] for row in standings]
    for row in standings:
        name, score = row[0], row[1]
        # Every game ranks the lowest score first; equal scores share a place, as on the table's
        # screen (four players at 0 kilos are all first, not first to fourth).
        place = 1 + sum(1 for other in scores if other < score)
        seat = players.index(name)
        r, g, b = seat_color(seat)[:3]
        rows.append(
            {"name": name, "seat": seat, "score": score, "place": place, "color": f"#{r:02x}{g:02x}{b:02x}"}
        )
    out: dict[str, Any] = {
        "game_id": game_id,
        "seq": seq,
        "game": engine.game,
        "title": GAMES[engine.game].title,
        "players": players,
        "finished": bool(engine.finished),
        "standings": rows,
        "summary": {"fr": engine.summary("fr"), "en": engine.summary("en")},
    }
    colors = [_hex(seat) for seat in range(len(players))]
    out["colors"] = colors
    if engine.game == "kilo":
        from companion.games.kilo.view import build_view

        view = build_view(engine)
        out["round"] = [view.round, view.rounds]
        out["last_slap"] = _plain(view.last_slap)
        if view.awaiting == "draw":
            # The table's card entry: who draws, and for each rank and card why the pile cannot
            # hold it any more ([fr, en]) or null, in the table's order; the scorer's page
            # offers the same choice as the screen (rank, then a suit or none).
            out["draw"] = {
                "owed": list(view.owed),
                # A list, not an object: a browser puts "2".."10" before "A" in an object.
                "ranks": [[rank, _plain(why)] for rank, why in view.rank_reasons.items()],
                "cards": _plain(view.card_reasons),
            }
        # The table's tiles, in seating order: kilos, the cards drawn, who owes a draw.
        out["tiles"] = [
            {
                "seat": s.seat,
                "name": s.name,
                "kilos": s.kilos,
                "cards": list(s.cards),
                "owes": s.owes,
                "starter": s.starter,
                "place": s.place,
                "change": s.change,
            }
            for s in view.seats
        ]
    elif engine.game == "cinq-rois":
        from companion.games.cinq_rois.view import build_view as cinq_view

        cv = cinq_view(engine)
        out["round"] = [engine.round, 11]
        # The score sheet: a row a round, a column a player (seating order), then the totals.
        out["sheet"] = {
            "rows": [
                {"round": r.round, "dealer": r.dealer, "out": r.out, "scores": list(r.scores)}
                for r in cv.history
            ],
            "totals": list(cv.totals),
            "places": list(cv.places),
            "cards": cv.cards,
            "bonus": cv.bonus,
        }
    elif engine.game == "treize":
        from companion.games.treize.view import build_view as treize_view

        tv = treize_view(engine)
        # The table (the trick in play, whose turn) and the race to the target.
        out["treize"] = {
            "variant": tv.variant,
            "game_number": tv.game_number,
            "trick": tv.trick,
            "turn": tv.turn,
            "stacks": [list(v) for v in tv.stacks],
            "last_play": _plain(tv.last_play),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "passed": s.passed,
                    "turn": s.turn,
                    "leader": s.leader,
                    "count": s.count,
                    "total": s.total,
                }
                for s in tv.seats
            ],
            "target": tv.target,
        }
    return out


class Feed:
    """The journal as the phones see it; ``poll`` returns the new page data when it changed."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
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
        self.page = standings_of(game_id, self.seq, engine)
        return self.page

    @property
    def n_seats(self) -> int:
        engine = self._fold.engine if self._fold is not None else None
        return len(engine.players) if engine is not None else 0
