"""The card entry: the ranks and suits the loser may have drawn, and why the others cannot be."""

from __future__ import annotations

import pygame

from companion.display import grid as keypad
from companion.display import kit
from companion.display.blocks import (
    RANK_KEYS_EN,
    RANK_KEYS_FR,
    RANK_ORDER,
    RED_SUITS,
    SUITS,
    no_game,
    not_applicable,
    rank_label,
    split,
)
from companion.display.layout import Painter, draw_suit
from companion.display.state import Ui
from companion.display.theme import (
    BIG,
    DISABLED,
    FAR,
    FG,
    GOOD,
    NEAR,
    PANEL,
    SMALL,
)
from companion.games.kilo.actions import DrawCard, PickRank, PickSuit, Why
from companion.games.kilo.draw.common import RANK_BY_TEXT, SUIT_KEYS
from companion.games.kilo.draw.table import seat_strip
from companion.games.kilo.rules import KILOS
from companion.games.kilo.ui_state import kilo_ui
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


def short_reason(v: View, rank: str) -> str | None:
    reason = v.rank_reasons.get(rank)
    if reason is None:
        return None
    if rank not in v.pile_ranks:
        return "dealt"
    if v.odds.source == "returned":
        return "later"
    if v.odds.source == "empty":
        return "empty"
    return "gone"


def aside_reason(v: View, ranks: list[str]) -> tuple[str, str] | None:
    """Why the ranks set aside cannot be drawn, in full: the sentence of the first rank of each
    reason ("K cannot be drawn: Kings are dealt to the players at 10 players, the pile holds A 7
    10"), one after the other."""
    seen: dict[str | None, tuple[str, str]] = {}
    for rank in ranks:
        reason = v.rank_reasons.get(rank)
        if reason is not None:
            seen.setdefault(short_reason(v, rank), reason)
    if not seen:
        return None
    return " ".join(r[0] for r in seen.values()), " ".join(r[1] for r in seen.values())


def rank_keys_of(v: View, ui: Ui, lang: str) -> tuple[list[keypad.Key], list[tuple[str, list[keypad.Key]]]]:
    """The rank keys of the card entry: those that can be drawn (label, what the card weighs
    and its keyboard keys), and those that cannot, grouped by why (in order of rank)."""
    offered: list[keypad.Key] = []
    aside: dict[str, list[keypad.Key]] = {}
    for rank in RANK_ORDER:
        why = short_reason(v, rank)
        keys = (RANK_KEYS_FR if lang == "fr" else RANK_KEYS_EN).get(rank, rank)
        # What the card weighs, beside its key: an Ace is an event before it is drawn.
        worth = (
            t("scr.card.worth_flush", lang)
            if rank == "7"
            else t("kilos", lang, kilos=KILOS[RANK_BY_TEXT[rank]])
        )
        key = keypad.Key(
            rank_label(rank, lang),
            PickRank(rank),
            hint=f"{worth} · {keys}",
            reason=t(f"scr.card.tag.{why}", lang) if why else None,
            why=Why(rank),
            selected=kilo_ui(ui).rank == rank,
        )
        if why is None:
            offered.append(key)
        else:
            aside.setdefault(why, []).append(key)
    return offered, list(aside.items())


