"""Kilo de merde's engine state (``rules.py``'s ``KiloGame`` folds events into it): the deal by
player count, the kilos of each card, a judged slap and a draw as the table sees them, and the
small state an undo restores."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.cards import RANKS, Card, Rank
from companion.games.kilo.events import Close, Outage, Press, Starter, Verdict
from companion.games.kilo.slap import SlapWindow
from companion.games.undo import pickled_by_fields
from companion.table.log import AnyEvent

_R = {r.value: r for r in RANKS}

# Ranks dealt to the players, by player count; every other card forms the pile (rules.md table).
DEALT_RANKS: dict[int, frozenset[Rank]] = {
    n: frozenset(_R[v] for v in ranks.split())
    for n, ranks in {
        3: "K Q J",
        4: "K Q J 2",
        5: "K Q J 2 3",
        6: "K Q J 2 3 4",
        7: "K Q J 2 3 4 5",
        8: "K Q J 2 3 4 5 6",
        9: "K Q J 2 3 4 5 6 8",
        10: "K Q J 2 3 4 5 6 8 9",
    }.items()
}

KILOS: dict[Rank, int] = {
    Rank.ACE: 100,
    Rank.JACK: 11,
    Rank.QUEEN: 12,
    Rank.KING: 13,
    **{r: int(r.value) for r in RANKS if r.value.isdigit()},
}

Awaiting = Literal["play", "verdict", "draw", "nothing"]


def pile_ranks(n_players: int) -> frozenset[Rank]:
    return frozenset(RANKS) - DEALT_RANKS[n_players]


def card_kilos(card: Card) -> int:
    assert card.rank is not None
    return KILOS[card.rank]


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class JudgedSlap:
    """A slap the table has judged: the counted presses by stamp and whom it made draw."""

    order: tuple[tuple[str, int], ...]
    losers: tuple[str, ...]
    margin_us: int | None
    valid: bool
    tied: bool
    non_pressers: tuple[str, ...]
    reslap: bool  # a tie for last replayed the window
    margin_res_us: int = 1  # the margin is known to this precision (the coarser press's clock)
    # Presses stamped before an earlier verdict on this window that arrived after it: that
    # verdict was undone and this one judged them as made (docs/rules.md, "A late press").
    late: tuple[tuple[str, int], ...] = ()

    @property
    def claimant(self) -> str | None:
        return self.order[0][0] if self.order else None

    def to_json(self) -> dict[str, Any]:
        return {
            "order": [{"player": p, "t_us": t} for p, t in self.order],
            "losers": list(self.losers),
            "margin_us": self.margin_us,
            "valid": self.valid,
            "tied": self.tied,
            "non_pressers": list(self.non_pressers),
            **({"margin_res_us": self.margin_res_us} if self.margin_res_us > 1 else {}),
        }


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class DrawOutcome:
    """What the last draw did, for the screen and the demo's narration."""

    player: str
    card: Card
    kilos: int  # the card's kilos as it lies in front of the player (0 when it flushed)
    flushed: tuple[Card, ...]  # cards sent under the pile (the 7 included), empty if no flush


@pickled_by_fields
@dataclass(slots=True)
class _State:
    round: int
    window: SlapWindow
    cards: dict[str, list[Card]]
    unknown: dict[Rank, int]
    blocks: list[list[Card]]
    owed: list[str] = field(default_factory=list)
    after_draws: Literal["end_round", "continue"] = "end_round"
    finished: bool = False
    end_reason: Literal["rounds", "pile_empty"] | None = None
    last_slap: JudgedSlap | None = None
    last_draw: DrawOutcome | None = None
    starter: str | None = None
    dealer: str | None = None  # the first dealer, if drawn by lot
    slaps: int = 0
    draws: int = 0
    ignored_presses: int = 0
    flushes: dict[str, int] = field(default_factory=dict)
    history: tuple[tuple[int, ...], ...] = ()  # kilos per player (seat order) after each round
    # Event time (docs/rules.md, "A late press"): the last verdict, with its close, while no
    # draw has followed it (it may be judged again); the presses stamped at or before its
    # close that arrived after it; whether one of them changes what it judged; and, after an
    # undo of a verdict, the late presses it had, for the verdict that judges them.
    verdict: tuple[Verdict, int | None, int | None] | None = None  # (it, table's close, cut)
    late: tuple[tuple[str, int], ...] = ()
    rejudge: bool = False
    carried_late: tuple[tuple[str, int], ...] = ()

    def clone(self) -> _State:
        return _State(
            round=self.round,
            window=self.window.copy(),
            cards={p: list(c) for p, c in self.cards.items()},
            unknown=dict(self.unknown),
            blocks=[list(b) for b in self.blocks],
            owed=list(self.owed),
            after_draws=self.after_draws,
            finished=self.finished,
            end_reason=self.end_reason,
            last_slap=self.last_slap,
            last_draw=self.last_draw,
            starter=self.starter,
            dealer=self.dealer,
            slaps=self.slaps,
            draws=self.draws,
            ignored_presses=self.ignored_presses,
            flushes=dict(self.flushes),
            history=self.history,
            verdict=self.verdict,
            late=self.late,
            rejudge=self.rejudge,
            carried_late=self.carried_late,
        )


