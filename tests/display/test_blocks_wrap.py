"""How a sentence breaks into lines (issue 23, finding 7): never between two words that read as
one ("= il passe", "12 %", "« mot »", a key and what it does), never leaving one word alone
under a full line when the line above can give it company, and never losing a line without a
word when the box cannot hold them all (the legibility audit must see it)."""

from __future__ import annotations

import itertools
import os

from companion.display.app_actions import Nav

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame
import pytest

from companion.display import audit
from companion.display.blocks import lines_text, two_lines
from companion.display.layout import Fonts, Painter, glued

SIZE = 20
WIDTHS = range(60, 700, 7)


@pytest.fixture(scope="module")
def painter() -> Painter:
    pygame.font.init()
    return Painter(pygame.Surface((800, 480)), Fonts())


def wide(p: Painter, text: str) -> int:
    return p.fonts.size(text, SIZE)[0]


# Pairs a line must never separate, written with plain spaces as a catalogue might.
TOGETHER = ("12 %", "3 kg", "140 ms,", "« mot", "mot »", "= il", "→ GPIO", "· P", "S matériel", "2 … 9")
# The groups of SENTENCE that no line breaks.
GROUPS = ("12 %", "3 kg,", "140 ms,", "« mot »", "= il", "→ GPIO", "· P tas", "· S matériel,", "2 … 9")
SENTENCE = "Le tas fait 12 % et pèse 3 kg, 140 ms, « mot » = il passe → GPIO 17 · P tas · S matériel, 2 … 9"


def test_glued_words_stay_on_one_line(painter: Painter) -> None:
    for pair in TOGETHER:
        words = pair.split(" ")
        assert all(glued(a, b) for a, b in itertools.pairwise(words)), pair
    # A group wider than the line may break: from the widest group's width on, none does.
    least = max(wide(painter, group) for group in GROUPS)
    assert least < 150
    for width in range(least, 700, 7):
        lines = painter.wrap_lines(SENTENCE, width, SIZE)
        assert " ".join(lines) == SENTENCE
        for pair in TOGETHER:
            assert any(pair in line for line in lines), (width, pair, lines)


def test_words_that_do_not_read_as_one_may_break() -> None:
    for pair in ("joue maintenant", "12 joueurs", "Anne =", "tas ·", "GPIO 17", "kg et", "tas ·"):
        assert not glued(*pair.split(" ")), pair


def test_non_breaking_spaces_never_break(painter: Painter) -> None:
    text = "Vert\u202f: suites\u202f; «\u202fjoker\u202f» 12\u00a0% Anne-Sophie\u00a0Castelnaudry"
    for width in range(10, 500, 5):
        for line in painter.wrap_lines(text, width, SIZE):
            assert not line.startswith((":", ";", "»", "%", "\u202f", "Castelnaudry")), (width, line)


def test_a_group_wider_than_the_line_breaks_between_its_words(painter: Painter) -> None:
    text = "= Anne-Sophie-Castelnaudry"
    width = wide(painter, "Anne-Sophie-Castelnaudry") + 2
    assert wide(painter, text) > width
    assert painter.wrap_lines(text, width, SIZE) == ["=", "Anne-Sophie-Castelnaudry"]


def test_a_last_word_alone_takes_the_word_above(painter: Painter) -> None:
    """The issue's "= il / passe": a greedy fill put "passe" alone under "… = il"."""
    text = "Bouton d’un joueur ou toucher son nom = il passe"
    width = wide(painter, "Bouton d’un joueur ou toucher son nom = il") + 2
    assert wide(painter, text) > width
    assert painter.wrap_lines(text, width, SIZE) == ["Bouton d’un joueur ou toucher son nom", "= il passe"]
    text = "T table · P tas · G courbes · Tab écran suivant"
    width = wide(painter, "T table · P tas · G courbes · Tab écran") + 2
    lines = painter.wrap_lines(text, width, SIZE)
    assert len(lines) == 2 and len(lines[-1].split()) >= 2, lines


def test_words_held_by_a_non_breaking_space_are_company(painter: Painter) -> None:
    """Kilo's slap button keeps "de Jean-F." together with a non-breaking space: two words on
    the last line, nothing to pull down."""
    text = "Saisir la carte de\u00a0Jean-F."
    width = wide(painter, "Saisir la carte de") + 2
    assert painter.wrap_lines(text, width, SIZE) == ["Saisir la carte", "de\u00a0Jean-F."]


def test_no_last_word_alone_at_any_width(painter: Painter) -> None:
    text = "Touchez un nom pour le changer et appuyez sur Entrée pour commencer la partie"
    for width in WIDTHS:
        lines = painter.wrap_lines(text, width, SIZE)
        assert " ".join(lines) == text
        if len(lines) >= 2 and len(lines[-2].split()) >= 3:
            moved = f"{lines[-2].split()[-1]} {lines[-1]}"
            assert len(lines[-1].split()) > 1 or wide(painter, moved) > width, (width, lines)
        # Pulling a word down never makes a line wider than the width or adds a line.
        assert all(wide(painter, line) <= width for line in lines if " " in line), (width, lines)


def test_two_lines_do_not_break_what_reads_as_one(painter: Painter) -> None:
    """The most balanced break of "Touche Entrée = valider la tape" is after "=" (the two
    halves closest in width); two_lines takes the next best."""
    text = "Touche Entrée = valider la tape"
    words = text.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    best = min(splits, key=lambda s: max(wide(painter, s[0]), wide(painter, s[1])))
    assert best[0].endswith("=")  # the case this test is about
    lines = two_lines(painter, text, SIZE, 1000)
    assert not lines[0].endswith("=") and " ".join(lines) == text, lines


def test_two_lines_leave_no_word_alone_after_a_mark(painter: Painter) -> None:
    text = "Anne joue le roi de cœur, maintenant"
    lines = two_lines(painter, text, SIZE, 1000)
    assert len(lines) == 2 and len(lines[1].split()) >= 2, lines


def test_a_sentence_its_box_cannot_hold_is_cut_and_says_so(painter: Painter) -> None:
    p = Painter(pygame.Surface((800, 480)), painter.fonts, audit=True)
    text = "Donne 11 : 13 cartes, atout R, et Anne-Sophie Castelnaudry distribue"
    # Two lines at the least size (lines_text goes down to 10 px before it gives up).
    box = pygame.Rect(10, 10, 100, 2 * p.line_height(10) + 1)
    lines_text(p, text, box, 18, (255, 255, 255), 18)
    assert len(p.texts) == 2, [r.text for r in p.texts]
    assert p.texts[-1].rect.bottom <= box.bottom + 1
    last = p.texts[-1]
    assert last.cut and last.text.endswith("…"), last.text
    assert text.startswith(" ".join(r.text for r in p.texts)[:-1])
    assert any("is cut" in problem for problem in audit.contained(p))


def test_a_paragraph_its_box_cannot_hold_is_cut_and_says_so(painter: Painter) -> None:
    p = Painter(pygame.Surface((800, 480)), painter.fonts, audit=True)
    text = "Touchez un nom pour le changer et appuyez sur Entrée pour commencer la partie"
    box = pygame.Rect(10, 10, 150, 2 * p.line_height(16) + 1)
    used = p.paragraph(text, box, 16, min_size=16)
    assert used == 2 * p.line_height(16)
    assert [r.cut for r in p.texts] == [False, True] and p.texts[-1].text.endswith("…")
    assert any("is cut" in problem for problem in audit.contained(p))


def test_a_wide_button_its_label_overflows_is_cut_and_says_so(painter: Painter) -> None:
    """``kit.wide_button`` drew every line at 14 px even past its button, and recorded no cut
    (the wrap audit saw it): the lines it cannot hold are now cut and recorded, inside it."""
    from companion.display import kit

    p = Painter(pygame.Surface((800, 480)), painter.fonts, audit=True)
    label = "Saisir la donne de Anne-Sophie Castelnaudry et de Jean-Baptiste Lefèbvre maintenant"
    button = pygame.Rect(10, 10, 120, 80)
    kit.wide_button(p, button, label, Nav("entry"), (70, 200, 110), "E", 30)
    label_lines = [r for r in p.texts if r.text != "E"]
    assert all(button.contains(r.rect) for r in label_lines), [(r.text, r.rect) for r in label_lines]
    assert label_lines[-1].cut and label_lines[-1].text.endswith("…")
    assert any("is cut" in problem for problem in audit.contained(p))


def test_a_sentence_that_fits_is_whole_and_not_cut(painter: Painter) -> None:
    p = Painter(pygame.Surface((800, 480)), painter.fonts, audit=True)
    text = "Donne 11 : 13 cartes, atout R"
    lines_text(p, text, pygame.Rect(10, 10, 160, 200), 18, (255, 255, 255), 18)
    assert " ".join(r.text for r in p.texts) == text and not any(r.cut for r in p.texts)


def test_the_rules_key_lists_keep_each_key_with_what_it_does(painter: Painter) -> None:
    """The rules pages' key lists: "Tab" (three letters, not glued as a one-letter key is) is
    held to "écran suivant" / "next screen" by the catalogue's non-breaking space (the audit saw
    "… · Tab" / "écran suivant")."""
    import companion.games.cinq_rois.strings
    import companion.games.treize.strings  # noqa: F401 (their catalogues)
    from companion.i18n import t

    for game in ("kilo", "cinq-rois", "treize"):
        for lang in ("fr", "en"):
            line = next(x for x in t(f"scr.rules.keys.{game}", lang).splitlines() if "Tab" in x)
            for width in WIDTHS:
                for wrapped in painter.wrap_lines(line, width, SIZE):
                    assert not wrapped.endswith("Tab"), (game, lang, width, wrapped)
