"""Every screen, both languages, every target size: drawn headless, nothing outside its box."""

from __future__ import annotations

import os

from companion.display.app_actions import Lang, Menu, Mute, Nav, Undo

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import itertools
import json

import pygame
import pytest

from companion.display.snapshot import SIZES, render, screens, ui_for
from companion.display.theme import FAR_CAP_MM, SEVEN_INCH_PX_PER_MM
from companion.games.kilo.actions import PickRank, Why
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.samples import SAMPLES
from companion.games.kilo.view import View, build_view
from companion.table.fold import replay
from companion.table.log import event_from_dict
from companion.text import Text

SCREENS = screens("kilo")


def game_of(sample: str) -> KiloGame:
    import json

    engine = replay(json.dumps(e, ensure_ascii=False) for e in SAMPLES[sample]())
    assert isinstance(engine, KiloGame)
    return engine


@pytest.fixture(scope="module")
def views() -> dict[str, tuple[KiloGame, View]]:
    out = {}
    for name in SAMPLES:
        game = game_of(name)
        out[name] = (game, build_view(game))
    return out


def assert_contained(r: object) -> None:
    p = r.painter  # type: ignore[attr-defined]
    screen = p.screen
    for rec in p.texts:
        assert rec.box.contains(rec.rect), f"{rec.text!r} leaves its box: {rec.rect} in {rec.box}"
        assert screen.contains(rec.rect), f"{rec.text!r} leaves the screen: {rec.rect}"
        assert rec.cap >= 4, f"{rec.text!r} is unreadably small"
    for child, parent in p.boxes:
        assert parent.contains(child), f"panel {child} leaves {parent}"
        assert screen.contains(child), f"panel {child} leaves the screen"
    controls = [c.rect for c in p.controls]
    for rect in controls:
        assert screen.contains(rect), f"control {rect} leaves the screen"
    for a, b in itertools.combinations(controls, 2):
        if a != b:
            assert not a.colliderect(b), f"controls overlap: {a} and {b}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_fits(
    views: dict[str, tuple[KiloGame, View]], screen: str, lang: str, size: tuple[int, int]
) -> None:
    # The busiest state (ten players, long names, cards everywhere) and a five-player game.
    for sample in ("busy", "midgame"):
        game, view = views[sample]
        r = render(screen, view, size, lang, ui_for(game, lang))
        assert r.screen == screen
        assert r.surface.get_size() == size  # type: ignore[attr-defined]
        assert_contained(r)


@pytest.mark.parametrize("sample", ["verdict", "finished"])
@pytest.mark.parametrize("screen", SCREENS)
def test_other_states_fit(views: dict[str, tuple[KiloGame, View]], sample: str, screen: str) -> None:
    game, view = views[sample]
    for lang, size in (("fr", (800, 480)), ("en", (720, 1280))):
        assert_contained(render(screen, view, size, lang, ui_for(game, lang)))


@pytest.mark.parametrize("screen", SCREENS)
def test_no_game_yet_every_screen_says_why(screen: str) -> None:
    r = render(screen, None, (800, 480), "fr")
    assert_contained(r)
    texts = " ".join(rec.text for rec in r.painter.texts)  # type: ignore[attr-defined]
    if screen not in ("setup", "rules", "status", "stats"):
        assert "Pas de partie en cours" in texts


def test_screens_that_do_not_apply_explain(views: dict[str, tuple[KiloGame, View]]) -> None:
    game, view = views["finished"]
    for screen, words in (("card", "on ne pioche plus"), ("verdict", "plus de tape")):
        r = render(screen, view, (1280, 720), "fr", ui_for(game, "fr"))
        assert any(words in rec.text for rec in r.painter.texts), screen  # type: ignore
    game, view = views["verdict"]
    r = render("gameover", view, (1280, 720), "en", ui_for(game, "en"))
    assert any("not over" in rec.text for rec in r.painter.texts)  # type: ignore


