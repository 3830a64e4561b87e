"""History and player statistics over the journal: one ``GameRecord`` per stored game, then
``PlayerStats`` per player across them (games, wins, and what each game keeps of its own:
``table/stats_seam.py``).

``records`` reads the journal through its public API (and keeps a cache of the records beside
it); the rest is pure. Kilo de merde games go
through the quick fold of ``games/kilo/tally.py``; the other games through their engine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import itertools
import json
import operator
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.table.journal import Summary
    from companion.table.stats_seam import GameStats, PlayerPart


@dataclass(frozen=True, slots=True)
class SlapFact:
    """One judged slap: the counted presses by stamp, who had to draw, the margin of the last.
    (Kilo de merde's quick fold, ``games/kilo/tally.py``, makes them; defined here, below the
    games, with the players' numbers that count them.)"""

    order: tuple[tuple[str, int], ...]
    losers: tuple[str, ...]
    margin_us: int | None
    valid: bool
    tied: bool


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
    error_fr: str | None = None
    # What a score sheet needs of the engine's final state (``export --csv``): game, players,
    # history, standings, winners, finished.
    sheet: dict[str, Any] | None = None
    digest: str = ""  # of the game's payloads, for ``records(verify=True)``
    size: int = 0  # bytes of the game's payloads, as ``Journal.sizes`` counts them
    events: int = 0  # how many events were folded (0: not known)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "created_ns": self.created_ns,
            "players": list(self.players),
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "unit": self.unit,
            "error": self.error,
        }


def record_from_payloads(
    game_id: str, created_ns: int, payloads: Iterable[str], state: dict[str, Any] | None = None
) -> GameRecord:
    """Fold one game's stored payloads (JSON text, seq order) into its record: what the game
    keeps of them (``Game.outcome``). ``state``, the engine's final ``to_json()`` when the caller
    folded it already, saves the fold."""
    from companion.table.registry import load

    # One decode for the whole game: a thousand games are ninety thousand payloads.
    text = ",".join(payloads)
    rows = json.loads("[" + text + "]")
    if not rows:
        raise ValueError("the game has no events")
    first = rows[0]
    game = first.get("game", "?")
    folded = [] if state is None else [state]

    def final_state() -> dict[str, Any]:
        if not folded:
            folded.append(_fold(rows, game))
        return folded[0]

    o = load(game).outcome(rows, text, final_state)
    return GameRecord(
        game_id,
        game,
        created_ns,
        tuple(first.get("players", ())),
        o.finished,
        o.winners,
        o.scores,
        o.unit,
        o.slaps,
        o.flushes,
        sheet=_sheet(folded[0] if folded else None),
    )


def _fold(rows: list[dict[str, Any]], game: str) -> dict[str, Any]:
    """The engine's ``to_json()`` after a game's decoded events."""
    from companion.table.fold import Fold
    from companion.table.log import event_from_dict

    fold = Fold()
    fold.feed(event_from_dict(rows[0], None))
    for row in rows[1:]:
        fold.feed(event_from_dict(row, game))
    assert fold.engine is not None
    return fold.engine.to_json()


_SHEET_KEYS = ("game", "players", "history", "standings", "winners", "finished")


