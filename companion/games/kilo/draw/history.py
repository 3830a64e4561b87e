"""The history screen: every player's kilos round by round."""

from __future__ import annotations

import math

import pygame

from companion.display import kit
from companion.display.blocks import grid, nice_ticks, no_game, not_applicable, split
from companion.display.kit import size_for_height
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    BIG,
    FG,
    MUTED,
    NEAR,
    PANEL_HI,
)
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


def draw_history(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    seats = tuple((s.seat, s.name, s.kilos) for s in v.seats)
    p.layer(
        ("kilo.history", v.history, v.rounds, v.players, seats, ui.lang),
        area,
        lambda: _history(p, v, ui.lang, area),
    )


def _history(p: Painter, v: View, lang: str, area: Rect) -> None:
    gap = p.px(8)
    read = kit.read_size(p)
    n = max(1, len(v.players))
    title_h = p.line_height(read) + p.px(4)
    # Beside the chart, a legend row holds the name and the kilos (a score: far type); where it
    # cannot (ten players on the 7" screen), the legend goes under the chart, names only, in
    # columns: the kilos are the table's, and the chart's axis reads them.
    legend_w = area.width * 10 // 29
    kilo_w = p.fonts.size(t("kilos", lang, kilos=888), kit.far_size(p))[0]
    widest = max(p.fonts.size(kit.first_short_form(w, v.players), p.far_name_size())[0] for w in v.players)
    side = (
        not p.scale.portrait
        and (area.height - title_h - p.px(3) * (n - 1)) // n >= kit.score_height(p)
        and p.px(36) + widest + kilo_w + 3 * p.px(6) <= legend_w
    )
    cols = 3 if n > 6 else 2 if n > 3 else 1
    kilos = n <= 6  # three rows hold the kilos in far type; more leave the chart no room
    if side:
        chart_box, legend = split(area, [1.9, 1], vertical=False, gap=gap)
    elif p.scale.portrait:
        chart_box, legend = split(area, [1.6, 1], gap=gap)
    else:
        row_h = max(p.line_height(p.far_name_size()), p.line_height(kit.far_size(p)) if kilos else 0) + p.px(
            4
        )
        legend_h = math.ceil(n / cols) * (row_h + p.px(3))
        chart_box = Rect(area.x, area.y, area.width, area.height - legend_h - gap)
        legend = Rect(area.x, chart_box.bottom + gap, area.width, legend_h)
    p.panel(chart_box)
    rows = v.history
    if not rows:
        chart_box = not_applicable(p, chart_box, t("scr.history.none", lang))
    ticks = nice_ticks(max([1, *(k for row in rows for k in row)]), 5)
    label = max(read, p.font(22))
    axis_w = max(p.px(56), p.fonts.size(str(ticks[-1]), label)[0] + p.px(12))
    axis_h = max(p.px(32), p.line_height(label) + p.px(4))
    plot = Rect(
        chart_box.x + axis_w,
        chart_box.y + p.px(14),
        chart_box.width - axis_w - p.px(16),
        chart_box.height - axis_h - p.px(20),
    )
    label_h = p.line_height(label)
    most = 5
    while most > 2 and plot.height < most * label_h * 1.4:  # the axis' figures do not touch
        most -= 1
        ticks = nice_ticks(max([1, *(k for row in rows for k in row)]), most)
    top = ticks[-1]
    rounds = max(v.rounds, len(rows), 1)
    # Grid lines and the kilo axis: round values, each line where its value is.
    for value in ticks:
        y = plot.bottom - round(plot.height * value / top)
        pygame.draw.line(p.surface, PANEL_HI, (plot.left, y), (plot.right, y), 1)
        p.text(
            str(value),
            Rect(chart_box.x, y - label_h // 2, axis_w - p.px(6), label_h),
            label,
            MUTED,
            align="right",
            min_size=label,
        )

    def xy(r: int, kilos: int) -> tuple[int, int]:
        return (plot.left + plot.width * r // rounds, plot.bottom - int(plot.height * kilos / top))

    # As many round numbers as hold side by side at the label's size.
    widest = p.fonts.size(str(rounds), label)[0] + p.px(8)
    step = max(1, math.ceil(rounds / max(1, plot.width // max(1, widest))), math.ceil(rounds / 12))
    for r in range(0, rounds + 1, step):
        x = xy(r, 0)[0]
        p.text(
            str(r),
            Rect(x - widest // 2, plot.bottom + p.px(4), widest, axis_h - p.px(4)),
            label,
            MUTED,
            min_size=label,
        )
    kit.seat_lines(p, [[row[seat] for row in rows] for seat in range(len(v.players))], xy, max(2, p.px(3)))
    if not side and not p.scale.portrait:
        _history_names(p, v, legend, cols, lang if kilos else None)
        return
    title = Rect(legend.x, legend.y, legend.width, title_h)
    p.text(t("scr.history.title", lang), title, max(read, p.font(NEAR)), FG, align="left", min_size=read)
    entries = Rect(legend.x, title.bottom, legend.width, legend.height - title.height)
    cells = split(entries, [1] * len(v.players), gap=p.px(3))
    # Each line's seat mark (the line's colour and shape), the name in white, the kilos.
    d = min(cells[0].height, p.px(36))
    kilo_size = max(kit.far_size(p), min(p.font(30), size_for_height(p, cells[0].height, p.font(30))))
    kilo_size = min(kilo_size, size_for_height(p, cells[0].height, kilo_size, "0123"))
    kilo_w = p.fonts.size(t("kilos", lang, kilos=888), kilo_size)[0]
    name_w = legend.width - d - kilo_w - 2 * p.px(6)
    size = kit.uniform_name_size(
        p,
        v.players,
        list(v.players),
        name_w,
        cells[0].height,
        max(p.far_name_size(), min(p.font(NEAR), size_for_height(p, cells[0].height, p.font(BIG)))),
    )
    for cell, s in zip(cells, v.seats, strict=True):
        p.seat_mark(s.seat, (cell.x + d // 2, cell.centery), int(d * 0.4))
        kilo_b = Rect(cell.right - kilo_w, cell.y, kilo_w, cell.height)
        p.text(
            t("kilos", lang, kilos=s.kilos),
            kilo_b,
            kilo_size,
            FG,
            align="right",
            kind="score",
            min_size=min(kilo_size, size),
        )
        p.name(
            s.name,
            v.players,
            Rect(cell.x + d + p.px(6), cell.y, name_w, cell.height),
            size,
            FG,
            align="left",
            min_size=p.far_name_size(),
        )


def _history_names(p: Painter, v: View, legend: Rect, cols: int, lang: str | None) -> None:
    """The chart's key under it: each line's seat mark and the player's name at 4 mm, in
    columns read down, seating order; with ``lang``, each player's kilos in far type."""
    n = len(v.seats)
    per_col = math.ceil(n / cols)
    cells = grid(legend, per_col * cols, cols, p.px(3))
    size = p.far_name_size()
    far = kit.far_size(p)
    for i, s in enumerate(v.seats):
        col, row = divmod(i, per_col)
        cell = cells[row * cols + col]
        d = min(cell.height, p.px(30))
        p.seat_mark(s.seat, (cell.x + d // 2, cell.centery), int(d * 0.42))
        right = cell.right - p.px(4)
        if lang is not None:
            text = t("kilos", lang, kilos=s.kilos)
            w = p.fonts.size(text, far)[0]
            p.text(
                text,
                Rect(right - w, cell.y, w, cell.height),
                far,
                FG,
                align="right",
                kind="score",
                min_size=far,
            )
            right -= w + p.px(8)
        box = Rect(cell.x + d + p.px(6), cell.y, right - cell.x - d - p.px(6), cell.height)
        p.name(s.name, v.players, box, size, FG, align="left", min_size=size)


# --- game over ---------------------------------------------------------------------------------