def test_far_text_is_readable_from_two_metres_on_the_7_inch(views: dict[str, tuple[KiloGame, View]]) -> None:
    need = FAR_CAP_MM * SEVEN_INCH_PX_PER_MM * 0.99
    game, view = views["midgame"]
    for screen in ("table", "slap", "card"):
        r = render(screen, view, (800, 480), "fr", ui_for(game, "fr"))
        far = [rec for rec in r.painter.texts if rec.role == "far"]  # type: ignore
        assert far, screen
        for rec in far:
            assert rec.cap >= need, f"{screen}: {rec.text!r} cap {rec.cap}px < {need:.0f}px"


def test_french_accents_render() -> None:
    from companion.display.layout import Fonts

    fonts = Fonts()
    font = fonts.font(40)
    for ch in "éèêàçœôûÉÀ":
        metrics = font.metrics(ch)
        assert metrics and metrics[0] is not None
        # A glyph of its own: not the empty box every missing glyph shares.
        assert metrics[0] != font.metrics("\u2660")[0] or ch == "\u2660"


def test_slap_result_shows_the_margin_and_the_loser(views: dict[str, tuple[KiloGame, View]]) -> None:
    game, view = views["midgame"]
    r = render("slap", view, (1280, 720), "en", ui_for(game, "en"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    # The headline is the loser's row: their name, then what happened to them, as big.
    assert "lost by 3.2 ms" in texts
    assert any(rec.kind == "name" and rec.who == "Chloé" and rec.cap >= 35 for rec in r.painter.texts)  # type: ignore[attr-defined]
    assert "+180 ms" in texts  # each press: its gap to the press before
    assert "+3.2 ms" in texts  # the deciding one


def test_card_grid_offers_only_cards_that_can_be_in_the_pile(views: dict[str, tuple[KiloGame, View]]) -> None:
    game, view = views["midgame"]
    r = render("card", view, (1280, 720), "fr", ui_for(game, "fr"))
    controls = r.painter.controls  # type: ignore[attr-defined]
    offered = {c.action.rank for c in controls if isinstance(c.action, PickRank) and c.enabled}
    refused = {c.action.key for c in controls if isinstance(c.action, Why)}
    # Five players: K Q J 2 3 are dealt, so they are refused (set aside, each saying why);
    # Aces are still in the pile.
    assert offered == {"A", "4", "5", "6", "7", "8", "9", "10"}
    assert {"K", "Q", "J", "2", "3"} <= refused and not offered & refused
    game.check(event_from_dict({"type": "draw", "player": "Chloé", "card": "A"}))


def test_flush_animation_frame_fits(views: dict[str, tuple[KiloGame, View]]) -> None:
    game, view = views["midgame"]
    for phase in (0.0, 0.5, 0.99):
        r = render("table", view, (800, 480), "fr", ui_for(game, "fr"), anim_phase=phase)
        assert_contained(r)
        assert isinstance(r.surface, pygame.Surface)


def test_a_short_box_shrinks_type_instead_of_cutting_a_word() -> None:
    # Seen on a real window: a message band squeezed the card grid and "A" showed as "A…".
    from companion.display.layout import Fonts, Painter

    pygame.font.init()
    painter = Painter(pygame.Surface((400, 300)), Fonts())
    shown, size = painter.fit("A", pygame.Rect(0, 0, 100, 12), 60)
    assert shown == "A" and painter.fonts.size("A", size)[1] <= 12
    shown, _ = painter.fit("Une phrase bien trop longue pour la case", pygame.Rect(0, 0, 60, 40), 30)
    assert shown.endswith("…")  # too wide: cut, and it says so


def test_card_grid_keeps_its_labels_under_a_message_band() -> None:
    from companion.display.snapshot import render

    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["Alice", "Bruno", "Chloé", "Dédé"], "rounds": 5}'
    ]
    lines += [
        f'{{"type": "press", "player": "{p}", "t_us": {t}}}'
        for p, t in [("Bruno", 0), ("Alice", 166), ("Dédé", 389), ("Chloé", 708)]
    ]
    lines.append('{"type": "verdict", "valid": true}')
    game = replay(lines)
    assert isinstance(game, KiloGame) and game.awaiting == "draw"
    for size in SIZES:
        ui = ui_for(game, "fr")
        ui.screen = "card"
        ui.say(Text.pair(en="Undone: Chloé 5", fr="Annulé : Chloé 5"), error=False)
        r = render("card", build_view(game), size, "fr", ui)
        shown = {rec.text for rec in r.painter.texts}
        assert {"A", "7", "10", "V"} <= shown, size
        assert not any(text.endswith("…") and len(text) <= 3 for text in shown), size


