"""The screens: each draws from a View and the Ui state into a Painter, and registers its controls.

Every screen keeps the same frame: the top bar (game, round, what the table must do), a banner for
hardware trouble and messages (it pushes the content down, it never covers the scores), and the
navigation bar. A screen that does not apply to the state still draws, and says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from companion.cards import Rank
from companion.display.layout import Control, Painter, draw_suit
from companion.display.state import RULE_CHOICES, Ui, active_screen
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
    SMALL,
    WARN,
    seat_color,
)
from companion.display.view import SeatView, SlapView, View
from companion.i18n import margin_text, ms, t

Rect = pygame.Rect

RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_LABEL_FR = {"J": "V", "Q": "D", "K": "R"}
RANK_KEYS_FR = {"A": "A/1", "10": "0", "J": "V", "Q": "D", "K": "R"}
RANK_KEYS_EN = {"A": "A/1", "10": "0", "J": "J", "Q": "Q", "K": "K"}
SUITS = ("S", "H", "D", "C")
SUIT_KEYS = {"S": "F1", "H": "F2", "D": "F3", "C": "F4"}
RED_SUITS = ("H", "D")
NAV = (("table", "T"), ("pile", "P"), ("history", "G"), ("rules", "R"), ("status", "S"))


def rank_label(rank: str, lang: str) -> str:
    return RANK_LABEL_FR.get(rank, rank) if lang == "fr" else rank


def card_label(card: str, lang: str) -> str:
    """Short card text for chips: the rank as the language writes it (the suit is drawn)."""
    rank = card[:-1] if card[-1] in SUITS else card
    return rank_label(rank, lang)


def split(rect: Rect, sizes: list[float], vertical: bool = True, gap: int = 0) -> list[Rect]:
    """Cut ``rect`` into parts proportional to ``sizes`` with ``gap`` pixels between them."""
    total = sum(sizes)
    span = (rect.height if vertical else rect.width) - gap * (len(sizes) - 1)
    out: list[Rect] = []
    pos = rect.top if vertical else rect.left
    for i, s in enumerate(sizes):
        length = int(span * s / total) if i < len(sizes) - 1 else (
            (rect.bottom if vertical else rect.right) - pos)
        out.append(Rect(rect.left, pos, rect.width, length) if vertical
                   else Rect(pos, rect.top, length, rect.height))
        pos += length + gap
    return out


def grid(rect: Rect, n: int, cols: int, gap: int) -> list[Rect]:
    rows = max(1, math.ceil(n / cols))
    out: list[Rect] = []
    for r, row in enumerate(split(rect, [1] * rows, True, gap)):
        count = min(cols, n - r * cols)
        out.extend(split(row, [1] * cols, False, gap)[:count])
    return out


# --- frame -------------------------------------------------------------------------------------

def frame(p: Painter, v: View | None, ui: Ui, screen: str) -> Rect:
    lang = ui.lang
    s = p.screen
    pad = p.px(8)
    top_h = p.px(54)
    nav_h = p.px(62)
    top = Rect(0, 0, s.width, top_h)
    pygame.draw.rect(p.surface, PANEL, top)
    inner = top.inflate(-2 * pad, -pad)
    left, right = split(inner, [0.42, 0.58], vertical=False, gap=pad)
    if v is None:
        p.text(t("game.kilo", lang), left, p.font(BIG), FG, align="left", role="near")
        p.text(t("scr.setup.title", lang), right, p.font(NEAR), MUTED, align="right")
    else:
        p.text(t("round_of", lang, round=v.round, rounds=v.rounds), left, p.font(BIG), FG,
               align="left", role="near")
        p.text(awaiting_text(v, lang), right, p.font(NEAR), ACCENT, align="right")
    y = top.bottom
    hw = ui.hardware
    if hw.trouble:
        band = Rect(0, y, s.width, p.px(40))
        pygame.draw.rect(p.surface, WARN, band)
        p.text(hardware_line(ui), band.inflate(-2 * pad, -p.px(4)), p.font(SMALL), (0, 0, 0))
        p.controls.append(_ctl(band, ("nav", "status")))
        y = band.bottom
    if ui.message is not None:
        message = ui.text(ui.message)
        # An error names its fix: rather two lines than a cut sentence.
        two_lines = p.fonts.size(message, p.font(18))[0] > s.width - 2 * pad
        band = Rect(0, y, s.width, p.px(66 if two_lines else 40))
        pygame.draw.rect(p.surface, BAD if ui.message_error else GOOD, band)
        inner = band.inflate(-2 * pad, -p.px(4))
        if two_lines:
            p.paragraph(message, inner, p.font(SMALL), FG, min_size=p.font(16))
        else:
            p.text(message, inner, p.font(SMALL), FG, min_size=p.font(18))
        p.controls.append(_ctl(band, ("dismiss",)))
        y = band.bottom
    nav = Rect(0, s.height - nav_h, s.width, nav_h)
    pygame.draw.rect(p.surface, PANEL, nav)
    items: list[tuple[str, tuple[str, ...], bool, bool]] = []
    for name, _key in NAV:
        items.append((t(f"scr.nav.{name}", lang), ("nav", name), v is not None,
                      screen == name))
    items.append((t("scr.nav.undo", lang), ("undo",), v is not None, False))
    items.append((t("scr.nav.sound_off" if ui.muted else "scr.nav.sound_on", lang), ("mute",),
                  True, False))
    items.append(("EN" if lang == "fr" else "FR", ("lang",), True, False))
    cells = split(nav.inflate(-pad, -pad), [1] * len(items), vertical=False, gap=p.px(4))
    # One size for the whole bar (the largest at which every label fits): a row of buttons in
    # mixed sizes reads as mixed importance.
    size = min(p.fit(label, cell.inflate(-p.px(10), -p.px(10)), p.font(26), p.font(12))[1]
               for cell, (label, *_rest) in zip(cells, items, strict=True))
    for cell, (label, action, enabled, selected) in zip(cells, items, strict=True):
        p.button(cell, label, action, enabled=enabled, selected=selected, size=size)
    return Rect(pad, y + pad, s.width - 2 * pad, nav.top - y - 2 * pad)


def _ctl(rect: Rect, action: tuple[str, ...]) -> Control:
    return Control(Rect(rect), action, True)


def awaiting_text(v: View, lang: str) -> str:
    if v.finished:
        return t("awaiting.nothing", lang)
    if v.awaiting == "draw":
        return t("scr.await.draw", lang, names=", ".join(v.owed))
    if v.awaiting == "verdict":
        return t("scr.await.verdict", lang)
    if v.starter:
        return t("scr.await.play_starter", lang, name=v.starter)
    return t("scr.await.play", lang)


def hardware_line(ui: Ui) -> str:
    hw = ui.hardware
    lang = ui.lang
    parts = []
    if hw.failed:
        parts.append(t("scr.hw.not_started", lang, source=hw.source))
    elif not hw.connected:
        parts.append(t("scr.hw.disconnected", lang, source=hw.source))
    for label in hw.stuck.values():
        parts.append(t("scr.hw.stuck", lang, button=ui.text(label)))
    return " · ".join(parts)


# --- small pieces ------------------------------------------------------------------------------

def card_chips(p: Painter, cards: tuple[str, ...], box: Rect, lang: str) -> None:
    """The cards lying in front of a player, as small white cards with their suit drawn."""
    if not cards:
        return
    h = box.height
    w = int(h * 1.25)
    gap = max(2, h // 8)
    fits = max(1, (box.width + gap) // (w + gap))
    shown = cards if len(cards) <= fits else cards[-(fits - 1):] if fits > 1 else ()
    hidden = len(cards) - len(shown)
    x = box.left
    if hidden:
        tag = Rect(x, box.top, w, h)
        p.text(f"+{hidden}", tag, int(h * 0.9), MUTED, role="small")
        x += w + gap
    for card in shown:
        chip = Rect(x, box.top, w, h)
        pygame.draw.rect(p.surface, (245, 245, 245), chip, border_radius=max(2, h // 6))
        suit = card[-1] if card[-1] in SUITS else None
        color = (200, 0, 0) if suit in RED_SUITS else (0, 0, 0)
        if suit:
            text_box = Rect(chip.x + 1, chip.y, int(w * 0.62), h)
            p.text(card_label(card, lang), text_box, int(h * 0.95), color, role="small")
            r = max(2, int(h * 0.2))
            draw_suit(p.surface, suit, (chip.right - r - max(1, h // 10), chip.centery), r,
                      color)
        else:
            p.text(card_label(card, lang), chip.inflate(-2, 0), int(h * 0.95), color,
                   role="small")
        x += w + gap


def seat_tile(p: Painter, s: SeatView, box: Rect, lang: str, highlight: bool = False) -> None:
    border = WARN if s.owes else (FG if highlight else None)
    p.panel(box, None, PANEL, border=border)
    pad = max(3, box.height // 12)
    inner = box.inflate(-2 * pad, -2 * pad)
    mark_d = min(inner.height, p.px(44))
    mark = Rect(inner.left, inner.top, mark_d, mark_d)
    p.seat_mark(s.seat, mark.center, int(mark_d * 0.42))
    # The number in far type, its unit smaller: the figure is what must carry across the room.
    kilo_w = int(inner.width * 0.36)
    kilos = Rect(inner.right - kilo_w, inner.top, kilo_w, inner.height)
    unit_w = p.fonts.size("kg", p.font(NEAR))[0] + pad
    number = Rect(kilos.x, kilos.y, kilos.width - unit_w, kilos.height)
    shown = p.text(str(s.kilos), number, p.font(FAR), FG, align="right", role="far",
                   min_size=p.font(FAR) * 3 // 4)
    p.text("kg", Rect(number.right + pad // 2, shown.top, unit_w - pad // 2,
                      max(1, min(shown.height, kilos.bottom - shown.top))),
           p.font(NEAR), MUTED, align="left", valign="bottom")
    mid = Rect(mark.right + pad, inner.top, kilos.left - mark.right - 2 * pad, inner.height)
    name_box, cards_box = split(mid, [0.55, 0.45], gap=max(1, pad // 2))
    tags = []
    if s.owes:
        tags.append(t("scr.tag.draws", lang))
    if s.starter:
        tags.append(t("scr.tag.starts", lang))
    if s.flushes:
        tags.append(t("scr.tag.flushes", lang, n=s.flushes))
    label = s.name + (" · " + ", ".join(tags) if tags else "")
    p.text(label, name_box, p.font(NEAR), seat_color(s.seat) if not s.owes else WARN,
           align="left", min_size=p.font(20))
    if s.cards:
        card_chips(p, s.cards, cards_box, lang)
    else:
        p.text(t("no_cards", lang), cards_box, p.font(SMALL), MUTED, align="left",
               role="small")


def columns_for(p: Painter, n: int) -> int:
    if p.scale.portrait:
        return 1
    return 1 if n <= 4 else 2


# --- table -------------------------------------------------------------------------------------

def draw_table(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(6)
    info_h = p.px(40)
    info, tiles_area = Rect(area.x, area.y, area.width, info_h), Rect(
        area.x, area.y + info_h + gap, area.width, area.height - info_h - gap)
    odds = v.odds
    if odds.count:
        pile = t("scr.pile_line", lang, count=odds.count, ace=odds.ace, seven=odds.seven)
    else:
        pile = t("pile.empty", lang)
    # Before the first slap of a round, touching a player marks who holds the queen of hearts.
    ask_starter = v.awaiting == "play" and v.starter is None and v.live is None
    if ask_starter:
        pile += " · " + t("scr.starter_hint", lang)
    p.text(pile, info, p.font(NEAR), MUTED, align="left")
    cols = columns_for(p, len(v.standings))
    # Column-major so that the standings read down the first column, then the second.
    rows = math.ceil(len(v.standings) / cols)
    cells = grid(tiles_area, rows * cols, cols, gap)
    for i, s in enumerate(v.standings):
        col, row = divmod(i, rows)
        cell = cells[row * cols + col]
        seat_tile(p, s, cell, lang)
        if v.awaiting == "play":
            p.controls.append(Control(pygame.Rect(cell), ("starter", s.name)))


def no_game(p: Painter, ui: Ui, area: Rect) -> None:
    reason = ui.no_game_reason or (t("scr.no_game", "fr"), t("scr.no_game", "en"))
    p.paragraph(ui.text(reason), area.inflate(-p.px(20), -p.px(20)), p.font(NEAR), MUTED)


def not_applicable(p: Painter, area: Rect, why: str) -> Rect:
    """A line saying why this screen shows nothing live; returns the space left under it."""
    band = Rect(area.x, area.y, area.width, p.px(44))
    p.panel(band, area, PANEL_HI)
    p.text(why, band.inflate(-p.px(12), -p.px(4)), p.font(SMALL), WARN, min_size=p.font(18))
    return Rect(area.x, band.bottom + p.px(6), area.width, area.bottom - band.bottom - p.px(6))


# --- slap timeline -----------------------------------------------------------------------------

def slap_headline(sv: SlapView, lang: str) -> str:
    names = ", ".join(sv.losers)
    if sv.valid is None:
        waiting = [n for n, _ in sv.non_pressers]
        if waiting:
            return t("scr.slap.waiting", lang, claimant=sv.claimant, names=", ".join(waiting))
        return t("scr.slap.all_in", lang, claimant=sv.claimant)
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


def timeline(p: Painter, v: View, sv: SlapView, area: Rect, lang: str) -> None:
    rows = len(sv.presses) + len(sv.non_pressers)
    gap = max(2, p.px(4))
    cells = split(area, [1] * max(rows, 1), gap=gap)
    span = max((pr.offset_us for pr in sv.presses), default=0) or 1
    losers = set(sv.losers)
    for i, pr in enumerate(sv.presses):
        cell = cells[i]
        lost = pr.name in losers
        p.panel(cell, area, PANEL_HI if lost else PANEL, border=BAD if lost else None)
        pad = max(2, cell.height // 10)
        inner = cell.inflate(-2 * pad, -2 * pad)
        mark = Rect(inner.x, inner.y, inner.height, inner.height)
        p.seat_mark(pr.seat, mark.center, int(inner.height * 0.42))
        rest = Rect(mark.right + pad, inner.y, inner.right - mark.right - pad, inner.height)
        name_b, off_b, bar_b = split(rest, [0.3, 0.24, 0.46], vertical=False, gap=pad)
        label = pr.name
        if i == 0:
            label += " · " + t("scr.slap.claimant", lang)
        if lost:
            label += " · " + t("scr.slap.loses", lang)
        p.text(label, name_b, p.font(NEAR), BAD if lost else FG, align="left",
               min_size=p.font(18))
        off = "0 ms" if i == 0 else "+" + ms(pr.offset_us, lang)
        p.text(off, off_b, p.font(NEAR), FG, align="right", min_size=p.font(18))
        bar_h = max(2, bar_b.height // 2)
        length = int(bar_b.width * pr.offset_us / span)
        pygame.draw.rect(p.surface, PANEL_HI, Rect(bar_b.x, bar_b.centery - bar_h // 2,
                                                   bar_b.width, bar_h))
        pygame.draw.rect(p.surface, seat_color(pr.seat),
                         Rect(bar_b.x, bar_b.centery - bar_h // 2, max(3, length), bar_h))
    for j, (name, seat) in enumerate(sv.non_pressers):
        cell = cells[len(sv.presses) + j]
        lost = name in losers
        p.panel(cell, area, PANEL, border=BAD if lost else DISABLED)
        pad = max(2, cell.height // 10)
        inner = cell.inflate(-2 * pad, -2 * pad)
        mark = Rect(inner.x, inner.y, inner.height, inner.height)
        p.seat_mark(seat, mark.center, int(inner.height * 0.42))
        rest = Rect(mark.right + pad, inner.y, inner.right - mark.right - pad, inner.height)
        if sv.valid is False:
            why = t("scr.slap.held_back", lang)
        elif sv.valid is None:
            why = t("scr.slap.not_yet", lang)
        else:
            why = t("scr.slap.no_press", lang)
        p.text(f"{name} · {why}", rest, p.font(NEAR), BAD if lost else MUTED, align="left",
               min_size=p.font(18))


def draw_slap(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    sv = v.last_slap
    if sv is None:
        if v.live is None:
            not_applicable(p, area, t("scr.slap.none", lang))
            return
        area = not_applicable(p, area, t("scr.slap.live", lang))
        sv = v.live
    gap = p.px(6)
    action_h = p.px(70) if v.awaiting == "draw" and not ui.screen else 0
    head_h = p.px(64)
    head = Rect(area.x, area.y, area.width, head_h)
    color = BAD if sv.valid else (WARN if sv.valid is False else FG)
    p.text(slap_headline(sv, lang), head, p.font(FAR), color, role="far",
           min_size=p.font(BIG) * 3 // 4)
    body = Rect(area.x, head.bottom + gap, area.width,
                area.height - head_h - gap - (action_h + gap if action_h else 0))
    timeline(p, v, sv, body, lang)
    if action_h:
        btn = Rect(area.centerx - area.width // 4, area.bottom - action_h, area.width // 2,
                   action_h)
        p.button(btn, t("scr.slap.continue", lang, names=", ".join(v.owed)), ("continue",),
                 color=ACCENT, hint=t("scr.key.enter", lang), size=p.font(NEAR))


# --- verdict -----------------------------------------------------------------------------------

def draw_verdict(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    sv = v.live
    if sv is None:
        why = (t("scr.verdict.over", lang) if v.finished else
               t("scr.verdict.draw_first", lang, names=", ".join(v.owed)) if v.owed else
               t("scr.verdict.none", lang))
        area = not_applicable(p, area, why)
        if v.last_slap is not None:
            timeline(p, v, v.last_slap, area, lang)
        return
    gap = p.px(8)
    landscape = not p.scale.portrait
    if landscape:
        left, right = split(area, [0.56, 0.44], vertical=False, gap=gap)
    else:
        left, right = split(area, [0.55, 0.45], gap=gap)
    head = Rect(left.x, left.y, left.width, p.px(48))
    p.text(slap_headline(sv, lang), head, p.font(BIG), FG, role="near", min_size=p.font(22))
    timeline(p, v, sv, Rect(left.x, head.bottom + gap, left.width,
                            left.height - head.height - gap), lang)
    if not ui.picking:
        title_h = p.px(44)
        p.text(t("scr.verdict.ask", lang), Rect(right.x, right.y, right.width, title_h),
               p.font(NEAR), ACCENT)
        b1, b2 = split(Rect(right.x, right.y + title_h + gap, right.width,
                            right.height - title_h - gap), [1, 1], gap=gap)
        p.button(b1, t("scr.verdict.valid", lang), ("verdict", "valid"), color=GOOD,
                 hint=t("scr.key.enter", lang), size=p.font(BIG))
        p.button(b2, t("scr.verdict.false", lang), ("verdict", "false"), color=BAD,
                 hint=t("scr.key.false", lang), size=p.font(BIG))
        return
    title_h = p.px(44)
    p.text(t("scr.verdict.who", lang), Rect(right.x, right.y, right.width, title_h),
           p.font(NEAR), WARN)
    pressers = [pr for pr in sv.presses]
    foot_h = p.px(64)
    chips_area = Rect(right.x, right.y + title_h + gap, right.width,
                      right.height - title_h - foot_h - 2 * gap)
    cells = grid(chips_area, len(pressers), 2 if len(pressers) > 4 else 1, p.px(4))
    for cell, pr in zip(cells, pressers, strict=False):
        chosen = pr.name in ui.penalized
        p.button(cell, f"{pr.seat + 1}. {pr.name}", ("toggle", pr.name), selected=chosen,
                 color=BAD if chosen else PANEL_HI, size=p.font(NEAR))
    ok, back = split(Rect(right.x, right.bottom - foot_h, right.width, foot_h), [1.4, 1],
                     vertical=False, gap=gap)
    p.button(ok, t("scr.verdict.confirm_false", lang, n=len(ui.penalized)),
             ("confirm_false",), enabled=bool(ui.penalized), color=BAD,
             hint=t("scr.key.enter", lang), size=p.font(NEAR))
    p.button(back, t("scr.back", lang), ("cancel",), hint=t("scr.key.esc", lang),
             size=p.font(NEAR))


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


def draw_card(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if v.awaiting != "draw":
        area = not_applicable(p, area, t("scr.card.over", lang) if v.finished
                              else t("scr.card.none", lang))
        seat_strip(p, v, ui, area)
        return
    gap = p.px(6)
    who = v.owed[0]
    # The rank grid is what the table touches: when a message band takes room, the title,
    # note and footer give it up first.
    head_h = max(p.px(56), min(p.px(64), area.height // 7))  # never below the 2 m type
    head = Rect(area.x, area.y, area.width, head_h)
    mark_d = head_h
    p.seat_mark(v.seat_of(who), (head.x + mark_d // 2, head.centery), int(mark_d * 0.4))
    p.text(t("scr.card.who", lang, name=who), Rect(head.x + mark_d + gap, head.y,
                                                   head.width - mark_d - gap, head_h),
           p.font(FAR), WARN, align="left", role="far", min_size=p.font(BIG) * 3 // 4)
    foot_h = min(p.px(66), area.height // 8)
    note_h = min(p.px(34), area.height // 16)
    body = Rect(area.x, head.bottom + gap, area.width,
                area.height - head_h - foot_h - note_h - 3 * gap)
    cols = 5 if p.scale.portrait else 7
    rank_area, suit_area = split(body, [2.2 if not p.scale.portrait else 3, 1], gap=gap)
    cells = grid(rank_area, 13, cols, p.px(5))
    for cell, rank in zip(cells, RANK_ORDER, strict=True):
        why = short_reason(v, rank)
        keys = (RANK_KEYS_FR if lang == "fr" else RANK_KEYS_EN).get(rank, rank)
        hint = t(f"scr.card.tag.{why}", lang) if why else keys
        p.button(cell, rank_label(rank, lang), ("rank", rank) if not why else ("why", rank),
                 enabled=why is None, selected=ui.rank == rank,
                 color=ACCENT if ui.rank == rank else PANEL_HI, hint=hint, size=p.font(BIG))
    suit_cells = split(suit_area, [1, 1, 1, 1, 1.3], vertical=False, gap=p.px(5))
    for cell, suit in zip(suit_cells, SUITS, strict=False):
        card = f"{ui.rank}{suit}" if ui.rank else None
        reason = v.card_reasons.get(card) if card else None
        enabled = reason is None
        action = ("suit", suit) if enabled else ("why", card or suit)
        p.button(cell, "", action, enabled=enabled, selected=ui.suit == suit,
                 color=(245, 245, 245) if enabled else PANEL, hint=SUIT_KEYS[suit])
        r = max(4, min(cell.width, cell.height) // 5)
        color = ((200, 0, 0) if suit in RED_SUITS else (0, 0, 0)) if enabled else DISABLED
        draw_suit(p.surface, suit, (cell.centerx, cell.y + cell.height * 2 // 5), r, color)
    p.button(suit_cells[4], t("scr.card.any_suit", lang), ("suit", None),
             selected=ui.suit is None, size=p.font(SMALL))
    note = Rect(area.x, body.bottom + gap, area.width, note_h)
    held = " ".join(rank_label(r, lang) for r in v.pile_ranks)
    p.text(t("scr.card.note", lang, ranks=held), note, p.font(SMALL), MUTED,
           min_size=p.font(16))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    chosen_b, ok_b = split(foot, [1.2, 1], vertical=False, gap=gap)
    if ui.rank:
        from companion.cards import parse_card

        picked = parse_card(ui.rank + (ui.suit or ""))
        chosen = t("scr.card.chosen", lang, card=picked.name_in(lang))
    else:
        chosen = t("scr.card.pick", lang)
    p.text(chosen, chosen_b, p.font(NEAR), FG, align="left", min_size=p.font(20))
    p.button(ok_b, t("scr.card.confirm", lang), ("draw",), enabled=ui.rank is not None,
             color=GOOD, hint=t("scr.key.enter", lang), size=p.font(NEAR))


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Compact standings for screens whose own content is not about the scores."""
    n = len(v.standings)
    cols = 1 if p.scale.portrait or n <= 3 else 2
    rows = math.ceil(n / cols)
    cells = grid(area, rows * cols, cols, p.px(4))
    for i, s in enumerate(v.standings):
        col, row = divmod(i, rows)
        seat_tile(p, s, cells[row * cols + col], ui.lang)


