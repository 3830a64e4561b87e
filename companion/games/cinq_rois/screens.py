"""Les Cinq Rois on the table screen: the score sheet, the draw for the first dealer, the last turns
after someone goes out, the round entry (points, cards left or whole hands), the round's
arrangements card by card, and the game over.

``CinqRoisScreens`` is the game's side of the display seam (``display/game_ui.py``): a seat button
means "I go out" (then "my last turn is played"), or draws the first dealer by lot before round 1.
The half-entered round is a ``RoundEntry`` (``entry.py``) kept in ``Ui.entry``; only a complete
one becomes a ``round_end`` event.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import pygame

from companion.display import kit
from companion.display.game_ui import GameScreens, LedPlan, SetupItem
from companion.display.layout import Action, Control, Painter, draw_suit
from companion.display.lots import draw_lots_overlay as overlay
from companion.display.names import name_forms, short_name
from companion.display.screens import (
    grid,
    lines_text,
    no_game,
    not_applicable,
    rank_keys,
    rank_label,
    split,
)
from companion.display.state import SetupForm, Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    BIG,
    DISABLED,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    SMALL,
    WARN,
    Color,
    seat_color,
    text_on,
)
from companion.games.cinq_rois.entry import MODES, Mode, RoundEntry, _fr
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import RoundResult
from companion.games.cinq_rois.solver import ROUNDS, bonus_rank, cards_in_round
from companion.games.cinq_rois.view import (
    GRID_RANKS,
    GRID_SUITS,
    JOKER,
    ArrangementView,
    RoundView,
    View,
    build_view,
)
from companion.i18n import t
from companion.table.log import Undo

Rect = pygame.Rect

LOTS_SECONDS = 1.6
RED = (200, 0, 0)
BLACK = (0, 0, 0)
STAR = (0, 90, 200)
CARD_FACE = (245, 245, 245)
WILD_BAND = (240, 228, 66)


def tr(key: str, lang: str, **values: object) -> str:
    return t("cinq." + key, lang, **values)


def typo(text: str, lang: str) -> str:
    """French typography for sentences that come from the rules engine."""
    return _fr(text) if lang == "fr" else text


# --- cards -------------------------------------------------------------------------------------


def suit_color(suit: str | None) -> tuple[int, int, int]:
    if suit in ("H", "D"):
        return RED
    if suit == "*":
        return STAR
    return BLACK


def draw_star(surface: pygame.Surface, center: tuple[int, int], r: int, color: tuple[int, int, int]) -> None:
    cx, cy = center
    pts = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    pygame.draw.polygon(surface, color, pts)


def suit_mark(p: Painter, suit: str, center: tuple[int, int], r: int, color: tuple[int, int, int]) -> None:
    if suit == "*":
        draw_star(p.surface, center, r, color)
    else:
        draw_suit(p.surface, suit, center, r, color)


def split_card(card: str) -> tuple[str, str | None]:
    if card == JOKER:
        return JOKER, None
    if card[-1] in GRID_SUITS:
        return card[:-1], card[-1]
    return card, None


def card_face(p: Painter, card: str, rect: Rect, lang: str) -> None:
    """One card: its rank as the language writes it and its suit drawn; the joker says so."""
    rank, suit = split_card(card)
    h = rect.height
    if card == JOKER:
        p.text("JK", rect.inflate(-2, -2), int(h * 0.8), (120, 0, 160), role="small")
        return
    color = suit_color(suit)
    text_box = Rect(rect.x + 1, rect.y, max(1, int(rect.width * 0.6)), h)
    p.text(rank_label(rank, lang), text_box, int(h * 0.9), color, role="small", min_size=8)
    if suit:
        r = max(2, min(int(h * 0.22), int(rect.width * 0.18)))
        suit_mark(p, suit, (rect.right - r - max(1, rect.width // 12), rect.centery), r, color)


def chip(
    p: Painter,
    card: str,
    rect: Rect,
    lang: str,
    *,
    border: tuple[int, int, int] | None = None,
    stands_for: str | None = None,
) -> None:
    """A card as a small white card; a wild shows, under it, the card it stands for."""
    radius = max(2, rect.height // 8)
    pygame.draw.rect(p.surface, CARD_FACE, rect, border_radius=radius)
    if stands_for is not None:
        top_h = rect.height * 3 // 5
        top = Rect(rect.x, rect.y, rect.width, top_h)
        band = Rect(rect.x, rect.y + top_h, rect.width, rect.height - top_h)
        pygame.draw.rect(
            p.surface, WILD_BAND, band, border_bottom_left_radius=radius, border_bottom_right_radius=radius
        )
        card_face(p, card, top, lang)
        card_face(p, stands_for, band, lang)
    else:
        card_face(p, card, rect, lang)
    if border is not None:
        pygame.draw.rect(p.surface, border, rect, width=max(2, rect.height // 14), border_radius=radius)


def chip_row(
    p: Painter,
    groups: list[tuple[list[tuple[str, str | None]], tuple[int, int, int] | None]],
    box: Rect,
    lang: str,
) -> int:
    """Groups of cards side by side with a gap between groups; returns the width used."""
    count = sum(len(g) for g, _ in groups)
    if not count:
        return 0
    gaps = len(groups) - 1
    h = box.height
    w = int(h * 0.72)
    inner = max(1, h // 16)
    group_gap = max(4, h // 3)
    need = count * w + (count - len(groups)) * inner + gaps * group_gap
    if need > box.width:
        scale = box.width / need
        w = max(6, int(w * scale))
        group_gap = max(2, int(group_gap * scale))
        inner = max(0, int(inner * scale))
        h = min(h, int(w / 0.72))
    x = box.x
    y = box.y + (box.height - h) // 2
    for gi, (cards, border) in enumerate(groups):
        for ci, (card, stands) in enumerate(cards):
            rect = Rect(x, y, w, h)
            if rect.right > box.right:
                return x - box.x
            chip(p, card, rect, lang, border=border, stands_for=stands)
            x += w + (inner if ci < len(cards) - 1 else 0)
        if gi < len(groups) - 1:
            x += group_gap
    return x - box.x


def arrangement_groups(
    a: ArrangementView,
) -> list[tuple[list[tuple[str, str | None]], tuple[int, int, int] | None]]:
    groups: list[tuple[list[tuple[str, str | None]], tuple[int, int, int] | None]] = []
    for combo in a.combinations:
        groups.append(
            (
                [(c.card, c.stands_for if c.wild and c.card != c.stands_for else None) for c in combo.cards],
                GOOD,
            )
        )
    if a.left:
        groups.append(([(c, None) for c in a.left], BAD))
    return groups


# --- text helpers ------------------------------------------------------------------------------


def said(v: View, name: str | None) -> str:
    """A player's name inside a sentence: whole when short, else a short form unique at the
    table ("Anne-Sophie Ca."), so that sentences need no cutting."""
    return short_name(name, v.players) if name else ""


# --- headline and sheet ------------------------------------------------------------------------


def headline_detail(v: View, lang: str) -> str:
    """ "7 cartes, atout 7, donneur Ana, Ben commence" (the bonus rank as the language writes it:
    atout V, D, R in French; long names shortened the way a table does)."""
    return tr(
        "head.detail",
        lang,
        cards=v.cards,
        bonus=rank_label(v.bonus or "", lang),
        dealer=said(v, v.dealer),
        first=said(v, v.first_player),
    )


def headline_text(v: View, lang: str) -> str:
    """ "Donne 5 : 7 cartes, atout 7, donneur Ana, Ben commence"."""
    if v.finished:
        return typo(v.headline[0] if lang == "fr" else v.headline[1], lang)
    return tr("headline", lang, round=v.round, detail=headline_detail(v, lang))


def todo_text(v: View, ui: Ui, lang: str) -> str:
    if v.finished:
        return tr("todo.over", lang)
    entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == v.round else None
    if v.dealer_open and (entry is None or not entry.lots_skipped) and (entry is None or entry.out is None):
        return tr("todo.lots", lang)
    if entry is not None and entry.out is not None and entry.pending:
        return tr("todo.last_turns", lang, name=said(v, entry.pending[0]))
    if entry is not None and entry.out is not None:
        return tr("todo.entry", lang)
    return tr("todo.play", lang)


def _move_mark(p: Painter, move: int, box: Rect) -> None:
    """Places gained (a triangle up) or lost (one down) in the last round, in the kit's colours
    for a change of rank (``kit.ROLE``: up is first place's green, down is quiet, never red)."""
    if not move:
        return
    r = max(3, min(box.height // 3, box.width // 6))
    cx = box.right - r - 2
    cy = box.centery
    # Through ``under``, not the painter's surface (which would make the frame drawn whole).
    mark = Rect(cx - r, cy - r, 2 * r + 1, 2 * r + 1)
    if move > 0:
        pts = [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
        pygame.draw.polygon(p.under(mark), kit.ROLE["up"], pts)
    else:
        pts = [(cx, cy + r), (cx + r, cy - r), (cx - r, cy - r)]
        pygame.draw.polygon(p.under(mark), kit.ROLE["down"], pts)


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
        p.button(lots_b, tr("lots.button", lang), ("lots",), color=ACCENT, size=p.font(SMALL))
    p.button(
        entry_b,
        tr("sheet.enter", lang),
        ("nav", "entry"),
        color=GOOD,
        hint=tr("key.e", lang),
        size=p.font(SMALL),
    )


def draw_sheet(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The score sheet: rounds down, players across, every round's score, the totals, the
    places and who moved in the last round; touching a name means that player went out. On a
    portrait screen the sheet turns: a player a row (``draw_sheet_portrait``)."""
    if v is None:
        return no_game(p, ui, area)
    if p.scale.portrait:
        return draw_sheet_portrait(p, v, ui, area)
    if not _grid_fits(p, area):
        return draw_sheet_condensed(p, v, ui, area)
    gap = p.px(4)
    foot_h = p.px(50) if not v.finished else 0
    sheet = Rect(area.x, area.y, area.width, area.height - (foot_h + gap if foot_h else 0))
    # The sheet changes once a round: drawn once, then copied.
    p.layer(("cinq.sheet", v, ui.lang), sheet, lambda: _sheet(p, v, ui.lang, area, foot_h))
    if foot_h:
        _sheet_foot(p, v, ui, Rect(area.x, area.bottom - foot_h, area.width, foot_h))


def _grid_fits(p: Painter, area: Rect) -> bool:
    """Whether the whole grid (11 rounds, the totals twice a round's height) holds each round's
    score at the cap height a score needs where this screen is read: a TV does, the 7" screen
    does not."""
    return area.height / (ROUNDS + 6) >= kit.score_height(p)


def draw_sheet_condensed(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The sheet where the grid would not be read from a seat (the 7" screen): the kit's tiles
    in seating order (place, name, total in far type, places moved) with each player's last
    rounds condensed under the name, the rounds they went out in green and underlined; in the
    cell after them, the round to play framed and the entry button. Touching a tile means that
    player went out."""
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    n = len(v.players)
    cols = kit.columns(p, n + 1)
    n_rows = math.ceil((n + 1) / cols)
    cells = grid(area, n_rows * cols, cols, gap)
    info = cells[-1]
    if n % cols == 0:  # no cell left beside the tiles: the round gets a row of its own
        tiles_area = Rect(area.x, area.y, area.width, info.top - gap - area.y)
        info = Rect(area.x, info.y, area.width, info.height)
    else:
        tiles_area = area
    history = v.history
    leaders = set(v.leaders)
    rows = [dataclasses.replace(st, winner=st.who in leaders and bool(history)) for st in standings(v, lang)]
    kit.tiles(
        p,
        tiles_area,
        rows,
        v.players,
        lang,
        act=None if v.finished else (lambda st: ("out", st.seat)),
        low=lambda st: kit.recent([(str(rv.scores[st.seat]), rv.out == st.who) for rv in history]),
        cols=cols,
    )
    # The round to play, framed; under it what the scorer touches.
    pygame.draw.rect(p.under(info), ACCENT, info, width=max(1, p.px(2)))
    inner = info.inflate(-2 * p.px(3), -2 * p.px(5))
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
        p.button(lots_b, tr("lots.button", lang), ("lots",), color=ACCENT, size=p.font(SMALL))
    else:
        entry_b = foot
    p.button(
        entry_b,
        tr("sheet.enter", lang),
        ("nav", "entry"),
        color=GOOD,
        hint=tr("key.e", lang),
        size=p.font(SMALL),
    )


def _sheet(p: Painter, v: View, lang: str, area: Rect, foot_h: int) -> None:
    gap = p.px(4)
    info_h = p.px(36)
    info = Rect(area.x, area.y, area.width, info_h)
    lines_text(
        p, headline_text(v, lang), info, p.font(BIG), FG, p.font(20), kind="headline", players=v.players
    )
    body = Rect(
        area.x, info.bottom + gap, area.width, area.height - info_h - gap - (foot_h + gap if foot_h else 0)
    )
    n = len(v.players)
    label_w = max(p.px(90), body.width // (n + 2))
    col_w = (body.width - label_w) // n
    # The names' header: the seat mark beside the name when every name fits beside it at the
    # name size (in its shortest form), else above it.
    name_size = p.name_size()
    name_h = p.fonts.size("ÉÀgjpq", name_size)[1]
    forms = name_forms(v.players)
    widest = max(p.fonts.size(forms.get(w, (w,))[-1], name_size)[0] for w in v.players)
    mark_d = p.px(26)
    beside = col_w - gap - mark_d - p.px(10) >= widest
    if not beside:
        mark_d = p.px(18)
    head_h = name_h + p.px(6) if beside else name_h + mark_d + p.px(6)
    # The 11 rounds, then the totals (what the table reads from afar: twice a round's height)
    # and the places.
    row_h = int((body.height - head_h) / (ROUNDS + 2.2 + 1.2))
    total_h = int(row_h * 2.2)
    place_h = body.height - head_h - ROUNDS * row_h - total_h
    leaders = set(v.leaders)
    # Columns: the leader's column lit, the current round's row framed.
    for s, name in enumerate(v.players):
        col = Rect(body.x + label_w + s * col_w, body.y, col_w - gap, body.height)
        p.panel(col, area, PANEL_HI if name in leaders else PANEL)
        head = Rect(col.x, col.y, col.width, head_h)
        if beside:
            d = min(head.height - 2, mark_d)
            p.seat_mark(s, (head.x + p.px(4) + d // 2, head.centery), int(d * 0.42))
            name_box = Rect(head.x + d + p.px(8), head.y, head.width - d - p.px(10), head.height)
        else:
            d = mark_d
            p.seat_mark(s, (head.centerx, head.y + p.px(3) + d // 2), int(d * 0.42))
            name_box = Rect(
                head.x + p.px(3), head.y + d + p.px(3), head.width - p.px(6), head.height - d - p.px(3)
            )
        p.name(name, v.players, name_box, p.font(SMALL), FG, align="left" if beside else "center")
        if not v.finished:
            p.controls.append(Control(Rect(head), ("out", s)))
    for r in range(1, ROUNDS + 1):
        y = body.y + head_h + (r - 1) * row_h
        label = Rect(body.x, y, label_w - gap, row_h)
        current = r == v.round and not v.finished
        cards, bonus = cards_in_round(r), bonus_rank(r).value
        text = tr("sheet.row", lang, round=r, bonus=rank_label(bonus, lang), cards=cards)
        p.text(
            text,
            label.inflate(-2, 0),
            p.font(22),
            ACCENT if current else (FG if r < v.round else DISABLED),
            align="left",
            role="small",
            min_size=p.font(10),
        )
        if current:
            pygame.draw.rect(p.surface, ACCENT, Rect(body.x, y, body.width, row_h), width=max(1, p.px(2)))
        if r <= len(v.history):
            rv = v.history[r - 1]
            for s in range(n):
                cell = Rect(body.x + label_w + s * col_w, y, col_w - gap, row_h)
                out = rv.out == v.players[s]
                p.text(
                    str(rv.scores[s]),
                    cell.inflate(-p.px(6), 0),
                    p.font(26),
                    GOOD if out else FG,
                    align="right",
                    role="small",
                    min_size=p.font(10),
                    kind="score",
                )
                if out:
                    dot = max(2, row_h // 6)
                    pygame.draw.circle(p.surface, GOOD, (cell.x + dot + p.px(4), cell.centery), dot)
    y_total = body.y + head_h + ROUNDS * row_h
    y_place = y_total + total_h
    p.text(
        tr("sheet.total", lang),
        Rect(body.x, y_total, label_w - gap, total_h),
        p.font(NEAR),
        FG,
        align="left",
        min_size=p.font(10),
    )
    p.text(
        tr("sheet.place", lang),
        Rect(body.x, y_place, label_w - gap, place_h),
        p.font(22),
        MUTED,
        align="left",
        role="small",
        min_size=p.font(10),
    )
    for s in range(n):
        x = body.x + label_w + s * col_w
        total = Rect(x, y_total, col_w - gap, total_h)
        lead = v.players[s] in leaders
        pygame.draw.line(p.surface, MUTED, (total.x + 2, total.y), (total.right - 2, total.y))
        p.text(
            str(v.totals[s]),
            total.inflate(-p.px(6), -2),
            p.font(BIG),
            kit.ROLE["first"] if lead else FG,
            align="right",
            min_size=p.font(10),
            kind="score",
            who=v.players[s],
        )
        place = Rect(x, y_place, col_w - gap, place_h)
        if v.history:
            p.text(
                kit.ordinal(v.places[s], lang),
                Rect(place.x + p.px(4), place.y, place.width // 2, place.height),
                p.font(24),
                kit.ROLE["first"] if lead else MUTED,
                align="left",
                role="small",
                min_size=p.font(10),
            )
            _move_mark(p, v.moves[s], Rect(place.centerx, place.y, place.width // 2 - 2, place.height))


def draw_sheet_portrait(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The sheet turned for a tall screen: a player a row, in seating order (their place, seat,
    name and total on top, big; their 11 rounds under it), the rounds' bonus ranks on top."""
    lang = ui.lang
    gap = p.px(4)
    foot_h = p.px(96) if not v.finished else 0
    info_h = p.px(62)
    info = Rect(area.x, area.y, area.width, info_h)
    lines_text(
        p, headline_text(v, lang), info, p.font(BIG), FG, p.font(24), kind="headline", players=v.players
    )
    ranks_h = p.px(26)
    body = Rect(
        area.x, info.bottom + gap, area.width, area.height - info_h - gap - (foot_h + gap if foot_h else 0)
    )
    pad = p.px(8)
    cols = split(
        Rect(body.x + pad, body.y, body.width - 2 * pad, ranks_h),
        [1] * ROUNDS,
        vertical=False,
        gap=max(1, p.px(2)),
    )
    for r, cell in enumerate(cols, start=1):
        current = r == v.round and not v.finished
        p.text(
            rank_label(bonus_rank(r).value, lang),
            cell,
            p.font(22),
            ACCENT if current else (FG if r < v.round else DISABLED),
            role="small",
            min_size=p.font(10),
        )
        if current:
            pygame.draw.rect(p.under(cell.inflate(0, 2)), ACCENT, cell.inflate(0, 2), width=max(1, p.px(2)))
    leaders = set(v.leaders)
    rows = split(
        Rect(body.x, body.y + ranks_h + gap, body.width, body.height - ranks_h - gap),
        [1] * len(v.players),
        gap=gap,
    )
    for s, row in enumerate(rows):
        name = v.players[s]
        lead = name in leaders
        p.panel(row, area, PANEL_HI if lead else PANEL, border=kit.ROLE["first"] if lead else None)
        inner = row.inflate(-2 * pad, -p.px(4))
        top, bottom = split(inner, [1.25, 1], gap=1)
        place_b, who_b, total_b = split(top, [0.9, 4.2, 1.4], vertical=False, gap=pad)
        drawn = kit.seat_name(p, v.players, s, who_b, p.font(NEAR), FG, mark=p.px(30))
        if v.history:
            p.text(
                kit.ordinal(v.places[s], lang),
                place_b,
                drawn,
                kit.ROLE["first"] if lead else MUTED,
                align="left",
                min_size=p.font(10),
            )
            _move_mark(p, v.moves[s], place_b)
        p.text(
            str(v.totals[s]),
            total_b,
            p.font(BIG),
            kit.ROLE["first"] if lead else FG,
            align="right",
            min_size=p.font(12),
            kind="score",
            who=name,
        )
        cells = split(bottom, [1] * ROUNDS, vertical=False, gap=max(1, p.px(2)))
        for r, cell in enumerate(cells, start=1):
            if r > len(v.history):
                continue
            rv = v.history[r - 1]
            out = rv.out == name
            p.text(
                str(rv.scores[s]),
                cell,
                p.font(24),
                GOOD if out else FG,
                role="small",
                min_size=p.font(10),
                kind="score",
            )
            if out:
                w = max(1, p.px(2))
                pygame.draw.line(
                    p.under(Rect(cell.x, cell.bottom - 1 - w, cell.width, 2 * w + 2)),
                    GOOD,
                    (cell.x + 2, cell.bottom - 1),
                    (cell.right - 2, cell.bottom - 1),
                    w,
                )
        if not v.finished:
            p.controls.append(Control(Rect(row), ("out", s)))
    if foot_h:
        _sheet_foot(p, v, ui, Rect(area.x, area.bottom - foot_h, area.width, foot_h))


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Totals in seating order, for the hardware status screen: the kit's tiles."""
    if v is None:
        return
    draw_seats(p, v, ui, area)


# --- draw lots ---------------------------------------------------------------------------------


def draw_lots(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if not v.dealer_open:
        first = v.history[0].dealer if v.history else v.dealer
        why = tr("lots.done" if v.dealer_drawn else "lots.given", lang, name=said(v, first))
        area = not_applicable(p, area, why)
        return draw_seats(p, v, ui, area, highlight=v.players.index(first) if first in v.players else None)
    kit.lots(
        p,
        area,
        v.players,
        tr("lots.title", lang),
        (tr("lots.button", lang), tr("lots.hint", lang)),
        lambda body: draw_seats(p, v, ui, body, action="pick_dealer"),
        skip=(tr("lots.skip", lang, name=said(v, v.players[0])), t("scr.key.esc", lang)),
    )


def standings(v: View, lang: str, highlight: int | None = None) -> list[kit.Standing]:
    """The players in seating order as the kit's tiles show them: place, total in far type,
    the places gained or lost in the last round."""
    return [
        kit.Standing(
            s, name, v.places[s], v.totals[s], tr("pts", lang), moved=v.moves[s], acting=s == highlight
        )
        for s, name in enumerate(v.players)
    ]


def draw_seats(
    p: Painter, v: View, ui: Ui, area: Rect, highlight: int | None = None, action: str | None = None
) -> None:
    """The kit's tiles in seating order; ``highlight`` (the dealer) framed in its seat colour;
    ``action``: touching a tile picks that seat."""
    kit.tiles(
        p,
        area,
        standings(v, ui.lang, highlight),
        v.players,
        ui.lang,
        act=(lambda s: (action, s.seat)) if action is not None else None,
    )


def draw_lots_overlay(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """The first dealer is drawn: a light runs round the table and slows down on them."""
    dealer = v.dealer_drawn
    if dealer is None:
        return
    overlay(
        p,
        v.players,
        v.players.index(dealer),
        phase,
        tr("lots.drawing", ui.lang),
        tr("lots.result", ui.lang, name=said(v, dealer)),
    )


# --- last turns --------------------------------------------------------------------------------


def draw_lastturn(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == v.round else None
    if v.finished or entry is None or entry.out is None:
        area = not_applicable(p, area, tr("last.none", lang) if not v.finished else tr("todo.over", lang))
        return draw_seats(p, v, ui, area)
    gap = p.px(8)
    portrait = p.scale.portrait
    n = len(v.players)
    now = entry.pending[0] if entry.pending else None
    # Whose last turn it is now, in the biggest type and their seat colour; who went out and
    # what the others do, under it.
    if now is not None:
        banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
        kit.turn_banner(p, banner, v.seat_of(now), now, v.players, lang)
        top = banner.bottom
    else:
        top = area.y
    head = Rect(area.x, top, area.width, p.line_height(kit.read_size(p)))
    lines_text(
        p,
        tr("last.title", lang, name=said(v, entry.out)),
        head,
        kit.read_size(p),
        FG,
        kit.read_size(p),
        players=v.players,
    )
    head_h = head.bottom - area.y
    foot_h = p.px(66)
    # What everyone does now, if the list keeps a name's line a row without it.
    sub_h = p.px(34) if not portrait else p.px(56)
    need = (n - 1) * (p.line_height(p.name_size()) + p.px(8))
    if area.bottom - foot_h - head.bottom - sub_h - 2 * gap < need:
        sub_h = 0
    sub = Rect(area.x, head.bottom, area.width, sub_h)
    if sub_h:
        lines_text(p, tr("last.sub", lang), sub, p.font(SMALL), MUTED, p.font(16), role="small")
    body = Rect(area.x, sub.bottom + gap, area.width, area.height - head_h - sub.height - foot_h - 2 * gap)
    order = [v.players[(v.seat_of(entry.out) + i) % n] for i in range(1, n)]
    cells = split(body, [1] * len(order), gap=max(2, p.px(4)))
    for i, (name, cell) in enumerate(zip(order, cells, strict=True)):
        s = v.seat_of(name)
        played = name not in entry.pending
        current = name == now
        p.panel(cell, area, PANEL_HI if current else PANEL, border=seat_color(s) if current else None)
        inner = cell.inflate(-p.px(10), -max(2, p.px(3)))
        num_b, name_b, state_b = split(inner, [0.35, 3.2, 1.1], vertical=False, gap=p.px(6))
        color = MUTED if played else FG
        drawn = kit.seat_name(p, v.players, s, name_b, p.font(NEAR), color, mark=p.px(36))
        p.text(f"{i + 1}.", num_b, drawn, color, align="left", min_size=p.font(10))
        state = tr("last.played" if played else ("last.now" if current else "last.waiting"), lang)
        p.text(
            state,
            state_b,
            min(p.font(SMALL), drawn),
            GOOD if played else (FG if current else MUTED),
            align="right",
            min_size=p.font(10),
        )
        if not played:
            p.controls.append(Control(Rect(cell), ("turn", s)))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    back_b, go_b = split(foot, [1, 1.5], vertical=False, gap=gap)
    p.button(
        back_b, tr("last.cancel", lang), ("cancel_out",), hint=t("scr.key.esc", lang), size=p.font(SMALL)
    )
    p.button(
        go_b,
        tr("last.go", lang),
        ("to_entry",),
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(SMALL),
    )


# --- round entry -------------------------------------------------------------------------------


def status_of(entry: RoundEntry, name: str, lang: str) -> str:
    if entry.mode != "hands" and name == entry.out:
        return tr("entry.out_zero", lang)
    if entry.mode == "points":
        typed = entry.points.get(name)
        return typed if typed is not None else "—"
    count = len(entry.entered(name))
    if entry.mode == "hands":
        return f"{count}/{entry.size}"
    if name in entry.visited:
        return tr("entry.cards_n", lang, n=count)
    return "—"


def entry_row(p: Painter, v: View, entry: RoundEntry, s: int, row: Rect, lang: str) -> None:
    """One player's line of the entry: their name (touch it to enter theirs) and what is
    entered for them, then the small button that says who went out."""
    name = v.players[s]
    active = s == entry.active
    fill = ACCENT if active else (GOOD if entry.complete(name) and entry.out else PANEL_HI)
    status = status_of(entry, name, lang)
    if entry.mode != "hands" and name == entry.out:
        status = "0"  # "0 (went out)" holds no far type in the row: its out button says why
    # The same on most frames (one row changes a key): drawn once, then copied.
    key = ("cinq.entry_row", s, v.players, active, fill, status, entry.out == name, entry.mode, lang)
    p.layer(key, row, lambda: _entry_row(p, v.players, s, row, lang, active, fill, status, entry))


def _entry_row(
    p: Painter,
    players: tuple[str, ...],
    s: int,
    row: Rect,
    lang: str,
    active: bool,
    fill: Color,
    status: str,
    entry: RoundEntry,
) -> None:
    name = players[s]
    gap = max(2, p.px(3))
    name_b, out_b = split(row, [3.2, 1], vertical=False, gap=gap)
    p.panel(name_b, None, fill, border=FG if active else None)
    ink = text_on(fill)
    inner = name_b.inflate(-p.px(8), -max(2, p.px(2)))
    # Read from the seats like any name and score (docs/screen.md, the 7" rules): the name at
    # 4 mm, typed points in far type; a word ("—", "0, out") at the least a seat reads.
    size = p.far_name_size()
    figure = status.isdigit()
    # A word no bigger than the name on its tile (a TV's read type is bigger than its names).
    status_size = kit.far_size(p) if figure else min(kit.read_size(p), size)
    status_w = min(inner.width // 2, p.fonts.size(status, status_size)[0] + p.px(4))
    who_b = Rect(inner.x, inner.y, inner.width - status_w - p.px(4), inner.height)
    status_b = Rect(who_b.right + p.px(4), inner.y, status_w, inner.height)
    p.name(name, players, who_b, size, ink, min_size=size)
    p.text(
        status,
        status_b,
        status_size,
        ink,
        align="right",
        min_size=status_size,
        role="far" if figure else "near",
        kind="score" if figure and entry.mode == "points" else "text",
    )
    p.controls.append(Control(Rect(name_b), ("pick", s)))
    is_out = entry.out == name
    p.button(
        out_b,
        tr("entry.out_tag", lang),
        ("out", s),
        selected=is_out,
        color=WARN if is_out else PANEL,
        size=p.font(18),
    )


def draw_entry(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if v.finished:
        area = not_applicable(p, area, tr("entry.over", lang))
        return draw_seats(p, v, ui, area)
    entry = entry_for(ui, v)
    gap = p.px(6)
    portrait = p.scale.portrait
    tabs_h = p.px(48)  # touched: 9 mm on the 7" screen
    tabs = Rect(area.x, area.y, area.width, tabs_h)
    for mode, cell in zip(MODES, split(tabs, [1, 1, 1], vertical=False, gap=gap), strict=True):
        p.button(
            cell,
            tr(f"mode.{mode}", lang),
            ("mode", mode),
            selected=entry.mode == mode,
            color=ACCENT if entry.mode == mode else PANEL_HI,
            size=p.font(SMALL),
        )
    rest = Rect(area.x, tabs.bottom + gap, area.width, area.height - tabs_h - gap)
    if portrait:
        players_box, pad_box = split(rest, [0.8, 1.6], gap=gap)
    else:
        players_box, pad_box = split(rest, [1.15, 1.6], vertical=False, gap=gap)
    # Players: touch a name to enter theirs; the small button says who went out.
    n = len(v.players)
    rows = split(players_box, [1] * n, gap=max(1, p.px(3)))
    for s, row in enumerate(rows):
        entry_row(p, v, entry, s, row, lang)
    foot_h = p.px(52)
    work = Rect(pad_box.x, pad_box.y, pad_box.width, pad_box.height - foot_h - gap)
    foot = Rect(pad_box.x, pad_box.bottom - foot_h, pad_box.width, foot_h)
    back_b, ok_b = split(foot, [1, 1.6], vertical=False, gap=gap)
    p.button(back_b, tr("entry.back", lang), ("back",), hint=tr("key.backspace", lang), size=p.font(22))
    ready = entry.event()[0] is not None
    p.button(
        ok_b,
        tr("entry.confirm", lang) if ready else tr("entry.next", lang),
        ("enter",),
        color=GOOD if ready else PANEL_HI,
        hint=t("scr.key.enter", lang),
        size=p.font(SMALL),
    )
    # What to enter, read by the table as well: two lines at the least a seat reads.
    title_h = max(p.px(36) if not portrait else p.px(52), 2 * p.line_height(kit.read_size(p)))
    title = Rect(work.x, work.y, work.width, title_h)
    name = said(v, entry.name)
    if entry.out is None:
        lines_text(
            p, tr("entry.who_out", lang), title, kit.read_size(p), WARN, kit.read_size(p), align="left"
        )
    elif entry.mode == "points":
        text = (
            tr("entry.points_of", lang, name=name)
            if entry.name != entry.out
            else tr("entry.out_zero_long", lang, name=name)
        )
        lines_text(p, text, title, kit.read_size(p), FG, kit.read_size(p), align="left", players=v.players)
    else:
        key = "entry.hand_of" if entry.mode == "hands" else "entry.left_of"
        count = len(entry.entered(entry.name))
        lines_text(
            p,
            tr(key, lang, name=name, n=count, size=entry.size),
            title,
            kit.read_size(p),
            WARN if entry.mode == "hands" and count == entry.size else FG,
            kit.read_size(p),
            align="left",
            players=v.players,
        )
    pad = Rect(work.x, title.bottom + gap, work.width, work.height - title_h - gap)
    p.arm.append(Rect(pad))  # the keypad or the card grid: the scorer's, at arm's length
    if entry.mode == "points":
        draw_points_pad(p, entry, pad, lang)
    else:
        cards_h = max(p.px(34), pad.height // 6)
        cards_box = Rect(pad.x, pad.y, pad.width, cards_h)
        held = entry.entered(entry.name)
        if held:
            chip_row(p, [([(c, None) for c in held], None)], cards_box, lang)
        else:
            lines_text(
                p,
                tr("entry.no_cards", lang) if entry.mode == "left" else tr("entry.type_cards", lang),
                cards_box,
                p.font(22),
                MUTED,
                p.font(14),
                role="small",
                align="left",
            )
        if entry.rank is not None:
            p.text(
                tr("entry.rank_typed", lang, rank=rank_label(entry.rank, lang)),
                Rect(
                    cards_box.right - cards_box.width // 3,
                    cards_box.y,
                    cards_box.width // 3,
                    cards_box.height,
                ),
                p.font(22),
                WARN,
                align="right",
                role="small",
                min_size=p.font(11),
            )
        draw_card_grid(
            p, entry, Rect(pad.x, cards_box.bottom + gap, pad.width, pad.height - cards_h - gap), lang
        )


def draw_points_pad(p: Painter, entry: RoundEntry, box: Rect, lang: str) -> None:
    keys = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "", "0", ""]
    cells = grid(box, 12, 3, p.px(5))
    for cell, d in zip(cells, keys, strict=True):
        if d:
            p.button(cell, d, ("digit", d), size=p.font(NEAR))


def draw_card_grid(p: Painter, entry: RoundEntry, box: Rect, lang: str) -> None:
    """One tap adds a card: suits down, ranks across, the joker on the right. A card the two
    decks cannot give any more is greyed and says why when touched."""
    cols = len(GRID_RANKS) + 1
    rows = len(GRID_SUITS)
    gap = max(1, p.px(3))
    row_boxes = split(box, [1] * rows, gap=gap)
    for r, suit in enumerate(GRID_SUITS):
        cells = split(row_boxes[r], [1] * cols, vertical=False, gap=gap)
        for c, rank in enumerate(GRID_RANKS):
            card = rank + suit
            cell = cells[c]
            reason = entry.card_reason(card)
            have = len(entry.holders(card))
            grid_cell(p, cell, card, lang, reason is None, have)
            p.controls.append(
                Control(Rect(cell), ("card", card) if reason is None else ("why_card", card), True)
            )
        if r == 0:
            joker_box = Rect(
                cells[-1].x, row_boxes[0].y, cells[-1].width, row_boxes[-1].bottom - row_boxes[0].y
            )
    reason = entry.card_reason(JOKER)
    enabled = reason is None
    pygame.draw.rect(p.surface, CARD_FACE if enabled else PANEL, joker_box, border_radius=p.px(6))
    label_h = joker_box.height // 3
    p.text(
        "JK",
        Rect(joker_box.x, joker_box.centery - label_h // 2, joker_box.width, label_h),
        p.font(26),
        (120, 0, 160) if enabled else DISABLED,
        min_size=8,
    )
    count = entry.jokers()
    if count:
        p.text(
            f"{count}/6",
            Rect(joker_box.x, joker_box.bottom - label_h, joker_box.width, label_h),
            p.font(18),
            BLACK if enabled else DISABLED,
            role="small",
            min_size=8,
        )
    p.controls.append(Control(Rect(joker_box), ("card", JOKER) if enabled else ("why_card", JOKER), True))


def grid_cell(p: Painter, cell: Rect, card: str, lang: str, enabled: bool, have: int) -> None:
    rank, suit = split_card(card)
    radius = max(2, cell.height // 6)
    pygame.draw.rect(p.surface, CARD_FACE if enabled else PANEL, cell, border_radius=radius)
    color = suit_color(suit) if enabled else DISABLED
    text_box = Rect(cell.x + 1, cell.y, max(1, cell.width * 3 // 5), cell.height)
    p.text(rank_label(rank, lang), text_box, p.font(24), color, role="small", min_size=8)
    r = max(2, min(cell.height // 4, cell.width // 6))
    if suit:
        suit_mark(p, suit, (cell.right - r - 2, cell.centery), r, color)
    if have:
        dot = max(2, cell.height // 8)
        for i in range(have):
            pygame.draw.circle(p.surface, GOOD, (cell.x + dot + 1 + i * (2 * dot + 1), cell.y + dot + 1), dot)


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
        WARN,
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
            ("continue",),
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
            ("continue",),
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


def flat_chips(
    p: Painter,
    groups: list[tuple[list[tuple[str, bool]], tuple[int, int, int] | None]],  # (card, wild)
    box: Rect,
    lang: str,
    size: int,
) -> None:
    """Cards as chips one line high whose ranks keep ``size`` (read type), each as wide as its
    rank ("10" is wider than "7"), each group framed; a wild on the wilds' yellow as the card
    it stands for."""
    h = box.height
    r = max(3, h // 8)
    pad = max(2, p.px(3))
    group_gap = max(3, p.px(5))

    def width(card: str) -> int:
        rank, suit = split_card(card)
        return (
            p.fonts.size(rank_label(rank, lang) if rank != JOKER else "JK", size)[0]
            + (2 * r + pad if suit else 0)
            + 2 * pad
        )

    x = box.x
    radius = max(2, h // 8)
    for cards, border in groups:
        for card, is_wild in cards:
            w = width(card)
            if x + w > box.right:
                return  # never drawn outside its row: the rows are sized for 13 cards
            rect = Rect(x, box.y, w, h)
            pygame.draw.rect(p.surface, WILD_BAND if is_wild else CARD_FACE, rect, border_radius=radius)
            rank, suit = split_card(card)
            color = suit_color(suit) if card != JOKER else (120, 0, 160)
            label = rank_label(rank, lang) if card != JOKER else "JK"
            text_w = w - (2 * r + pad if suit else 0) - pad
            p.text(label, Rect(x + pad, box.y, text_w, h), size, color, min_size=size)
            if suit:
                suit_mark(p, suit, (rect.right - pad - r, rect.centery), r, color)
            if border is not None:
                pygame.draw.rect(p.surface, border, rect, width=max(2, h // 14), border_radius=radius)
            x += w
        x += group_gap


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


def draw_gameover(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The kit's game over: all who share the lowest total first and framed, each total in far
    type with the places gained or lost in the last round."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    best = v.totals[v.seat_of(v.winners[0])] if v.winners else 0
    names = ", ".join(said(v, w) for w in v.winners)
    title = (
        tr("over.winner", lang, names=names, n=best)
        if len(v.winners) == 1
        else tr("over.co_winners", lang, names=names, n=best)
    )
    rows = [
        kit.Standing(
            s,
            v.players[s],
            v.places[s],
            v.totals[s],
            tr("pts", lang),
            moved=v.moves[s],
            winner=v.places[s] == 1,
        )
        for s in v.order
    ]
    kit.game_over(
        p,
        area,
        rows,
        v.players,
        lang,
        finished=v.finished,
        title=title,
        not_yet=tr("over.not_yet", lang, round=v.round),
    )


# --- rules -------------------------------------------------------------------------------------


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    lines = [tr("rules.body", lang), tr("rules.values", lang), tr("rules.wilds", lang)]
    lines.append(tr("rules.bonus_table", lang))
    if v is not None and not v.finished and v.bonus is not None:
        lines.append(tr("rules.now", lang, cards=v.cards, bonus=rank_label(v.bonus, lang)))
    lines.append(tr("rules.out", lang))
    dealer = v.dealer if v is not None else None
    if v is not None and v.dealer_open:
        lines.append(tr("rules.dealer_lots", lang))
    elif dealer:
        lines.append(tr("rules.dealer", lang, name=dealer))
    return lines


# --- the half-entered round --------------------------------------------------------------------


def entry_for(ui: Ui, v: View) -> RoundEntry:
    """The entry of the round to play, made fresh when the round changed (the mode is kept)."""
    old = ui.entry
    if isinstance(old, RoundEntry) and old.round == v.round and old.players == v.players:
        return old
    mode: Mode = old.mode if isinstance(old, RoundEntry) else "points"
    entry = RoundEntry(v.round, v.players, cards_in_round(min(v.round, ROUNDS)), mode=mode)
    if isinstance(old, RoundEntry) and old.round == v.round:
        entry.lots_skipped = old.lots_skipped
    ui.entry = entry
    return entry


def entry_from_result(r: RoundResult, players: tuple[str, ...], old_mode: Mode) -> RoundEntry:
    """An undone round back on the entry screen, as it was entered, to be corrected."""
    entry = RoundEntry(r.round, players, cards_in_round(r.round), mode=r.entry or old_mode)
    entry.out = r.out
    if r.entry == "points":
        entry.points = {p: str(r.scores[p]) for p in players if p != r.out}
    elif r.entry == "left" and r.left is not None:
        entry.cards = {p: [str(c) for c in r.left[p]] for p in players if p != r.out}
        entry.visited = {p for p in players if p != r.out}
    elif r.arrangements is not None:
        entry.cards = {
            p: [str(pl.card) for c in a.combinations for pl in c.cards] + [str(c) for c in a.left]
            for p, a in r.arrangements.items()
        }
    entry.active = entry.players.index(entry.name)
    return entry


# --- keys --------------------------------------------------------------------------------------

RANK_KEYS: dict[int, str] = rank_keys(3)  # no aces and no 2s in Les Cinq Rois
# After a rank, the next key is its suit: the table-log letters, F1-F5, E for étoile (star).
SUIT_KEYS: dict[int, str] = {
    pygame.K_s: "S",
    pygame.K_h: "H",
    pygame.K_d: "D",
    pygame.K_c: "C",
    pygame.K_e: "*",
    pygame.K_ASTERISK: "*",
    pygame.K_KP_MULTIPLY: "*",
    pygame.K_F1: "S",
    pygame.K_F2: "H",
    pygame.K_F3: "D",
    pygame.K_F4: "C",
    pygame.K_F5: "*",
}
JOKER_KEYS = (pygame.K_x, pygame.K_F6)
DIGIT_KEYS: dict[int, str] = {
    **{getattr(pygame, f"K_{d}"): str(d) for d in range(10)},
    **{getattr(pygame, f"K_KP{d}"): str(d) for d in range(10)},
}
SEAT_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d - 1 for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d - 1 for d in range(1, 10)},
}
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
BUTTON_SCREENS = ("sheet", "lots", "lastturn", "round", "gameover", "rules", "status")


class CinqRoisScreens(GameScreens):
    game = "cinq-rois"
    title = "Les Cinq Rois"
    screens = ("sheet", "lots", "lastturn", "entry", "round", "gameover")
    nav = (("sheet", "T"), ("entry", "E"), ("round", "D"))
    anim_seconds = LOTS_SECONDS

    def __init__(self) -> None:
        # The seats still owed a last turn, for the LEDs: the engine does not know them (nothing
        # is journaled before the round's result), so the screens tell the LEDs (engine, seats).
        self._lit: tuple[Any, tuple[int, ...]] = (None, ())

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        if view.finished:
            return "gameover"
        if ui.show_result:
            return "round"
        entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == view.round else None
        if entry is not None and entry.out is not None:
            return "lastturn" if entry.pending else "entry"
        if view.dealer_open and not (entry is not None and entry.lots_skipped):
            return "lots"
        return "sheet"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        where = (
            tr("head.over", lang)
            if view.finished
            else tr("head.round", lang, round=view.round, rounds=view.rounds)
        )
        if view.finished:
            return where, tr("head.played", lang)
        # Short enough for the portrait screen's top bar (the dealer in the short form a
        # sentence uses; who starts is the next seat): the sheet has the whole sentence.
        return where, tr(
            "head.short", lang, bonus=rank_label(view.bonus or "", lang), dealer=said(view, view.dealer)
        )

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        where, todo = self.headline(view, ui.lang)
        entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == view.round else None
        if view.dealer_open and not (entry is not None and entry.lots_skipped):
            # The first dealer is still to be drawn (the first seat deals only if the table
            # skips the draw).
            todo = tr("head.lots", ui.lang, bonus=rank_label(view.bonus or "", ui.lang))
        return where, todo

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        draw_lots_overlay(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def _entry(self, app: Any) -> RoundEntry:
        return entry_for(app.ui, app.view)

    def _show_leds(self, app: Any) -> None:
        game = app.game
        if game is None:
            return
        entry = app.ui.entry
        seats: tuple[int, ...] = ()
        if isinstance(entry, RoundEntry) and entry.round == game.round and entry.out:
            seats = tuple(game.players.index(n) for n in entry.pending)
        self._lit = (game, seats)
        app.buttons.show(game, self)

    def draw_lots(self, app: Any) -> None:
        """A fair draw of the first dealer, from the table's seed: a resumed table draws the
        same seat."""
        game = app.game
        if game is None or not game.dealer_open:
            return
        rng = random.Random(f"{app.seed}:cinq-rois:dealer")
        app.submit(Dealer(player=game.players[rng.randrange(len(game.players))]))

    def press(self, app: Any, seat: int, t_us: int, res_us: int | None = None) -> None:
        game = app.game
        if game is None or game.finished or not 0 <= seat < len(game.players):
            return
        ui: Ui = app.ui
        entry = self._entry(app)
        if game.dealer_open and not entry.lots_skipped and entry.out is None:
            self.draw_lots(app)
            return
        if entry.out is None:
            entry.go_out(seat)
            ui.screen = None
            ui.show_result = False
            app.sounds.play("slap")
        elif entry.pending:
            if entry.turn_done(seat) and not entry.pending:
                ui.screen = None
        else:
            return
        app.dirty = True
        self._show_leds(app)

    def keys_are_buttons(self, app: Any, screen: str) -> bool:
        return screen in BUTTON_SCREENS

    def after(self, app: Any, event: Any, before: View | None) -> None:
        ui: Ui = app.ui
        v: View = app.view
        if isinstance(event, Dealer):
            ui.anim_start = app.now()
            ui.screen = None
        elif isinstance(event, RoundEnd):
            old = ui.entry
            ui.entry = None
            entry = entry_for(ui, v)
            if isinstance(old, RoundEntry):
                entry.set_mode(old.mode)  # the table keeps its way of entering rounds
            last = v.last
            ui.show_result = last is not None and last.entry != "points" and not v.finished
            ui.screen = None
        elif isinstance(event, Undo):
            undone = app.game.last_undone
            mode: Mode = ui.entry.mode if isinstance(ui.entry, RoundEntry) else "points"
            if isinstance(undone, RoundResult):
                ui.entry = entry_from_result(undone, v.players, mode)
            else:
                ui.entry = None
            ui.show_result = False
            ui.screen = None
        self._show_leds(app)

    def undone(self, engine: Any, lang: str) -> str | None:
        last = engine.last_undone
        if isinstance(last, RoundResult):
            return tr("undone.round", lang, round=last.round, name=short_name(last.out, engine.players))
        if isinstance(last, Dealer):
            return tr("undone.dealer", lang, name=short_name(last.player, engine.players))
        return None

    def simulate(self, app: Any, sim: Any) -> None:
        """Simulated players: one presses to draw the first dealer, then each round is really
        played out (``sim.play_round``, seeded by the table's seed and the round): whoever combines
        first presses "I go out", the others press as their last turns are played, and the entry
        is filled with everyone's hands for the table to confirm."""
        from companion.games.cinq_rois.sim import play_round
        from companion.inputs.base import InputEvent
        from companion.inputs.sim import SIM_CLOCK

        game = app.game
        if game is None or game.finished or app.ui.show_result:
            return  # the table is still reading the last round: "continue" calls us again
        t_ns = [int(app.now() * 1e9)]

        def press(seat: int) -> None:
            for edge in ("press", "release"):
                t_ns[0] += 120_000_000
                app.inbox.put(InputEvent("seat", seat, edge, t_ns[0], SIM_CLOCK, "sim"))

        entry = self._entry(app)
        if game.dealer_open and not entry.lots_skipped:
            if not entry.sim_lots:  # one press draws the lots; a second would be "I go out"
                entry.sim_lots = True
                press(0)
            return
        if entry.sim_played or entry.out is not None:
            return
        entry.sim_played = True
        rng = random.Random(f"{app.seed}:cinq-rois:round:{game.round}")
        played = play_round(game.players, game.round, game.dealer, rng)
        entry.fill_hands({p: [str(c) for c in h] for p, h in played.hands.items()})
        seat = game.players.index(played.out)
        press(seat)
        n = len(game.players)
        for i in range(1, n):
            press((seat + i) % n)

    def do(self, app: Any, action: Action) -> bool:
        kind = action[0]
        ui: Ui = app.ui
        v: View | None = app.view
        if v is None:
            return False
        entry = entry_for(ui, v)
        if kind == "lots":
            entry.lots_skipped = False
            self.draw_lots(app)
        elif kind == "skip_lots":
            entry.lots_skipped = True
            ui.screen = None
        elif kind == "pick_dealer":
            if v.dealer_open:
                app.submit(Dealer(player=v.players[int(str(action[1]))]))
        elif kind == "out":
            seat = int(str(action[1]))
            on_entry = app.last_screen == "entry"
            if entry.out == v.players[seat]:
                entry.out = None
                entry.pending = []
            else:
                entry.go_out(seat)
                if on_entry:
                    entry.skip_turns()  # chosen while entering: the last turns are played
            ui.show_result = False
            if not on_entry:
                ui.screen = None
            self._show_leds(app)
        elif kind == "turn":
            entry.turn_done(int(str(action[1])))
            if not entry.pending:
                ui.screen = None
            self._show_leds(app)
        elif kind == "to_entry":
            entry.skip_turns()
            ui.screen = None
            self._show_leds(app)
        elif kind == "cancel_out":
            entry.out = None
            entry.pending = []
            ui.screen = None
            self._show_leds(app)
        elif kind == "mode":
            entry.set_mode(action[1])  # type: ignore[arg-type]
        elif kind == "pick":
            entry.select(int(str(action[1])))
        elif kind == "digit":
            self._refuse(ui, entry.digit(str(action[1])))
        elif kind == "card":
            self._refuse(ui, entry.add(str(action[1])))
        elif kind == "why_card":
            reason = entry.card_reason(str(action[1]))
            if reason is not None:
                ui.say(*reason)
        elif kind == "back":
            entry.back()
        elif kind == "enter":
            self._enter(app, entry)
        elif kind == "continue":
            ui.show_result = False
            ui.screen = None
            app.maybe_simulate()
        else:
            return False
        return True

    @staticmethod
    def _refuse(ui: Ui, reason: tuple[str, str] | None) -> None:
        if reason is not None:
            ui.say(*reason)

    def _enter(self, app: Any, entry: RoundEntry) -> None:
        """Enter: the next player still to enter, else the round goes to the table."""
        ui: Ui = app.ui
        if entry.out is None:
            self._refuse(ui, entry.event()[1])
            return
        if entry.mode != "hands" and not entry.complete(entry.name) and entry.next_player():
            return
        if entry.mode == "left" and entry.takes_input(entry.name):
            entry.visited.add(entry.name)
        if entry.mode == "hands" and not entry.complete(entry.name) and entry.entered(entry.name):
            ui.say(*entry.event()[1] or ("", ""))
            return
        event, reason = entry.event()
        if event is None:
            if not entry.next_player():
                self._refuse(ui, reason)
            return
        if app.submit(event):
            return
        # Refused by the rules (a hand that does not combine...): the message is the engine's.
        if ui.message is not None and ui.lang == "fr":
            ui.message = (typo(ui.message[0], "fr"), ui.message[1])

    def confirm(self, app: Any, screen: str) -> Action | None:
        v: View | None = app.view
        if v is None or v.finished:
            return None
        if screen == "lots":
            return ("lots",) if v.dealer_open else None
        if screen == "lastturn":
            return ("to_entry",)
        if screen == "entry":
            return ("enter",)
        if screen == "round" and app.ui.show_result:
            return ("continue",)
        if screen == "sheet":
            return ("nav", "entry")
        return None

    def cancel(self, app: Any, screen: str) -> bool:
        ui: Ui = app.ui
        v: View | None = app.view
        if v is None:
            return False
        entry = entry_for(ui, v)
        if screen == "lots" and v.dealer_open:
            return self.do(app, ("skip_lots",))
        if screen == "lastturn" and entry.out is not None:
            return self.do(app, ("cancel_out",))
        if screen == "entry" and entry.rank is not None:
            entry.rank = None
            return True
        if screen == "entry":
            ui.screen = "sheet"
            return True
        if screen == "round" and ui.show_result:
            return self.do(app, ("continue",))
        return False

    def key(self, app: Any, key: int, mod: int, screen: str) -> bool:
        ui: Ui = app.ui
        v: View | None = app.view
        if v is None or screen != "entry" or v.finished:
            return False
        entry = entry_for(ui, v)
        ui.message = None
        app.dirty = True
        if key == pygame.K_BACKSPACE:
            entry.back()  # never an undo here: the table is typing
        elif key == pygame.K_LEFT or key == pygame.K_RIGHT:
            step = 1 if key == pygame.K_RIGHT else -1
            entry.set_mode(MODES[(MODES.index(entry.mode) + step) % len(MODES)])
        elif key in (pygame.K_UP, pygame.K_DOWN):
            step = 1 if key == pygame.K_DOWN else -1
            entry.select((entry.active + step) % len(v.players))
        elif mod & pygame.KMOD_CTRL and key in SEAT_KEYS:
            if SEAT_KEYS[key] < len(v.players):
                self.do(app, ("out", SEAT_KEYS[key]))
            return True
        elif entry.out is None and key in SEAT_KEYS:
            if SEAT_KEYS[key] < len(v.players):
                entry.go_out(SEAT_KEYS[key])
                entry.skip_turns()
        elif entry.mode == "points":
            if key in DIGIT_KEYS:
                self._refuse(ui, entry.digit(DIGIT_KEYS[key]))
            elif key in MINUS_KEYS:
                self._refuse(ui, entry.digit("-"))
            else:
                return False
        else:
            return self._card_key(app, entry, key)
        return True

    def _card_key(self, app: Any, entry: RoundEntry, key: int) -> bool:
        """Rank then suit, as the cards are written: 7 H, 1 0 S, J K (the joker), Q D."""
        ui: Ui = app.ui
        if entry.rank is not None:
            if entry.rank == "J" and key == pygame.K_k:
                self._refuse(ui, entry.add(JOKER))
                return True
            if entry.rank == "1" and key in (pygame.K_0, pygame.K_KP0):
                entry.rank = "10"
                return True
            if key in SUIT_KEYS:
                self._refuse(ui, entry.add(entry.rank + SUIT_KEYS[key]))
                return True
        if key in JOKER_KEYS:
            self._refuse(ui, entry.add(JOKER))
            return True
        if key in SUIT_KEYS and key not in RANK_KEYS:
            ui.say(t("scr.msg.pick_rank", "fr"), t("scr.msg.pick_rank", "en"))
            return True
        if key in (pygame.K_1, pygame.K_KP1):
            entry.rank = "1"  # the start of 10
            return True
        if key in (pygame.K_2, pygame.K_KP2, pygame.K_a):
            rank = "A" if key == pygame.K_a else "2"
            self._refuse(ui, entry.card_reason(rank + "S"))  # names why there is none
            entry.rank = None
            return True
        if key in RANK_KEYS:
            entry.rank = RANK_KEYS[key]
            return True
        # A stray key after a rank is swallowed (the rank waits for its suit); otherwise the
        # generic keys act: Enter, Esc, Tab, U (undo), L, M, T (the sheet).
        return entry.rank is not None and key not in (
            pygame.K_TAB,
            pygame.K_ESCAPE,
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
        )

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return not engine.finished

    def leds(self, engine: Any) -> LedPlan:
        """Lit: the players who still have their last turn to play."""
        if engine.finished:
            return LedPlan("off")
        game, seats = self._lit
        return LedPlan("idle", lit=seats if game is engine else ())

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        dealer = engine.setup.dealer
        form.options["dealer"] = engine.players.index(dealer) if dealer is not None else None

    @staticmethod
    def _dealer_seat(form: SetupForm) -> int | None:
        """The first dealer chosen in the form, by seat (a renamed player stays the dealer)."""
        seat = form.options.get("dealer")
        return seat if isinstance(seat, int) and 0 <= seat < len(form.players) else None

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        seat = self._dealer_seat(form)
        label = (
            tr("setup.dealer", lang, name=form.players[seat])
            if seat is not None
            else tr("setup.dealer_lots", lang)
        )
        return [SetupItem(label, tr("setup.dealer_help", lang), ("dealer",))]

    def setup_action(self, form: SetupForm, action: Action) -> bool:
        if action[0] != "dealer":
            return False
        seat = self._dealer_seat(form)
        nxt = 0 if seat is None else seat + 1
        form.options["dealer"] = nxt if nxt < len(form.players) else None
        return True

    def new_game(self, form: SetupForm, names: list[str]) -> NewCinqRoisGame:
        seat = self._dealer_seat(form)
        return NewCinqRoisGame(players=names, dealer=None if seat is None else names[seat])


DRAWERS = {
    "sheet": draw_sheet,
    "lots": draw_lots,
    "lastturn": draw_lastturn,
    "entry": draw_entry,
    "round": draw_round,
    "gameover": draw_gameover,
}
