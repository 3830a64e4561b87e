"""The players' numbers on the table screen: the stats screen (a chart per player) and the
evening's tally under the game-over screen, drawn headless from a real journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.display import audit
from companion.display.snapshot import SIZES, render, ui_for, view_of
from companion.display.state import Ui
from companion.display.tally import Tally, load_tally
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.stats import GameRecord, evening_start
from tests.display.test_display import assert_contained  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[2]
HOUR = 3600 * 10**9


@pytest.fixture(scope="module")
def tally(tmp_path_factory: pytest.TempPathFactory) -> Tally:
    data = tmp_path_factory.mktemp("tally") / "data"
    for seed, players in ((1, 3), (2, 4), (3, 6)):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "demo",
                "--speed",
                "0",
                "--seed",
                str(seed),
                "--players",
                str(players),
                "--rounds",
                "2",
                "--data-dir",
                str(data),
            ],
            check=True,
            capture_output=True,
        )
    with Journal(data, writer=False) as journal:
        found = load_tally(journal)
    assert found is not None
    return found


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (720, 1280)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_stats_screen_a_row_per_player(tally: Tally, size: tuple[int, int], lang: str) -> None:
    ui = Ui(lang=lang)
    ui.tally = tally
    r = render("stats", None, size, lang, ui)
    assert_contained(r)
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    names = {
        rec.who: rec
        for rec in r.painter.texts  # type: ignore[attr-defined]
        if rec.kind == "name"
    }
    for s in tally.players:  # a row each: the name (drawn as a name), then games won
        assert names[s.player].text == s.player
        assert f"{s.wins}/{s.games}" in texts, s.player
    assert ("Réaction" if lang == "fr" else "Reaction") in texts
    assert not audit.problems(r.painter, [s.player for s in tally.players])  # type: ignore


def test_evening_tally_under_the_game_over_screen(tally: Tally) -> None:
    engine = replay((ROOT / "docs/examples/kilo-four-players.jsonl").read_text().splitlines())
    assert engine.finished
    ui = ui_for(engine, "fr")
    ui.tally = tally
    r = render("gameover", view_of(engine), (800, 480), "fr", ui)
    assert_contained(r)
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    assert "Ce soir · 3 parties" in " ".join(texts)  # on one line or two
    assert tally.evening[0].player in texts
    assert any(rec.kind == "name" and rec.who == tally.evening[0].player for rec in r.painter.texts)  # type: ignore[attr-defined]
    assert any(x.startswith(f"{tally.evening[0].wins} vict.") for x in texts)
    # One game only: no tally band.
    ui.tally = Tally(tally.players, tally.evening, 1)
    texts = [rec.text for rec in render("gameover", view_of(engine), (800, 480), "fr", ui).painter.texts]  # type: ignore[attr-defined]
    assert not any(x.startswith("Ce soir") for x in texts)


def _game(start_h: float) -> GameRecord:
    return GameRecord("g", "kilo", int(start_h * HOUR), ("A", "B", "C"), True, ("A",), (), "kilos")


def test_an_evening_is_the_last_run_of_games_without_a_four_hour_break() -> None:
    games = [_game(0), _game(1), _game(20), _game(21.5), _game(23)]
    assert evening_start(games) == 20 * HOUR
    assert evening_start(games, now_ns=24 * HOUR) == 20 * HOUR
    assert evening_start(games, now_ns=30 * HOUR) == 30 * HOUR  # nothing played tonight yet
    assert evening_start([], now_ns=5) == 5


def test_no_journal_numbers_say_so() -> None:
    ui = Ui(lang="en")
    r = render("stats", None, (800, 480), "en", ui)
    assert "No finished game yet: the numbers will come." in [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_stats_screen_is_legible_with_ten_long_names(lang: str) -> None:
    """The legibility rules (display/audit.py) on the stats screen, which the screen-by-screen
    test sees empty (no journal): ten long accented names, every size."""
    from companion.games.kilo.stats import KiloPart
    from companion.table.stats import PlayerStats
    from tests.display.test_audit_legibility import LONG  # type: ignore[import-not-found]

    players = tuple(
        PlayerStats(
            name,
            games=3 + i,
            wins=i % 3,
            parts={
                "kilo": KiloPart(
                    games=2 * (i % 2),
                    kilos=40 * i,
                    slap_losses=i % 2,
                    false_slaps=i % 2,
                    delays_us=[1200 * i + 300] if i % 2 else [],
                    escapes_us=[3200 + i] if i % 2 else [],
                )
            },
        )
        for i, name in enumerate(LONG)
    )
    ui = Ui(lang=lang)
    ui.tally = Tally(players, players[:5], 3)
    for size in SIZES:
        r = render("stats", None, size, lang, ui, audit=True)
        assert_contained(r)
        found = audit.problems(r.painter, LONG)  # type: ignore[arg-type]
        assert not found, (size, found[:10])
        if lang == "fr":  # French numbers: a decimal comma
            assert any(rec.text.endswith(" ms") and "," in rec.text for rec in r.painter.texts), size  # type: ignore[attr-defined]


def test_the_evening_band_ranks_equal_wins_by_each_games_own_figure() -> None:
    """Among equal wins, the lighter at Kilo de merde first (its part's ``tiebreak``); its
    players show their kilos, the others their wins alone (``evening_text``)."""
    from companion.display.tally import _evening_text, tally_of

    def kilo(at: int, winner: str, kilos: tuple[int, int]) -> GameRecord:
        return GameRecord(
            f"k{at}",
            "kilo",
            at * HOUR,
            ("Zed", "Amy"),
            True,
            (winner,),
            tuple(zip(("Zed", "Amy"), kilos, strict=True)),
            "kilos",
        )

    games = [
        kilo(1, "Zed", (0, 30)),
        kilo(2, "Amy", (20, 0)),
        GameRecord(
            "c", "cinq-rois", 3 * HOUR, ("Bea", "Amy"), True, ("Bea",), (("Bea", 5), ("Amy", 9)), "points"
        ),
    ]
    tally = tally_of(games, now_ns=4 * HOUR)
    # One win each: Bea never played Kilo (0 kg), Zed took 20 kg, Amy 30 kg.
    assert [s.player for s in tally.evening] == ["Bea", "Zed", "Amy"]
    texts = {s.player: _evening_text(s, "fr") for s in tally.evening}
    assert texts == {"Bea": "1 vict.", "Zed": "1 vict. · 20 kg", "Amy": "1 vict. · 30 kg"}
    assert _evening_text(tally.evening[1], "en") == "1 won · 20 kg"


def _kilo_players(*parts: object) -> tuple[object, ...]:
    """Players Ana, Bo, Cy, ... with these Kilo de merde parts, as the stats screen lists them."""
    from companion.table.stats import PlayerStats

    return tuple(
        PlayerStats(name, games=5, wins=1, parts={"kilo": part})  # type: ignore[dict-item]
        for name, part in zip(("Ana", "Bo", "Cy", "Dé"), parts, strict=False)
    )


def test_the_stats_screens_kilo_columns_say_each_players_numbers_and_bars() -> None:
    """The screen's model (``tally.columns``), after the wins: reaction (median, a dash with no
    delay), draws per Kilo game (a dash for who never played it), false slaps, the closest
    escape; each bar the player's share of the column's largest; French decimal commas."""
    from companion.display.tally import Column, columns
    from companion.display.theme import BAD, GOOD, MUTED
    from companion.games.kilo.stats import KiloPart

    ana = KiloPart(
        games=2, kilos=30, slap_losses=4, false_slaps=1, delays_us=[30_000, 50_000], escapes_us=[8_700, 3_200]
    )
    bo = KiloPart(games=4, slap_losses=2, false_slaps=2, delays_us=[2_500])
    cy = KiloPart()  # played other games only
    de = KiloPart(games=1)  # always first, never drew: no delay, no escape
    players = _kilo_players(ana, bo, cy, de)
    wins = Column("Victoires", 1.2, ("1/5",) * 4, (0.2,) * 4, GOOD)
    assert columns(Tally(players, (), 0), "fr") == [
        wins,
        Column("Réaction", 1.3, ("40 ms", "2,5 ms", "—", "—"), (1.0, 0.0625, 0.0, 0.0), MUTED),
        Column("Pioches par partie", 1.2, ("2,0", "0,5", "—", "0,0"), (1.0, 0.25, 0.0, 0.0), BAD),
        Column("Fausses tapes", 1.0, ("1", "2", "—", "0"), (0.5, 1.0, 0.0, 0.0), MUTED),
        Column("Au ras", 1.2, ("3,2 ms", "—", "—", "—")),
    ]
    en = columns(Tally(players, (), 0), "en")
    assert [(c.title, c.values) for c in en[1:]] == [
        ("Reaction", ("40 ms", "2.5 ms", "—", "—")),
        ("Draws per game", ("2.0", "0.5", "—", "0.0")),
        ("False slaps", ("1", "2", "—", "0")),
        ("Closest escape", ("3.2 ms", "—", "—", "—")),
    ]
    # One false slap at most: the bar of one is full (the scale is never below one slap).
    once = _kilo_players(KiloPart(games=1, false_slaps=1), KiloPart(games=1))
    assert columns(Tally(once, (), 0), "en")[3].bars == (1.0, 0.0)
    # None false, nobody drew, no delay: empty bars, not a division by zero.
    calm = columns(Tally(_kilo_players(KiloPart(games=1), KiloPart(games=3)), (), 0), "en")
    assert [c.bars for c in calm[1:]] == [(0.0, 0.0)] * 3 + [None]
    # Nobody shown has played Kilo de merde: the wins alone.
    assert columns(Tally(_kilo_players(KiloPart(), KiloPart()), (), 0), "fr") == [
        Column("Victoires", 1.2, ("1/5", "1/5"), (0.2, 0.2), GOOD)
    ]
