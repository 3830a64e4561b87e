"""The take screen: the card a passing player took."""

from __future__ import annotations

import pygame

from companion.display import grid as keypad
from companion.display import kit
from companion.display.app_actions import Cancel
from companion.display.blocks import no_game, not_applicable, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    BIG,
    FG,
    MUTED,
    NEAR,
    PANEL_HI,
    SMALL,
)
from companion.games.treize.actions import Took
from companion.games.treize.draw.common import entry_of
from companion.games.treize.draw.pieces import seat_grid
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

# --- take (the card a passing player took) -----------------------------------------------------


def draw_take(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    # Without a pass under way, the screen asks on behalf of the player whose turn it is.
    player = e.player if e is not None and e.kind == "take" else v.turn
    if player is None or not v.stacks or v.finished:
        rest = not_applicable(p, area, t("treize.take.none", lang))
        seat_grid(p, v, ui, rest, touch=False)
        return
    gap = p.px(8)
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(player), player, v.players, lang)
    # The stacks' values are read by the one who touches them: under the banner's size.
    value_size = p.texts[-1].size * 4 // 5
    ask = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(t("treize.take.ask", lang), ask, p.font(SMALL), FG, align="left", min_size=p.font(18))
    head = Rect(area.x, area.y, area.width, ask.bottom - area.y)
    head_h = head.height
    foot_h = p.px(60)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    cols = min(len(v.stacks), 2 if p.scale.portrait else 7)
    counts = {str(value): n for value, n in v.stacks}

    def stack(p: Painter, cell: Rect, key: keypad.Key) -> None:
        # The value big, how many lie on that stack under it (read from the seats too).
        p.panel(cell, None, PANEL_HI)
        top, bottom = split(cell.inflate(-p.px(8), -p.px(8)), [2, 1])
        p.text(key.label, top, value_size, FG, role="far", min_size=min(value_size, p.font(BIG)))
        p.text(
            t("treize.take.stack", lang, count=counts[key.label]),
            bottom,
            p.font(SMALL),
            MUTED,
            role="near",
            min_size=p.font(16),
        )

    keys = [keypad.Key(str(value), Took(value)) for value, _n in v.stacks]
    keypad.entry_grid(p, body, keys, value_size, cols=cols, gap=gap, paint=stack)
    foot = Rect(area.centerx - area.width // 4, area.bottom - foot_h, area.width // 2, foot_h)
    p.button(foot, t("scr.back", lang), Cancel(), hint=t("scr.key.esc", lang), size=p.font(NEAR))
