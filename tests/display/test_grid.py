"""The scorer's entry grid (``display/grid.py``), the kit part the three games compose (issue 23),
and Kilo's card grid that offers only what can be drawn (finding 8)."""

from __future__ import annotations

import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import itertools
from typing import cast

import pygame
import pytest

from companion.display import grid as keypad
from companion.display.game_ui import TableHandle
from companion.display.kit import TOUCH_MM
from companion.display.snapshot import render, ui_for
from companion.display.viewing import viewing
from companion.games.cinq_rois.actions import AddCard, GoOut, WhyCard
from companion.games.kilo.actions import PickRank, Why
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.samples import busy, midgame
from companion.games.kilo.screens import KiloScreens, short_reason
from companion.games.kilo.ui_state import kilo_ui
from companion.games.kilo.view import build_view
from companion.table.fold import replay
from companion.text import Text

Rect = pygame.Rect


def test_columns_make_the_cells_largest() -> None:
    wide = Rect(0, 0, 780, 150)
    assert keypad.columns(wide, 3, 5) == 3  # three keys: one row, each a third of the width
    assert keypad.columns(wide, 13, 5, aspect=1.4, most=7) == 7  # two rows of seven
    assert keypad.columns(wide, 1, 5) == 1
    tall = Rect(0, 0, 200, 600)
    assert keypad.columns(tall, 4, 5) == 1  # a column of four, not a row of thin ones


@pytest.mark.parametrize(("n", "cols"), [(1, 1), (3, 3), (8, 4), (13, 7), (12, 3)])
def test_cells_fill_the_area_without_overlap(n: int, cols: int) -> None:
    area = Rect(10, 20, 781, 233)
    rects = keypad.cells(area, n, cols, 5)
    assert len(rects) == n
    assert all(area.contains(r) for r in rects)
    assert not any(a.colliderect(b) for a, b in itertools.combinations(rects, 2))
    assert len({(r.width, r.height) for r in rects[:-1]} | {(rects[0].width, rects[0].height)}) <= 2
    assert min(r.left for r in rects) == area.left and max(r.bottom for r in rects) == area.bottom
    if n % cols:  # a last row that is not full is centred under the full ones
        last = rects[-(n % cols) :]
        left, right = last[0].left - area.left, area.right - last[-1].right
        assert abs(left - right) <= rects[0].width // 2 + 5


def _draw_owed(events: list[dict[str, object]]) -> KiloGame:
    engine = replay(json.dumps(e, ensure_ascii=False) for e in events)
    assert isinstance(engine, KiloGame) and engine.awaiting == "draw"
    return engine


def ten_players() -> KiloGame:
    """Ten players (the pile holds A 7 10), the Aces and the tens all drawn: one rank left."""
    return _draw_owed([*busy(), {"type": "verdict", "valid": True}])


def five_players() -> KiloGame:
    return _draw_owed(midgame())


def rank_cells(game: KiloGame, size: tuple[int, int], lang: str) -> tuple[dict[str, Rect], dict[str, Rect]]:
    """The card entry's controls: the rank cells offered, and what a refused rank touches."""
    r = render("card", build_view(game), size, lang, ui_for(game, lang))
    controls = r.painter.controls  # type: ignore[attr-defined]
    offered = {c.action.rank: c.rect for c in controls if isinstance(c.action, PickRank)}
    refused = {str(c.action.key): c.rect for c in controls if isinstance(c.action, Why)}
    return offered, refused


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_kilo_offers_big_only_the_ranks_that_can_be_drawn(size: tuple[int, int], lang: str) -> None:
    """Issue 23, finding 8: "Kilo's card grid offers 13 ranks when 3 can be drawn"."""
    few, many = ten_players(), five_players()
    view = build_view(few)
    drawable = {r for r, why in view.rank_reasons.items() if why is None}
    assert drawable == {"7"}
    few_cells, few_refused = rank_cells(few, size, lang)
    many_cells, _ = rank_cells(many, size, lang)
    assert set(few_cells) == drawable and len(many_cells) == 8
    # Fewer ranks left: each one a larger cell, in both directions.
    cell, usual = few_cells["7"], next(iter(many_cells.values()))
    assert cell.width > usual.width * 2 and cell.height >= usual.height
    # No rank that cannot be drawn gets a cell of the grid: each lies in one line under it,
    # lower than a drawable cell, and touching it still says why.
    line = Rect(few_refused[next(iter(few_refused))]).unionall(list(few_refused.values()))
    assert line.height < cell.height and line.top > cell.bottom
    _what, per_mm, _m = viewing(size)
    if size == (800, 480):
        assert line.height >= TOUCH_MM * per_mm - 0.5  # touched: 9 mm
    undrawable = set(view.rank_reasons) - drawable
    named = {rank for key in few_refused for rank in key.split()}
    assert named == undrawable


