"""Drawn over the frame for a moment: a flush, and the card just drawn."""

from __future__ import annotations

import math

import pygame

from companion.display.blocks import RED_SUITS, SUITS, rank_label, split
from companion.display.layout import Painter, draw_suit
from companion.display.names import short_name
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BG,
    BIG,
    FAR,
    FG,
    WARN,
)
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


FLUSH_SECONDS = 1.6


def draw_flush(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """A 7 was drawn: the cards swirl away down the drain, over whatever screen is shown."""
    s = p.screen
    overlay = pygame.Surface(s.size, pygame.SRCALPHA)
    overlay.fill((0, 40, 80, int(170 * (1 - abs(2 * phase - 1) ** 3))))
    p.surface.blit(overlay, (0, 0))
    cx, cy = s.center
    radius = min(s.width, s.height) * 0.38
    for i in range(12):
        a = phase * 6 * math.pi + i * math.pi / 6
        r = radius * (1 - phase) * (0.4 + 0.6 * ((i % 4) / 3))
        pt = (int(cx + r * math.cos(a)), int(cy + r * math.sin(a)))
        pygame.draw.circle(
            p.surface, ACCENT if i % 2 else (245, 245, 245), pt, max(3, int(p.px(14) * (1 - phase) + 2))
        )
    d = v.last_draw
    who = short_name(d.player, v.players) if d else ""
    band = Rect(0, cy - p.px(50), s.width, p.px(100))
    # The sentence on a band of its own: the tiles under the swirl must not read through it.
    pygame.draw.rect(p.surface, (0, 40, 80), band)
    p.text(
        t("scr.flush", ui.lang, name=who),
        band.inflate(-p.px(20), 0),
        p.font(FAR),
        FG,
        role="far",
        min_size=p.font(BIG) // 2,
    )


def draw_drawn(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """A card was drawn: it shows big for a moment with its kilos (an Ace is an event)."""
    d = v.last_draw
    if d is None:
        return
    s = p.screen
    fade = 1 - max(0.0, phase - 0.8) / 0.2  # holds, then fades out over the last fifth
    shade = pygame.Surface(s.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, int(215 * fade)))
    p.surface.blit(shade, (0, 0))
    h = min(s.height * 2 // 3, p.px(300))
    w = h * 5 // 7
    portrait = p.scale.portrait
    if portrait:  # the card above, who drew it and its kilos across the screen under it
        card = Rect(s.centerx - w // 2, s.centery - h + p.px(20), w, h)
    else:
        card = Rect(s.centerx - w - p.px(20), s.centery - h // 2, w, h)
    pygame.draw.rect(p.surface, (245, 245, 245), card, border_radius=max(4, h // 14))
    suit = d.card[-1] if d.card[-1] in SUITS else None
    rank = d.card[:-1] if suit else d.card
    color = (200, 0, 0) if suit in RED_SUITS else (0, 0, 0)
    p.text(
        rank_label(rank, ui.lang),
        Rect(card.x, card.y + h // 10, w, h // 2),
        p.font(FAR) * 2,
        color,
        role="far",
        min_size=p.font(BIG),
    )
    if suit:
        draw_suit(p.surface, suit, (card.centerx, card.y + h * 3 // 4), h // 8, color)
    if portrait:
        side = Rect(p.px(30), card.bottom + p.px(30), s.width - p.px(60), p.px(180))
    else:
        side = Rect(card.right + p.px(30), card.y, s.width - card.right - p.px(50), h)
    # Who drew it (seat mark, name in white) and what it weighs, on a panel of their own.
    p.panel(side.inflate(p.px(16), p.px(16)), color=BG)
    name_b, kilos_b = split(side, [1, 1.4])
    mark_d = min(name_b.height, p.px(44))
    seat = v.seat_of(d.player)
    p.seat_mark(seat, (name_b.x + mark_d // 2, name_b.centery), int(mark_d * 0.42))
    p.name(
        d.player,
        v.players,
        Rect(name_b.x + mark_d + p.px(8), name_b.y, name_b.width - mark_d - p.px(8), name_b.height),
        p.font(BIG),
        FG,
        align="left",
    )
    p.text(
        f"+{t('kilos', ui.lang, kilos=d.kilos)}",
        kilos_b,
        p.font(FAR) * 3 // 2,
        WARN if d.kilos >= 100 else FG,
        align="left",
        role="far",
        kind="score",
        min_size=p.font(BIG),
    )