def test_axis_ticks_are_round_and_cover_the_top() -> None:
    from companion.display.blocks import nice_ticks

    assert nice_ticks(9, 5) == [0, 2, 4, 6, 8, 10]
    assert nice_ticks(27, 5) == [0, 10, 20, 30]
    assert nice_ticks(113, 5) == [0, 50, 100, 150]
    assert nice_ticks(1, 5) == [0, 1]
    for top in range(1, 2000, 7):
        ticks = nice_ticks(top, 5)
        step = ticks[1]
        assert ticks[-1] >= top and len(ticks) <= 6
        assert str(step).strip("0") in ("1", "2", "5")


@pytest.mark.parametrize("card", ["9", "A"])
def test_history_grid_labels_stand_where_their_values_are(card: str) -> None:
    """Regression: the labels said 2, 4, 6 where the lines stood at 2.25, 4.5, 6.75."""
    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["Ana", "Ben", "Cy"], "rounds": 2}',
        '{"type": "press", "player": "Ana", "t_us": 0}',
        '{"type": "press", "player": "Ben", "t_us": 100}',
        '{"type": "press", "player": "Cy", "t_us": 250}',
        '{"type": "verdict", "valid": true}',
        json.dumps({"type": "draw", "player": "Cy", "card": card}),
    ]
    game = replay(lines)
    assert isinstance(game, KiloGame)
    r = render("history", build_view(game), (1280, 720), "fr", ui_for(game, "fr"))
    digits = [rec for rec in r.painter.texts if rec.text.isdigit()]
    axis_x = min(rec.box.x for rec in digits)  # the kilo axis, left of the plot
    labels = [rec for rec in digits if rec.box.x == axis_x]
    values = sorted(int(rec.text) for rec in labels)
    assert values and values[0] == 0
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1 and str(steps.pop()).strip("0") in ("1", "2", "5")
    # Equal value steps sit at equal pixel steps.
    ys = sorted((rec.box.centery for rec in labels), reverse=True)
    gaps = {b - a for a, b in itertools.pairwise(ys)}
    assert max(gaps) - min(gaps) <= 1


def test_table_tiles_keep_their_seats_and_show_the_round_change() -> None:
    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["Ana", "Ben", "Cy"], "rounds": 3}',
        '{"type": "press", "player": "Cy", "t_us": 0}',
        '{"type": "press", "player": "Ben", "t_us": 100}',
        '{"type": "press", "player": "Ana", "t_us": 250}',
        '{"type": "verdict", "valid": true}',
        '{"type": "draw", "player": "Ana", "card": "9"}',
    ]
    game = replay(lines)
    assert isinstance(game, KiloGame)
    view = build_view(game)
    assert [s.change for s in view.seats] == [9, 0, 0]  # round 2 has begun: round 1's change shows
    r = render("table", view, (1280, 720), "fr", ui_for(game, "fr"))
    texts = r.painter.texts  # type: ignore[attr-defined]
    names = {rec.who: rec.box for rec in texts if rec.kind == "name"}
    ana, cy = names["Ana"], names["Cy"]
    assert ana.top < cy.top  # Ana is last in the standings but keeps the first seat's tile
    # Her place stands on her name's line, as its own text; her change under it.
    assert any(rec.text == "3e" and rec.kind == "place" and rec.box.top == ana.top for rec in texts)
    # Places count from 1, ties sharing one: Ben and Cy, at 0 kilos, are both first (issue 38).
    places = {
        who: [rec.text for rec in texts if rec.kind == "place" and rec.box.top == box.top]
        for who, box in names.items()
    }
    assert places == {"Ana": ["3e"], "Ben": ["1er"], "Cy": ["1er"]}
    assert [(s.name, s.place) for s in view.standings] == [("Ben", 1), ("Cy", 1), ("Ana", 3)]
    assert any(
        rec.text == "+9"  # the kit's change mark: the unit is beside the figure
        and ana.top < rec.rect.centery < ana.top + 3 * ana.height
        and rec.rect.left > ana.left
        for rec in texts
    )