class _App:
    """What ``KiloScreens.do`` asks of the app for a "why": its view and its ui."""

    def __init__(self, game: KiloGame) -> None:
        self.view = build_view(game)
        self.ui = ui_for(game, "fr")


def test_a_greyed_card_entry_control_says_why_when_touched() -> None:
    """A disabled control of the card entry (a suit whose card already lies in view) holds a
    GameAction whose ``why`` is an action Kilo de merde answers with the reason (the App does
    that ``why`` on a touch of a disabled control)."""
    engine = ten_players()
    view = build_view(engine)
    rank, suit = next(
        (card[:-1], card[-1])
        for card, reason in view.card_reasons.items()
        if reason is not None and view.rank_reasons.get(card[:-1]) is None
    )
    app = _App(engine)
    kilo_ui(app.ui).rank = rank
    r = render("card", view, (800, 480), "fr", app.ui)
    greyed = [c for c in r.painter.controls if not c.enabled and c.action == Why(rank + suit)]  # type: ignore[attr-defined]
    assert greyed, "the refused suit is drawn greyed"
    touched = greyed[0].action
    assert isinstance(touched, Why)
    why = touched.why()
    assert why is not None
    assert KiloScreens().do(cast(TableHandle, app), why)
    assert app.ui.message is not None
    assert (app.ui.message.fr, app.ui.message.en) == view.card_reasons[rank + suit]


@pytest.mark.parametrize("game", [ten_players, five_players])
def test_the_line_set_aside_says_why_in_full_in_both_languages(game: object) -> None:
    engine = game()  # type: ignore[operator]
    view = build_view(engine)
    r = render("card", view, (800, 480), "fr", ui_for(engine, "fr"))
    line = next(
        c
        for c in r.painter.controls  # type: ignore[attr-defined]
        if isinstance(c.action, Why) and " " in str(c.action.key)
    )
    app = _App(engine)
    assert isinstance(line.action, Why)
    assert KiloScreens().do(cast(TableHandle, app), line.action)  # a why reads the view and the ui only
    fr, en = (app.ui.message.fr, app.ui.message.en) if app.ui.message else ("", "")
    # One sentence for each reason: the dealt ranks' says what the pile holds.
    whys = {short_reason(view, r) for r in str(line.action.key).split()}
    assert "dealt" in whys
    assert "distribu" in fr and "dealt to the players" in en
    if "gone" in whys:
        assert "sorti" in fr and "left the pile" in en


# --- 9 mm keys in every game's entry grid ------------------------------------------------------


