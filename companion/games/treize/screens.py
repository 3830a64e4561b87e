"""13 feuilles on the table screen: its screens, and what the table's inputs mean in it.

The screens draw from the read-only ``View`` (``view.py``); ``TreizeScreens`` is the game's side of
the display seam (``display/game_ui.py``): a seat button is "I pass", a play is entered in two taps
(value, then how many), a press at the start of a game draws lots for who starts.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import pygame

from companion.display import grid as keypad
from companion.display import kit, sheet
from companion.display.blocks import (
    grid,
    lines_text,
    nice_ticks,
    no_game,
    not_applicable,
    split,
)
from companion.display.game_ui import GameScreens, LedPlan, SetupItem
from companion.display.layout import Action, Control, Painter
from companion.display.lots import draw_lots_overlay as overlay
from companion.display.names import short_name
from companion.display.state import SetupForm, Ui
from companion.display.theme import (
    ACCENT,
    BAD,
    BIG,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL_HI,
    SMALL,
    WARN,
    text_on,
)
from companion.errors import RuleError
from companion.games.treize.autoplay import AutoPlayer, lots_rng
from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter
from companion.games.treize.rules import TreizeGame, draw_lots
from companion.games.treize.series import VALUES
from companion.games.treize.view import SeatView, View, build_view
from companion.i18n import count, t
from companion.i18n import french_typography as _typo
from companion.inputs.base import InputEvent
from companion.inputs.sim import SIM_CLOCK
from companion.table.log import Undo

Rect = pygame.Rect

LOTS_SECONDS = 1.4
SIM_MOVE_S = 0.9  # a simulated move every so many seconds at --speed 1
MAX_COUNT_BUTTONS = 12


@dataclass
class Entry:
    """What the table is half-way through entering (kept in ``Ui.entry``)."""

    kind: Literal["play", "take", "end"]
    player: str | None = None
    value: int | None = None
    count: int | None = None
    left: dict[str, int] = field(default_factory=dict)


def entry_of(ui: Ui) -> Entry | None:
    return ui.entry if isinstance(ui.entry, Entry) else None


def tracking(v: View, ui: Ui) -> bool:
    """Whether plays are entered in the game in play: fixed by its first pass or play, chosen
    (the series helper, on by default) until then."""
    return v.mode == "plays" or (v.mode is None and bool(ui.setup.options.get("helper", True)))


def say(ui: Ui, err: RuleError) -> None:
    ui.say(_typo(err.fr), err.en)


def spoken(v: View, who: str | None) -> str:
    """A player's name inside a sentence: whole when short, else a unique short form."""
    return short_name(who, v.players) if who else "?"


def last_size(p: Painter, default: int) -> int:
    """The size of the text just drawn (a name drawn by ``Painter.name``)."""
    return p.texts[-1].size if p.texts else default


# --- headline ----------------------------------------------------------------------------------


def todo_text(v: View, ui: Ui) -> str:
    lang = ui.lang
    e = entry_of(ui)
    if v.finished:
        return t("treize.todo.over" if v.advanced else "treize.todo.over_basic", lang)
    if ui.show_result and v.history:
        return t("treize.todo.next", lang, n=v.history[-1].number)
    if v.awaiting == "starter":
        return t("treize.todo.lots", lang)
    if e is not None and e.kind == "take" and e.player:
        return t("treize.todo.take", lang, name=spoken(v, e.player))
    if not tracking(v, ui):
        return t("treize.todo.passes", lang)
    if v.turn is None:
        return t("treize.todo.passes", lang)
    if not v.stacks:
        key = "treize.todo.first" if v.mode is None else "treize.todo.lead"
        return t(key, lang, name=spoken(v, v.turn))
    return t("treize.todo.turn", lang, name=spoken(v, v.turn))


# --- pieces ------------------------------------------------------------------------------------


def standing(s: SeatView, v: View, lang: str) -> kit.Standing:
    """A player as the kit's tile shows them: the match's points in far type (the cards in
    hand in the basic variant, which keeps no points), then the cards and what they do now."""
    if s.passed:
        tag = t("treize.tag.passed", lang)
    elif s.turn:
        tag = t("treize.tag.turn", lang)
    elif s.leader and v.stacks:
        tag = t("treize.tag.leads", lang)
    elif s.starter and v.mode is None and not v.finished:
        tag = t("treize.tag.starts", lang)
    else:
        tag = ""
    cards = (
        count(s.count, t("treize.card", lang), t("treize.cards", lang), lang)
        if s.count is not None and v.advanced
        else ""
    )
    # Who passed is what the table looks for: the word alone (the count would not fit beside it).
    note = tag if s.passed else " · ".join(x for x in (cards, tag) if x)
    if v.advanced:
        # Ties share a place ("1er, 1er, 3e"), as on the game over and the other games' tiles:
        # before anyone has scored, everybody is first.
        place = 1 + sum(other.total < s.total for other in v.seats)
        return kit.Standing(
            s.seat,
            s.name,
            place,
            s.total,
            t("treize.pts", lang),
            note,
            moved=s.moved,
            acting=s.turn,
            dim=s.passed,
        )
    return kit.Standing(
        s.seat,
        s.name,
        s.place,
        s.count,
        t("treize.cards", lang) if s.count is not None else "",
        tag,
        acting=s.turn,
        dim=s.passed,
    )


def seat_grid(p: Painter, v: View, ui: Ui, area: Rect, touch: bool, top: int | None = None) -> None:
    """The kit's tiles in seating order (nobody hunts for their tile); whoever plays now is
    framed in their seat colour."""
    n = len(v.seats)
    kit.tiles(
        p,
        area,
        [standing(s, v, ui.lang) for s in v.seats],
        v.players,
        ui.lang,
        act=(lambda s: ("pass", s.who)) if touch else None,
        cols=1 if p.scale.portrait or n <= 3 else 2,
        top=top,
    )


def allowed_text(v: View, lang: str) -> str:
    """What the player to play may put down, in one sentence; that they can only pass when no
    value the series allows is within the cards in their hand (issue 23)."""
    if v.turn is None or v.allowed is None:
        return ""
    held = next((s.count for s in v.seats if s.name == v.turn), None)
    if v.stacks and not v.options and held is not None:
        return t("treize.only_pass", lang, name=spoken(v, v.turn), n=held)
    what = _typo(v.allowed[0]) if lang == "fr" else v.allowed[1]
    return t("treize.allowed", lang, name=spoken(v, v.turn), what=what)


