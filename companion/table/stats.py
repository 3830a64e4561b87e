"""History and player statistics over the journal: one ``GameRecord`` per stored game, then
``PlayerStats`` per player across them (games, wins, and for Kilo de merde the slaps).

``records`` reads the journal through its public API (and keeps a cache of the records beside
it); the rest is pure. Kilo de merde games go
through the quick fold of ``games/kilo/tally.py``; the other games through their engine.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games.kilo.tally import SlapFact, tally

ESCAPES_SHOWN = 3


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game as history and statistics see it."""

    id: str
    game: str
    created_ns: int
    players: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]  # seat order
    unit: str  # "kilos" or "points"
    slaps: tuple[SlapFact, ...] = ()
    flushes: tuple[tuple[str, int], ...] = ()
    error: str | None = None  # the game could not be read back; the rest is empty

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "created_ns": self.created_ns,
                "players": list(self.players), "finished": self.finished,
                "winners": list(self.winners), "scores": dict(self.scores), "unit": self.unit,
                "error": self.error}


def record_from_payloads(game_id: str, created_ns: int, payloads: Iterable[str]) -> GameRecord:
    """Fold one game's stored payloads (JSON text, seq order) into its record."""
    # One decode for the whole game: a thousand games are ninety thousand payloads.
    text = ",".join(payloads)
    rows = json.loads("[" + text + "]")
    if not rows:
        raise ValueError("the game has no events")
    first = rows[0]
    game = first.get("game", "?")
    players = tuple(first.get("players", ()))
    if game == "kilo":
        t = tally(first, rows[1:], may_undo='"undo"' in text)
        return GameRecord(game_id, game, created_ns, players, t.finished, t.winners,
                          tuple((p, t.kilos[p]) for p in players), "kilos", t.slaps,
                          tuple((p, t.flushes[p]) for p in players))
    from companion.table.fold import Fold
    from companion.table.log import event_from_dict

    fold = Fold()
    fold.feed(event_from_dict(first, None))
    for row in rows[1:]:
        fold.feed(event_from_dict(row, game))
    assert fold.engine is not None
    state = fold.engine.to_json()
    unit = "points"
    by_player: dict[str, int] = {}
    for row in state.get("standings", []):
        value = row.get("kilos", row.get("points", 0))
        if "kilos" in row:
            unit = "kilos"
        by_player[row["player"]] = int(value)
    return GameRecord(game_id, game, created_ns, players, bool(state.get("finished")),
                      tuple(state.get("winners") or ()),
                      tuple((p, by_player.get(p, 0)) for p in players), unit)


def _read(journal: Any, info: Any) -> GameRecord:
    try:
        return record_from_payloads(info.id, info.created_ns,
                                    [p for _, p in journal.payloads(info.id)])
    except (CompanionError, ValueError, KeyError, TypeError, IndexError) as err:
        return GameRecord(info.id, info.game, info.created_ns, info.players, False, (), (), "",
                          error=str(err) or type(err).__name__)


def records(journal: Any, cache_dir: Path | None = None) -> list[GameRecord]:
    """Every game of an open ``Journal``, oldest first. A game that does not read back gives a
    record with its ``error`` instead of stopping the others.

    With ``cache_dir``, the records are kept in ``stats-cache.json`` there, each under its game
    id with its event count: journal rows are never changed or deleted, so a game with the same
    id, start and count has the same record, and only new games and new events are folded.
    """
    cache = _load_cache(cache_dir) if cache_dir is not None else {}
    kept: dict[str, Any] = {}
    out: list[GameRecord] = []
    changed = False
    for info in journal.games():
        hit = cache.get(info.id)
        record = None
        if isinstance(hit, list) and len(hit) == 3 and hit[0] == info.events \
                and hit[1] == info.created_ns:
            try:
                record = _from_cache(info.id, info.created_ns, hit[2])
                kept[info.id] = hit
            except (ValueError, TypeError, IndexError, KeyError):
                record = None
        if record is None:
            record = _read(journal, info)
            changed = True
            if record.error is None:
                kept[info.id] = [info.events, info.created_ns, _to_cache(record)]
        out.append(record)
    if cache_dir is not None and (changed or len(kept) != len(cache)):
        _save_cache(cache_dir, kept)
    return out


CACHE_NAME = "stats-cache.json"
CACHE_VERSION = 1  # raise it when GameRecord or a game's fold changes


def _to_cache(r: GameRecord) -> list[Any]:
    # Tuples dump as JSON arrays: no copy into lists.
    return [r.game, r.players, r.finished, r.winners, r.scores, r.unit,
            [(s.order, s.losers, s.margin_us, s.valid, s.tied) for s in r.slaps], r.flushes]


class _Stale(ValueError):
    """A cache row that does not describe a game the way ``_read`` would."""


