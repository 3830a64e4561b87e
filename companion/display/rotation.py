"""A screen mounted turned (``[display] rotate``, ``--rotate``): the frame is laid out at the size
the players see (90 and 270 swap width and height), then turned onto the display at the flip, and
a touch on the display is turned back to the point of the frame under the finger.

Our own, because the ways the system offers do not reach us: the firmware's
``display_lcd_rotation`` is a legacy (non-KMS) setting, and the kernel's ``video=...,rotate=``
turns the console, not a KMS client such as SDL's kmsdrm driver.
"""

from __future__ import annotations

from typing import Any

ANGLES = (0, 90, 180, 270)  # degrees clockwise, as the players see the picture turned


def logical_size(physical: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The size a frame is laid out at on a display of size ``physical`` turned ``rotate``."""
    w, h = physical
    return (h, w) if rotate in (90, 270) else (w, h)


def to_logical(pos: tuple[int, int], physical: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The point of the laid-out frame shown at ``pos`` on the display."""
    x, y = pos
    w, h = physical
    if rotate == 90:
        return y, w - 1 - x
    if rotate == 180:
        return w - 1 - x, h - 1 - y
    if rotate == 270:
        return h - 1 - y, x
    return x, y


def to_physical(rect: Any, physical: tuple[int, int], rotate: int) -> Any:
    """The display's rect showing ``rect`` of the laid-out frame (``to_logical`` inverted)."""
    import pygame

    w, h = physical

    def point(x: int, y: int) -> tuple[int, int]:
        if rotate == 90:
            return w - 1 - y, x
        if rotate == 180:
            return w - 1 - x, h - 1 - y
        if rotate == 270:
            return y, h - 1 - x
        return x, y

    (ax, ay), (bx, by) = point(rect.left, rect.top), point(rect.right - 1, rect.bottom - 1)
    return pygame.Rect(min(ax, bx), min(ay, by), abs(ax - bx) + 1, abs(ay - by) + 1)


def turn(frame: Any, rotate: int) -> Any:
    """``frame`` turned ``rotate`` degrees clockwise (pygame turns counter-clockwise)."""
    import pygame

    return pygame.transform.rotate(frame, -rotate) if rotate else frame


class Rotated:
    """The surface a frame is drawn on when the display is turned, kept between frames."""

    def __init__(self, rotate: int) -> None:
        self.rotate = rotate
        self._canvas: Any = None

    def canvas(self, display: Any) -> Any:
        """Where to lay out the next frame for ``display``: the display itself when unturned."""
        if not self.rotate:
            return display
        import pygame

        size = logical_size(display.get_size(), self.rotate)
        if self._canvas is None or self._canvas.get_size() != size:
            self._canvas = pygame.Surface(size, 0, display)  # the display's pixel format
        return self._canvas

    def present(self, display: Any, changed: list[Any] | None = None) -> list[Any] | None:
        """The laid-out frame turned onto ``display`` (before the flip): only its ``changed``
        rects when given. Returns the display's rects that changed (None: all of it)."""
        if not self.rotate or self._canvas is None:
            return changed
        if changed is None:
            display.blit(turn(self._canvas, self.rotate), (0, 0))
            return None
        shown = []
        for rect in changed:
            where = to_physical(rect, display.get_size(), self.rotate)
            display.blit(turn(self._canvas.subsurface(rect), self.rotate), where)
            shown.append(where)
        return shown

    def point(self, pos: tuple[int, int], display: Any) -> tuple[int, int]:
        return to_logical(pos, display.get_size(), self.rotate)
