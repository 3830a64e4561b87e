"""The evening at the table, from the records the stats read (``table/stats.py``): tonight's
players' numbers and the table's whole history, each player's reaction times as a small
distribution, the kilos over the evening's games, who drew most, Les Cinq Rois' rounds and
13 feuilles' games. Pure: ``web/evening.py`` draws it (``companion stats --html``, the phones'
evening tab)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.table.stats import GameRecord, PlayerStats, evening_start, player_stats

# The reaction-time distribution's bins, in ms behind the first press: a slap's presses come
# within tens of milliseconds, a slow hand within a second.
DELAY_BINS_MS: tuple[int, ...] = (10, 20, 50, 100, 200, 500)


@dataclass(frozen=True, slots=True)
class KiloCurve:
    """Each player's kilos added up over tonight's Kilo de merde games, game after game."""

    games: int
    totals: dict[str, tuple[int, ...]]  # player -> running total after each game they played


@dataclass(frozen=True, slots=True)
class SheetGame:
    """One game of Les Cinq Rois (its rounds) or of 13 feuilles (its games, a match)."""

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
    kilos: KiloCurve
    sheets: tuple[SheetGame, ...]  # tonight's finished games of Les Cinq Rois and 13 feuilles

    def draws(self) -> list[tuple[str, int]]:
        """Who drew most tonight: cards drawn for slaps lost and false slaps, most first."""
        rows = [(p, s.slap_losses + s.false_slaps) for p, s in self.tonight.items()]
        return sorted(rows, key=lambda r: (-r[1], r[0]))

    def counts(self) -> dict[str, int]:
        """Tonight's finished games, by game."""
        out: dict[str, int] = {}
        for g in self.games:
            if g.finished:
                out[g.game] = out.get(g.game, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "since_ns": self.since_ns,
            "games": self.counts(),
            "players": [s.to_json() for s in self.tonight.values()],
            "history": [s.to_json() for s in self.history.values()],
            "delays_ms_bins": list(DELAY_BINS_MS),
            "delays": {p: histogram(s.delays_us) for p, s in self.tonight.items() if s.delays_us},
            "draws": dict(self.draws()),
            "kilos": {p: list(v) for p, v in self.kilos.totals.items()},
            "sheets": [
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
            ],
        }


def histogram(delays_us: Iterable[int]) -> list[int]:
    """How many delays fall in each bin of ``DELAY_BINS_MS`` (under 10 ms, 10-20, ...), the
    last bin holding the slower ones."""
    counts = [0] * (len(DELAY_BINS_MS) + 1)
    for d in delays_us:
        i = 0
        while i < len(DELAY_BINS_MS) and d >= DELAY_BINS_MS[i] * 1000:
            i += 1
        counts[i] += 1
    return counts


def _kilo_curve(games: Iterable[GameRecord]) -> KiloCurve:
    totals: dict[str, list[int]] = {}
    n = 0
    for g in games:
        if g.game != "kilo" or not g.finished:
            continue
        n += 1
        for p, kilos in g.scores:
            run = totals.setdefault(p, [])
            run.append((run[-1] if run else 0) + kilos)
    return KiloCurve(n, {p: tuple(v) for p, v in totals.items()})


def _sheet_game(g: GameRecord) -> SheetGame | None:
    sheet = g.sheet or {}
    rows: list[tuple[int | None, ...]] = []
    for row in sheet.get("history") or ():
        scores = row.get("scores") if isinstance(row, dict) else None
        if isinstance(scores, dict):  # a Cinq Rois round's, a 13 feuilles game's points
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
    readable = [g for g in games if g.error is None]
    since = evening_start(readable, now_ns)
    tonight = sorted((g for g in readable if g.created_ns >= since), key=lambda g: g.created_ns)
    sheets = tuple(
        s
        for g in tonight
        if g.finished and g.game in ("cinq-rois", "treize") and (s := _sheet_game(g)) is not None
    )
    return Evening(
        since,
        tuple(tonight),
        player_stats(tonight),
        player_stats(readable),
        _kilo_curve(tonight),
        sheets,
    )
