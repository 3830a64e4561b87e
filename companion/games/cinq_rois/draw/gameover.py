"""The game-over screen: the final standings."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.games.cinq_rois.draw.common import said, tr
from companion.games.cinq_rois.view import (
    View,
)

Rect = pygame.Rect


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
