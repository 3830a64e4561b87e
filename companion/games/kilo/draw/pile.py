"""The pile screen: what is left to draw and the blocks a flush returned."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import grid, lines_text, no_game, rank_label, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    FG,
    GOOD,
    MUTED,
)
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


def draw_pile(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    o = v.odds
    gap = p.px(8)
    # Read from the seats: every label at 3.5 mm, every figure in far type; the four figures
    # in a 2x2 grid above the chart, each label over its figure.
    read = kit.read_size(p)
    read_h = p.line_height(read)
    far_h = p.fonts.size("0,0 kg %", kit.far_size(p))[1]  # a unit has descenders
    stats_h = 2 * (read_h + far_h + p.px(8)) + p.px(4)
    stats = Rect(area.x, area.y, area.width, stats_h)
    bars = Rect(area.x, stats.bottom + gap, area.width, area.bottom - stats.bottom - gap)
    items = [
        (t("scr.pile.count", lang), str(o.count)),
        (t("scr.pile.ace", lang), t("scr.pile.pct", lang, value=float(o.ace))),
        (t("scr.pile.seven", lang), t("scr.pile.pct", lang, value=float(o.seven))),
        (t("scr.pile.expected", lang), t("scr.pile.kg", lang, value=float(o.expected_kilos))),
    ]
    for cell, (label, value) in zip(grid(stats, 4, 2, p.px(4)), items, strict=True):
        p.panel(cell, stats)
        inner = cell.inflate(-p.px(10), -p.px(4))
        lab = Rect(inner.x, inner.y, inner.width, read_h)
        val = Rect(inner.x, lab.bottom, inner.width, inner.bottom - lab.bottom)
        p.text(label, lab, read, MUTED, align="left", min_size=read)
        p.text(
            value, val, kit.far_size(p), FG, align="right", role="far", kind="score", min_size=kit.far_size(p)
        )
    if o.source == "returned":
        title = t("scr.pile.returned", lang, n=o.known_bottom)
    elif o.source == "empty":
        title = t("pile.empty", lang)
    else:
        title = t("scr.pile.ranks", lang, bottom=o.known_bottom)
    # On two lines rather than smaller (a portrait screen).
    title_h = read_h * min(2, len(p.wrap_lines(title, bars.width, read)))
    lines_text(p, title, Rect(bars.x, bars.y, bars.width, title_h), read, FG, min_size=read)
    chart = Rect(bars.x, bars.y + title_h, bars.width, bars.height - title_h)
    label_h = read_h
    ranks = list(o.ranks)
    if not ranks:
        p.text(t("pile.empty", lang), chart, read, MUTED, min_size=read)
        return
    top = max(o.ranks.values())
    cols = split(chart, [1] * len(ranks), vertical=False, gap=p.px(3))
    for col, rank in zip(cols, ranks, strict=True):
        n = o.ranks[rank]
        lab = Rect(col.x, col.bottom - label_h, col.width, label_h)
        p.text(rank_label(rank, lang), lab, read, FG, min_size=read)
        num = Rect(col.x, col.y, col.width, label_h)
        p.text(str(n), num, read, MUTED, min_size=read)
        space = col.height - 2 * label_h
        h = max(0, int(space * n / top)) if top else 0
        color = BAD if rank == "A" else (GOOD if rank == "7" else ACCENT)
        p.bar(Rect(col.x + col.width // 6, lab.top - h, col.width * 2 // 3, h), color)


# --- history -----------------------------------------------------------------------------------
