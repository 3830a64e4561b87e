"""The slap screen: the open window's countdown, then the judged slap's timeline."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pygame

from companion.display import kit
from companion.display.blocks import grid, no_game, not_applicable, split
from companion.display.layout import Painter
from companion.display.names import short_name
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    BIG,
    FAR,
    FG,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    WARN,
    seat_color,
)
from companion.games.kilo.actions import Continue
from companion.games.kilo.draw.common import BAR_BEFORE
from companion.games.kilo.view import SlapView, View
from companion.i18n import margin_text, ms, t

Rect = pygame.Rect

WINDOW_TICK_S = 0.25  # the countdown's bar moves four times a second while a window is open


def slap_headline(sv: SlapView, lang: str, players: tuple[str, ...] | list[str] = ()) -> str:
    """The slap in one sentence, each name as it reads in a sentence (``short_name``)."""

    def spoken(name: str) -> str:
        return short_name(name, players) if players else name

    names = ", ".join(spoken(n) for n in sv.losers)
    if sv.valid is None:
        waiting = [n for n, _ in sv.non_pressers]
        claimant = spoken(sv.claimant or "")
        if waiting:
            return t("scr.slap.waiting", lang, claimant=claimant, names=", ".join(spoken(n) for n in waiting))
        return t("scr.slap.all_in", lang, claimant=claimant)
    if not sv.valid:
        key = "scr.slap.false_many" if len(sv.losers) > 1 else "scr.slap.false"
        return t(key, lang, names=names or "—")
    if sv.reslap:
        return t("scr.slap.reslap", lang)
    if sv.non_pressers:
        return t("scr.slap.timeout", lang, names=names)
    if sv.tied:
        return t("scr.slap.tie", lang, names=names)
    margin = margin_text(sv.margin_us or 0, sv.margin_res_us, lang)
    return t("scr.slap.lost_by", lang, names=names, margin=margin)


def loser_phrase(sv: SlapView, lang: str) -> str | None:
    """What the slap did to its loser(s), without their names (drawn beside it, as big): "perd
    de 3,2 ms", "fausse tape : pioche". None when nobody draws (a tie replayed)."""
    n = len(sv.losers)
    if not n:
        return None
    if sv.valid is False:
        return t("scr.slap.phrase.false", lang, n=n)
    if sv.non_pressers:
        return t("scr.slap.phrase.timeout", lang, n=n)
    if sv.tied:
        return t("scr.slap.phrase.tie", lang, n=n)
    return t("scr.slap.phrase.lost_by", lang, margin=margin_text(sv.margin_us or 0, sv.margin_res_us, lang))


def timeline(
    p: Painter,
    v: View,
    sv: SlapView,
    area: Rect,
    lang: str,
    closed: bool | None = None,
    top: int | None = None,
) -> None:
    """Every press as a row: the player, the gap to the press before theirs (what decides who
    is last), and a bar from the first press where that gap is the coloured end. The loser's
    row is taller and its deciding gap stands out in red (never bigger than ``top``, the
    headline's size); players who did not press follow. Drawn once, copied while the window's
    countdown redraws the screen around it."""
    p.layer(
        ("kilo.timeline", v.players, sv, lang, closed, top),
        area,
        lambda: _timeline(p, v.players, sv, area, lang, closed, top),
    )


