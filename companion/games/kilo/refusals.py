"""Why a card cannot be the next off the pile, in English and French (``RuleError``'s pair).

The rules engine (``rules.py: KiloGame.check_card``) finds the reason and its facts; the sentences,
and the French agreement with the rank's gender ("les Dames sont distribuées", "les Rois sont
distribués"), are written here, so that the engine holds no grammar.
"""

from __future__ import annotations

from companion.cards import Card, Rank, the_fr


def _agreed(masculine: str, feminine: str, rank: Rank) -> str:
    """The French word agreed with the rank's gender (a Dame is feminine, every other rank not)."""
    return feminine if rank.feminine_fr else masculine


def not_in_deck(card: Card) -> tuple[str, str]:
    return (
        f"{card} is not in a Kilo de merde deck: 52 cards, suits S H D C, no joker",
        f"{card} n'est pas dans un jeu de Kilo de merde : 52 cartes, couleurs S H D C, sans joker",
    )


def dealt(card: Card, rank: Rank, n_players: int, held: str) -> tuple[str, str]:
    """The rank is dealt to the players at this count, never in the pile (which holds ``held``)."""
    return (
        f"{card} cannot be drawn: {rank.name_in('en', plural=True)} are dealt to the "
        f"players at {n_players} players, the pile holds {held}",
        f"{card} ne peut pas être pioché : les {rank.name_in('fr', plural=True)} sont "
        f"{_agreed('distribués', 'distribuées', rank)} aux joueurs à {n_players} "
        f"joueurs, le tas contient {held}",
    )


def pile_empty(card: Card) -> tuple[str, str]:
    return (
        f"{card} cannot be drawn: the pile is empty",
        f"{card} ne peut pas être pioché : le tas est vide",
    )


def returned_later(card: Card, rank: Rank, under: int, above: int) -> tuple[str, str]:
    """No card of the rank above the returned blocks: the ``under`` ones there come up only after
    the ``above`` cards still on top."""
    name_fr = rank.name_in("fr", plural=under > 1)
    if under == 1:
        returned_fr = (
            f"{the_fr(name_fr, rank.feminine_fr)} {_agreed('remis', 'remise', rank)} sous le tas ne revient"
        )
    else:
        returned_fr = f"les {under} {name_fr} {_agreed('remis', 'remises', rank)} sous le tas ne reviennent"
    return (
        f"{card} cannot be drawn now: no {rank.name_in('en')} is left above the cards "
        f"returned under the pile; the {under} returned there "
        f"{'comes' if under == 1 else 'come'} up only after the {above} cards above",
        f"{card} ne peut pas être pioché maintenant : plus "
        f"{_agreed('aucun', 'aucune', rank)} {rank.name_in('fr')} au-dessus des cartes "
        "remises sous le tas ; "
        f"{returned_fr} qu'après les {above} cartes du dessus",
    )


def all_gone(card: Card, rank: Rank) -> tuple[str, str]:
    return (
        f"{card} cannot be drawn: all four {rank.name_in('en', plural=True)} have already left the pile",
        f"{card} ne peut pas être pioché : les quatre "
        f"{rank.name_in('fr', plural=True)} sont déjà "
        f"{_agreed('sortis', 'sorties', rank)} du tas",
    )


def block_next(card: Card, block: str) -> tuple[str, str]:
    """Only the returned cards are left, and the next block is ``block``."""
    return (
        f"{card} cannot be drawn: the pile is down to the cards returned under it, and the "
        f"next ones are {block}",
        f"{card} ne peut pas être pioché : il ne reste que les cartes remises sous le tas, "
        f"et les prochaines sont {block}",
    )


def already_lies(card: Card, rank: Rank, where: tuple[str, str]) -> tuple[str, str]:
    """The exact card is in view already: ``where`` says where (English, French)."""
    en, fr = where
    return (
        f"{card} cannot be drawn: the {card.name_in('en')} already lies {en}",
        f"{card} ne peut pas être pioché : {the_fr(card.name_in('fr'), rank.feminine_fr)} est déjà {fr}",
    )
