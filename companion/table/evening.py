"""The evening at the table, from the records the stats read (``table/stats.py``): tonight's
players' numbers and the table's whole history, each game's own part of tonight (its
``GameStats.evening``: Kilo de merde's reaction times, kilos and draws) and the score sheets of
tonight's games scored round by round (a game's ``GameStats.sheet``). Pure: ``web/evening.py``
draws it (``companion stats --html``, the phones' evening tab)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.table.registry import every_stats
from companion.table.stats import GameRecord, PlayerStats, evening_start, player_stats
from companion.table.stats_seam import EveningPart


@dataclass(frozen=True, slots=True)
class SheetGame:
    """One game's score sheet: its rounds (or the games of a match), a score per seat."""

    id: str
    game: str
    created_ns: int
    players: tuple[str, ...]
    rows: tuple[tuple[int | None, ...], ...]  # a round's (or a game's) score per seat
    totals: tuple[int, ...]  # seat order
    winners: tuple[str, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class Evening:
    since_ns: int
    games: tuple[GameRecord, ...]  # tonight's, readable, in order
    tonight: dict[str, PlayerStats]  # finished games of tonight
    history: dict[str, PlayerStats]  # every finished game in the journal: `companion stats`
    parts: dict[str, EveningPart]  # each game's own part of tonight, in the registry's order
    sheets: tuple[SheetGame, ...]  # tonight's finished games that show their score sheets

    def counts(self) -> dict[str, int]:
        """Tonight's finished games, by game."""
        out: dict[str, int] = {}
        for g in self.games:
            if g.finished:
                out[g.game] = out.get(g.game, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "since_ns": self.since_ns,
            "games": self.counts(),
            "players": [s.to_json() for s in self.tonight.values()],
            "history": [s.to_json() for s in self.history.values()],
        }
        for part in self.parts.values():
            out.update(part.to_json())
        out["sheets"] = [
            {
                "id": g.id,
                "game": g.game,
                "players": list(g.players),
                "rows": [list(r) for r in g.rows],
                "totals": list(g.totals),
                "winners": list(g.winners),
                "finished": g.finished,
            }
            for g in self.sheets
        ]
        return out


def _sheet_game(g: GameRecord) -> SheetGame:
    sheet = g.sheet or {}
    rows: list[tuple[int | None, ...]] = []
    for row in sheet.get("history") or ():
        scores = row.get("scores") if isinstance(row, dict) else None
        if isinstance(scores, dict):  # a round's (or a match's game's) points by player
            rows.append(tuple(scores.get(p) for p in g.players))
    totals = dict(g.scores)
    return SheetGame(
        g.id,
        g.game,
        g.created_ns,
        g.players,
        tuple(rows),
        tuple(totals.get(p, 0) for p in g.players),
        g.winners,
        g.finished,
    )


def evening(games: Iterable[GameRecord], now_ns: int | None = None) -> Evening:
    """The evening of ``games`` (every record of the journal): tonight is the latest run of
    games with no four-hour gap (``stats.evening_start``)."""
    kinds = every_stats()
    readable = [g for g in games if g.error is None]
    since = evening_start(readable, now_ns)
    tonight = sorted((g for g in readable if g.created_ns >= since), key=lambda g: g.created_ns)
    sheets = tuple(
        _sheet_game(g) for g in tonight if g.finished and g.game in kinds and kinds[g.game].sheet is not None
    )
    players = player_stats(tonight)
    return Evening(
        since,
        tuple(tonight),
        players,
        player_stats(readable),
        {name: kind.evening(players, tonight) for name, kind in kinds.items()},
        sheets,
    )
