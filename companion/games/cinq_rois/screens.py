"""Les Cinq Rois on the table screen: the score sheet, the draw for the first dealer, the last turns
after someone goes out, the round entry (points, cards left or whole hands), the round's
arrangements card by card, and the game over.

``CinqRoisScreens`` is the game's side of the display seam (``display/game_ui.py``): a seat button
means "I go out" (then "my last turn is played"), or draws the first dealer by lot before round 1.
The half-entered round is a ``RoundEntry`` (``entry.py``) kept in ``Ui.entry``; only a complete
one becomes a ``round_end`` event.
"""

from __future__ import annotations

import random
from typing import Any

import pygame

from companion.display import grid as keypad
from companion.display import kit, sheet
from companion.display.blocks import (
    lines_text,
    no_game,
    not_applicable,
    rank_keys,
    rank_label,
    split,
)
from companion.display.chips import (
    BLACK,
    CARD_FACE,
    chip_row,
    flat_chips,
    split_card,
    suit_color,
    suit_mark,
)
from companion.display.game_ui import GameScreens, LedPlan, SetupItem
from companion.display.layout import Action, Control, Painter
from companion.display.lots import draw_lots_overlay as overlay
from companion.display.names import name_forms, short_name
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


def tr(key: str, lang: str, **values: object) -> str:
    return t("cinq." + key, lang, **values)


def typo(text: str, lang: str) -> str:
    """French typography for sentences that come from the rules engine."""
    return _fr(text) if lang == "fr" else text


# --- cards -------------------------------------------------------------------------------------


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
    act = None if v.finished else (lambda s: ("out", s))
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
    # any table size (test_findings23's smaller tables: at five players the grid fitted its
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


def entry_row(
    p: Painter, v: View, entry: RoundEntry, s: int, row: Rect, lang: str, with_out: bool = True
) -> None:
    """One player's line of the entry: their name (touch it to enter theirs) and what is
    entered for them, then (``with_out``) the small button that says who went out."""
    name = v.players[s]
    active = s == entry.active
    fill = ACCENT if active else (GOOD if entry.complete(name) and entry.out else PANEL_HI)
    status = status_of(entry, name, lang)
    if entry.mode != "hands" and name == entry.out:
        status = "0"  # "0 (went out)" holds no far type in the row: its out button says why
    if not with_out and entry.mode != "points" and status != "—":
        # A narrow row (the 7" screen's card grid) holds the name at 4 mm and a count, not
        # "3/13" or "6 cards": the prompt says of how many, green says a hand is whole.
        status = str(len(entry.entered(name)))
    # The same on most frames (one row changes a key): drawn once, then copied.
    key = (
        "cinq.entry_row",
        s,
        v.players,
        active,
        fill,
        status,
        entry.out == name,
        entry.mode,
        lang,
        with_out,
    )
    p.layer(key, row, lambda: _entry_row(p, v.players, s, row, lang, active, fill, status, entry, with_out))


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
    with_out: bool,
) -> None:
    name = players[s]
    gap = max(2, p.px(3))
    name_b, out_b = split(row, [3.2, 1], vertical=False, gap=gap) if with_out else (Rect(row), None)
    p.panel(name_b, None, fill, border=FG if active else None)
    ink = text_on(fill)
    inner = name_b.inflate(-p.px(8), -max(2, p.px(2)))
    # Read from the seats like any name and score (docs/screen.md, the 7" rules): the name at
    # 4 mm, typed points in far type; a word ("—", "0, out") at the least a seat reads.
    size = p.far_name_size()
    figure = status.isdigit() and with_out  # a narrow row's count: read type, not far
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
    if out_b is None:
        return
    is_out = entry.out == name
    _out_button(p, out_b, s, is_out, lang)