# --- pile --------------------------------------------------------------------------------------

def draw_pile(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    o = v.odds
    gap = p.px(8)
    if p.scale.portrait:
        stats, bars = split(area, [1, 1.2], gap=gap)
    else:
        stats, bars = split(area, [1, 1.3], vertical=False, gap=gap)
    items = [
        (t("scr.pile.count", lang), str(o.count)),
        (t("scr.pile.ace", lang), f"{o.ace:.0%}"),
        (t("scr.pile.seven", lang), f"{o.seven:.0%}"),
        (t("scr.pile.expected", lang), f"{o.expected_kilos:.1f} kg"),
    ]
    for cell, (label, value) in zip(split(stats, [1] * 4, gap=p.px(4)), items, strict=True):
        p.panel(cell, stats)
        lab, val = split(cell.inflate(-p.px(10), -p.px(4)), [1, 1.4], vertical=False)
        p.text(label, lab, p.font(NEAR), MUTED, align="left", min_size=p.font(18))
        p.text(value, val, p.font(FAR), FG, align="right", role="far",
               min_size=p.font(BIG) * 3 // 4)
    title_h = p.px(36)
    if o.source == "returned":
        title = t("scr.pile.returned", lang, n=o.known_bottom)
    elif o.source == "empty":
        title = t("pile.empty", lang)
    else:
        title = t("scr.pile.ranks", lang, bottom=o.known_bottom)
    p.text(title, Rect(bars.x, bars.y, bars.width, title_h), p.font(SMALL), FG,
           min_size=p.font(16))
    chart = Rect(bars.x, bars.y + title_h, bars.width, bars.height - title_h)
    label_h = p.px(30)
    ranks = list(o.ranks)
    if not ranks:
        p.text(t("pile.empty", lang), chart, p.font(NEAR), MUTED)
        return
    top = max(o.ranks.values())
    cols = split(chart, [1] * len(ranks), vertical=False, gap=p.px(3))
    for col, rank in zip(cols, ranks, strict=True):
        n = o.ranks[rank]
        lab = Rect(col.x, col.bottom - label_h, col.width, label_h)
        p.text(rank_label(rank, lang), lab, p.font(SMALL), FG, min_size=p.font(14))
        num = Rect(col.x, col.y, col.width, label_h)
        p.text(str(n), num, p.font(SMALL), MUTED, min_size=p.font(14))
        space = col.height - 2 * label_h
        h = int(space * n / top) if top else 0
        color = BAD if rank == "A" else (GOOD if rank == "7" else ACCENT)
        pygame.draw.rect(p.surface, color, Rect(col.x + col.width // 6, lab.top - h,
                                                col.width * 2 // 3, h))


# --- history -----------------------------------------------------------------------------------

def draw_history(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(8)
    if p.scale.portrait:
        chart_box, legend = split(area, [1.6, 1], gap=gap)
    else:
        chart_box, legend = split(area, [2.3, 1], vertical=False, gap=gap)
    p.panel(chart_box)
    rows = v.history
    if not rows:
        chart_box = not_applicable(p, chart_box, t("scr.history.none", lang))
    axis_w = p.px(56)
    axis_h = p.px(32)
    plot = Rect(chart_box.x + axis_w, chart_box.y + p.px(14), chart_box.width - axis_w - p.px(16),
                chart_box.height - axis_h - p.px(20))
    top = max([1, *(k for row in rows for k in row)])
    nice = 10 ** max(0, len(str(top)) - 1)
    top = math.ceil(top / nice) * nice
    rounds = max(v.rounds, len(rows), 1)
    # Grid lines and the kilo axis.
    for i in range(5):
        value = top * i // 4
        y = plot.bottom - plot.height * i // 4
        pygame.draw.line(p.surface, PANEL_HI, (plot.left, y), (plot.right, y), 1)
        p.text(str(value), Rect(chart_box.x, y - p.px(12), axis_w - p.px(6), p.px(24)),
               p.font(22), MUTED, align="right", role="small", min_size=p.font(14))

    def xy(r: int, kilos: int) -> tuple[int, int]:
        return (plot.left + plot.width * r // rounds, plot.bottom - int(plot.height * kilos / top))

    step = max(1, math.ceil(rounds / 12))
    for r in range(0, rounds + 1, step):
        x = xy(r, 0)[0]
        p.text(str(r), Rect(x - p.px(20), plot.bottom + p.px(4), p.px(40), axis_h - p.px(6)),
               p.font(22), MUTED, role="small", min_size=p.font(14))
    for seat, _name in enumerate(v.players):
        points = [xy(0, 0)] + [xy(i + 1, row[seat]) for i, row in enumerate(rows)]
        if len(points) > 1:
            pygame.draw.lines(p.surface, seat_color(seat), False, points, max(2, p.px(3)))
        for pt in points[1:]:
            p.seat_mark(seat, pt, max(4, p.px(7)), number=False)
    title = Rect(legend.x, legend.y, legend.width, p.px(36))
    p.text(t("scr.history.title", lang), title, p.font(NEAR), FG, align="left")
    entries = Rect(legend.x, title.bottom, legend.width, legend.height - title.height)
    cells = split(entries, [1] * len(v.players), gap=p.px(3))
    for cell, s in zip(cells, v.seats, strict=True):
        d = min(cell.height, p.px(36))
        p.seat_mark(s.seat, (cell.x + d // 2, cell.centery), int(d * 0.4))
        p.text(f"{s.name} {t('kilos', lang, kilos=s.kilos)}",
               Rect(cell.x + d + p.px(6), cell.y, cell.width - d - p.px(6), cell.height),
               p.font(NEAR), seat_color(s.seat), align="left", min_size=p.font(16))


# --- game over ---------------------------------------------------------------------------------

def draw_gameover(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(8)
    if not v.finished:
        area = not_applicable(p, area, t("scr.over.not_yet", lang, round=v.round,
                                         rounds=v.rounds))
    head_h = p.px(62)
    head = Rect(area.x, area.y, area.width, head_h)
    if v.winners:
        key = "winners" if len(v.winners) == 1 else "co_winners"
        kilos = v.standings[0].kilos
        p.text(t(key, lang, names=", ".join(v.winners), kilos=kilos), head, p.font(FAR), WARN,
               role="far", min_size=p.font(BIG) * 3 // 4)
    else:
        p.text(t("scr.over.provisional", lang), head, p.font(BIG), MUTED)
    foot_h = p.px(66) if v.finished else 0
    body = Rect(area.x, head.bottom + gap, area.width,
                area.height - head_h - gap - (foot_h + gap if foot_h else 0))
    if v.end_reason == "pile_empty":
        note = Rect(body.x, body.y, body.width, p.px(30))
        p.text(t("ended.pile_empty", lang), note, p.font(SMALL), MUTED, min_size=p.font(16))
        body = Rect(body.x, note.bottom + gap, body.width, body.height - note.height - gap)
    if p.scale.portrait:
        podium_box, rest = split(body, [1.3, 1], gap=gap)
    else:
        podium_box, rest = split(body, [1.5, 1], vertical=False, gap=gap)
    podium(p, v, podium_box, lang)
    others = v.standings[3:]
    if others:
        cells = split(rest, [1] * len(others), gap=p.px(3))
        for cell, s in zip(cells, others, strict=True):
            d = min(cell.height, p.px(34))
            p.seat_mark(s.seat, (cell.x + d // 2, cell.centery), int(d * 0.4))
            p.text(f"{s.place}. {s.name} · {t('kilos', lang, kilos=s.kilos)}",
                   Rect(cell.x + d + gap, cell.y, cell.width - d - gap, cell.height),
                   p.font(NEAR), FG, align="left", min_size=p.font(16))
    else:
        p.text(t("scr.over.thanks", lang), rest, p.font(NEAR), MUTED)
    if foot_h:
        foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
        again, new = split(foot, [1, 1], vertical=False, gap=gap)
        p.button(again, t("scr.over.again", lang), ("again",), color=GOOD,
                 hint=t("scr.key.enter", lang), size=p.font(NEAR))
        p.button(new, t("scr.over.new", lang), ("new",), hint="N", size=p.font(NEAR))


def podium(p: Painter, v: View, box: Rect, lang: str) -> None:
    top3 = list(v.standings[:3])
    order = [1, 0, 2][:len(top3)] if len(top3) == 3 else list(range(len(top3)))
    heights = {0: 1.0, 1: 0.72, 2: 0.5}
    cols = split(box, [1] * len(order), vertical=False, gap=p.px(8))
    label_h = p.px(84)
    for col, idx in zip(cols, order, strict=True):
        s = top3[idx]
        level = heights[min(s.place - 1, 2)]
        block_h = int((col.height - label_h) * level)
        block = Rect(col.x, col.bottom - block_h, col.width, block_h)
        pygame.draw.rect(p.surface, seat_color(s.seat), block,
                         border_top_left_radius=p.px(8), border_top_right_radius=p.px(8))
        p.boxes.append((Rect(block), Rect(box)))
        name_b = Rect(col.x, block.top - label_h, col.width, label_h // 2)
        kilo_b = Rect(col.x, block.top - label_h // 2, col.width, label_h // 2)
        p.text(s.name, name_b, p.font(NEAR), FG, min_size=p.font(16))
        p.text(t("kilos", lang, kilos=s.kilos), kilo_b, p.font(BIG), FG, role="near",
               min_size=p.font(18))
        mark_r = min(block.width // 5, int((block.height // 4 - 2) / 1.4), p.px(20))
        if mark_r >= 6:
            p.text(str(s.place), Rect(block.x, block.y, block.width, block.height // 2),
                   p.font(FAR), (0, 0, 0), role="far", min_size=p.font(20))
            center = (block.centerx, block.y + block.height * 3 // 4)
            pygame.draw.circle(p.surface, BG, center, int(mark_r * 1.35))
            p.seat_mark(s.seat, center, mark_r)


# --- rules -------------------------------------------------------------------------------------

def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    rules = v.rules if v is not None else None
    lines = [t("scr.rules.body", lang)]
    lines.append(t("scr.rules.house", lang))
    for name, choices in RULE_CHOICES.items():
        value = getattr(rules, name) if rules is not None else ui.setup.rules[name]
        other = choices[1] if value == choices[0] else choices[0]
        lines.append("• " + t(f"scr.rule.{name}.{value}", lang) + "  ("
                     + t("scr.rules.other", lang, other=t(f"scr.rule.{name}.{other}.short",
                                                           lang)) + ")")
    timeout = rules.slap_timeout_ms if rules is not None else ui.setup.timeout_ms
    lines.append("• " + t("scr.rule.timeout", lang, s=timeout / 1000))
    return lines


def draw_rules(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    lang = ui.lang
    gap = p.px(10)
    if p.scale.portrait:
        left, right = split(area, [1.5, 1], gap=gap)
    else:
        left, right = split(area, [1.45, 1], vertical=False, gap=gap)
    p.panel(left)
    p.paragraph("\n".join(rule_lines(v, ui)), left.inflate(-p.px(16), -p.px(12)),
                p.font(SMALL), FG, min_size=p.font(16))
    p.panel(right)
    p.paragraph(t("scr.rules.keys", lang), right.inflate(-p.px(16), -p.px(12)), p.font(SMALL),
                MUTED, min_size=p.font(16))


# --- hardware status ---------------------------------------------------------------------------

def draw_status(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    lang = ui.lang
    hw = ui.hardware
    gap = p.px(8)
    if v is not None:
        status_box, scores = split(area, [1, 1.1], gap=gap)
        seat_strip(p, v, ui, scores)
    else:
        status_box = area
    p.panel(status_box)
    inner = status_box.inflate(-p.px(16), -p.px(10))
    lines = []
    if not hw.source:
        lines.append(t("scr.hw.none", lang))
    elif hw.connected:
        lines.append(t("scr.hw.ok", lang, source=hw.source))
    else:
        lines.append(t("scr.hw.disconnected", lang, source=hw.source))
    for label in hw.stuck.values():
        lines.append(t("scr.hw.stuck", lang, button=ui.text(label)))
    for note in hw.notes[-3:]:
        lines.append(ui.text(note))
    p.paragraph("\n".join(lines), inner, p.font(NEAR), FG if not hw.trouble else WARN,
                min_size=p.font(16))


# --- setup -------------------------------------------------------------------------------------

def draw_setup(p: Painter, v: View | None, ui: Ui, area: Rect) -> None:
    lang = ui.lang
    form = ui.setup
    gap = p.px(6)
    foot_h = p.px(60)
    body = Rect(area.x, area.y, area.width, area.height - foot_h - gap)
    if v is not None:
        note = Rect(body.x, body.y, body.width, p.px(30))
        p.text(t("scr.setup.in_game", lang), note, p.font(SMALL), WARN, min_size=p.font(14))
        body = Rect(body.x, note.bottom + gap, body.width, body.height - note.height - gap)
    if p.scale.portrait:
        left, right = split(body, [1, 1.15], gap=gap)
    else:
        left, right = split(body, [0.9, 1.25], vertical=False, gap=p.px(12))
    # Players, in seating order (clockwise).
    head_h = p.px(34)
    head = Rect(left.x, left.y, left.width, head_h)
    title_b, minus_b, plus_b = split(head, [3, 1, 1], vertical=False, gap=gap)
    p.text(t("scr.setup.players", lang, n=len(form.players)), title_b, p.font(SMALL), FG,
           align="left", min_size=p.font(14))
    p.button(minus_b, "−", ("players", -1), enabled=len(form.players) > 3, size=p.font(SMALL))
    p.button(plus_b, "+", ("players", 1), enabled=len(form.players) < 10, size=p.font(SMALL))
    list_area = Rect(left.x, head.bottom + gap, left.width, left.height - head_h - gap)
    row_h = min(p.px(40), list_area.height // max(6, len(form.players)))
    rows = [Rect(list_area.x, list_area.y + i * row_h, list_area.width, row_h - max(1, p.px(2)))
            for i in range(len(form.players))]
    for i, name in enumerate(form.players):
        row = rows[i]
        d = row.height
        p.seat_mark(i, (row.x + d // 2, row.centery), int(d * 0.4))
        name_b, up_b = split(Rect(row.x + d + gap, row.y, row.width - d - gap, row.height),
                             [4, 1], vertical=False, gap=gap)
        editing = form.editing == i
        label = name + ("_" if editing else "")
        p.button(name_b, label, ("edit", i), selected=editing, size=p.font(SMALL),
                 color=ACCENT if editing else PANEL_HI)
        p.button(up_b, "^", ("seat_up", i), enabled=i > 0, size=p.font(SMALL))
    # Rounds, house rules, input.
    items: list[tuple[str, str, tuple[str, ...], tuple[str, ...] | None]] = []
    items.append((t("scr.setup.rounds", lang, n=form.rounds), t("scr.setup.rounds_help", lang),
                  ("rounds", "1"), ("rounds", "-1")))
    for name in RULE_CHOICES:
        value = form.rules[name]
        items.append((t(f"scr.rule.{name}.{value}.short", lang),
                      t(f"scr.rule.{name}.{value}", lang), ("rule", name), None))
    items.append((t("scr.setup.timeout", lang, s=form.timeout_ms / 1000),
                  t("scr.setup.timeout_help", lang), ("timeout", "1"), ("timeout", "-1")))
    items.append((t("scr.setup.input", lang, name=t(f"scr.input.{form.input}", lang)),
                  t(f"scr.input.{form.input}.help", lang), ("input",), None))
    cells = split(right, [1] * len(items), gap=max(2, p.px(3)))
    for cell, (label, help_text, action, minus) in zip(cells, items, strict=True):
        p.panel(cell, right)
        inner = cell.inflate(-p.px(8), -p.px(2))
        top_row, helper = split(inner, [1.2, 1])
        ctl_w = inner.width // 4 if minus else inner.width * 2 // 7
        ctl = Rect(top_row.right - ctl_w, top_row.y + 1, ctl_w, top_row.height - 1)
        lab = Rect(top_row.x, top_row.y, top_row.width - ctl_w - gap, top_row.height)
        p.text(label, lab, p.font(SMALL), FG, align="left", min_size=p.font(14))
        p.text(help_text, helper, p.font(22), MUTED, align="left", role="small",
               min_size=p.font(13))
        if minus:
            a, b = split(ctl, [1, 1], vertical=False, gap=gap)
            p.button(a, "−", minus, size=p.font(SMALL), parent=cell)
            p.button(b, "+", action, size=p.font(SMALL), parent=cell)
        else:
            p.button(ctl, t("scr.setup.change", lang), action, size=p.font(22), parent=cell)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    hint_b, start_b = split(foot, [1.3, 1], vertical=False, gap=gap)
    p.text(t("scr.setup.hint", lang), hint_b, p.font(22), MUTED, align="left", role="small",
           min_size=p.font(13))
    p.button(start_b, t("scr.setup.start", lang), ("start",), color=GOOD,
             hint=t("scr.key.enter", lang), size=p.font(NEAR))


# --- flush animation ---------------------------------------------------------------------------

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
        pygame.draw.circle(p.surface, ACCENT if i % 2 else (245, 245, 245), pt,
                           max(3, int(p.px(14) * (1 - phase) + 2)))
    d = v.last_draw
    who = d.player if d else ""
    band = Rect(0, cy - p.px(50), s.width, p.px(100))
    p.text(t("scr.flush", ui.lang, name=who), band.inflate(-p.px(20), 0), p.font(FAR),
           FG, role="far", min_size=p.font(BIG) // 2)


# --- dispatch ----------------------------------------------------------------------------------

DRAWERS: dict[str, Callable[[Painter, View | None, Ui, Rect], None]] = {
    "setup": draw_setup, "table": draw_table, "slap": draw_slap, "verdict": draw_verdict,
    "card": draw_card, "pile": draw_pile, "history": draw_history, "gameover": draw_gameover,
    "rules": draw_rules, "status": draw_status,
}


def draw(p: Painter, v: View | None, ui: Ui, screen: str | None = None,
         anim_phase: float | None = None) -> str:
    """Draw one whole frame; returns the screen drawn."""
    name = screen or active_screen(v, ui)
    p.surface.fill(BG)
    area = frame(p, v, ui, name)
    DRAWERS[name](p, v, ui, area)
    if anim_phase is not None and v is not None:
        draw_flush(p, v, ui, anim_phase)
    return name


__all__ = ["DRAWERS", "FLUSH_SECONDS", "RANK_ORDER", "Rank", "draw"]
