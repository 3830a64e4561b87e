"""The blocks every screen is laid out with, the generic ones and each game's alike: rectangles cut
into parts (``split``, ``grid``), sentences wrapped rather than cut (``lines_text``,
``fit_lines``), the line saying why a screen shows nothing live, axis ticks, and the ranks as the
card entry screens label and type them. Below the kit and the screens, which both use them."""

from __future__ import annotations

import math

import pygame

from companion.cards import RANK_LETTERS_FR
from companion.display.layout import Align, Kind, Painter, Role, glued
from companion.display.names import name_forms
from companion.display.state import Ui
from companion.display.theme import FG, MUTED, NEAR, PANEL_HI, READ, Color
from companion.display.viewing import read_size
from companion.i18n import t

Rect = pygame.Rect

RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_LABEL_FR = {r.value: letter for r, letter in RANK_LETTERS_FR.items()}
RANK_KEYS_FR = {"A": "A/1", "10": "0", "J": "V", "Q": "D", "K": "R"}
RANK_KEYS_EN = {"A": "A/1", "10": "0", "J": "J", "Q": "Q", "K": "K"}


def rank_keys(lowest: int) -> dict[int, str]:
    """The keys that type a rank on the card entry screens: digits from ``lowest`` to 9 (row and
    keypad), 0 for 10, and each face by its English and French letter or a keypad key."""
    return {
        **{getattr(pygame, f"K_{d}"): str(d) for d in range(lowest, 10)},
        **{getattr(pygame, f"K_KP{d}"): str(d) for d in range(lowest, 10)},
        pygame.K_0: "10",
        pygame.K_KP0: "10",
        pygame.K_j: "J",
        pygame.K_v: "J",
        pygame.K_KP_DIVIDE: "J",
        pygame.K_q: "Q",
        pygame.K_d: "Q",
        pygame.K_KP_MULTIPLY: "Q",
        pygame.K_k: "K",
        pygame.K_r: "K",
        pygame.K_KP_MINUS: "K",
    }


SUITS = ("S", "H", "D", "C")
RED_SUITS = ("H", "D")


def rank_label(rank: str, lang: str) -> str:
    return RANK_LABEL_FR.get(rank, rank) if lang == "fr" else rank


def split(rect: Rect, sizes: list[float], vertical: bool = True, gap: int = 0) -> list[Rect]:
    """Cut ``rect`` into parts proportional to ``sizes`` with ``gap`` pixels between them."""
    total = sum(sizes)
    span = (rect.height if vertical else rect.width) - gap * (len(sizes) - 1)
    out: list[Rect] = []
    pos = rect.top if vertical else rect.left
    for i, s in enumerate(sizes):
        length = (
            int(span * s / total) if i < len(sizes) - 1 else ((rect.bottom if vertical else rect.right) - pos)
        )
        out.append(
            Rect(rect.left, pos, rect.width, length) if vertical else Rect(pos, rect.top, length, rect.height)
        )
        pos += length + gap
    return out


def nice_ticks(top: float, most: int = 6) -> list[int]:
    """Axis ticks from 0 in 1-2-5 steps (1, 2, 5, 10, 20, 50...) covering ``top``, at most
    ``most`` + 1 of them: round numbers, each drawn where its value is."""
    top = max(1.0, float(top))
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if math.ceil(top / step) <= most:
                return [step * i for i in range(math.ceil(top / step) + 1)]
        magnitude *= 10


def grid(rect: Rect, n: int, cols: int, gap: int) -> list[Rect]:
    rows = max(1, math.ceil(n / cols))
    out: list[Rect] = []
    for r, row in enumerate(split(rect, [1] * rows, True, gap)):
        count = min(cols, n - r * cols)
        out.extend(split(row, [1] * cols, False, gap)[:count])
    return out


def layout_lines(
    p: Painter, text: str, box: Rect, size: int, min_size: int
) -> tuple[list[str], int, int, bool]:
    """``text`` on as few lines as the box's width asks, at the largest size from ``size`` down
    to ``min_size`` at which every line fits: (lines, size, line height, fits)."""
    cur = max(size, min_size)
    while True:
        lines = p.wrap_lines(text, box.width, cur)
        line_h = p.line_height(cur)
        fits = (
            all(p.fonts.size(line, cur)[0] <= box.width for line in lines)
            and line_h * len(lines) <= box.height
        )
        if fits or cur <= min_size:
            return lines, cur, line_h, fits
        cur = max(min_size, int(cur * 0.92))


