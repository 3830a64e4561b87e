"""The generic screens and the frame; each game draws its own screens (``games/*/screens.py``).

Every screen keeps the same frame: the top bar (the game's headline, Undo and the menu), and
a banner for hardware trouble and messages (it pushes the content down, it never covers the
scores). A screen that does not apply to the state still draws, and says why.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from companion.cards import Rank
from companion.display.app_actions import Dismiss, Lang, Menu, Mute, Nav, Noop, Undo, Voice, WebPage
from companion.display.blocks import RANK_ORDER, grid, headline_todo, no_game, split
from companion.display.form_actions import Edit, NextGame, NextInput, Page, Seats, SeatUp, Start
from companion.display.game_ui import GameScreens, SetupItem, screens_of
from companion.display.layout import Action, AppAction, Control, Painter
from companion.display.state import INPUTS, SETUP_PAGES, Ui, active_screen
from companion.display.theme import (
    ACCENT,
    BAD,
    BG,
    BIG,
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
    text_on,
)
from companion.i18n import t
from companion.table.registry import GAMES
from companion.text import Text

Rect = pygame.Rect


NAV = (("stats", "C"), ("rules", "R"), ("status", "S"))  # after the game's own screens


# --- frame -------------------------------------------------------------------------------------


def nav_items(v: Any, ui: Ui, screen: str) -> list[tuple[str, AppAction, bool, bool]]:
    """The menu's buttons: (label, action, enabled, selected): the game's screens, the generic
    ones, sound and language."""
    lang = ui.lang
    gs = screens_of(ui)
    items: list[tuple[str, AppAction, bool, bool]] = []
    for name, _key in (*gs.nav, *NAV):
        items.append((t(f"scr.nav.{name}", lang), Nav(name), v is not None, screen == name))
    items.append((t("scr.nav.sound_off" if ui.muted else "scr.nav.sound_on", lang), Mute(), True, False))
    items.append((t("scr.nav.voice_on" if ui.voice else "scr.nav.voice_off", lang), Voice(), True, False))
    items.append(("English" if lang == "fr" else "Français", Lang(), True, False))
    return items


def frame(p: Painter, v: Any, ui: Ui, screen: str) -> Rect:
    """One bar at the top (where the game stands, what to do, Undo and the menu): 56 px of the
    7" screen's 480, under 12 %; the screens the nine-button bar listed are one touch away."""
    lang = ui.lang
    s = p.screen
    pad = p.px(8)
    # Portrait is narrow and tall: what to do gets a row of its own under the buttons.
    top_h = 2 * p.px(48) if p.scale.portrait else p.px(56)
    top = Rect(0, 0, s.width, top_h)
    p.chrome.append(top)
    # The background only under the bar, which covers the rest: a frame is memory-bound.
    p.ground(BG, Rect(0, top.bottom, s.width, max(0, s.height - top.bottom)))
    gs = screens_of(ui)
    if v is None:
        where, todo, todo_color = gs.title, t("scr.setup.title", lang), MUTED
    else:
        where, todo = gs.headline_for(v, ui)
        todo_color = ACCENT
    players = tuple(getattr(v, "players", ()))
    undo_label, menu_label = t("scr.nav.undo", lang), t("scr.nav.menu", lang)
    menu_open = ui.menu

    def top_bar() -> None:
        pygame.draw.rect(p.surface, PANEL, top)
        inner = top.inflate(-2 * pad, -pad)
        todo_row = None
        if p.scale.portrait:
            todo_row = Rect(
                inner.x, inner.centery + pad // 4, inner.width, inner.bottom - inner.centery - pad // 4
            )
            inner = Rect(inner.x, inner.y, inner.width, inner.height // 2 - pad // 4)
        size = p.font(20)  # read by the finger that touches it: the headline keeps the width
        button_w = max(inner.height, *(p.fonts.size(x, size)[0] + p.px(14) for x in (undo_label, menu_label)))
        menu = Rect(inner.right - button_w, inner.y, button_w, inner.height)
        undo = Rect(menu.x - pad - button_w, inner.y, button_w, inner.height)
        p.button(menu, menu_label, Menu(), selected=menu_open, size=size)
        p.button(undo, undo_label, Undo(), enabled=v is not None, size=size)
        text = Rect(inner.x, inner.y, undo.x - pad - inner.x, inner.height)
        if todo_row is not None:
            p.text(where, text, p.font(BIG), FG, align="left", role="near")
            headline_todo(p, todo, todo_row, todo_color, players)
            return
        # Where the game stands takes what it needs (up to 36 %), what to do gets the rest: who
        # must act matters more than the round.
        left_w = min(
            p.fonts.size(where, p.font(BIG))[0],
            max(int(text.width * 0.36), p.fonts.size(where, p.font(READ))[0]),
        )
        left = Rect(text.x, text.y, left_w, text.height)
        right = Rect(left.right + pad, text.y, text.right - left.right - pad, text.height)
        p.text(where, left, p.font(BIG), FG, align="left", role="near")
        headline_todo(p, todo, right, todo_color, players)

    # The bar is the same on most frames: drawn once, then copied (a frame is memory-bound).
    p.layer(("top", where, todo, todo_color, players, undo_label, v is not None, menu_open), top, top_bar)
    y = top.bottom
    hw = ui.hardware
    if hw.trouble:
        band = Rect(0, y, s.width, p.px(48))
        pygame.draw.rect(p.under(band), WARN, band)
        p.text(hardware_line(ui), band.inflate(-2 * pad, -p.px(4)), p.font(SMALL), (0, 0, 0))
        p.controls.append(_ctl(band, Nav("status")))
        y = band.bottom
    if ui.message is not None:
        message = ui.text(ui.message)
        # An error names its fix: rather two lines than a cut sentence.
        two_lines = p.fonts.size(message, p.font(18))[0] > s.width - 2 * pad
        band = Rect(0, y, s.width, p.px(66 if two_lines else 48))
        pygame.draw.rect(p.under(band), BAD if ui.message_error else GOOD, band)
        inner = band.inflate(-2 * pad, -p.px(4))
        if two_lines:
            p.paragraph(message, inner, p.font(SMALL), FG, min_size=p.font(16))
        else:
            p.text(message, inner, p.font(SMALL), FG, min_size=p.font(18))
        p.controls.append(_ctl(band, Dismiss()))
        y = band.bottom
    return Rect(pad, y + pad, s.width - 2 * pad, s.height - y - 2 * pad)


def draw_menu(p: Painter, v: Any, ui: Ui, area: Rect, screen: str) -> None:
    """The menu, in place of the screen until a choice (or Esc, or the menu button again): every
    screen, sound and language as big buttons."""
    items = nav_items(v, ui, screen)
    cols = 2 if p.scale.portrait else 3
    cells = grid(area, len(items), cols, p.px(10))
    size = min(
        p.fit(label, cell.inflate(-p.px(16), -p.px(16)), p.font(34), p.font(16))[1]
        for cell, (label, *_rest) in zip(cells, items, strict=True)
    )
    for cell, (label, action, enabled, selected) in zip(cells, items, strict=True):
        p.button(cell, label, action, enabled=enabled, selected=selected, size=size)


def _ctl(rect: Rect, action: AppAction) -> Control:
    return Control(Rect(rect), action, True)


def source_text(source: str, lang: str) -> str:
    """A button source as the table reads it: "gpio+keyboard" is "GPIO du Raspberry Pi + clavier"
    in French; English keeps the source's own name ("keyboard", as ``--input`` writes it)."""
    if lang != "fr":
        return source
    known = {f"scr.input.{name}" for name in INPUTS}
    return " + ".join(
        t(f"scr.input.{part}", lang) if f"scr.input.{part}" in known else part for part in source.split("+")
    )


def hardware_line(ui: Ui) -> str:
    hw = ui.hardware
    lang = ui.lang
    parts = []
    source = source_text(hw.source, lang)
    if hw.failed:
        parts.append(t("scr.hw.not_started", lang, source=source))
    elif not hw.connected:
        parts.append(t("scr.hw.disconnected", lang, source=source))
    for label in hw.stuck.values():
        parts.append(t("scr.hw.stuck", lang, button=ui.text(label)))
    return " · ".join(parts)


# --- small pieces ------------------------------------------------------------------------------


# --- slap timeline -----------------------------------------------------------------------------


def draw_rules(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    rules = "\n".join(screens_of(ui).rule_lines(v, ui))
    keys = t(f"scr.rules.keys.{ui.game}", ui.lang)
    # The same words until a setting changes: drawn once, then copied.
    p.layer(("rules", rules, keys), area, lambda: _rules(p, rules, keys, area))


def _rules(p: Painter, rules: str, keys: str, area: Rect) -> None:
    gap = p.px(10)
    if p.scale.portrait:
        # One above the other, each as tall as its lines at the largest size both fit at.
        width = area.width - p.px(16)
        pad_h = p.px(12)
        size = p.font(SMALL)
        while True:
            line_h = p.line_height(size)
            need = [len(p.wrap_lines(text, width, size)) * line_h + pad_h + p.px(4) for text in (rules, keys)]
            if sum(need) + gap <= area.height or size <= p.font(16):
                break
            size -= 1
        spare = max(0, area.height - gap - sum(need))
        left = Rect(area.x, area.y, area.width, min(area.height, need[0] + spare // 2))
        right = Rect(area.x, left.bottom + gap, area.width, area.bottom - left.bottom - gap)
    else:
        left, right = split(area, [1.45, 1], vertical=False, gap=gap)
        size = p.font(SMALL)
    p.panel(left)
    p.paragraph(rules, left.inflate(-p.px(16), -p.px(12)), size, FG, min_size=p.font(16))
    p.panel(right)
    p.paragraph(keys, right.inflate(-p.px(16), -p.px(12)), size, MUTED, min_size=p.font(16))


# --- hardware status ---------------------------------------------------------------------------


def draw_status(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    lang = ui.lang
    hw = ui.hardware
    gap = p.px(8)
    lines = []
    source = source_text(hw.source, lang)
    if not hw.source:
        lines.append(t("scr.hw.none", lang))
    elif hw.connected:
        lines.append(t("scr.hw.ok", lang, source=source))
    else:
        lines.append(t("scr.hw.disconnected", lang, source=source))
    for label in hw.stuck.values():
        lines.append(t("scr.hw.stuck", lang, button=ui.text(label)))
    for note in hw.notes[-3:]:
        lines.append(ui.text(note))
    text = "\n".join(lines)
    codes = hw.web.codes() if hw.web is not None and v is not None else []
    if codes:
        # Phones at the table: their codes over the whole area, the status lines in a cell of
        # their own, so that a table of 3 or 4 has every code on one page at a readable size
        # (under the status panel, a 3-player table's five codes took two pages).
        draw_codes(p, ui, codes, area, status=(text, WARN if hw.trouble else FG))
        return
    if v is not None:
        # The status takes the height its lines need (up to half), the scores the rest.
        pad_h = p.px(20)
        width = area.width - p.px(16)
        size = p.font(NEAR)
        need = len(p.wrap_lines(text, width, size)) * p.line_height(size) + pad_h
        status_h = max(p.px(60), min(area.height // 2, need))
        status_box = Rect(area.x, area.y, area.width, status_h)
        scores = Rect(area.x, status_box.bottom + gap, area.width, area.bottom - status_box.bottom - gap)
        screens_of(ui).strip(p, v, ui, scores)
    else:
        status_box = area
    p.panel(status_box)
    inner = status_box.inflate(-p.px(16), -p.px(10))
    p.paragraph(text, inner, p.font(NEAR), FG if not hw.trouble else WARN, min_size=p.font(16))


def draw_codes(
    p: Painter,
    ui: Ui,
    codes: Sequence[tuple[Text, str, AppAction]],
    area: Rect,
    *,
    status: tuple[str, Color] | None = None,
) -> None:
    """The phones' QR codes: standings, each seat, the scorer; a seat's or the scorer's code is a
    button that draws a new one. As many as fit with modules a phone reads (``MIN_MODULE_PX``);
    the others on further pages, behind a button. ``status``: the status lines and their colour,
    in the first cell of every page."""
    from companion.display.qr import layout_codes, matrix, surface

    label_h = p.line_height(p.font(16))
    inset, pad = p.px(4), p.px(8)  # a cell's margin, and the code's within its cell
    modules = max(len(matrix(url)) for _, url, _ in codes)
    fixed = 1 if status is not None else 0
    per_page, rows, cols = layout_codes(
        len(codes) + fixed, modules, area.width, area.height, label_h, 2 * inset + pad
    )
    per_page = max(1, per_page - fixed)  # codes a page, beside the status cell
    pages = -(-len(codes) // per_page)
    page = ui.hardware.codes_page % pages
    shown = codes[page * per_page : (page + 1) * per_page]
    cell_w, cell_h = area.width // cols, area.height // rows
    cells = [
        Rect(area.x + (i % cols) * cell_w, area.y + (i // cols) * cell_h, cell_w, cell_h).inflate(
            -2 * inset, -2 * inset
        )
        for i in range(rows * cols)
    ]
    if status is not None:
        box = cells.pop(0)
        p.panel(box)
        p.paragraph(
            status[0], box.inflate(-p.px(12), -p.px(10)), p.font(SMALL), status[1], min_size=p.font(14)
        )
    for cell, (label, url, action) in zip(cells, shown, strict=False):
        if isinstance(action, Noop):
            p.panel(cell)
        else:
            p.button(cell, "", action)
        side = min(cell.width, cell.height - label_h) - pad
        label_y = cell.bottom - label_h
        if side > 20:  # whole pixels a module: the picture may be a little smaller
            img = surface(url, side)
            drawn = p.surface.blit(img, img.get_rect(midtop=(cell.centerx, cell.y + inset)))
            label_y = min(label_y, drawn.bottom + inset)  # the label under its code
        p.text(ui.text(label), Rect(cell.x, label_y, cell.width, label_h), p.font(16))
    if pages > 1:
        p.button(
            cells[len(shown)],
            t("scr.web.more", ui.lang, page=page + 1, pages=pages),
            WebPage(),
            size=p.font(16),
        )


# --- setup -------------------------------------------------------------------------------------


def name_button(
    p: Painter,
    rect: Rect,
    who: str,
    players: tuple[str, ...],
    action: Action,
    *,
    editing: bool = False,
    size: int | None = None,
    min_size: int | None = None,
    whole: bool = False,
) -> Rect:
    """A button that is a player's name: drawn as a name (``Painter.name``), with a cursor
    while it is being typed. ``whole``: the setup's field, the name as typed, smaller if it
    must, never shortened (its short form stands beside it)."""
    fill = ACCENT if editing else PANEL_HI
    p.button(rect, "", action, selected=editing, color=fill)
    fg = text_on(fill)
    inner = rect.inflate(-p.px(8), -2)  # a name fills its button's height
    size = size or p.font(SMALL)
    cursor_w = p.fonts.size("_", max(size, p.name_size()))[0] if editing else 0
    box = Rect(inner.x, inner.y, inner.width - cursor_w, inner.height)
    if who and whole and not editing:
        drawn = _whole_name(p, who, box, max(size, p.name_size()), fg)
    elif who and editing:  # the whole of it, smaller if it must, never shortened
        drawn = p.text(who, box, max(size, p.name_size()), fg, min_size=p.font(14), kind="field", who=who)
    elif who:
        drawn = p.name(who, players, box, size, fg, align="center", min_size=min_size)
    else:
        drawn = Rect(box.centerx, box.y, 0, box.height)
    if editing:
        p.text("_", Rect(drawn.right, inner.y, cursor_w, inner.height), max(size, p.name_size()), fg)
    return rect


def _whole_name(p: Painter, who: str, box: Rect, size: int, color: Color) -> Rect:
    """A name in full in a narrow field: on one line down to a readable size, else on two
    lines broken at the space or hyphen nearest its middle ("Anne-Sophie" / "Castelnaudry")."""
    floor = p.font(12)
    one = size
    while one > floor and p.fonts.size(who, one)[0] > box.width:
        one = max(floor, int(one * 0.92))
    breaks = [i for i, c in enumerate(who) if c in " -" and 0 < i < len(who) - 1]
    two = 0
    if breaks and one < size:
        cut = min(breaks, key=lambda i: abs(len(who) - 2 * i))
        lines = [who[: cut + 1].strip(), who[cut + 1 :].strip()]
        two = size
        while two > floor and (
            2 * p.line_height(two) > box.height or max(p.fonts.size(x, two)[0] for x in lines) > box.width
        ):
            two -= 1
    if two <= one:
        return p.text(who, box, one, color, min_size=floor, kind="field", who=who)
    line_h = p.line_height(two)
    top = box.centery - line_h
    drawn = box
    for k, line in enumerate(lines):
        line_b = Rect(box.x, top + k * line_h, box.width, line_h)
        drawn = p.text(line, line_b, two, color, min_size=two, kind="field", who=who)
    return drawn


def short_button(
    p: Painter, rect: Rect, who: str, short: str, action: Action, size: int, editing: bool
) -> None:
    """The player's short form at setup, the one every screen will use where the name does
    not fit: at the size the table's tiles give names, touched to type it."""
    fill = ACCENT if editing else PANEL
    p.button(rect, "", action, selected=editing, color=fill)
    fg = text_on(fill)
    inner = rect.inflate(-p.px(8), -2)
    cursor_w = p.fonts.size("_", size)[0] if editing else 0
    box = Rect(inner.x, inner.y, inner.width - cursor_w, inner.height)
    drawn = Rect(box.centerx, box.y, 0, box.height)
    if short:
        drawn = p.text(short, box, size, fg, min_size=p.name_size(), kind="field", who=who)
    if editing:
        p.text("_", Rect(drawn.right, inner.y, cursor_w, inner.height), size, fg)


def help_sizes(p: Painter) -> tuple[int, ...]:
    """The sizes a setting's help line may take, largest first (none smaller: 9 px caps at
    800x480)."""
    return p.font(22), p.font(20), p.font(18)


def _item_top(p: Painter) -> int:
    """A setting's label row: its buttons 9 mm tall (``kit.touch_size``) and a little margin."""
    from companion.display.kit import touch_size

    return max(p.line_height(p.font(SMALL)) + p.px(10), touch_size(p) + p.px(6))


def items_height(p: Painter, width: int, items: list[SetupItem], help_size: int | None) -> int:
    """The height the settings need with their help lines at ``help_size`` (None: no help)."""
    sep = max(2, p.px(3))
    total = sep * (len(items) - 1) + _item_top(p) * len(items)
    if help_size is not None:
        line_h = p.line_height(help_size)
        for item in items:
            total += len(p.wrap_lines(item.help, width - 2 * p.px(8), help_size)) * line_h
            total += p.px(6)
    return total


def item_columns(p: Painter, area: Rect, n: int) -> int:
    """As few columns of settings as hold every label row at its touch height."""
    sep = max(2, p.px(3))
    for cols in (1, 2, 3):
        rows = math.ceil(n / cols)
        if rows * _item_top(p) + (rows - 1) * sep <= area.height:
            return cols
    return 3


def setup_items(p: Painter, area: Rect, items: list[SetupItem], lang: str, gap: int) -> None:
    """The game's settings, one panel each: a label and its buttons, and under them a help line
    wrapped to the width (never cut), where the height allows one for every setting; on a small
    screen the rules page explains every choice. In columns where one does not hold them all."""
    if not items:
        return
    # The settings change only when one is changed: drawn once, then copied while a name is typed.
    key = tuple((i.label, i.help, i.action, i.minus) for i in items)

    def draw() -> None:
        cols = item_columns(p, area, len(items))
        per = math.ceil(len(items) / cols)
        for col, box in enumerate(split(area, [1] * cols, vertical=False, gap=p.px(12))):
            part = items[col * per : (col + 1) * per]
            if part:
                # A shorter last column keeps the others' row height (empty slots at its foot).
                _setup_items(p, box, part + [None] * (per - len(part)), lang, gap)

    p.layer(("setup.items", key, lang, gap), area, draw)


def _setup_items(p: Painter, area: Rect, slots: list[SetupItem | None], lang: str, gap: int) -> None:
    from companion.display.kit import touch_size

    items = [i for i in slots if i is not None]
    sep = max(2, p.px(3))
    pad = p.px(8)
    touch = touch_size(p)
    avail = area.height - sep * (len(slots) - 1)
    help_size = next(
        (size for size in help_sizes(p) if items_height(p, area.width, items, size) <= area.height), None
    )
    top_h = _item_top(p)
    line_h = p.line_height(help_size) if help_size else 0
    counts = [
        len(p.wrap_lines(item.help, area.width - 2 * pad, help_size)) if help_size else 0 for item in items
    ]
    needs = [top_h + c * line_h + (p.px(6) if c else 0) for c in counts]
    if help_size is None or len(slots) > len(items):
        needs = [avail // len(slots)] * len(items)
    extra = max(0, avail - sum(needs) - (avail // len(slots)) * (len(slots) - len(items)))
    y = area.y
    for i, (item, need) in enumerate(zip(items, needs, strict=True)):
        last = i == len(slots) - 1
        h = area.bottom - y if last else need + extra // len(items)
        cell = Rect(area.x, y, area.width, h)
        y += h + sep
        p.panel(cell, area)
        inner = cell.inflate(-pad, -p.px(4))
        help_h = counts[i] * line_h
        if help_size is not None and inner.height - help_h - p.px(2) >= touch:
            # The spare height goes to the label row, up to a comfortable button.
            top = min(inner.height - help_h - p.px(2), max(top_h, p.px(50)))
            top_row = Rect(inner.x, inner.y, inner.width, top)
            free = inner.height - top - help_h
            helper = Rect(inner.x, top_row.bottom + free // 2, inner.width, help_h + free // 2)
        else:
            top_row, helper = inner, None
        minus = item.minus
        ctl_w = max(inner.width // 4 if minus else inner.width * 2 // 7, 2 * touch + gap if minus else touch)
        ctl = Rect(top_row.right - ctl_w, top_row.y + 1, ctl_w, top_row.height - 1)
        lab = Rect(top_row.x, top_row.y, top_row.width - ctl_w - gap, top_row.height)
        p.text(item.label, lab, p.font(SMALL), FG, align="left", min_size=p.font(18))
        if helper is not None and help_size is not None:
            p.paragraph(item.help, helper, help_size, MUTED, min_size=help_size)
        if minus:
            a, b = split(ctl, [1, 1], vertical=False, gap=gap)
            p.button(a, "−", minus, size=p.font(SMALL), parent=cell)
            p.button(b, "+", item.action, size=p.font(SMALL), parent=cell)
        else:
            p.button(ctl, t("scr.setup.change", lang), item.action, size=p.font(22), parent=cell)


def setup_settings(ui: Ui) -> list[SetupItem]:
    """The settings page: the game, the game's own settings (``GameScreens.setup_items``: each
    game keeps only its own), the buttons."""
    lang, form = ui.lang, ui.setup
    items = [
        SetupItem(
            t("scr.setup.game", lang, name=GAMES[form.game].title),
            t(f"scr.setup.game.{form.game}", lang),
            NextGame(),
            None,
        )
    ]
    items.extend(screens_of(ui).setup_items(form, lang))
    items.append(
        SetupItem(
            t("scr.setup.input", lang, name=t(f"scr.input.{form.input}", lang)),
            t(f"scr.input.{form.input}.help", lang),
            NextInput(),
            None,
        )
    )
    return items


def setup_players(p: Painter, v: Any, ui: Ui, body: Rect) -> None:
    """The players page: how many (− / +), then a row a player in seating order (clockwise,
    down the first column, then the next): seat mark, the name as a button (touch to type it),
    ^ to move the player up one seat. Every control 9 mm, every name 4 mm."""
    from companion.display.kit import touch_size

    lang, form = ui.lang, ui.setup
    entry = GAMES[form.game]
    gap = p.px(6)
    touch = touch_size(p)
    head = Rect(body.x, body.y, body.width, max(touch, p.px(52)))
    note_b, minus_b, plus_b = split(head, [5, 1, 1], vertical=False, gap=gap)
    p.button(minus_b, "−", Seats(-1), enabled=len(form.players) > entry.min_players, size=p.font(SMALL))
    p.button(plus_b, "+", Seats(1), enabled=len(form.players) < entry.max_players, size=p.font(SMALL))
    # That a game runs (Start replaces it), else how to edit the names (the rules page says it too).
    note, tone = (t("scr.setup.in_game", lang), WARN) if v is not None else (t("scr.setup.hint", lang), MUTED)
    size = next(
        (
            s
            for s in help_sizes(p)
            if len(p.wrap_lines(note, note_b.width, s)) * p.line_height(s) <= note_b.height
        ),
        None,
    )
    if size is not None:
        p.paragraph(note, note_b, size, tone, min_size=size)
    list_area = Rect(body.x, head.bottom + gap, body.width, body.bottom - head.bottom - gap)
    n = len(form.players)
    # As few columns as hold a 9 mm row a player; rows no taller than a comfortable button.
    cols = next((c for c in (1, 2, 3) if math.ceil(n / c) * touch <= list_area.height), 3)
    per = math.ceil(n / cols)
    row_h = min(list_area.height // max(per, 1), p.px(64))
    columns = split(list_area, [1] * cols, vertical=False, gap=p.px(12))
    rows = [
        Rect(columns[i // per].x, list_area.y + (i % per) * row_h, columns[i // per].width, row_h - gap // 2)
        for i in range(n)
    ]
    players = tuple(form.players)
    name_size = p.far_name_size()
    shorts = form.short_forms()
    # The short forms' column: as wide as the widest of them at the tiles' name size (ten
    # characters at most, ``names.SHORT_MOST``), never under a touch target, at most a third
    # of the row (then smaller, never under the name size); the full name takes the rest, on
    # two lines where it must (read by whoever types).
    pad = p.px(8)
    cursor_w = p.fonts.size("_", name_size)[0]
    widest = max((p.fonts.size(s, name_size)[0] for s in shorts.values()), default=0)
    row_w = rows[0].width if rows else list_area.width

    def player_row(i: int, name: str, short: str, row: Rect) -> None:
        d = row.height
        p.seat_mark(i, (row.x + d // 2, row.centery), int(d * 0.4))
        up_b = Rect(row.right - max(touch, d), row.y, max(touch, d), row.height)
        short_w = min(max(touch * 3 // 2, widest + 2 * pad + cursor_w), row_w * 2 // 5)
        short_b = Rect(up_b.x - gap - short_w, row.y, short_w, row.height)
        name_b = Rect(row.x + d + gap, row.y, short_b.x - gap - (row.x + d + gap), row.height)
        name_button(
            p,
            name_b,
            name,
            players,
            Edit(i),
            editing=form.editing == i and not form.editing_short,
            size=name_size,
            min_size=name_size,
            whole=True,
        )
        typing = form.editing == i and form.editing_short
        short_button(p, short_b, name, short, Edit(i, short=True), name_size, typing)
        p.button(up_b, "^", SeatUp(i), enabled=i > 0, size=p.font(SMALL))

    for i, name in enumerate(form.players):
        short = shorts[name]
        if form.editing == i:  # the name being typed changes with each key
            player_row(i, name, short, rows[i])
        else:
            p.layer(
                ("setup.row", i, name, short, widest, players),
                rows[i],
                functools.partial(player_row, i, name, short, rows[i]),
            )


def draw_setup(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    """The new-game screen, one structure for the three games: a page of players or a page of
    settings (``SetupForm.page``) above one footer, the two pages' tabs and Start."""
    from companion.display.kit import touch_size

    lang = ui.lang
    form = ui.setup
    gap = p.px(6)
    foot_h = max(touch_size(p), p.px(60))
    body = Rect(area.x, area.y, area.width, area.height - foot_h - gap)
    page = form.page if form.page in SETUP_PAGES else SETUP_PAGES[0]
    if page == "players":
        setup_players(p, v, ui, body)
    else:
        setup_items(p, body, setup_settings(ui), lang, gap)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    tab_a, tab_b, start_b = split(foot, [1, 1, 1.3], vertical=False, gap=gap)
    for box, name, label in (
        (tab_a, "players", t("scr.setup.tab.players", lang, n=len(form.players))),
        (tab_b, "settings", t("scr.setup.tab.settings", lang)),
    ):
        here = page == name
        p.button(
            box,
            label,
            Page(name),
            selected=here,
            color=PANEL_HI if here else PANEL,
            size=p.font(SMALL),
        )
    p.button(
        start_b,
        t("scr.setup.start", lang),
        Start(),
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )


# --- flush animation ---------------------------------------------------------------------------

# --- dispatch ----------------------------------------------------------------------------------


def draw_stats(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    from companion.display.tally import draw_stats as draw_tally

    draw_tally(p, v, ui, area)


DRAWERS: dict[str, Callable[[Painter, Any, Ui, Rect], None]] = {
    "setup": draw_setup,
    "rules": draw_rules,
    "status": draw_status,
    "stats": draw_stats,
}
GENERIC_SCREENS: tuple[str, ...] = tuple(DRAWERS)


def draw(p: Painter, v: Any, ui: Ui, screen: str | None = None, anim_phase: float | None = None) -> str:
    """Draw one whole frame; returns the screen drawn."""
    gs: GameScreens[Any, Any] = screens_of(ui)
    name = screen or active_screen(v, ui)
    # Motion runs on the loop's clock; an overlay hides the screen, so changes wait for it.
    ui.motion.frame(ui.now, quiet=anim_phase is not None)
    p.motion = ui.motion
    area = frame(p, v, ui, name)  # the background too
    if ui.menu:
        draw_menu(p, v, ui, area, name)
        p.finish()
        return name
    if name == "gameover" and v is not None and getattr(ui.tally, "evening_games", 0) >= 2:
        # The evening's running tally, under any game's game-over screen.
        from companion.display.tally import draw_evening

        band_h = p.px(68)
        draw_evening(p, ui, Rect(area.x, area.bottom - band_h, area.width, band_h))
        area = Rect(area.x, area.y, area.width, area.height - band_h - p.px(6))
    if name == "gameover" and v is not None and ui.hardware.web is not None:
        from companion.display.evening_code import draw_evening_code

        area = draw_evening_code(p, ui, area)  # the evening on the phones
    if name in DRAWERS:
        DRAWERS[name](p, v, ui, area)
    elif v is None:
        no_game(p, ui, area)
    else:
        gs.draw(p, v, ui, name, area)
    if anim_phase is not None and v is not None:
        gs.overlay(p, v, ui, anim_phase)
    p.finish()  # with a memory of the last frame (``Retained``): what is left of it, and where
    return name


__all__ = ["DRAWERS", "GENERIC_SCREENS", "RANK_ORDER", "Rank", "draw"]