def _entry_keys(game: str) -> list[tuple[str, object, object]]:
    """(what, view, ui) of each state that shows ``game``'s entry grid, at its busiest."""
    import sys

    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from companion.display.snapshot import view_of
    from companion.games.treize.screens import Entry
    from tests.display.test_audit_legibility import states

    out: list[tuple[str, object, object]] = []
    if game == "kilo":
        for engine in (ten_players(), five_players()):
            out.append(("card", view_of(engine), ui_for(engine, "fr")))
    elif game == "treize":
        for _sample, engine in states("treize"):
            view = view_of(engine)
            if engine.awaiting != "play" or view.turn is None:
                continue
            playable = [val for val in range(1, 14) if view.option(val) is not None]
            ui = ui_for(engine, "fr")
            if playable:
                ui.entry = Entry("play", value=playable[-1])  # the counts row under the values
            out.append(("play", view, ui))
            out.append(("take", view, ui_for(engine, "fr")))
    else:
        for _sample, engine in states("cinq-rois"):
            out.append(("entry", view_of(engine), ui_for(engine, "fr")))  # the points keypad
    return out


KEY_ACTIONS = {
    "PickRank",
    "Why",
    "ChooseValue",
    "ChooseCount",
    "WhyValue",
    "WhyCount",
    "Took",
    "Digit",
    "AddCard",
    "WhyCard",
}


def _kind(action: object) -> str:
    """An action's kind: the name of its class (the App's, a game's or the form's)."""
    return type(action).__name__


@pytest.mark.parametrize("game", ["kilo", "treize", "cinq-rois"])
def test_every_key_of_an_entry_grid_is_9_mm_on_the_7_inch(game: str) -> None:
    _what, per_mm, _m = viewing((800, 480))
    need = TOUCH_MM * per_mm - 0.5
    seen, small = 0, []
    for screen, view, ui in _entry_keys(game):
        r = render(screen, view, (800, 480), "fr", ui)  # type: ignore[arg-type]
        for c in r.painter.controls:  # type: ignore[attr-defined]
            if _kind(c.action) in KEY_ACTIONS:
                seen += 1
                if min(c.rect.size) < need:
                    small.append(f"{screen} {c.action!r}: {c.rect.width}x{c.rect.height}")
    assert seen, "no entry grid drawn"
    assert not small, "\n".join(small[:10])


def test_the_cinq_rois_card_grid_is_9_mm_on_the_7_inch() -> None:
    from companion.games.cinq_rois.samples import entry_ui

    view, ui = entry_ui("fr", "entry")
    r = render("entry", view, (800, 480), "fr", ui)  # type: ignore[arg-type]
    _what, per_mm, _m = viewing((800, 480))
    cards = [c for c in r.painter.controls if isinstance(c.action, (AddCard, WhyCard))]  # type: ignore[attr-defined]
    assert len(cards) == 5 * 11 + 1
    assert all(min(c.rect.size) >= TOUCH_MM * per_mm - 0.5 for c in cards)


def _cinq_rois_cards_at_seven(lang: str, mode: str) -> tuple[object, object]:
    """Les Cinq Rois' longest table (7 players, 24-character names) with a hand being typed."""
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from companion.display.snapshot import view_of
    from companion.games.cinq_rois.entry import RoundEntry
    from tests.display.test_audit_legibility import states

    table = states("cinq-rois")
    most = max(len(e.players) for _, e in table)
    engine = next(e for _, e in table if len(e.players) == most and e.cards is not None)
    ui = ui_for(engine, lang)
    entry = RoundEntry(engine.round, engine.players, engine.cards, mode=mode)  # type: ignore[arg-type]
    entry.go_out(3)
    entry.skip_turns()
    entry.select(1)
    for card in ("3H", "4S", "JK"):
        assert entry.add(card) is None
    ui.entry = entry
    return view_of(engine), ui


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("mode", ["hands", "left"])
def test_the_cinq_rois_card_entry_keeps_the_7_inch_rules_at_seven(
    mode: str, lang: str, size: tuple[int, int]
) -> None:
    """The card grid's 9 mm takes width from the players' list, not its rules: at seven players
    with long names every name keeps 4 mm and every other text its size, nothing is cut, every
    control (the narrowed rows, the out button moved to the foot) keeps 9 mm on the 7" screen, and
    the names and the prompt stay out of the grid's arm-length exception."""
    from companion.display import audit

    view, ui = _cinq_rois_cards_at_seven(lang, mode)
    r = render("entry", view, size, lang, ui, audit=True)  # type: ignore[arg-type]
    p = r.painter
    assert not audit.caps(p)  # type: ignore[arg-type]
    assert not [rec.text for rec in p.texts if rec.cut]  # type: ignore[attr-defined]
    inside = [rec for rec in p.texts if any(a.contains(rec.rect) for a in p.arm)]  # type: ignore
    assert not [rec.text for rec in inside if rec.kind in ("name", "score", "headline")]
    assert sum(1 for c in p.controls if isinstance(c.action, GoOut)) >= 1  # type: ignore[attr-defined]
    if size == (800, 480):
        _what, per_mm, _m = viewing(size)
        small = [c for c in p.controls if min(c.rect.size) < TOUCH_MM * per_mm - 0.5]  # type: ignore
        assert not small, small


