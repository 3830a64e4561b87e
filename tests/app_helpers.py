"""The table screen's App driven as a table would: a key or a touch is a pygame event, then one
step of the main loop."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from companion.display.app import App
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.table.journal import Journal
from companion.table.live import Table


def table_app(
    screen: pygame.Surface,
    journal: Journal,
    table: Table,
    factory: Callable[[str, int], Any],
    *,
    source_name: str,
    lang: str = "fr",
    table_ns: Callable[[], int] = time.monotonic_ns,
) -> App:
    """The table screen on ``table``, its buttons made by ``factory`` (name, seats), on the test's
    table clock ``table_ns`` when it keeps one (the sources' stamps and the decisions' instants
    on one clock)."""
    ui = Ui(lang=lang)
    return App(screen, journal, table, ui, source_name=source_name, source_factory=factory, table_ns=table_ns)


def settle(app: App) -> None:
    """One step of the main loop, and more while it left handling for later: a step stops after
    its time budget (a loaded machine reaches it), the rest waits for the next one."""
    app.step()
    for _ in range(200):
        if not app.arrivals.early and app.inbox.qsize() == 0:
            return
        app.step()


def press_key(app: App, k: int, mod: int = 0) -> None:
    """Press and release one key, then the steps that handle it."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    settle(app)


def touch(app: App, action: object) -> None:
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


def until(what: Callable[[], Any], app: App | None = None, timeout: float = 20.0) -> Any:
    """Step the table (if any) until ``what()`` is true, and return it; the test fails if it never
    is. Each step waits at most 5 ms for an input: a thread's put wakes it at once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app is not None:
            app.step(0.005)
        else:
            time.sleep(0.002)
        got = what()
        if got:
            return got
    pytest.fail(f"never happened: {what}")


def painter_of(app: App) -> Painter:
    """The painter of the last frame (a test asks after at least one step)."""
    assert app.painter is not None, "no frame drawn yet"
    return app.painter


def table_of(app: App) -> Table:
    """The running game's table (a test asks once a game is on)."""
    assert app.table is not None, "no game running"
    return app.table
