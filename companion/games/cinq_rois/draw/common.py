"""What several of Les Cinq Rois' screens share: the top bar's words, the seats' standings."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from companion.display import kit
from companion.display.blocks import rank_label
from companion.display.layout import Action, Painter
from companion.display.names import short_name
from companion.display.state import Ui
from companion.display.theme import (
    BAD,
    GOOD,
)
from companion.games.cinq_rois.entry import RoundEntry, _fr
from companion.games.cinq_rois.view import (
    ArrangementView,
    View,
)
from companion.i18n import t

Rect = pygame.Rect


LOTS_SECONDS = 1.6


def tr(key: str, lang: str, **values: object) -> str:
    return t("cinq." + key, lang, **values)


def typo(text: str, lang: str) -> str:
    """French typography for sentences that come from the rules engine."""
    return _fr(text) if lang == "fr" else text


# --- cards -------------------------------------------------------------------------------------


def arrangement_groups(
    a: ArrangementView,
) -> list[tuple[list[tuple[str, str | None]], tuple[int, int, int] | None]]:
    groups: list[tuple[list[tuple[str, str | None]], tuple[int, int, int] | None]] = []
    for combo in a.combinations:
        groups.append(
            (
                [(c.card, c.stands_for if c.wild and c.card != c.stands_for else None) for c in combo.cards],
                GOOD,
            )
        )
    if a.left:
        groups.append(([(c, None) for c in a.left], BAD))
    return groups


# --- text helpers ------------------------------------------------------------------------------


def said(v: View, name: str | None) -> str:
    """A player's name inside a sentence: whole when short, else a short form unique at the
    table ("Anne-Sophie Ca."), so that sentences need no cutting."""
    return short_name(name, v.players) if name else ""


# --- headline and sheet ------------------------------------------------------------------------


def headline_detail(v: View, lang: str) -> str:
    """ "7 cartes, atout 7, donneur Ana, Ben commence" (the bonus rank as the language writes it:
    atout V, D, R in French; long names shortened the way a table does)."""
    return tr(
        "head.detail",
        lang,
        cards=v.cards,
        bonus=rank_label(v.bonus or "", lang),
        dealer=said(v, v.dealer),
        first=said(v, v.first_player),
    )


def headline_text(v: View, lang: str) -> str:
    """ "Donne 5 : 7 cartes, atout 7, donneur Ana, Ben commence"."""
    if v.finished:
        return typo(v.headline[0] if lang == "fr" else v.headline[1], lang)
    return tr("headline", lang, round=v.round, detail=headline_detail(v, lang))


def todo_text(v: View, ui: Ui, lang: str) -> str:
    if v.finished:
        return tr("todo.over", lang)
    entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == v.round else None
    if v.dealer_open and (entry is None or not entry.lots_skipped) and (entry is None or entry.out is None):
        return tr("todo.lots", lang)
    if entry is not None and entry.out is not None and entry.pending:
        return tr("todo.last_turns", lang, name=said(v, entry.pending[0]))
    if entry is not None and entry.out is not None:
        return tr("todo.entry", lang)
    return tr("todo.play", lang)


def seat_strip(p: Painter, v: View, ui: Ui, area: Rect) -> None:
    """Totals in seating order, for the hardware status screen: the kit's tiles."""
    if v is None:
        return
    draw_seats(p, v, ui, area)


def standings(v: View, lang: str, highlight: int | None = None) -> list[kit.Standing]:
    """The players in seating order as the kit's tiles show them: place, total in far type,
    the places gained or lost in the last round."""
    return [
        kit.Standing(
            s, name, v.places[s], v.totals[s], tr("pts", lang), moved=v.moves[s], acting=s == highlight
        )
        for s, name in enumerate(v.players)
    ]


def draw_seats(
    p: Painter,
    v: View,
    ui: Ui,
    area: Rect,
    highlight: int | None = None,
    action: Callable[[int], Action] | None = None,
) -> None:
    """The kit's tiles in seating order; ``highlight`` (the dealer) framed in its seat colour;
    ``action``: touching a tile picks that seat."""
    kit.tiles(
        p,
        area,
        standings(v, ui.lang, highlight),
        v.players,
        ui.lang,
        act=(lambda s: action(s.seat)) if action is not None else None,
    )
