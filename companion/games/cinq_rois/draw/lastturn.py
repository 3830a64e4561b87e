"""The last turns screen: who has gone out, who plays once more."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import lines_text, no_game, not_applicable, split
from companion.display.layout import Control, Painter
from companion.display.state import Ui
from companion.display.theme import (
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    SMALL,
    seat_color,
)
from companion.games.cinq_rois.actions import CancelOut, ToEntry, TurnPlayed
from companion.games.cinq_rois.draw.common import draw_seats, said, tr
from companion.games.cinq_rois.entry import RoundEntry
from companion.games.cinq_rois.view import (
    View,
)
from companion.i18n import t

Rect = pygame.Rect


# --- last turns --------------------------------------------------------------------------------


def draw_lastturn(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == v.round else None
    if v.finished or entry is None or entry.out is None:
        area = not_applicable(p, area, tr("last.none", lang) if not v.finished else tr("todo.over", lang))
        return draw_seats(p, v, ui, area)
    gap = p.px(8)
    portrait = p.scale.portrait
    n = len(v.players)
    now = entry.pending[0] if entry.pending else None
    # Whose last turn it is now, in the biggest type and their seat colour; who went out and
    # what the others do, under it.
    if now is not None:
        banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
        kit.turn_banner(p, banner, v.seat_of(now), now, v.players, lang)
        top = banner.bottom
    else:
        top = area.y
    head = Rect(area.x, top, area.width, p.line_height(kit.read_size(p)))
    lines_text(
        p,
        tr("last.title", lang, name=said(v, entry.out)),
        head,
        kit.read_size(p),
        FG,
        kit.read_size(p),
        players=v.players,
    )
    head_h = head.bottom - area.y
    foot_h = p.px(66)
    # What everyone does now, if the list keeps a name's line a row without it.
    sub_h = p.px(34) if not portrait else p.px(56)
    need = (n - 1) * (p.line_height(p.name_size()) + p.px(8))
    if area.bottom - foot_h - head.bottom - sub_h - 2 * gap < need:
        sub_h = 0
    sub = Rect(area.x, head.bottom, area.width, sub_h)
    if sub_h:
        lines_text(p, tr("last.sub", lang), sub, p.font(SMALL), MUTED, p.font(16), role="small")
    body = Rect(area.x, sub.bottom + gap, area.width, area.height - head_h - sub.height - foot_h - 2 * gap)
    order = [v.players[(v.seat_of(entry.out) + i) % n] for i in range(1, n)]
    cells = split(body, [1] * len(order), gap=max(2, p.px(4)))
    for i, (name, cell) in enumerate(zip(order, cells, strict=True)):
        s = v.seat_of(name)
        played = name not in entry.pending
        current = name == now
        p.panel(cell, area, PANEL_HI if current else PANEL, border=seat_color(s) if current else None)
        inner = cell.inflate(-p.px(10), -max(2, p.px(3)))
        num_b, name_b, state_b = split(inner, [0.35, 3.2, 1.1], vertical=False, gap=p.px(6))
        color = MUTED if played else FG
        drawn = kit.seat_name(p, v.players, s, name_b, p.font(NEAR), color, mark=p.px(36))
        p.text(f"{i + 1}.", num_b, drawn, color, align="left", min_size=p.font(10))
        state = tr("last.played" if played else ("last.now" if current else "last.waiting"), lang)
        p.text(
            state,
            state_b,
            min(p.font(SMALL), drawn),
            GOOD if played else (FG if current else MUTED),
            align="right",
            min_size=p.font(10),
        )
        if not played:
            p.controls.append(Control(Rect(cell), TurnPlayed(s)))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    back_b, go_b = split(foot, [1, 1.5], vertical=False, gap=gap)
    p.button(back_b, tr("last.cancel", lang), CancelOut(), hint=t("scr.key.esc", lang), size=p.font(SMALL))
    p.button(
        go_b,
        tr("last.go", lang),
        ToEntry(),
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(SMALL),
    )