def _names(value: Any, seats: frozenset[str] | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
            isinstance(p, str) and (seats is None or p in seats) for p in value):
        raise _Stale
    return tuple(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise _Stale
    return value


def _pairs(value: Any, players: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """One [player, integer] per seat, in seat order."""
    if not isinstance(value, list) or len(value) != len(players):
        raise _Stale
    out = []
    for pair, player in zip(value, players, strict=True):
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] != player:
            raise _Stale
        out.append((player, _int(pair[1])))
    return tuple(out)


def _from_cache(game_id: str, created_ns: int, row: Any) -> GameRecord:
    """A cache row back into its record, every part checked: the cache is a file anyone can
    edit or damage, and a row that lies must cost a fold, never a crash or a wrong number."""
    if not isinstance(row, list) or len(row) != 8:
        raise _Stale
    game, players, finished, winners, scores, unit, slaps, flushes = row
    if not isinstance(game, str) or type(finished) is not bool or unit not in ("kilos", "points"):
        raise _Stale
    seated = _names(players)
    seats = frozenset(seated)
    if len(seats) != len(seated) or not isinstance(slaps, list):
        raise _Stale
    facts = []
    for slap in slaps:
        if not isinstance(slap, list) or len(slap) != 5:
            raise _Stale
        order, losers, margin, valid, tied = slap
        if not isinstance(order, list) or type(valid) is not bool or type(tied) is not bool \
                or not (margin is None or type(margin) is int):
            raise _Stale
        presses = []
        for press in order:
            if not isinstance(press, list) or len(press) != 2 or press[0] not in seats:
                raise _Stale
            presses.append((press[0], _int(press[1])))
        facts.append(SlapFact(tuple(presses), _names(losers, seats), margin, valid, tied))
    return GameRecord(game_id, game, created_ns, seated, finished, _names(winners, seats),
                      _pairs(scores, seated), unit, tuple(facts),
                      _pairs(flushes, seated) if flushes else ())


def _load_cache(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / CACHE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {}
    games = data.get("games")
    return games if isinstance(games, dict) else {}


def _save_cache(folder: Path, games: dict[str, Any]) -> None:
    """Best effort: a cache that cannot be written only costs time on the next run."""
    tmp = folder / f".{CACHE_NAME}.{os.getpid()}"
    try:
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "games": games},
                                  ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, folder / CACHE_NAME)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


@dataclass(slots=True)
class PlayerStats:
    player: str
    games: int = 0
    wins: int = 0
    by_game: dict[str, list[int]] = field(default_factory=dict)  # game -> [played, won]
    kilo_games: int = 0
    kilos: int = 0
    slap_losses: int = 0  # valid slaps that made them draw
    false_slaps: int = 0  # penalized for slapping in error
    flushes: int = 0
    slaps: int = 0  # judged slaps they pressed in
    firsts: int = 0
    times_last: int = 0  # last presser of a valid slap
    delays_us: list[int] = field(default_factory=list)  # behind the first press, when not first
    escapes_us: list[int] = field(default_factory=list)  # margins by which they were not last

    @property
    def median_delay_us(self) -> int | None:
        return int(statistics.median(self.delays_us)) if self.delays_us else None

    @property
    def best_delay_us(self) -> int | None:
        return min(self.delays_us) if self.delays_us else None

    def closest_escapes(self, n: int = ESCAPES_SHOWN) -> list[int]:
        return sorted(self.escapes_us)[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "games": self.games, "wins": self.wins,
            "by_game": {g: {"games": v[0], "wins": v[1]} for g, v in self.by_game.items()},
            "kilo": {
                "games": self.kilo_games, "kilos": self.kilos, "slap_losses": self.slap_losses,
                "false_slaps": self.false_slaps, "flushes": self.flushes, "slaps": self.slaps,
                "firsts": self.firsts, "times_last": self.times_last,
                "median_delay_us": self.median_delay_us, "best_delay_us": self.best_delay_us,
                "closest_escapes_us": self.closest_escapes(),
            },
        }


def player_stats(games: Iterable[GameRecord], finished_only: bool = True) -> dict[str, PlayerStats]:
    """Per player, in order of first appearance. Unfinished and unreadable games are left out
    unless ``finished_only`` is false (then only unreadable ones are)."""
    out: dict[str, PlayerStats] = {}
    for g in games:
        if g.error is not None or (finished_only and not g.finished):
            continue
        for p in g.players:
            s = out.get(p) or out.setdefault(p, PlayerStats(p))
            s.games += 1
            won = p in g.winners
            s.wins += won
            counts = s.by_game.setdefault(g.game, [0, 0])
            counts[0] += 1
            counts[1] += won
        if g.game != "kilo":
            continue
        for p, kilos in g.scores:
            out[p].kilo_games += 1
            out[p].kilos += kilos
        for p, n in g.flushes:
            out[p].flushes += n
        for slap in g.slaps:
            _add_slap(out, slap)
    return out


def _add_slap(out: dict[str, PlayerStats], slap: SlapFact) -> None:
    if not slap.order:
        return
    first = slap.order[0][1]
    for i, (p, t_us) in enumerate(slap.order):
        s = out[p]
        s.slaps += 1
        if i == 0:
            s.firsts += 1
        else:
            s.delays_us.append(t_us - first)
    if not slap.valid:
        for p in slap.losers:
            out[p].false_slaps += 1
        return
    pressed = {p for p, _ in slap.order}
    for p in slap.losers:
        out[p].slap_losses += 1
        if p in pressed:  # the slowest hand, not someone who never pressed
            out[p].times_last += 1
    if slap.margin_us is not None and not slap.tied and len(slap.order) >= 2:
        out[slap.order[-2][0]].escapes_us.append(slap.margin_us)


EVENING_GAP_NS = 4 * 3600 * 10**9  # four hours without a new game end an evening


def evening_start(games: Iterable[GameRecord], now_ns: int | None = None,
                  gap_ns: int = EVENING_GAP_NS) -> int:
    """When this evening began: the start of the latest run of games with no gap over four
    hours between one start and the next (and none since ``now_ns``, if given)."""
    starts = sorted(g.created_ns for g in games)
    if not starts:
        return now_ns or 0
    if now_ns is not None and now_ns - starts[-1] > gap_ns:
        return now_ns  # nothing played tonight yet
    since = starts[-1]
    for start in reversed(starts[:-1]):
        if since - start > gap_ns:
            break
        since = start
    return since
