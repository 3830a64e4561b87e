"""The legibility rules (docs/screen.md) on every screen x size x language x game, drawn with
the most players each game allows, every name 24 characters long with accents.

The rules are computed from what the painter drew (text boxes, sizes, colours and the colours
under them): see ``companion/display/audit.py``.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import importlib
import itertools
import json
from functools import cache
from typing import Any

import pytest

from companion.display import audit
from companion.display.names import EVENING_CHARS, name_forms, reads_as
from companion.display.snapshot import SIZES, render, screens, ui_for, view_of
from companion.display.state import SETUP_PAGES, Ui
from companion.display.theme import (
    BG,
    MEANING,
    PANEL,
    PANEL_HI,
    SEAT_COLORS,
    SHAPES,
    color_distance,
    contrast,
)
from companion.games import GAMES
from companion.table.fold import replay

# 24 characters each, accents, shared first names and initials: the hardest table there is.
LONG = [
    "Anne-Sophie Castelnaudry",
    "Anne-Sophie Chénier-Roux",
    "Jean-François Lefèbvre-D",
    "Marie-Hélène Duchâteau-L",
    "Éloïse Bérénice Montcalm",
    "Maximilien-Alexandre Zoé",
    "Frédérique Aubépine-Gras",
    "Héloïse Marguerite Noëls",
    "Jean-François Léonard-Ba",
    "Bénédicte Île-de-Ré Élan",
]
PACKAGES = {name: info.package for name, info in GAMES.items()}


def long_names(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sample with every player renamed to a long name (longest names replaced first, so
    that no name is replaced inside another)."""
    players = list(events[0]["players"])
    text = json.dumps(events, ensure_ascii=False)
    for name in sorted(players, key=len, reverse=True):
        text = text.replace(
            json.dumps(name, ensure_ascii=False), json.dumps(LONG[players.index(name)], ensure_ascii=False)
        )
    return json.loads(text)


@cache
def states(game: str) -> list[tuple[str, Any]]:
    """Each sample of ``game`` with long names, replayed: (sample name, engine)."""
    samples = importlib.import_module(f"{PACKAGES[game]}.samples").SAMPLES
    out = []
    for name, make in samples.items():
        events = long_names(make())
        engine = replay(json.dumps(e, ensure_ascii=False) for e in events)
        out.append((name, engine))
    return out


CASES = [(game, screen) for game in GAMES for screen in screens(game)]


def uis(engine: Any, screen: str, lang: str) -> list[Ui]:
    """The screen's states to check for a game: one, or each page of the setup."""
    if screen != "setup":
        return [ui_for(engine, lang)]
    out = []
    for page in SETUP_PAGES:
        ui = ui_for(engine, lang)
        ui.setup.page = page
        out.append(ui)
    return out


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("game", "screen"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_every_screen_is_legible(game: str, screen: str, lang: str) -> None:
    found: list[str] = []
    for (sample, engine), size in itertools.product(states(game), SIZES):
        for ui in uis(engine, screen, lang):
            r = render(screen, view_of(engine), size, lang, ui, audit=True)
            for problem in audit.problems(r.painter, engine.players):  # type: ignore[arg-type]
                page = f" {ui.setup.page}" if screen == "setup" else ""
                found.append(f"{sample}{page} {size[0]}x{size[1]}: {problem}")
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:40])


# --- colours -------------------------------------------------------------------------------


def test_seats_are_distinct_by_colour_and_by_shape() -> None:
    assert len(SEAT_COLORS) == len(SHAPES) == 10
    assert len(set(SHAPES)) == 10  # a colour-blind player tells seats apart by shape alone
    for a, b in itertools.combinations(SEAT_COLORS, 2):
        assert color_distance(a, b) >= 25, (a, b)
    for seat in SEAT_COLORS:
        for surface in (BG, PANEL, PANEL_HI):
            assert contrast(seat, surface) >= 3, (seat, surface)  # a mark must be seen


def test_colours_that_mean_something_are_no_seat_colour() -> None:
    for (name, meaning), seat in itertools.product(MEANING.items(), SEAT_COLORS):
        assert color_distance(meaning, seat) >= 25, (name, meaning, seat)
    for a, b in itertools.combinations(MEANING.values(), 2):
        assert color_distance(a, b) >= 25, (a, b)
    for meaning in MEANING.values():
        assert contrast(meaning, PANEL) >= 4.5  # also used as text


