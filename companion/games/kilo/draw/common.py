"""What several of Kilo de merde's screens share: the top bar's question, the seats' standings
and the strings only the screens use."""

from __future__ import annotations

import pygame

from companion.cards import RANKS
from companion.display import kit
from companion.display.chips import card_chips
from companion.display.layout import Painter
from companion.display.names import short_name
from companion.display.theme import (
    BAD,
    FG,
    MUTED,
    Color,
)
from companion.games.kilo.view import SeatView, View
from companion.i18n import register, t

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
        # The card entry's line of the ranks that cannot be drawn (set aside, not offered as keys).
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
