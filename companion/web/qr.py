"""The join, seat and scorer codes as QR codes for the table's screen (segno makes them).

Pure apart from the pygame surface it paints; a code's picture is cached by its text and size,
since a frame of the status screen must not rebuild a QR code.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import segno


def matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text``, quiet zone included: error correction L and the smallest
    version, so that its modules are as big as a small screen allows."""
    code = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=2))


@lru_cache(maxsize=32)
def surface(text: str, side: int) -> Any:
    """A square pygame surface of ``side`` pixels (or a little less: whole pixels per module)."""
    import pygame

    rows = matrix(text)
    n = len(rows)
    module = max(1, side // n)
    img = pygame.Surface((module * n, module * n))
    img.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                img.fill((0, 0, 0), (x * module, y * module, module, module))
    return img
