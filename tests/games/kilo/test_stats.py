"""Kilo de merde's numbers as the players read them (``games/kilo/stats.py``): the evening
page's sections (reaction times, the kilos over the evening, who drew most) and the history
table's Kilo columns, every figure's value and its text in French and English, and
`companion stats --json`'s Kilo numbers; from records made by hand, so that each slap's part in
each number is known (a valid slap, a false one, one the loser never pressed in, a tie, a
stranger's). In-process and fast: each mutant of the module is judged in a second."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from companion.table.evening import evening
from companion.table.stats import GameRecord, SlapFact, player_stats
from companion.web.evening import body

HOUR = 3600 * 10**9
N = "\u202f"


def _slap(
    order: tuple[tuple[str, int], ...],
    losers: tuple[str, ...],
    valid: bool = True,
    margin_us: int | None = None,
    tied: bool = False,
) -> SlapFact:
    return SlapFact(order, losers, margin_us, valid, tied)


def _kilo(
    at_h: float,
    players: tuple[str, ...],
    scores: tuple[int, ...],
    winners: tuple[str, ...],
    slaps: tuple[SlapFact, ...] = (),
    finished: bool = True,
) -> GameRecord:
    return GameRecord(
        f"k{at_h}",
        "kilo",
        int(at_h * HOUR),
        players,
        finished,
        winners,
        tuple(zip(players, scores, strict=True)),
        "kilos",
        slaps,
    )


# Yesterday, then tonight from 20 h (a four-hour break between: another evening).
YESTERDAY = _kilo(
    0, ("Ana", "Bo"), (7, 0), ("Bo",), (_slap((("Ana", 0), ("Bo", 1_000)), ("Bo",), margin_us=1_000),)
)
TONIGHT_SLAPS = (
    # Valid: Cy last, 16 ms behind Bo (Bo's escape); Bo 3 ms and Cy 19 ms behind Ana.
    _slap((("Ana", 1_000), ("Bo", 4_000), ("Cy", 20_000)), ("Cy",), margin_us=16_000),
    # Bo alone, in error: a false slap, Bo first.
    _slap((("Bo", 0),), ("Bo",), valid=False),
    # Valid, Bo never pressed: Bo draws but was not the last hand; Ana 2.5 ms behind Cy.
    _slap((("Cy", 0), ("Ana", 2_500)), ("Bo",)),
    # Valid, Bo and Cy tied last 597 ms behind Ana: both draw, nobody escaped.
    _slap((("Ana", 0), ("Bo", 597_000), ("Cy", 597_000)), ("Bo", "Cy"), margin_us=0, tied=True),
    # A stranger's press, a stranger drawing: not this game's players, not counted.
    _slap((("Ana", 0), ("Zed", 5_000)), ("Zed",), margin_us=5_000),
    _slap((("Ana", 0), ("Bo", 2_000)), ("Zed",), margin_us=2_000),
    # Cy alone, in error.
    _slap((("Cy", 0),), ("Cy",), valid=False),
)
GAMES = [
    YESTERDAY,
    # Seated Ana, Cy, Bo: the page lists them in that order where it does not rank them.
    _kilo(20, ("Ana", "Cy", "Bo"), (0, 30, 12), ("Ana",), TONIGHT_SLAPS),
    _kilo(21, ("Ana", "Bo"), (5, 0), ("Bo",)),
    # In play: neither its kilos nor its game count.
    _kilo(20.5, ("Ana", "Bo", "Cy"), (40, 40, 40), (), (TONIGHT_SLAPS[0],), finished=False),
    GameRecord(
        "c", "cinq-rois", 22 * HOUR, ("Ana", "Dé"), True, ("Dé",), (("Ana", 40), ("Dé", 12)), "points"
    ),
]


class Page(HTMLParser):
    """The page's sections by class: title, note, column heads, and each figure's
    ``(data-value, text)`` by ``(player, data-figure)``."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.sections: dict[str, dict[str, object]] = {}
        self._in: str | None = None  # "h2", "note", "th" or a figure being read
        self._key: tuple[str, str] | None = None
        self._section: dict[str, object] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self._in, self._key = None, None
        if tag == "section":
            self._section = {"title": "", "note": "", "heads": [], "figures": {}}
            self.sections[a.get("class") or ""] = self._section
        elif tag == "h2":
            self._in = "title"
        elif tag == "p" and a.get("class") == "note":
            self._in = "note"
        elif tag == "th":
            self._in = "th"
            self._section["heads"].append("")  # type: ignore[attr-defined]
        if "data-figure" in a and self._section:
            self._key = (a.get("data-player") or "", a["data-figure"] or "")
            self._section["figures"][self._key] = [a.get("data-value") or "", ""]  # type: ignore[index]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._key = None

    def handle_endtag(self, tag: str) -> None:
        self._in, self._key = None, None

    def handle_data(self, data: str) -> None:
        if self._key is not None:
            self._section["figures"][self._key][1] += data  # type: ignore[index]
        elif self._in == "th":
            self._section["heads"][-1] += data  # type: ignore[index]
        elif self._in in ("title", "note"):
            self._section[self._in] += data  # type: ignore[operator]


