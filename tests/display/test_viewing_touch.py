"""Touch targets on the 7" screen (issue 23): every control at least 9 mm (47 px at 5.25 px/mm)
in both directions, on every screen of every game, every sample state, in French."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display import viewing as viewing_mod
from companion.display.snapshot import render, screens, view_of
from companion.games import GAMES
from tests.display.test_audit_legibility import states, uis

TOUCH_MM = 9.0
# Screens whose controls are not all 9 mm yet at 800x480 (issue 23): strict expected failures,
# so the day one passes it must leave this list.
NOT_YET: set[tuple[str, str]] = set()
CASES = [(game, screen) for game in GAMES for screen in screens(game)]


def small_targets(game: str, screen: str) -> list[str]:
    _what, per_mm, _metres = viewing_mod.viewing((800, 480))
    need = TOUCH_MM * per_mm
    found = []
    for sample, engine in states(game):
        for ui in uis(engine, screen, "fr"):  # the setup: each of its pages
            r = render(screen, view_of(engine), (800, 480), "fr", ui)
            where = f"{sample} {ui.setup.page}" if screen == "setup" else sample
            for c in r.painter.controls:  # type: ignore[attr-defined]
                if min(c.rect.width, c.rect.height) < need - 0.5:
                    found.append(
                        f"{where}: {c.action!r} is {c.rect.width}x{c.rect.height} px, "
                        f"under {need:.0f} px ({TOUCH_MM:.0f} mm)"
                    )
    return found


@pytest.mark.parametrize(("game", "screen"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_touch_targets_are_9_mm(game: str, screen: str) -> None:
    found = small_targets(game, screen)
    if (game, screen) in NOT_YET:
        assert found, f"{game} {screen} now has 9 mm targets: take it off NOT_YET"
        pytest.xfail(f"{len(found)} targets under 9 mm (issue 23)")
    assert not found, "\n".join(found[:20])