def _sheet(state: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if state is None else {k: state.get(k) for k in _SHEET_KEYS}


def _read(journal: Any, info: Any, state: dict[str, Any] | None = None) -> GameRecord:
    """One game folded through its engine, every event checked as ``resume`` checks it (so
    ``games`` and ``doctor`` can trust a record that has no error), then its record. ``state``:
    the live table's engine after the game's last event, which has checked them already."""
    from companion.table.fold import fold_journal

    def failed(en: str, fr: str) -> GameRecord:
        return GameRecord(
            info.id, info.game, info.created_ns, info.players, False, (), (), "", error=en, error_fr=fr
        )

    try:
        if state is None:
            engine, seq = fold_journal(journal, info.id)
            state = engine.to_json()
        else:
            seq = None
        # The payloads the state was folded from, not those a writer appended since.
        payloads = [p for n, p in journal.payloads(info.id) if seq is None or n <= seq]
        record = record_from_payloads(info.id, info.created_ns, payloads, state)
        return dataclasses.replace(
            record,
            digest=digest(payloads),
            size=sum(len(p.encode()) for p in payloads),
            events=len(payloads),
        )
    except CompanionError as err:
        return failed(err.en, err.fr)
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as err:
        why = str(err) or type(err).__name__
        return failed(why, why)


def digest(payloads: Iterable[str]) -> str:
    """A fingerprint of a game's stored events: a payload changed in place keeps the count."""
    h = hashlib.blake2b(digest_size=12)
    for payload in payloads:
        h.update(payload.encode())
        h.update(b"\n")
    return h.hexdigest()


def journal_digests(journal: Any, tallies: dict[str, tuple[int, int]] | None = None) -> dict[str, str]:
    """``digest`` of every game, in one pass over the events (``doctor``: about 0.2 s a
    hundred thousand events)."""
    # The payloads as SQLite's bytes (no decoding to text and encoding back), each game's
    # joined and hashed at once: the same digest as ``digest``, without a Python step per row.
    # ``tallies``, when given, gets each game's (events, bytes) from the same pass.
    out: dict[str, str] = {}
    for game_id, rows in itertools.groupby(journal.all_payloads(raw=True), key=operator.itemgetter(0)):
        blobs = list(map(operator.itemgetter(1), rows))
        text = b"\n".join(blobs) + b"\n"
        out[game_id] = hashlib.blake2b(text, digest_size=12).hexdigest()
        if tallies is not None:
            tallies[game_id] = (len(blobs), len(text) - len(blobs))
    return out


@contextlib.contextmanager
def rare_collections() -> Iterator[None]:
    """A listing decodes and checks tens of thousands of small objects (2,000 games' records,
    slaps and score sheets) that all live until it prints, and makes next to no reference
    cycles: at the collector's default pace each pass walks all of them again, about 0.05 s of
    the 0.4 s CPU of a warm `stats` or `export --csv` over 2,000 games (bench/stats.py, under
    load). Collect far less often meanwhile (young cycles are still collected); the previous
    pace comes back after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 100_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@rare_collections()  # the collector made rare for the whole listing (its docstring says why)
def records(
    journal: Any,
    cache_dir: Path | None = None,
    infos: list[Any] | None = None,
    *,
    slaps: bool = True,
    sheets: bool = False,
    verify: bool = False,
    full: bool = True,
    whole: bool = False,
) -> list[GameRecord]:
    """Every game of an open ``Journal`` (or those of ``infos``), oldest first, each with its
    ``events`` counted. A game that does not read back gives a record with its ``error``
    instead of stopping the others.

    Each game's record comes from the first of: ``stats-cache.json`` in ``cache_dir``, the
    game's summary in the journal, a replay of the game (whose summary is then appended to the
    journal, when no other companion is writing it). Journal rows are never changed or deleted,
    so a cached record or a summary of a game with the same id, event count and bytes is the
    game's record (a row edited in place to the same length is found by ``verify``). Counting
    every game's events and bytes is one scan of the journal, skipped when its files are as
    the cache last saw them (``Journal.fingerprint``): nothing was written since.
    A game that does not fold is never kept: it is folded again, and named again, every time.
    The slaps (for ``player_stats``) and score sheets (for ``export --csv``) are kept on lines
    of their own, read only when asked for: the list of games never pays for them. ``verify``
    (``doctor``) also re-reads every event and refolds a game whose payloads changed in place.
    ``full=False`` (``games``, which only shows whether a game reads back): a cached game's
    record carries its id, game, players and count, not its results. ``whole``: ``infos`` is
    every game of the journal (``Journal.games(counted=False)``), as when it is not given.
    """
    whole = whole or infos is None
    # Before anything is read: what is read next is at least as new as this.
    fingerprint = journal.fingerprint()
    cache = _Cache(cache_dir)
    listed = journal.games(counted=False) if infos is None else infos
    tallies: dict[str, tuple[int, int]] | None = {} if verify else None
    sums = journal_digests(journal, tallies) if verify else None
    if tallies is None:
        # The files as when the cache was written: its counts are the journal's.
        unchanged = fingerprint is not None and fingerprint == cache.journal
        tallies = _counts(journal, listed, cache.part("rows")) if unchanged else journal.tallies()
    with contextlib.ExitStack() as folding:
        look = _Look(journal, cache, tallies, sums, folding, slaps=slaps, sheets=sheets, full=full)
        out = [look.record(info) for info in listed]
    if look.replayed:
        _store(journal, look.replayed)
    if look.folded:
        # Appended to (or a game that does not fold, whose old cache row must not be found true
        # again): the journal's files are no longer as ``fingerprint`` saw.
        fingerprint = None
    gone = set(cache.part("rows")) - {info.id for info in listed} if whole else set()
    if cache_dir is not None and (look.new or look.raw or gone or (whole and fingerprint != cache.journal)):
        # The fingerprint only when every game was listed: the cache then holds them all.
        cache.update(listed, look.new, gone, fingerprint if whole else cache.journal, look.raw)
    return out


def _counts(journal: Any, listed: list[Any], rows: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Every game's (events, bytes) as the cache's rows hold them, when the journal's files are
    as the cache saw them; counted in the journal if a game is missing (one that does not fold)."""
    tallies: dict[str, tuple[int, int]] = {}
    for info in listed:
        hit = rows.get(info.id)
        if type(hit) is not list or len(hit) != 5:
            return dict(journal.tallies())
        tallies[info.id] = (hit[0], hit[4])
    return tallies