def _page(lang: str) -> dict[str, dict[str, object]]:
    return Page(body(evening(GAMES, now_ns=23 * HOUR), lang)).sections


def _figures(section: dict[str, object]) -> dict[tuple[str, str], tuple[str, str]]:
    return {k: (v[0], v[1]) for k, v in section["figures"].items()}  # type: ignore[attr-defined]


def test_the_evenings_reaction_times_are_each_players_delays_behind_the_first_slap() -> None:
    """A row per player who slapped tonight (Dé played no Kilo): median (the two middle ones'
    mean), best, slaps pressed, and the spread over the bins (under 10 ms, 10-20, ..., 500 and
    more); yesterday's slap left out."""
    for lang, note, heads, bo_best, ana in (
        (
            "fr",
            f"écart sur la première tape, quand ce n’était pas la leur{N}; barres{N}: moins de 10 ms, "
            "10-20, 20-50, 50-100, 100-200, 200-500, plus",
            ["joueur", "médiane", "meilleure", "tapes", "répartition"],
            "3,0 ms",
            "2,5 ms",
        ),
        (
            "en",
            "gap behind the first slap, when it was not theirs; bars: under 10 ms, 10-20, 20-50, "
            "50-100, 100-200, 200-500, more",
            ["player", "median", "best", "slaps", "spread"],
            "3.0 ms",
            "2.5 ms",
        ),
    ):
        react = _page(lang)["react"]
        assert react["title"] == ("Temps de réaction ce soir" if lang == "fr" else "Reaction times tonight")
        assert (react["note"], react["heads"]) == (note, heads)
        assert _figures(react) == {
            ("Ana", "median_delay_us"): ("2500", ana),
            ("Ana", "best_delay_us"): ("2500", ana),
            ("Ana", "slaps"): ("3", "3"),
            ("Ana", "delays"): ("1,0,0,0,0,0,0", ""),
            ("Bo", "median_delay_us"): ("300000", "300 ms"),
            ("Bo", "best_delay_us"): ("3000", bo_best),
            ("Bo", "slaps"): ("3", "3"),
            ("Bo", "delays"): ("1,0,0,0,0,0,1", ""),
            ("Cy", "median_delay_us"): ("308000", "308 ms"),
            ("Cy", "best_delay_us"): ("19000", "19 ms"),
            ("Cy", "slaps"): ("4", "4"),
            ("Cy", "delays"): ("0,1,0,0,0,0,1", ""),
        }


