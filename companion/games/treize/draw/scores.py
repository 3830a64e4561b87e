"""The scores screen: the sheet of the games played and the race between the players."""

from __future__ import annotations

import math

import pygame

from companion.display import kit, sheet
from companion.display.blocks import lines_text, nice_ticks, no_game, not_applicable, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL_HI,
    SMALL,
)
from companion.games.treize.actions import NextGame
from companion.games.treize.draw.common import spoken
from companion.games.treize.draw.pieces import seat_grid
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

# --- scores ------------------------------------------------------------------------------------


def nice_step(span: float, ticks: int = 5) -> int:
    """A round 1-2-5 step that cuts ``span`` into at most ``ticks`` parts (the charts' ticks)."""
    return nice_ticks(span, ticks)[1]


def sheet_of(v: View, lang: str) -> sheet.Sheet:
    """The kit's sheet of the match: a column a game ("P3"), the winner's 0 in green; places
    by the lowest total; framed red at the target; the game in play framed."""
    totals = dict(v.standings)

    def places(of: dict[str, int]) -> tuple[int, ...]:
        return tuple(1 + sum(x < of[w] for x in of.values()) for w in v.players)

    now = places(totals)
    before = places(dict(v.history[-2].totals)) if len(v.history) > 1 else now
    low = min(totals.values())
    return sheet.Sheet(
        v.players,
        tuple(
            sheet.Column(
                t("treize.scores.game", lang, n=g.number),
                tuple(dict(g.scores)[w] for w in v.players),
                v.seat_of(g.winner) if g.winner in v.players else None,
            )
            for g in v.history
        ),
        tuple(totals[w] for w in v.players),
        now,
        t("treize.pts", lang),
        t("treize.scores.total", lang),
        moves=tuple(b - a for a, b in zip(now, before, strict=True)),
        first=frozenset(s for s, w in enumerate(v.players) if totals[w] == low),
        heavy=frozenset(s for s, w in enumerate(v.players) if totals[w] >= v.target),
        now=None if v.finished else t("treize.scores.game", lang, n=v.game_number),
    )


def race_chart(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Each player's total after each game, towards the finish line (the target, in red)."""
    lang = ui.lang
    p.panel(area)
    title = Rect(area.x + p.px(10), area.y + p.px(4), area.width - p.px(20), p.px(30))
    p.text(
        t("treize.scores.race", lang, target=v.target),
        title,
        p.font(SMALL),
        FG,
        align="left",
        min_size=p.font(14),
    )
    label = p.font(SMALL) * 3 // 4  # the axes: read at arm's length, at least the name line
    label = max(label, p.name_size() * 3 // 4)
    label_h = p.line_height(label)
    axis_w = p.fonts.size("20", label)[0] + p.px(10)
    axis_h = label_h + p.px(2)
    plot = Rect(
        area.x + axis_w,
        title.bottom + p.px(12),
        area.width - axis_w - p.px(40),
        area.bottom - title.bottom - axis_h - p.px(18),
    )
    if plot.width < 10 or plot.height < 10:
        return
    totals_by_game = [dict(g.totals) for g in v.history]
    top_total = max([v.target, *(n for row in totals_by_game for n in row.values())])
    step = nice_step(top_total, 4)
    top = math.ceil(top_total / step) * step
    games = max(len(v.history), 1)
    for value in range(0, top + 1, step):
        y = plot.bottom - plot.height * value // top
        pygame.draw.line(p.surface, PANEL_HI, (plot.left, y), (plot.right, y), 1)
        if value == v.target:
            continue
        p.text(
            str(value),
            Rect(area.x + p.px(2), y - label_h // 2, axis_w - p.px(6), label_h),
            label,
            MUTED,
            align="right",
            role="small",
            min_size=label,
        )
    # The finish line of the race, with its number.
    y_target = plot.bottom - plot.height * v.target // top
    pygame.draw.line(p.surface, BAD, (plot.left, y_target), (plot.right, y_target), max(2, p.px(3)))
    big = p.font(NEAR)
    p.text(
        str(v.target),
        Rect(
            plot.right + p.px(4),
            y_target - p.line_height(big) // 2,
            area.right - plot.right - p.px(6),
            p.line_height(big),
        ),
        big,
        BAD,
        align="left",
        role="near",
        min_size=label,
    )

    def xy(g: int, n: int) -> tuple[int, int]:
        return plot.left + plot.width * g // games, plot.bottom - plot.height * n // top

    xstep = nice_step(games, 8)
    for g in range(xstep, games + 1, xstep):
        x = xy(g, 0)[0]
        w = p.fonts.size(str(g), label)[0] + p.px(8)
        p.text(
            str(g),
            Rect(x - w // 2, plot.bottom + p.px(2), w, axis_h),
            label,
            MUTED,
            role="small",
            min_size=label,
        )
    kit.seat_lines(p, [[row[name] for row in totals_by_game] for name in v.players], xy, max(3, p.px(4)))


def draw_scores(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(8)
    if not v.advanced:
        winner = v.history[-1].winner if v.history else None
        text = (
            t("treize.scores.basic", lang, name=spoken(v, winner))
            if winner
            else t("treize.scores.basic_none", lang)
        )
        rest = not_applicable(p, area, text)
        seat_grid(p, v, ui, rest, touch=False)
        return
    if ui.show_result and v.history and not v.finished:
        last = v.history[-1]
        band_h = p.px(120 if p.scale.portrait else 70)
        band = Rect(area.x, area.y, area.width, band_h)
        if p.scale.portrait:
            text_b, btn_b = split(band, [1.4, 1], gap=gap)
        else:
            text_b, btn_b = split(band, [1.6, 1], vertical=False, gap=gap)
        lines = (
            t("treize.scores.won", lang, n=last.number, name=spoken(v, last.winner))
            + "\n"
            + t("treize.scores.starts", lang, name=spoken(v, v.starter), n=v.game_number)
        )
        p.paragraph(lines, text_b, p.font(NEAR), GOOD, min_size=p.font(18), role="near")  # who won
        p.button(
            btn_b,
            t("treize.scores.next", lang),
            NextGame(),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(NEAR),
        )
        area = Rect(area.x, band.bottom + gap, area.width, area.height - band_h - gap)
    if not v.history:
        area = not_applicable(p, area, t("treize.scores.none", lang))
    drawn = sheet_of(v, lang)
    if p.scale.portrait:
        box, chart = split(area, [1.1, 1], gap=gap)
    else:
        box, chart = split(area, [1.3, 1], vertical=False, gap=gap)
    # The race beside the sheet keeps its axes legible where a row holds a score with half its
    # height again around it; else (the 7" screen at a full table) the kit's tiles, the race's
    # target framed after them.
    # Judged at the longest table (six), whatever this one's size: at five on the 7" screen the
    # rows held their scores, but the race's axis labels and the sheet's rounds fell to 10 px
    # (tests/review/test_findings23.py's smaller tables); one screen keeps one form.
    roomy = area.height / (max(len(v.players), 6) + 2) >= 1.5 * kit.score_height(p)
    if not roomy or not sheet.grid_fits(p, box, len(v.players)):
        read = kit.read_size(p)

        def race(inner: Rect) -> None:
            lines_text(p, t("treize.scores.race", lang, target=v.target), inner, read, ACCENT, read)

        sheet.tiles(p, area, drawn, lang, race, now_height=p.line_height(read) + 4 * p.px(5))
        return
    sheet.grid(p, box, drawn, lang)
    # It changes once a game (it reads only the view and the language): drawn, then copied.
    p.layer(("treize.race", v, lang), chart, lambda: race_chart(p, v, ui, chart))