def _keep_earliest(earliest: dict[str, tuple[int, int]], player: str, t_us: int, res_us: int) -> None:
    """A player's earliest press with its own resolution (the first logged among equal stamps)."""
    current = earliest.get(player)
    if current is None or t_us < current[0]:
        earliest[player] = (t_us, res_us)


@pickled_by_fields
@dataclass(slots=True)
class _Run:
    """The presses, closes and starters after a decision, summed up so that undo re-applies them
    in one step, however many there were and however many undos in a row carry them back: a
    window keeps each player's earliest press (the first logged among equal stamps, with the
    resolution of the clock that stamped it) and every close, whatever their order. The presses
    are summed per clock epoch, each sum placed where its epoch's first press was (a window takes
    the epoch of the first press it keeps).

    A press at or before a verdict's horizon (``horizons``: per epoch, the latest floor any window
    this run may be replayed into has) is kept as it was, in its place: whether a restored window
    takes it depends on that window's floor, which a sum cannot tell. Every other press is later
    than any such floor, so a window takes it or not by its epoch alone, and summing is exact."""

    presses: int = 0
    closes: list[int] = field(default_factory=list)
    outages: list[tuple[int, int]] = field(default_factory=list)
    starter: str | None = None
    # Per epoch: [presses, {player: (earliest stamp, its res_us)}, latest stamp, first place].
    epochs: dict[Any, list[Any]] = field(default_factory=dict)
    # Presses at or before a horizon of their epoch: (place, epoch, player, t_us, res_us).
    kept: list[tuple[int, Any, str, int, int]] = field(default_factory=list)
    horizons: dict[Any, int] = field(default_factory=dict)

    def add(self, event: AnyEvent) -> None:
        if isinstance(event, Press):
            place = self.presses
            self.presses += 1
            key, t_us, res_us = event.epoch_key, event.t_us, event.res_us or 1
            horizon = self.horizons.get(key)
            if horizon is not None and t_us <= horizon:
                self.kept.append((place, key, event.player, t_us, res_us))
                return
            entry = self.epochs.setdefault(key, [0, {}, t_us, place])
            entry[0] += 1
            entry[2] = max(entry[2], t_us)
            _keep_earliest(entry[1], event.player, t_us, res_us)
        elif isinstance(event, Close):
            self.closes.append(event.t_us)
        elif isinstance(event, Outage):
            self.outages.append((event.from_us, event.to_us))
        elif isinstance(event, Starter):
            self.starter = event.player

    def then(self, later: _Run) -> None:
        """This run followed by ``later`` (whose horizons include this run's: a sum of it is
        later than any floor of this run's windows too)."""
        offset = self.presses
        self.presses += later.presses
        for key, (count, earliest, latest, first) in later.epochs.items():
            entry = self.epochs.setdefault(key, [0, {}, latest, first + offset])
            entry[0] += count
            entry[2] = max(entry[2], latest)
            for player, (t_us, res_us) in earliest.items():
                _keep_earliest(entry[1], player, t_us, res_us)
        self.kept.extend((place + offset, *rest) for place, *rest in later.kept)
        self.closes.extend(later.closes)
        self.outages.extend(later.outages)
        self.starter = later.starter or self.starter


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)