class _Look:
    """One listing's way to each game's record: the cache, else the journal's summary, else a
    replay; what it found on the way (``new``, ``raw``, ``replayed``, ``folded``) goes back to
    the cache and the journal once every game is read."""

    def __init__(
        self,
        journal: Any,
        cache: _Cache,
        tallies: dict[str, tuple[int, int]],
        sums: dict[str, str] | None,
        folding: contextlib.ExitStack,
        *,
        slaps: bool,
        sheets: bool,
        full: bool,
    ) -> None:
        self.journal = journal
        self.tallies = tallies
        self.sums = sums  # every game's digest (``verify``), else None
        self.folding = folding
        self.slaps, self.sheets, self.full = slaps, sheets, full
        self.rows = cache.part("rows")
        self.slap_rows = cache.part("slaps") if slaps else {}
        self.sheet_rows = cache.part("sheets") if sheets else {}
        self.summaries: dict[str, list[Any]] | None = None  # read at the first game the cache misses
        self.new: dict[str, GameRecord] = {}
        self.raw: dict[str, tuple[Any, ...]] = {}  # summaries' texts, into the cache as they are
        self.replayed: list[GameRecord] = []
        self.folded = False

    def record(self, info: Any) -> GameRecord:
        count, size = self.tallies.get(info.id, (0, 0))
        record = self._cached(info, count, size) or self._summed(info, count, size)
        return record if record is not None else self._replay(info, count)

    def _cached(self, info: Any, count: int, size: int) -> GameRecord | None:
        hit = self.rows.get(info.id)
        if not (
            type(hit) is list
            and len(hit) == 5
            and hit[0] == count
            and hit[1] == info.created_ns
            and hit[4] == size
            and (self.sums is None or hit[3] == self.sums.get(info.id))
        ):
            return None
        if not self.full:
            return GameRecord(
                info.id, info.game, info.created_ns, info.players, info.finished, (), (), "", events=count
            )
        try:
            return _from_cache(
                info.id,
                info.created_ns,
                hit[2],
                self.slap_rows[info.id] if self.slaps else [],
                self.sheet_rows.get(info.id) if self.sheets else {},
                count,
                info.players,
            )
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, RecursionError):
            return None

    def _summed(self, info: Any, count: int, size: int) -> GameRecord | None:
        if self.summaries is None:
            self.summaries = self.journal.summaries(SUMMARY_VERSION)
        found = _from_summary(
            info,
            self.summaries.get(info.id, ()),
            count,
            size,
            self.sums,
            full=self.full,
            slaps=self.slaps,
            sheets=self.sheets,
        )
        if found is None:
            return None
        record, self.raw[info.id] = found
        return record

    def _replay(self, info: Any, count: int) -> GameRecord:
        if not self.folded:
            # The first fold: the collector slowed while folding (a third less time over a
            # journal copied from elsewhere); imported here, the cached path needs none.
            from companion.table.fold import few_collections

            self.folding.enter_context(few_collections())
        self.folded = True
        record = _read(self.journal, info)
        if record.error is None:
            self.new[info.id] = record
            self.replayed.append(record)
        elif record.events != count:
            # Never cached, and its old row (if any) stays in the cache: the next look must
            # count, or it would find that row true again.
            record = dataclasses.replace(record, events=count)
        return record


