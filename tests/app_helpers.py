"""The table screen's App driven as a table would: a key or a touch is a pygame event, then one
step of the main loop."""

from __future__ import annotations

import pygame

from companion.display.app import App
from companion.display.layout import Painter
from companion.table.live import Table


def settle(app: App) -> None:
    """One step of the main loop, and more while it left handling for later: a step stops after
    its time budget (a loaded machine reaches it), the rest waits for the next one."""
    app.step()
    for _ in range(200):
        if not app._early and app.inbox.qsize() == 0:
            return
        app.step()


def press_key(app: App, k: int, mod: int = 0) -> None:
    """Press and release one key, then the steps that handle it."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    settle(app)


def touch(app: App, action: tuple[object, ...]) -> None:
    """Touch the centre of the control that does ``action`` (a finger, not a mouse)."""
    assert app.painter is not None
    control = next(c for c in app.painter.controls if c.action == action)
    w, h = app.surface.get_size()
    x, y = control.rect.center
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN, x=x / w, y=y / h, touch_id=0, finger_id=0, pressure=1.0, dx=0, dy=0
        )
    )
    settle(app)


def painter_of(app: App) -> Painter:
    """The painter of the last frame (a test asks after at least one step)."""
    assert app.painter is not None, "no frame drawn yet"
    return app.painter


def table_of(app: App) -> Table:
    """The running game's table (a test asks once a game is on)."""
    assert app.table is not None, "no game running"
    return app.table
