"""What the table hears in Les Cinq Rois (display/voice.py): each round's dealer and who plays
first, once the dealer is known, and the game's end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.display.voice import names_said
from companion.games.cinq_rois.view import View
from companion.i18n import register, t

STRINGS: dict[str, tuple[str, str]] = {
    "say.cinq.turn": (
        "Donne {round} : {dealer} donne, {first} commence.",
        "Round {round}: {dealer} deals, {first} plays first.",
    ),
    "say.cinq.end": (
        "Partie terminée : {names} {n|gagne|gagnent} avec {points} {points|point|points}.",
        "Game over: {names} {n|wins|win} with {points} {points|point|points}.",
    ),
}
register(STRINGS)


def spoken(before: View, view: View, event: Any, lang: str, name: Callable[[str], str]) -> str | None:
    if view.finished:
        if before.finished or not view.winners:
            return None
        winners = [name(n) for n in view.winners]
        points = min(view.totals)
        return t("say.cinq.end", lang, names=names_said(winners, lang), n=len(winners), points=points)
    turn = (view.round, view.dealer, view.first_player)
    if (
        view.dealer is None
        or view.first_player is None
        or turn == (before.round, before.dealer, before.first_player)
    ):
        return None
    return t("say.cinq.turn", lang, round=view.round, dealer=name(view.dealer), first=name(view.first_player))