@pytest.mark.parametrize("size", [(800, 480), (480, 800), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_ten_ranks_set_aside_fit_their_line(size: tuple[int, int], lang: str) -> None:
    """At ten players ten ranks are dealt and two drawn out: the line holds all twelve and its
    reasons inside the screen, nothing cut, no control over another."""
    from tests.display.test_display import assert_contained

    game = ten_players()
    r = render("card", build_view(game), size, lang, ui_for(game, lang))
    assert_contained(r)
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    labels = {"fr": ("2", "V", "D", "R", "A", "10"), "en": ("2", "J", "Q", "K", "A", "10")}[lang]
    assert all(label in texts for label in labels)
    assert not any(rec.cut for rec in r.painter.texts)  # type: ignore[attr-defined]


def test_the_card_entry_retained_is_the_card_entry_drawn_anew() -> None:
    """The card entry as a scorer fills it (a rank, a suit, a refusal said, back to nothing), drawn
    on one surface with the memory of the last frame, is byte for byte a fresh draw, and its
    changed rects hold every pixel that changed (the suits are drawn through ``Painter.under``,
    so that the frame is kept: about 0.8 ms instead of 2.5 ms at 1920x1080)."""
    import copy

    from companion.display.layout import Fonts, Painter, Retained
    from companion.display.screens import draw

    pygame.font.init()
    fonts, fresh_fonts, memory = Fonts(), Fonts(), Retained()
    kept = 0
    for size in ((1920, 1080), (800, 480)):
        surface = pygame.Surface(size)
        before = surface.copy()
        for game in (ten_players(), five_players()):
            view = build_view(game)
            rank = next(r for r, why in view.rank_reasons.items() if why is None)
            ui = ui_for(game, "fr")
            steps = []
            for chosen, suit in ((None, None), (rank, None), (rank, "H")):
                kilo_ui(ui).rank, kilo_ui(ui).suit = chosen, suit
                steps += [copy.deepcopy(ui), copy.deepcopy(ui)]  # each state twice: kept, then left
            kilo_ui(ui).rank = kilo_ui(ui).suit = None
            ui.say(Text.pair(en="No", fr="Non"))
            steps += [copy.deepcopy(ui)]
            for step in steps:
                painter = Painter(surface, fonts, retained=memory)
                draw(painter, view, copy.deepcopy(step), "card")
                fresh = Painter(pygame.Surface(size), fresh_fonts)
                draw(fresh, view, copy.deepcopy(step), "card")
                where = f"{size} {kilo_ui(step).rank} {kilo_ui(step).suit}"
                assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(fresh._surface, "RGB"), (
                    where
                )
                assert painter.controls == fresh.controls, where
                if painter.changed is not None:
                    kept += 1
                    for rect in painter.changed:
                        before.blit(surface, rect, rect)
                    assert pygame.image.tobytes(before, "RGB") == pygame.image.tobytes(surface, "RGB"), where
                else:
                    before.blit(surface, (0, 0))
    assert kept >= 8  # the frame was kept: only what changed was drawn again