def test_several_owed_draws_are_counted_and_the_heaviest_is_named() -> None:
    from companion.games.kilo.screens import awaiting_text

    head = [
        '{"type": "new_game", "game": "kilo", "players": ["Ana", "Ben", "Cy", "Dom"], "rounds": 1}',
        '{"type": "press", "player": "Ana", "t_us": 0}',
        '{"type": "press", "player": "Ben", "t_us": 100}',
        '{"type": "press", "player": "Cy", "t_us": 500}',
        '{"type": "press", "player": "Dom", "t_us": 500}',
        '{"type": "verdict", "valid": true}',
    ]
    game = replay(head)
    assert isinstance(game, KiloGame)
    assert (
        awaiting_text(build_view(game), "fr") == "Pioche 1/2\u202f: Cy"
        or awaiting_text(build_view(game), "fr") == "Pioche 1/2 : Cy"
    )
    game = replay([*head, '{"type": "draw", "player": "Cy", "card": "9"}'])
    assert isinstance(game, KiloGame)
    assert awaiting_text(build_view(game), "en") == "Draw 2/2: Dom"
    game = replay(
        [
            *head,
            '{"type": "draw", "player": "Cy", "card": "9"}',
            '{"type": "draw", "player": "Dom", "card": "A"}',
        ]
    )
    assert isinstance(game, KiloGame) and game.finished
    r = render("gameover", build_view(game), (1280, 720), "fr", ui_for(game, "fr"))
    assert any(rec.text.startswith("Le plus lourd") and "Dom, 100 kg" in rec.text for rec in r.painter.texts)


@pytest.mark.parametrize("game", ["kilo", "cinq-rois", "treize"])
def test_setup_at_800x480_has_no_tiny_text(game: str) -> None:
    """Regression: the setup's help lines shrank to a 7 px cap height at 800x480."""
    from companion.display.state import SetupForm, Ui

    ui = Ui(lang="fr", game=game)
    ui.setup = SetupForm(game=game, players=["Alice", "Bruno", "Chloé", "Dédé"])
    r = render("setup", None, (800, 480), "fr", ui)
    assert min(rec.cap for rec in r.painter.texts) >= 9


def _menu_labels(r: object) -> dict[object, int]:
    p = r.painter  # type: ignore[attr-defined]
    return {
        c.action: min(rec.size for rec in p.texts if c.rect.contains(rec.rect))
        for c in p.controls
        if isinstance(c.action, (Nav, Mute, Lang))
    }


