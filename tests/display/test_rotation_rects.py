"""Issue 38: a turned screen redrawn in part shows, in each changed rect, what the whole frame
turned shows there, at every angle (the screen's own pixels, against pygame's rotation)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame
import pytest

from companion.display.rotation import ANGLES, Rotated, logical_size, to_logical, to_physical

PHYSICAL = (40, 24)


def frame_pattern(surface: pygame.Surface) -> None:
    """Every pixel its own colour: a pixel out of place shows."""
    w, h = surface.get_size()
    for x in range(w):
        for y in range(h):
            surface.set_at((x, y), (x * 6, y * 6, (x * y) % 256))


@pytest.mark.parametrize("angle", ANGLES)
def test_a_changed_rect_lands_where_the_whole_frame_turned_shows_it(angle: int) -> None:
    display = pygame.Surface(PHYSICAL)
    turned = Rotated(angle)
    canvas = turned.canvas(display)
    assert canvas.get_size() == logical_size(PHYSICAL, angle)
    assert turned.canvas(display) is (display if angle == 0 else canvas)  # kept between frames
    frame_pattern(canvas)
    whole = pygame.transform.rotate(canvas, -angle)
    changed = [pygame.Rect(3, 5, 7, 4), pygame.Rect(0, 0, 1, 1)]
    display.fill((0, 0, 0))
    shown = turned.present(display, changed)
    if angle == 0:
        assert shown is changed  # drawn straight on the display: nothing to turn
        return
    assert shown is not None and len(shown) == 2
    for logical, physical in zip(changed, shown, strict=True):
        assert physical.size == ((logical.h, logical.w) if angle in (90, 270) else logical.size)
        for x in range(physical.left, physical.right):
            for y in range(physical.top, physical.bottom):
                assert display.get_at((x, y)) == whole.get_at((x, y)), (x, y)
                # A tap there reaches the pixel of the frame drawn under it.
                lx, ly = to_logical((x, y), PHYSICAL, angle)
                assert logical.collidepoint(lx, ly)
                assert canvas.get_at((lx, ly)) == display.get_at((x, y))
    assert to_physical(changed[0], PHYSICAL, angle) == shown[0]
    assert turned.present(display, None) is None
    assert pygame.image.tobytes(display, "RGB") == pygame.image.tobytes(whole, "RGB")


def test_a_new_display_size_gets_a_new_canvas_and_an_unturned_one_none() -> None:
    turned = Rotated(90)
    first = turned.canvas(pygame.Surface((40, 24)))
    again = turned.canvas(pygame.Surface((50, 30)))
    assert first.get_size() == (24, 40) and again.get_size() == (30, 50)
    assert Rotated(0).present(pygame.Surface((4, 4)), None) is None
    assert Rotated(90).present(pygame.Surface((4, 4)), [pygame.Rect(0, 0, 1, 1)]) == [pygame.Rect(0, 0, 1, 1)]
