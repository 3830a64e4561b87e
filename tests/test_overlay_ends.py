"""A drawing-of-lots overlay goes away by itself when its animation ends (issue 37: 13 feuilles'
"Alice commence !" stayed on screen until someone pressed a key, with nothing saying so)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.games.treize.events import NewTreizeGame
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import touch


def test_the_step_in_which_the_lots_animation_ends_draws_before_it_waits(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    clock = [100.0]
    with Journal(tmp_path, writer=True) as journal:
        setup = NewTreizeGame(players=["Alice", "Bruno", "Chloé"], variant="advanced", starter=None)
        table = Table.start(journal, setup, {"input": "keyboard", "seed": 5})
        app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", seed=5, now=lambda: clock[0])
        app.step()
        for _ in range(1000):  # the idle-time work done first: a kiosk's table has had it
            if not (app._warm_pending or app._tally_pending):
                break
            app.step()
        assert not (app._warm_pending or app._tally_pending)
        touch(app, ("lots",))
        assert app.ui.anim_start is not None  # "Alice commence !" is on its way
        waited: list[float | None] = []
        real_wait = app.wait

        def recorded(timeout: float | None) -> list[pygame.event.Event]:
            waited.append(timeout)
            return real_wait(0.0)  # nothing comes: the kiosk's table sits still

        app.wait = recorded  # type: ignore[method-assign]
        clock[0] += app.screens.anim_seconds + 1
        frames = app.frames
        app.step(timeout=None)  # the kiosk's loop: wait for input unless something is due
        assert app.ui.anim_start is None
        assert waited == [0.0], waited  # not None: that wait lasted until the next key
        assert app.frames == frames + 1 and app.last_screen == "table"
