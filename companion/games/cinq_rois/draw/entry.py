"""The round entry: each player's cards or points, and the card grid and number pad."""

from __future__ import annotations

import pygame

from companion.display import grid as keypad
from companion.display import kit
from companion.display.blocks import lines_text, no_game, not_applicable, rank_label, split
from companion.display.chips import (
    BLACK,
    CARD_FACE,
    chip_row,
    split_card,
    suit_color,
    suit_mark,
)
from companion.display.layout import Control, Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    DISABLED,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL,
    PANEL_HI,
    SMALL,
    Color,
    text_on,
)
from companion.games.cinq_rois.actions import AddCard, Back, Digit, Enter, GoOut, PickPlayer, SetMode, WhyCard
from companion.games.cinq_rois.draw.common import draw_seats, said, tr
from companion.games.cinq_rois.entry import MODES, Mode, RoundEntry
from companion.games.cinq_rois.rules import RoundResult
from companion.games.cinq_rois.solver import ROUNDS, cards_in_round
from companion.games.cinq_rois.view import (
    GRID_RANKS,
    GRID_SUITS,
    JOKER,
    View,
)
from companion.i18n import t

Rect = pygame.Rect


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
    p.controls.append(Control(Rect(name_b), PickPlayer(s)))
    if out_b is None:
        return
    is_out = entry.out == name
    _out_button(p, out_b, s, is_out, lang)


def _out_button(p: Painter, rect: Rect, seat: int, is_out: bool, lang: str) -> None:
    """A player's "went out" button, on their row or, on a narrow list, at the entry's foot."""
    p.button(
        rect,
        tr("entry.out_tag", lang),
        GoOut(seat),
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
            SetMode(mode),
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
    players_box, pad_box = _entry_boxes(p, rest, beside, gap)
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
    p.button(back_b, tr("entry.back", lang), Back(), hint=tr("key.backspace", lang), size=p.font(22))
    ready = entry.event()[0] is not None
    p.button(
        ok_b,
        tr("entry.confirm", lang) if ready else tr("entry.next", lang),
        Enter(),
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
    text, color = _prompt(v, entry, lang)
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
    _cards_typed(p, entry, cards_box, lang)
    draw_card_grid(p, entry, grid_box, lang)


def _entry_boxes(p: Painter, rest: Rect, beside: bool, gap: int) -> tuple[Rect, Rect]:
    """The players' list and the pad: one above the other in portrait, side by side in landscape
    (where a card grid beside the prompt takes the width its 9 mm columns need)."""
    if p.scale.portrait:
        players_box, pad_box = split(rest, [0.8, 1.6], gap=gap)
        return players_box, pad_box
    players_box, pad_box = split(rest, [1.15, 1.6], vertical=False, gap=gap)
    least = GRID_COLS * kit.touch_size(p) + (GRID_COLS - 1) * card_gap(p)
    if beside and pad_box.width < least:
        players_box.width = max(1, rest.width - least - gap)
        pad_box = Rect(players_box.right + gap, rest.y, rest.right - players_box.right - gap, rest.height)
    return players_box, pad_box


def _prompt(v: View, entry: RoundEntry, lang: str) -> tuple[str, Color]:
    """What to enter, and its colour: who went out, else the points or the cards of the player
    being entered (green once a whole hand is in)."""
    name = said(v, entry.name)
    if entry.out is None:
        return tr("entry.who_out", lang), ACCENT
    if entry.mode == "points":
        if entry.name != entry.out:
            return tr("entry.points_of", lang, name=name), FG
        return tr("entry.out_zero_long", lang, name=name), FG
    key = "entry.hand_of" if entry.mode == "hands" else "entry.left_of"
    count = len(entry.entered(entry.name))
    whole = entry.mode == "hands" and count == entry.size
    return tr(key, lang, name=name, n=count, size=entry.size), GOOD if whole else FG


def _cards_typed(p: Painter, entry: RoundEntry, cards_box: Rect, lang: str) -> None:
    """The cards entered so far for the player (or what to do when none is), and the rank typed
    that waits for its suit."""
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


def draw_points_pad(p: Painter, entry: RoundEntry, box: Rect, lang: str) -> None:
    """A phone's keypad: 7 8 9 on top, 0 under the 2 (the entry grid's cells, two left empty)."""
    keys = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "", "0", ""]
    for cell, d in zip(keypad.cells(box, 12, 3, p.px(5)), keys, strict=True):
        if d:
            keypad.draw_key(p, cell, keypad.Key(d, Digit(d)), p.font(NEAR))


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
    return keypad.Key(card, AddCard(card), reason=None if why is None else "", why=WhyCard(card))


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