@pytest.mark.parametrize("game", ["kilo", "cinq-rois", "treize"])
def test_the_menu_holds_every_screen_with_the_labels_of_the_7_inch(game: str) -> None:
    """The one bar keeps Undo and Menu; the menu, in place of the screen, lists each of the
    game's screens, the generic ones, sound and language, in portrait as big as on the 7"."""
    from companion.display.game_ui import screens_for
    from companion.display.screens import NAV
    from companion.display.state import SetupForm, Ui

    sizes = {}
    for size in ((800, 480), (720, 1280)):
        ui = Ui(lang="fr", game=game)
        ui.setup = SetupForm(game=game, players=["Alice", "Bruno", "Chloé", "Dédé"])
        closed = render("setup", None, size, "fr", ui).painter
        assert {c.action for c in closed.controls} >= {Menu(), Undo()}
        assert not any(
            isinstance(c.action, Nav) and c.rect.top < closed.chrome[0].bottom for c in closed.controls
        )
        ui.menu = True
        labels = _menu_labels(render("setup", None, size, "fr", ui))
        wanted = {Nav(name) for name, _key in (*screens_for(game).nav, *NAV)} | {Mute(), Lang()}
        assert set(labels) == wanted, size
        sizes[size] = min(labels.values())
    assert sizes[(720, 1280)] >= sizes[(800, 480)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lots_overlay_draws_names_as_names(size: tuple[int, int]) -> None:
    """The draw-lots overlay (every game): ten long names drawn as names, the result never cut."""
    from companion.display import audit
    from companion.display.layout import Fonts, Painter
    from companion.display.lots import draw_lots_overlay
    from tests.display.test_audit_legibility import LONG  # type: ignore[import-not-found]

    pygame.font.init()
    players = tuple(LONG)
    for phase in (0.3, 1.0):
        painter = Painter(pygame.Surface(size), Fonts(), audit=True)
        draw_lots_overlay(
            painter, players, 4, phase, "Tirage au sort…", f"{players[4]} donne la première manche"
        )
        found = audit.problems(painter, players)
        assert not found, found[:5]
        shown = {rec.who for rec in painter.texts if rec.kind == "name"}
        assert shown == set(players)


def test_the_slap_the_screens_draw_is_the_one_played() -> None:
    """Issue 38: what the slap screens draw, worked out by hand from the presses: each press's
    gap to the first one, in seat order, the last one's margin behind the one before; while a
    window is open, who has pressed and who has not yet; after the draw, the drawer's card, kilos,
    place and the places lost."""
    from companion.games.kilo.view import DrawView, PressView, SlapView

    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["Ana", "Ben", "Cy", "Dan"], "rounds": 3}',
        '{"type": "starter", "player": "Cy"}',
        '{"type": "press", "player": "Cy", "t_us": 1000}',
        '{"type": "press", "player": "Ben", "t_us": 1100}',
        '{"type": "press", "player": "Ana", "t_us": 1250}',
        '{"type": "press", "player": "Dan", "t_us": 2250}',
        '{"type": "verdict", "valid": true}',
    ]
    view = build_view(game_of_lines(lines))
    assert view.awaiting == "draw" and view.owed == ("Dan",) and view.live is None
    assert view.starter == "Cy" and [s.starter for s in view.seats] == [False, False, True, False]
    assert view.last_slap == SlapView(
        presses=(
            PressView("Cy", 2, 0),
            PressView("Ben", 1, 100),
            PressView("Ana", 0, 250),
            PressView("Dan", 3, 1250),
        ),
        non_pressers=(),
        losers=("Dan",),
        margin_us=1000,
        valid=True,
        tied=False,
        reslap=False,
        margin_res_us=1,
    )
    assert [(s.name, s.owes, s.cards) for s in view.seats] == [
        ("Ana", False, ()),
        ("Ben", False, ()),
        ("Cy", False, ()),
        ("Dan", True, ()),
    ]
    assert (view.round, view.rounds, view.slaps, view.draws, view.last_draw) == (1, 3, 1, 0, None)
    assert (view.winners, view.end_reason, view.dealer_open) == ((), None, False)
    # The card grid: a King cannot be drawn at four players (each suit says why), a 9 can.
    kings = "K cannot be drawn: Kings are dealt to the players at 4 players, the pile holds A 3-10"
    assert view.rank_reasons["K"] is not None and view.rank_reasons["K"][1] == kings
    assert view.card_reasons["KH"] == view.card_reasons["KS"] == view.rank_reasons["K"]
    assert view.rank_reasons["9"] is None and view.card_reasons["9H"] is None
    assert len(view.card_reasons) == 52 and view.pile_ranks == ("A", "3", "4", "5", "6", "7", "8", "9", "10")
    lines += [
        '{"type": "draw", "player": "Dan", "card": "9"}',
        '{"type": "press", "player": "Dan", "t_us": 5000000}',
        '{"type": "press", "player": "Ana", "t_us": 5000300}',
    ]
    view = build_view(game_of_lines(lines))
    assert view.awaiting == "verdict" and view.owed == ()
    assert (view.round, view.slaps, view.draws, view.rank_reasons) == (2, 1, 1, {})
    assert view.last_draw == DrawView("Dan", "9", 9, 0)
    assert view.live == SlapView(
        presses=(PressView("Dan", 3, 0), PressView("Ana", 0, 300)),
        non_pressers=(("Ben", 1), ("Cy", 2)),
        losers=("Ben", "Cy"),
        margin_us=None,
        valid=None,
        tied=False,
        reslap=False,
        margin_res_us=1,
    )
    assert view.last_slap is not None and view.last_slap.losers == ("Dan",)  # the one before stays
    assert [(s.name, s.kilos, s.cards, s.place, s.change, s.moved) for s in view.seats] == [
        ("Ana", 0, (), 1, 0, 0),
        ("Ben", 0, (), 1, 0, 0),
        ("Cy", 0, (), 1, 0, 0),
        ("Dan", 9, ("9",), 4, 9, -3),  # from first (shared) to fourth: three places lost
    ]
    assert [s.name for s in view.standings] == ["Ana", "Ben", "Cy", "Dan"]


