"""The game-over screen: the standings."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game
from companion.display.layout import Painter
from companion.display.state import Ui
from companion.games.treize.draw.common import spoken
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

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
