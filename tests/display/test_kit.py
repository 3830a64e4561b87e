"""The kit of screen parts (companion/display/kit.py): the turn banner and the change marks.
The kit's tiles and game over are checked on each game's screens (tests/kit_checks.py,
tests/display/test_viewing_seven_inch.py)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display.kit import change_text, ordinal
from companion.display.names import name_forms
from companion.display.snapshot import SIZES, render, ui_for, view_of
from companion.display.theme import WARN, seat_color
from companion.games.cinq_rois.actions import DrawLots as CinqDrawLots
from companion.games.treize.actions import DrawLots as TreizeDrawLots
from tests.display.test_audit_legibility import states


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("screen", ["play", "take"])
def test_the_turn_banner_is_the_biggest_text(screen: str, size: tuple[int, int], lang: str) -> None:
    """Whoever must act, in their seat colour, bigger than anything else under the top bar,
    with a form of their name ("À Anne-Sophie Chénier-Roux", "À A.-S. Ch.")."""
    checked = 0
    for _sample, game in states("treize"):
        view = view_of(game)
        if view.turn is None or view.finished or not view.stacks:
            continue
        p = render(screen, view, size, lang, ui_for(game, lang), audit=True).painter
        heads = [r for r in p.texts if r.kind == "headline"]
        assert len(heads) == 1, [r.text for r in heads]
        head = heads[0]
        assert head.color == seat_color(view.seat_of(view.turn))
        assert any(form in head.text for form in name_forms(view.players)[view.turn])
        assert not head.cut
        rest = [r for r in p.texts if r is not head and r.rect.top >= head.box.top]
        assert head.cap > max(r.cap for r in rest), sorted((r.cap, r.text) for r in rest)[-2:]
        checked += 1
    assert checked


def test_change_marks_and_places() -> None:
    assert change_text(8) == "+8" and change_text(-28) == "\u221228"
    assert change_text(100, "kg") == "+100 kg"
    assert [ordinal(n, "fr") for n in (1, 2, 10)] == ["1er", "2e", "10e"]
    assert [ordinal(n, "en") for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "21st"]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_kilo_names_who_must_draw_in_the_banner(size: tuple[int, int], lang: str) -> None:
    """A draw owed: the drawer in the turn banner, in their seat colour; the tiles stay where
    they are when the banner goes (tests/games/kilo/test_screens_hierarchy.py: tiles keep their seat)."""
    checked = 0
    for _sample, game in states("kilo"):
        view = view_of(game)
        if view.awaiting != "draw" or not view.owed:
            continue
        p = render("table", view, size, lang, ui_for(game, lang), audit=True).painter
        heads = [r for r in p.texts if r.kind == "headline"]
        assert len(heads) == 1
        drawer = view.owed[0]
        assert heads[0].color == seat_color(view.players.index(drawer))
        assert any(form in heads[0].text for form in name_forms(view.players)[drawer])
        names = [r for r in p.texts if r.kind == "name"]
        assert heads[0].cap > max(r.cap for r in names)
        checked += 1
    assert checked


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_kilo_card_entry_names_who_draws_in_the_banner(size: tuple[int, int], lang: str) -> None:
    """Kilo's card entry is asked of whoever draws: the kit's turn banner names them in their
    seat colour, the biggest text under the top bar, as 13 feuilles' entries do; the question
    under it is no warning (yellow warns, docs/screen.md)."""
    checked = 0
    for _sample, game in states("kilo"):
        view = view_of(game)
        if view.awaiting != "draw" or not view.owed:
            continue
        p = render("card", view, size, lang, ui_for(game, lang), audit=True).painter
        heads = [r for r in p.texts if r.kind == "headline"]
        assert len(heads) == 1, [r.text for r in heads]
        head, drawer = heads[0], view.owed[0]
        assert head.color == seat_color(view.players.index(drawer))
        assert any(form in head.text for form in name_forms(view.players)[drawer])
        rest = [r for r in p.texts if r is not head and r.rect.top >= head.box.top]
        assert head.cap > max(r.cap for r in rest), sorted((r.cap, r.text) for r in rest)[-2:]
        assert not [r.text for r in p.texts if r.color == WARN]
        checked += 1
    assert checked


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_draw_lots_screens_are_one_part(size: tuple[int, int]) -> None:
    """Issue 23, finding 6 ("two draw-lots layouts"): Les Cinq Rois' first dealer and 13 feuilles'
    starter are drawn on one screen of the kit: the question as the one headline, in the
    colour of the next thing to do (not the warning's yellow), every player on a tile in
    seating order, the draw button along the foot at the same height."""
    from companion.display.theme import ACCENT

    found = {}
    for game in ("cinq-rois", "treize"):
        engine = dict(states(game))["lots"]
        p = render("lots", view_of(engine), size, "fr", ui_for(engine, "fr"), audit=True).painter
        heads = [r for r in p.texts if r.kind == "headline"]
        assert len(heads) == 1 and heads[0].color == ACCENT, [(r.text, r.color) for r in heads]
        assert [r.who for r in p.texts if r.kind == "name"] == list(engine.players)
        # Before anyone has scored, everybody shares first place (ties share a place).
        assert [r.text for r in p.texts if r.kind == "place"] == ["1er"] * len(engine.players)
        draw = [c.rect for c in p.controls if isinstance(c.action, (CinqDrawLots, TreizeDrawLots))]
        assert len(draw) == 1
        # In portrait the top bar's height follows its text, a question may wrap (each line
        # its own box) and the two buttons stack: the same part, not the same rectangles.
        found[game] = () if size[1] > size[0] else (heads[0].box, draw[0].top, draw[0].bottom)
    assert found["cinq-rois"] == found["treize"]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_cinq_rois_last_turns_name_whose_turn_in_the_banner(size: tuple[int, int], lang: str) -> None:
    """Issue 23, finding 3 ("s'expose !" 35 px, "Guillaume … à vous" 16 px): on Les Cinq Rois'
    last turns, whose last turn it is stands in the kit's turn banner, in their seat colour, the
    biggest text under the top bar."""
    from companion.games.cinq_rois.entry import RoundEntry
    from companion.games.cinq_rois.samples import entry_ui

    view, ui = entry_ui(lang, "lastturn")
    entry = ui.entry  # type: ignore[attr-defined]
    assert isinstance(entry, RoundEntry) and entry.pending
    now = entry.pending[0]
    p = render("lastturn", view, size, lang, ui, audit=True).painter  # type: ignore[arg-type]
    heads = [r for r in p.texts if r.kind == "headline"]
    head = next(r for r in heads if r.color == seat_color(view.players.index(now)))  # type: ignore[attr-defined]
    assert any(form in head.text for form in name_forms(view.players)[now])  # type: ignore[attr-defined]
    rest = [r for r in p.texts if r is not head and r.rect.top >= head.box.top]
    assert head.cap >= max(r.cap for r in rest), sorted((r.cap, r.text) for r in rest)[-2:]