def game_of_lines(lines: list[str]) -> KiloGame:
    game = replay(lines)
    assert isinstance(game, KiloGame)
    return game


def test_a_coarse_clocks_slap_and_a_whole_game_as_the_screens_draw_them() -> None:
    """Two phones' presses 20 ms coarse: the margin is drawn to that resolution, in the open
    window and after the verdict. Then the game to its end: each round's change and the places
    moved since the round before, the end's reason and winners, the dealer drawn first."""
    from companion.games.kilo.view import PressView, SlapView

    lines = [
        '{"type": "new_game", "game": "kilo", "players": ["Ana", "Ben", "Cy"], "rounds": 2}',
        '{"type": "dealer", "player": "Ben"}',
        '{"type": "press", "player": "Cy", "t_us": 1000}',
        '{"type": "press", "player": "Ben", "t_us": 41000, "res_us": 20000}',
        '{"type": "press", "player": "Ana", "t_us": 91000, "res_us": 20000}',
    ]
    presses = (PressView("Cy", 2, 0), PressView("Ben", 1, 40_000), PressView("Ana", 0, 90_000))
    window = SlapView(presses, (), ("Ana",), 50_000, None, False, False, 20_000)
    view = build_view(game_of_lines(lines))
    assert view.live == window and view.dealer == "Ben" and view.rules == game_of_lines(lines).rules
    lines += ['{"type": "verdict", "valid": true}', '{"type": "draw", "player": "Ana", "card": "8"}']
    view = build_view(game_of_lines(lines))
    assert view.last_slap == SlapView(presses, (), ("Ana",), 50_000, True, False, False, 20_000)
    assert [(s.name, s.kilos, s.flushes, s.starter, s.change, s.moved, s.place) for s in view.seats] == [
        ("Ana", 8, 0, False, 8, -2, 3),  # from first (all at 0) to third
        ("Ben", 0, 0, False, 0, 0, 1),
        ("Cy", 0, 0, False, 0, 0, 1),
    ]
    lines += [
        '{"type": "press", "player": "Ben", "t_us": 5000000}',
        '{"type": "press", "player": "Cy", "t_us": 5030000}',
        '{"type": "press", "player": "Ana", "t_us": 5100000}',
        '{"type": "verdict", "valid": true}',
        '{"type": "draw", "player": "Ana", "card": "10"}',
    ]
    view = build_view(game_of_lines(lines))
    assert (view.finished, view.end_reason, view.winners) == (True, "rounds", ("Ben", "Cy"))
    assert [(s.name, s.kilos, s.change, s.moved, s.place) for s in view.seats] == [
        ("Ana", 18, 10, 0, 3),  # the last round's 10 kilos; still third
        ("Ben", 0, 0, 0, 1),
        ("Cy", 0, 0, 0, 1),
    ]
