"""Drawing lots for the first dealer: the screen and its overlay."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game, not_applicable
from companion.display.layout import Painter
from companion.display.lots import draw_lots_overlay as overlay
from companion.display.state import Ui
from companion.games.cinq_rois.actions import DrawLots, PickDealer, SkipLots
from companion.games.cinq_rois.draw.common import draw_seats, said, tr
from companion.games.cinq_rois.view import (
    View,
)
from companion.i18n import t

Rect = pygame.Rect


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
        (tr("lots.button", lang), tr("lots.hint", lang), DrawLots()),
        lambda body: draw_seats(p, v, ui, body, action=PickDealer),
        skip=(tr("lots.skip", lang, name=said(v, v.players[0])), t("scr.key.esc", lang), SkipLots()),
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
