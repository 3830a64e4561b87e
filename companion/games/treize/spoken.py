"""What the table hears in 13 feuilles (display/voice.py): whose turn it is, who won a game, and
the match's end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.display.voice import names_said
from companion.games.treize.view import View
from companion.i18n import register, t

STRINGS: dict[str, tuple[str, str]] = {
    "say.treize.turn": ("À {name} de jouer.", "{name} to play."),
    "say.treize.won": ("{name} gagne la partie {number}.", "{name} wins game {number}."),
    "say.treize.end": (
        "Fin du match : {names} {n|gagne|gagnent}.",
        "End of the match: {names} {n|wins|win}.",
    ),
}
register(STRINGS)


def spoken(before: View, view: View, event: Any, lang: str, name: Callable[[str], str]) -> str | None:
    parts: list[str] = []
    if len(view.history) > len(before.history):
        game = view.history[-1]
        parts.append(t("say.treize.won", lang, name=name(game.winner), number=game.number))
    if view.finished:
        if not before.finished and view.winners:
            winners = [name(n) for n in view.winners]
            parts.append(t("say.treize.end", lang, names=names_said(winners, lang), n=len(winners)))
    elif view.turn is not None and ((view.turn, view.trick) != (before.turn, before.trick) or parts):
        parts.append(t("say.treize.turn", lang, name=name(view.turn)))
    return " ".join(parts) or None
