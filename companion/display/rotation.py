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

    def present(self, display: Any) -> None:
        """The laid-out frame turned onto ``display`` (before the flip)."""
        if self.rotate and self._canvas is not None:
            display.blit(turn(self._canvas, self.rotate), (0, 0))

    def point(self, pos: tuple[int, int], display: Any) -> tuple[int, int]:
        return to_logical(pos, display.get_size(), self.rotate)
