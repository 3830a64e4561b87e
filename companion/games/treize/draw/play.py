"""The play entry: the value, then how many cards."""

from __future__ import annotations

import pygame

from companion.display import grid as keypad
from companion.display import kit
from companion.display.app_actions import Cancel
from companion.display.blocks import lines_text, no_game, not_applicable, split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    BIG,
    FG,
    GOOD,
    MUTED,
    NEAR,
    SMALL,
)
from companion.games.treize.actions import ChooseCount, ChooseValue, PlayEntered, WhyCount, WhyValue
from companion.games.treize.draw.common import MAX_COUNT_BUTTONS, entry_of, spoken, tracking
from companion.games.treize.draw.pieces import allowed_text, seat_grid
from companion.games.treize.series import VALUES
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

# --- play entry --------------------------------------------------------------------------------


def draw_play(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    who = v.turn
    if v.finished or not tracking(v, ui) or who is None or v.awaiting != "play":
        why = (
            t("treize.todo.over", lang)
            if v.finished
            else t("treize.todo.lots", lang)
            if v.awaiting == "starter"
            else t("treize.series.unknown", lang)
            if not tracking(v, ui)
            else t("treize.play.none_turn", lang)
        )
        text = why if not tracking(v, ui) else t("treize.play.none", lang, why=why)
        rest = not_applicable(p, area, text)
        seat_grid(p, v, ui, rest, touch=False)
        return
    value = e.value if e is not None and e.kind == "play" else None
    count = e.count if e is not None and e.kind == "play" else None
    gap = p.px(6)
    portrait = p.scale.portrait
    # Whose turn in the biggest type, in their seat colour; the question under it.
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(who), who, v.players, lang)
    ask = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(t("treize.play.ask", lang), ask, p.font(SMALL), FG, align="left", min_size=p.font(18))
    head = Rect(area.x, area.y, area.width, ask.bottom - area.y)
    allowed = allowed_text(v, lang) if v.stacks else t("treize.series.empty", lang, name=spoken(v, who))
    line = Rect(area.x, head.bottom, area.width, p.px(72 if portrait else 44))
    lines_text(p, allowed, line, p.font(SMALL), MUTED, min_size=p.font(18), align="left")
    head = Rect(area.x, area.y, area.width, line.bottom - area.y)
    head_h = head.height
    foot_h = p.px(62)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    values_area, counts_area = split(body, [2.1, 1] if not portrait else [3, 1], gap=gap)
    keys = []
    for val in VALUES:
        opt = v.option(val)
        between = v.low is not None and v.high is not None and v.low[0] < val < v.high[0]
        keys.append(
            keypad.Key(
                str(val),
                ChooseValue(val),
                hint=t("treize.tag.min", lang, n=opt[0]) if opt is not None else "",
                reason=None
                if opt is not None
                else t("treize.tag.gap" if between else "treize.tag.few", lang),
                why=WhyValue(val),
                selected=value == val,
            )
        )
    # The thirteen values stay in their places (a value is found where it always is), the
    # ones that cannot be played greyed with why.
    keypad.entry_grid(p, values_area, keys, p.font(BIG), cols=4 if portrait else 7, centre=False)
    opt = v.option(value) if value is not None else None
    if value is None or opt is None:
        p.text(t("treize.play.pick_value", lang), counts_area, p.font(NEAR), MUTED, min_size=p.font(16))
    else:
        label_w = counts_area.width // 4
        label = Rect(counts_area.x, counts_area.y, label_w, counts_area.height)
        lines_text(
            p,
            t("treize.play.pick_count", lang, value=value),
            label,
            p.font(SMALL),
            FG,
            min_size=p.font(18),
            align="left",
        )
        most = max(opt[0], min(opt[1], MAX_COUNT_BUTTONS))
        row = Rect(label.right + gap, counts_area.y, counts_area.width - label_w - gap, counts_area.height)
        # Fewer than the least that can be played: greyed, touching one says why.
        counts = [
            keypad.Key(
                str(n),
                ChooseCount(n),
                reason=None if n >= opt[0] else "",
                why=WhyCount(n),
                selected=count == n,
            )
            for n in range(1, most + 1)
        ]
        keypad.entry_grid(p, row, counts, p.font(NEAR), cols=most, gap=p.px(4))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    chosen_b, back_b, ok_b = split(foot, [1.3, 0.8, 1], vertical=False, gap=gap)
    chosen = (
        t("treize.play.chosen", lang, count=count, value=value)
        if value is not None and count is not None
        else ""
    )
    p.text(chosen, chosen_b, p.font(NEAR), FG, align="left", min_size=p.font(18))
    p.button(back_b, t("scr.back", lang), Cancel(), hint=t("scr.key.esc", lang), size=p.font(NEAR))
    p.button(
        ok_b,
        t("scr.card.confirm", lang),
        PlayEntered(),
        enabled=value is not None and count is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )
