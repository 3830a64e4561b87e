"""The recipes of docs/architecture.md hold: each checklist's files agree with one another, so a
step left out fails here, not at a table.

"An input source": its name in every place that lists the sources. "A screen": each game's
screen in the docs' pictures (its sample, its PNGs in both languages and sizes) and, when it is in
the menu, with a label in both languages. The drawing's own rules (legibility, touch, French
typography) are tests/display/test_audit_legibility.py's, tests/display/test_viewing_touch.py's and
tests/house/test_french_typography.py's,
which draw every screen ``screens_for`` lists.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import importlib
from pathlib import Path

import pytest

from companion.display import event_time, state
from companion.display.game_ui import screens_for
from companion.display.snapshot import DOC_SIZES
from companion.hardware import sources
from companion.i18n import CATALOGUE
from companion.inputs.names import INPUT_CHOICES, SOURCE_NAMES
from companion.table.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
# Phones join through the server that ``--web`` starts, never by ``--input`` or the setup screen.
ONLY_WITH_WEB = {"web"}


def test_an_input_source_is_named_in_every_place() -> None:
    # --input, the config's [input] source and the command line's checks all read inputs/names.py.
    assert set(sources.BUILDERS) == set(SOURCE_NAMES), (
        f"hardware/sources.py BUILDERS builds {sorted(sources.BUILDERS)}; inputs/names.py names "
        f"{sorted(SOURCE_NAMES)}"
    )
    built = set(SOURCE_NAMES) - ONLY_WITH_WEB
    assert set(INPUT_CHOICES) == built
    places = {"display/state.py INPUTS": set(state.INPUTS)}
    for place, names in places.items():
        assert names == built, f"{place} lists {sorted(names)}; inputs/names.py names {sorted(built)}"
    for name in SOURCE_NAMES:
        assert name in event_time._WHO, (
            f"display/event_time.py cannot name {name!r} to a table it keeps waiting"
        )
    for name in state.INPUTS:
        for key in (f"scr.input.{name}", f"scr.input.{name}.help"):  # the setup screen's words
            assert key in CATALOGUE, f"companion/i18n.py has no {key} (French, English)"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_screen_is_in_the_docs_and_the_menu(game: str) -> None:
    screens = screens_for(game)
    samples = importlib.import_module(GAMES[game].package + ".samples")
    pictures = {p.name for p in (ROOT / "docs" / "screens").glob("*.png")}
    for screen in screens.screens:
        assert screen in samples.DOC_SAMPLE, (
            f"{game}'s samples.py DOC_SAMPLE does not say which sample shows {screen}"
        )
        for lang in ("fr", "en"):
            for w, h in DOC_SIZES:
                end = f"{screen}-{lang}-{w}x{h}.png"
                assert any(name.endswith(end) for name in pictures), (
                    f"docs/screens/ has no {end}: run python -m {GAMES[game].package}.samples"
                )
    for screen, key in screens.nav:
        assert screen in screens.screens, f"{game}'s menu names {screen}, which is not one of its screens"
        fr, en = CATALOGUE[f"scr.nav.{screen}"]
        assert fr and en and len(key) == 1
