"""A round's end from the scorer's phone, entered as the table screen enters it (``Game.scorer_entry``)."""

from __future__ import annotations

from companion.cards import parse_card
from companion.games.cinq_rois.entry import Mode, RoundEntry
from companion.games.cinq_rois.events import RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.solver import cards_in_round
from companion.table.log import AnyEvent


def scorer_entry(event: AnyEvent, engine: CinqRoisGame) -> tuple[AnyEvent | None, tuple[str, str] | None]:
    """A round of cards left or whole hands, entered card by card as the table screen does
    (``RoundEntry``): the same refusal on the card that makes the mistake, the same "not
    complete" sentence, and the same event (cards written as the screen writes them, in seating
    order). Anything else is returned as it came. (event, None) or (None, (fr, en))."""
    if not isinstance(event, RoundEnd):
        return event, None
    players = tuple(engine.players)
    mode: Mode = "hands" if event.hands is not None else "left"
    given = event.hands if event.hands is not None else event.left
    if given is None or event.out not in players:
        return event, None  # points, or an unknown player: the engine's own sentence
    for name in given:
        if name not in players:
            return None, (f"Joueur inconnu\u202f: {name}.", f"Unknown player: {name}.")
    entry = RoundEntry(engine.round, players, cards_in_round(min(engine.round, 11)), mode=mode)
    entry.go_out(players.index(event.out))
    for seat, name in enumerate(players):
        entry.select(seat)
        for card in given.get(name, []):
            reason = entry.card_reason(str(card))
            if reason is not None:
                return None, reason
            entry.cards.setdefault(name, []).append(str(parse_card(str(card))))  # as the screen writes it
        if name in given:
            entry.visited.add(name)  # its cards left confirmed, even none (the screen's Enter)
    return entry.event()
