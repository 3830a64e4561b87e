"""The game-over screen: the standings and the winners."""

from __future__ import annotations

import pygame

from companion.display import kit
from companion.display.blocks import no_game
from companion.display.layout import Painter
from companion.display.names import short_name
from companion.display.state import Ui
from companion.display.theme import (
    BAD,
    MUTED,
)
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


def draw_gameover(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """The kit's game over: everyone by place, the winners first and framed, the heaviest
    framed as who carries the most home; before the end, provisional standings."""
    if v is None:
        return no_game(p, ui, area)
    lang = ui.lang
    first = [s for s in v.standings if s.place == 1]
    kilos = first[0].kilos
    names = ", ".join(short_name(s.name, v.players) for s in first)
    title = (
        t("winners", lang, names=names, kilos=kilos)
        if len(first) == 1
        else t("co_winners", lang, names=names, kilos=kilos)
    )
    notes = []
    if v.end_reason == "pile_empty":
        notes.append((t("ended.pile_empty", lang), MUTED))
    heaviest = max(s.kilos for s in v.seats)
    heavy = [s.name for s in v.seats if s.kilos == heaviest] if heaviest > kilos else []
    if v.finished and heavy:
        # The table always wants to know who carries the most home.
        notes.append(
            (
                t(
                    "scr.over.heaviest",
                    lang,
                    n=len(heavy),
                    kilos=heaviest,
                    names=", ".join(short_name(n, v.players) for n in heavy),
                ),
                BAD,
            )
        )
    rows = [
        kit.Standing(
            s.seat,
            s.name,
            s.place,
            s.kilos,
            "kg",
            moved=s.moved,
            winner=s.place == 1,
            marked=v.finished and s.name in heavy,
        )
        for s in v.standings
    ]
    kit.game_over(
        p,
        area,
        rows,
        v.players,
        lang,
        finished=v.finished,
        title=title,
        not_yet=t("scr.over.not_yet", lang, round=v.round, rounds=v.rounds),
        notes=notes,
    )


# --- rules -------------------------------------------------------------------------------------
