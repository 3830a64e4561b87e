"""A round being entered on the table screen: who went out, the last turns still to play, and the
points, cards left or whole hands typed so far (pure: no pygame, no journal).

Nothing here is a table decision: the half-entered round lives on the screen until the table
confirms it, and only then becomes one ``round_end`` event. Every card is checked as it is added
(it exists, a third copy, a seventh joker, a full hand), so the table hears about a mistake on the
card that makes it, in one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from companion.cards import parse_card
from companion.errors import CardError
from companion.games.cinq_rois.events import RoundEnd
from companion.games.cinq_rois.rules import MAX_COPIES, MAX_JOKERS
from companion.games.cinq_rois.solver import check_card
from companion.i18n import french_typography

Mode = Literal["points", "left", "hands"]
MODES: tuple[Mode, ...] = ("points", "left", "hands")
Reason = tuple[str, str]  # (French, English)
MAX_DIGITS = 3  # a round scores at most 6 x 50 + 7 x 20 = 440


def _fr(text: str) -> str:
    """French typography, the catalogue's: a narrow no-break space before : ; ! ? and the
    typographic apostrophe ("s’expose"; the band showed "s'expose" beside the catalogue's
    "d’eau")."""
    return french_typography(text)


@dataclass
class RoundEntry:
    """One round's entry; ``round`` says which round it belongs to (a stale one is dropped)."""

    round: int
    players: tuple[str, ...]
    size: int  # cards dealt this round (n + 2)
    mode: Mode = "points"
    out: str | None = None
    pending: list[str] = field(default_factory=list)  # last turns still to play, in order
    active: int = 0  # the seat being entered
    points: dict[str, str] = field(default_factory=dict)  # typed digits
    cards: dict[str, list[str]] = field(default_factory=dict)
    visited: set[str] = field(default_factory=set)  # cards left: players confirmed (even none)
    rank: str | None = None  # a rank typed on the keyboard, waiting for its suit
    lots_skipped: bool = False  # the table let the first player deal instead of drawing lots
    sim_lots: bool = False  # the simulated players have pressed to draw the first dealer
    sim_played: bool = False  # the simulated players have played this round (``--input sim``)

    # --- who went out --------------------------------------------------------------------------

    def go_out(self, seat: int) -> None:
        """The player at ``seat`` went out: every other one has a last turn, clockwise from the
        player after them."""
        n = len(self.players)
        self.out = self.players[seat]
        self.pending = [self.players[(seat + i) % n] for i in range(1, n)]
        self.rank = None
        self.active = self._first_to_enter()

    def turn_done(self, seat: int) -> bool:
        """A player still owed a last turn pressed: their turn is played. False otherwise."""
        name = self.players[seat]
        if name not in self.pending:
            return False
        self.pending.remove(name)
        return True

    def skip_turns(self) -> None:
        self.pending.clear()

    # --- whose input ---------------------------------------------------------------------------

    def entered(self, name: str) -> list[str]:
        return self.cards.get(name, [])

    def takes_input(self, name: str) -> bool:
        """Whether ``name`` has something to enter in this mode (the one who went out scores 0
        and keeps no card, but shows a whole hand)."""
        return self.mode == "hands" or name != self.out

    def _first_to_enter(self) -> int:
        for i, name in enumerate(self.players):
            if self.takes_input(name) and not self.complete(name):
                return i
        return next((i for i, p in enumerate(self.players) if self.takes_input(p)), 0)

    def complete(self, name: str) -> bool:
        if not self.takes_input(name):
            return True
        if self.mode == "points":
            return bool(self.points.get(name))
        if self.mode == "hands":
            return len(self.entered(name)) == self.size
        return name in self.visited  # cards left: confirmed (no card left is an answer)

    def select(self, seat: int) -> None:
        self.active = seat
        self.rank = None

    def next_player(self) -> bool:
        """Move to the next player who still needs input; False when everyone is done."""
        if self.mode == "left" and self.takes_input(self.name):
            self.visited.add(self.name)  # Enter on a player: these cards left, or none
        n = len(self.players)
        for step in range(1, n + 1):
            i = (self.active + step) % n
            if self.takes_input(self.players[i]) and not self.complete(self.players[i]):
                self.active = i
                self.rank = None
                return True
        return False

    def set_mode(self, mode: Mode) -> None:
        self.mode = mode
        self.rank = None
        self.active = self._first_to_enter()

    @property
    def name(self) -> str:
        return self.players[self.active]

    # --- points --------------------------------------------------------------------------------

    def digit(self, d: str) -> Reason | None:
        name = self.name
        if name == self.out:
            return (
                _fr(f"{name} s'expose et marque 0 : entrez les points des autres"),
                f"{name} went out and scores 0: enter the others' points",
            )
        if d == "-":
            return (
                _fr("Les points sont positifs ou nuls : pas de signe moins"),
                "Points are 0 or more: no minus sign",
            )
        typed = self.points.get(name, "")
        if len(typed) >= MAX_DIGITS:
            return (
                _fr(f"{MAX_DIGITS} chiffres au plus : une donne vaut au plus 440 points"),
                f"{MAX_DIGITS} digits at most: a round is worth at most 440 points",
            )
        self.points[name] = (typed + d).lstrip("0") or "0"
        return None

    # --- cards ---------------------------------------------------------------------------------

    def holders(self, card: str) -> list[str]:
        return [p for p in self.players if self.takes_input(p) for c in self.entered(p) if c == card]

    def jokers(self) -> int:
        return len(self.holders("JK"))

    def card_reason(self, card: str, name: str | None = None) -> Reason | None:
        """Why ``card`` cannot be added to ``name``'s cards now (None: it can)."""
        name = name or self.name
        try:
            parsed = parse_card(card)
            check_card(parsed)
        except CardError as err:
            return _fr(err.fr), err.en
        card = str(parsed)
        if not self.takes_input(name):
            return (
                _fr(f"{name} s'expose : aucune carte ne lui reste"),
                f"{name} went out: no cards left to enter",
            )
        count = len(self.entered(name))
        if self.mode == "hands" and count >= self.size:
            return (
                _fr(
                    f"La main de {name} a déjà ses {self.size} cartes : retirez-en une "
                    "d'abord (retour arrière)"
                ),
                f"{name}'s hand already has its {self.size} cards: remove one first (backspace)",
            )
        if self.mode == "left" and count >= self.size:
            return (
                _fr(
                    f"{name} ne peut pas garder plus de {self.size} cartes : la donne en "
                    f"distribue {self.size}"
                ),
                f"{name} cannot keep more than {self.size} cards: the round deals {self.size}",
            )
        if card == "JK":
            if self.jokers() >= MAX_JOKERS:
                return (
                    _fr(
                        f"Déjà {MAX_JOKERS} jokers dans cette donne : les deux jeux n'en ont que {MAX_JOKERS}"
                    ),
                    f"Already {MAX_JOKERS} jokers this round: the two decks hold only {MAX_JOKERS}",
                )
            return None
        holders = self.holders(card)
        if len(holders) >= MAX_COPIES:
            who = ", ".join(dict.fromkeys(holders))
            return (
                _fr(
                    f"{card} est déjà entré deux fois ({who}) : les deux jeux n'ont chaque "
                    "carte que deux fois"
                ),
                f"{card} is already entered twice ({who}): the two decks hold each card only twice",
            )
        return None

    def add(self, card: str) -> Reason | None:
        reason = self.card_reason(card)
        if reason is not None:
            return reason
        cards = self.cards.setdefault(self.name, [])
        cards.append(str(parse_card(card)))
        self.visited.add(self.name)
        self.rank = None
        if self.mode == "hands" and len(cards) == self.size:
            self.next_player()  # a whole hand: on to the next one without a key
        return None

    def back(self) -> bool:
        """Backspace: the rank typed, else the last card or digit of the player being entered,
        else (nothing entered for them) the previous player's last card. False if nothing."""
        if self.rank is not None:
            self.rank = None
            return True
        name = self.name
        if self.mode == "points":
            typed = self.points.get(name, "")
            if typed:
                self.points[name] = typed[:-1]
                if not self.points[name]:
                    del self.points[name]
                return True
            return False
        cards = self.cards.get(name, [])
        if cards:
            cards.pop()
            return True
        return False

    # --- the event -----------------------------------------------------------------------------

    def event(self) -> tuple[RoundEnd | None, Reason | None]:
        """The ``round_end`` for what is entered, or why it is not complete yet."""
        if self.out is None:
            return None, (
                _fr("Qui s'est exposé ? Appuyez sur son bouton ou touchez son nom"),
                "Who went out? Press their button or touch their name",
            )
        missing = [p for p in self.players if not self.complete(p)]
        if self.mode == "points" and missing:
            return None, (
                _fr(f"Il manque les points de {', '.join(missing)}"),
                f"Points missing for {', '.join(missing)}",
            )
        if self.mode == "left" and missing:
            return None, (
                _fr(f"Cartes restantes à confirmer pour {', '.join(missing)} (Entrée même sans carte)"),
                f"Cards left to confirm for {', '.join(missing)} (Enter even with no card)",
            )
        if self.mode == "hands" and missing:
            short = ", ".join(f"{p} {len(self.entered(p))}/{self.size}" for p in missing)
            return None, (_fr(f"Mains incomplètes : {short} cartes"), f"Hands not complete: {short} cards")
        others = [p for p in self.players if p != self.out]
        if self.mode == "points":
            return RoundEnd(out=self.out, points={p: int(self.points[p]) for p in others}), None
        if self.mode == "left":
            return RoundEnd(out=self.out, left={p: list(self.entered(p)) for p in others}), None
        return RoundEnd(out=self.out, hands={p: list(self.entered(p)) for p in self.players}), None

    def fill_hands(self, hands: dict[str, list[str]]) -> None:
        """The simulated players' hands, ready for the table to confirm."""
        self.mode = "hands"
        self.cards = {p: list(h) for p, h in hands.items()}
        self.rank = None
        self.active = self._first_to_enter()


__all__ = ["MODES", "Mode", "Reason", "RoundEntry"]
