"""A card drawn as a chip, a part of the kit: the one way every game draws a card (Kilo's cards
in front of a player, Les Cinq Rois' hands, arrangements and cards typed): a small white card,
its rank as the language writes it on the left, its suit drawn on the right (the typeface has
no suit symbols), in red for hearts and diamonds, black for spades and clubs, blue for Les Cinq
Rois' stars; a joker says "JK". A wild shows the card it stands for, on the wilds' yellow.

Drawn through ``Painter.under`` (the retained frame's rule), inside a block or not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from companion.display.blocks import rank_label
from companion.display.layout import Painter, draw_suit

Rect = pygame.Rect
Color = tuple[int, int, int]

RED: Color = (200, 0, 0)
BLACK: Color = (0, 0, 0)
STAR: Color = (0, 90, 200)
JOKER_INK: Color = (120, 0, 160)
CARD_FACE: Color = (245, 245, 245)
WILD_BAND: Color = (240, 228, 66)  # a wild's own colour (the legend of Les Cinq Rois says so)
JOKER = "JK"
SUITS = ("S", "H", "D", "C", "*")  # "*": Les Cinq Rois' fifth suit, the star


def split_card(card: str) -> tuple[str, str | None]:
    """("10", "H") for "10H"; a joker, or a rank alone, has no suit."""
    if card == JOKER:
        return JOKER, None
    if len(card) > 1 and card[-1] in SUITS:
        return card[:-1], card[-1]
    return card, None


def suit_color(suit: str | None) -> Color:
    if suit in ("H", "D"):
        return RED
    if suit == "*":
        return STAR
    return BLACK


def draw_star(surface: pygame.Surface, center: tuple[int, int], r: int, color: Color) -> None:
    cx, cy = center
    pts = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    pygame.draw.polygon(surface, color, pts)


def suit_mark(p: Painter, suit: str, center: tuple[int, int], r: int, color: Color) -> None:
    """A suit's shape (or the star) centred on ``center``."""
    surface = p.under(Rect(center[0] - r, center[1] - r, 2 * r + 1, 2 * r + 1))
    if suit == "*":
        draw_star(surface, center, r, color)
    else:
        draw_suit(surface, suit, center, r, color)


def label(card: str, lang: str) -> str:
    rank, _suit = split_card(card)
    return JOKER if rank == JOKER else rank_label(rank, lang)


def _suit_r(w: int, h: int) -> int:
    return max(2, min(int(h * 0.2), int(w * 0.16)))


