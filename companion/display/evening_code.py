"""The evening's code on a game-over screen: a QR of the viewers' address opened at their evening
tab, so that the table takes the evening home on their phones (the page is
``web/evening.py``'s, served by ``web/evening_route.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.display.theme import FG
from companion.i18n import register, t

if TYPE_CHECKING:
    from companion.display.layout import Painter
    from companion.display.state import Ui

Rect = pygame.Rect

register(
    {
        "scr.web.evening": ("La soirée sur vos téléphones", "The evening on your phones"),
    }
)


def evening_url(ui: Ui) -> str | None:
    """The viewers' address, opened at the evening tab; None without phones or a game."""
    web = ui.hardware.web
    join = web.urls().get("join") if web is not None else None
    return f"{join}#evening" if join else None


def draw_evening_code(p: Painter, ui: Ui, area: Rect) -> Rect:
    """The code in a column at the right of ``area``; the area left for the game's own
    game-over screen (all of it when there is no code to show)."""
    url = evening_url(ui)
    if url is None:
        return area
    from companion.display.qr import MIN_MODULE_PX, matrix, surface

    pad = p.px(8)
    label_h = 2 * p.line_height(p.font(22))
    modules = len(matrix(url))
    side = min(area.height - label_h - 3 * pad, area.width // 3)
    if side < modules * MIN_MODULE_PX:
        return area  # a code no phone would read: the screen keeps its room
    column = Rect(area.right - side - 2 * pad, area.y, side + 2 * pad, area.height)
    p.panel(column)
    img = surface(url, side)
    drawn = p.surface.blit(img, img.get_rect(midtop=(column.centerx, column.y + pad)))
    label = Rect(column.x + pad, drawn.bottom + pad, column.width - 2 * pad, label_h)
    p.paragraph(t("scr.web.evening", ui.lang), label, p.font(22), FG, min_size=p.font(16))
    return Rect(area.x, area.y, area.width - column.width - pad, area.height)
