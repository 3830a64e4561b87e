"""Kilo de merde's own error templates, French then English (``i18n.register``); the strings of
its screens are in the catalogue and ``draw/common.py``.

Why a card cannot be the next off the pile: the rules engine (``rules.py: KiloGame.check_card``)
finds the reason and its facts; the sentences, and the French agreement with the rank's gender
("les Dames sont distribuées", "les Rois sont distribués": ``{ranks&distribués|distribuées}``),
are written here, so that the engine holds no grammar (the ranks' and cards' names are
``cards.RankName`` and ``cards.CardName``).
"""

from __future__ import annotations

from companion.i18n import register

ERRORS: dict[str, tuple[str, str]] = {
    "kilo.card.not_in_deck": (
        "{card} n'est pas dans un jeu de Kilo de merde : 52 cartes, couleurs {suits}, sans joker",
        "{card} is not in a Kilo de merde deck: 52 cards, suits {suits}, no joker",
    ),
    "kilo.card.dealt": (
        "{card} ne peut pas être pioché : les {ranks} sont {ranks&distribués|distribuées} aux "
        "joueurs à {players} joueurs, le tas contient {held}",
        "{card} cannot be drawn: {ranks} are dealt to the players at {players} players, the pile "
        "holds {held}",
    ),
    "kilo.card.pile_empty": (
        "{card} ne peut pas être pioché : le tas est vide",
        "{card} cannot be drawn: the pile is empty",
    ),
    "kilo.card.returned_later": (
        "{card} ne peut pas être pioché maintenant : plus {rank&aucun|aucune} {rank} au-dessus des "
        "cartes remises sous le tas ; {returned} qu'après les {above} cartes du dessus",
        "{card} cannot be drawn now: no {rank} is left above the cards returned under the pile; "
        "{returned} up only after the {above} cards above",
    ),
    # How the returned cards of that rank come up: "la Dame remise sous le tas ne revient", "les 2
    # Rois remis sous le tas ne reviennent"; "the 1 returned there comes".
    "kilo.card.returned.one": (
        "{rank} {rank&remis|remise} sous le tas ne revient",
        "the 1 returned there comes",
    ),
    "kilo.card.returned.many": (
        "les {under} {rank} {rank&remis|remises} sous le tas ne reviennent",
        "the {under} returned there come",
    ),
    "kilo.card.all_gone": (
        "{card} ne peut pas être pioché : les quatre {ranks} sont déjà {ranks&sortis|sorties} du tas",
        "{card} cannot be drawn: all four {ranks} have already left the pile",
    ),
    "kilo.card.block_next": (
        "{card} ne peut pas être pioché : il ne reste que les cartes remises sous le tas, et les "
        "prochaines sont {block}",
        "{card} cannot be drawn: the pile is down to the cards returned under it, and the next ones "
        "are {block}",
    ),
    "kilo.card.already_lies": (
        "{card} ne peut pas être pioché : {named} est déjà {where}",
        "{card} cannot be drawn: {named} already lies {where}",
    ),
    "kilo.card.in_front_of": ("devant {player}", "in front of {player}"),
    "kilo.card.among_returned": (
        "parmi les cartes remises sous le tas",
        "among the cards returned under the pile",
    ),
    "kilo.rules.check_foreign": (
        "{kind} n'est pas un événement du Kilo de merde",
        "{kind} is not an event of Kilo de merde",
    ),
    "kilo.rules.player": (
        "joueur inconnu {name!r} (joueurs : {players})",
        "unknown player {name!r} (players: {players})",
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
    "kilo.rules.does_owe_draw": (
        "{player} ne doit pas piocher : c'est à {owed} de piocher",
        "{player} does not owe a draw: {owed} must draw",
    ),
    "kilo.rules.check_verdict": (
        "la partie est finie : il n'y a pas de tape à juger",
        "the game is over: there is no slap to judge",
    ),
    "kilo.rules.draws_owed_first": (
        "il faut d'abord piocher : {owed} doit piocher",
        "draws are owed first: {owed} must draw",
    ),
    "kilo.rules.there_slap_judge": (
        "pas de tape à juger : personne n'a tapé depuis le dernier verdict",
        "there is no slap to judge: nobody has pressed since the last verdict",
    ),
    "kilo.rules.penalized_goes_false": (
        "'penalized' ne va qu'avec une fausse tape ({valid_false})",
        "'penalized' goes with a false slap ({valid_false}) only",
    ),
    "kilo.rules.player_named_twice": (
        "un joueur est nommé deux fois dans 'penalized'",
        "a player is named twice in 'penalized'",
    ),
    "kilo.rules.check_outage": (
        "un arrêt finit après son début, pas à {to_us} avant {from_us}",
        "an outage ends after it begins, not at {to_us} before {from_us}",
    ),
    "kilo.rules.nobody_owes": (
        "{player} ne doit pas piocher : personne ne le doit (on pioche après un verdict)",
        "{player} does not owe a draw: nobody does (a draw follows a verdict)",
    ),
    "kilo.rules.cannot_penalized_slapping": (
        "{name} ne peut pas être pénalisé pour une tape par erreur : {name} n'a pas tapé cette fois",
        "{name} cannot be penalized for slapping in error: {name} did not press in this slap",
    ),
    "kilo.events.count": (
        "le Kilo de merde se joue de 3 à 10 joueurs, pas {n_players}",
        "Kilo de merde is played by 3 to 10 players, not {n_players}",
    ),
}

register(ERRORS)