def _label_box(rect: Rect, suited: bool) -> Rect:
    """Where the rank goes: left of the suit, or the whole chip."""
    if not suited:
        return rect.inflate(-2, 0)
    r = _suit_r(rect.width, rect.height)
    right = rect.right - max(1, rect.width // 12) - 2 * r - 1
    return Rect(rect.x + 1, rect.y, max(1, right - rect.x - 1), rect.height)


def chip_width(p: Painter, card: str, lang: str, h: int, size: int) -> int:
    """The least width of a chip ``h`` tall whose rank holds ``size``."""
    need = p.fonts.size(label(card, lang), size)[0]
    suited = split_card(card)[1] is not None
    w = need + 2
    while _label_box(Rect(0, 0, w, h), suited).width < need:
        w += 1
    return w


def chip(
    p: Painter,
    card: str,
    rect: Rect,
    lang: str,
    *,
    size: int | None = None,
    border: Color | None = None,
    stands_for: str | None = None,
    face: Color = CARD_FACE,
) -> None:
    """One card as a chip. ``size``: its rank at that size (read from a seat; the chip is made
    wide enough by ``chip_width``), else as big as the chip allows. ``stands_for``: a wild, with
    the card it stands for under it on the wilds' yellow. ``border``: a group's frame."""
    radius = max(2, rect.height // 8)
    surface = p.under(rect)
    pygame.draw.rect(surface, face, rect, border_radius=radius)
    if stands_for is not None:
        top_h = rect.height * 3 // 5
        band = Rect(rect.x, rect.y + top_h, rect.width, rect.height - top_h)
        pygame.draw.rect(
            surface, WILD_BAND, band, border_bottom_left_radius=radius, border_bottom_right_radius=radius
        )
        _face(p, card, Rect(rect.x, rect.y, rect.width, top_h), lang, None)
        _face(p, stands_for, band, lang, None)
    else:
        _face(p, card, rect, lang, size)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=max(2, rect.height // 14), border_radius=radius)


def _face(p: Painter, card: str, rect: Rect, lang: str, size: int | None) -> None:
    rank, suit = split_card(card)
    h = rect.height
    ink = JOKER_INK if rank == JOKER else suit_color(suit)
    p.text(
        label(card, lang),
        _label_box(rect, suit is not None),
        size or int(h * 0.9),
        ink,
        role="small",
        min_size=size or 8,
    )
    if suit:
        r = _suit_r(rect.width, h)
        suit_mark(p, suit, (rect.right - r - max(1, rect.width // 12), rect.centery), r, ink)


Group = tuple[Sequence[tuple[str, str | None]], Color | None]  # (card, what a wild stands for), frame


def chip_row(p: Painter, groups: Sequence[Group], box: Rect, lang: str) -> int:
    """Groups of cards side by side as cards are held (upright), a gap between groups, smaller
    where they do not fit; returns the width used."""
    count = sum(len(g) for g, _ in groups)
    if not count:
        return 0
    gaps = len(groups) - 1
    h = box.height
    w = int(h * 0.72)
    inner = max(1, h // 16)
    group_gap = max(4, h // 3)
    need = count * w + (count - len(groups)) * inner + gaps * group_gap
    if need > box.width:
        scale = box.width / need
        w = max(6, int(w * scale))
        group_gap = max(2, int(group_gap * scale))
        inner = max(0, int(inner * scale))
        h = min(h, int(w / 0.72))
    x = box.x
    y = box.y + (box.height - h) // 2
    for gi, (cards, border) in enumerate(groups):
        for ci, (card, stands) in enumerate(cards):
            rect = Rect(x, y, w, h)
            if rect.right > box.right:
                return x - box.x
            chip(p, card, rect, lang, border=border, stands_for=stands)
            x += w + (inner if ci < len(cards) - 1 else 0)
        if gi < len(groups) - 1:
            x += group_gap
    return x - box.x


def flat_chips(
    p: Painter,
    groups: Sequence[tuple[Sequence[tuple[str, bool]], Color | None]],  # (card, wild), frame
    box: Rect,
    lang: str,
    size: int,
) -> None:
    """Cards as chips one line high whose ranks keep ``size`` (read type), each as wide as its
    rank ("10" is wider than "7"), each group framed; a wild on the wilds' yellow as the card it
    stands for. Never drawn outside ``box``: what does not fit is left out."""
    h = box.height
    group_gap = max(3, p.px(5))
    x = box.x
    for cards, border in groups:
        for card, wild in cards:
            w = chip_width(p, card, lang, h, size)
            if x + w > box.right:
                return
            chip(
                p,
                card,
                Rect(x, box.y, w, h),
                lang,
                size=size,
                border=border,
                face=WILD_BAND if wild else CARD_FACE,
            )
            x += w
        x += group_gap


def card_chips(p: Painter, cards: Sequence[str], box: Rect, lang: str, text_size: int | None = None) -> None:
    """The cards lying in front of a player (Kilo), the newest kept where they do not all fit
    ("+3" says how many are left out); ``text_size``: their ranks at that size at least (read
    from a seat), the cards as wide as it takes."""
    if not cards:
        return
    h = box.height
    w = int(h * 1.25)
    if text_size is not None:
        w = max(w, chip_width(p, "10H", lang, h, text_size))
    gap = max(2, h // 8)
    fits = max(1, (box.width + gap) // (w + gap))
    shown = cards if len(cards) <= fits else cards[-(fits - 1) :] if fits > 1 else ()
    hidden = len(cards) - len(shown)
    x = box.left
    if hidden:
        from companion.display.theme import MUTED

        p.text(f"+{hidden}", Rect(x, box.top, w, h), int(h * 0.9), MUTED, role="small")
        x += w + gap
    for card in shown:
        chip(p, card, Rect(x, box.top, w, h), lang, size=text_size)
        x += w + gap