# Raise it when GameRecord or a game's fold changes: older summaries are then ignored, and each
# game is replayed once more and summed up anew.
SUMMARY_VERSION = 1


def _from_summary(
    info: Any,
    stored: Any,
    count: int,
    size_now: int,
    sums: dict[str, str] | None,
    *,
    full: bool = True,
    slaps: bool = True,
    sheets: bool = True,
) -> tuple[GameRecord, tuple[Any, ...]] | None:
    """The game's record from its stored summary, if one is true of the game as it is now
    (``count`` events of ``size_now`` bytes), with the summary's texts for the cache. Only the
    parts asked for are decoded (``full=False``: none; the listing shows no result): a text
    left undecoded goes to the cache as it is, where a damaged one makes its line unreadable,
    so ignored, and the game is read from here again."""
    for summary in stored:
        events, size, fingerprint = summary.events, summary.bytes, summary.digest
        row, slap_text, sheet_text = summary.record, summary.slaps, summary.sheet
        if events != count or size != size_now:
            continue
        if sums is not None and fingerprint != sums.get(info.id):
            continue
        texts = (events, fingerprint, size, row, slap_text, sheet_text)
        if not full:
            light = GameRecord(
                info.id, info.game, info.created_ns, info.players, info.finished, (), (), "", events=events
            )
            return light, texts
        try:
            record = _from_cache(
                info.id,
                info.created_ns,
                json.loads(row),
                json.loads(slap_text) if slaps else [],
                json.loads(sheet_text) if sheets else {},
                table=info.players,
            )
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, RecursionError):
            continue
        return dataclasses.replace(record, digest=fingerprint, size=size, events=events), texts
    return None


def _summary_row(r: GameRecord) -> Summary:
    from companion.table.journal import Summary

    def text(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    return Summary(
        r.id,
        r.events,
        SUMMARY_VERSION,
        r.size,
        r.digest,
        text(_cache_row(r)),
        text(_cache_slaps(r)),
        text(r.sheet or {}),
    )


def _store(journal: Any, found: list[GameRecord]) -> None:
    """Append the summaries of games just replayed. A reader borrows the writer's lock for it
    and gives up at once if a companion is writing (its summaries are then written by the next
    look); a journal that cannot be written (read-only, foreign SQL, damaged) is left as it is:
    a missing summary only costs a replay."""
    rows = [_summary_row(r) for r in found if r.events]
    if not rows:
        return
    if journal.writer:
        with contextlib.suppress(CompanionError):
            journal.add_summaries(rows)
        return
    from companion.table.journal import Journal

    with (
        contextlib.suppress(CompanionError, OSError),
        Journal(journal.data_dir, writer=True, wait=False) as writer,
    ):
        writer.add_summaries(rows)
        writer.settle()


def remember(journal: Any, game_id: str, state: dict[str, Any] | None = None) -> None:
    """Sum up one just-finished game, in the journal and in the cache: the process that played
    it pays for it at the end of the game (no replay when it passes the engine's ``state``), so
    the next `history`, `stats` or `games` finds it ready."""
    info = journal.game(game_id)
    record = _read(journal, info, state)
    if record.error is None:
        _store(journal, [record])
        _Cache(journal.data_dir).update([info], {info.id: record}, set())


CACHE_NAME = "stats-cache.json"
CACHE_VERSION = 5  # raise it when GameRecord or a game's fold changes
_PARTS = ("rows", "slaps", "sheets")


class _Cache:
    """``stats-cache.json``: a header line (version, the SHA-256 of every other line), then one
    JSON line per part: rows {id: [events, created_ns, record, digest, bytes]}, slaps {id: [...]}, sheets
    {id: {...}}. A part is decoded only when asked for; the digests are checked first, and a
    damaged or edited file is ignored (then rebuilt), never trusted."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.raw: dict[str, bytes] = {}
        self.parsed: dict[str, dict[str, Any]] = {}
        # ``Journal.fingerprint`` of the journal as the file's rows describe it, if known.
        self.journal: str | None = None
        if folder is None:
            return
        try:
            lines = (folder / CACHE_NAME).read_bytes().split(b"\n")
            head = json.loads(lines[0])
            digests = head.get("sha256") if isinstance(head, dict) else None
            if (
                head.get("version") != CACHE_VERSION
                or not isinstance(digests, list)
                or len(digests) != len(_PARTS)
                or len(lines) != len(_PARTS) + 1
            ):
                return
        except (OSError, ValueError, RecursionError, AttributeError):
            return
        # One line that does not match its digest and the whole file is ignored: its parts
        # were written together, and a file damaged anywhere is rebuilt whole.
        if all(
            hashlib.sha256(line).hexdigest() == digest
            for digest, line in zip(digests, lines[1:], strict=True)
        ):
            self.raw = dict(zip(_PARTS, lines[1:], strict=True))
            journal = head.get("journal")
            self.journal = journal if isinstance(journal, str) else None

    def part(self, name: str) -> dict[str, Any]:
        if name not in self.parsed:
            try:
                value = json.loads(self.raw[name]) if name in self.raw else {}
            except (ValueError, RecursionError):
                value = {}
            self.parsed[name] = value if isinstance(value, dict) else {}
        return self.parsed[name]

    def update(
        self,
        infos: list[Any],
        new: dict[str, GameRecord],
        gone: set[str],
        journal: str | None = None,
        raw: dict[str, tuple[Any, ...]] | None = None,
    ) -> None:
        """Add the games just folded (``new``) or read from their summaries (``raw``: events,
        digest, bytes and the summary's three JSON texts, written as they are: no decoding and
        encoding again), drop the games no longer in the journal, and write the file whole
        (best effort: a cache that cannot be written only costs time later). ``journal``: the
        journal's fingerprint when the file then holds every game of it as it is (None: the
        next reader counts)."""

        def text(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

        if not new and not raw and not gone and len(self.raw) == len(_PARTS):
            # Only the journal's fingerprint is new (the first look after a game, whose records
            # the cache held already): the lines stay as they are, undecoded.
            self._write([self.raw[name] for name in _PARTS], journal)
            return
        parts: dict[str, dict[str, str]] = {
            name: {k: text(v) for k, v in self.part(name).items() if k not in gone} for name in _PARTS
        }
        for info in infos:
            r = new.get(info.id)
            if r is not None:
                parts["rows"][r.id] = text(
                    [r.events or info.events, info.created_ns, _cache_row(r), r.digest, r.size]
                )
                parts["slaps"][r.id] = text(_cache_slaps(r))
                parts["sheets"][r.id] = text(r.sheet)
                continue
            given = raw.get(info.id) if raw else None
            if given is not None:
                events, fingerprint, size, row, slap_text, sheet_text = given
                parts["rows"][info.id] = (
                    f"[{int(events)},{int(info.created_ns)},{row},{text(fingerprint)},{int(size)}]"
                )
                parts["slaps"][info.id] = slap_text
                parts["sheets"][info.id] = sheet_text
        lines = [
            ("{" + ",".join(f"{text(k)}:{v}" for k, v in parts[name].items()) + "}").encode()
            for name in _PARTS
        ]
        self._write(lines, journal)

    def _write(self, lines: list[bytes], journal: str | None) -> None:
        assert self.folder is not None
        head = json.dumps(
            {
                "version": CACHE_VERSION,
                "sha256": [hashlib.sha256(line).hexdigest() for line in lines],
                "journal": journal,
            }
        )
        tmp = self.folder / f".{CACHE_NAME}.{os.getpid()}"
        try:
            tmp.write_bytes(b"\n".join([head.encode(), *lines]))
            os.replace(tmp, self.folder / CACHE_NAME)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()


def _cache_row(r: GameRecord) -> list[Any]:
    return [r.game, r.players, r.finished, r.winners, r.scores, r.unit, r.flushes]


def _cache_slaps(r: GameRecord) -> list[Any]:
    return [(s.order, s.losers, s.margin_us, s.valid, s.tied) for s in r.slaps]


def _from_cache(
    game_id: str,
    created_ns: int,
    row: list[Any],
    slaps: list[Any],
    sheet: Any,
    events: int = 0,
    table: tuple[str, ...] | None = None,
) -> GameRecord:
    """A cache row back into its record. The digests already refused a damaged or edited file;
    what is left to fear is a forged one (digests and all), so the row must be what this code
    writes: the game's own players (``table``, the journal's), texts, true booleans, whole
    numbers, and no name that is not at the table. Anything else raises ValueError and the game
    is read again from its summary or its events."""
    game, players, finished, winners, scores, unit, flushes = row
    seats = tuple(players)
    if (
        not isinstance(sheet, dict)
        or type(game) is not str
        or type(unit) is not str
        or type(finished) is not bool
        or (seats != table if table is not None else not all(type(p) is str for p in seats))
    ):
        raise ValueError("not a record this companion wrote")
    known = frozenset(seats)
    winners = tuple(winners)
    if not known.issuperset(winners):
        raise ValueError("a winner not at the table")
    # List comprehensions, not generators: 2,000 games are some 50,000 of these.
    facts = tuple(
        [
            SlapFact(_pairs(order, known), tuple(losers), margin, valid, tied)
            for order, losers, margin, valid, tied in slaps
        ]
    )
    for fact in facts:
        if (
            not known.issuperset(fact.losers)
            or (fact.margin_us is not None and type(fact.margin_us) is not int)
            or type(fact.valid) is not bool
            or type(fact.tied) is not bool
        ):
            raise ValueError("not a slap this companion wrote")
    return GameRecord(
        game_id,
        game,
        created_ns,
        seats,
        finished,
        winners,
        _pairs(scores, known),
        unit,
        facts,
        _pairs(flushes, known),
        sheet=sheet or None,
        events=events,
    )


def _pairs(pairs: Any, known: frozenset[str]) -> tuple[tuple[str, int], ...]:
    """(player, whole number) pairs, every player at the table; ValueError otherwise."""
    out = tuple([(p, n) for p, n in pairs])
    for p, n in out:
        if type(n) is not int or p not in known:
            raise ValueError("not a player of this table, or not a number")
    return out


@dataclass(slots=True)
class PlayerStats:
    """A player's games and wins, every game's and each game's, and the numbers a game keeps
    of its own (``parts``, by game: ``Game.stats``)."""

    player: str
    games: int = 0
    wins: int = 0
    by_game: dict[str, list[int]] = field(default_factory=dict)  # game -> [played, won]
    # game -> its numbers of this player; every game that keeps some, played or not, so that
    # every player's JSON and columns have the same keys.
    parts: dict[str, PlayerPart] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "by_game": {g: {"games": v[0], "wins": v[1]} for g, v in self.by_game.items()},
        }
        out.update((game, part.to_json()) for game, part in self.parts.items())
        return out


def new_player(player: str, kinds: dict[str, GameStats]) -> PlayerStats:
    """A player before any game: each game's part empty."""
    parts = {name: part for name, kind in kinds.items() if (part := kind.part()) is not None}
    return PlayerStats(player, parts=parts)


def player_stats(games: Iterable[GameRecord], finished_only: bool = True) -> dict[str, PlayerStats]:
    """Per player, in order of first appearance. Unfinished and unreadable games are left out
    unless ``finished_only`` is false (then only unreadable ones are). Each game's own numbers
    are its ``stats``' (``registry.stats``)."""
    from companion.table.registry import every_stats

    kinds = every_stats()
    out: dict[str, PlayerStats] = {}
    for g in games:
        if g.error is not None or (finished_only and not g.finished):
            continue
        for p in g.players:
            s = out.get(p) or out.setdefault(p, new_player(p, kinds))
            s.games += 1
            won = p in g.winners
            s.wins += won
            counts = s.by_game.setdefault(g.game, [0, 0])
            counts[0] += 1
            counts[1] += won
        kind = kinds.get(g.game)
        if kind is not None and (
            seated := {p: out[p].parts[g.game] for p in g.players if g.game in out[p].parts}
        ):
            kind.add(seated, g)
    return out


EVENING_GAP_NS = 4 * 3600 * 10**9  # four hours without a new game end an evening


def evening_start(
    games: Iterable[GameRecord], now_ns: int | None = None, gap_ns: int = EVENING_GAP_NS
) -> int:
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
