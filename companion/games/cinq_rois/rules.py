"""Les Cinq Rois (spec/rules.md section 2): eleven rounds, the bonus rank, the dealer, the three ways
to enter a round's result, the two decks' limits, the standings with every round's score.

The engine is a fold over table-log events, like KiloGame. A round's result is computed whole
(every check, every solver call) before anything changes, so a refused event leaves no trace; undo
drops the most recent round result, which is the state a replay without that event would give.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import companion.games.cinq_rois.strings  # noqa: F401  (the game's error templates join the catalogue)
from companion.cards import JOKER, Card, Rank, card_short, cards_short
from companion.errors import CardError, RuleError, SetupError
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.solver import (
    BONUS_POINTS,
    JOKER_POINTS,
    ROUNDS,
    Arrangement,
    bonus_rank,
    card_key,
    card_points,
    check_card,
    solve,
)
from companion.games.cinq_rois.solver import cards_in_round as _cards_in_round
from companion.i18n import french_typography

# The events this game reads; kept in one place because they will move into this package.
from companion.table.log import AnyEvent, Undo
from companion.text import Text

MIN_PLAYERS = 2
MAX_PLAYERS = 7
MAX_JOKERS = 6
MAX_COPIES = 2  # two decks: every card exists twice

Entry = Literal["points", "left", "hands"]
Awaiting = Literal["round_end", "nothing"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One counted round: who went out, every player's score, and how it was entered."""

    round: int
    dealer: str
    bonus: Rank
    out: str
    entry: Entry
    scores: Mapping[str, int]  # every player, the one who went out included (0)
    left: Mapping[str, tuple[Card, ...]] | None  # the cards that counted, for "left" and "hands"
    arrangements: Mapping[str, Arrangement] | None  # for "hands" only

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dealer": self.dealer,
            "bonus": self.bonus.value,
            "out": self.out,
            "entry": self.entry,
            "scores": dict(self.scores),
            "arrangements": None
            if self.arrangements is None
            else {p: [c.to_json() for c in a.combinations] for p, a in self.arrangements.items()},
            "left": None
            if self.left is None
            else {p: [str(c) for c in cards] for p, cards in self.left.items()},
            "details": None
            if self.arrangements is None
            else {p: a.to_json() for p, a in self.arrangements.items()},
        }


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def max_points(cards: int) -> int:
    """The most a hand of ``cards`` cards can score: six jokers, then bonus cards."""
    jokers = min(MAX_JOKERS, cards)
    return jokers * JOKER_POINTS + (cards - jokers) * BONUS_POINTS


