"""The round's arrangements: how each hand was laid down and what it scored."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import lines_text, no_game, not_applicable, rank_label, split
from companion.display.chips import (
    chip_row,
    flat_chips,
)
from companion.display.layout import Painter
from companion.display.names import name_forms
from companion.display.state import Ui
from companion.display.theme import (
    BAD,
    BIG,
    FG,
    GOOD,
    MUTED,
    PANEL,
    SMALL,
)
from companion.games.cinq_rois.actions import Continue
from companion.games.cinq_rois.draw.common import arrangement_groups, draw_seats, said, tr
from companion.games.cinq_rois.view import (
    RoundView,
    View,
)
from companion.i18n import t

Rect = pygame.Rect


# --- the round's arrangements ------------------------------------------------------------------


def draw_round(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The last round counted: every player's score and, for whole hands, the solver's
    arrangement card by card (runs and sets framed green, wilds with the card they stand for
    under them, cards left over framed orange). Who went out is framed green."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    rv = v.last
    if rv is None:
        area = not_applicable(p, area, tr("round.none", lang))
        return draw_seats(p, v, ui, area)
    if not p.scale.portrait:  # read from the seats, landscape holds a row a player
        return draw_round_condensed(p, v, ui, rv, area)
    gap = p.px(6)
    portrait = p.scale.portrait
    head_h = p.px(46) if not portrait else p.px(80)
    head = Rect(area.x, area.y, area.width, head_h)
    lines_text(
        p,
        tr("round.title", lang, round=rv.round, bonus=rank_label(rv.bonus, lang), name=said(v, rv.out)),
        head,
        p.font(BIG),
        FG,  # yellow is a warning only
        p.font(20),
        kind="headline",
        players=v.players,
    )
    legend_h = p.px(30) if not portrait else p.px(50)
    foot_h = p.px(52) + (legend_h + gap if portrait else 0) if ui.show_result else legend_h
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    # The rows change only with the round shown: drawn once, then copied.
    p.layer(
        ("cinq.round", rv, v.players, lang),
        body,
        lambda: _round_rows(p, v, rv, area, body, lang, gap, portrait),
    )
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    if ui.show_result:
        if portrait:
            legend_b, go_b = split(foot, [legend_h, p.px(52)], gap=gap)
        else:
            legend_b, go_b = split(foot, [1.6, 1], vertical=False, gap=gap)
        lines_text(
            p, tr("round.legend", lang), legend_b, p.font(20), MUTED, p.font(12), role="small", align="left"
        )
        p.button(
            go_b,
            tr("round.continue", lang),
            Continue(),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(SMALL),
        )
    else:
        lines_text(
            p, tr("round.legend", lang), foot, p.font(20), MUTED, p.font(12), role="small", align="left"
        )


def draw_round_condensed(p: Painter, v: View, ui: Ui, rv: RoundView, area: Rect) -> None:
    """The round in landscape, read from the seats (the 7" rules): the title and the legend
    in read type, a row a player with the name at 4 mm, the round's score in far type, and the
    cards with their ranks in read type; a wild is drawn as the card it stands for on the
    wilds' yellow (the legend says so)."""
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    line = p.line_height(read)
    head = Rect(area.x, area.y, area.width, line)
    title = tr("round.title", lang, round=rv.round, bonus=rank_label(rv.bonus, lang), name=said(v, rv.out))
    lines_text(p, title, head, read, FG, read, players=v.players)  # yellow is a warning only
    legend = tr("round.legend", lang)
    legend_w = area.width - area.width // 3 - gap if ui.show_result else area.width
    legend_h = len(p.wrap_lines(legend, legend_w, read)) * line
    button_h = max(kit.touch_size(p), p.px(52))
    # After an entry, Continue comes first: the legend beside it where it holds, else left out
    # (the rows keep their far type; the screen says it again when opened from the menu).
    foot_h = button_h if ui.show_result else legend_h
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    legend_b = Rect(foot.x, foot.y, legend_w, foot_h)
    if legend_h <= foot_h:
        p.paragraph(legend, legend_b, read, MUTED, min_size=read)
    if ui.show_result:
        go_b = Rect(legend_b.right + gap, foot.y, foot.right - legend_b.right - gap, foot_h)
        p.button(
            go_b,
            tr("round.continue", lang),
            Continue(),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(SMALL),
        )
    body = Rect(area.x, head.bottom + gap, area.width, foot.y - gap - head.bottom - gap)
    p.layer(
        ("cinq.round.condensed", rv, v.players, lang), body, lambda: _round_condensed(p, v, rv, body, lang)
    )


def _round_condensed(p: Painter, v: View, rv: RoundView, body: Rect, lang: str) -> None:
    n = len(v.players)
    gap = p.px(6)
    rows = split(body, [1] * n, gap=1)
    name_size = p.far_name_size()
    far = kit.far_size(p)
    # What stands on a player's row no bigger than the name (a TV's read type is bigger).
    small = min(kit.read_size(p), name_size)
    mark = p.px(26)
    forms = name_forms(v.players)
    name_w = max(p.fonts.size(forms.get(w, (w,))[-1], name_size)[0] for w in v.players) + mark + p.px(12)
    unit = tr("round.unit", lang)
    unit_w = p.fonts.size(unit, small)[0] + p.px(4)
    score_w = max(p.fonts.size(str(score), far)[0] for score in rv.scores) + p.px(8)
    chip_h = p.line_height(small)
    for s, row in enumerate(rows):
        name = v.players[s]
        out = name == rv.out
        p.panel(row, body, PANEL, border=GOOD if out else None)
        inner = row.inflate(-p.px(8), 0)
        name_b = Rect(inner.x, inner.y, name_w, inner.height)
        unit_b = Rect(inner.right - unit_w, inner.y, unit_w, inner.height)
        score_b = Rect(unit_b.x - score_w, inner.y, score_w, inner.height)
        cards_b = Rect(name_b.right + gap, inner.y, score_b.x - gap - name_b.right - gap, inner.height)
        kit.seat_name(p, v.players, s, name_b, name_size, FG, mark=mark, min_size=name_size)
        p.text(
            str(rv.scores[s]),
            score_b,
            far,
            GOOD if out else FG,
            align="right",
            role="far",
            kind="score",
            min_size=far,
            who=name,
        )
        p.text(unit, unit_b, small, MUTED, align="right", min_size=small)
        h = min(cards_b.height, chip_h)
        cards_b = Rect(cards_b.x, cards_b.y + (cards_b.height - h) // 2, cards_b.width, h)
        if rv.arrangements is not None:
            flat = [
                ([(stands or card, stands is not None) for card, stands in cards], border)
                for cards, border in arrangement_groups(rv.arrangements[s])
            ]
            flat_chips(p, flat, cards_b, lang, small)
        elif rv.left is not None and rv.left[s]:
            flat_chips(p, [([(c, False) for c in rv.left[s]], BAD)], cards_b, lang, small)
        else:
            note = (
                tr("round.went_out", lang)
                if out
                else tr("round.by_points", lang)
                if rv.entry == "points"
                else ""
            )
            if note:
                p.text(
                    note,
                    cards_b,
                    small,
                    GOOD if out else MUTED,
                    align="left",
                    min_size=kit.read_size(p),
                )


# --- game over ---------------------------------------------------------------------------------


def _round_rows(
    p: Painter, v: View, rv: RoundView, area: Rect, body: Rect, lang: str, gap: int, portrait: bool
) -> None:
    n = len(v.players)
    rows = split(body, [1] * n, gap=max(1, p.px(3)))
    # Landscape: the name column as wide as the longest short name needs at the cards' size.
    mark = p.px(26)
    row_h = rows[0].height - 2 * max(2, p.px(4))
    forms = name_forms(v.players)
    need = max(
        p.fonts.size(forms.get(w, (w,))[-1], max(p.name_size(), int(row_h * 0.9) + 1))[0] for w in v.players
    )
    inner_w = area.width - p.px(10)
    name_w = min(inner_w // 3, max(int(inner_w * 0.2), need + mark + p.px(8)))
    score_w = int(inner_w * 0.11)
    for s, row in enumerate(rows):
        name = v.players[s]
        out = name == rv.out
        p.panel(row, area, PANEL, border=GOOD if out else None)
        inner = row.inflate(-p.px(10), -max(2, p.px(4)))
        score = rv.scores[s]
        if portrait:
            top, cards_b = split(inner, [1, 1.4], gap=1)
            name_b, tag_b, score_b = split(top, [2.4, 0.8, 1], vertical=False, gap=gap)
        else:
            name_b, cards_b, score_b = (
                Rect(inner.x, inner.y, name_w, inner.height),
                Rect(inner.x + name_w + gap, inner.y, inner.width - name_w - score_w - 2 * gap, inner.height),
                Rect(inner.right - score_w, inner.y, score_w, inner.height),
            )
            tag_b = None
        # The name no smaller than the cards' ranks beside it (a card's rank is 0.9 of its
        # height).
        size = max(p.name_size(), int(cards_b.height * 0.9) + 1)
        drawn = kit.seat_name(
            p, v.players, s, name_b, size, FG, mark=mark, min_size=None if portrait else size
        )
        if drawn < size:  # a short line (portrait): the cards no taller than the name
            h = max(4, int(drawn / 0.9))
            cards_b = Rect(cards_b.x, cards_b.y + (cards_b.height - h) // 2, cards_b.width, h)
        if out and tag_b is not None:
            p.text(tr("round.went_out", lang), tag_b, p.font(SMALL), GOOD, align="right", min_size=p.font(12))
        p.text(
            tr("points", lang, n=score),
            score_b,
            max(p.font(SMALL), drawn),
            GOOD if out else FG,
            align="right",
            min_size=p.font(11),
            kind="score",
            who=name,
        )
        if rv.arrangements is not None:
            chip_row(p, arrangement_groups(rv.arrangements[s]), cards_b, lang)
        elif rv.left is not None and rv.left[s]:
            chip_row(p, [([(c, None) for c in rv.left[s]], BAD)], cards_b, lang)
        elif out:
            p.text(
                tr("round.went_out", lang),
                cards_b,
                p.font(20),
                GOOD,
                align="left",
                role="small",
                min_size=p.font(10),
            )
        elif rv.entry == "points":
            p.text(
                tr("round.by_points", lang),
                cards_b,
                p.font(20),
                MUTED,
                align="left",
                role="small",
                min_size=p.font(10),
            )
