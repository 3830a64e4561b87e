"""13 feuilles's screens, both languages, every target size: drawn headless, nothing cut."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.display.snapshot import SIZES, render, screens, ui_for
from companion.display.state import Ui
from companion.games.treize.rules import TreizeGame
from companion.games.treize.samples import SAMPLES, write_log
from companion.games.treize.screens import Entry, TreizeScreens, nice_step
from companion.games.treize.view import View, build_view
from companion.table.fold import replay
from companion.text import Text
from tests.display.test_display import assert_contained

SCREENS = screens("treize")
OWN = TreizeScreens.screens


def game_of(sample: str) -> TreizeGame:
    engine = replay(json.dumps(e, ensure_ascii=False) for e in SAMPLES[sample]())
    assert isinstance(engine, TreizeGame)
    return engine


@pytest.fixture(scope="module")
def views() -> dict[str, tuple[TreizeGame, View]]:
    return {name: (game, build_view(game)) for name in SAMPLES for game in [game_of(name)]}


def assert_uncut(r: object, players: tuple[str, ...]) -> None:
    """Nothing of the game's own text is cut short (a long player name may be)."""
    for rec in r.painter.texts:  # type: ignore[attr-defined]
        if rec.text.endswith("…"):
            assert any(name.startswith(rec.text[:-1]) for name in players), rec.text


def check(
    screen: str, game: TreizeGame, view: View, size: tuple[int, int], lang: str, ui: Ui | None = None
) -> None:
    ui = ui or ui_for(game, lang)
    r = render(screen, view, size, lang, ui)
    assert r.screen == screen
    assert_contained(r)
    if screen in OWN:
        assert_uncut(r, game.players)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_fits(
    views: dict[str, tuple[TreizeGame, View]], screen: str, lang: str, size: tuple[int, int]
) -> None:
    for sample in ("midgame", "busy"):
        game, view = views[sample]
        check(screen, game, view, size, lang)


@pytest.mark.parametrize("sample", ["lots", "result", "finished", "passes"])
@pytest.mark.parametrize("screen", SCREENS)
def test_other_states_fit(views: dict[str, tuple[TreizeGame, View]], sample: str, screen: str) -> None:
    game, view = views[sample]
    for lang, size in (("fr", (800, 480)), ("en", (720, 1280)), ("fr", (1920, 1080))):
        check(screen, game, view, size, lang)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_entries_half_way_fit(views: dict[str, tuple[TreizeGame, View]], size: tuple[int, int]) -> None:
    game, view = views["busy"]
    assert view.turn is not None and view.options
    value, least, _most = view.options[-1]
    for lang in ("fr", "en"):
        ui = ui_for(game, lang)
        ui.entry = Entry("play", view.turn, value, least)
        ui.say(
            Text.pair(
                en="Bruno cannot play 2 × 9: at least 3 cards on the 9",
                fr="Bruno ne peut pas jouer 2\u202f×\u202f9\u202f: 3 cartes au moins sur le 9",
            )
        )
        check("play", game, view, size, lang, ui)
        ui.entry = Entry("take", view.turn)
        check("take", game, view, size, lang, ui)
    game, view = views["passes"]
    ui = ui_for(game, "fr")
    ui.entry = Entry("end", "Chloé", left={"Alice": 3})
    check("end", game, view, size, "fr", ui)
    game, view = views["result"]
    ui = ui_for(game, "en")
    ui.show_result = True
    check("scores", game, view, size, "en", ui)
    texts = [rec.text for rec in render("scores", view, size, "en", ui).painter.texts]
    assert "Next game" in texts


def test_the_table_shows_the_series_helper(views: dict[str, tuple[TreizeGame, View]]) -> None:
    game, view = views["midgame"]
    r = render("table", view, (1280, 720), "fr", ui_for(game, "fr"))
    shown = " ".join(rec.text.replace("\u202f", " ") for rec in r.painter.texts)
    assert view.turn is not None and view.allowed is not None and view.options
    # Whose turn in the banner, then what they may play with the cards in their hand.
    assert f"À {view.turn}" in shown and "Jouable : " in shown
    for value, least, _most in view.options:
        assert str(value) in shown and f"{least} cartes ou plus" in shown
    for value, count in view.stacks:
        assert f"{value} × {count}" in shown
    passed = [s for s in view.seats if s.passed]
    assert passed and "a passé" in shown
    # Each player's points are a figure seen from across the table, the cards in hand under
    # the name.
    scores = [rec.text for rec in r.painter.texts if rec.kind == "score"]
    assert sorted(scores) == sorted(str(s.total) for s in view.seats)
    assert all(f"{s.count} cartes" in shown for s in view.seats if not s.passed)


def test_rules_page_has_the_card_legend(views: dict[str, tuple[TreizeGame, View]]) -> None:
    game, view = views["midgame"]
    for lang, words in (
        ("fr", "un rond pointé = 5, un carré pointé = 10"),
        ("en", "a dotted circle = 5, a dotted square = 10"),
    ):
        r = render("rules", view, (1280, 720), lang, ui_for(game, lang))
        shown = " ".join(rec.text for rec in r.painter.texts)
        assert words.split(",")[0] in shown


def test_score_chart_ticks_are_round() -> None:
    assert [nice_step(s) for s in (5, 20, 23, 40, 90, 3)] == [1, 5, 5, 10, 20, 1]


def test_lots_animation_frames_fit(views: dict[str, tuple[TreizeGame, View]]) -> None:
    game, view = views["midgame"]
    for phase in (0.0, 0.4, 0.79, 0.99):
        r = render("table", view, (800, 480), "fr", ui_for(game, "fr"), anim_phase=phase)
        assert_contained(r)


@pytest.mark.parametrize("screen", SCREENS)
def test_snapshot_cli_draws_every_treize_screen(tmp_path: Path, screen: str) -> None:
    log = write_log("midgame", tmp_path)
    out = tmp_path / f"{screen}.png"
    assert main(["snapshot", screen, "--log", str(log), "--size", "800x480", "--out", str(out)]) == 0
    assert out.exists()


def test_gameover_names_every_co_winner() -> None:
    lines = [
        '{"type": "new_game", "game": "treize", "players": ["Alice", "Bruno", "Chloé"], '
        '"variant": "advanced", "starter": "Alice"}',
        '{"type": "pass", "player": "Bruno"}',
        '{"type": "game_end", "winner": "Alice", "left": {"Bruno": 10, "Chloé": 12}}',
        '{"type": "game_end", "winner": "Bruno", "left": {"Alice": 10, "Chloé": 8}}',
    ]
    game = replay(lines)
    assert isinstance(game, TreizeGame) and game.finished
    view = build_view(game)
    said = {"fr": "2 vainqueurs ex aequo avec 10 points", "en": "2 winners, tied with 10 points"}
    for lang, words in said.items():
        r = render("gameover", view, (800, 480), lang, ui_for(game, lang))
        assert_contained(r)
        shown = [rec.text for rec in r.painter.texts]
        assert words in shown, shown
        # Each co-winner by name, as a name, first: the kit's tiles by place, one name size,
        # the points in far type the biggest on the screen.
        names = [rec for rec in r.painter.texts if rec.kind == "name"]
        assert {rec.who for rec in names[:2]} == {"Alice", "Bruno"}, shown
        assert len({rec.size for rec in names}) == 1
        places = [rec.text for rec in r.painter.texts if rec.kind == "place"]
        assert places[:2] == (["1er", "1er"] if lang == "fr" else ["1st", "1st"]), places
        big = max(rec.size for rec in r.painter.texts)
        assert {rec.kind for rec in r.painter.texts if rec.size == big} == {"score"}


def test_whose_turn_is_the_biggest_thing_on_the_table() -> None:
    """Issue 23 (finding 3): whose turn was a 2-px outline and a 15 px "joue" while card counts
    dominated. Now the kit's turn banner, in the seat colour, at least 6.7 mm on the 7" screen
    at six players, and bigger than anything else under the top bar."""
    from companion.display.theme import seat_color
    from companion.display.viewing import SCORE_MM, viewing

    game = game_of("busy")
    assert len(game.players) == 6 and game.turn is not None
    for lang in ("fr", "en"):
        r = render("table", build_view(game), (800, 480), lang, ui_for(game, lang), audit=True)
        p = r.painter
        banners = [rec for rec in p.texts if rec.kind == "headline"]  # type: ignore[attr-defined]
        assert len(banners) == 1
        banner = banners[0]
        assert banner.color == seat_color(game.players.index(game.turn))
        assert banner.cap >= SCORE_MM * viewing((800, 480))[1] - 0.5
        below = [rec for rec in p.texts if rec.rect.top >= p.chrome[0].bottom]  # type: ignore[attr-defined]
        assert all(rec.cap <= banner.cap for rec in below), [
            (r.text, r.cap) for r in below if r.cap > banner.cap
        ]
        assert banner.rect.top < min(rec.rect.top for rec in below if rec.kind == "name")


def only_pass_game() -> TreizeGame:
    """Three players; Ben holds one card and the table asks two of any value he could play."""
    from companion.games.treize.samples import _match

    events = _match(1, ["Ana", "Ben", "Cy"])
    game = TreizeGame(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        game.apply(event)
        series = game.series
        if (
            game.turn is not None
            and series is not None
            and series.stacks
            and game.awaiting == "play"
            and not game.play_options(game.turn)
        ):
            return game
    raise AssertionError("no state where the player to play can only pass")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_player_who_can_only_pass_is_told_so(lang: str) -> None:
    """Issue 23 (finding 8): the helper listed values a player cannot play with the cards left;
    when nothing is within their hand, the table screen says they can only pass."""
    game = only_pass_game()
    turn = game.turn
    assert turn is not None
    r = render("table", build_view(game), (800, 480), lang, ui_for(game, lang))
    texts = " ".join(rec.text for rec in r.painter.texts)  # type: ignore[attr-defined]
    wanted = "ne peut que passer" if lang == "fr" else "can only pass"
    assert wanted in texts and f"{turn} " in texts, texts
    assert ("peut jouer" if lang == "fr" else "may play") not in texts


def test_the_place_keeps_a_gap_before_the_name() -> None:
    """ "1er" beside "Dédé" read as one word ("1erDédé") with only the tile's pad between them:
    where the name holds its size, a sixth of the type separates the widest place from it."""
    import importlib
    import json

    from companion.display.snapshot import render, ui_for, view_of
    from companion.table.fold import replay

    samples = importlib.import_module("companion.games.treize.samples").SAMPLES
    seen = 0
    for make in samples.values():
        engine = replay(json.dumps(e, ensure_ascii=False) for e in make())
        r = render("table", view_of(engine), (800, 480), "fr", ui_for(engine, "fr"), audit=True)
        names = [t for t in r.painter.texts if t.kind == "name"]
        for place in (t for t in r.painter.texts if t.kind == "place" and t.text == "1er"):
            beside = [
                n
                for n in names
                if n.rect.left > place.rect.left and abs(n.box.centery - place.box.centery) < 4
            ]
            if not beside:
                continue
            name = min(beside, key=lambda n: n.rect.left)
            if name.cut:
                continue
            seen += 1
            assert name.rect.left - place.rect.right >= place.size // 6, (place.text, name.text)
    assert seen, "no sample shows a first place beside a whole name"


def test_the_match_standings_count_places_from_1_and_the_places_moved() -> None:
    """Issue 38: the advanced match of docs/examples, ended: Ana first with 3, Cy second with 14,
    Bea third with 21; in the last game Bea fell from a second place she shared with Cy (14 and
    14) to third, one place lost, while Cy kept his second."""
    from companion.games.treize.view import build_view
    from companion.table.fold import replay

    example = Path(__file__).resolve().parents[3] / "docs/examples/treize/treize-advanced-with-plays.jsonl"
    lines = [line for line in example.read_text(encoding="utf-8").splitlines() if line.startswith("{")]
    game = replay(lines)
    assert isinstance(game, TreizeGame)
    view = build_view(game)
    assert view.finished and view.variant == "advanced"
    assert [(s.name, s.total, s.place, s.moved) for s in view.seats] == [
        ("Ana", 3, 1, 0),
        ("Bea", 21, 3, -1),
        ("Cy", 14, 2, 0),
    ]
    assert view.standings == (("Ana", 3), ("Cy", 14), ("Bea", 21))