class CinqRoisGame:
    """One game of Les Cinq Rois, built from its ``new_game`` event and fed events one by one."""

    game = "cinq-rois"
    rounds = ROUNDS

    def __init__(self, setup: NewCinqRoisGame) -> None:
        players = tuple(setup.players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise SetupError(
                "cinq_rois.rules.init",
                MIN_PLAYERS=MIN_PLAYERS,
                MAX_PLAYERS=MAX_PLAYERS,
                n_players=len(players),
            )
        dealer = setup.dealer if setup.dealer is not None else players[0]
        if dealer not in players:
            raise SetupError(
                "cinq_rois.rules.dealer_one_players",
                dealer=dealer,
                players=_names(players),
            )
        self.setup = setup
        self.players: tuple[str, ...] = players
        self._seat = {p: i for i, p in enumerate(players)}
        self._first_dealer = self._seat[dealer]
        self._results: list[RoundResult] = []  # rounds in force, oldest first; undo pops
        self._drawn: str | None = None  # the first dealer drawn by lot (a ``dealer`` event)
        self.last_undone: RoundResult | Dealer | None = None

    # --- reading the state ---------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The next round to play, 1..11; 12 once the game is over."""
        return len(self._results) + 1

    @staticmethod
    def cards_in_round(n: int) -> int:
        return _cards_in_round(n)

    @property
    def finished(self) -> bool:
        return len(self._results) >= ROUNDS

    @property
    def dealer_open(self) -> bool:
        """Whether the first dealer may still be drawn by lot: ``new_game`` named none, none was
        drawn, and round 1 is not counted (until then the first player deals by default)."""
        return self.setup.dealer is None and self._drawn is None and not self._results

    @property
    def dealer_drawn(self) -> str | None:
        return self._drawn

    @property
    def awaiting(self) -> Awaiting:
        return "nothing" if self.finished else "round_end"

    @property
    def cards(self) -> int | None:
        """Cards dealt in the round to play (None when the game is over)."""
        return None if self.finished else _cards_in_round(self.round)

    @property
    def bonus(self) -> Rank | None:
        return None if self.finished else bonus_rank(self.round)

    def dealer_of(self, n: int) -> str:
        """Round ``n``'s dealer: the deal moves one seat clockwise (down the seating order)."""
        return self.players[(self._first_dealer + n - 1) % len(self.players)]

    def first_player_of(self, n: int) -> str:
        return self.players[(self._first_dealer + n) % len(self.players)]

    @property
    def dealer(self) -> str | None:
        return None if self.finished else self.dealer_of(self.round)

    @property
    def first_player(self) -> str | None:
        return None if self.finished else self.first_player_of(self.round)

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return tuple(self._results)

    @property
    def last_round(self) -> RoundResult | None:
        return self._results[-1] if self._results else None

    @property
    def scores(self) -> dict[str, list[int]]:
        """Every player's score in each round counted so far, in round order."""
        return {p: [r.scores[p] for r in self._results] for p in self.players}

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(r.scores[p] for r in self._results) for p in self.players}

    def standings(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """(player, total, per-round scores), lowest total first; equal totals keep seating order."""
        totals = self.totals
        rows = [(p, totals[p], tuple(r.scores[p] for r in self._results)) for p in self.players]
        return sorted(rows, key=lambda row: (row[1], self._seat[row[0]]))

    @property
    def winners(self) -> list[str]:
        """The lowest total after round 11 (several on a tie); empty while the game goes on."""
        if not self.finished:
            return []
        totals = self.totals
        best = min(totals.values())
        return [p for p in self.players if totals[p] == best]

    # --- checking events -----------------------------------------------------------------------

    def _player(self, name: str) -> None:
        if name not in self._seat:
            raise RuleError(
                "cinq_rois.rules.player",
                name=name,
                players=_names(self.players),
            )

    def _others(self, out: str, given: Mapping[str, object], key: str) -> None:
        """``given`` must name every player but ``out``, and only them."""
        for name in given:
            self._player(name)
        if out in given:
            raise RuleError(
                "cinq_rois.rules.others",
                out=out,
                what=Text.pair(en=_KEY_EN[key], fr=_KEY_FR[key]),
            )
        missing = [p for p in self.players if p != out and p not in given]
        if missing:
            raise RuleError(
                "cinq_rois.rules.must_given_every",
                what=Text.pair(en=_KEY_EN[key], fr=_KEY_FR[key]),
                out=out,
                missing=_names(missing),
            )

    def _check_cards(self, given: Mapping[str, Sequence[Card]], n: int, exact: bool) -> None:
        for player in self.players:
            for card in given.get(player, ()):
                try:
                    check_card(card)
                except CardError as err:
                    raise RuleError("cinq_rois.rules.check_cards", player=player, what=err.text) from None
        self._check_counts(given, n, exact)
        self._check_copies(given)

    def _check_counts(self, given: Mapping[str, Sequence[Card]], n: int, exact: bool) -> None:
        """Each hand given holds the round's deal (``exact``), or no more cards than it."""
        size = _cards_in_round(n)
        for player in self.players:
            if player not in given:
                continue
            count = len(given[player])
            if exact and count != size:
                raise RuleError(
                    "cinq_rois.rules.check_counts",
                    player=player,
                    count=count,
                    n=n,
                    size=size,
                )
            if not exact and count > size:
                raise RuleError(
                    "cinq_rois.rules.cannot_have_cards",
                    player=player,
                    count=count,
                    n=n,
                    size=size,
                )

    def _check_copies(self, given: Mapping[str, Sequence[Card]]) -> None:
        """No card given more often than the two decks hold it."""
        holders: dict[Card, list[str]] = {}
        for player in self.players:
            for card in given.get(player, ()):
                holders.setdefault(card, []).append(player)
        jokers = holders.pop(JOKER, [])
        if len(jokers) > MAX_JOKERS:
            who = _names(f"{p} {jokers.count(p)}" for p in dict.fromkeys(jokers))
            raise RuleError(
                "cinq_rois.rules.check_copies",
                n_jokers=len(jokers),
                who=who,
                MAX_JOKERS=MAX_JOKERS,
            )
        for card in sorted(holders, key=card_key):
            if len(holders[card]) > MAX_COPIES:
                who = _names(holders[card])
                raise RuleError(
                    "cinq_rois.rules.given_times_round",
                    card=card,
                    n_holders=len(holders[card]),
                    who=who,
                )

    def _result(self, event: RoundEnd) -> RoundResult:
        """The round's result if ``event`` can be counted now; raises RuleError otherwise."""
        if self.finished:
            raise RuleError(
                "cinq_rois.rules.result",
                ROUNDS=ROUNDS,
                round=self.round,
            )
        n = self.round
        bonus = bonus_rank(n)
        out = event.out
        self._player(out)
        ways = [k for k in ("points", "left", "hands") if getattr(event, k) is not None]
        if len(ways) != 1:
            got = (
                Text.pair(en=" and ".join(ways), fr=" et ".join(ways))
                if ways
                else Text("cinq_rois.rules.no_way")
            )
            raise RuleError("cinq_rois.rules.one_way", got=got)
        dealer = self.dealer_of(n)
        if event.points is not None:
            self._others(out, event.points, "points")
            self._check_points(event.points, n)
            scores = {p: (0 if p == out else event.points[p]) for p in self.players}
            return RoundResult(n, dealer, bonus, out, "points", scores, None, None)
        if event.left is not None:
            self._others(out, event.left, "left")
            self._check_cards(event.left, n, exact=False)
            left = {p: tuple(event.left.get(p, ())) for p in self.players}
            scores = {p: sum(card_points(c, bonus) for c in left[p]) for p in self.players}
            return RoundResult(n, dealer, bonus, out, "left", scores, left, None)
        hands = event.hands
        assert hands is not None
        for name in hands:
            self._player(name)
        missing = [p for p in self.players if p not in hands]
        if missing:
            raise RuleError(
                "cinq_rois.rules.hands_missing_give",
                missing=_names(missing),
                out=out,
            )
        self._check_cards(hands, n, exact=True)
        arrangements = {p: solve(hands[p], bonus) for p in self.players}
        if not arrangements[out].fully_combines:
            rest = arrangements[out].left
            raise RuleError(
                "cinq_rois.rules.cannot_go_out",
                out=out,
                rest=_cards(rest),
                value=bonus.value,
            )
        scores = {p: arrangements[p].points for p in self.players}
        left = {p: arrangements[p].left for p in self.players}
        return RoundResult(n, dealer, bonus, out, "hands", scores, left, arrangements)

    def _check_points(self, points: Mapping[str, int], n: int) -> None:
        """Each player's points in round ``n``: 0 or more, and no more than its cards are worth."""
        top = max_points(_cards_in_round(n))
        for player in self.players:
            pts = points.get(player, 0)
            if pts < 0:
                raise RuleError(
                    "cinq_rois.rules.check_points",
                    player=player,
                    pts=pts,
                )
            if pts > top:
                raise RuleError(
                    "cinq_rois.rules.cannot_score_cards",
                    player=player,
                    pts=pts,
                    dealt=_cards_in_round(n),
                    top=top,
                    n=n,
                )

    def no_undo_ahead(self) -> None:
        """Nothing to drop: the rounds counted are the game's state, not copies kept for undo."""

    def check(self, event: AnyEvent) -> None:
        """Raise RuleError if ``event`` cannot be applied now; never changes the state."""
        if isinstance(event, RoundEnd):
            self._result(event)
        elif isinstance(event, Dealer):
            self._check_dealer(event)
        elif isinstance(event, Undo):
            if not self._results and self._drawn is None:
                raise RuleError(
                    "cinq_rois.rules.there_nothing_undo",
                )
        else:
            kind = getattr(event, "type", "?")
            raise RuleError("cinq_rois.rules.check", kind=kind)

    def _check_dealer(self, event: Dealer) -> None:
        self._player(event.player)
        if self.dealer_open:
            return
        if self._results:
            raise RuleError(
                "cinq_rois.rules.check_dealer",
                player=event.player,
                first_dealer=self.dealer_of(1),
            )
        first = self.dealer_of(1)
        # Undoing helps only a draw: a dealer named in new_game stays named.
        drawn = self._drawn is not None
        how_en = "was drawn (undo first)" if drawn else "is named in new_game"
        how_fr = "a été tiré au sort (annulez d'abord)" if drawn else "est nommé dans new_game"
        raise RuleError(
            "cinq_rois.rules.cannot_drawn_deal",
            player=event.player,
            first=first,
            how=Text.pair(en=how_en, fr=how_fr),
        )

    # --- applying events -----------------------------------------------------------------------

    def apply(self, event: AnyEvent, *, checked: bool = False) -> None:
        """Apply ``event`` whole or not at all. The result is computed from scratch either way
        (the solver caches hands), so ``checked`` changes nothing but is accepted for the seam."""
        if isinstance(event, RoundEnd):
            result = self._result(event)
            self._results.append(result)
            return
        self.check(event)
        if isinstance(event, Dealer):
            self._drawn = event.player
            self._first_dealer = self._seat[event.player]
        elif self._results:
            self.last_undone = self._results.pop()
        else:
            self.last_undone = Dealer(player=self.players[self._first_dealer])
            self._drawn = None
            self._first_dealer = 0

    # --- reporting -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        bonus = self.bonus
        return {
            "game": self.game,
            "players": list(self.players),
            "round": self.round,
            "rounds": ROUNDS,
            "cards": self.cards,
            "finished": self.finished,
            "winners": self.winners,
            "awaiting": self.awaiting,
            "bonus": None if bonus is None else bonus.value,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "standings": [
                {"player": p, "points": total, "rounds": list(rounds)}
                for p, total, rounds in self.standings()
            ],
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "history": [
                {
                    "round": r.round,
                    "dealer": r.dealer,
                    "bonus": r.bonus.value,
                    "out": r.out,
                    "entry": r.entry,
                    "scores": dict(r.scores),
                }
                for r in self._results
            ],
        }

    def headline(self, lang: str = "fr") -> str:
        """ "Donne 5 : 7 cartes, atout 7, donneur Ana, Ben commence" for the round to play."""
        if self.finished:
            return (
                f"Partie terminée après {ROUNDS} donnes"
                if lang == "fr"
                else f"Game over after {ROUNDS} rounds"
            )
        bonus = self.bonus
        assert bonus is not None
        if lang == "fr":
            return (
                f"Donne {self.round}\u202f: {self.cards} cartes, atout {bonus.value}, donneur "
                f"{self.dealer}, {self.first_player} commence"
            )
        return (
            f"Round {self.round}: {self.cards} cards, bonus {bonus.value}, dealer "
            f"{self.dealer}, {self.first_player} plays first"
        )

    def summary(self, lang: str = "fr") -> str:
        fr = lang == "fr"
        lines = [f"Les Cinq Rois — {self.headline(lang)}"]
        lines.append("Classement :" if fr else "Standings:")
        width = max(len(p) for p in self.players)
        for pos, (player, total, rounds) in enumerate(self.standings(), start=1):
            per_round = " ".join(str(s) for s in rounds) or "—"
            lines.append(f"  {pos:>2}. {player:<{width}} {total:>4}   ({per_round})")
        last = self.last_round
        if last is not None:
            others = _names(f"{p} {last.scores[p]}" for p in self.players if p != last.out)
            lines.append(
                f"Donne {last.round} (atout {last.bonus.value}) : {last.out} s'expose ; {others}"
                if fr
                else f"Round {last.round} (bonus {last.bonus.value}): {last.out} went out; {others}"
            )
            for player in self.players:
                if last.arrangements is not None:
                    arr = last.arrangements[player]
                    groups = " ".join(
                        "["
                        + " ".join(
                            card_short(p.card, lang)
                            + (
                                f"→{card_short(p.stands_for, lang)}"
                                if p.wild and p.card != p.stands_for
                                else ""
                            )
                            for p in c.cards
                        )
                        + "]"
                        for c in arr.combinations
                    )
                    rest = cards_short(arr.left, lang) or "—"
                    lines.append(
                        f"    {player:<{width}} {groups}  {'reste' if fr else 'left'} {rest} ({arr.points})"
                    )
                elif last.left is not None and player != last.out:
                    rest = cards_short(last.left[player], lang) or "—"
                    lines.append(
                        f"    {player:<{width}} {'reste' if fr else 'left'} {rest} ({last.scores[player]})"
                    )
        winners = self.winners
        if winners:
            total = self.totals[winners[0]]
            if len(winners) == 1:
                lines.append(
                    f"Gagnant : {winners[0]} ({total} points)"
                    if fr
                    else f"Winner: {winners[0]} ({total} points)"
                )
            else:
                lines.append(
                    f"Gagnants ex æquo : {_names(winners)} ({total} points)"
                    if fr
                    else f"Co-winners: {_names(winners)} ({total} points)"
                )
        text = "\n".join(lines)
        return french_typography(text) if fr else text


_KEY_EN = {"points": "points", "left": "the cards left"}
_KEY_FR = {"points": "points", "left": "cartes restantes"}