def _timeline(
    p: Painter,
    players: tuple[str, ...],
    sv: SlapView,
    area: Rect,
    lang: str,
    closed: bool | None,
    top: int | None,
) -> None:
    judged = sv.valid is not None
    # Who the row stands out for: the losers of a judged slap, or the last of a complete window.
    emph = set(sv.losers) if judged or not sv.non_pressers else set()
    rows: list[tuple[str, Any]] = [("press", pr) for pr in sv.presses]
    rows += [("absent", np) for np in sv.non_pressers]
    if compact_rows(p, area, len(rows)):
        _timeline_grid(p, players, sv, area, lang, closed, rows, emph)
        return
    stand = [(pr.name if kind == "press" else pr[0]) in emph for kind, pr in rows]
    need = p.fonts.size("ÉÀgjpq", p.name_size())[1]  # a row holds a name at the name size
    gap = max(1, p.px(4) if area.height > len(rows) * (need + p.px(12)) else p.px(2))
    # The deciding gap is the slap's score, in far type (6.7 mm): the loser's row is tall
    # enough for it, the others share what is left (a smaller table sets them bigger anyway).
    far = min(kit.far_size(p), top or kit.far_size(p))
    far_h = p.fonts.size("+0123", far)[1] + 2 * max(1, p.px(6))
    few = sum(stand)
    unit0 = (area.height - gap * (len(rows) - 1) - few * far_h) / max(1, len(rows) - few)
    emph_w = max(1.6, far_h / unit0) if unit0 > 0 else 1.6
    weights = [emph_w if s else 1.0 for s in stand]
    max_unit = p.px(110 if p.scale.portrait else 76)
    unit = (area.height - gap * (len(rows) - 1)) / max(1.0, sum(weights))
    if unit > max_unit:  # few players: rows keep a sane height, top-aligned
        area = Rect(area.x, area.y, area.width, int(max_unit * sum(weights) + gap * (len(rows) - 1)))
    cells = split(area, weights or [1], gap=gap)
    # One type size for every ordinary row (the last one takes the rounding's spare pixels).
    base = min((c.height for c, w in zip(cells, weights, strict=False) if w == 1.0), default=None)
    span = max((pr.offset_us for pr in sv.presses), default=0) or 1
    # What stands in the gap column ("annonce", "+180 ms"): never under read type (3.5 mm), and
    # the deciding gap in far type, the name giving up width for them (a smaller table sets its
    # rows bigger).
    read = kit.read_size(p)
    offsets = [0, *(pr.offset_us for pr in sv.presses)]
    steps = {
        pr.name: "+" + ms(b - a, lang)
        for pr, (a, b) in zip(sv.presses, itertools.pairwise(offsets), strict=False)
    }
    gap_w = max(p.fonts.size(text, read)[0] for text in [t("scr.slap.claimant", lang), *steps.values()])
    gap_w += p.px(4)
    far_w = max((p.fonts.size(steps[n], far)[0] for n in emph if n in steps), default=0) + p.px(4)
    prev_off = 0
    for cell, (kind, item) in zip(cells, rows, strict=False):
        name = item.name if kind == "press" else item[0]
        seat = item.seat if kind == "press" else item[1]
        stands_out = name in emph
        p.panel(cell, None, PANEL, border=BAD if stands_out else None, width=p.px(4))
        pad = max(1, min(p.px(6), cell.height // 8, (cell.height - need) // 2))
        inner = cell.inflate(-2 * pad, -2 * pad)
        # Tall narrow rows (portrait) take two lines: the name, then the gap and the bar.
        two_lines = inner.height >= 2 * need + pad and inner.width < p.px(560)
        # The name's line is the taller: it is what a player looks for.
        line_h = inner.height * 11 // 20 if two_lines else inner.height
        sized = (
            line_h
            if stands_out or base is None
            else min(line_h, (base - 2 * pad) * 11 // 20 if two_lines else base - 2 * pad)
        )
        size = kit.row_size(p, sized, p.font(BIG))
        d = min(line_h, int(p.fonts.size("Ag", size)[1] * 1.15))
        p.seat_mark(seat, (inner.x + d // 2, inner.y + line_h // 2), int(d * 0.42))
        rest = Rect(inner.x + d + 2 * pad, inner.y, inner.right - inner.x - d - 2 * pad, inner.height)
        if two_lines:
            name_b = Rect(rest.x, rest.y, rest.width, line_h)
            low = Rect(inner.x, inner.y + line_h, inner.width, inner.height - line_h)
            gap_b, bar_b = split(low, [0.42, 0.58], vertical=False, gap=pad * 2)
            why_b = low
        else:
            shares = [0.38, 0.28, 0.34] if stands_out else [0.42, 0.22, 0.36]
            room = rest.width - 4 * pad  # split's weights share what its gaps leave
            least = far_w if stands_out else gap_w
            if shares[1] * room < least:
                shares = [shares[0] + shares[1] - least / room, least / room, shares[2]]
            name_b, gap_b, bar_b = split(rest, shares, vertical=False, gap=pad * 2)
            why_b = Rect(gap_b.x, rest.y, rest.right - gap_b.x, rest.height)
        p.name(name, players, name_b, size, FG)
        name_size = p.texts[-1].size if p.texts and p.texts[-1].who == name else size
        if kind == "absent":
            p.text(
                _absent_why(sv, closed, lang),
                why_b,
                name_size,
                BAD if stands_out else MUTED,
                align="left",
                min_size=min(name_size, p.font(16)),
            )
            continue
        pr = item
        if pr is sv.presses[0]:
            p.text(
                t("scr.slap.claimant", lang),
                gap_b,
                name_size,
                ACCENT,
                align="left" if two_lines else "right",
                min_size=min(name_size, read),
            )
        else:
            # The gap to the press before: the loser's (the deciding one) in big red type.
            step = pr.offset_us - prev_off
            gap_size = (
                kit.row_size(p, gap_b.height, min(top or p.font(FAR), p.font(FAR)))
                if stands_out
                else name_size
            )
            p.text(
                "+" + ms(step, lang),
                gap_b,
                gap_size,
                BAD if stands_out else FG,
                align="left" if two_lines else "right",
                # The deciding gap is the slap's score; the others are read like any line.
                kind="score" if stands_out else "text",
                min_size=min(gap_size, far) if stands_out else min(name_size, read),
            )
        # The bar runs from the first press to this one: a thin line up to the press before,
        # then this player's gap as a thick block in their colour (the deciding gap in red,
        # never thinner than a finger).
        _press_bar(p, bar_b, (prev_off, pr.offset_us, span), seat, stands_out)
        prev_off = pr.offset_us


def _absent_why(sv: SlapView, closed: bool | None, lang: str) -> str:
    """Why a player who did not press has no gap: held back (a false slap), not yet (the window
    still open), or no press."""
    if sv.valid is False:
        return t("scr.slap.held_back", lang)
    if sv.valid is None and not closed:
        return t("scr.slap.not_yet", lang)
    return t("scr.slap.no_press", lang)


def _press_bar(p: Painter, bar_b: Rect, offsets: tuple[int, int, int], seat: int, stands_out: bool) -> None:
    """A press's bar, from the first press: a thin line up to the press before, then this
    player's gap as a thick block in their colour (the deciding gap in red, never thinner than a
    finger). ``offsets``: the press before's and this one's from the first, and the whole span."""
    prev_off, offset, span = offsets
    bar_h = max(6, min(bar_b.height * 2 // 3, p.px(40 if stands_out else 24)))
    thin = max(2, bar_h // 4)
    track = Rect(bar_b.x, bar_b.centery - thin // 2, bar_b.width, thin)
    pygame.draw.rect(p.surface, PANEL_HI, track)
    x_prev = bar_b.x + int(bar_b.width * prev_off / span)
    x_this = bar_b.x + int(bar_b.width * offset / span)
    if x_prev > bar_b.x:
        pygame.draw.rect(p.surface, BAR_BEFORE, Rect(bar_b.x, track.y, x_prev - bar_b.x, thin))
    least = p.px(10) if stands_out else p.px(4)
    seg = Rect(x_prev, bar_b.centery - bar_h // 2, max(least, x_this - x_prev), bar_h)
    if seg.right > bar_b.right:
        seg.x = bar_b.right - seg.width
    pygame.draw.rect(p.surface, BAD if stands_out else seat_color(seat), seg)
    if stands_out:  # where the press before stood: the gap is what lies past it
        tick = Rect(seg.x - max(2, p.px(3)), bar_b.y, max(2, p.px(3)), bar_b.height)
        pygame.draw.rect(p.surface, FG, tick)


def compact_rows(p: Painter, area: Rect, n: int) -> bool:
    """Whether ``n`` rows in one column are too low for a name read from a seat (4 mm, with a
    little room): then they go into columns of one line each (``_timeline_grid``)."""
    if n <= 1:
        return False
    need = p.line_height(p.far_name_size()) + 2 * p.px(3)
    return (area.height - p.px(2) * (n - 1)) / (n + 0.6) < need


def _short_why(sv: SlapView, closed: bool | None, lang: str) -> str:
    """Why a player has no gap, in a word or two (a row of one line has no room for more)."""
    if sv.valid is False:
        return t("scr.slap.held_back.short", lang)
    if sv.valid is None and not closed:
        return t("scr.slap.not_yet.short", lang)
    return t("scr.slap.no_press.short", lang)


def _timeline_grid(
    p: Painter,
    players: tuple[str, ...],
    sv: SlapView,
    area: Rect,
    lang: str,
    closed: bool | None,
    rows: list[tuple[str, Any]],
    emph: set[str],
) -> None:
    """The presses of a full table on the 7" screen: columns of one-line rows (seat mark, name at
    4 mm, the gap to the press before at 3.5 mm, the loser's in red), read down the first column
    then the second; the bar from the first press is a strip along each row's foot."""
    n = len(rows)
    gap = p.px(3)
    name_size = p.far_name_size()
    read = kit.read_size(p)
    line = p.line_height(name_size)
    # Two columns, three where two leave rows too low for a name.
    cols = 2 if (area.height - gap * (math.ceil(n / 2) - 1)) / math.ceil(n / 2) >= line + 4 else 3
    per_col = math.ceil(n / cols)
    cells = grid(area, per_col * cols, cols, gap)
    span = max((pr.offset_us for pr in sv.presses), default=0) or 1
    prev_off = 0
    for i, (kind, item) in enumerate(rows):
        col, row = divmod(i, per_col)
        cell = cells[row * cols + col]
        name = item.name if kind == "press" else item[0]
        seat = item.seat if kind == "press" else item[1]
        stands_out = name in emph
        p.panel(cell, None, PANEL, border=BAD if stands_out else None, width=p.px(3))
        strip = max(2, p.px(3))
        pad = max(2, min(p.px(8), (cell.height - line - strip) // 2))
        top = max(1, min(pad, cell.height - line - strip - 1))
        inner = Rect(cell.x + pad, cell.y + top, cell.width - 2 * pad, cell.height - top - strip - 1)
        d = min(inner.height, p.px(30))
        p.seat_mark(seat, (inner.x + d // 2, inner.centery), int(d * 0.42))
        if kind == "absent":
            right, color = _short_why(sv, closed, lang), BAD if stands_out else MUTED
        elif item is sv.presses[0]:
            right, color = t("scr.slap.claimant", lang), ACCENT
        else:
            right, color = "+" + ms(item.offset_us - prev_off, lang), BAD if stands_out else FG
        size = name_size if p.fonts.size(right, name_size)[0] <= inner.width // 4 else read
        w = p.fonts.size(right, size)[0]
        name_b = Rect(inner.x + d + pad, inner.y, inner.width - d - w - 3 * pad, inner.height)
        p.name(name, players, name_b, name_size, FG, min_size=name_size)
        size = min(size, p.texts[-1].size)  # never bigger than the name beside it
        p.text(
            right, Rect(inner.right - w, inner.y, w, inner.height), size, color, align="right", min_size=size
        )
        if kind != "press":
            continue
        # The bar: a thin track from the first press, this player's gap thick in their colour.
        foot = Rect(cell.x + pad, inner.bottom + 1, cell.width - 2 * pad, strip)
        x_prev = foot.x + int(foot.width * prev_off / span)
        x_this = foot.x + int(foot.width * item.offset_us / span)
        pygame.draw.rect(p.surface, PANEL_HI, foot)
        seg = Rect(x_prev, foot.y, max(p.px(6), x_this - x_prev), foot.height)
        if seg.right > foot.right:
            seg.x = foot.right - seg.width
        pygame.draw.rect(p.surface, BAD if stands_out else seat_color(seat), seg)
        prev_off = item.offset_us


def window_state(v: View, ui: Ui, sv: SlapView) -> tuple[str, float | None, bool]:
    """The slap window's line ("Encore 3 s · 2 n'ont pas tapé"), the share of it left (None
    when unknown) and whether it has closed: from when its first press arrived (``ui``) and the
    rules' window length, the same rule the engine applies to the presses' stamps."""
    lang = ui.lang
    n = len(sv.non_pressers)
    length_s = v.rules.slap_timeout_ms / 1000
    if not n:
        return t("scr.window.all_in", lang), None, False
    if ui.window_open_at is None or ui.now is None:
        return t("scr.window.length", lang, s=float(length_s), n=n), None, False
    left = length_s - (ui.now - ui.window_open_at)
    if left <= 0:
        return t("scr.window.closed", lang, n=n), 0.0, True
    return (t("scr.window.open", lang, s=math.ceil(left - 1e-9), n=n), min(1.0, left / length_s), False)


def live_panel(p: Painter, v: View, ui: Ui, sv: SlapView, box: Rect) -> None:
    """The open window: who claims, the countdown and who still has to press, every press."""
    lang = ui.lang
    gap = p.px(6)
    portrait = p.scale.portrait
    band_h = p.px(64 if portrait else 56)
    band = Rect(box.x, box.y, box.width, band_h)
    who = [(sv.claimant, v.seat_of(sv.claimant))] if sv.claimant else []
    size = kit.name_band(
        p, v.players, who, t("scr.slap.phrase.claims", lang), band, p.font(BIG), ACCENT, None
    )
    line = Rect(box.x, band.bottom + gap, box.width, p.px(40))
    text, share, closed = window_state(v, ui, sv)
    text_b = line
    if share is not None:
        text_b, bar_b = split(line, [0.62, 0.38], vertical=False, gap=gap)
        bar = Rect(bar_b.x, bar_b.centery - bar_b.height // 4, bar_b.width, bar_b.height // 2)
        pygame.draw.rect(p.under(bar), PANEL_HI, bar)
        if share > 0:
            pygame.draw.rect(
                p.under(bar), ACCENT, Rect(bar.x, bar.y, max(2, int(bar.width * share)), bar.height)
            )
    p.text(text, text_b, p.font(NEAR), BAD if closed else FG, align="left", min_size=p.font(16))
    timeline(
        p,
        v,
        sv,
        Rect(box.x, line.bottom + gap, box.width, box.bottom - line.bottom - gap),
        lang,
        closed,
        top=size,
    )


def draw_slap(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    sv = v.last_slap
    if sv is None:
        if v.live is None:
            not_applicable(p, area, t("scr.slap.none", lang))
            return
        area = not_applicable(p, area, t("scr.slap.live", lang))
        live_panel(p, v, ui, v.live, area)
        return
    gap = p.px(6)
    portrait = p.scale.portrait
    players = v.players
    who = [(name, v.seat_of(name)) for name in sv.losers]
    phrase = loser_phrase(sv, lang)
    if phrase is None:
        phrase = slap_headline(sv, lang, players)
        who = []
    lines = 1 if len(who) <= 1 else 1 + math.ceil(len(who) / (1 if len(who) <= 2 else 2))
    if portrait:
        band_h = min(area.height * 2 // 5, p.px(116) + p.px(40) * max(0, lines - 1))
    else:
        band_h = min(area.height * 2 // 5, p.px(86) + p.px(36) * max(0, lines - 1))
    band = Rect(area.x, area.y, area.width, band_h)
    # A claim judged either way names who draws (the loser, or the false slapper): red.
    color = BAD if sv.valid is not None else FG
    size = kit.name_band(p, players, who, phrase, band, p.font(FAR), color, BAD if who else None)
    body = Rect(area.x, band.bottom + gap, area.width, area.bottom - band.bottom - gap)
    if v.awaiting == "draw" and not ui.screen and v.owed:
        # The name is kept whole on one line, and never alone on it (it would read as a tag).
        spoken = short_name(v.owed[0], players).replace(" ", "\u00a0")
        label = t("scr.slap.continue", lang, names=f"\u2060{spoken}\u2060")
        label = label.replace(" \u2060", "\u00a0").replace("\u2060 ", "\u00a0")
        label = label.replace("\u2060", "")
        hint = t("scr.key.enter", lang)
        if portrait:
            body, btn = split(body, [1, 0.16], gap=gap)
        else:
            body, btn = split(body, [0.74, 0.26], vertical=False, gap=gap)
            btn = Rect(btn.x, btn.y, btn.width, min(btn.height, p.px(150)))
        kit.wide_button(p, btn, label, Continue(), ACCENT, hint, p.font(NEAR))
    body = late_note(p, v, sv, body, lang)
    timeline(p, v, sv, body, lang, top=size)


def late_note(p: Painter, v: View, sv: SlapView, area: Rect, lang: str) -> Rect:
    """Who pressed before the verdict but arrived after it, in a line above ``area``; what is
    left of ``area``."""
    if not sv.late:
        return area
    names = ", ".join(short_name(n, v.players) for n in sv.late)
    key = "scr.late.note.rejudged" if sv.rejudged else "scr.late.note.recorded"
    h = min(area.height // 4, p.fonts.size("Ag", kit.read_size(p))[1] + p.px(8))
    p.text(
        t(key, lang, names=names), Rect(area.x, area.y, area.width, h), kit.read_size(p), WARN, align="left"
    )
    return Rect(area.x, area.y + h + p.px(4), area.width, max(0, area.height - h - p.px(4)))


# --- verdict -----------------------------------------------------------------------------------
