"""Kilo de merde's own numbers in the players' statistics (``table/stats_seam.py``'s
``GameStats``): kilos, the slaps a player lost or slapped in error, flushes, and their reaction
times behind the first press; how `companion stats` writes them, the evening page's sections
(reaction times, the kilos over the evening, who drew most) and the table screen's columns.

Light on purpose: the listings import it without the game's engine (``registry.stats``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.i18n import count, french_typography, ms, number, register, t

if TYPE_CHECKING:
    from companion.table.evening_parts import Figure, Section
    from companion.table.stats import GameRecord, PlayerStats, SlapFact

NAME = "kilo"
ESCAPES_SHOWN = 3
# The reaction-time distribution's bins, in ms behind the first press: a slap's presses come
# within tens of milliseconds, a slow hand within a second.
DELAY_BINS_MS: tuple[int, ...] = (10, 20, 50, 100, 200, 500)

STRINGS: dict[str, tuple[str, str]] = {
    "eve.react": ("Temps de réaction ce soir", "Reaction times tonight"),
    "eve.react.note": (
        "écart sur la première tape, quand ce n'était pas la leur ; barres : moins de 10 ms, "
        "10-20, 20-50, 50-100, 100-200, 200-500, plus",
        "gap behind the first slap, when it was not theirs; bars: under 10 ms, 10-20, 20-50, "
        "50-100, 100-200, 200-500, more",
    ),
    "eve.col.median": ("médiane", "median"),
    "eve.col.best": ("meilleure", "best"),
    "eve.col.slaps": ("tapes", "slaps"),
    "eve.col.spread": ("répartition", "spread"),
    "eve.kilos": ("Les kilos de la soirée", "Kilos over the evening"),
    "eve.kilos.note": (
        "kilos additionnés partie après partie (Kilo de merde)",
        "kilos added up game after game (Kilo de merde)",
    ),
    "eve.draws": ("Qui a le plus pioché", "Who drew most"),
    "eve.draws.note": (
        "cartes piochées pour une tape perdue ou une fausse tape",
        "cards drawn for a slap lost or a false slap",
    ),
    "eve.col.kilos": ("kilos/partie", "kilos/game"),
    "eve.col.draws": ("pioches", "draws"),
    "eve.col.false": ("fausses", "false"),
}
register(STRINGS)


def _fr(lang: str, fr: str, en: str) -> str:
    return french_typography(fr) if lang == "fr" else en


def _cli_ms(us: int | None, lang: str) -> str:
    """A delay as `companion stats` writes it: "—", "850 µs", "3.2 ms", "140 ms"."""
    if us is None:
        return "—"
    if us < 1000:
        return f"{us} µs"
    return number(us / 1000, ".0f" if us >= 100_000 else ".1f", lang) + " ms"


def _page_ms(us: int | None, lang: str) -> str:
    return "—" if us is None else ms(us, lang)


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


class KiloPart:
    """A player's numbers over the games of Kilo de merde (``PlayerStats.parts["kilo"]``). A
    plain class, not a dataclass: a warm `companion stats` pays for making one at import."""

    __slots__ = (
        "delays_us",
        "escapes_us",
        "false_slaps",
        "firsts",
        "flushes",
        "games",
        "kilos",
        "slap_losses",
        "slaps",
        "times_last",
    )

    def __init__(
        self,
        games: int = 0,
        kilos: int = 0,
        slap_losses: int = 0,
        false_slaps: int = 0,
        delays_us: list[int] | None = None,
        escapes_us: list[int] | None = None,
    ) -> None:
        self.games = games
        self.kilos = kilos
        self.slap_losses = slap_losses  # valid slaps that made them draw
        self.false_slaps = false_slaps  # penalized for slapping in error
        self.flushes = 0
        self.slaps = 0  # judged slaps they pressed in
        self.firsts = 0
        self.times_last = 0  # last presser of a valid slap
        self.delays_us = [] if delays_us is None else delays_us  # behind the first press, when not first
        self.escapes_us = [] if escapes_us is None else escapes_us  # margins by which they were not last

    @property
    def median_delay_us(self) -> int | None:
        # As int(statistics.median(...)), without importing statistics (its fractions, decimal
        # and random are a tenth of `stats`' imports): the middle one, or the two middle ones'
        # mean, truncated.
        if not self.delays_us:
            return None
        ordered = sorted(self.delays_us)
        half = len(ordered) // 2
        return ordered[half] if len(ordered) % 2 else int((ordered[half - 1] + ordered[half]) / 2)

    @property
    def best_delay_us(self) -> int | None:
        return min(self.delays_us) if self.delays_us else None

    @property
    def tiebreak(self) -> int:
        return self.kilos  # the lighter first among equal wins

    def closest_escapes(self, n: int = ESCAPES_SHOWN) -> list[int]:
        return sorted(self.escapes_us)[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "kilos": self.kilos,
            "slap_losses": self.slap_losses,
            "false_slaps": self.false_slaps,
            "flushes": self.flushes,
            "slaps": self.slaps,
            "firsts": self.firsts,
            "times_last": self.times_last,
            "median_delay_us": self.median_delay_us,
            "best_delay_us": self.best_delay_us,
            "closest_escapes_us": self.closest_escapes(),
        }

    def _average(self, lang: str) -> str:
        return number(self.kilos / self.games, ".1f", lang) if self.games else "—"

    def lines(self, lang: str) -> list[str]:
        if not self.games:
            return []
        avg = self.kilos / self.games
        escapes = ", ".join(_cli_ms(us, lang) for us in self.closest_escapes()) or "—"
        median, best = _cli_ms(self.median_delay_us, lang), _cli_ms(self.best_delay_us, lang)
        # "1 time", not "1 times": the English count agrees with its number.
        last, firsts = (count(n, "time", "times", "en") for n in (self.times_last, self.firsts))
        return [
            _fr(
                lang,
                f"  kg : {number(self.kilos, ',.0f', lang)} en tout, {number(avg, '.1f', lang)} par "
                f"partie de Kilo",
                f"  kg: {number(self.kilos, ',.0f', 'en')} in all, {avg:.1f} a Kilo game",
            ),
            _fr(
                lang,
                f"  pioches sur une tape : {self.slap_losses} (dernier {self.times_last} fois), "
                f"fausses tapes : {self.false_slaps}, chasses d'eau : {self.flushes}",
                f"  draws after a slap: {self.slap_losses} (last {last}), "
                f"false slaps: {self.false_slaps}, flushes: {self.flushes}",
            ),
            _fr(
                lang,
                f"  réaction derrière la première tape : médiane {median}, "
                f"meilleure {best} ; premier {self.firsts} fois sur {self.slaps}",
                f"  reaction behind the first slap: median {median}, best {best}; first "
                f"{firsts} of {self.slaps}",
            ),
            _fr(
                lang,
                f"  plus belles évasions (écart sur le dernier) : {escapes}",
                f"  closest escapes (margin over the last): {escapes}",
            ),
        ]

    def cells(self, lang: str) -> tuple[str, ...]:
        return (
            self._average(lang),
            str(self.slap_losses),
            str(self.false_slaps),
            _cli_ms(self.median_delay_us, lang),
            _cli_ms(self.best_delay_us, lang),
        )

    def figures(self, lang: str) -> tuple[Figure, ...]:
        from companion.table.evening_parts import Figure

        return (
            Figure("kilos", self.kilos, self._average(lang)),
            Figure("slap_losses", self.slap_losses, str(self.slap_losses)),
            Figure("false_slaps", self.false_slaps, str(self.false_slaps)),
            Figure("median_delay_us", self.median_delay_us, _page_ms(self.median_delay_us, lang)),
            Figure("best_delay_us", self.best_delay_us, _page_ms(self.best_delay_us, lang)),
        )

    def evening_text(self, wins: int, lang: str) -> str | None:
        return t("scr.stats.evening_kilos", lang, wins=wins, kilos=self.kilos) if self.games else None


def _add_slap(parts: Mapping[str, KiloPart], slap: SlapFact) -> None:
    if not slap.order:
        return
    first = slap.order[0][1]
    for i, (p, t_us) in enumerate(slap.order):
        s = parts[p]
        s.slaps += 1
        if i == 0:
            s.firsts += 1
        else:
            s.delays_us.append(t_us - first)
    if not slap.valid:
        for p in slap.losers:
            parts[p].false_slaps += 1
        return
    pressed = {p for p, _ in slap.order}
    for p in slap.losers:
        parts[p].slap_losses += 1
        if p in pressed:  # the slowest hand, not someone who never pressed
            parts[p].times_last += 1
    if slap.margin_us is not None and not slap.tied and len(slap.order) >= 2:
        parts[slap.order[-2][0]].escapes_us.append(slap.margin_us)


def _part(stats: PlayerStats) -> KiloPart:
    part = stats.parts[NAME]
    assert isinstance(part, KiloPart)
    return part


class KiloEvening:
    """Kilo de merde's part of tonight: the players' numbers and their kilos game after game."""

    __slots__ = ("games", "tonight", "totals")

    def __init__(self, tonight: dict[str, KiloPart], games: int, totals: dict[str, tuple[int, ...]]) -> None:
        self.tonight = tonight
        self.games = games  # tonight's finished games of Kilo de merde
        self.totals = totals  # player -> running total after each game they played

    def draws(self) -> list[tuple[str, int]]:
        """Who drew most tonight: cards drawn for slaps lost and false slaps, most first."""
        rows = [(p, s.slap_losses + s.false_slaps) for p, s in self.tonight.items()]
        return sorted(rows, key=lambda r: (-r[1], r[0]))

    def to_json(self) -> dict[str, Any]:
        return {
            "delays_ms_bins": list(DELAY_BINS_MS),
            "delays": {p: histogram(s.delays_us) for p, s in self.tonight.items() if s.delays_us},
            "draws": dict(self.draws()),
            "kilos": {p: list(v) for p, v in self.totals.items()},
        }

    def sections(self, lang: str) -> tuple[Section, ...]:
        from companion.table.evening_parts import Bars, Curves, Figure, FigureTable, Spread

        reactions = tuple(
            (
                p,
                (
                    Figure("median_delay_us", s.median_delay_us, _page_ms(s.median_delay_us, lang)),
                    Figure("best_delay_us", s.best_delay_us, _page_ms(s.best_delay_us, lang)),
                    Figure("slaps", s.slaps, str(s.slaps)),
                    Spread("delays", tuple(histogram(s.delays_us))),
                ),
            )
            for p, s in self.tonight.items()
            if s.slaps
        )
        heads = ("eve.col.player", "eve.col.median", "eve.col.best", "eve.col.slaps", "eve.col.spread")
        draws = tuple((p, n) for p, n in self.draws() if self.tonight[p].games)
        out: list[Section] = []
        if reactions:
            out.append(FigureTable("react", "eve.react", "eve.react.note", heads, reactions))
        if self.games:
            out.append(
                Curves(
                    "kilos", "eve.kilos", "eve.kilos.note", "kilos", "kilos_total", self.games, self.totals
                )
            )
        if draws:
            out.append(Bars("draws", "eve.draws", "eve.draws.note", "draws", draws))
        return tuple(out)


class KiloStats:
    sheet = None  # its rounds are kilos drawn, on the table's history screen

    def part(self) -> KiloPart:
        return KiloPart()

    def add(self, parts: Mapping[str, Any], record: GameRecord) -> None:
        seated = set(record.players)
        for p, kilos in record.scores:
            if p in seated:
                parts[p].games += 1
                parts[p].kilos += kilos
        for p, n in record.flushes:
            if p in seated:
                parts[p].flushes += n
        for slap in record.slaps:
            if seated.issuperset(p for p, _ in slap.order) and seated.issuperset(slap.losers):
                _add_slap(parts, slap)

    def columns(self, lang: str) -> tuple[tuple[str, int], ...]:
        return (
            # Over the Kilo games alone (the games column counts every game).
            (_fr(lang, "kg/partie Kilo", "kg/Kilo game"), 16),
            (_fr(lang, "pioches", "draws"), 8),
            (_fr(lang, "fausses", "false"), 8),
            (_fr(lang, "réaction méd.", "median react."), 14),
            (_fr(lang, "meilleure", "best"), 10),
        )

    def history_heads(self) -> tuple[str, ...]:
        return ("eve.col.kilos", "eve.col.draws", "eve.col.false", "eve.col.median", "eve.col.best")

    def evening(self, tonight: Mapping[str, PlayerStats], games: Sequence[GameRecord]) -> KiloEvening:
        totals: dict[str, list[int]] = {}
        n = 0
        for g in games:
            if g.game != NAME or not g.finished:
                continue
            n += 1
            for p, kilos in g.scores:
                run = totals.setdefault(p, [])
                run.append((run[-1] if run else 0) + kilos)
        return KiloEvening(
            {p: _part(s) for p, s in tonight.items()}, n, {p: tuple(v) for p, v in totals.items()}
        )

    def tally_columns(self, parts: Sequence[Any], lang: str) -> list[Any]:
        from companion.games.kilo.draw.stats import columns

        return columns(parts, lang)


STATS = KiloStats()
