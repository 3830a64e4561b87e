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
from companion.display.theme import BG, PANEL, contrast

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
    p._blit(
        "Nouvelle manche",
        60,
        pygame.Rect(300, 200, 80, 30),
        (255, 255, 255),
        "center",
        "center",
        "near",
        "text",
        None,
    )
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
    p.text(
        "Une phrase bien trop longue pour une case si étroite", pygame.Rect(10, 10, 120, 40), 40, min_size=30
    )
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
    p.text(
        "Dédé attend", pygame.Rect(100, first.top + first.height // 2, 400, first.height), 36, valign="top"
    )
    assert len(audit.overlaps(p)) >= 1


# --- contrasts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("grey,reported", [(124, True), (126, False), (60, True), (255, False)])
def test_contrast_under_four_and_a_half_to_one_is_reported(fonts: Fonts, grey: int, reported: bool) -> None:
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


def record(
    text: str,
    rect: pygame.Rect,
    who: str | None,
    kind: str = "name",
    cap: int = 20,
    color: tuple[int, int, int] = (255, 255, 255),
) -> TextRecord:
    return TextRecord(text, rect, pygame.Rect(rect), "near", 30, cap, color, BG, kind, who)  # type: ignore[arg-type]


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
    p.texts.append(record("Anne-Sophie C.", pygame.Rect(10, 10, 200, 30), "Anne-Sophie Castelnaudry"))
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
    p._blit(
        "Nouvelle manche",
        60,
        pygame.Rect(300, 200, 80, 30),
        (255, 255, 255),
        "center",
        "center",
        "near",
        "text",
        None,
    )
    p.text("Chloé", pygame.Rect(300, 200, 300, 50), 40, color=(60, 60, 60))
    tile = p.panel(pygame.Rect(20, 300, 300, 160))
    p.name("Bruno", PLAYERS, pygame.Rect(30, 310, 280, 30), p.name_size())
    p.text("100 kg", pygame.Rect(30, 350, 280, 100), 80)
    p.texts.append(record("Bruno", pygame.Rect(500, 20, 60, 12), "Dédé"))
    assert tile.contains(p.texts[-2].rect)
    found = " | ".join(audit.problems(p, PLAYERS))
    for words in (
        "leaves its box",
        "overlap",
        "contrast",
        "stands for",
        "bigger than the name",
        "drawn as plain text",
        "px tall, under",
    ):
        assert words in found, (words, found)


# --- the edges of each rule (each test below failed on a mutant that survived the ones above) ----


def test_contrast_within_rounding_of_the_threshold_is_accepted(fonts: Fonts) -> None:
    """4.4998:1 shows as 4.50:1: accepted (the rule allows 0.005 for rounding), 4.494 is not."""
    p = frame(fonts)
    p.text("Manche 2", pygame.Rect(100, 100, 400, 80), 48, color=(119, 129, 100))
    assert 4.495 <= contrast((119, 129, 100), BG) < 4.5
    assert audit.contrasts(p) == []


def test_a_text_with_nothing_sampled_under_it_does_not_hide_the_next(fonts: Fonts) -> None:
    p = frame(fonts)
    p.texts.append(
        TextRecord(
            "hors champ",
            pygame.Rect(0, 0, 0, 0),
            pygame.Rect(0, 0, 0, 0),
            "near",
            30,
            20,
            (255, 255, 255),
            None,
        )
    )
    p.text("Manche 2", pygame.Rect(100, 100, 400, 80), 48, color=(60, 60, 60))
    assert len(audit.contrasts(p)) == 1


def test_ink_bands_side_by_side_and_stacked_at_the_edge(fonts: Fonts) -> None:
    """Texts touching side by side do not overlap; stacked 40 px lines overlap from 25 px apart
    (their ink bands are the middle two thirds, 7..33), not at 26."""
    p = frame(fonts)
    p.texts.extend(
        [
            record("Bruno", pygame.Rect(0, 0, 100, 40), None, "text"),
            record("pioche", pygame.Rect(100, 0, 100, 40), None, "text"),
            record("ensuite", pygame.Rect(0, 26, 100, 40), None, "text"),
        ]
    )
    assert audit.overlaps(p) == []
    p.texts.append(record("enfin", pygame.Rect(200, 25, 100, 40), None, "text"))
    p.texts.append(record("là", pygame.Rect(200, 0, 100, 40), None, "text"))
    assert len(audit.overlaps(p)) == 1


def test_the_same_words_in_two_places_and_a_shadow_over_a_third_text(fonts: Fonts) -> None:
    p = frame(fonts)
    p.texts.extend(
        [
            record("Bruno", pygame.Rect(0, 0, 100, 40), None, "text"),
            record("Bruno", pygame.Rect(10, 5, 100, 40), None, "text"),
        ]
    )
    assert len(audit.overlaps(p)) == 1  # the same words, not the same place: two texts
    q = frame(fonts)
    q.texts.extend(
        [
            record("Bruno", pygame.Rect(0, 0, 100, 40), None, "text"),
            record("Bruno", pygame.Rect(0, 0, 100, 40), None, "text"),
            record("pioche", pygame.Rect(20, 0, 100, 40), None, "text"),
        ]
    )
    assert len(audit.overlaps(q)) == 2  # the text and its shadow each overlap "pioche"


def test_a_name_exactly_at_the_name_size_passes() -> None:
    """At 800x500 a name needs 17.5 px (less half a pixel for rounding): 17 passes, 16 fails."""
    headless_pygame()
    p = Painter(pygame.Surface((800, 500)), Fonts(), audit=True)
    p.texts.append(record("Bruno", pygame.Rect(10, 10, 60, 17), "Bruno"))
    assert audit.names(p) == []
    p.texts.append(record("Chloé", pygame.Rect(10, 40, 60, 16), "Chloé"))
    assert len(audit.names(p)) == 1


def test_only_names_are_held_to_the_name_rules(fonts: Fonts) -> None:
    p = frame(fonts)
    # A plain text tagged with a player (a tag under the name) is not a name.
    p.texts.append(record("commence", pygame.Rect(10, 10, 60, 10), "Bruno", "text"))
    assert audit.names(p) == []


def _tile_frame(fonts: Fonts, tile: pygame.Rect, big: int) -> Painter:
    p = frame(fonts)
    p.panel(pygame.Rect(0, 0, 800, 480))  # the screen's own panel, bigger than any tile
    p.panel(tile, color=PANEL)
    p.name("Bruno", PLAYERS, pygame.Rect(tile.x + 10, tile.y + 5, tile.w - 20, 30), p.name_size())
    p.text("100 kg", pygame.Rect(tile.x + 10, tile.y + 40, tile.w - 20, tile.h - 45), big)
    return p


def test_the_tile_is_the_smallest_panel_around_the_name(fonts: Fonts) -> None:
    """A wide, low tile inside the screen's panel: the tile is the smaller by area (not the
    first by position, nor the narrower by shape), and a tile up to half the screen counts."""
    for tile in (
        pygame.Rect(20, 300, 400, 100),
        pygame.Rect(20, 200, 300, 200),
        pygame.Rect(20, 200, 300, 240),
    ):
        p = _tile_frame(fonts, tile, 60)
        found = audit.name_vs_tile(p)
        assert len(found) == 1 and "bigger than the name" in found[0], (tile, found)


def test_secondary_text_as_big_as_the_name_is_fine(fonts: Fonts) -> None:
    p = frame(fonts)
    tile = p.panel(pygame.Rect(20, 20, 360, 160))
    size = p.name_size()
    p.name("Bruno", PLAYERS, pygame.Rect(30, 30, 340, 40), size)
    p.text("100 kg", pygame.Rect(30, 80, 340, 60), size)
    assert p.texts[0].cap == p.texts[1].cap and tile.contains(p.texts[1].rect)
    assert audit.name_vs_tile(p) == []


def test_a_name_off_any_tile_does_not_stop_the_check_of_the_next(fonts: Fonts) -> None:
    p = frame(fonts)
    p.name("Chloé", PLAYERS, pygame.Rect(500, 20, 250, 40), p.name_size())  # on no panel
    tile = p.panel(pygame.Rect(20, 300, 300, 160))
    p.name("Bruno", PLAYERS, pygame.Rect(30, 310, 280, 30), p.name_size())
    p.text("100 kg", pygame.Rect(30, 350, 280, 100), 80)
    assert tile.contains(p.texts[-1].rect)
    assert len(audit.name_vs_tile(p)) == 1


def test_a_name_typed_in_a_field_is_not_a_plain_name(fonts: Fonts) -> None:
    """The setup's fields show the names being typed (kind "field"): not a name drawn as plain
    text, while the same name as a plain text is."""
    p = frame(fonts)
    p.texts.append(record("Chloé", pygame.Rect(10, 10, 200, 40), "Chloé", "field"))
    assert audit.plain_names(p, PLAYERS) == []
    p.texts.append(record("Chloé", pygame.Rect(10, 100, 200, 40), None, "text"))
    assert audit.plain_names(p, PLAYERS) == ["'Chloé' is 'Chloé''s name drawn as plain text"]


# --- cap heights in millimetres, at the distance the screen is read from --------------------------

SEVEN = '7" touchscreen at 2 m'
TV = '40" TV at 3 m'
SCORE = "a score or headline needs a cap height of"
NAME = "a name needs a cap height of"
READ = "read from a seat, it needs a cap height of"


def capped(fonts: Fonts, size: tuple[int, int], *texts: tuple[str, str, int]) -> Painter:
    """A frame holding each (text, kind, cap height in px), one under the other."""
    p = frame(fonts, size)
    for i, (text, kind, cap) in enumerate(texts):
        p.texts.append(record(text, pygame.Rect(10, 10 + 60 * i, 200, 50), None, kind, cap))
    return p


def test_the_7_inch_screen_is_read_from_2_m(fonts: Fonts) -> None:
    """800x480 is the 7" panel (5.25 px a mm) read from 2 m: a score or headline needs 6.7 mm
    (35 px), a name 4 mm (21 px), anything else 3.5 mm (18 px); one pixel less is reported, in
    millimetres, and the size asked for passes."""
    small = capped(
        fonts, (800, 480), ("100", "score", 34), ("Manche 3", "headline", 34), ("Bruno", "name", 20)
    )
    small.texts.append(record("pioche", pygame.Rect(300, 10, 200, 50), None, "text", 17))
    assert audit.caps(small) == [
        f"'100': {SCORE} 6.7 mm (35 px on the {SEVEN}), it has 34 px (6.5 mm)",
        f"'Manche 3': {SCORE} 6.7 mm (35 px on the {SEVEN}), it has 34 px (6.5 mm)",
        f"'Bruno': {NAME} 4.0 mm (21 px on the {SEVEN}), it has 20 px (3.8 mm)",
        f"'pioche': {READ} 3.5 mm (18 px on the {SEVEN}), it has 17 px (3.2 mm)",
    ]
    enough = capped(fonts, (800, 480), ("100", "score", 35), ("Bruno", "name", 21), ("pioche", "text", 18))
    assert audit.caps(enough) == []
    # Turned a quarter (480x800), it is the same panel read from the same seats.
    assert audit.caps(capped(fonts, (480, 800), ("100", "score", 34)))[0].endswith(
        f"(35 px on the {SEVEN}), it has 34 px (6.5 mm)"
    )


def test_a_tv_is_read_from_3_m_so_its_type_is_half_as_tall_again(fonts: Fonts) -> None:
    """Any other size is a 40" TV (1280 px over 886 mm: 1.45 px a mm) read from 3 m: every
    height is 1.5 times the 2 m figure (a score 10 mm, 14 px at 1280x720). Judged at 2 m, a
    score of 13 px (9 mm) would pass."""
    small = capped(fonts, (1280, 720), ("100", "score", 13), ("Bruno", "name", 8), ("pioche", "text", 7))
    assert audit.caps(small) == [
        f"'100': {SCORE} 10.0 mm (14 px on the {TV}), it has 13 px (9.0 mm)",
        f"'Bruno': {NAME} 6.0 mm (9 px on the {TV}), it has 8 px (5.5 mm)",
        f"'pioche': {READ} 5.2 mm (8 px on the {TV}), it has 7 px (4.8 mm)",
    ]
    assert (
        audit.caps(capped(fonts, (1280, 720), ("100", "score", 14), ("Bruno", "name", 9), ("x", "text", 8)))
        == []
    )
    # 800 px wide but not 480 tall is not the 7" panel: a TV, read from 3 m.
    assert TV in audit.caps(capped(fonts, (800, 600), ("100", "score", 8)))[0]


def test_a_cap_height_within_half_a_pixel_of_the_need_passes(fonts: Fonts) -> None:
    """A TV 1107 px wide is 1.25 px a mm: a score needs 12.5 px, a name 7.5 px to the bit. Cap
    heights are whole pixels, so half a pixel under is the rounding's, and passes; one more is
    reported."""
    assert audit.caps(capped(fonts, (1107, 600), ("100", "score", 12), ("Bruno", "name", 7))) == []
    assert audit.caps(capped(fonts, (1107, 600), ("100", "score", 11), ("Bruno", "name", 6))) == [
        f"'100': {SCORE} 10.0 mm (12 px on the {TV}), it has 11 px (8.8 mm)",
        f"'Bruno': {NAME} 6.0 mm (8 px on the {TV}), it has 6 px (4.8 mm)",
    ]


def test_buttons_and_arm_length_keep_only_the_score_and_name_rules(fonts: Fonts) -> None:
    """A button's label is read by whoever touches it, and so is a text inside one of the
    scorer's entry grids or on a screen read at arm's length: small plain text there is fine,
    small scores and names are not."""
    from companion.display.layout import Control

    p = capped(fonts, (800, 480), ("OK", "text", 10), ("grille", "text", 10), ("note", "text", 10))
    p.controls.append(Control(pygame.Rect(0, 0, 400, 65), "ok"))  # type: ignore[arg-type]
    p.arm.append(pygame.Rect(0, 65, 400, 60))
    found = audit.caps(p)
    assert found == [f"'note': {READ} 3.5 mm (18 px on the {SEVEN}), it has 10 px (1.9 mm)"]
    assert audit.caps(p, arm_length=True) == []
    q = capped(fonts, (800, 480), ("100", "score", 10), ("Bruno", "name", 10), ("note", "text", 10))
    q.controls.append(Control(pygame.Rect(0, 0, 400, 400), "ok"))  # type: ignore[arg-type]
    assert [line.split(":")[0] for line in audit.caps(q, arm_length=True)] == ["'100'", "'Bruno'"]
