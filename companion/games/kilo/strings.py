"""Kilo de merde's own error templates, French then English (``i18n.register``); the strings of
its screens are in the catalogue and ``draw/common.py``."""

from __future__ import annotations

from companion.i18n import register

ERRORS: dict[str, tuple[str, str]] = {
    "kilo.rules.check_foreign": (
        "{kind} n'est pas un événement du Kilo de merde",
        "{kind} is not an event of Kilo de merde",
    ),
    "kilo.rules.player": (
        "joueur inconnu {name!r} (joueurs : {names_self_players})",
        "unknown player {name!r} (players: {names_self_players})",
    ),
    "kilo.rules.check_dealer": (
        "le premier donneur se tire une fois, avant la première tape{who}",
        "the first dealer is drawn once, before the first slap{who}",
    ),
    "kilo.rules.check_undo": (
        "rien à annuler : aucun verdict ni tirage n'est en vigueur",
        "there is nothing to undo: no verdict or draw is in force",
    ),
    "kilo.rules.check_draw": (
        "la partie est finie : on ne pioche plus",
        "the game is over: no more cards are drawn",
    ),
    "kilo.rules.check_draw.2": (
        "{player} ne doit pas piocher : c'est à {names_s_owed} de piocher",
        "{player} does not owe a draw: {names_s_owed} must draw",
    ),
    "kilo.rules.check_verdict": (
        "la partie est finie : il n'y a pas de tape à juger",
        "the game is over: there is no slap to judge",
    ),
    "kilo.rules.check_verdict.2": (
        "il faut d'abord piocher : {names_s_owed} doit piocher",
        "draws are owed first: {names_s_owed} must draw",
    ),
    "kilo.rules.check_verdict.3": (
        "pas de tape à juger : personne n'a tapé depuis le dernier verdict",
        "there is no slap to judge: nobody has pressed since the last verdict",
    ),
    "kilo.rules.check_verdict.4": (
        "'penalized' ne va qu'avec une fausse tape ({valid_false})",
        "'penalized' goes with a false slap ({valid_false}) only",
    ),
    "kilo.rules.check_verdict.5": (
        "un joueur est nommé deux fois dans 'penalized'",
        "a player is named twice in 'penalized'",
    ),
    "kilo.rules.check_outage": (
        "un arrêt finit après son début, pas à {to_us} avant {from_us}",
        "an outage ends after it begins, not at {to_us} before {from_us}",
    ),
    "kilo.rules.check_draw.3": (
        "{player} ne doit pas piocher : personne ne le doit (on pioche après un verdict)",
        "{player} does not owe a draw: nobody does (a draw follows a verdict)",
    ),
    "kilo.rules.check_verdict.6": (
        "{name} ne peut pas être pénalisé pour une tape par erreur : {name} n'a pas tapé cette fois",
        "{name} cannot be penalized for slapping in error: {name} did not press in this slap",
    ),
    "kilo.events.count": (
        "le Kilo de merde se joue de 3 à 10 joueurs, pas {n_players}",
        "Kilo de merde is played by 3 to 10 players, not {n_players}",
    ),
}

register(ERRORS)