# --- names ---------------------------------------------------------------------------------


def test_names_shorten_the_way_a_table_does() -> None:
    """One short form per player for the evening (issue 23, finding 4: "Anne-Sophie Ca.",
    then "A.-S. Ca." on another screen): the full name where there is room, else that one."""
    forms = name_forms(tuple(LONG))
    assert forms["Anne-Sophie Castelnaudry"] == ("Anne-Sophie Castelnaudry", "A.-S. Ca.")
    assert forms["Éloïse Bérénice Montcalm"] == ("Éloïse Bérénice Montcalm", "Éloïse")
    assert forms["Jean-François Lefèbvre-D"] == ("Jean-François Lefèbvre-D", "J.-F. Le.")
    assert forms["Jean-François Léonard-Ba"] == ("Jean-François Léonard-Ba", "J.-F. Lé.")
    for name, own in forms.items():
        assert len(own) <= 2 and (len(own[-1]) <= EVENING_CHARS or len(own[-1]) <= 9)
        for form in own:
            assert "…" not in form
            assert reads_as(form, name), (form, name)
            others = [o for o in LONG if o != name]
            assert not any(reads_as(form, o) for o in others), (form, name)
    assert len({own[-1] for own in forms.values()}) == len(LONG)  # unique at the table


def test_a_lone_first_name_is_kept_whole() -> None:
    forms = name_forms(("Alice", "Bruno", "Maximilien-Alexandre", "Jean-Baptiste"))
    assert forms["Alice"] == ("Alice",)
    assert forms["Maximilien-Alexandre"] == ("Maximilien-Alexandre", "M.-A.")
    # Issue 23, finding 4: "Jean-B." with only one Jean at the table. He is Jean; "Jean-B."
    # only where another Jean sits.
    assert forms["Jean-Baptiste"] == ("Jean-Baptiste", "Jean")
    two = name_forms(("Alice", "Jean Dupont", "Jean-Baptiste Lefèbvre"))
    assert two["Jean-Baptiste Lefèbvre"] == ("Jean-Baptiste Lefèbvre", "Jean-B.")
    assert two["Jean Dupont"] == ("Jean Dupont", "Jean D.")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_player_has_one_name_on_every_screen(lang: str) -> None:
    """Every screen of every game, every size, both languages: a player is shown by their full
    name or by their one short form, never a third (finding 4: "Anne-Sophie Ca." on one screen,
    "A.-S. Ca." on the next; "Marie-T." in French and "Marie-Thérèse" in English)."""
    shown: dict[tuple[str, str, str], set[str]] = {}  # one table: a game's sample
    for game in GAMES:
        for sample, engine in states(game):
            for screen, size in itertools.product(screens(game), SIZES):
                r = render(screen, view_of(engine), size, lang, ui_for(engine, lang))
                for rec in r.painter.texts:  # type: ignore[attr-defined]
                    if rec.kind == "name" and rec.who:
                        shown.setdefault((game, sample, rec.who), set()).add(rec.text)
    many = {who: sorted(forms) for who, forms in shown.items() if len(forms - {who[2]}) > 1}
    assert not many, many


def test_a_name_in_a_short_row_keeps_its_longest_fitting_form() -> None:
    """Regression: a row too short for the name size showed "F." for Frédérique Aubépine-Gras
    (the shortest form) where "Frédérique A." fitted the width at the size the row allowed."""
    import pygame

    from companion.display.layout import Fonts, Painter

    pygame.font.init()
    p = Painter(pygame.Surface((800, 480)), Fonts())
    p.name("Frédérique Aubépine-Gras", LONG, pygame.Rect(0, 0, 140, 14), 26)
    assert p.texts[-1].text == "Frédérique Aubépine-Gras" and p.texts[-1].rect.height <= 14
    p.name("Frédérique Aubépine-Gras", LONG, pygame.Rect(0, 0, 40, 14), 26)
    assert p.texts[-1].text == "F. A."  # only initials fit: still never cut