def test_the_evenings_kilos_add_up_game_after_game_and_who_drew_most_comes_first() -> None:
    """The kilos of tonight's finished Kilo games, a running total each (the game in play left
    out); the cards drawn for slaps lost and false slaps, most first, equal ones by name, only
    for who played Kilo tonight."""
    for lang in ("fr", "en"):
        page = _page(lang)
        kilos, draws = page["kilos"], page["draws"]
        assert _figures(kilos) == {
            ("Ana", "kilos"): ("0,5", ""),
            ("Ana", "kilos_total"): ("5", "5"),
            ("Bo", "kilos"): ("12,12", ""),
            ("Bo", "kilos_total"): ("12", "12"),
            ("Cy", "kilos"): ("30", ""),
            ("Cy", "kilos_total"): ("30", "30"),
        }
        assert list(draws["figures"]) == [("Bo", "draws"), ("Cy", "draws"), ("Ana", "draws")]  # type: ignore[call-overload]
        assert _figures(draws) == {
            ("Bo", "draws"): ("3", "3"),
            ("Cy", "draws"): ("3", "3"),
            ("Ana", "draws"): ("0", "0"),
        }
    # Its axis: tonight's two finished games of Kilo de merde, numbered.
    html = body(evening(GAMES, now_ns=23 * HOUR), "fr")
    curve = html[html.index('<section class="kilos">') :]
    assert re.findall(r'text-anchor="middle">(\d+)</text>', curve[: curve.index("</section>")]) == ["1", "2"]
    fr, en = _page("fr"), _page("en")
    assert (fr["kilos"]["title"], fr["kilos"]["note"]) == (
        "Les kilos de la soirée",
        "kilos additionnés partie après partie (Kilo de merde)",
    )
    assert (en["kilos"]["title"], en["kilos"]["note"]) == (
        "Kilos over the evening",
        "kilos added up game after game (Kilo de merde)",
    )
    assert (fr["draws"]["title"], fr["draws"]["note"]) == (
        "Qui a le plus pioché",
        "cartes piochées pour une tape perdue ou une fausse tape",
    )
    assert (en["draws"]["title"], en["draws"]["note"]) == (
        "Who drew most",
        "cards drawn for a slap lost or a false slap",
    )


def test_the_history_tables_kilo_columns_count_every_evening() -> None:
    """The table's history: yesterday's game counts (Bo's three delays: the middle one is the
    median); Dé, who never played Kilo, has dashes and zeros."""
    for lang, heads, cells in (
        (
            "fr",
            ["kilos/partie", "pioches", "fausses", "médiane", "meilleure"],
            {
                "Ana": "4,0",
                "Bo": "4,0",
                "Cy": "30,0",
                "Bo best": "1,0 ms",
                "Bo median": "3,0 ms",
                "Ana ms": "2,5 ms",
            },
        ),
        (
            "en",
            ["kilos/game", "draws", "false", "median", "best"],
            {
                "Ana": "4.0",
                "Bo": "4.0",
                "Cy": "30.0",
                "Bo best": "1.0 ms",
                "Bo median": "3.0 ms",
                "Ana ms": "2.5 ms",
            },
        ),
    ):
        history = _page(lang)["history"]
        assert history["heads"][3:] == heads  # type: ignore[index]
        kilo = {
            k: v
            for k, v in _figures(history).items()
            if k[1] in ("kilos", "slap_losses", "false_slaps", "median_delay_us", "best_delay_us")
        }
        assert kilo == {
            ("Bo", "kilos"): ("12", cells["Bo"]),
            ("Bo", "slap_losses"): ("3", "3"),
            ("Bo", "false_slaps"): ("1", "1"),
            ("Bo", "median_delay_us"): ("3000", cells["Bo median"]),
            ("Bo", "best_delay_us"): ("1000", cells["Bo best"]),
            ("Dé", "kilos"): ("0", "—"),
            ("Dé", "slap_losses"): ("0", "0"),
            ("Dé", "false_slaps"): ("0", "0"),
            ("Dé", "median_delay_us"): ("", "—"),
            ("Dé", "best_delay_us"): ("", "—"),
            ("Ana", "kilos"): ("12", cells["Ana"]),
            ("Ana", "slap_losses"): ("0", "0"),
            ("Ana", "false_slaps"): ("0", "0"),
            ("Ana", "median_delay_us"): ("2500", cells["Ana ms"]),
            ("Ana", "best_delay_us"): ("2500", cells["Ana ms"]),
            ("Cy", "kilos"): ("30", cells["Cy"]),
            ("Cy", "slap_losses"): ("2", "2"),
            ("Cy", "false_slaps"): ("1", "1"),
            ("Cy", "median_delay_us"): ("308000", "308 ms"),
            ("Cy", "best_delay_us"): ("19000", "19 ms"),
        }