def playable_text(v: View, lang: str) -> str:
    """Under the turn banner (which names the player): the values they may play with the cards
    in their hand, by the fewest cards each asks ("Playable: 1 or 10 to 13, 3 cards or more");
    that they can only pass when nothing is; none when the series is not followed."""
    if v.turn is None or v.allowed is None:
        return ""
    if not v.options:
        return allowed_text(v, lang)
    by_least: dict[int, list[int]] = {}
    for value, least, _most in sorted(v.options):
        by_least.setdefault(least, []).append(value)
    groups = []
    for least, values in sorted(by_least.items(), key=lambda kv: kv[1][0]):
        runs: list[list[int]] = []
        for value in values:
            if runs and value == runs[-1][-1] + 1:
                runs[-1].append(value)
            else:
                runs.append([value])
        spans = [
            str(r[0]) if len(r) == 1 else t("treize.can_play.range", lang, a=r[0], b=r[-1]) for r in runs
        ]
        groups.append(
            t("treize.can_play.group", lang, values=t("treize.can_play.or", lang).join(spans), n=least)
        )
    return t("treize.can_play", lang, what=t("treize.can_play.and", lang).join(groups))


def stacks_row(p: Painter, v: View, box: Rect) -> int:
    """The stacks on the table in one line of read type ("10 × 3"), the two ends white and
    framed; as many as the width holds, the ends first. Returns the width used."""
    size = kit.read_size(p)
    pad = p.px(8)
    gap = p.px(4)
    texts = [(f"{value} × {n}", i in (0, len(v.stacks) - 1)) for i, (value, n) in enumerate(v.stacks)]
    widths = [p.fonts.size(text, size)[0] + 2 * pad for text, _end in texts]
    shown = list(range(len(texts)))
    while shown and sum(widths[i] for i in shown) + gap * (len(shown) - 1) > box.width:
        # Keep the ends (what may be played against): drop from the middle.
        middle = [i for i in shown if i not in (0, len(texts) - 1)]
        shown.remove(middle[len(middle) // 2] if middle else shown[-1])
    x = box.x
    for i in shown:
        text, end = texts[i]
        chip = Rect(x, box.y, widths[i], box.height)
        p.panel(chip, None, (245, 245, 245) if end else PANEL_HI, border=ACCENT if end else None)
        p.text(text, chip.inflate(-pad, 0), size, (0, 0, 0) if end else FG, min_size=size)
        x += widths[i] + gap
    return x - box.x


def table_top(p: Painter, v: View, ui: Ui, box: Rect) -> None:
    """Whoever must play: the kit's turn banner in their seat colour, the biggest text on the
    screen, with the button that enters their play beside it; otherwise what the table does
    next (draw lots, the end of a game kept with passes only, the game over)."""
    lang = ui.lang
    gap = p.px(6)
    if p.scale.portrait:  # narrow: the banner gets the whole width, the button a row under it
        banner_b, btn_b = split(box, [kit.banner_height(p), kit.touch_size(p)], gap=gap)
    else:
        banner_b, btn_b = split(box, [2.2, 1], vertical=False, gap=gap)
    enter = t("scr.key.enter", lang)
    if v.finished:
        p.button(btn_b, t("scr.nav.gameover", lang), ("nav", "gameover"), size=p.font(NEAR))
    elif v.awaiting == "starter":
        p.button(btn_b, t("treize.lots.button", lang), ("lots",), color=GOOD, hint=enter, size=p.font(NEAR))
    elif not tracking(v, ui):
        p.button(btn_b, t("treize.btn.end", lang), ("end_open",), color=ACCENT, hint=enter, size=p.font(NEAR))
    else:
        p.button(
            btn_b,
            t("treize.btn.play_short", lang),
            ("play_open",),
            enabled=v.turn is not None,
            color=GOOD,
            hint=enter,
            size=p.font(SMALL),
        )
    if v.turn is not None and not v.finished and v.awaiting == "play":
        kit.turn_banner(p, banner_b, v.players.index(v.turn), v.turn, v.players, lang)
    else:
        read = kit.read_size(p)
        p.paragraph(todo_text(v, ui), banner_b, read, MUTED, min_size=read)


def series_lines(p: Painter, v: View, ui: Ui, box: Rect) -> int:
    """The series helper under the banner: the stacks, then what may be played in one sentence
    (beside the stacks where it holds in one line). Before the game's first card, the button
    that turns the helper on or off (key A) stands first. Returns the height used."""
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    line = p.line_height(read)
    on = tracking(v, ui)
    x = box.x
    used_h = 0
    if v.mode is None and v.awaiting == "play" and not v.finished:
        # Before the game's first card the table may choose to enter plays or passes only.
        touch = kit.touch_size(p)
        button = Rect(box.x, box.y, min(box.width // 3, p.px(300)), max(touch, line))
        p.button(
            button,
            t("treize.btn.helper.on" if on else "treize.btn.helper.off", lang),
            ("helper",),
            hint="A",
            size=p.font(SMALL),
        )
        x, used_h = button.right + gap, button.height
    if not on:
        text = t("treize.series.unknown", lang)
        h = len(p.wrap_lines(text, box.right - x, read)) * line
        p.paragraph(text, Rect(x, box.y, box.right - x, h), read, MUTED, min_size=read)
        return max(h, used_h)
    if v.stacks:
        text = playable_text(v, lang)
    elif v.turn:
        text = t("treize.series.empty", lang, name=spoken(v, v.turn))
    else:
        text = t("treize.series.empty_nobody", lang)
    used = stacks_row(p, v, Rect(x, box.y, (box.right - x) // 2, line)) if v.stacks else 0
    left = x
    x += used + (gap if used else 0)
    y = box.y
    lines = len(p.wrap_lines(text, box.right - x, read)) if text else 0
    if used and lines > 1:  # under the stacks
        x, y = left, box.y + line + gap // 2
        lines = len(p.wrap_lines(text, box.right - x, read))
    if not text:
        return max(line if used else 0, used_h)
    sentence = Rect(x, y, box.right - x, lines * line)
    p.paragraph(text, sentence, read, WARN if v.stacks and not v.options else FG, min_size=read, role="near")
    return max(sentence.bottom - box.y, line if used else 0, used_h)


def draw_table(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Whose turn first (the kit's banner), then the stacks on the table and what may be
    played, then the kit's tiles in seating order (the match's points in far type, the cards in
    hand and what each one does under the name; touch one = that player passes), then how to
    pass where the tiles leave room."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(6)
    read = kit.read_size(p)
    top_h = max(kit.banner_height(p), kit.touch_size(p))
    if p.scale.portrait:
        top_h = kit.banner_height(p) + gap + kit.touch_size(p)
    top = Rect(area.x, area.y, area.width, top_h)
    table_top(p, v, ui, top)
    banner = next((rec.size for rec in reversed(p.texts) if rec.kind == "headline"), None)
    y = top.bottom + gap
    y += series_lines(p, v, ui, Rect(area.x, y, area.width, area.bottom - y)) + gap
    hint = t("treize.hint.press", lang)
    hint_h = len(p.wrap_lines(hint, area.width, read)) * p.line_height(read)
    tiles_b = Rect(area.x, y, area.width, area.bottom - y)
    n = len(v.seats)
    two_lines = p.line_height(p.far_name_size()) + p.fonts.size("Ég", read)[1] + p.px(20)
    cols = 1 if p.scale.portrait or n <= 3 else 2
    rows = math.ceil(n / cols)
    if (tiles_b.height - hint_h - gap) / rows >= two_lines:  # the hint costs no tile its cards
        tiles_b = Rect(area.x, y, area.width, area.bottom - y - hint_h - gap)
        p.paragraph(hint, Rect(area.x, tiles_b.bottom + gap, area.width, hint_h), read, MUTED, min_size=read)
    # The figures no bigger than the banner: whose turn it is stays the biggest text.
    seat_grid(p, v, ui, tiles_b, touch=not v.finished and v.awaiting == "play", top=banner)


# --- play entry --------------------------------------------------------------------------------


def draw_play(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    who = v.turn
    if v.finished or not tracking(v, ui) or who is None or v.awaiting != "play":
        why = (
            t("treize.todo.over", lang)
            if v.finished
            else t("treize.todo.lots", lang)
            if v.awaiting == "starter"
            else t("treize.series.unknown", lang)
            if not tracking(v, ui)
            else t("treize.play.none_turn", lang)
        )
        text = why if not tracking(v, ui) else t("treize.play.none", lang, why=why)
        rest = not_applicable(p, area, text)
        seat_grid(p, v, ui, rest, touch=False)
        return
    value = e.value if e is not None and e.kind == "play" else None
    count = e.count if e is not None and e.kind == "play" else None
    gap = p.px(6)
    portrait = p.scale.portrait
    # Whose turn in the biggest type, in their seat colour; the question under it.
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(who), who, v.players, lang)
    ask = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(t("treize.play.ask", lang), ask, p.font(SMALL), FG, align="left", min_size=p.font(18))
    head = Rect(area.x, area.y, area.width, ask.bottom - area.y)
    allowed = allowed_text(v, lang) if v.stacks else t("treize.series.empty", lang, name=spoken(v, who))
    line = Rect(area.x, head.bottom, area.width, p.px(72 if portrait else 44))
    lines_text(p, allowed, line, p.font(SMALL), MUTED, min_size=p.font(18), align="left")
    head = Rect(area.x, area.y, area.width, line.bottom - area.y)
    head_h = head.height
    foot_h = p.px(62)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    values_area, counts_area = split(body, [2.1, 1] if not portrait else [3, 1], gap=gap)
    keys = []
    for val in VALUES:
        opt = v.option(val)
        between = v.low is not None and v.high is not None and v.low[0] < val < v.high[0]
        keys.append(
            keypad.Key(
                str(val),
                ("value", val),
                hint=t("treize.tag.min", lang, n=opt[0]) if opt is not None else "",
                reason=None
                if opt is not None
                else t("treize.tag.gap" if between else "treize.tag.few", lang),
                why=("why", f"v{val}"),
                selected=value == val,
            )
        )
    # The thirteen values stay in their places (a value is found where it always is), the
    # ones that cannot be played greyed with why.
    keypad.entry_grid(p, values_area, keys, p.font(BIG), cols=4 if portrait else 7, centre=False)
    opt = v.option(value) if value is not None else None
    if value is None or opt is None:
        p.text(t("treize.play.pick_value", lang), counts_area, p.font(NEAR), MUTED, min_size=p.font(16))
    else:
        label_w = counts_area.width // 4
        label = Rect(counts_area.x, counts_area.y, label_w, counts_area.height)
        lines_text(
            p,
            t("treize.play.pick_count", lang, value=value),
            label,
            p.font(SMALL),
            FG,
            min_size=p.font(18),
            align="left",
        )
        most = max(opt[0], min(opt[1], MAX_COUNT_BUTTONS))
        row = Rect(label.right + gap, counts_area.y, counts_area.width - label_w - gap, counts_area.height)
        # Fewer than the least that can be played: greyed, touching one says why.
        counts = [
            keypad.Key(
                str(n),
                ("count", n),
                reason=None if n >= opt[0] else "",
                why=("why", f"c{n}"),
                selected=count == n,
            )
            for n in range(1, most + 1)
        ]
        keypad.entry_grid(p, row, counts, p.font(NEAR), cols=most, gap=p.px(4))
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    chosen_b, back_b, ok_b = split(foot, [1.3, 0.8, 1], vertical=False, gap=gap)
    chosen = (
        t("treize.play.chosen", lang, count=count, value=value)
        if value is not None and count is not None
        else ""
    )
    p.text(chosen, chosen_b, p.font(NEAR), FG, align="left", min_size=p.font(18))
    p.button(back_b, t("scr.back", lang), ("cancel",), hint=t("scr.key.esc", lang), size=p.font(NEAR))
    p.button(
        ok_b,
        t("scr.card.confirm", lang),
        ("play",),
        enabled=value is not None and count is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )


# --- take (the card a passing player took) -----------------------------------------------------


def draw_take(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    # Without a pass under way, the screen asks on behalf of the player whose turn it is.
    player = e.player if e is not None and e.kind == "take" else v.turn
    if player is None or not v.stacks or v.finished:
        rest = not_applicable(p, area, t("treize.take.none", lang))
        seat_grid(p, v, ui, rest, touch=False)
        return
    gap = p.px(8)
    banner = Rect(area.x, area.y, area.width, kit.banner_height(p))
    kit.turn_banner(p, banner, v.seat_of(player), player, v.players, lang)
    # The stacks' values are read by the one who touches them: under the banner's size.
    value_size = p.texts[-1].size * 4 // 5
    ask = Rect(area.x, banner.bottom, area.width, p.line_height(p.font(SMALL)))
    p.text(t("treize.take.ask", lang), ask, p.font(SMALL), FG, align="left", min_size=p.font(18))
    head = Rect(area.x, area.y, area.width, ask.bottom - area.y)
    head_h = head.height
    foot_h = p.px(60)
    body = Rect(area.x, head.bottom + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    cols = min(len(v.stacks), 2 if p.scale.portrait else 7)
    counts = {str(value): n for value, n in v.stacks}

    def stack(p: Painter, cell: Rect, key: keypad.Key) -> None:
        # The value big, how many lie on that stack under it (read from the seats too).
        p.panel(cell, None, PANEL_HI)
        top, bottom = split(cell.inflate(-p.px(8), -p.px(8)), [2, 1])
        p.text(key.label, top, value_size, FG, role="far", min_size=min(value_size, p.font(BIG)))
        p.text(
            t("treize.take.stack", lang, count=counts[key.label]),
            bottom,
            p.font(SMALL),
            MUTED,
            role="near",
            min_size=p.font(16),
        )

    keys = [keypad.Key(str(value), ("took", value)) for value, _n in v.stacks]
    keypad.entry_grid(p, body, keys, value_size, cols=cols, gap=gap, paint=stack)
    foot = Rect(area.centerx - area.width // 4, area.bottom - foot_h, area.width // 2, foot_h)
    p.button(foot, t("scr.back", lang), ("cancel",), hint=t("scr.key.esc", lang), size=p.font(NEAR))


# --- lots --------------------------------------------------------------------------------------


def draw_lots_screen(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    if v.awaiting != "starter":
        why = (
            t("treize.lots.over", lang)
            if v.finished
            else t("treize.lots.known", lang, name=spoken(v, v.starter or v.turn), n=v.game_number)
        )
        rest = not_applicable(p, area, why)
        seat_grid(p, v, ui, rest, touch=False)
        return
    kit.lots(
        p,
        area,
        v.players,
        t("treize.lots.title", lang),
        (t("treize.lots.button", lang), t("treize.lots.hint", lang)),
        lambda body: seat_grid(p, v, ui, body, touch=False),
    )


def draw_lots_overlay(p: Painter, v: View, ui: Ui, phase: float) -> None:
    """Who starts is drawn (already journaled): a light runs round the table and stops on them."""
    if v.starter is None:
        return
    overlay(
        p,
        v.players,
        v.seat_of(v.starter),
        phase,
        t("treize.lots.drawing", ui.lang),
        t("treize.lots.result", ui.lang, name=spoken(v, v.starter)),
    )


# --- scores ------------------------------------------------------------------------------------


def nice_step(span: float, ticks: int = 5) -> int:
    """A round 1-2-5 step that cuts ``span`` into at most ``ticks`` parts (the charts' ticks)."""
    return nice_ticks(span, ticks)[1]


def sheet_of(v: View, lang: str) -> sheet.Sheet:
    """The kit's sheet of the match: a column a game ("P3"), the winner's 0 in green; places
    by the lowest total; framed red at the target; the game in play framed."""
    totals = dict(v.standings)

    def places(of: dict[str, int]) -> tuple[int, ...]:
        return tuple(1 + sum(x < of[w] for x in of.values()) for w in v.players)

    now = places(totals)
    before = places(dict(v.history[-2].totals)) if len(v.history) > 1 else now
    low = min(totals.values())
    return sheet.Sheet(
        v.players,
        tuple(
            sheet.Column(
                t("treize.scores.game", lang, n=g.number),
                tuple(dict(g.scores)[w] for w in v.players),
                v.seat_of(g.winner) if g.winner in v.players else None,
            )
            for g in v.history
        ),
        tuple(totals[w] for w in v.players),
        now,
        t("treize.pts", lang),
        t("treize.scores.total", lang),
        moves=tuple(b - a for a, b in zip(now, before, strict=True)),
        first=frozenset(s for s, w in enumerate(v.players) if totals[w] == low),
        heavy=frozenset(s for s, w in enumerate(v.players) if totals[w] >= v.target),
        now=None if v.finished else t("treize.scores.game", lang, n=v.game_number),
    )


def race_chart(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Each player's total after each game, towards the finish line (the target, in red)."""
    lang = ui.lang
    p.panel(area)
    title = Rect(area.x + p.px(10), area.y + p.px(4), area.width - p.px(20), p.px(30))
    p.text(
        t("treize.scores.race", lang, target=v.target),
        title,
        p.font(SMALL),
        FG,
        align="left",
        min_size=p.font(14),
    )
    label = p.font(SMALL) * 3 // 4  # the axes: read at arm's length, at least the name line
    label = max(label, p.name_size() * 3 // 4)
    label_h = p.line_height(label)
    axis_w = p.fonts.size("20", label)[0] + p.px(10)
    axis_h = label_h + p.px(2)
    plot = Rect(
        area.x + axis_w,
        title.bottom + p.px(12),
        area.width - axis_w - p.px(40),
        area.bottom - title.bottom - axis_h - p.px(18),
    )
    if plot.width < 10 or plot.height < 10:
        return
    totals_by_game = [dict(g.totals) for g in v.history]
    top_total = max([v.target, *(n for row in totals_by_game for n in row.values())])
    step = nice_step(top_total, 4)
    top = math.ceil(top_total / step) * step
    games = max(len(v.history), 1)
    for value in range(0, top + 1, step):
        y = plot.bottom - plot.height * value // top
        pygame.draw.line(p.surface, PANEL_HI, (plot.left, y), (plot.right, y), 1)
        if value == v.target:
            continue
        p.text(
            str(value),
            Rect(area.x + p.px(2), y - label_h // 2, axis_w - p.px(6), label_h),
            label,
            MUTED,
            align="right",
            role="small",
            min_size=label,
        )
    # The finish line of the race, with its number.
    y_target = plot.bottom - plot.height * v.target // top
    pygame.draw.line(p.surface, BAD, (plot.left, y_target), (plot.right, y_target), max(2, p.px(3)))
    big = p.font(NEAR)
    p.text(
        str(v.target),
        Rect(
            plot.right + p.px(4),
            y_target - p.line_height(big) // 2,
            area.right - plot.right - p.px(6),
            p.line_height(big),
        ),
        big,
        BAD,
        align="left",
        role="near",
        min_size=label,
    )

    def xy(g: int, n: int) -> tuple[int, int]:
        return plot.left + plot.width * g // games, plot.bottom - plot.height * n // top

    xstep = nice_step(games, 8)
    for g in range(xstep, games + 1, xstep):
        x = xy(g, 0)[0]
        w = p.fonts.size(str(g), label)[0] + p.px(8)
        p.text(
            str(g),
            Rect(x - w // 2, plot.bottom + p.px(2), w, axis_h),
            label,
            MUTED,
            role="small",
            min_size=label,
        )
    kit.seat_lines(p, [[row[name] for row in totals_by_game] for name in v.players], xy, max(3, p.px(4)))


def draw_scores(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    gap = p.px(8)
    if not v.advanced:
        winner = v.history[-1].winner if v.history else None
        text = (
            t("treize.scores.basic", lang, name=spoken(v, winner))
            if winner
            else t("treize.scores.basic_none", lang)
        )
        rest = not_applicable(p, area, text)
        seat_grid(p, v, ui, rest, touch=False)
        return
    if ui.show_result and v.history and not v.finished:
        last = v.history[-1]
        band_h = p.px(120 if p.scale.portrait else 70)
        band = Rect(area.x, area.y, area.width, band_h)
        if p.scale.portrait:
            text_b, btn_b = split(band, [1.4, 1], gap=gap)
        else:
            text_b, btn_b = split(band, [1.6, 1], vertical=False, gap=gap)
        lines = (
            t("treize.scores.won", lang, n=last.number, name=spoken(v, last.winner))
            + "\n"
            + t("treize.scores.starts", lang, name=spoken(v, v.starter), n=v.game_number)
        )
        p.paragraph(lines, text_b, p.font(NEAR), GOOD, min_size=p.font(18), role="near")  # who won
        p.button(
            btn_b,
            t("treize.scores.next", lang),
            ("next",),
            color=GOOD,
            hint=t("scr.key.enter", lang),
            size=p.font(NEAR),
        )
        area = Rect(area.x, band.bottom + gap, area.width, area.height - band_h - gap)
    if not v.history:
        area = not_applicable(p, area, t("treize.scores.none", lang))
    drawn = sheet_of(v, lang)
    if p.scale.portrait:
        box, chart = split(area, [1.1, 1], gap=gap)
    else:
        box, chart = split(area, [1.3, 1], vertical=False, gap=gap)
    # The race beside the sheet keeps its axes legible where a row holds a score with half its
    # height again around it; else (the 7" screen at a full table) the kit's tiles, the race's
    # target framed after them.
    # Judged at the longest table (six), whatever this one's size: at five on the 7" screen the
    # rows held their scores, but the race's axis labels and the sheet's rounds fell to 10 px
    # (test_findings23's smaller tables); one screen keeps one form.
    roomy = area.height / (max(len(v.players), 6) + 2) >= 1.5 * kit.score_height(p)
    if not roomy or not sheet.grid_fits(p, box, len(v.players)):
        read = kit.read_size(p)

        def race(inner: Rect) -> None:
            lines_text(p, t("treize.scores.race", lang, target=v.target), inner, read, ACCENT, read)

        sheet.tiles(p, area, drawn, lang, race, now_height=p.line_height(read) + 4 * p.px(5))
        return
    sheet.grid(p, box, drawn, lang)
    # It changes once a game (it reads only the view and the language): drawn, then copied.
    p.layer(("treize.race", v, lang), chart, lambda: race_chart(p, v, ui, chart))


# --- game over ---------------------------------------------------------------------------------


def draw_gameover(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The kit's game over: the winners first and framed; the match's points in far type in
    the advanced variant, the places alone in the basic one."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    what = (
        t("treize.over.won", lang) if len(v.winners) == 1 else t("treize.over.tied", lang, n=len(v.winners))
    )
    if v.advanced and v.winners:
        what += " " + t("treize.over.points", lang, n=dict(v.standings)[v.winners[0]])
    title = ", ".join(spoken(v, w) for w in v.winners) + " " + what if len(v.winners) == 1 else what
    # Ties share a place ("1er, 1er, 3e"), as on the other games' game over.
    totals = [total for _name, total in v.standings]
    places = {
        name: (
            1 + sum(other < total for other in totals) if v.advanced else 1 if name in v.winners else s.place
        )
        for (name, total), s in zip(v.standings, (v.seats[v.seat_of(n)] for n, _ in v.standings), strict=True)
    }
    rows = [
        kit.Standing(
            v.seat_of(name),
            name,
            places[name],
            total if v.advanced else None,
            t("treize.pts", lang) if v.advanced else "",
            moved=v.seats[v.seat_of(name)].moved,
            winner=name in v.winners,
        )
        for name, total in v.standings
    ]
    kit.game_over(
        p,
        area,
        rows,
        v.players,
        lang,
        finished=v.finished,
        title=title,
        not_yet=t("treize.over.not_yet", lang, n=v.game_number),
    )


# --- end of a game entered without plays -------------------------------------------------------


def draw_end(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    e = entry_of(ui)
    if v.finished or tracking(v, ui) or v.awaiting != "play":
        why = t("treize.todo.over", lang) if v.finished else t("treize.end.none", lang)
        rest = not_applicable(p, area, why)
        seat_grid(p, v, ui, rest, touch=False)
        return
    gap = p.px(6)
    portrait = p.scale.portrait
    winner = e.player if e is not None and e.kind == "end" else None
    # The question in far type, read from the seats (the top bar names the game); who emptied
    # their hand and the cards the others hold at 4 mm, those counts in far type: the 7" rules
    # hold at every table (tests/test_findings23.py, a smaller table).
    far = kit.far_size(p)
    name_size = p.far_name_size()
    head_h = p.line_height(far)
    lines_text(
        p,
        t("treize.end.title", lang),
        Rect(area.x, area.y, area.width, head_h),
        far,
        ACCENT,  # a question for the table
        min_size=far,
        kind="headline",
        role="far",
        align="left",
    )
    foot_h = p.px(60)
    body = Rect(area.x, area.y + head_h + gap, area.width, area.height - head_h - foot_h - 2 * gap)
    if v.advanced:
        pick, left = split(body, [1, 1.3] if not portrait else [1, 1.2], vertical=portrait, gap=gap)
        if not portrait:  # the names take what their short forms need, the counts the rest
            want = max(name_size, p.font(NEAR))
            need = max(p.fonts.size(kit.first_short_form(w, v.players), want)[0] for w in v.players)
            pick_w = min(pick.width, need + p.px(32) + p.px(30))
            pick = Rect(pick.x, pick.y, pick_w, pick.height)
            left = Rect(pick.right + gap, left.y, body.right - pick.right - gap, left.height)
    else:
        pick, left = body, Rect(body.x, body.bottom, body.width, 0)
    row_h = (pick.height - gap * (len(v.seats) - 1)) // max(1, len(v.seats))
    cols = 2 if portrait or row_h < p.line_height(name_size) else 1
    for s, cell in zip(v.seats, grid(pick, len(v.seats), cols, gap), strict=False):
        chosen = winner == s.name
        fill = GOOD if chosen else PANEL_HI
        p.panel(cell, None, fill, border=FG if chosen else None)
        p.controls.append(Control(Rect(cell), ("winner", s.name)))
        inner = cell.inflate(-p.px(8), -p.px(2))
        d = min(inner.height, p.px(32))
        p.seat_mark(s.seat, (inner.x + d // 2, inner.centery), int(d * 0.42))
        p.name(
            s.name,
            v.players,
            Rect(inner.x + d + p.px(6), inner.y, inner.width - d - p.px(6), inner.height),
            max(name_size, p.font(NEAR)),
            text_on(fill),
            min_size=name_size,
        )
    if v.advanced and left.height > 0:
        read = kit.read_size(p)
        title = Rect(left.x, left.y, left.width, p.line_height(read))
        p.text(t("treize.end.left", lang), title, read, FG, align="left", min_size=read)
        others = [s for s in v.seats if s.name != winner]
        rest = Rect(left.x, title.bottom, left.width, left.bottom - title.bottom)
        # A row a player (name, −, count, +) where the count's far type holds in one; else two
        # columns of cells, the name above its count.
        line = max(p.line_height(far), kit.touch_size(p))
        stacked = (rest.height - p.px(3) * (len(others) - 1)) // max(1, len(others)) < line
        # Stacked: as many columns as a row of "−", the count and "+" (each 9 mm) allows.
        cell_w = 2 * kit.touch_size(p) + p.fonts.size("10", far)[0] + 4 * gap
        ncols = max(1, min(3, rest.width // cell_w)) if stacked else 1
        cells = grid(rest, len(others), ncols, p.px(3)) if others else []
        for s, cell in zip(others, cells, strict=False):
            n = e.left.get(s.name, v.dealt) if e is not None else v.dealt
            if stacked:
                name_row = Rect(cell.x, cell.y, cell.width, p.line_height(name_size))
                count_row = Rect(cell.x, name_row.bottom, cell.width, cell.bottom - name_row.bottom)
                touch, count_w = kit.touch_size(p), p.fonts.size("10", far)[0] + gap
                minus_b, n_b, plus_b = split(count_row, [touch, count_w, touch], vertical=False, gap=gap)
                name_b = name_row
            else:
                name_b, minus_b, n_b, plus_b = split(cell, [3.4, 1, 1, 1], vertical=False, gap=gap)
            d = min(name_b.height, p.px(28))
            p.seat_mark(s.seat, (name_b.x + d // 2, name_b.centery), int(d * 0.42))
            p.name(
                s.name,
                v.players,
                Rect(name_b.x + d + p.px(6), name_b.y, name_b.width - d - p.px(6), name_b.height),
                max(name_size, p.font(SMALL)),
                min_size=name_size,
            )
            size = max(name_size, last_size(p, p.font(SMALL)))
            p.button(minus_b, "−", ("left", s.name, -1), enabled=n > 0, size=size)
            p.text(str(n), n_b, far, FG, min_size=far, kind="score", who=s.name)
            p.button(plus_b, "+", ("left", s.name, 1), size=size)
    foot = Rect(area.x, area.bottom - foot_h, area.width, foot_h)
    back_b, ok_b = split(foot, [1, 1.4], vertical=False, gap=gap)
    p.button(back_b, t("scr.back", lang), ("cancel",), hint=t("scr.key.esc", lang), size=p.font(NEAR))
    p.button(
        ok_b,
        t("treize.end.confirm", lang),
        ("end",),
        enabled=winner is not None,
        color=GOOD,
        hint=t("scr.key.enter", lang),
        size=p.font(NEAR),
    )


# --- rules -------------------------------------------------------------------------------------


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    variant = v.variant if v is not None else ui.setup.options.get("variant", "advanced")
    lines = [t("treize.rules.body", lang), t("treize.rules.legend", lang)]
    if variant == "advanced":
        lines += [t("treize.rules.advanced", lang), t("treize.rules.ties", lang)]
    else:
        lines.append(t("treize.rules.basic", lang))
    return lines


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    seat_grid(p, v, ui, area, touch=False)


DRAWERS = {
    "table": draw_table,
    "play": draw_play,
    "take": draw_take,
    "lots": draw_lots_screen,
    "scores": draw_scores,
    "end": draw_end,
    "gameover": draw_gameover,
}

# Value keys: digits, 0 = 10, both languages' letters for 11-13 and the numpad (/ * - as Kilo's).
VALUE_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d for d in range(1, 10)},
    pygame.K_0: 10,
    pygame.K_KP0: 10,
    pygame.K_j: 11,
    pygame.K_v: 11,
    pygame.K_KP_DIVIDE: 11,
    pygame.K_q: 12,
    pygame.K_d: 12,
    pygame.K_KP_MULTIPLY: 12,
    pygame.K_k: 13,
    pygame.K_r: 13,
    pygame.K_KP_MINUS: 13,
}
COUNT_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d for d in range(1, 10)},
}


# --- the simulated table's moves on the queue --------------------------------------------------


@dataclass(frozen=True)
class SimPlay:
    play: Play


@dataclass(frozen=True)
class SimTook:
    player: str
    value: int


@dataclass(frozen=True)
class SimNext:
    pass


@dataclass(frozen=True)
class SimDone:
    pass


@dataclass(frozen=True)
class SimMoves:
    """A move the simulated table decided for one state of the game (its journal's ``seq``),
    sent a moment later: if the table moved on meanwhile (an undo), the move is not played."""

    game_id: str
    seq: int
    items: tuple[Any, ...]


class TreizeScreens(GameScreens):
    game = "treize"
    title = "13 feuilles"
    screens = ("table", "play", "take", "lots", "scores", "end", "gameover")
    nav = (("table", "T"), ("scores", "G"))
    anim_seconds = LOTS_SECONDS

    def __init__(self) -> None:
        self._bots: dict[str, AutoPlayer] = {}
        self._tried: dict[str, tuple[int, bool]] = {}

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        e = entry_of(ui)
        if view.finished:
            return "gameover"
        if ui.show_result and view.history:
            return "scores"
        if view.awaiting == "starter":
            return "lots"
        if e is not None:
            return e.kind
        return "table"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        return self.headline_for(view, Ui(lang=lang))

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        lang = ui.lang
        if view.finished:
            games = len(view.history)
            left = (
                t("treize.head.over_basic", lang)
                if not view.advanced
                else t("treize.head.over", lang, games=games)
            )
        else:
            left = t("treize.head.game", lang, n=view.game_number, trick=view.trick)
        return left, todo_text(view, ui)

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        draw_lots_overlay(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def press(self, app: Any, seat: int, t_us: int, res_us: int | None = None) -> None:
        game: TreizeGame = app.table.engine
        if not 0 <= seat < len(game.players):
            return
        if game.awaiting == "starter":
            self.do(app, ("lots",))
        elif app.ui.show_result:
            self.do(app, ("next",))
        else:
            self._pass(app, game.players[seat])

    def _pass(self, app: Any, name: str, took: int | None = None) -> None:
        """A player passes: journaled at once, or after the table says which card was taken."""
        game: TreizeGame = app.table.engine
        ui: Ui = app.ui
        app.dirty = True
        helper = bool(ui.setup.options.get("helper", True))
        if (
            game.mode is None
            and helper
            and game.series is not None
            and game.series.empty
            and game.turn is not None
        ):
            # The series helper is on: a game's first event is its starter's play.
            who = short_name(name, game.players)
            leader = short_name(game.turn, game.players)
            ui.say(
                t("treize.msg.lead_first", "fr", name=who, leader=leader),
                t("treize.msg.lead_first", "en", name=who, leader=leader),
            )
            return
        options = game.take_options() if game.mode == "plays" else ()
        if took is None and len(options) == 1:
            took = options[0]
        event = Pass(player=name, took=took)
        if took is None and len(options) > 1:
            try:
                game.check(Pass(player=name, took=options[0]))
            except RuleError as err:
                say(ui, err)
                return
            ui.entry = Entry("take", name)
            ui.screen = None
            ui.message = None
            return
        self._submit(app, event)

    def _submit(self, app: Any, event: Any) -> bool:
        game = app.table.engine
        try:
            game.check(event)
        except RuleError as err:
            say(app.ui, err)
            app.dirty = True
            return False
        return bool(app.submit(event))

    def keys_are_buttons(self, app: Any, screen: str) -> bool:
        return screen not in ("play", "take", "end")

    def after(self, app: Any, event: Any, before: View | None) -> None:
        v: View = app.view
        ui: Ui = app.ui
        bot = self._bots.get(app.table.game_id)
        if bot is not None:
            bot.observe(event, v.game_number)
        if isinstance(event, (Pass, Play, Starter, GameEnd, Undo)):
            ui.entry = None
            ui.screen = None
        if isinstance(event, Starter):
            ui.anim_start = app.now()
            who = spoken(v, event.player)
            ui.say(t("treize.msg.lots", "fr", name=who), t("treize.msg.lots", "en", name=who), error=False)
        elif isinstance(event, Pass):
            app.sounds.play("slap")
        if before is not None and len(v.history) > len(before.history):
            app.sounds.play("loser")
            ui.show_result = not v.finished and v.advanced
        if isinstance(event, Undo):
            ui.show_result = False

    def undone(self, engine: Any, lang: str) -> str | None:
        event = engine.last_undone
        if isinstance(event, Play):
            return t(
                "treize.undone.play",
                lang,
                name=short_name(event.player, engine.players),
                count=event.count,
                value=event.value,
            )
        if isinstance(event, Pass):
            return t("treize.undone.pass", lang, name=short_name(event.player, engine.players))
        if isinstance(event, Starter):
            return t("treize.undone.starter", lang)
        if isinstance(event, GameEnd):
            return t("treize.undone.end", lang)
        return None

    def do(self, app: Any, action: Action) -> bool:
        kind = action[0]
        ui: Ui = app.ui
        v: View | None = app.view
        game: TreizeGame | None = app.table.engine if app.table is not None else None
        if v is None or game is None:
            return False
        e = entry_of(ui)
        if kind == "lots":
            if game.awaiting == "starter":
                self._submit(app, draw_lots(lots_rng(app.seed, game.game_number), game))
        elif kind == "next":
            ui.show_result = False
            ui.screen = None
        elif kind == "pass":
            self._pass(app, str(action[1]))
        elif kind == "took":
            player = e.player if e is not None and e.kind == "take" else v.turn
            if player is not None:
                self._pass(app, player, int(str(action[1])))
        elif kind == "play_open":
            if v.turn is not None and tracking(v, ui) and v.awaiting == "play":
                ui.entry = Entry("play", v.turn)
                ui.screen = None
        elif kind == "value":
            self._value(app, v, int(str(action[1])))
        elif kind == "count":
            if e is None or e.kind != "play" or e.value is None:
                ui.say(t("treize.msg.pick_value", "fr"), t("treize.msg.pick_value", "en"))
                return True
            self._count(app, v, e, int(str(action[1])))
        elif kind == "why":
            key = str(action[1])
            if key.startswith("v"):
                self._value(app, v, int(key[1:]))
            elif e is not None and e.value is not None:
                self._count(app, v, e, int(key[1:]))
        elif kind == "play":
            if e is None or e.kind != "play" or e.value is None:
                ui.say(t("treize.msg.pick_value", "fr"), t("treize.msg.pick_value", "en"))
            elif e.count is None:
                ui.say(t("treize.msg.pick_count", "fr"), t("treize.msg.pick_count", "en"))
            elif v.turn is not None:
                self._submit(app, Play(player=v.turn, value=e.value, count=e.count))
        elif kind == "helper":
            if v.mode is None and not v.finished:
                ui.setup.options["helper"] = not tracking(v, ui)
            else:
                ui.say(t("treize.msg.helper_fixed", "fr"), t("treize.msg.helper_fixed", "en"))
        elif kind == "end_open":
            if not tracking(v, ui) and not v.finished:
                ui.entry = Entry("end")
                ui.screen = None
        elif kind == "winner":
            if e is not None and e.kind == "end":
                e.player = str(action[1])
        elif kind == "left":
            if e is not None and e.kind == "end":
                name = str(action[1])
                e.left[name] = max(0, e.left.get(name, v.dealt) + int(str(action[2])))
        elif kind == "end":
            if e is None or e.kind != "end" or e.player is None:
                ui.say(t("treize.msg.pick_winner", "fr"), t("treize.msg.pick_winner", "en"))
            else:
                winner = e.player
                left = (
                    {s.name: e.left.get(s.name, v.dealt) for s in v.seats if s.name != winner}
                    if v.advanced
                    else None
                )
                self._submit(app, GameEnd(winner=winner, left=left))
        else:
            return False
        app.dirty = True
        return True

    def _value(self, app: Any, v: View, value: int) -> None:
        ui: Ui = app.ui
        e = entry_of(ui)
        if v.turn is None:
            return
        if e is None or e.kind != "play":
            e = ui.entry = Entry("play", v.turn)
        opt = v.option(value)
        if opt is None:
            # The engine's own sentence: "Bea ne peut pas jouer 2 × 6 : pas de carte entre 4 et 9".
            least = 1
            if v.low is not None and v.high is not None:
                least = v.low[1] if value <= v.low[0] else v.high[1] if value >= v.high[0] else 1
            try:
                app.table.engine.check(Play(player=v.turn, value=value, count=least))
            except RuleError as err:
                say(ui, err)
            return
        ui.message = None
        e.value = value
        e.count = opt[0] if opt[0] == opt[1] else None

    def _count(self, app: Any, v: View, e: Entry, count: int) -> None:
        ui: Ui = app.ui
        if e.value is None or v.turn is None:
            return
        try:
            app.table.engine.check(Play(player=v.turn, value=e.value, count=count))
        except RuleError as err:
            say(ui, err)
            return
        ui.message = None
        e.count = count

    def confirm(self, app: Any, screen: str) -> Action | None:
        v: View = app.view
        ui: Ui = app.ui
        if screen == "lots" and v.awaiting == "starter":
            return ("lots",)
        if screen == "scores" and ui.show_result:
            return ("next",)
        if screen == "play":
            return ("play",)
        if screen == "end":
            return ("end",)
        if screen == "table":
            if v.awaiting == "starter":
                return ("lots",)
            if not tracking(v, ui):
                return ("end_open",)
            return ("play_open",)
        return None

    def cancel(self, app: Any, screen: str) -> bool:
        """Escape drops what is half entered (Backspace steps back one tap)."""
        ui: Ui = app.ui
        if entry_of(ui) is None:
            return False
        ui.entry = None
        ui.screen = None
        return True

    def key(self, app: Any, key: int, mod: int, screen: str) -> bool:
        ui: Ui = app.ui
        e = entry_of(ui)
        if screen == "play" and e is not None and e.kind == "play":
            if key == pygame.K_BACKSPACE and (e.value is not None):
                if e.count is not None:
                    e.count = None
                else:
                    e.value = None
                app.dirty = True
                return True
            # Digits are the value until one is chosen, then how many; 0 and the letters
            # (10 to 13) always change the value.
            if e.value is not None and key in COUNT_KEYS:
                self.do(app, ("count", COUNT_KEYS[key]))
            elif key in VALUE_KEYS:
                self.do(app, ("value", VALUE_KEYS[key]))
            else:
                return False
            return True
        if screen == "table" and key == pygame.K_a:
            self.do(app, ("helper",))
            return True
        if screen == "take" and e is not None and e.kind == "take" and key in VALUE_KEYS:
            self.do(app, ("took", VALUE_KEYS[key]))
            return True
        return False

    def handle(self, app: Any, item: Any) -> bool:
        if isinstance(item, SimMoves):
            if (app.table.game_id, app.table.seq) != (item.game_id, item.seq):
                app.sim_done()  # decided for a state that is gone: decide again for this one
            else:
                for part in item.items:
                    app.handle_item(part)
        elif isinstance(item, SimPlay):
            play = item.play
            if app.view is not None and app.view.turn == play.player:
                self.do(app, ("play_open",))
                self.do(app, ("value", play.value))
                self.do(app, ("count", play.count))
                self.do(app, ("play",))
        elif isinstance(item, SimTook):
            e = entry_of(app.ui)
            if e is not None and e.kind == "take" and e.player == item.player:
                self.do(app, ("took", item.value))
        elif isinstance(item, SimNext):
            if app.ui.show_result:
                self.do(app, ("next",))
        elif isinstance(item, SimDone):
            app.sim_done()
        else:
            return False
        return True

    def _bot(self, app: Any) -> AutoPlayer:
        game_id = app.table.game_id
        bot = self._bots.get(game_id)
        if bot is None:
            events = [e for _, e in app.journal.events(game_id)] if app.journal else []
            bot = (
                AutoPlayer.from_events(app.seed, events)
                if events
                else AutoPlayer(app.seed, app.table.engine.players)
            )
            self._bots[game_id] = bot
        return bot

    def simulate(self, app: Any, sim: Any) -> None:
        """The simulated table: a pass is the player's button, a play is entered in two taps."""
        game: TreizeGame = app.table.engine
        state = (app.table.seq, app.ui.show_result)
        if self._tried.get(app.table.game_id) == state:
            return  # this very state was tried and refused: wait for the table
        self._tried[app.table.game_id] = state
        bot = self._bot(app)
        items: list[Any] = []
        if app.ui.show_result:
            items.append(SimNext())
        else:
            move = bot.decide(game, app.seed)
            if move is None:
                return
            if isinstance(move, (Starter, Pass)):
                seat = (
                    game.players.index(move.player)
                    if isinstance(move, Pass)
                    else bot.moves % len(game.players)
                )
                t_us = (bot.moves + 1) * 1_000_000
                items.append(InputEvent("seat", seat, "press", t_us * 1000, SIM_CLOCK, "sim"))
                items.append(InputEvent("seat", seat, "release", (t_us + 110_000) * 1000, SIM_CLOCK, "sim"))
                if isinstance(move, Pass) and move.took is not None:
                    items.append(SimTook(move.player, move.took))
            elif isinstance(move, Play):
                items.append(SimPlay(move))
        items.append(SimDone())
        app.sim_busy = True
        delay = SIM_MOVE_S / app.speed if app.speed else 0.0

        moves = SimMoves(app.table.game_id, app.table.seq, tuple(items))

        def send() -> None:
            app.inbox.put(moves)  # one item: nothing can come between its parts

        if delay:
            timer = threading.Timer(delay, send)
            timer.daemon = True
            timer.start()
        else:
            send()

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return not engine.finished

    def leds(self, engine: Any) -> LedPlan:
        """Lit while in the trick; all lit while lots are to be drawn (any button draws)."""
        game: TreizeGame = engine
        if game.finished:
            return LedPlan("off")
        return LedPlan("idle", lit=tuple(game.players.index(p) for p in game.in_trick))

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        form.options["variant"] = engine.variant

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        variant = form.options.get("variant", "advanced")
        helper = "on" if form.options.get("helper", True) else "off"
        return [
            SetupItem(
                t(f"treize.setup.variant.{variant}", lang),
                t(f"treize.setup.variant.{variant}.help", lang),
                ("variant",),
            ),
            SetupItem(
                t(f"treize.btn.helper.{helper}", lang),
                t(f"treize.setup.helper.{helper}.help", lang),
                ("helper_setup",),
            ),
        ]

    def setup_action(self, form: SetupForm, action: Action) -> bool:
        if action[0] == "variant":
            current = form.options.get("variant", "advanced")
            form.options["variant"] = "basic" if current == "advanced" else "advanced"
            return True
        if action[0] == "helper_setup":
            form.options["helper"] = not form.options.get("helper", True)
            return True
        return False

    def new_game(self, form: SetupForm, names: list[str]) -> NewTreizeGame:
        return NewTreizeGame(players=names, variant=form.options.get("variant", "advanced"))


__all__ = ["Entry", "TreizeScreens", "nice_step"]
