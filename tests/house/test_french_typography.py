"""French typography and French words: what a French player reads.

A narrow no-break space (U+202F) stands before : ; ! ? and inside « », in the catalogue (every
game's strings loaded), in the errors' French halves, and on every French screen; and no English
word shows through on a French screen.
"""

from __future__ import annotations

import importlib
import re

import pytest

from companion import games
from companion.errors import CompanionError, LogError
from companion.i18n import CATALOGUE, french_typography, t
from companion.inputs.base import SourceStatus
from companion.text import Text

NNBSP = "\u202f"
_FIELD = re.compile(r"\{[^{}]*(\{[^{}]*\}[^{}]*)*\}")  # "{name}", "{n:>2}", "{name:<{width}}"
# A mark that is not French punctuation, with the reason it needs no space:
_NOT_PUNCTUATION = [
    (re.compile(r"[a-z]+://"), "a URL's scheme (http://)"),
    (re.compile(r"\d:\d"), "a time or a ratio (12:30)"),
]


def _typography_faults(text: str) -> list[str]:
    """Each : ; ! ? not preceded by U+202F, and each « » without it inside."""
    for pattern, _reason in _NOT_PUNCTUATION:
        text = pattern.sub("", text)
    faults = []
    for m in re.finditer(r"[:;!?«»]", text):
        i, mark = m.start(), m.group()
        ok = (text[i + 1 : i + 2] == NNBSP) if mark == "«" else (text[i - 1 : i] == NNBSP)
        if not ok:
            faults.append(text[max(0, i - 12) : i + 4])
    return faults


def _all_games_loaded() -> None:
    for name in games.GAMES:
        games.load(name)  # registers the game's strings in the catalogue


def test_every_french_catalogue_string_has_the_narrow_no_break_space() -> None:
    _all_games_loaded()
    bad = {}
    for key, (fr, _en) in CATALOGUE.items():
        # Format fields are not text: "{n:>2}", "{value!r}", "{ace:.0%}".
        faults = _typography_faults(_FIELD.sub("x", fr))
        if faults:
            bad[key] = faults
    assert not bad, bad


def test_the_english_catalogue_is_left_as_english_writes_it() -> None:
    _all_games_loaded()
    assert not [key for key, (_fr, en) in CATALOGUE.items() if NNBSP in en]
    assert t("pile", "en", count=2, bottom=0).startswith("Pile: 2 cards")


def test_french_typography_leaves_what_is_not_a_sentence() -> None:
    assert french_typography("Tas : 4 cartes ; Tape ! Qui ? « oui »") == (
        "Tas\u202f: 4 cartes\u202f; Tape\u202f! Qui\u202f? «\u202foui\u202f»"
    )
    for text in ("http://example.org", "12:30", "{n:>2}", "{value!r}", "`companion demo`"):
        assert french_typography(text) == text
    twice = french_typography(french_typography("a : b"))
    assert twice == "a\u202f: b"


def test_errors_and_hardware_notes_carry_french_typography_however_built() -> None:
    err = CompanionError(Text.pair(en="the pile: empty", fr=f"le tas : {'vide'} ; fin !"))
    assert err.message("fr") == "le tas\u202f: vide\u202f; fin\u202f!"
    assert err.message("en") == "the pile: empty"
    line = LogError(3, Text.pair(en="bad event", fr="mauvais événement"))
    assert line.message("fr") == "ligne 3\u202f: mauvais événement"
    assert str(line) == "line 3: bad event"
    note = SourceStatus("gpio", "stuck", 0, "Stuck: seat 1", "Coincé : place 1")
    assert note.fr == "Coincé\u202f: place 1" and note.en == "Stuck: seat 1"


# --- every French screen -------------------------------------------------------------------

# Words that only English puts on a screen. "score" is not among them: "Feuille de scores" and
# "Scores" are French too. Card letters (A, K, Q, J...) and units (ms, kg) are not words here.
TELLTALE_ENGLISH = re.compile(r"keyboard|player|round|undo|\bthe\b|\band\b|\bor\b", re.I)


def _french_screen_texts() -> dict[str, set[str]]:
    """Every text drawn on every screen of every game in French, from each game's sample logs,
    with no game, and with buttons in trouble; text -> where it was drawn."""
    from companion.display.snapshot import render, sample_lines, screens, ui_for, view_of
    from companion.table.fold import replay

    drawn: dict[str, set[str]] = {}

    def draw(screen: str, view: object, ui: object, where: str) -> None:
        for size in ((1280, 720), (800, 480)):
            rendered = render(screen, view, size, "fr", ui)  # type: ignore[arg-type]
            for rec in rendered.painter.texts:  # type: ignore[attr-defined]
                drawn.setdefault(rec.text, set()).add(f"{where}/{screen}")

    for name, info in games.GAMES.items():
        games.load(name)
        samples = importlib.import_module(info.package + ".samples").SAMPLES
        for sample, make in samples.items():
            engine = replay(sample_lines(make()))
            for screen in screens(name):
                draw(screen, view_of(engine), ui_for(engine, "fr"), f"{name}/{sample}")
        # The buttons in trouble: unplugged, a stuck button, the source's own notes.
        ui = ui_for(engine, "fr")
        hw = ui.hardware
        hw.source, hw.connected = "gpio+keyboard", False
        stuck = SourceStatus(
            "gpio", "stuck", 0, "The button of seat 1 is held down.", "Le bouton de la place 1 reste enfoncé."
        )
        hw.stuck[0] = Text.pair(en="seat 1", fr="place 1")
        hw.notes.append(stuck.text)
        for screen in screens(name):
            draw(screen, view_of(engine), ui, f"{name}/hardware")
    for screen in screens("kilo"):
        draw(screen, None, None, "no game")
    return drawn


@pytest.fixture(scope="module")
def french_screens() -> dict[str, set[str]]:
    return _french_screen_texts()


def test_no_english_word_on_a_french_screen(french_screens: dict[str, set[str]]) -> None:
    english = {
        text: sorted(where)[:3] for text, where in french_screens.items() if TELLTALE_ENGLISH.search(text)
    }
    assert not english, english


def test_french_screens_carry_the_narrow_no_break_space(french_screens: dict[str, set[str]]) -> None:
    bad = {text: sorted(where)[:3] for text, where in french_screens.items() if _typography_faults(text)}
    assert not bad, bad
    assert any("\u202f:" in text for text in french_screens)  # the screens were read


def test_the_status_screen_names_the_buttons_in_french(french_screens: dict[str, set[str]]) -> None:
    shown = " ".join(french_screens)
    assert "GPIO du Raspberry Pi + clavier" in shown and "keyboard" not in shown


def test_a_narrow_no_break_space_never_breaks_a_line() -> None:
    from companion.display.snapshot import _fonts, headless_pygame

    headless_pygame()
    import pygame

    from companion.display.layout import Painter

    painter = Painter(pygame.Surface((400, 300)), _fonts())
    text = t("scr.await.verdict", "fr") + " " + t("scr.setup.in_game", "fr")
    assert NNBSP in text
    for width in range(10, 600, 7):
        for line in painter.wrap_lines(text, width, 24):
            assert not line.startswith((":", ";", "!", "?", "»", NNBSP)), (width, line)
            assert not line.endswith(("«", NNBSP)), (width, line)


def test_de_before_a_vowel_is_elided() -> None:
    """Finding 7 of issue 23: "la carte de Anne-Sophie" is "la carte d’Anne-Sophie"."""
    _all_games_loaded()
    assert t("scr.slap.continue", "fr", names="Anne-Sophie") == "Saisir la carte d\u2019Anne-Sophie"
    assert t("scr.slap.continue", "fr", names="Bruno") == "Saisir la carte de Bruno"
    assert t("scr.undone.draw", "fr", name="Émile", card="As", kilos=100).startswith("la pioche d\u2019Émile")
    assert t("scr.slap.continue", "en", names="Anne-Sophie") == "Enter Anne-Sophie's card"
    assert t("cinq.entry.points_of", "fr", name="Yves") == "Points d\u2019Yves"


def test_french_takes_the_singular_for_zero_and_one() -> None:
    """ "0 carte", "1 carte", "2 cartes" in French; "0 cards", "1 card" in English."""
    from companion.games.treize.series import cards_en, cards_fr
    from companion.i18n import t

    assert [cards_fr(n) for n in (0, 1, 2, 13)] == ["0 carte", "1 carte", "2 cartes", "13 cartes"]
    assert [cards_en(n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert t("scr.pile.returned", "fr", n=0).endswith("0 carte remise")
    assert t("scr.pile.returned", "fr", n=1).endswith("1 carte remise")
    assert t("scr.pile.returned", "fr", n=2).endswith("2 cartes remises")
    assert t("scr.stats.evening", "en", n=0) == "Tonight · 0 games"
    assert t("scr.stats.evening", "en", n=1) == "Tonight · 1 game"