def test_an_evening_without_slaps_or_kilo_shows_no_kilo_section() -> None:
    """No slap tonight: no reaction table; no Kilo game tonight: no kilos, no draws."""
    calm = [_kilo(20, ("Ana", "Bo"), (0, 3), ("Ana",))]
    assert [s for s in Page(body(evening(calm, now_ns=21 * HOUR), "fr")).sections] == [
        "kilos",
        "draws",
        "history",
    ]
    other = [
        GameRecord(
            "c", "cinq-rois", 20 * HOUR, ("Ana", "Dé"), True, ("Dé",), (("Ana", 4), ("Dé", 1)), "points"
        )
    ]
    assert "kilos" not in Page(body(evening(other, now_ns=21 * HOUR), "en")).sections
    assert "draws" not in Page(body(evening(other, now_ns=21 * HOUR), "en")).sections


def test_stats_json_kilo_numbers() -> None:
    """`companion stats --json`'s Kilo numbers of each player, every evening together."""
    found = {p: s.to_json()["kilo"] for p, s in player_stats(GAMES).items()}
    assert found == {
        "Ana": {
            "games": 3,
            "kilos": 12,
            "slap_losses": 0,
            "false_slaps": 0,
            "flushes": 0,
            "slaps": 4,
            "firsts": 3,
            "times_last": 0,
            "median_delay_us": 2_500,
            "best_delay_us": 2_500,
            "closest_escapes_us": [1_000],
        },
        "Bo": {
            "games": 3,
            "kilos": 12,
            "slap_losses": 3,
            "false_slaps": 1,
            "flushes": 0,
            "slaps": 4,
            "firsts": 1,
            "times_last": 2,
            "median_delay_us": 3_000,
            "best_delay_us": 1_000,
            "closest_escapes_us": [16_000],
        },
        "Cy": {
            "games": 1,
            "kilos": 30,
            "slap_losses": 2,
            "false_slaps": 1,
            "flushes": 0,
            "slaps": 4,
            "firsts": 2,
            "times_last": 2,
            "median_delay_us": 308_000,
            "best_delay_us": 19_000,
            "closest_escapes_us": [],
        },
        "Dé": {
            "games": 0,
            "kilos": 0,
            "slap_losses": 0,
            "false_slaps": 0,
            "flushes": 0,
            "slaps": 0,
            "firsts": 0,
            "times_last": 0,
            "median_delay_us": None,
            "best_delay_us": None,
            "closest_escapes_us": [],
        },
    }


