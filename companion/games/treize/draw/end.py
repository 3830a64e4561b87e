"""The end of a game entered without plays: who went out, what the others kept."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.app_actions import Cancel
from companion.display.blocks import grid, lines_text, no_game, not_applicable, split
from companion.display.layout import Control, Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    FG,
    GOOD,
    NEAR,
    PANEL_HI,
    SMALL,
    text_on,
)
from companion.games.treize.actions import CardsLeft, EndGame, Winner
from companion.games.treize.draw.common import entry_of, last_size, tracking
from companion.games.treize.draw.pieces import seat_grid
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

# --- end of a game entered without plays -------------------------------------------------------


def draw_end(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    if v.finished or tracking(v, ui) or v.awaiting != "play":
        why = t("treize.todo.over", lang) if v.finished else t("treize.end.none", lang)
        rest = not_applicable(p, area, why)
        seat_grid(p, v, ui, rest, touch=False)
        return
    gap = p.px(6)
    portrait = p.scale.portrait
    winner = e.player if e is not None and e.kind == "end" else None
    # The question in far type, read from the seats (the top bar names the game); who emptied
    # their hand and the cards the others hold at 4 mm, those counts in far type: the 7" rules
    # hold at every table (tests/review/test_findings23.py, a smaller table).
    far = kit.far_size(p)
    name_size = p.far_name_size()
    head_h = p.line_height(far)
    lines_text(
        p,
        t("treize.end.title", lang),
        Rect(area.x, area.y, area.width, head_h),
        far,
        ACCENT,  # a question for the table
        min_size=far,
        kind="headline",
        role="far",
        align="left",
    )
    foot_h = p.px(60)
    body = Rect(area.x, area.y + head_h + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    if v.advanced:
        pick, left = split(body, [1, 1.3] if not portrait else [1, 1.2], vertical=portrait, gap=gap)
        if not portrait:  # the names take what their short forms need, the counts the rest
            want = max(name_size, p.font(NEAR))
            need = max(p.fonts.size(kit.first_short_form(w, v.players), want)[0] for w in v.players)
            pick_w = min(pick.width, need + p.px(32) + p.px(30))
            pick = Rect(pick.x, pick.y, pick_w, pick.height)
            left = Rect(pick.right + gap, left.y, body.right - pick.right - gap, left.height)
    else:
        pick, left = body, Rect(body.x, body.bottom, body.width, 0)
    row_h = (pick.height - gap * (len(v.seats) - 1)) // max(1, len(v.seats))
    cols = 2 if portrait or row_h < p.line_height(name_size) else 1
    for s, cell in zip(v.seats, grid(pick, len(v.seats), cols, gap), strict=False):
        chosen = winner == s.name
        fill = GOOD if chosen else PANEL_HI
        p.panel(cell, None, fill, border=FG if chosen else None)
        p.controls.append(Control(Rect(cell), Winner(s.name)))
        inner = cell.inflate(-p.px(8), -p.px(2))
        d = min(inner.height, p.px(32))
        p.seat_mark(s.seat, (inner.x + d // 2, inner.centery), int(d * 0.42))
        p.name(
            s.name,
            v.players,
            Rect(inner.x + d + p.px(6), inner.y, inner.width - d - p.px(6), inner.height),
            max(name_size, p.font(NEAR)),
            text_on(fill),
            min_size=name_size,
        )
    if v.advanced and left.height > 0:
        read = kit.read_size(p)
        title = Rect(left.x, left.y, left.width, p.line_height(read))
        p.text(t("treize.end.left", lang), title, read, FG, align="left", min_size=read)
        others = [s for s in v.seats if s.name != winner]
        rest = Rect(left.x, title.bottom, left.width, left.bottom - title.bottom)
        # A row a player (name, −, count, +) where the count's far type holds in one; else two
        # columns of cells, the name above its count.
        line = max(p.line_height(far), kit.touch_size(p))
        stacked = (rest.height - p.px(3) * (len(others) - 1)) // max(1, len(others)) < line
        # Stacked: as many columns as a row of "−", the count and "+" (each 9 mm) allows.
        cell_w = 2 * kit.touch_size(p) + p.fonts.size("10", far)[0] + 4 * gap
        ncols = max(1, min(3, rest.width // cell_w)) if stacked else 1
        cells = grid(rest, len(others), ncols, p.px(3)) if others else []
        for s, cell in zip(others, cells, strict=False):
            n = e.left.get(s.name, v.dealt) if e is not None else v.dealt
            if stacked:
                name_row = Rect(cell.x, cell.y, cell.width, p.line_height(name_size))
                count_row = Rect(cell.x, name_row.bottom, cell.width, cell.bottom - name_row.bottom)
                touch, count_w = kit.touch_size(p), p.fonts.size("10", far)[0] + gap
                minus_b, n_b, plus_b = split(count_row, [touch, count_w, touch], vertical=False, gap=gap)
                name_b = name_row
            else:
                name_b, minus_b, n_b, plus_b = split(cell, [3.4, 1, 1, 1], vertical=False, gap=gap)
            d = min(name_b.height, p.px(28))
            p.seat_mark(s.seat, (name_b.x + d // 2, name_b.centery), int(d * 0.42))
            p.name(
                s.name,
                v.players,
                Rect(name_b.x + d + p.px(6), name_b.y, name_b.width - d - p.px(6), name_b.height),
                max(name_size, p.font(SMALL)),
                min_size=name_size,
            )
            size = max(name_size, last_size(p, p.font(SMALL)))
            p.button(minus_b, "−", CardsLeft(s.name, -1), enabled=n > 0, size=size)
            p.text(str(n), n_b, far, FG, min_size=far, kind="score", who=s.name)
            p.button(plus_b, "+", CardsLeft(s.name, 1), size=size)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    back_b, ok_b = split(foot, [1, 1.4], vertical=False, gap=gap)
    p.button(back_b, t("scr.back", lang), Cancel(), hint=t("scr.key.esc", lang), size=p.font(NEAR))
    p.button(
        ok_b,
        t("treize.end.confirm", lang),
        EndGame(),
        enabled=winner is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )
