"""Drawing lots for who starts: the screen and its overlay."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game, not_applicable
from companion.display.layout import Painter
from companion.display.lots import draw_lots_overlay as overlay
from companion.display.state import Ui
from companion.games.treize.actions import DrawLots
from companion.games.treize.draw.common import spoken
from companion.games.treize.draw.pieces import seat_grid
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

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
        (t("treize.lots.button", lang), t("treize.lots.hint", lang), DrawLots()),
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