# Two games of Eve and Fay: Eve 1,234 kg over both; three slaps Fay won by 2.5 ms, 100 ms and
# 1 ms (the edges of the delays' writing: µs below 1 ms, one decimal below 100 ms), two false
# slaps of Fay's; Eve's flushes in both games (a stranger's flush and kilos not counted).
PAIR = [
    GameRecord(
        "e1",
        "kilo",
        20 * HOUR,
        ("Eve", "Fay"),
        True,
        ("Fay",),
        (("Eve", 1_234), ("Fay", 0), ("Zed", 99)),
        "kilos",
        (
            _slap((("Fay", 0), ("Eve", 2_500)), ("Eve",), margin_us=2_500),
            _slap((("Fay", 0), ("Eve", 100_000)), ("Eve",), margin_us=100_000),
            _slap((("Fay", 0), ("Eve", 1_000)), ("Eve",), margin_us=1_000),
            _slap((("Fay", 0),), ("Fay",), valid=False),
            _slap((("Fay", 0),), ("Fay",), valid=False),
        ),
        (("Eve", 2), ("Zed", 5)),
    ),
    GameRecord(
        "e2",
        "kilo",
        21 * HOUR,
        ("Eve", "Fay"),
        True,
        ("Eve",),
        (("Eve", 0), ("Fay", 10)),
        "kilos",
        (),
        (("Eve", 1),),
    ),
]


def _printed(lang: str, player: str | None = None) -> list[str]:
    """What `companion stats [PLAYER]` prints for these records (the command's own writers)."""
    import contextlib
    import io

    from companion.cli.history import _player_lines, _stats_table

    stats = player_stats(PAIR)
    if player is not None:
        return _player_lines(stats[player], lang)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _stats_table(sorted(stats.values(), key=lambda s: (-s.wins, s.games, s.player)), lang)
    return out.getvalue().splitlines()


def test_stats_of_one_player_writes_numbers_as_the_language_does() -> None:
    """Thousands grouped by a narrow no-break space and a decimal comma in French, by a comma
    and a point in English; "0 fois" but "0 times"; an average over both games; delays of 1 ms
    and 100 ms written "1,0 ms" and "100 ms"."""
    assert _printed("fr", "Eve")[2:] == [
        f"  kg{N}: 1{N}234 en tout, 617,0 par partie de Kilo",
        f"  pioches sur une tape{N}: 3 (dernier 3 fois), fausses tapes{N}: 0, chasses d’eau{N}: 3",
        f"  réaction derrière la première tape{N}: médiane 2,5 ms, meilleure 1,0 ms{N}; premier 0 fois sur 3",
        f"  plus belles évasions (écart sur le dernier){N}: —",
    ]
    assert _printed("en", "Eve")[2:] == [
        "  kg: 1,234 in all, 617.0 a Kilo game",
        "  draws after a slap: 3 (last 3 times), false slaps: 0, flushes: 3",
        "  reaction behind the first slap: median 2.5 ms, best 1.0 ms; first 0 times of 3",
        "  closest escapes (margin over the last): —",
    ]
    assert _printed("fr", "Fay")[2:] == [
        f"  kg{N}: 10 en tout, 5,0 par partie de Kilo",
        f"  pioches sur une tape{N}: 0 (dernier 0 fois), fausses tapes{N}: 2, chasses d’eau{N}: 0",
        f"  réaction derrière la première tape{N}: médiane —, meilleure —{N}; premier 5 fois sur 5",
        f"  plus belles évasions (écart sur le dernier){N}: 1,0 ms, 2,5 ms, 100 ms",
    ]
    assert _printed("en", "Fay")[3:] == [
        "  draws after a slap: 0 (last 0 times), false slaps: 2, flushes: 0",
        "  reaction behind the first slap: median —, best —; first 5 times of 5",
        "  closest escapes (margin over the last): 1.0 ms, 2.5 ms, 100 ms",
    ]


def test_the_stats_table_writes_kilos_and_delays_as_the_language_does() -> None:
    assert _printed("fr") == [
        "joueur         parties victoires  kg/partie Kilo pioches fausses réaction méd. meilleure",
        "Eve                  2         1           617,0       3       0        2,5 ms    1,0 ms",
        "Fay                  2         1             5,0       0       2             —         —",
    ]
    assert _printed("en")[1:] == [
        "Eve                  2         1           617.0       3       0        2.5 ms    1.0 ms",
        "Fay                  2         1             5.0       0       2             —         —",
    ]
