"""Kilo de merde on the table screen: its view, its screens, and what the table's inputs mean in it.

The screens draw from the read-only ``View`` (``view.py``); ``KiloScreens`` is the game's side of
the display seam (``display/game_ui.py``): a seat button is a slap, Enter judges a claim, the rank
keys enter the card drawn.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import pygame

from companion.cards import RANKS
from companion.display import grid as keypad
from companion.display import kit
from companion.display.blocks import (
    RANK_KEYS_EN,
    RANK_KEYS_FR,
    RANK_ORDER,
    RED_SUITS,
    SUITS,
    grid,
    lines_text,
    nice_ticks,
    no_game,
    not_applicable,
    rank_keys,
    rank_label,
    split,
)
from companion.display.chips import card_chips
from companion.display.game_ui import GameScreens, LedPlan, SetupItem
from companion.display.kit import size_for_height
from companion.display.layout import Action, Painter, draw_suit
from companion.display.lots import draw_lots_overlay, fair_seat
from companion.display.names import name_forms, short_name
from companion.display.state import SetupForm, Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    BG,
    BIG,
    DISABLED,
    FAR,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    READ,
    SMALL,
    WARN,
    Color,
    seat_color,
    text_on,
)
from companion.errors import RuleError
from companion.games.kilo.events import (
    RULE_CHOICES,
    Close,
    Dealer,
    Draw,
    KiloRules,
    NewKiloGame,
    Outage,
    Press,
    Starter,
    Verdict,
)
from companion.games.kilo.rules import KILOS, KiloGame
from companion.games.kilo.view import PressView, SeatView, SlapView, View, build_view
from companion.i18n import margin_text, ms, register, t
from companion.table.log import Undo

Rect = pygame.Rect
RANK_BY_TEXT = {r.value: r for r in RANKS}

TIMEOUTS_MS: tuple[int, ...] = (1000, 2000, 3000, 5000, 8000, 10000, 15000, 30000, 60000)

BAR_BEFORE: Color = (96, 104, 116)  # a slap bar up to the press before: the gap is what counts

SUIT_KEYS = {"S": "F1", "H": "F2", "D": "F3", "C": "F4"}

register(
    {
        # A row of one line on the 7" screen says why a player has no gap in a word or two.
        "scr.slap.held_back.short": ("bien vu", "held back"),
        "scr.slap.not_yet.short": ("pas encore", "not yet"),
        "scr.slap.no_press.short": ("pas tapé", "no press"),
        # The card entry's line of the ranks that cannot be drawn (issue 23, finding 8).
        "scr.card.aside": ("Pas dans le tas\u202f:", "Not in the pile:"),
    }
)


def awaiting_text(v: View, lang: str) -> str:
    """What the table must do now (the top bar's right side); names as said at a table."""

    def said(name: str) -> str:
        return short_name(name, v.players)

    if v.finished:
        return t("awaiting.nothing", lang)
    if v.awaiting == "draw":
        owed_at_verdict = len(v.last_slap.losers) if v.last_slap is not None else len(v.owed)
        if owed_at_verdict > 1:
            # Several owe a draw: say whose turn it is and how many are left ("Pioche 1/2").
            done = owed_at_verdict - len(v.owed)
            return t("scr.await.draw_n", lang, n=done + 1, of=owed_at_verdict, names=said(v.owed[0]))
        return t("scr.await.draw", lang, names=", ".join(said(n) for n in v.owed))
    if v.awaiting == "verdict":
        return t("scr.await.verdict", lang)
    if v.starter:
        return t("scr.await.play_starter", lang, name=said(v.starter))
    return t("scr.await.play", lang)


def columns_for(p: Painter, n: int) -> int:
    if p.scale.portrait:
        return 1
    # Four players on one column would leave tiles too low for their second line (cards in
    # front, "starts", "draws") under the band of the turn banner.
    return 1 if n <= 3 else 2


# --- table -------------------------------------------------------------------------------------


def draw_table(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(6)
    # The band above the tiles is as tall as the turn banner whether or not someone must draw:
    # a tile never moves when the banner comes and goes (nobody hunts for their tile).
    info_h = kit.banner_height(p)
    info, tiles_area = (
        Rect(area.x, area.y, area.width, info_h),
        Rect(area.x, area.y + info_h + gap, area.width, area.height - info_h - gap),
    )
    if v.awaiting == "draw" and v.owed:
        # Someone must draw: the kit's turn banner names them, the biggest text on the table
        # (the pile's odds are on the pile screen).
        drawer = v.owed[0]
        kit.turn_banner(p, info, v.players.index(drawer), drawer, v.players, lang)
        _tiles(p, v, lang, tiles_area)
        return
    odds = v.odds
    if odds.count:
        pile = t("scr.pile_line", lang, count=odds.count, ace=odds.ace, seven=odds.seven)
    else:
        pile = t("pile.empty", lang)
    # Before the first slap of a round, touching a player marks who holds the queen of hearts.
    ask_starter = v.awaiting == "play" and v.starter is None and v.live is None
    if ask_starter:
        pile += " · " + t("scr.starter_hint", lang)
    if v.dealer_open:
        # Before anything happens: who deals first, drawn by lot (a button press is a slap here,
        # so the draw is a touch or the D key).
        info, lots_b = split(info, [1.6, 1], vertical=False, gap=gap)
        p.button(lots_b, t("scr.lots.button", lang), ("lots",), color=ACCENT, hint="D", size=p.font(SMALL))
    elif v.dealer and v.slaps == 0:
        pile = t("scr.lots.dealer", lang, name=short_name(v.dealer, v.players)) + " · " + pile
    p.text(pile, info, p.font(READ), MUTED, align="left", min_size=p.font(16))
    _tiles(p, v, lang, tiles_area)


def standing(v: View, s: SeatView) -> kit.Standing:
    """A seat as the kit's tile shows it: who must draw now is framed in their seat colour (the
    turn banner names them), whoever else owes a draw in red."""
    acting = v.awaiting == "draw" and bool(v.owed) and v.owed[0] == s.name
    return kit.Standing(
        s.seat,
        s.name,
        s.place,
        s.kilos,
        "kg",
        change=s.change,
        moved=s.moved,
        acting=acting,
        marked=s.owes and not acting,
    )


def kilo_low(s: SeatView, lang: str, acting: bool = False) -> kit.Low:
    """What is Kilo's own on a tile, under the name: the tags (draws, starts, flushes) on the
    right, the cards in front of the player on the left."""

    def low(p: Painter, box: Rect, small: int) -> None:
        tags = []
        if s.owes:
            tags.append(t("scr.tag.draws", lang))
        if s.starter:
            tags.append(t("scr.tag.starts", lang))
        if s.flushes:
            tags.append(t("scr.tag.flushes", lang, n=s.flushes))
        chips = Rect(box)
        pad = p.px(6)
        # The most important tag first: "draws" stays where "draws · starts" would not fit.
        while len(tags) > 1 and p.fonts.size(" · ".join(tags), small)[0] > box.width - box.height:
            tags.pop()
        if tags:
            text = " · ".join(tags)
            w = p.fonts.size(text, small)[0]
            if w <= box.width:
                p.text(
                    text,
                    Rect(box.right - w, box.y, w, box.height),
                    small,
                    # On the lit tile of whoever draws now, the frame says it; red would not read.
                    FG if acting else BAD if s.owes else MUTED,
                    align="right",
                    min_size=small,
                )
                chips.width = max(0, box.width - w - pad * 2)
        if s.cards and chips.width >= chips.height:
            card_chips(p, s.cards, chips, lang, text_size=small)

    return low


def _tiles(
    p: Painter, v: View, lang: str, tiles_area: Rect, order: tuple[SeatView, ...] | None = None
) -> None:
    """The kit's tiles in seating order (a tile never moves during the game); touching one
    before the first slap of a round marks who starts."""
    seats = {s.name: s for s in v.seats}
    act = (lambda st: ("starter", st.who)) if v.awaiting == "play" else None
    kit.tiles(
        p,
        tiles_area,
        [standing(v, s) for s in (order or v.seats)],
        v.players,
        lang,
        act=act,
        low=lambda st: kilo_low(seats[st.who], lang, st.acting),
        cols=columns_for(p, len(v.seats)),
        low_key=lambda st: ("kilo", seats[st.who].cards, seats[st.who].starter, seats[st.who].flushes),
        # No bigger than the turn banner's least type (its name never shrinks under far type)
        # whether or not it is there: no tile changes size when it comes and goes.
        top=kit.far_size(p),
    )


# --- slap result -------------------------------------------------------------------------------

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
            if sv.valid is False:
                why = t("scr.slap.held_back", lang)
            elif sv.valid is None and not closed:
                why = t("scr.slap.not_yet", lang)
            else:
                why = t("scr.slap.no_press", lang)
            p.text(
                why,
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
        bar_h = max(6, min(bar_b.height * 2 // 3, p.px(40 if stands_out else 24)))
        thin = max(2, bar_h // 4)
        track = Rect(bar_b.x, bar_b.centery - thin // 2, bar_b.width, thin)
        pygame.draw.rect(p.surface, PANEL_HI, track)
        x_prev = bar_b.x + int(bar_b.width * prev_off / span)
        x_this = bar_b.x + int(bar_b.width * pr.offset_us / span)
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
        prev_off = pr.offset_us


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
        kit.wide_button(p, btn, label, ("continue",), ACCENT, hint, p.font(NEAR))
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
    if ui.picking:
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
            ("verdict", "valid"),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(BIG),
        )
        p.button(
            b2,
            t("scr.verdict.false", lang),
            ("verdict", "false"),
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
    p.button(
        b1, t("scr.verdict.valid", lang), ("verdict", "valid"), color=GOOD, hint=t("scr.key.enter", lang)
    )
    p.button(b2, t("scr.verdict.false", lang), ("verdict", "false"), color=BAD, hint=t("scr.key.false", lang))
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
    keys = [keypad.Key(pr.name, ("toggle", pr.name), selected=chosen) for pr in who]
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
    chosen = [pr for pr in sv.presses if pr.name in ui.penalized]
    spared = [pr for pr in sv.presses if pr.name not in ui.penalized]
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
        ("confirm_false",),
        enabled=bool(chosen),
        color=BAD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )
    p.button(back, t("scr.back", lang), ("cancel",), hint=t("scr.key.esc", lang), size=p.font(NEAR))


# --- card entry --------------------------------------------------------------------------------


def short_reason(v: View, rank: str) -> str | None:
    reason = v.rank_reasons.get(rank)
    if reason is None:
        return None
    if rank not in v.pile_ranks:
        return "dealt"
    if v.odds.source == "returned":
        return "later"
    if v.odds.source == "empty":
        return "empty"
    return "gone"


def aside_reason(v: View, ranks: list[str]) -> tuple[str, str] | None:
    """Why the ranks set aside cannot be drawn, in full: the sentence of the first rank of each
    reason ("K cannot be drawn: Kings are dealt to the players at 10 players, the pile holds A 7
    10"), one after the other."""
    seen: dict[str | None, tuple[str, str]] = {}
    for rank in ranks:
        reason = v.rank_reasons.get(rank)
        if reason is not None:
            seen.setdefault(short_reason(v, rank), reason)
    if not seen:
        return None
    return " ".join(r[0] for r in seen.values()), " ".join(r[1] for r in seen.values())


def rank_keys_of(v: View, ui: Ui, lang: str) -> tuple[list[keypad.Key], list[tuple[str, list[keypad.Key]]]]:
    """The rank keys of the card entry: those that can be drawn (label, what the card weighs
    and its keyboard keys), and those that cannot, grouped by why (in order of rank)."""
    offered: list[keypad.Key] = []
    aside: dict[str, list[keypad.Key]] = {}
    for rank in RANK_ORDER:
        why = short_reason(v, rank)
        keys = (RANK_KEYS_FR if lang == "fr" else RANK_KEYS_EN).get(rank, rank)
        # What the card weighs, beside its key: an Ace is an event before it is drawn.
        worth = (
            t("scr.card.worth_flush", lang)
            if rank == "7"
            else t("kilos", lang, kilos=KILOS[RANK_BY_TEXT[rank]])
        )
        key = keypad.Key(
            rank_label(rank, lang),
            ("rank", rank),
            hint=f"{worth} · {keys}",
            reason=t(f"scr.card.tag.{why}", lang) if why else None,
            why=("why", rank),
            selected=ui.rank == rank,
        )
        if why is None:
            offered.append(key)
        else:
            aside.setdefault(why, []).append(key)
    return offered, list(aside.items())


def draw_card(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if v.awaiting != "draw":
        area = not_applicable(p, area, t("scr.card.over", lang) if v.finished else t("scr.card.none", lang))
        seat_strip(p, v, ui, area)
        return
    gap = p.px(6)
    who = v.owed[0]
    # The rank grid is what the table touches: when a message band takes room, the title,
    # note and footer give it up first.
    # Whoever draws, in the kit's turn banner (their seat colour, the biggest text on the
    # screen; it slides in when the next one draws), the question under it, as 13 feuilles'
    # entries ask theirs.
    ask = t("scr.card.draws_q", lang)
    if len(v.owed) > 1 or (v.last_slap is not None and len(v.last_slap.losers) > 1):
        total = max(len(v.owed), len(v.last_slap.losers) if v.last_slap else 0)
        ask = f"({total - len(v.owed) + 1}/{total}) " + ask
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(who), who, v.players, lang)
    ask_b = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(ask, ask_b, p.font(SMALL), FG, align="left", min_size=p.font(SMALL))
    head = Rect(area.x, area.y, area.width, ask_b.bottom - area.y)
    head_h = head.height
    foot_h = min(p.px(66), area.height // 8)
    aside_h = keypad.aside_height(p)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - aside_h - 3 * gap)
    rank_area, suit_area = split(body, [2.2 if not p.scale.portrait else 3, 1], gap=gap)
    # The ranks that can still be drawn take the grid, big; those that cannot are set aside in
    # one line under it (at ten players 3 ranks of 13 can be drawn: issue 23, finding 8).
    offered, aside = rank_keys_of(v, ui, lang)
    # The ranks grow with their cells, never to the banner's size: who draws stays the biggest.
    named = next((r.size for r in reversed(p.texts) if r.kind == "headline"), p.font(FAR))
    top = min(p.font(FAR), named * 4 // 5)
    most = 5 if p.scale.portrait else 7
    keypad.entry_grid(p, rank_area, offered, min(p.font(BIG), top), aspect=1.4, most=most, top=top)
    suit_cells = split(suit_area, [1, 1, 1, 1, 1.3], vertical=False, gap=p.px(5))
    for cell, suit in zip(suit_cells, SUITS, strict=False):
        card = f"{ui.rank}{suit}" if ui.rank else None
        reason = v.card_reasons.get(card) if card else None
        enabled = reason is None
        action = ("suit", suit) if enabled else ("why", card or suit)
        p.button(
            cell,
            "",
            action,
            enabled=enabled,
            selected=ui.suit == suit,
            color=(245, 245, 245) if enabled else PANEL,
            hint=SUIT_KEYS[suit],
        )
        r = max(4, min(cell.width, cell.height) // 5)
        color = ((200, 0, 0) if suit in RED_SUITS else (0, 0, 0)) if enabled else DISABLED
        # Through ``under``: the painter knows where, and keeps the rest of the frame (drawn on
        # ``p.surface`` the whole card entry was drawn anew each frame, 2.5 ms at 1920x1080).
        draw_suit(p.under(cell), suit, (cell.centerx, cell.y + cell.height * 2 // 5), r, color)
    p.button(
        suit_cells[4],
        t("scr.card.any_suit", lang),
        ("suit", None),
        selected=ui.suit is None,
        size=p.font(SMALL),
    )
    line = Rect(area.x, body.bottom + gap, area.width, aside_h)
    groups = [(t(f"scr.card.tag.{why}", lang), ks) for why, ks in aside]
    keys_of_aside = " ".join(str(k.action[1]) for _, ks in aside for k in ks)
    keypad.aside(p, line, t("scr.card.aside", lang), groups, ("why", keys_of_aside), p.font(SMALL))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    chosen_b, ok_b = split(foot, [1.2, 1], vertical=False, gap=gap)
    if ui.rank:
        from companion.cards import parse_card

        picked = parse_card(ui.rank + (ui.suit or ""))
        chosen = t("scr.card.chosen", lang, card=picked.name_in(lang))
    else:
        chosen = t("scr.card.pick", lang)
    if p.fonts.size(chosen, p.font(20))[0] <= chosen_b.width:
        p.text(chosen, chosen_b, p.font(NEAR), FG, align="left", min_size=p.font(20))
    else:  # a narrow screen: two lines rather than a cut sentence
        p.paragraph(chosen, chosen_b, p.font(NEAR), FG, min_size=p.font(14))
    p.button(
        ok_b,
        t("scr.card.confirm", lang),
        ("draw",),
        enabled=ui.rank is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Compact standings for screens whose own content is not about the scores: the table's
    tiles, in seating order as on the table (a player's tile never jumps when places change)."""
    _tiles(p, v, ui.lang, area)


# --- pile --------------------------------------------------------------------------------------


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


def draw_gameover(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The kit's game over: everyone by place, the winners first and framed, the heaviest
    framed as who carries the most home; before the end, provisional standings."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    first = [s for s in v.standings if s.place == 1]
    kilos = first[0].kilos
    names = ", ".join(short_name(s.name, v.players) for s in first)
    title = (
        t("winners", lang, names=names, kilos=kilos)
        if len(first) == 1
        else t("co_winners", lang, names=names, kilos=kilos)
    )
    notes = []
    if v.end_reason == "pile_empty":
        notes.append((t("ended.pile_empty", lang), MUTED))
    heaviest = max(s.kilos for s in v.seats)
    heavy = [s.name for s in v.seats if s.kilos == heaviest] if heaviest > kilos else []
    if v.finished and heavy:
        # The table always wants to know who carries the most home.
        notes.append(
            (
                t(
                    "scr.over.heaviest",
                    lang,
                    n=len(heavy),
                    kilos=heaviest,
                    names=", ".join(short_name(n, v.players) for n in heavy),
                ),
                BAD,
            )
        )
    rows = [
        kit.Standing(
            s.seat,
            s.name,
            s.place,
            s.kilos,
            "kg",
            moved=s.moved,
            winner=s.place == 1,
            marked=v.finished and s.name in heavy,
        )
        for s in v.standings
    ]
    kit.game_over(
        p,
        area,
        rows,
        v.players,
        lang,
        finished=v.finished,
        title=title,
        not_yet=t("scr.over.not_yet", lang, round=v.round, rounds=v.rounds),
        notes=notes,
    )


# --- rules -------------------------------------------------------------------------------------


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    rules = v.rules if v is not None else None
    lines = [t("scr.rules.body", lang)]
    lines.append(t("scr.rules.house", lang))
    for name, choices in RULE_CHOICES.items():
        value = getattr(rules, name) if rules is not None else ui.setup.rules[name]
        other = choices[1] if value == choices[0] else choices[0]
        lines.append(
            "• "
            + t(f"scr.rule.{name}.{value}", lang)
            + "  ("
            + t("scr.rules.other", lang, other=t(f"scr.rule.{name}.{other}.short", lang))
            + ")"
        )
    timeout = rules.slap_timeout_ms if rules is not None else ui.setup.timeout_ms
    lines.append("• " + t("scr.rule.timeout", lang, s=timeout / 1000))
    return lines


FLUSH_SECONDS = 1.6


def draw_flush(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """A 7 was drawn: the cards swirl away down the drain, over whatever screen is shown."""
    s = p.screen
    overlay = pygame.Surface(s.size, pygame.SRCALPHA)
    overlay.fill((0, 40, 80, int(170 * (1 - abs(2 * phase - 1) ** 3))))
    p.surface.blit(overlay, (0, 0))
    cx, cy = s.center
    radius = min(s.width, s.height) * 0.38
    for i in range(12):
        a = phase * 6 * math.pi + i * math.pi / 6
        r = radius * (1 - phase) * (0.4 + 0.6 * ((i % 4) / 3))
        pt = (int(cx + r * math.cos(a)), int(cy + r * math.sin(a)))
        pygame.draw.circle(
            p.surface, ACCENT if i % 2 else (245, 245, 245), pt, max(3, int(p.px(14) * (1 - phase) + 2))
        )
    d = v.last_draw
    who = short_name(d.player, v.players) if d else ""
    band = Rect(0, cy - p.px(50), s.width, p.px(100))
    # The sentence on a band of its own: the tiles under the swirl must not read through it.
    pygame.draw.rect(p.surface, (0, 40, 80), band)
    p.text(
        t("scr.flush", ui.lang, name=who),
        band.inflate(-p.px(20), 0),
        p.font(FAR),
        FG,
        role="far",
        min_size=p.font(BIG) // 2,
    )


def draw_drawn(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """A card was drawn: it shows big for a moment with its kilos (an Ace is an event)."""
    d = v.last_draw
    if d is None:
        return
    s = p.screen
    fade = 1 - max(0.0, phase - 0.8) / 0.2  # holds, then fades out over the last fifth
    shade = pygame.Surface(s.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, int(215 * fade)))
    p.surface.blit(shade, (0, 0))
    h = min(s.height * 2 // 3, p.px(300))
    w = h * 5 // 7
    portrait = p.scale.portrait
    if portrait:  # the card above, who drew it and its kilos across the screen under it
        card = Rect(s.centerx - w // 2, s.centery - h + p.px(20), w, h)
    else:
        card = Rect(s.centerx - w - p.px(20), s.centery - h // 2, w, h)
    pygame.draw.rect(p.surface, (245, 245, 245), card, border_radius=max(4, h // 14))
    suit = d.card[-1] if d.card[-1] in SUITS else None
    rank = d.card[:-1] if suit else d.card
    color = (200, 0, 0) if suit in RED_SUITS else (0, 0, 0)
    p.text(
        rank_label(rank, ui.lang),
        Rect(card.x, card.y + h // 10, w, h // 2),
        p.font(FAR) * 2,
        color,
        role="far",
        min_size=p.font(BIG),
    )
    if suit:
        draw_suit(p.surface, suit, (card.centerx, card.y + h * 3 // 4), h // 8, color)
    if portrait:
        side = Rect(p.px(30), card.bottom + p.px(30), s.width - p.px(60), p.px(180))
    else:
        side = Rect(card.right + p.px(30), card.y, s.width - card.right - p.px(50), h)
    # Who drew it (seat mark, name in white) and what it weighs, on a panel of their own.
    p.panel(side.inflate(p.px(16), p.px(16)), color=BG)
    name_b, kilos_b = split(side, [1, 1.4])
    mark_d = min(name_b.height, p.px(44))
    seat = v.seat_of(d.player)
    p.seat_mark(seat, (name_b.x + mark_d // 2, name_b.centery), int(mark_d * 0.42))
    p.name(
        d.player,
        v.players,
        Rect(name_b.x + mark_d + p.px(8), name_b.y, name_b.width - mark_d - p.px(8), name_b.height),
        p.font(BIG),
        FG,
        align="left",
    )
    p.text(
        f"+{t('kilos', ui.lang, kilos=d.kilos)}",
        kilos_b,
        p.font(FAR) * 3 // 2,
        WARN if d.kilos >= 100 else FG,
        align="left",
        role="far",
        kind="score",
        min_size=p.font(BIG),
    )


# --- the game's side of the display seam -------------------------------------------------------

# Card entry keys: both languages' letters, the digits, and the numpad (/ * - for J Q K).
RANK_KEYS: dict[int, str] = {pygame.K_a: "A", pygame.K_1: "A", pygame.K_KP1: "A", **rank_keys(2)}
SUIT_PYKEYS = {pygame.K_F1: "S", pygame.K_F2: "H", pygame.K_F3: "D", pygame.K_F4: "C"}
DIGIT_SEATS = {
    **{getattr(pygame, f"K_{d}"): d - 1 for d in range(1, 10)},
    pygame.K_0: 9,
    **{getattr(pygame, f"K_KP{d}"): d - 1 for d in range(1, 10)},
    pygame.K_KP0: 9,
}


class KiloScreens(GameScreens):
    game = "kilo"
    title = "Kilo de merde"
    screens = ("table", "slap", "verdict", "card", "pile", "history", "gameover")
    nav = (("table", "T"), ("pile", "P"), ("history", "G"))
    anim_seconds = FLUSH_SECONDS

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        if view.finished:
            return "gameover"
        if view.awaiting == "verdict":
            return "verdict"
        if view.awaiting == "draw":
            return "slap" if ui.show_result else "card"
        return "table"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        return t("round_of", lang, round=view.round, rounds=view.rounds), awaiting_text(view, lang)

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        if ui.entry == "drawn":
            draw_drawn(p, view, ui, phase)
        elif ui.entry == "lots" and view.dealer is not None:
            draw_lots_overlay(
                p,
                view.players,
                view.players.index(view.dealer),
                phase,
                t("scr.lots.drawing", ui.lang),
                t("scr.lots.dealer", ui.lang, name=view.dealer),
            )
        else:
            draw_flush(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def press(self, app: Any, seat: int, t_us: int, res_us: int | None = None) -> None:
        game = app.table.engine
        if 0 <= seat < len(game.players):
            app.submit(Press(player=game.players[seat], t_us=t_us, res_us=res_us))

    def warm_views(self, engine: Any) -> list[tuple[Any, dict[str, Any]]]:
        """The open window after one press and after every seat's, then its valid verdict
        shown, then the same with each other seat first: the frames of a first slap (fonts at
        the live panel's and the timeline's sizes, the names and seat marks there)."""
        game: KiloGame = engine
        if game.awaiting != "play":
            return []
        scratch = game.scratch()
        floor = scratch._s.window.floor
        t_us = (floor[1] if floor else 0) + 1_000_000
        views: list[tuple[Any, dict[str, Any]]] = []
        try:
            for i, player in enumerate(game.players):
                scratch.apply(Press(player=player, t_us=t_us + 7_000 * i, res_us=1))
                if i in (0, len(game.players) - 1):
                    views.append((build_view(scratch), {}))
            scratch.apply(Verdict(valid=True))
            views.append((build_view(scratch), {"show_result": True}))
            # Who slaps first and who is last are named beside their seat's mark, whose number
            # has its own size for each shape: the same slap with the seats' order turned, so
            # that every seat opens a window once and is judged last once.
            n = len(game.players)
            for turn in range(1, n):
                other = game.scratch()
                for i in range(n):
                    player = game.players[(turn + i) % n]
                    other.apply(Press(player=player, t_us=t_us + 7_000 * i, res_us=1))
                    if i == 0:
                        views.append((build_view(other), {}))
                other.apply(Verdict(valid=True))
                views.append((build_view(other), {"show_result": True}))
        except RuleError:
            pass  # a table whose rules refuse these: what was built still warms
        return views

    def keys_are_buttons(self, app: Any, screen: str) -> bool:
        v = app.view
        return not app.ui.picking and screen != "card" and v.awaiting != "draw"

    def press_mark(self, engine: Any, event: Any) -> tuple[bool, int] | None:
        """A press's ``after`` needs only whether a window was open (the view's ``live``) and
        how many presses counted in it."""
        if not isinstance(event, Press):
            return None
        game: KiloGame = engine
        return game.awaiting == "verdict", len(game.window().order)

    def after_marked(self, app: Any, event: Any, mark: tuple[bool, int]) -> None:
        # The Press branch of ``after``: View.live is set exactly when the game awaits a verdict,
        # and its presses are the window's order (view.build_view).
        game: KiloGame = app.table.engine
        if self._late(app, game, event):
            return
        if game.awaiting != "verdict":
            return
        was_live, counted = mark
        if not was_live:
            app.ui.window_open_at = app.now()  # the countdown runs from the first press
        if not was_live or len(game.window().order) > counted:
            app.sounds.play("slap")

    def after(self, app: Any, event: Any, before: View | None) -> None:
        v: View = app.view
        ui: Ui = app.ui
        if isinstance(event, Press) and self._late(app, app.table.engine, event):
            return
        if isinstance(event, Press):
            if v.live is not None and (before is None or before.live is None):
                ui.window_open_at = app.now()  # the countdown runs from the first press
            if v.live is not None and (
                before is None or before.live is None or len(v.live.presses) > len(before.live.presses)
            ):
                app.sounds.play("slap")
            return
        if v.live is None:
            ui.window_open_at = None
        if isinstance(event, Verdict):
            ui.picking = False
            ui.penalized = []
            ui.show_result = bool(v.owed)
            ui.screen = None
            if v.last_slap and v.last_slap.losers:
                app.sounds.play("loser")
        elif isinstance(event, Draw):
            ui.rank = ui.suit = None
            ui.show_result = False
            ui.screen = None
            if v.last_draw is not None and v.last_draw.flushed:
                ui.entry = None  # the animation is the flush's
                ui.anim_start = app.now()
            elif v.last_draw is not None:
                ui.entry = "drawn"  # the card, big, for a moment
                ui.anim_start = app.now()
                app.sounds.play("flush")
        elif isinstance(event, Undo):
            ui.rank = ui.suit = None
            ui.picking = False
            ui.show_result = False
            ui.screen = None
            ui.window_open_at = None  # a window reopened by an undo closed long ago

    def _late(self, app: Any, game: KiloGame, event: Press) -> bool:
        """A press that arrived after the verdict it was made before: the verdict is judged
        again while no draw has followed it (``undo``, the same ``close`` and ``verdict``),
        else it is only recorded; either way the table says so. True if it was late."""
        late = game.late_presses
        if not late or late[-1] != (event.player, event.t_us):
            return False
        name = short_name(event.player, game.players)
        again = game.rejudge_events()
        if again is None:
            app.ui.say(
                t("scr.late.recorded", "fr", name=name), t("scr.late.recorded", "en", name=name), error=False
            )
            app.dirty = True
            return True
        for decision in again:
            if not app.submit(decision):
                return True  # the table said why
        app.ui.say(
            t("scr.late.rejudged", "fr", name=name), t("scr.late.rejudged", "en", name=name), error=False
        )
        return True

    def resumed(self, app: Any) -> bool:
        """A slap window open when the table stopped (a crash, a pulled plug): its timeout did
        not run while nobody could press. The stop, from the latest instant the journal knows of
        the window to now on the window's clock, is journaled (``outage``) and said, and the
        countdown goes on where it was. After a reboot of the Pi the window's clock is gone:
        only the presses made before the stop count, and the table says so."""
        from companion.inputs.base import host_epoch

        game: KiloGame = app.table.engine
        span = game.window_span()
        key = game.window_clock()
        if span is None or key is None or key[1] is None:
            return True  # no window open, or a log without clocks: nothing to measure
        ui: Ui = app.ui
        if key[0] == "CLOCK_MONOTONIC" and key[1] != host_epoch():
            ui.say(t("scr.outage.reboot", "fr"), t("scr.outage.reboot", "en"), error=False)
            app.dirty = True
            return True
        now_us = app.instant_on(key, app.table_ns())
        if now_us is None:
            # A board's clock is placed once its heartbeats are heard; a clock nothing here
            # can place (the simulator's) never will be.
            return not any(callable(getattr(part, "clock_offset", None)) for part in app.source_parts())
        _, latest = span
        known = max(latest, *(end for _, end in game.window_outages()), game.window_last_close() or latest)
        if now_us <= known:
            return True
        if not app.submit(Outage(from_us=known, to_us=now_us)):
            return True
        seconds = round((now_us - known) / 1e6)
        ui.say(
            t("scr.outage.stretched", "fr", s=seconds),
            t("scr.outage.stretched", "en", s=seconds),
            error=False,
        )
        close = game.window().close_us
        if close is not None:
            left_s = max(0.0, (close - now_us) / 1e6)
            ui.window_open_at = app.now() - (game.rules.slap_timeout_ms / 1000 - left_s)
        app.dirty = True
        return True

    def window_open(self, engine: Any) -> bool:
        return bool(engine.awaiting == "verdict")

    def close_for(
        self, engine: Any, event: Any, instant_on: Callable[[tuple[str | None, str | None]], int | None]
    ) -> Close | None:
        """A verdict made at a known instant is journaled after a ``close`` there, on the
        window's clock: a press stamped after it never counts in it, live as in a replay."""
        if not isinstance(event, Verdict):
            return None
        key = engine.window_clock()
        if key is None:
            return None
        at = instant_on(key)
        return None if at is None else Close(t_us=at)

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        """While a slap is judged, the question is on the screen itself, one at a time: the
        top bar only says what is going on."""
        where, todo = self.headline(view, ui.lang)
        if view.awaiting == "verdict" and not view.finished:
            todo = t("scr.await.false_pick" if ui.picking else "scr.await.judge", ui.lang)
        return where, todo

    def redraw_in(self, view: View | None, ui: Ui, now: float) -> float | None:
        """While a slap window is open and shown, its countdown moves: the next frame is due
        at the next quarter second (or when the window closes). None otherwise: no timer."""
        from companion.display.state import active_screen

        if (
            view is None
            or view.live is None
            or not view.live.non_pressers
            or ui.window_open_at is None
            or active_screen(view, ui) not in ("verdict", "slap")
            or ui.picking
        ):
            return None
        elapsed = now - ui.window_open_at
        left = view.rules.slap_timeout_ms / 1000 - elapsed
        if left <= 0:
            return None
        return max(0.01, min(left, WINDOW_TICK_S - elapsed % WINDOW_TICK_S))

    def undone(self, engine: Any, lang: str) -> str | None:
        event = engine.last_undone
        if isinstance(event, Draw):  # in words: "la pioche de Bruno, As de pique, 100 kg"
            card = event.card
            name = short_name(event.player, engine.players)
            if card.rank is not None and card.rank.value == "7":
                return t("scr.undone.flush", lang, name=name, card=card.name_in(lang))
            kilos = KILOS[card.rank] if card.rank is not None else 0
            return t("scr.undone.draw", lang, name=name, card=card.name_in(lang), kilos=kilos)
        if isinstance(event, Verdict):
            return t(
                "scr.undone.verdict",
                lang,
                what=t("scr.verdict.valid" if event.valid else "scr.verdict.false", lang),
            )
        return None

    def simulate(self, app: Any, sim: Any) -> None:
        """Simulated players slap once per window the table is waiting for."""
        game = app.table.engine
        if game.awaiting != "play":
            return
        skip = {i for i, p in enumerate(game.players) if game.window_pressed(p)}
        sim.trigger_slap(skip=skip)
        app.sim_busy = True

    def do(self, app: Any, action: Action) -> bool:
        kind = action[0]
        ui: Ui = app.ui
        v: View | None = app.view
        if kind == "verdict":
            if action[1] == "valid":
                app.submit(Verdict(valid=True))
            elif v is not None and v.live is not None:
                ui.picking = True
                ui.picking_at = app.decision_ns
                ui.penalized = [v.live.claimant] if v.live.claimant else []
        elif kind == "toggle":
            name = str(action[1])
            if name in ui.penalized:
                ui.penalized.remove(name)
            else:
                ui.penalized.append(name)
        elif kind == "confirm_false":
            if not ui.penalized:
                ui.say(t("scr.pick.nobody", "fr"), t("scr.pick.nobody", "en"))
            elif v is not None and v.live is not None:
                claimant_only = ui.penalized == [v.live.claimant]
                verdict = Verdict(valid=False, penalized=None if claimant_only else list(ui.penalized))
                made = app.decision_ns
                if ui.picking_at is not None:  # judged where the false slap was called
                    app.decision_ns = ui.picking_at
                try:
                    app.submit(verdict)
                finally:
                    app.decision_ns = made
        elif kind == "continue":
            ui.show_result = False
            ui.screen = None
        elif kind == "rank":
            ui.show_result = False
            ui.screen = None
            rank = str(action[1])
            if v is not None and v.rank_reasons.get(rank) is not None:
                ui.say(*v.rank_reasons[rank])  # type: ignore[misc]
                return True
            ui.rank = rank
            if ui.suit and v is not None and v.card_reasons.get(rank + ui.suit) is not None:
                ui.suit = None
        elif kind == "suit":
            suit = action[1]
            if suit is not None and ui.rank and v is not None:
                reason = v.card_reasons.get(ui.rank + str(suit))
                if reason is not None:
                    ui.say(*reason)
                    return True
            ui.suit = None if suit is None else str(suit)
        elif kind == "why":
            key = str(action[1])
            if v is not None:
                reason = aside_reason(v, key.split()) if " " in key else None
                reason = reason or v.rank_reasons.get(key) or v.card_reasons.get(key)
                if reason is None and ui.rank is None and len(key) == 1:
                    reason = (t("scr.msg.pick_rank", "fr"), t("scr.msg.pick_rank", "en"))
                if reason is not None:
                    ui.say(*reason)
        elif kind == "draw":
            if v is None or not v.owed:
                return True
            if ui.rank is None:
                ui.say(t("scr.msg.pick_rank", "fr"), t("scr.msg.pick_rank", "en"))
                return True
            app.submit(Draw(player=v.owed[0], card=ui.rank + (ui.suit or "")))
        elif kind == "starter":
            app.submit(Starter(player=action[1]))
        elif kind == "lots":
            game = app.table.engine
            if game.dealer_open:
                seat = fair_seat(app.seed, "kilo:dealer", len(game.players))
                if app.submit(Dealer(player=game.players[seat])):
                    ui.entry = "lots"
                    ui.anim_start = app.now()
        else:
            return False
        return True

    def confirm(self, app: Any, screen: str) -> Action | None:
        ui: Ui = app.ui
        if screen == "verdict":
            return ("confirm_false",) if ui.picking else ("verdict", "valid")
        if screen == "slap" and ui.show_result:
            return ("continue",)
        if screen == "card":
            return ("draw",)
        return None

    def cancel(self, app: Any, screen: str) -> bool:
        ui: Ui = app.ui
        if screen == "verdict" and not ui.picking and app.view and app.view.live:
            app.do(("verdict", "false"))
        elif ui.picking:
            ui.picking = False
            ui.penalized = []
        elif screen == "card" and (ui.rank or ui.suit):
            ui.rank = ui.suit = None
        else:
            return False
        return True

    def key(self, app: Any, key: int, mod: int, screen: str) -> bool:
        ui: Ui = app.ui
        v: View | None = app.view
        if key == pygame.K_BACKSPACE and screen == "card" and (ui.rank or ui.suit):
            app.do(("cancel",))
        elif screen == "card" and key in RANK_KEYS:
            app.do(("rank", RANK_KEYS[key]))
        elif screen == "card" and key in SUIT_PYKEYS:
            app.do(("suit", SUIT_PYKEYS[key]))
        elif key in RANK_KEYS and v is not None and v.awaiting == "draw" and not ui.picking:
            # A rank typed while a draw is owed is the card, whichever page is up (the slap's
            # result, or one opened with T, P, H...): the action goes back to the card screen.
            # Dropped, the next Enter confirmed nothing (issue 37).
            app.do(("rank", RANK_KEYS[key]))
        elif key == pygame.K_d and screen == "table" and v is not None and v.dealer_open:
            app.do(("lots",))
        elif ui.picking and key in DIGIT_SEATS and v is not None and v.live is not None:
            seat = DIGIT_SEATS[key]
            pressers = [p.name for p in v.live.presses]
            if seat < len(v.players) and v.players[seat] in pressers:
                app.do(("toggle", v.players[seat]))
            elif seat < len(v.players):
                name = v.players[seat]
                ui.say(t("scr.pick.not_pressed", "fr", name=name), t("scr.pick.not_pressed", "en", name=name))
        else:
            return False
        return True

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return bool(engine.awaiting == "play")

    def press_counted(self, engine: Any, event: Any) -> int | None:
        if isinstance(event, Press) and any(p.player == event.player for p in engine.window().order):
            return int(engine.players.index(event.player))
        return None

    def leds(self, engine: Any) -> LedPlan:
        """Owed draws blink, otherwise idle plus the presses seen in the open window."""
        game: KiloGame = engine
        if game.finished:
            return LedPlan("off")
        owed = tuple(game.players.index(n) for n in game.owed_draws)
        last = game.last_slap
        if owed and last is not None and not last.valid:
            return LedPlan("false_slap", owed)
        if owed:
            return LedPlan("loser", owed)
        return LedPlan("idle", lit=tuple(game.players.index(p.player) for p in game.window().order))

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        game: KiloGame = engine
        form.rounds = game.rounds
        form.rules = {k: getattr(game.rules, k) for k in RULE_CHOICES}
        form.timeout_ms = game.rules.slap_timeout_ms

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        items = [
            SetupItem(
                t("scr.setup.rounds", lang, n=form.rounds),
                t("scr.setup.rounds_help", lang),
                ("rounds", "1"),
                ("rounds", "-1"),
            )
        ]
        for name in RULE_CHOICES:
            value = form.rules[name]
            items.append(
                SetupItem(
                    t(f"scr.rule.{name}.{value}.short", lang),
                    t(f"scr.rule.{name}.{value}", lang),
                    ("rule", name),
                )
            )
        items.append(
            SetupItem(
                t("scr.setup.timeout", lang, s=form.timeout_ms / 1000),
                t("scr.setup.timeout_help", lang),
                ("timeout", "1"),
                ("timeout", "-1"),
            )
        )
        return items

    def setup_action(self, form: SetupForm, action: Action) -> bool:
        kind = action[0]
        if kind == "rounds":
            form.rounds = min(99, max(1, form.rounds + int(str(action[1]))))
        elif kind == "rule":
            name = str(action[1])
            choices = RULE_CHOICES[name]
            form.rules[name] = choices[(choices.index(form.rules[name]) + 1) % len(choices)]
        elif kind == "timeout":
            i = TIMEOUTS_MS.index(form.timeout_ms) if form.timeout_ms in TIMEOUTS_MS else 3
            form.timeout_ms = TIMEOUTS_MS[min(len(TIMEOUTS_MS) - 1, max(0, i + int(str(action[1]))))]
        else:
            return False
        return True

    def new_game(self, form: SetupForm, names: list[str]) -> NewKiloGame:
        return NewKiloGame(
            players=names, rounds=form.rounds, rules=KiloRules(slap_timeout_ms=form.timeout_ms, **form.rules)
        )


DRAWERS = {
    "table": draw_table,
    "slap": draw_slap,
    "verdict": draw_verdict,
    "card": draw_card,
    "pile": draw_pile,
    "history": draw_history,
    "gameover": draw_gameover,
}
