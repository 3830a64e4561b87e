"""The frame after an event redraws what changed, not the whole screen (issue 23: a press must
not cost a whole frame on the Pi). A screen that draws on ``Painter.surface`` outside a block
makes the painter forget what is where: the rest of that frame is drawn whole and the next one
too. Every screen of every game, at the 7" size, 1080p and portrait, through the busy log's last
events with the loop's clock running (banners slide, "+N" float): no frame after the first is
whole (``Painter.changed`` None)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import importlib

import pygame
import pytest

from companion.display.layout import Fonts, Painter, Retained
from companion.display.screens import draw
from companion.display.snapshot import headless_pygame, screens, ui_for, view_of
from companion.table.fold import replay

# The busy log's last events a game: Kilo's card entry (its suits) shows once a round.
GAMES = {"kilo": 20, "cinq-rois": 8, "treize": 8}


def _last_views(game_name: str, events: int = 8) -> tuple[object, list[object]]:
    samples = importlib.import_module(f"companion.games.{game_name.replace('-', '_')}.samples")
    lines = samples.lines("busy")
    views: list[object] = []
    for cut in range(max(1, len(lines) - events), len(lines) + 1):
        view = view_of(replay(lines[:cut]))
        if not views or view != views[-1]:
            views.append(view)
    return replay(lines), views


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (720, 1280)])
@pytest.mark.parametrize("game_name", GAMES)
def test_no_frame_after_an_event_is_drawn_whole(game_name: str, size: tuple[int, int]) -> None:
    headless_pygame()
    game, views = _last_views(game_name, GAMES[game_name])
    surface = pygame.Surface(size)
    whole = []
    for screen in screens(game_name):
        ui = ui_for(game, "fr")
        ui.now = 100.0
        fonts, memory = Fonts(), Retained()
        for i, view in enumerate([*views, views[-1]]):  # and a frame with nothing changed
            painter = Painter(surface, fonts, retained=memory)
            draw(painter, view, ui, screen)
            if i and painter.changed is None:
                whole.append((screen, i))
            ui.now += 0.05  # mid-motion: a banner still sliding, a "+N" still floating
    assert not whole, f"frames drawn whole (screen, frame): {whole}"
