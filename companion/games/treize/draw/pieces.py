"""Pieces of 13 feuilles' screens: the seats, the stacks, what may be played, the series."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.app_actions import Nav
from companion.display.blocks import split
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    FG,
    GOOD,
    MUTED,
    NEAR,
    PANEL_HI,
    SMALL,
    WARN,
)
from companion.games.treize.actions import DrawLots, OpenEnd, OpenPlay, PassTurn, ToggleHelper
from companion.games.treize.draw.common import spoken, todo_text, tracking
from companion.games.treize.view import SeatView, View
from companion.i18n import count, t
from companion.i18n import french_typography as _typo

Rect = pygame.Rect

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
        act=(lambda s: PassTurn(s.who)) if touch else None,
        cols=1 if p.scale.portrait or n <= 3 else 2,
        top=top,
    )


def allowed_text(v: View, lang: str) -> str:
    """What the player to play may put down, in one sentence; that they can only pass when no
    value the series allows is within the cards in their hand."""
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
        p.button(btn_b, t("scr.nav.gameover", lang), Nav("gameover"), size=p.font(NEAR))
    elif v.awaiting == "starter":
        p.button(btn_b, t("treize.lots.button", lang), DrawLots(), color=GOOD, hint=enter, size=p.font(NEAR))
    elif not tracking(v, ui):
        p.button(btn_b, t("treize.btn.end", lang), OpenEnd(), color=ACCENT, hint=enter, size=p.font(NEAR))
    else:
        p.button(
            btn_b,
            t("treize.btn.play_short", lang),
            OpenPlay(),
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
            ToggleHelper(),
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
