"""The App's frame: what the display shows. The game's read-only view as of the last change
(built when read, so that a step handing the game N presses builds it once), the frame laid out
from it on the display's surface (nobody sees it before ``present``), and what is shown: only the
parts that changed since the last frame shown go to the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.display.layout import Fonts, Painter, Retained
from companion.display.rotation import Rotated
from companion.display.screens import draw
from companion.display.state import Ui


class Frame:
    """The screen's state between steps: the view, the last frame laid out, what is unshown."""

    def __init__(self, surface: pygame.Surface, build_view: Callable[[], Any]) -> None:
        self.surface = surface
        self.turned = Rotated(0)  # a display mounted turned ([display] rotate): set by `play`
        self.fonts = Fonts()
        self.retained = Retained()  # the last frame on the display: what a frame leaves alone
        self.unshown: list[pygame.Rect] | None = None  # changed since shown (None: all)
        self.painter: Painter | None = None
        self.dirty = True
        self.frames = 0
        self.tick_at: float | None = None  # when a countdown on screen needs its next frame
        self.last_screen = ""
        self.on_frame: Callable[[int], None] | None = None
        self.tail_s = 0.0  # the last drawn step's commit and frame: off the next one's budget
        # The read-only picture of the game (None before a game starts), built when read after
        # a change: ``build_view`` is the shown game's.
        self._build_view = build_view
        self._view: Any = None
        self.view_stale = False
        self.maybe_same = False  # only marked presses changed the game since the last frame
        self.drawn_view: Any = None  # the view of the last frame laid out

    @property
    def view(self) -> Any:
        """The game's read-only picture, as of the last change."""
        if self.view_stale:
            self.view_stale = False
            self._view = self._build_view()
        return self._view

    @view.setter
    def view(self, view: Any) -> None:
        self._view = view
        self.view_stale = False

    def refresh(self) -> None:
        """The game changed: its view is built anew when read, and the frame drawn again."""
        self.view_stale = True
        self.dirty = True

    def changed_since_drawn(self) -> None:
        """After presses that may have changed nothing on screen: dirty if the view differs."""
        if self.maybe_same:
            self.maybe_same = False
            self.dirty = self.dirty or self.view != self.drawn_view

    def window_changed(self) -> None:
        """A new surface, or pixels to show again: the next frame is drawn and shown whole."""
        self.surface = pygame.display.get_surface() or self.surface
        self.retained.forget()
        self.unshown = None
        self.dirty = True

    def render(
        self, ui: Ui, phase: float | None, now: float, redraw_in: Callable[[Any, Ui, float], float | None]
    ) -> None:
        """Lay out the frame of the view on the display's surface at ``now``; ``redraw_in`` says
        when what it shows changes without an input (a countdown)."""
        painter = Painter(self.turned.canvas(self.surface), self.fonts, retained=self.retained)
        self.maybe_same = False
        view = self.drawn_view = self.view
        self.last_screen = draw(painter, view, ui, None, phase)
        wait = redraw_in(view, ui, now)
        moving = ui.motion.next_frame_in()  # a banner sliding, a "+N" floating...
        if moving is not None:
            wait = moving if wait is None else min(wait, moving)
        self.tick_at = None if wait is None else now + wait
        self.painter = painter
        changed = painter.changed
        self.unshown = None if self.unshown is None or changed is None else [*self.unshown, *changed]
        self.dirty = False

    def present(self) -> None:
        """Show the frame laid out: only what changed since the last frame shown."""
        self.frames += 1
        changed = self.turned.present(self.surface, self.unshown)
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self.unshown = []
        if self.on_frame is not None:
            self.on_frame(self.frames)
