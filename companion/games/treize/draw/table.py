"""The table screen, and the seats' strip under the status."""

from __future__ import annotations

import math

import pygame

from companion.display import kit
from companion.display.blocks import no_game
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    MUTED,
)
from companion.games.treize.draw.pieces import seat_grid, series_lines, table_top
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect


def draw_table(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Whose turn first (the kit's banner), then the stacks on the table and what may be
    played, then the kit's tiles in seating order (the match's points in far type, the cards in
    hand and what each one does under the name; touch one = that player passes), then how to
    pass where the tiles leave room."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    top_h = max(kit.banner_height(p), kit.touch_size(p))
    if p.scale.portrait:
        top_h = kit.banner_height(p) + gap + kit.touch_size(p)
    top = Rect(area.x, area.y, area.width, top_h)
    table_top(p, v, ui, top)
    banner = next((rec.size for rec in reversed(p.texts) if rec.kind == "headline"), None)
    y = top.bottom + gap
    y += series_lines(p, v, ui, Rect(area.x, y, area.width, area.bottom - y)) + gap
    hint = t("treize.hint.press", lang)
    hint_h = len(p.wrap_lines(hint, area.width, read)) * p.line_height(read)
    tiles_b = Rect(area.x, y, area.width, area.bottom - y)
    n = len(v.seats)
    two_lines = p.line_height(p.far_name_size()) + p.fonts.size("Ég", read)[1] + p.px(20)
    cols = 1 if p.scale.portrait or n <= 3 else 2
    rows = math.ceil(n / cols)
    if (tiles_b.height - hint_h - gap) / rows >= two_lines:  # the hint costs no tile its cards
        tiles_b = Rect(area.x, y, area.width, area.bottom - y - hint_h - gap)
        p.paragraph(hint, Rect(area.x, tiles_b.bottom + gap, area.width, hint_h), read, MUTED, min_size=read)
    # The figures no bigger than the banner: whose turn it is stays the biggest text.
    seat_grid(p, v, ui, tiles_b, touch=not v.finished and v.awaiting == "play", top=banner)


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    seat_grid(p, v, ui, area, touch=False)
