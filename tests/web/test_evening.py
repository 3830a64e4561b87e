"""The evening page (table/evening.py, web/evening.py, `companion stats --html`): the figures it
shows are `companion stats --json`'s, its charts are drawn from the same records, and it is one
file that fetches nothing."""

from __future__ import annotations

import json
import os
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.kilo.events import Draw, NewKiloGame, Press, Verdict
from companion.games.kilo.stats import KiloEvening, histogram
from companion.games.treize.events import GameEnd, NewTreizeGame, Starter
from companion.table.evening import evening
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.stats import GameRecord
from tests.conftest import run_cli


class Figures(HTMLParser):
    """Every ``data-figure`` of the page, by section: {section: {(player, figure): value}}."""

    def __init__(self) -> None:
        super().__init__()
        self.section = ""
        self.found: dict[str, dict[tuple[str, str], str]] = {}
        self.tags: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        self.links += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag == "section":
            self.section = a.get("class") or ""
        if "data-figure" in a:
            key = (a.get("data-player") or "", a["data-figure"] or "")
            self.found.setdefault(self.section, {})[key] = a.get("data-value") or ""


P = ["Alice", "Bruno", "Chloé", "Dédé"]


def _play(journal: Journal, setup: Any, events: list[Any]) -> None:
    table = Table.start(journal, setup, {"input": "keyboard"})
    for event in events:
        if table.engine.finished:
            break
        table.submit(event)
        if table.pending:
            table.commit()
    assert table.engine.finished


