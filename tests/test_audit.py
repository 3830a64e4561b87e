"""The legibility auditor audited: frames that break each rule of companion/display/audit.py,
drawn by the real painter in audit mode, must be reported, and frames that keep to it must not.

Every legibility test elsewhere asserts that a screen has no problems; without these, an auditor
that found nothing would pass them all.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from companion.display import audit
from companion.display.layout import Fonts, Painter, TextRecord
from companion.display.snapshot import headless_pygame
from companion.display.theme import BG, contrast

PLAYERS = ("Anne-Sophie Castelnaudry", "Anne-Sophie Chénier", "Bruno", "Chloé")


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    headless_pygame()
    return Fonts()


def frame(fonts: Fonts, size: tuple[int, int] = (800, 480)) -> Painter:
    surface = pygame.Surface(size)
    surface.fill(BG)
    return Painter(surface, fonts, audit=True)


def test_a_frame_that_keeps_every_rule_has_no_problems(fonts: Fonts) -> None:
    p = frame(fonts)
    tile = p.panel(pygame.Rect(20, 20, 360, 120))
    p.name("Bruno", PLAYERS, pygame.Rect(30, 30, 340, 50), p.font(40))
    p.text("12 kg", pygame.Rect(30, 90, 340, 40), p.font(24), color=(255, 255, 255))
    p.text("Au tour de Chloé", pygame.Rect(20, 300, 760, 60), p.font(36))
    assert tile.contains(p.texts[0].rect)
    assert audit.problems(p, PLAYERS) == []


# --- contained ------------------------------------------------------------------------------------

def test_a_text_wider_than_its_box_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    # _blit places the text as drawn, whatever the box: what a screen does when it skips fit().
    p._blit("Nouvelle manche", 60, pygame.Rect(300, 200, 80, 30), (255, 255, 255), "center",
            "center", "near", "text", None)
    found = audit.contained(p)
    assert any("leaves its box" in line for line in found), found
    assert any("leaves its box" in line for line in audit.problems(p))


def test_a_text_off_the_screen_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    p.text("Manche 3", pygame.Rect(700, 440, 300, 80), p.font(40), align="left")
    found = audit.contained(p)
    assert any("leaves the screen" in line for line in found), found


def test_a_text_cut_with_an_ellipsis_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    p.text("Une phrase bien trop longue pour une case si étroite", pygame.Rect(10, 10, 120, 40),
           40, min_size=30)
    assert p.texts[0].cut and p.texts[0].text.endswith("…")
    found = audit.contained(p)
    assert any("is cut" in line for line in found), found


# --- overlaps -------------------------------------------------------------------------------------

def test_two_texts_drawn_over_each_other_are_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    box = pygame.Rect(100, 100, 400, 60)
    p.text("Bruno pioche", box, 36)
    p.text("Chloé tape", box, 36)
    found = audit.overlaps(p)
    assert len(found) == 1 and "overlap" in found[0], found
    assert found[0] in audit.problems(p)


def test_a_shadow_and_stacked_lines_are_not_overlaps(fonts: Fonts) -> None:
    p = frame(fonts)
    box = pygame.Rect(100, 100, 400, 60)
    p.text("Bruno pioche", box, 36)
    p.text("Bruno pioche", box, 36)  # the same text in the same place: one text
    first = p.texts[0].rect
    # The next line starts inside the first one's font box but below its letters.
    below = pygame.Rect(100, first.bottom - first.height // 8, 400, first.height)
    p.text("Chloé tape", below, 36, valign="top")
    assert audit.overlaps(p) == []
    # ...and half a line lower it would sit on the letters.
    p.text("Dédé attend", pygame.Rect(100, first.top + first.height // 2, 400, first.height),
           36, valign="top")
    assert len(audit.overlaps(p)) >= 1


# --- contrasts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("grey,reported", [(124, True), (126, False), (60, True), (255, False)])
def test_contrast_under_four_and_a_half_to_one_is_reported(fonts: Fonts, grey: int,
                                                           reported: bool) -> None:
    p = frame(fonts)
    p.text("Manche 2", pygame.Rect(100, 100, 400, 80), 48, color=(grey, grey, grey))
    rec = p.texts[0]
    assert rec.bg == BG  # sampled from the frame under the text
    ratio = contrast((grey, grey, grey), BG)
    assert (ratio < 4.5) is reported
    found = audit.contrasts(p)
    assert bool(found) is reported, (ratio, found)
    if reported:
        assert f"{ratio:.2f}:1 < 4.5:1" in found[0]
        assert found[0] in audit.problems(p)


def test_contrast_is_judged_on_what_lies_under_the_text(fonts: Fonts) -> None:
    """White text legible on the background but drawn over a light panel is reported."""
    p = frame(fonts)
    p.panel(pygame.Rect(90, 90, 420, 100), color=(230, 230, 230))
    p.text("Manche 2", pygame.Rect(100, 100, 400, 80), 48, color=(255, 255, 255))
    assert audit.contrasts(p), p.texts[0].bg


# --- names ----------------------------------------------------------------------------------------

def record(text: str, rect: pygame.Rect, who: str | None, kind: str = "name", cap: int = 20,
           color: tuple[int, int, int] = (255, 255, 255)) -> TextRecord:
    return TextRecord(text, rect, pygame.Rect(rect), "near", 30, cap, color, BG,
                      kind, who)  # type: ignore[arg-type]


def test_a_name_under_the_name_size_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)  # 480 px: a name needs 3.5 % of it, 16.8 px
    p.table = PLAYERS
    p.texts.append(record("Bruno", pygame.Rect(10, 10, 60, 16), "Bruno"))
    found = audit.names(p)
    assert found == ["the name 'Bruno' is 16 px tall, under 17 px (3.5 % of 480 px)"], found
    p.texts[0] = record("Bruno", pygame.Rect(10, 10, 60, 17), "Bruno")
    assert audit.names(p) == []


def test_a_name_in_a_form_that_is_not_its_own_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    p.table = PLAYERS
    # "Anne-Sophie C." would name both Anne-Sophies: not one of Castelnaudry's forms.
    p.texts.append(record("Anne-Sophie C.", pygame.Rect(10, 10, 200, 30),
                          "Anne-Sophie Castelnaudry"))
    found = audit.names(p)
    assert any("is not one of its forms" in line for line in found), found


def test_one_form_standing_for_two_players_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    p.texts.append(record("Bruno", pygame.Rect(10, 10, 100, 30), "Bruno"))
    p.texts.append(record("Bruno", pygame.Rect(10, 100, 100, 30), "Chloé"))
    found = audit.names(p)
    assert "'Bruno' stands for ['Bruno', 'Chloé']" in found, found


def test_a_name_shortened_by_the_painter_keeps_to_the_rule(fonts: Fonts) -> None:
    """Painter.name shortens a long name to one of its own forms at the name size or above."""
    p = frame(fonts)
    p.name("Anne-Sophie Castelnaudry", PLAYERS, pygame.Rect(10, 10, 150, 40), 40)
    assert p.texts[0].text != "Anne-Sophie Castelnaudry"
    assert audit.names(p) == []


# --- name versus tile -----------------------------------------------------------------------------

def test_secondary_text_bigger_than_the_name_on_its_tile_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    tile = p.panel(pygame.Rect(20, 20, 360, 160))
    p.name("Bruno", PLAYERS, pygame.Rect(30, 30, 340, 40), p.name_size())
    p.text("100 kg", pygame.Rect(30, 80, 340, 90), 80)
    assert tile.contains(p.texts[1].rect)
    found = audit.name_vs_tile(p)
    assert len(found) == 1 and "is bigger than the name" in found[0], found
    assert found[0] in audit.problems(p, PLAYERS)
    # The same text off the tile is not the tile's business.
    q = frame(fonts)
    q.panel(pygame.Rect(20, 20, 360, 60))
    q.name("Bruno", PLAYERS, pygame.Rect(30, 30, 340, 40), q.name_size())
    q.text("100 kg", pygame.Rect(30, 200, 340, 90), 80)
    assert audit.name_vs_tile(q) == []


# --- plain names ----------------------------------------------------------------------------------

def test_a_player_name_drawn_as_plain_text_is_reported(fonts: Fonts) -> None:
    p = frame(fonts)
    p.text("Chloé", pygame.Rect(10, 10, 300, 50), 40)
    found = audit.plain_names(p, PLAYERS)
    assert found == ["'Chloé' is 'Chloé''s name drawn as plain text"], found
    assert found[0] in audit.problems(p, PLAYERS)
    assert audit.plain_names(p, ()) == []  # no table given: nothing to find
    q = frame(fonts)
    q.name("Chloé", PLAYERS, pygame.Rect(10, 10, 300, 50), 40)
    assert audit.plain_names(q, PLAYERS) == []


def test_problems_gathers_every_rule(fonts: Fonts) -> None:
    """One frame breaking all six rules gets six kinds of sentence."""
    p = frame(fonts)
    p._blit("Nouvelle manche", 60, pygame.Rect(300, 200, 80, 30), (255, 255, 255), "center",
            "center", "near", "text", None)
    p.text("Chloé", pygame.Rect(300, 200, 300, 50), 40, color=(60, 60, 60))
    tile = p.panel(pygame.Rect(20, 300, 300, 160))
    p.name("Bruno", PLAYERS, pygame.Rect(30, 310, 280, 30), p.name_size())
    p.text("100 kg", pygame.Rect(30, 350, 280, 100), 80)
    p.texts.append(record("Bruno", pygame.Rect(500, 20, 60, 12), "Dédé"))
    assert tile.contains(p.texts[-2].rect)
    found = " | ".join(audit.problems(p, PLAYERS))
    for words in ("leaves its box", "overlap", "contrast", "stands for", "bigger than the name",
                  "drawn as plain text", "px tall, under"):
        assert words in found, (words, found)
