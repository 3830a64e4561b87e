"""The App is its parts: what the game's screens, `play` and the benches read and set on it is
kept by one part (``Handed``), and what only a part changes cannot be set on the App (``Kept``):
a value set there would stand beside the part's, and the loop would go on reading the part's."""

from __future__ import annotations

import os

import pygame
import pytest

from companion.display.app import App, Handed, Kept
from companion.display.rotation import Rotated
from companion.display.state import Ui
from companion.table.journal import Journal

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_what_is_set_on_the_app_is_set_on_its_part(journal: Journal, screen: pygame.Surface) -> None:
    app = App(screen, journal, None, Ui(), source_name="sim", seed=7)
    app.dirty = False
    turned = app.turned = Rotated(90)
    app.group_commit = False
    app.decision_ns = 123
    app.source_name = "gpio"
    app.sim_busy = True
    assert app.frame.dirty is False and app.frame.turned is turned
    assert app.commits.enabled is False and app.arrivals.decision_ns == 123
    assert app.host.name == "gpio" and app.host.seed == app.seed == 7 and app.later.sim_busy
    assert "dirty" not in vars(app) and "source_name" not in vars(app)
    app.frame.dirty = True  # the part changes it: the App reads it there
    assert app.dirty is True


def test_what_only_a_part_changes_cannot_be_set_on_the_app(journal: Journal, screen: pygame.Surface) -> None:
    app = App(screen, journal, None, Ui())
    app.step()
    painter = app.painter
    assert painter is not None and app.frames == 1 and app.last_screen == "setup"
    for name in ("painter", "frames", "last_screen", "surface", "buttons", "sounds", "source", "web"):
        with pytest.raises(AttributeError, match=f"the App's {name} is its"):
            setattr(app, name, None)
    assert app.painter is painter and app.frames == 1 and app.last_screen == "setup"


def test_the_app_class_names_its_descriptors() -> None:
    # Read on the class, a descriptor is itself (its part and the name there), not a value.
    assert isinstance(App.__dict__["source_name"], Handed)
    assert (App.source_name.part, App.source_name.name) == ("host", "name")
    assert isinstance(App.painter, Kept) and (App.painter.part, App.painter.name) == ("frame", "painter")