@pytest.fixture(scope="module")
def evening_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An evening as a table plays it (not demos, which the stats may leave out): two games of
    Kilo de merde, one of Les Cinq Rois, a match of 13 feuilles."""
    data = tmp_path_factory.mktemp("evening")
    with Journal(data, writer=True) as journal:
        for seed in (0, 1):
            events: list[Any] = []
            t = 1_000_000
            for last, card in ((P[2 - seed], "9H"), (P[3], "4S")):
                order = [p for p in P if p != last] + [last]
                events += [
                    Press(player=p, t_us=t + 3000 * i + 5000 * (p == last)) for i, p in enumerate(order)
                ]
                events += [Verdict(valid=True), Draw(player=last, card=card)]
                t += 10_000_000
            _play(journal, NewKiloGame(players=P, rounds=2), events)
        rounds = [
            RoundEnd(out=P[i % 4], points={p: 5 * (k + i % 3 + 1) for k, p in enumerate(P) if p != P[i % 4]})
            for i in range(11)
        ]
        _play(journal, NewCinqRoisGame(players=P), [Dealer(player="Bruno"), *rounds])
        ends = [GameEnd(winner="Alice", left={"Bruno": 4, "Chloé": 7, "Dédé": 9}) for _ in range(9)]
        _play(journal, NewTreizeGame(players=P, variant="advanced"), [Starter(player="Alice"), *ends])
    return data


def _page(data: Path, tmp_path: Path, *extra: str) -> Figures:
    out = tmp_path / "soiree.html"
    r = run_cli("stats", "--html", str(out), "--lang", "fr", *extra, data_dir=data)
    assert r.returncode == 0, r.stderr
    assert "Soirée écrite dans" in r.stdout
    figures = Figures()
    figures.feed(out.read_text(encoding="utf-8"))
    return figures


def _num(value: str) -> int | None:
    return int(value) if value else None


def test_the_page_shows_the_numbers_of_stats_json(evening_dir: Path, tmp_path: Path) -> None:
    stats = json.loads(run_cli("stats", "--json", data_dir=evening_dir).stdout)["players"]
    page = _page(evening_dir, tmp_path)
    history = page.found["history"]
    tonight = page.found["react"]
    assert len(stats) == 4
    for s in stats:
        p, k = s["player"], s["kilo"]
        assert _num(history[(p, "games")]) == s["games"]
        assert _num(history[(p, "wins")]) == s["wins"]
        assert _num(history[(p, "kilos")]) == k["kilos"]
        assert _num(history[(p, "slap_losses")]) == k["slap_losses"]
        assert _num(history[(p, "false_slaps")]) == k["false_slaps"]
        assert _num(history[(p, "median_delay_us")]) == k["median_delay_us"]
        assert _num(history[(p, "best_delay_us")]) == k["best_delay_us"]
        # Every game is tonight's: the evening's figures are the same ones.
        assert _num(tonight[(p, "median_delay_us")]) == k["median_delay_us"]
        assert _num(tonight[(p, "best_delay_us")]) == k["best_delay_us"]
        assert _num(tonight[(p, "slaps")]) == k["slaps"]
        assert _num(page.found["kilos"][(p, "kilos_total")]) == k["kilos"]
        assert _num(page.found["draws"][(p, "draws")]) == k["slap_losses"] + k["false_slaps"]
        spread = [int(n) for n in tonight[(p, "delays")].split(",")]
        assert sum(spread) == k["slaps"] - k["firsts"]
    assert page.found[""][("", "finished")] == "4"
    assert {key[1] for key in page.found["cinq"]} == {"cinq-rois.total"}
    assert {key[1] for key in page.found["treize"]} == {"treize.total"}


def test_the_evenings_json_is_the_pages_numbers(evening_dir: Path, tmp_path: Path) -> None:
    """``Evening.to_json``: the keys every evening has, then each game's part in the registry's
    order (Kilo de merde's spreads, draws and kilos), then the score sheets; the same numbers as
    the page's."""
    from companion.table.stats import records

    with Journal(evening_dir, writer=False) as journal:
        found = records(journal, sheets=True)
    ev = evening(found).to_json()
    assert list(ev) == [
        *("since_ns", "games", "players", "history"),
        *("delays_ms_bins", "delays", "draws", "kilos"),
        "sheets",
    ]
    json.dumps(ev)  # plain JSON
    page = _page(evening_dir, tmp_path)
    assert ev["games"] == {"kilo": 2, "cinq-rois": 1, "treize": 1}
    assert ev["delays_ms_bins"] == [10, 20, 50, 100, 200, 500]

    def shown(section: str, figure: str) -> dict[str, str]:
        return {p: v for (p, f), v in page.found[section].items() if f == figure}

    # The page draws the spread of whoever slapped (all zero when always first), the JSON only
    # the delays there are.
    spreads = {p: v for p, v in shown("react", "delays").items() if set(v.split(",")) != {"0"}}
    assert spreads == {p: ",".join(map(str, c)) for p, c in ev["delays"].items()}
    assert shown("draws", "draws") == {p: str(n) for p, n in ev["draws"].items()}
    assert shown("kilos", "kilos") == {p: ",".join(map(str, run)) for p, run in ev["kilos"].items()}
    assert [g["game"] for g in ev["sheets"]] == ["cinq-rois", "treize"]


def test_the_page_fetches_nothing(evening_dir: Path, tmp_path: Path) -> None:
    page = _page(evening_dir, tmp_path)
    assert page.links == [] and "script" not in page.tags and "img" not in page.tags
    assert page.tags.count("svg") >= 6  # the spreads, the kilos, the draws


def test_the_game_filter_applies_to_the_page(evening_dir: Path, tmp_path: Path) -> None:
    page = _page(evening_dir, tmp_path, "--game", "treize")
    assert "kilos" not in page.found and "cinq" not in page.found and "treize" in page.found
    assert page.found[""][("", "finished")] == "1"


def test_an_unwritable_file_is_said(evening_dir: Path, tmp_path: Path) -> None:
    r = run_cli(
        "stats", "--html", str(tmp_path / "no" / "such" / "x.html"), "--lang", "en", data_dir=evening_dir
    )
    assert r.returncode == 1 and "Cannot write" in r.stderr and "folder you can write to" in r.stderr


def _record(created_s: int, game: str = "kilo", **kw: Any) -> GameRecord:
    base: dict[str, Any] = {
        "id": f"g{created_s}",
        "game": game,
        "created_ns": created_s * 10**9,
        "players": ("A", "B", "C"),
        "finished": True,
        "winners": ("A",),
        "scores": (("A", 0), ("B", 10), ("C", 100)),
        "unit": "kilos",
    }
    base.update(kw)
    return GameRecord(**base)


def test_tonight_is_the_last_run_of_games_and_kilos_add_up() -> None:
    hour = 3600
    games = [_record(0), _record(10 * hour), _record(11 * hour, scores=(("A", 3), ("B", 0), ("C", 12)))]
    ev = evening(games)
    assert [g.created_ns for g in ev.games] == [10 * hour * 10**9, 11 * hour * 10**9]
    assert ev.history["A"].games == 3 and ev.tonight["A"].games == 2
    kilo = ev.parts["kilo"]
    assert isinstance(kilo, KiloEvening)
    assert kilo.totals == {"A": (0, 3), "B": (10, 10), "C": (100, 112)}


def test_the_spread_bins() -> None:
    assert histogram([0, 9_999, 10_000, 49_999, 50_000, 499_999, 500_000, 3_000_000]) == [2, 1, 1, 1, 0, 1, 2]


def test_the_phones_evening_is_made_again_when_the_tables_game_ends(tmp_path: Path) -> None:
    """The tab's page is kept while the table's game is the same and unfinished (its events
    change no finished game), and made again once it ends."""
    from companion.web.evening_route import EveningPages

    pages = EveningPages(tmp_path)
    assert "L’historique" not in pages.html("fr")  # no journal yet: an empty evening
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewKiloGame(players=P[:3], rounds=1), {"input": "keyboard"})
        playing = (table.game_id, False)
        first = pages.html("fr", playing)
        assert "L’historique" not in first
        for i, p in enumerate(P[:3]):
            table.submit(Press(player=p, t_us=1_000_000 + 4000 * i))
        table.submit(Verdict(valid=True))
        table.submit(Draw(player="Chloé", card="9H"))
        if table.pending:
            table.commit()
        assert table.engine.finished
    assert pages.html("fr", playing) is first  # the same state of the table: kept
    over = pages.html("fr", (table.game_id, True))
    assert "L’historique de la table" in over and 'data-figure="games" data-value="1"' in over
    assert "The table&#x27;s history" in pages.html("en", (table.game_id, True))


