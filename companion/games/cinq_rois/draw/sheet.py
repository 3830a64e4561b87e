"""The score sheet: every round's points, and the round to play under it."""

from __future__ import annotations

import pygame

from companion.display import kit, sheet
from companion.display.app_actions import Nav
from companion.display.blocks import lines_text, no_game, rank_label, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BIG,
    FG,
    GOOD,
    MUTED,
    SMALL,
)
from companion.games.cinq_rois.actions import DrawLots, GoOut
from companion.games.cinq_rois.draw.common import headline_text, todo_text, tr
from companion.games.cinq_rois.solver import ROUNDS, bonus_rank
from companion.games.cinq_rois.view import (
    View,
)

Rect = pygame.Rect


def _sheet_foot(p: Painter, v: View, ui: Ui, foot: Rect) -> None:
    gap = p.px(4)
    lang = ui.lang
    if p.scale.portrait:
        hint_b, buttons = split(foot, [1, 1.2], gap=gap)
        lots_b, entry_b = split(buttons, [1, 1], vertical=False, gap=gap)
    else:
        hint_b, lots_b, entry_b = split(foot, [1.6, 1, 1], vertical=False, gap=gap)
    todo = todo_text(v, ui, lang)
    lines_text(
        p, todo[:1].upper() + todo[1:], hint_b, p.font(22), MUTED, p.font(14), role="small", align="left"
    )
    if v.dealer_open:
        p.button(lots_b, tr("lots.button", lang), DrawLots(), color=ACCENT, size=p.font(SMALL))
    p.button(
        entry_b,
        tr("sheet.enter", lang),
        Nav("entry"),
        color=GOOD,
        hint=tr("key.e", lang),
        size=p.font(SMALL),
    )


def sheet_of(v: View, lang: str) -> sheet.Sheet:
    """The kit's sheet of this game: a column a round, labelled with its bonus rank as the
    language writes it ("3" … "10", "V", "D", "R"), the one a player went out in green."""
    return sheet.Sheet(
        v.players,
        tuple(
            sheet.Column(
                rank_label(rv.bonus, lang),
                tuple(rv.scores),
                v.seat_of(rv.out) if rv.out in v.players else None,
            )
            for rv in v.history
        ),
        tuple(v.totals),
        tuple(v.places),
        tr("pts", lang),
        tr("sheet.total", lang),
        moves=tuple(v.moves),
        first=frozenset(v.seat_of(w) for w in v.leaders),
        now=None if v.finished else rank_label(bonus_rank(v.round).value, lang),
        later=()
        if v.finished
        else tuple(rank_label(bonus_rank(r).value, lang) for r in range(v.round + 1, ROUNDS + 1)),
    )


def draw_sheet(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The kit's score sheet: the round to play in the headline, a row a player (place, name,
    every round's score, the total in far type), the round to play framed; touching a player
    means they went out. Where its rows cannot hold a total in far type (the 7" screen), the
    kit's tiles, the round to play in the cell after them with the entry button."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(4)
    act = None if v.finished else (lambda s: GoOut(s))
    drawn = sheet_of(v, lang)
    portrait = p.scale.portrait
    info_h = p.px(62) if portrait else p.px(36)
    foot_h = 0 if v.finished else p.px(96) if portrait else p.px(50)
    body = Rect(
        area.x,
        area.y + info_h + gap,
        area.width,
        area.height - info_h - gap - (foot_h + gap if foot_h else 0),
    )
    # The grid's headline band and foot hold their lines at the type a TV reads from the table,
    # not at the 7" screen's far type: where a round's score cannot have its cap in a
    # nineteenth of the area (11 rounds and the bands), the tiles carry the round to play, at
    # any table size (tests/review/test_findings23.py's smaller tables: at five players the grid fitted its
    # rows, and its headline fell to 18 px).
    fits = area.height / (ROUNDS + 8) >= kit.score_height(p)
    if not fits or not sheet.grid_fits(p, body, len(v.players)):
        return sheet.tiles(p, area, drawn, lang, lambda box: _round_to_play(p, v, ui, box), act)
    info = Rect(area.x, area.y, area.width, info_h)
    lines_text(
        p, headline_text(v, lang), info, p.font(BIG), FG, p.font(20), kind="headline", players=v.players
    )
    sheet.grid(p, body, drawn, lang, act)
    if foot_h:
        _sheet_foot(p, v, ui, Rect(area.x, area.bottom - foot_h, area.width, foot_h))


def _round_to_play(p: Painter, v: View, ui: Ui, inner: Rect) -> None:
    """In the framed cell after the tiles: the round to play, and what the scorer touches."""
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    if v.finished:
        lines_text(p, headline_text(v, lang), inner, read, ACCENT, read, players=v.players)
        return
    button_h = max(p.px(48), inner.height - p.line_height(read) - gap)
    label = Rect(inner.x, inner.y, inner.width, inner.height - button_h - gap)
    text = tr("sheet.now", lang, round=v.round, cards=v.cards, bonus=rank_label(v.bonus or "", lang))
    lines_text(p, text, label, read, ACCENT, read, players=v.players)
    foot = Rect(inner.x, label.bottom + gap, inner.width, button_h)
    if v.dealer_open:
        lots_b, entry_b = split(foot, [1, 1], vertical=False, gap=gap)
        p.button(lots_b, tr("lots.button", lang), DrawLots(), color=ACCENT, size=p.font(SMALL))
    else:
        entry_b = foot
    p.button(
        entry_b,
        tr("sheet.enter", lang),
        Nav("entry"),
        color=GOOD,
        hint=tr("key.e", lang),
        size=p.font(SMALL),
    )
