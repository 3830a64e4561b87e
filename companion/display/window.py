"""The table screen's window: the whole screen on a kiosk, a resizable window on a laptop."""

from __future__ import annotations

import os
import sys

import pygame

ICON_COLOR = (22, 92, 60)


def open_display(size: tuple[int, int] | None, fullscreen: bool) -> pygame.Surface:
    """The window (or the whole screen on a kiosk); raises pygame.error without a display."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    chosen = "SDL_VIDEODRIVER" in os.environ
    pygame.display.init()
    if not chosen and pygame.display.get_driver() in ("offscreen", "dummy"):
        # SDL fell back to an invisible screen: nobody would see the game, so say so instead.
        pygame.display.quit()
        raise pygame.error("no display")
    pygame.font.init()
    # A window icon of our own, set before the window exists: without one, set_mode reads
    # pygame's through importlib.resources (its modules and a file, on the way to the first
    # frame) and swallows whatever that raises. A plain square of the table's felt.
    icon = pygame.Surface((32, 32))
    icon.fill(ICON_COLOR)
    pygame.display.set_icon(icon)
    flags = 0
    if fullscreen:
        flags |= pygame.FULLSCREEN
        surface = pygame.display.set_mode(size or (0, 0), flags)
    else:
        flags |= pygame.RESIZABLE
        surface = pygame.display.set_mode(size or (1280, 720), flags)
    pygame.display.set_caption("Compagnon de table — table companion")
    pygame.key.stop_text_input()
    return surface


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
