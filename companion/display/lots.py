"""Drawing lots at the table, the same way in every game: a fair seat from the table's seed, and a
light that runs round the players and slows down on the one drawn.

The draw is a function of the table's seed and what is drawn (``key``), so a resumed table (or a
replay of its journal) draws the same seat; the games journal the result as their own event.
"""

from __future__ import annotations

import random

import pygame

from companion.display.blocks import fit_lines, grid
from companion.display.layout import Painter
from companion.display.theme import ACCENT, BG, BIG, FAR, FG, NEAR, PANEL

Rect = pygame.Rect
LOTS_SECONDS = 1.6
BLACK = (0, 0, 0)


def fair_seat(seed: int, key: str, n: int) -> int:
    """One of ``n`` seats, uniformly, the same for the same table seed and key."""
    return random.Random(f"{seed}:lots:{key}").randrange(n)


def lit_seat(chosen: int, n: int, phase: float) -> int:
    """The seat lit at ``phase`` (0..1): twice round the table, slowing down, ending on ``chosen``."""
    steps = 2 * n + chosen + 1
    eased = 1 - (1 - min(max(phase, 0.0), 1.0)) ** 2
    return min(steps - 1, int(eased * steps)) % n


def draw_lots_overlay(
    p: Painter, players: tuple[str, ...], chosen: int, phase: float, drawing: str, result: str
) -> None:
    """Over the current screen: every player, the light running round, then ``result``."""
    s = p.screen
    n = len(players)
    lit = lit_seat(chosen, n, phase)
    shade = pygame.Surface(s.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    p.surface.blit(shade, (0, 0))
    box = s.inflate(-s.width // 6, -s.height // 4)
    p.panel(box, None, BG, border=ACCENT)
    inner = box.inflate(-p.px(20), -p.px(16))
    head_h = p.px(64)
    head = Rect(inner.x, inner.y, inner.width, head_h)
    done = phase >= 0.85
    # The result names who was drawn: on two lines rather than cut when the name is long.
    fit_lines(
        p,
        result if done else drawing,
        head,
        p.font(FAR),
        ACCENT if done else FG,
        players=players,
        role="far",
        floor=p.font(BIG) // 2,
    )
    body = Rect(inner.x, head.bottom + p.px(8), inner.width, inner.height - head_h - p.px(8))
    cells = grid(body, n, 2 if n > 3 and not p.scale.portrait else 1, p.px(6))
    for i, cell in enumerate(cells):
        on = i == lit
        p.panel(cell, box, ACCENT if on else PANEL)
        d = min(cell.height - 4, p.px(30))
        p.seat_mark(i, (cell.x + p.px(6) + d // 2, cell.centery), int(d * 0.42))
        p.name(
            players[i],
            players,
            Rect(cell.x + d + p.px(12), cell.y, cell.width - d - p.px(16), cell.height),
            p.font(NEAR),
            BLACK if on else FG,
        )
