"""What the table hears in Kilo de merde (display/voice.py): the verdict ("Chloé, de 3
millisecondes"), the card drawn and its kilos, the flush of a 7, the game's end. Sentences are
written to be said: units in words, no abbreviation a voice would spell out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.cards import parse_card
from companion.display.voice import margin_said, names_said
from companion.games.kilo.view import SlapView, View
from companion.i18n import register, t

STRINGS: dict[str, tuple[str, str]] = {
    "say.kilo.lost_by": ("{name}, de {margin}.", "{name}, by {margin}."),
    "say.kilo.tie": (
        "Égalité à la dernière place : {names} piochent.",
        "Tie for last place: {names} draw.",
    ),
    "say.kilo.timeout": (
        "{names} {n|n'a|n'ont} pas tapé : {n|pioche|piochent}.",
        "{names} never slapped: {n|draws|draw}.",
    ),
    "say.kilo.false": ("Fausse tape : {names} {n|pioche|piochent}.", "False slap: {names} {n|draws|draw}."),
    "say.kilo.reslap": ("Égalité pour la dernière place : on retape.", "Tie for last place: slap again."),
    "say.kilo.draw": (
        "{name} : {card}, {kilos} {kilos|kilo|kilos}.",
        "{name}: {card}, {kilos} {kilos|kilo|kilos}.",
    ),
    "say.kilo.flush": (
        "Chasse d'eau ! {name} tire un sept : {count} {count|carte part|cartes partent} sous le "
        "tas, retour à zéro.",
        "Flush! {name} draws a seven: {count} {count|card goes|cards go} under the pile, back to zero.",
    ),
    "say.kilo.end": (
        "Partie terminée : {names} {n|gagne|gagnent} avec {kilos} {kilos|kilo|kilos}.",
        "Game over: {names} {n|wins|win} with {kilos} {kilos|kilo|kilos}.",
    ),
}
register(STRINGS)


def verdict(slap: SlapView, lang: str, name: Callable[[str], str]) -> str:
    names = [name(n) for n in slap.losers]
    said = names_said(names, lang)
    if slap.reslap:
        return t("say.kilo.reslap", lang)
    if not slap.valid:
        return t("say.kilo.false", lang, names=said, n=len(names))
    if slap.non_pressers:
        return t("say.kilo.timeout", lang, names=said, n=len(names))
    if slap.tied:
        return t("say.kilo.tie", lang, names=said)
    margin = margin_said(slap.margin_us or 0, slap.margin_res_us, lang)
    return t("say.kilo.lost_by", lang, name=said, margin=margin)


def spoken(before: View, view: View, event: Any, lang: str, name: Callable[[str], str]) -> str | None:
    """Said on what changed between the two views (a new judged slap, a new card), not on the
    event's type: a slap judged again by a late press is said again, in place of the first."""
    parts: list[str] = []
    slap = view.last_slap
    if slap is not None and slap.valid is not None and (view.slaps, slap) != (before.slaps, before.last_slap):
        parts.append(verdict(slap, lang, name))
    draw = view.last_draw
    if draw is not None and (view.draws, draw) != (before.draws, before.last_draw):
        who = name(draw.player)
        if draw.flushed:
            parts.append(t("say.kilo.flush", lang, name=who, count=draw.flushed))
        else:
            card = parse_card(draw.card).name_in(lang)
            parts.append(t("say.kilo.draw", lang, name=who, card=card, kilos=draw.kilos))
    if view.finished and not before.finished and view.winners:
        kilos = min(s.kilos for s in view.seats)
        winners = [name(n) for n in view.winners]
        parts.append(t("say.kilo.end", lang, names=names_said(winners, lang), n=len(winners), kilos=kilos))
    return " ".join(parts) or None