def _out_button(p: Painter, rect: Rect, seat: int, is_out: bool, lang: str) -> None:
    """A player's "went out" button, on their row or, on a narrow list, at the entry's foot."""
    p.button(
        rect,
        tr("entry.out_tag", lang),
        ("out", seat),
        selected=is_out,
        color=GOOD if is_out else PANEL,  # went out: green, as on the sheet
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
    # Landscape, a card grid (whole hands, cards left): its 12 columns at 9 mm (47 px a card on
    # the 7" screen, where beside the list at its usual width a card had 33), the cards typed on
    # the prompt's line (under it, the five rows would not hold 9 mm either). The players' list
    # gives up the width the grid needs and keeps its rows: one tap to any player, who is done,
    # who went out (docs/screen.md says why this rather than a list folded to a header).
    beside = entry.mode != "points" and not portrait
    if portrait:
        players_box, pad_box = split(rest, [0.8, 1.6], gap=gap)
    else:
        players_box, pad_box = split(rest, [1.15, 1.6], vertical=False, gap=gap)
        least = GRID_COLS * kit.touch_size(p) + (GRID_COLS - 1) * card_gap(p)
        if beside and pad_box.width < least:
            players_box.width = max(1, rest.width - least - gap)
            pad_box = Rect(players_box.right + gap, rest.y, rest.right - players_box.right - gap, rest.height)
    # A list too narrow for a name, its count and an out button (the 7" screen's card grid): the
    # rows keep the name and the count, the out button of the player being entered is in the foot.
    out_below = players_box.width < 4 * kit.touch_size(p)
    # Players: touch a name to enter theirs; the small button says who went out.
    n = len(v.players)
    rows = split(players_box, [1] * n, gap=max(1, p.px(3)))
    for s, row in enumerate(rows):
        entry_row(p, v, entry, s, row, lang, not out_below)
    foot_h = p.px(52)
    work = Rect(pad_box.x, pad_box.y, pad_box.width, pad_box.height - foot_h - gap)
    foot = Rect(pad_box.x, pad_box.bottom - foot_h, pad_box.width, foot_h)
    if out_below:
        back_b, out_b, ok_b = split(foot, [1, 0.8, 1.6], vertical=False, gap=gap)
        is_out = entry.out == entry.name
        _out_button(p, out_b, entry.active, is_out, lang)
    else:
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
    # What to enter, read by the table as well: two lines at the least a seat reads (one beside
    # the cards typed, on a card grid's line).
    read = kit.read_size(p)
    lines = 1 if beside else 2
    title_h = max(p.px(36) if not portrait else p.px(52), lines * p.line_height(read))
    title = Rect(work.x, work.y, work.width, title_h)
    name = said(v, entry.name)
    color = FG
    if entry.out is None:
        text, color = tr("entry.who_out", lang), ACCENT
    elif entry.mode == "points":
        text = (
            tr("entry.points_of", lang, name=name)
            if entry.name != entry.out
            else tr("entry.out_zero_long", lang, name=name)
        )
    else:
        key = "entry.hand_of" if entry.mode == "hands" else "entry.left_of"
        count = len(entry.entered(entry.name))
        text = tr(key, lang, name=name, n=count, size=entry.size)
        if entry.mode == "hands" and count == entry.size:
            color = GOOD  # the hand is whole
    if beside:  # the prompt as wide as it reads, the cards typed in what is left
        title.width = min(work.width - 4 * kit.touch_size(p), p.fonts.size(text, read)[0] + p.px(8))
    lines_text(p, text, title, read, color, read, align="left", players=v.players)
    pad = Rect(work.x, title.bottom + gap, work.width, work.height - title_h - gap)
    if entry.mode == "points":
        p.arm.append(Rect(pad))  # the keypad: the scorer's, at arm's length
        draw_points_pad(p, entry, pad, lang)
        return
    if beside:
        cards_box = Rect(title.right + gap, title.y, work.right - title.right - gap, title_h)
        grid_box = pad
    else:
        cards_h = max(p.px(34), pad.height // 6)
        cards_box = Rect(pad.x, pad.y, pad.width, cards_h)
        grid_box = Rect(pad.x, cards_box.bottom + gap, pad.width, pad.height - cards_h - gap)
    p.arm += [Rect(cards_box), Rect(grid_box)]  # the cards typed and the grid, at arm's length
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
            ACCENT,  # the suit comes next
            align="right",
            role="small",
            min_size=p.font(11),
        )
    draw_card_grid(p, entry, grid_box, lang)


def draw_points_pad(p: Painter, entry: RoundEntry, box: Rect, lang: str) -> None:
    """A phone's keypad: 7 8 9 on top, 0 under the 2 (the entry grid's cells, two left empty)."""
    keys = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "", "0", ""]
    for cell, d in zip(keypad.cells(box, 12, 3, p.px(5)), keys, strict=True):
        if d:
            keypad.draw_key(p, cell, keypad.Key(d, ("digit", d)), p.font(NEAR))


GRID_COLS = len(GRID_RANKS) + 1  # the ranks across, then the joker


def card_gap(p: Painter) -> int:
    """The gap between two cards of the grid."""
    return max(1, p.px(2))


def draw_card_grid(p: Painter, entry: RoundEntry, box: Rect, lang: str) -> None:
    """One tap adds a card: suits down, ranks across, the joker on the right. A card the two
    decks cannot give any more is greyed and says why when touched (the entry grid's cells,
    each drawn as a card face)."""
    cols = GRID_COLS
    cells = keypad.cells(box, len(GRID_SUITS) * cols, cols, card_gap(p))

    def face(p: Painter, cell: Rect, key: keypad.Key) -> None:
        grid_cell(p, cell, key.label, lang, key.reason is None, len(entry.holders(key.label)))

    for r, suit in enumerate(GRID_SUITS):
        for c, rank in enumerate(GRID_RANKS):
            keypad.draw_key(p, cells[r * cols + c], card_key(entry, rank + suit), 0, paint=face)
    joker_box = cells[cols - 1].union(cells[-1])
    keypad.draw_key(
        p, joker_box, card_key(entry, JOKER), 0, paint=lambda p, box, key: joker_cell(p, box, entry)
    )


def card_key(entry: RoundEntry, card: str) -> keypad.Key:
    """A card of the grid: touching it adds the card, or says why the decks cannot give it."""
    why = entry.card_reason(card)
    return keypad.Key(card, ("card", card), reason=None if why is None else "", why=("why_card", card))


def joker_cell(p: Painter, joker_box: Rect, entry: RoundEntry) -> None:
    enabled = entry.card_reason(JOKER) is None
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
