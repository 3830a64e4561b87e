"""The table screen (who has what, the pile's count) and the score strip under the status."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game, split
from companion.display.layout import Painter
from companion.display.names import short_name
from companion.display.state import Ui
from companion.display.theme import (
    ACCENT,
    MUTED,
    READ,
    SMALL,
)
from companion.games.kilo.actions import DrawLots, SetStarter
from companion.games.kilo.draw.common import columns_for, kilo_low, standing
from companion.games.kilo.view import SeatView, View
from companion.i18n import t

Rect = pygame.Rect


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
        p.button(lots_b, t("scr.lots.button", lang), DrawLots(), color=ACCENT, hint="D", size=p.font(SMALL))
    elif v.dealer and v.slaps == 0:
        pile = t("scr.lots.dealer", lang, name=short_name(v.dealer, v.players)) + " · " + pile
    p.text(pile, info, p.font(READ), MUTED, align="left", min_size=p.font(16))
    _tiles(p, v, lang, tiles_area)


def _tiles(
    p: Painter, v: View, lang: str, tiles_area: Rect, order: tuple[SeatView, ...] | None = None
) -> None:
    """The kit's tiles in seating order (a tile never moves during the game); touching one
    before the first slap of a round marks who starts."""
    seats = {s.name: s for s in v.seats}
    act = (lambda st: SetStarter(st.who)) if v.awaiting == "play" else None
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


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Compact standings for screens whose own content is not about the scores: the table's
    tiles, in seating order as on the table (a player's tile never jumps when places change)."""
    _tiles(p, v, ui.lang, area)


# --- pile --------------------------------------------------------------------------------------