def test_the_phones_evening_without_a_game_follows_the_journal_and_shows_the_sheets(tmp_path: Path) -> None:
    """Asked with no game at the table (the phones' feed has no page yet), the tab follows the
    journal's files: the same page while nothing is written, a new one once a game ends; a
    finished game of Les Cinq Rois brings its score sheet, round by round."""
    from companion.web.evening_route import EveningPages

    pages = EveningPages(tmp_path)
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(
            journal, NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Cy"), {"input": "web"}
        )
        playing = pages.html("fr")
        assert "L’historique" not in playing and pages.html("fr") == playing  # nothing written since
        for _ in range(11):
            table.submit(RoundEnd(out="Ana", points={"Ben": 3, "Cy": 2}))
        assert table.engine.finished
    over = pages.html("fr")
    assert "L’historique de la table" in over and 'data-figure="finished" data-value="1"' in over
    # Its sheet: each round's line, Ana out with 0, Ben 3, Cy 2.
    assert "<tr><td>1</td><td>0</td><td>3</td><td>2</td></tr>" in over
    assert "<tr><td>11</td><td>0</td><td>3</td><td>2</td></tr>" in over
    assert pages.html("fr") == over
    # Once the files have settled (here: set to ten seconds ago), the page is kept while they
    # are as they were, and is the same page.
    settled = time.time() - 10
    for path in (journal.path, journal.wal):
        if path.exists():
            os.utime(path, (settled, settled))
    kept = pages.html("fr")
    assert kept == over and pages.html("fr") == kept