def draw_card(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if v.awaiting != "draw":
        area = not_applicable(p, area, t("scr.card.over", lang) if v.finished else t("scr.card.none", lang))
        seat_strip(p, v, ui, area)
        return
    gap = p.px(6)
    who = v.owed[0]
    # The rank grid is what the table touches: when a message band takes room, the title,
    # note and footer give it up first.
    # Whoever draws, in the kit's turn banner (their seat colour, the biggest text on the
    # screen; it slides in when the next one draws), the question under it, as 13 feuilles'
    # entries ask theirs.
    ask = t("scr.card.draws_q", lang)
    if len(v.owed) > 1 or (v.last_slap is not None and len(v.last_slap.losers) > 1):
        total = max(len(v.owed), len(v.last_slap.losers) if v.last_slap else 0)
        ask = f"({total - len(v.owed) + 1}/{total}) " + ask
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(who), who, v.players, lang)
    ask_b = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(ask, ask_b, p.font(SMALL), FG, align="left", min_size=p.font(SMALL))
    head = Rect(area.x, area.y, area.width, ask_b.bottom - area.y)
    head_h = head.height
    foot_h = min(p.px(66), area.height // 8)
    aside_h = keypad.aside_height(p)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - aside_h - 3 * gap)
    rank_area, suit_area = split(body, [2.2 if not p.scale.portrait else 3, 1], gap=gap)
    # The ranks that can still be drawn take the grid, big; those that cannot are set aside in
    # one line under it (at ten players 3 ranks of 13 can be drawn).
    offered, aside = rank_keys_of(v, ui, lang)
    # The ranks grow with their cells, never to the banner's size: who draws stays the biggest.
    named = next((r.size for r in reversed(p.texts) if r.kind == "headline"), p.font(FAR))
    top = min(p.font(FAR), named * 4 // 5)
    most = 5 if p.scale.portrait else 7
    keypad.entry_grid(p, rank_area, offered, min(p.font(BIG), top), aspect=1.4, most=most, top=top)
    suit_cells = split(suit_area, [1, 1, 1, 1, 1.3], vertical=False, gap=p.px(5))
    for cell, suit in zip(suit_cells, SUITS, strict=False):
        card = f"{kilo_ui(ui).rank}{suit}" if kilo_ui(ui).rank else None
        reason = v.card_reasons.get(card) if card else None
        enabled = reason is None
        action = PickSuit(suit) if enabled else Why(card or suit)
        p.button(
            cell,
            "",
            action,
            enabled=enabled,
            selected=kilo_ui(ui).suit == suit,
            color=(245, 245, 245) if enabled else PANEL,
            hint=SUIT_KEYS[suit],
        )
        r = max(4, min(cell.width, cell.height) // 5)
        color = ((200, 0, 0) if suit in RED_SUITS else (0, 0, 0)) if enabled else DISABLED
        # Through ``under``: the painter knows where, and keeps the rest of the frame (drawn on
        # ``p.surface`` the whole card entry was drawn anew each frame, 2.5 ms at 1920x1080).
        draw_suit(p.under(cell), suit, (cell.centerx, cell.y + cell.height * 2 // 5), r, color)
    p.button(
        suit_cells[4],
        t("scr.card.any_suit", lang),
        PickSuit(None),
        selected=kilo_ui(ui).suit is None,
        size=p.font(SMALL),
    )
    line = Rect(area.x, body.bottom + gap, area.width, aside_h)
    groups = [(t(f"scr.card.tag.{why}", lang), ks) for why, ks in aside]
    keys_of_aside = " ".join(k.action.rank for _, ks in aside for k in ks if isinstance(k.action, PickRank))
    keypad.aside(p, line, t("scr.card.aside", lang), groups, Why(keys_of_aside), p.font(SMALL))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    chosen_b, ok_b = split(foot, [1.2, 1], vertical=False, gap=gap)
    rank = kilo_ui(ui).rank
    if rank:
        from companion.cards import parse_card

        picked = parse_card(rank + (kilo_ui(ui).suit or ""))
        chosen = t("scr.card.chosen", lang, card=picked.name_in(lang))
    else:
        chosen = t("scr.card.pick", lang)
    if p.fonts.size(chosen, p.font(20))[0] <= chosen_b.width:
        p.text(chosen, chosen_b, p.font(NEAR), FG, align="left", min_size=p.font(20))
    else:  # a narrow screen: two lines rather than a cut sentence
        p.paragraph(chosen, chosen_b, p.font(NEAR), FG, min_size=p.font(14))
    p.button(
        ok_b,
        t("scr.card.confirm", lang),
        DrawCard(),
        enabled=kilo_ui(ui).rank is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )
