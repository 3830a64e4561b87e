"""The join, seat and scorer codes as QR codes for the table's screen (segno makes them).

Pure apart from the pygame surface it paints; a code's picture is cached by its text and size,
since a frame of the status screen must not rebuild a QR code.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import segno

# The white margin the QR standard asks for (ISO/IEC 18004): a phone finds the code by it, the
# more so on a dark screen.
QUIET_MODULES = 4
# A module's side on the table's screen: at 3 px (the 7" screen's 800x480 with six codes in a
# row) phones at arm's length miss; from 4 px they read it at once.
MIN_MODULE_PX = 4


@lru_cache(maxsize=64)
def matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text``, quiet zone included: error correction L and the smallest
    version, so that its modules are as big as a small screen allows. Cached: the status
    screen asks for every code's size at each frame."""
    code = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=QUIET_MODULES))


def layout_codes(
    n: int, modules: int, width: int, height: int, label_h: int, pad: int
) -> tuple[int, int, int]:
    """(codes a page, rows, columns) for ``n`` codes of ``modules`` modules (quiet zone
    included) in ``width`` x ``height`` pixels, each cell a code, its label and ``pad``: all of
    them if they fit at ``MIN_MODULE_PX``, else one cell fewer than fit, that cell a page
    button. Among the arrangements, the one with the biggest modules."""

    def module(cells: int, rows: int) -> tuple[int, int]:
        cols = -(-cells // rows)
        side = min(width // cols - pad, height // rows - label_h - pad)
        return side // modules, cols

    fit = 0
    for rows in range(1, n + 1):
        for cols in range(1, n + 1):
            if module(rows * cols, rows)[0] >= MIN_MODULE_PX:
                fit = max(fit, rows * cols)
    per_page = n if fit >= n else max(1, fit - 1)
    cells = per_page + (0 if per_page >= n else 1)
    best = max(range(1, cells + 1), key=lambda r: (module(cells, r)[0], -r))
    return per_page, best, module(cells, best)[1]


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
