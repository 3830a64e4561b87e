"""The frame's chrome on the 7" screen (issue 23): the bars every screen keeps take at most 12 %
of the height at 800x480, on every screen of every game; the screens the bar no longer lists
are one touch on the menu away."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display.snapshot import render, screens, ui_for, view_of
from companion.games import GAMES
from tests.display.test_audit_legibility import states

CHROME_SHARE = 0.12
CASES = [(game, screen) for game in GAMES for screen in screens(game)]


@pytest.mark.parametrize(("game", "screen"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_chrome_is_at_most_12_percent_of_the_height(game: str, screen: str) -> None:
    for size in ((800, 480), (480, 800)):
        for sample, engine in states(game)[:2]:
            r = render(screen, view_of(engine), size, "fr", ui_for(engine, "fr"))
            chrome = r.painter.chrome
            assert chrome, "the frame records its bars"
            height = sum(bar.height for bar in chrome)
            assert height <= CHROME_SHARE * size[1], (
                f"{sample} {size[0]}x{size[1]}: the bars take {height} px, "
                f"{height / size[1]:.0%} of the height (at most {CHROME_SHARE:.0%})"
            )