def lines_text(
    p: Painter,
    text: str,
    box: Rect,
    size: int,
    color: Color,
    min_size: int,
    kind: Kind = "text",
    role: Role = "near",
    align: Align = "center",
    players: tuple[str, ...] = (),
    valign: str = "center",
) -> int:
    """A sentence wrapped rather than cut: one line if it fits, else as many as it needs, as big
    as the box allows (below ``min_size`` only when nothing else fits). A line that is only a
    player's name (``players``) is drawn as their name; ``valign`` "top" or "center". Returns
    its size."""
    lines, cur, line_h, fits = layout_lines(p, text, box, size, min_size)
    if not fits:
        lines, cur, line_h, fits = layout_lines(p, text, box, min_size, 10)
    forms = name_forms(players) if players else {}
    named = {form: who for who, own in forms.items() for form in own}
    y = box.top if valign == "top" else max(box.top, box.centery - line_h * len(lines) // 2)
    room = max(0, (box.bottom + 1 - y) // line_h)
    if room < len(lines):
        # More lines than the box holds even at the least size: never dropped without a word.
        # The last line that fits takes the rest, cut with an ellipsis and recorded as cut
        # (``Painter.text``), which the legibility audit fails ("never cut", docs/screen.md).
        if not room:
            p.text(" ".join(lines), box, cur, color, align=align, role=role, min_size=cur, kind=kind)
            return cur
        lines = [*lines[: room - 1], " ".join(lines[room - 1 :])]
    for line in lines:
        line_box = Rect(box.x, y, box.width, line_h)
        who = named.get(line.strip())
        if who is not None:
            p.name(who, players, line_box, cur, color, align=align, role=role)
        else:
            p.text(line, line_box, cur, color, align=align, role=role, min_size=cur, kind=kind)
        y += line_h
    return cur


def headline_todo(p: Painter, text: str, box: Rect, color: Color, players: tuple[str, ...] = ()) -> None:
    """What the table must do, right of the top bar: one line, or two when one line would be
    much smaller (a long name in it); never cut while two lines can hold it."""
    fit_lines(p, text, box, p.font(READ), color, align="right", players=players)


def fit_lines(
    p: Painter,
    text: str,
    box: Rect,
    size: int,
    color: Color,
    *,
    align: Align = "center",
    players: tuple[str, ...] = (),
    role: Role = "near",
    floor: int | None = None,
) -> None:
    """``text`` on one line at ``size`` if it fits nearly so big, else on two balanced lines as
    big as they fit (down to ``floor``, 18 at 800x480); cut only when two lines cannot hold it."""
    floor = floor or p.font(18)
    one = p.fit(text, box, size, min(floor, size * 55 // 100))
    if one[0] == text and one[1] >= size * 0.8:
        p.text(text, box, size, color, align=align, role=role)
        return
    cur = size
    while True:
        lines = two_lines(p, text, cur, box.width, players)
        line_h = p.line_height(cur)
        if line_h * len(lines) <= box.height and all(
            p.fonts.size(line, cur)[0] <= box.width for line in lines
        ):
            break
        if cur <= floor:
            lines = []
            break
        cur = max(floor, int(cur * 0.92))
    if not lines or (one[0] == text and one[1] >= cur):
        p.text(text, box, size, color, align=align, role=role, min_size=min(floor, size * 55 // 100))
        return
    y = box.centery - line_h * len(lines) // 2
    # A line that is only a name ("À" / "Jean-F." in a narrow bar) is drawn as the name.
    named = {form: who for who, own in name_forms(players).items() for form in own} if players else {}
    for line in lines:
        line_box = Rect(box.x, y, box.width, line_h)
        who = named.get(line.strip())
        if who is not None:
            p.name(who, players, line_box, cur, color, align=align, role=role)
        else:
            p.text(line, line_box, cur, color, align=align, role=role, min_size=cur)
        y += line_h


def two_lines(p: Painter, text: str, size: int, width: int, players: tuple[str, ...] = ()) -> list[str]:
    """``text`` in two lines no wider than ``width`` when it can: broken after a punctuation
    mark if one allows it, else where the longer line is shortest; never so that a line is a
    player's name alone (a name is drawn as a name, not as part of a sentence), between two
    words that read as one (``layout.glued``: "= il", "12 %") or leaving one word alone below
    a longer line."""
    words = text.split(" ")
    if len(words) < 2:
        return [text]
    forms = {form for own in name_forms(players).values() for form in own} if players else set()
    options = []
    for i in range(1, len(words)):
        lines = [" ".join(words[:i]), " ".join(words[i:])]
        widest = max(p.fonts.size(line, size)[0] for line in lines)
        after_mark = words[i - 1][-1:] in tuple(":;,.!?") or words[i] in ("·", "-", "—")
        a_name = any(line.strip() in forms for line in lines)
        joined = glued(words[i - 1], words[i])
        alone = len(lines[1].split()) == 1 and len(lines[0].split()) >= 3
        options.append((a_name, widest > width, joined, alone, not after_mark, widest, lines))
    return min(options, key=lambda o: o[:6])[6]


def no_game(p: Painter, ui: Ui, area: Rect) -> None:
    reason = ui.no_game_reason or (t("scr.no_game", "fr"), t("scr.no_game", "en"))
    p.paragraph(ui.text(reason), area.inflate(-p.px(20), -p.px(20)), p.font(NEAR), MUTED)


def not_applicable(p: Painter, area: Rect, why: str) -> Rect:
    """A line saying why this screen shows nothing live; returns the space left under it."""
    # Read from the seats (3.5 mm): on two lines rather than smaller.
    size = read_size(p)
    lines = min(2, len(p.wrap_lines(why, area.width - p.px(12), size)))
    band = Rect(area.x, area.y, area.width, lines * p.line_height(size) + p.px(6))
    p.panel(band, area, PANEL_HI)
    lines_text(p, why, band.inflate(-p.px(12), -p.px(4)), size, FG, min_size=size)
    return Rect(area.x, band.bottom + p.px(6), area.width, area.bottom - band.bottom - p.px(6))
