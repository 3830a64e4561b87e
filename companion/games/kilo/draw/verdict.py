"""The verdict screen: the claim and its two answers, then who slapped in error."""

from __future__ import annotations

import math

import pygame

from companion.display import grid as keypad
from companion.display import kit
from companion.display.app_actions import Cancel
from companion.display.blocks import grid, no_game, not_applicable, split
from companion.display.layout import Painter
from companion.display.names import name_forms, short_name
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    BIG,
    DISABLED,
    FAR,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    SMALL,
    text_on,
)
from companion.games.kilo.actions import ConfirmFalse, Judge, Toggle
from companion.games.kilo.draw.slap import compact_rows, late_note, live_panel, timeline, window_state
from companion.games.kilo.ui_state import kilo_ui
from companion.games.kilo.view import PressView, SlapView, View
from companion.i18n import t

Rect = pygame.Rect


def draw_verdict(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    sv = v.live
    if sv is None:
        why = (
            t("scr.verdict.over", lang)
            if v.finished
            else t("scr.verdict.draw_first", lang, names=", ".join(short_name(n, v.players) for n in v.owed))
            if v.owed
            else t("scr.verdict.none", lang)
        )
        area = not_applicable(p, area, why)
        if v.last_slap is not None:
            timeline(p, v, v.last_slap, late_note(p, v, v.last_slap, area, lang), lang)
        return
    if kilo_ui(ui).picking:
        draw_picker(p, v, ui, sv, area)
        return
    if not p.scale.portrait and _verdict_compact(p, v, ui, sv, area):
        return
    gap = p.px(8)
    if p.scale.portrait:
        left, right = split(area, [0.62, 0.38], gap=gap)
    else:
        left, right = split(area, [0.58, 0.42], vertical=False, gap=gap)
    live_panel(p, v, ui, sv, left)

    def answers() -> None:
        title_h = p.px(44)
        p.text(
            t("scr.verdict.ask", lang),
            Rect(right.x, right.y, right.width, title_h),
            p.font(BIG),
            ACCENT,
            kind="headline",
            min_size=p.font(22),
        )
        b1, b2 = split(
            Rect(right.x, right.y + title_h + gap, right.width, right.height - title_h - gap), [1, 1], gap=gap
        )
        p.button(
            b1,
            t("scr.verdict.valid", lang),
            Judge(valid=True),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(BIG),
        )
        p.button(
            b2,
            t("scr.verdict.false", lang),
            Judge(valid=False),
            color=BAD,
            hint=t("scr.key.false", lang),
            size=p.font(BIG),
        )

    # The same question and answers on every frame of the window's countdown: drawn once, copied.
    p.layer(("kilo.answers", lang), right, answers)


def _claim_band(p: Painter, v: View, sv: SlapView, band: Rect, far: int, lang: str) -> None:
    """Who claims, in far type on one line: the name shortened before the type shrinks, "claims"
    alone where "claims four of a kind" leaves no room for the name."""
    p.panel(band, None, PANEL)
    pad = p.px(6)
    inner = band.inflate(-2 * pad, -2 * p.px(2))
    if not sv.claimant:
        return
    d = min(inner.height, p.px(44))
    p.seat_mark(v.seat_of(sv.claimant), (inner.x + d // 2, inner.centery), int(d * 0.42))
    rest = Rect(inner.x + d + pad, inner.y, inner.width - d - pad, inner.height)
    shortest = name_forms(v.players).get(sv.claimant, (sv.claimant,))[-1]
    phrase = t("scr.slap.phrase.claims", lang)
    if p.fonts.size(f"{shortest} {phrase}", far)[0] > rest.width:
        phrase = t("scr.slap.claimant", lang)
    ph_w = p.fonts.size(phrase, far)[0]
    name_b = Rect(rest.x, rest.y, rest.width - ph_w - 2 * pad, rest.height)
    shown = p.name(sv.claimant, v.players, name_b, far, FG, min_size=far, role="far")
    p.text(
        phrase,
        Rect(shown.right + 2 * pad, rest.y, rest.right - shown.right - 2 * pad, rest.height),
        far,
        ACCENT,
        align="left",
        role="far",
        kind="headline",
        min_size=far,
    )


def _verdict_compact(p: Painter, v: View, ui: Ui, sv: SlapView, area: Rect) -> bool:
    """A full table on the 7" screen: the claim across the top in far type, the window's line,
    every press in rows of one line (in two columns where one is too low), the two answers along
    the foot. False (nothing drawn) where the presses hold one column beside the answers."""
    lang = ui.lang
    gap = p.px(4)
    far = kit.far_size(p)
    band_h = p.line_height(far) + 2 * p.px(4)
    read = kit.read_size(p)
    line_h = p.line_height(read) + max(2, p.px(3))
    foot_h = max(p.px(48), math.ceil(9 * 800 / 152.4 * p.scale.u))  # a touch target of 9 mm
    body_h = area.height - band_h - line_h - foot_h - 3 * gap
    n = len(sv.presses) + len(sv.non_pressers)
    # Beside the answers, a row is two lines (the name, then the gap and its bar), the name's
    # 11/20 of it (``_timeline``): where that is under a name read from a seat (4 mm), as on
    # the 7" screen at five players, the table's layout holds every rule.
    row_h = (area.height - band_h - line_h) / (n + 0.6)
    two_lines = row_h * 11 // 20 >= p.line_height(p.far_name_size())
    if two_lines and not compact_rows(
        p, Rect(area.x, area.y, area.width // 2, area.height - band_h - line_h), n
    ):
        return False
    band = Rect(area.x, area.y, area.width, band_h)
    _claim_band(p, v, sv, band, far, lang)
    text, share, closed = window_state(v, ui, sv)
    line = Rect(area.x, band.bottom + gap, area.width, line_h)
    strip = max(2, p.px(3))
    p.text(
        text,
        Rect(line.x, line.y, line.width, line.height - strip),
        read,
        BAD if closed else FG,
        align="left",
        min_size=read,
    )
    if share is not None:  # the countdown: a strip under its line, shrinking
        pygame.draw.rect(p.surface, PANEL_HI, Rect(line.x, line.bottom - strip, line.width, strip))
        if share > 0:
            bar = Rect(line.x, line.bottom - strip, max(2, int(line.width * share)), strip)
            pygame.draw.rect(p.surface, ACCENT, bar)
    body = Rect(area.x, line.bottom + gap, area.width, body_h)
    timeline(p, v, sv, body, lang, closed)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    # The question the answers answer, beside them (the screen asks; the top bar says what goes on).
    ask = t("scr.verdict.ask", lang)
    ask_w = min(p.fonts.size(ask, read)[0] + p.px(8), foot.width * 2 // 5)
    p.text(ask, Rect(foot.x, foot.y, ask_w, foot.height), read, ACCENT, align="left", min_size=read)
    buttons = Rect(foot.x + ask_w + p.px(8), foot.y, foot.width - ask_w - p.px(8), foot.height)
    b1, b2 = split(buttons, [1, 1], vertical=False, gap=p.px(8))
    p.button(b1, t("scr.verdict.valid", lang), Judge(valid=True), color=GOOD, hint=t("scr.key.enter", lang))
    p.button(b2, t("scr.verdict.false", lang), Judge(valid=False), color=BAD, hint=t("scr.key.false", lang))
    return True


def _tile(p: Painter, players: tuple[str, ...], pr: PressView, cell: Rect, chosen: bool, size: int) -> None:
    """One player to add or remove: their number key, their seat mark and name; touching the
    tile (or pressing the key) moves them between those who draw and those who do not."""
    fill = BAD if chosen else PANEL_HI
    p.panel(cell, None, fill, border=FG if chosen else None, width=p.px(3))
    need = p.fonts.size("ÉÀgjpq", p.name_size())[1]
    pad = max(1, min(p.px(8), cell.height // 8, (cell.height - need) // 2))
    inner = cell.inflate(-2 * pad, -2 * pad)
    size = max(p.name_size(), kit.row_size(p, inner.height, size))
    key_w = p.fonts.size("0", size)[0] + pad
    ink = text_on(fill)
    d = min(inner.height, p.px(56))
    p.seat_mark(pr.seat, (inner.x + key_w + pad + d // 2, inner.centery), int(d * 0.42))
    box = Rect(
        inner.x + key_w + d + pad * 3, inner.y, inner.right - inner.x - key_w - d - pad * 3, inner.height
    )
    p.name(pr.name, players, box, size, ink)
    shown = p.texts[-1].size if p.texts and p.texts[-1].who == pr.name else size
    p.text(
        "0" if pr.seat == 9 else str(pr.seat + 1),
        Rect(inner.x, inner.y, key_w, inner.height),
        shown,
        ink if chosen else ACCENT,
        min_size=shown,
    )


def picker_keys(
    p: Painter,
    players: tuple[str, ...],
    block: Rect,
    who: list[PressView],
    cols: int,
    chosen: bool,
    size: int,
) -> None:
    """A block of the picker's tiles, as the entry grid's keys: touching one (or pressing its
    number key) moves the player between those who draw and those who do not."""
    by_name = {pr.name: pr for pr in who}
    keys = [keypad.Key(pr.name, Toggle(pr.name), selected=chosen) for pr in who]
    gap = p.px(6)
    cells = grid(block, len(who), cols, gap)
    for cell, key in zip(cells, keys, strict=True):
        keypad.draw_key(
            p, cell, key, size, paint=lambda p, c, k: _tile(p, players, by_name[k.label], c, k.selected, size)
        )


def draw_picker(p: Painter, v: View, ui: Ui, sv: SlapView, area: Rect) -> None:
    """A false slap, one question: who slapped in error? The players who will draw get the big
    tiles, the others small ones; a number key or a touch moves a player from one to the other."""
    lang = ui.lang
    players = v.players
    gap = p.px(6)
    portrait = p.scale.portrait
    q_h = p.px(56 if portrait else 46)
    hint_h = p.px(30 if portrait else 26)
    foot_h = p.px(70 if portrait else 62)
    question = Rect(area.x, area.y, area.width, q_h)
    p.text(
        t("scr.verdict.who", lang),
        question,
        p.font(FAR),
        ACCENT,  # a question for the table: the next thing to do
        kind="headline",
        role="far",
        min_size=p.font(22),
    )
    hint = Rect(area.x, question.bottom, area.width, hint_h)
    p.text(t("scr.pick.hint", lang), hint, p.font(SMALL), MUTED, min_size=p.font(14))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    body = Rect(area.x, hint.bottom + gap, area.width, foot.top - hint.bottom - 2 * gap)
    chosen = [pr for pr in sv.presses if pr.name in kilo_ui(ui).penalized]
    spared = [pr for pr in sv.presses if pr.name not in kilo_ui(ui).penalized]
    label_h = p.px(26)
    labels = label_h * (2 if spared else 1)
    need = p.fonts.size("ÉÀgjpq", p.name_size())[1] + 2 * p.px(4)
    # Those who draw get twice the height of the others (and never more columns); the others
    # as many columns as it takes for their names to keep the name size.
    cols_c = 1 if len(chosen) <= (3 if portrait else 1) else 2
    for cols_s in (1, 2, 3) if portrait else (2, 3, 4):
        rows_c = max(1, math.ceil(len(chosen) / cols_c))
        rows_s = math.ceil(len(spared) / cols_s)
        free = body.height - labels - gap * (rows_c + rows_s)
        unit = free / max(1, 2 * rows_c + rows_s)
        if unit >= need or cols_s == (3 if portrait else 4):
            break
    row_s = int(max(need, min(unit, p.px(64 if portrait else 56))))
    row_c = int(max(row_s * 3 // 2, min(unit * 2, p.px(130 if portrait else 110))))
    y = body.y
    p.text(
        t("scr.pick.draws", lang, n=len(chosen)),
        Rect(body.x, y, body.width, label_h),
        p.font(SMALL),
        BAD,
        align="left",
        min_size=p.font(14),
    )
    y += label_h
    block = Rect(body.x, y, body.width, rows_c * row_c + (rows_c - 1) * gap)
    if chosen:
        picker_keys(p, players, block, chosen, cols_c, True, p.font(FAR))
    else:
        p.panel(block, None, PANEL, border=DISABLED, width=p.px(2))
        p.text(
            t("scr.pick.nobody", lang),
            block.inflate(-p.px(12), -p.px(6)),
            p.font(NEAR),
            MUTED,
            min_size=p.font(14),
        )
    y = block.bottom + gap
    if spared:
        p.text(
            t("scr.pick.spared", lang, n=len(spared)),
            Rect(body.x, y, body.width, label_h),
            p.font(SMALL),
            MUTED,
            align="left",
            min_size=p.font(14),
        )
        y += label_h
        block = Rect(body.x, y, body.width, rows_s * row_s + (rows_s - 1) * gap)
        picker_keys(p, players, block, spared, cols_s, False, p.font(NEAR))
    ok, back = split(foot, [1.5, 1], vertical=False, gap=gap)
    p.button(
        ok,
        t("scr.pick.confirm", lang, n=len(chosen)),
        ConfirmFalse(),
        enabled=bool(chosen),
        color=BAD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )
    p.button(back, t("scr.back", lang), Cancel(), hint=t("scr.key.esc", lang), size=p.font(NEAR))


# --- card entry --------------------------------------------------------------------------------
