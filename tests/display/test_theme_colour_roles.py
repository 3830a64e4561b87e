"""One colour per role (docs/screen.md, "The kit"; issue 23, finding 5): yellow is a warning
only. Every screen of every game is drawn for each sample state (long names, the longest
tables), in French and in English, and every text set in the warning colour, or set on it (a
yellow button or panel), must be the words of a warning of the catalogue (``WARNINGS``): the
hardware in trouble, a game in progress under the setup, a player who can only pass, Kilo's
100 kg. A round's title, a prompt, a winner or a selected button in yellow fails here, with
the text and the screen it is on."""

from __future__ import annotations

import itertools
import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display.names import name_forms
from companion.display.snapshot import render, screens, view_of
from companion.display.theme import WARN
from companion.games import GAMES
from companion.i18n import CATALOGUE
from tests.display.test_audit_legibility import states, uis

# The catalogue's warnings: what may be set in (or on) yellow. A key is listed with what it
# warns of.
WARNINGS = {
    **{
        f"scr.hw.{k}": "the button hardware in trouble"
        for k in ("disconnected", "stuck", "not_started", "held", "held_released", "none")
    },
    "scr.setup.in_game": "a game is in progress: a new one ends it",
    "treize.only_pass": "the player to play can only pass",
    "kilos": "Kilo's drawn card taking a player to 100 kg or more",
}
SIZE = (1280, 720)  # colours do not depend on the screen's size


def _words(text: str) -> set[str]:
    """The words of a text that say something: not figures, not the placeholders' values."""
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _warning_words() -> set[str]:
    out: set[str] = set()
    for key, (fr, en) in CATALOGUE.items():
        if key in WARNINGS:
            for template in (fr, en):
                out |= _words(re.sub(r"\{[^}]*\}", " ", template))
                # "{n|carte|cartes}": the forms a count takes are words of the sentence.
                for forms in re.findall(r"\{[^}|]*\|([^}]*)\}", template):
                    out |= _words(forms.replace("|", " "))
    return out


WARNING_WORDS = _warning_words()


def yellow_texts(game: str, screen: str, lang: str) -> list[str]:
    """Texts in or on the warning colour whose words are not a warning's, one line each: the
    screen as opened, after an entry (its result shown) and as a draw by lot ends."""
    found = []
    for (sample, engine), (result, phase) in itertools.product(
        states(game), [(False, None), (True, None), (False, 0.95)]
    ):
        forms = name_forms(tuple(engine.players))
        names = set().union(*(_words(f) for n in engine.players for f in forms.get(n, (n,))))
        for ui in uis(engine, screen, lang):
            ui.show_result = result
            r = render(screen, view_of(engine), SIZE, lang, ui, phase, audit=True)
            for rec in r.painter.texts:  # type: ignore[attr-defined]
                if rec.color != WARN and rec.bg != WARN:
                    continue
                stray = _words(rec.text) - WARNING_WORDS - names
                if stray:
                    where = "in" if rec.color == WARN else "on"
                    found.append(f"{sample}: {rec.text!r} {where} yellow ({', '.join(sorted(stray))})")
    return found


CASES = [(game, screen) for game in GAMES for screen in screens(game)]


def test_the_warnings_are_in_the_catalogue() -> None:
    """Each key of ``WARNINGS`` names catalogue entries, so a renamed key cannot empty the list."""
    for key in WARNINGS:
        assert key in CATALOGUE, key
    assert {"bouton", "button", "passer", "pass"} <= WARNING_WORDS


@pytest.mark.parametrize(("game", "screen"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_yellow_is_a_warning_only(game: str, screen: str) -> None:
    found = [
        f"{lang}: {x}"
        for lang, x in itertools.chain.from_iterable(
            ((lang, x) for x in yellow_texts(game, screen, lang)) for lang in ("fr", "en")
        )
    ]
    assert not found, f"{len(found)} texts in or on yellow that warn of nothing:\n" + "\n".join(found[:20])
