"""Kilo de merde (spec/rules.md section 1): the pile, the slaps, the draws, the flush of the 7s.

The engine is a fold over table-log events. The pile is tracked as a known multiset for the whole
game: the part never drawn (order unknown) above the blocks of cards returned under it by flushes
(each block comes up only after everything above it). Undo restores the state saved before the
most recent table decision and re-applies the presses that followed it, which is exactly the state
a replay of the log without that decision would give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import companion.games.kilo.strings  # noqa: F401  (the game's error templates join the catalogue)
from companion.cards import FOUR_SUITS, RANKS, Card, CardName, Rank, RankName, describe_ranks
from companion.errors import RuleError
from companion.games.kilo.events import Close, Dealer, Draw, NewKiloGame, Outage, Press, Starter, Verdict
from companion.games.kilo.slap import SlapResult, SlapWindow
from companion.games.kilo.state import (
    DEALT_RANKS,
    KILOS,
    Awaiting,
    DrawOutcome,
    JudgedSlap,
    _names,
    _Run,
    _State,
    card_kilos,
    pile_ranks,
)
from companion.games.undo import Checkpoints
from companion.table.log import AnyEvent, Undo
from companion.text import Text


class KiloGame:
    """One game of Kilo de merde, built from its ``new_game`` event and fed events one by one."""

    game = "kilo"

    def __init__(self, setup: NewKiloGame) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.rules = setup.rules
        self.rounds = setup.rounds
        self._seat = {p: i for i, p in enumerate(self.players)}
        self._timeout_us = self.rules.slap_timeout_ms * 1000
        self.pile_ranks = pile_ranks(len(self.players))
        self._s = _State(
            round=1,
            window=self._new_window(),
            cards={p: [] for p in self.players},
            unknown={r: 4 for r in RANKS if r in self.pile_ranks},
            blocks=[],
            flushes={p: 0 for p in self.players},
        )
        # Decisions still in force, each with the state just before it and what followed it
        # up to the next decision, for undo.
        self._checkpoints: Checkpoints[tuple[AnyEvent, _State, _Run]] = Checkpoints()
        self.last_undone: AnyEvent | None = None

    def scratch(self) -> KiloGame:
        """A copy to try events on that changes nothing of this game (the display draws what a
        first slap would show before it comes, to fill its font caches): its own state, and no
        decision to undo."""
        copy = object.__new__(KiloGame)
        copy.__dict__.update(self.__dict__)
        copy._s = self._s.clone()
        copy._checkpoints = Checkpoints()
        return copy

    # --- reading the state ---------------------------------------------------------------------

    def _new_window(self) -> SlapWindow:
        return SlapWindow(self.players, self._timeout_us)

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def finished(self) -> bool:
        return self._s.finished

    @property
    def end_reason(self) -> str | None:
        return self._s.end_reason

    @property
    def owed_draws(self) -> tuple[str, ...]:
        return tuple(self._s.owed)

    @property
    def last_slap(self) -> JudgedSlap | None:
        return self._s.last_slap

    @property
    def last_draw(self) -> DrawOutcome | None:
        return self._s.last_draw

    @property
    def starter(self) -> str | None:
        return self._s.starter

    @property
    def slaps_judged(self) -> int:
        return self._s.slaps

    @property
    def draws_made(self) -> int:
        return self._s.draws

    @property
    def ignored_presses(self) -> int:
        return self._s.ignored_presses

    @property
    def history(self) -> tuple[tuple[int, ...], ...]:
        return self._s.history

    def flushes(self, player: str) -> int:
        return self._s.flushes[player]

    def window_pressed(self, player: str) -> bool:
        """Whether ``player`` has pressed in the open window (counted or not)."""
        return self._s.window.pressed(player)

    def window(self) -> SlapResult:
        """The open slap window as it stands (empty order when nobody has pressed)."""
        return self._s.window.result()

    @property
    def awaiting(self) -> Awaiting:
        s = self._s
        if s.finished:
            return "nothing"
        if s.owed:
            return "draw"
        if s.window.is_empty or not s.window.result().order:
            return "play"
        return "verdict"

    def cards_of(self, player: str) -> tuple[Card, ...]:
        return tuple(self._s.cards[player])

    def kilos(self, player: str) -> int:
        return sum(card_kilos(c) for c in self._s.cards[player])

    def standings(self) -> list[tuple[str, int]]:
        """Lowest kilos first; equal kilos keep seating order."""
        return sorted(((p, self.kilos(p)) for p in self.players), key=lambda pk: (pk[1], self._seat[pk[0]]))

    def winners(self) -> list[str]:
        if not self._s.finished:
            return []
        best = min(self.kilos(p) for p in self.players)
        return [p for p in self.players if self.kilos(p) == best]

    @property
    def pile_count(self) -> int:
        return sum(self._s.unknown.values()) + self.known_bottom

    @property
    def known_bottom(self) -> int:
        return sum(len(b) for b in self._s.blocks)

    def draw_source(self) -> tuple[Literal["unknown", "returned", "empty"], dict[Rank, int]]:
        """Where the next card comes from, and how many of each rank it holds.

        Cards returned under the pile come up only after every card above them, so while the
        never-drawn part lasts the next card is one of those; then the top returned block.
        """
        s = self._s
        if any(s.unknown.values()):
            return "unknown", {r: n for r, n in s.unknown.items() if n}
        for block in s.blocks:
            if block:
                counts: dict[Rank, int] = {}
                for card in block:
                    assert card.rank is not None
                    counts[card.rank] = counts.get(card.rank, 0) + 1
                return "returned", counts
        return "empty", {}

    def returned_blocks(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(b) for b in self._s.blocks if b)

    # --- checking events -----------------------------------------------------------------------

    def _player(self, name: str) -> None:
        if name not in self._seat:
            raise RuleError(
                "kilo.rules.player",
                name=name,
                players=_names(self.players),
            )

    def _where(self, card: Card) -> Text | None:
        """Where an exact card (rank and suit) is known to lie."""
        for player in self.players:
            if card in self._s.cards[player]:
                return Text("kilo.card.in_front_of", player=player)
        for block in self._s.blocks:
            if card in block:
                return Text("kilo.card.among_returned")
        return None

    def check_card(self, card: Card) -> None:
        """Raise RuleError if ``card`` cannot be the next card off the pile, saying why."""
        if card.rank is None or card.suit not in (None, *FOUR_SUITS):
            raise RuleError("kilo.card.not_in_deck", card=card, suits=" ".join(s.value for s in FOUR_SUITS))
        rank = card.rank
        if rank not in self.pile_ranks:
            raise RuleError(
                "kilo.card.dealt",
                card=card,
                ranks=RankName(rank, plural=True),
                players=len(self.players),
                held=describe_ranks(self.pile_ranks),
            )
        source, counts = self.draw_source()
        if source == "empty":
            raise RuleError("kilo.card.pile_empty", card=card)
        if not counts.get(rank):
            raise RuleError(self._none_left(card, rank, source))
        if card.suit is None:
            return
        if source == "returned" and card in next(b for b in self._s.blocks if b):
            return
        where = self._where(card)
        if where is not None:
            raise RuleError("kilo.card.already_lies", card=card, named=CardName(card), where=where)

    def _none_left(self, card: Card, rank: Rank, source: str) -> Text:
        """Why no card of ``rank`` can come up next (none is left where the next card comes from)."""
        if source == "returned":
            block = " ".join(str(c) for c in next(b for b in self._s.blocks if b))
            return Text("kilo.card.block_next", card=card, block=block)
        under = sum(1 for block in self._s.blocks for c in block if c.rank is rank)
        if under:
            returned = (
                Text("kilo.card.returned.one", rank=RankName(rank, the=True))
                if under == 1
                else Text("kilo.card.returned.many", under=under, rank=RankName(rank, plural=True))
            )
            above = sum(self._s.unknown.values())
            return Text(
                "kilo.card.returned_later", card=card, rank=RankName(rank), returned=returned, above=above
            )
        return Text("kilo.card.all_gone", card=card, ranks=RankName(rank, plural=True))

    @property
    def dealer(self) -> str | None:
        return self._s.dealer

    @property
    def dealer_open(self) -> bool:
        """The first dealer may still be drawn: nothing has happened at the table yet."""
        s = self._s
        return (
            s.dealer is None
            and not s.finished
            and s.slaps == 0
            and not s.ignored_presses
            and not s.window.result().order
        )

    def _check_player(self, event: Press | Starter) -> None:
        self._player(event.player)

    def _check_dealer(self, event: Dealer) -> None:
        s = self._s
        self._player(event.player)
        if not self.dealer_open:
            who = f" ({s.dealer})" if s.dealer else ""
            raise RuleError(
                "kilo.rules.check_dealer",
                who=who,
            )

    def _check_close(self, event: Close) -> None:
        """A close is always allowed; with no open window it changes nothing."""

    def _check_undo(self, event: Undo) -> None:
        if not self._checkpoints:
            raise RuleError(
                "kilo.rules.check_undo",
            )

    def _check_draw(self, event: Draw) -> None:
        s = self._s
        self._player(event.player)
        if s.finished:
            raise RuleError("kilo.rules.check_draw")
        if event.player not in s.owed:
            if not s.owed:
                raise RuleError(
                    "kilo.rules.nobody_owes",
                    player=event.player,
                )
            raise RuleError(
                "kilo.rules.does_owe_draw",
                player=event.player,
                owed=_names(s.owed),
            )
        self.check_card(event.card)

    def _check_foreign(self, event: AnyEvent) -> None:
        kind = getattr(event, "type", "?")
        raise RuleError("kilo.rules.check_foreign", kind=kind)

    def _check_verdict(self, event: Verdict) -> None:
        s = self._s
        if s.finished:
            raise RuleError(
                "kilo.rules.check_verdict",
            )
        if s.owed:
            raise RuleError(
                "kilo.rules.draws_owed_first",
                owed=_names(s.owed),
            )
        if s.window.is_empty:  # else its first press counts: a window never closes before it
            raise RuleError(
                "kilo.rules.there_slap_judge",
            )
        if event.valid and event.penalized is not None:
            raise RuleError(
                "kilo.rules.penalized_goes_false",
                valid_false='"valid": false',  # the log's own words, not a sentence
            )
        for name in event.penalized or ():
            self._player(name)
            if not s.window.pressed(name):
                raise RuleError(
                    "kilo.rules.cannot_penalized_slapping",
                    name=name,
                )
        if event.penalized and len(set(event.penalized)) != len(event.penalized):
            raise RuleError("kilo.rules.player_named_twice")

    def check(self, event: AnyEvent) -> None:
        check, _, _ = _STEPS.get(type(event)) or _step_of(type(event))
        check(self, event)

    def no_undo_ahead(self) -> None:
        self._checkpoints.none_ahead()

    # --- applying events -----------------------------------------------------------------------

    def apply(self, event: AnyEvent, *, checked: bool = False) -> None:
        """Apply ``event``; ``checked=True`` skips the rules check the caller just made."""
        cls = type(event)
        check, change, kind = _STEPS.get(cls) or _step_of(cls)
        if not checked:
            check(self, event)
        if kind == "decision":
            if self._checkpoints.needed:  # else no undo follows in the log being replayed
                # The floors this decision's run may meet on undo: its restored window's and
                # those of the decisions before it.
                horizons = dict(self._checkpoints.top()[2].horizons) if self._checkpoints else {}
                floor = self._s.window.floor
                if floor is not None:
                    horizons[floor[0]] = max(floor[1], horizons.get(floor[0], floor[1]))
                self._checkpoints.append((event, self._s.clone(), _Run(horizons=horizons)))
        elif kind == "fact" and self._checkpoints:
            self._checkpoints.top()[2].add(event)
        change(self, event)

    def _press(self, event: Press) -> None:
        s = self._s
        floor = s.window.floor
        if (
            floor is not None
            and s.last_slap is not None
            and event.epoch_key == floor[0]
            and event.t_us <= floor[1]
        ):
            self._late(event)
        if s.finished or s.owed:
            s.ignored_presses += 1  # recorded, belongs to no window
        elif not s.window.add(event.player, event.t_us, event.res_us or 1, event.epoch_key):
            # Another epoch of its clock (a reboot): the open window closed before it; or
            # made before the last verdict (its horizon): that window's, judged already.
            s.ignored_presses += 1

    def _late(self, event: Press) -> None:
        """A press stamped at or before the last verdict's close that arrived after it: kept
        with its stamp, and, while no draw has followed that verdict, marked for judging again
        if it changes what was judged (a player it missed, or an earlier press)."""
        s = self._s
        s.late = (*s.late, (event.player, event.t_us))
        judged = s.last_slap
        if s.verdict is None or judged is None or s.finished:
            return
        cut = s.verdict[2]
        if cut is not None and event.t_us > cut:
            return  # after where that window was cut: it would not have counted on time either
        counted = dict(judged.order)
        if event.player not in counted or event.t_us < counted[event.player]:
            s.rejudge = True

    def rejudge_events(self) -> list[AnyEvent] | None:
        """What the table journals to judge the last verdict again with its late presses:
        ``undo``, then the same ``close`` and ``verdict``; None when nothing is to be judged
        again (no late press that changes it, or a draw has followed the verdict)."""
        s = self._s
        if not s.rejudge or s.verdict is None:
            return None
        verdict, close, _ = s.verdict
        return [Undo(), *([Close(t_us=close)] if close is not None else []), verdict]

    @property
    def late_presses(self) -> tuple[tuple[str, int], ...]:
        """Presses that arrived after the last verdict though stamped at or before its close."""
        return self._s.late

    def window_clock(self) -> tuple[str | None, str | None] | None:
        """The (clock, epoch) of the open window's first press; None before it or in a log
        without clocks."""
        epoch = self._s.window.epoch
        return epoch if isinstance(epoch, tuple) else None

    def _outage(self, event: Outage) -> None:
        s = self._s
        if not (s.finished or s.owed):
            s.window.stretch(event.from_us, event.to_us)

    def _check_outage(self, event: Outage) -> None:
        if event.to_us < event.from_us:
            raise RuleError(
                "kilo.rules.check_outage",
                to_us=event.to_us,
                from_us=event.from_us,
            )

    def window_span(self) -> tuple[int, int] | None:
        """(first press, latest stamp) of the open window, on its clock; None when none is open."""
        if self.awaiting != "verdict":
            return None
        return self._s.window.span()

    def window_outages(self) -> tuple[tuple[int, int], ...]:
        return self._s.window.outages

    def window_last_close(self) -> int | None:
        """The latest close journaled into the open window (a verdict's instant)."""
        return self._s.window.last_close()

    def _close(self, event: Close) -> None:
        s = self._s
        if not (s.finished or s.owed):
            s.window.close(event.t_us)

    def _set_starter(self, event: Starter) -> None:
        self._s.starter = event.player

    def _set_dealer(self, event: Dealer) -> None:
        self._s.dealer = event.player

    def _apply_undo(self, event: Undo) -> None:
        self._undo()

    def _ignore(self, event: AnyEvent) -> None:
        """An event that is not Kilo de merde's, applied unchecked: it changes nothing."""

    def _apply_verdict(self, event: Verdict) -> None:
        s = self._s
        # The window's result as plain values: the window is dropped below, so nothing else
        # would read a SlapResult built for it.
        presses, non_pressers, last, tied, margin_us, close_us, _, margin_res_us = s.window.judge()
        order = tuple([(p.player, p.t_us) for p in presses])
        closed = s.window.last_close()
        reslap = False
        if event.valid:
            if tied and not non_pressers and self.rules.tie == "reslap":
                losers: tuple[str, ...] = ()
                reslap = True
            else:
                losers = last
            s.after_draws = "end_round"
        else:
            claimant = presses[0].player
            named = event.penalized if event.penalized is not None else [claimant]
            losers = tuple(sorted(named, key=self._seat.__getitem__))
            s.after_draws = "continue"
        s.last_slap = JudgedSlap(
            order, losers, margin_us, event.valid, tied, non_pressers, reslap, margin_res_us, s.carried_late
        )
        # Judged again if a press stamped before ``closed`` arrives before a draw: the close it
        # cut at (the table's, else the window's own timeout).
        s.verdict = (event, closed, close_us)
        s.late, s.rejudge, s.carried_late = (), False, ()
        s.slaps += 1
        s.owed = list(losers)
        s.window = s.window.following()
        if s.owed and self.pile_count == 0:
            self._finish("pile_empty")

    def _take(self, card: Card) -> None:
        """Remove ``card`` from where the next card comes from (check_card said it can)."""
        s = self._s
        assert card.rank is not None
        if s.unknown.get(card.rank):
            s.unknown[card.rank] -= 1
            return
        block = next(b for b in s.blocks if b)
        same_rank = [c for c in block if c.rank == card.rank]
        # Prefer the exact card; a rank-only entry stands for whichever suit it turns out to be.
        exact = [c for c in same_rank if c == card]
        vague = [c for c in same_rank if c.suit is None]
        block.remove((exact or vague or same_rank)[0])
        if not block:
            s.blocks.remove(block)

    def _apply_draw(self, event: Draw) -> None:
        s = self._s
        player, card = event.player, event.card
        self._take(card)
        s.owed.remove(player)
        s.draws += 1
        s.verdict, s.rejudge = None, False  # a verdict followed by a draw is not judged again
        hand = s.cards[player]
        flushed: tuple[Card, ...] = ()
        if card.rank is Rank.SEVEN and not (self.rules.seven == "first_card_counts" and not hand):
            flushed = (*hand, card)
            s.blocks.append(list(flushed))
            hand.clear()
            s.flushes[player] += 1
        else:
            hand.append(card)
        s.last_draw = DrawOutcome(player, card, 0 if flushed else card_kilos(card), flushed)
        if s.owed:
            if self.pile_count == 0:
                self._finish("pile_empty")
        elif s.after_draws == "end_round":
            self._end_round()

    def _end_round(self) -> None:
        s = self._s
        s.history = (*s.history, tuple(self.kilos(p) for p in self.players))
        if s.round >= self.rounds:
            self._finish("rounds")
        else:
            s.round += 1
            s.starter = None

    def _finish(self, reason: Literal["rounds", "pile_empty"]) -> None:
        s = self._s
        s.finished = True
        s.end_reason = reason
        # The game is over: nobody owes a draw any more ("awaiting" says "nothing" too).
        s.owed = []
        if reason == "pile_empty" and len(s.history) < s.round:
            s.history = (*s.history, tuple(self.kilos(p) for p in self.players))

    def _undo(self) -> None:
        decision, state, run = self._checkpoints.pop()
        self.last_undone = decision
        late = self._s.late if isinstance(decision, Verdict) else ()
        self._s = state
        state.carried_late = late
        # Only presses, closes and starters can follow an undone decision (any later decision
        # was undone first); they are hardware facts and stay, now judged in the restored state.
        self._replay(run)
        if self._checkpoints:
            self._checkpoints.top()[2].then(run)

    def _replay(self, run: _Run) -> None:
        """What ``_press``, ``_close`` and ``_set_starter`` do to each event of ``run``, in one step."""
        s = self._s
        if run.starter is not None:
            s.starter = run.starter
        if s.finished or s.owed:
            s.ignored_presses += run.presses
            return
        window = s.window
        # In the order they came: a kept press one by one, an epoch's sum where it began.
        sums = sorted(((entry[3], key) for key, entry in run.epochs.items()), key=lambda x: x[0])
        kept = iter(run.kept)  # already in their order
        press = next(kept, None)
        for place, key in [*sums, (run.presses, None)]:
            while press is not None and press[0] < place:
                _, epoch, player, t_us, res_us = press
                if not window.add(player, t_us, res_us, epoch):
                    s.ignored_presses += 1
                press = next(kept, None)
            if key is None:
                break
            self._replay_epoch(run, key)
        for t_us in run.closes:
            window.close(t_us)
        for from_us, to_us in run.outages:
            window.stretch(from_us, to_us)

    def _replay_epoch(self, run: _Run, key: tuple[str | None, str | None]) -> None:
        """An epoch's presses of ``run`` in one step: each player's earliest, the rest counted."""
        window = self._s.window
        count, earliest, latest, _ = run.epochs[key]
        if not window.accepts(key):
            self._s.ignored_presses += count
            return
        for player, (t_us, res_us) in earliest.items():
            window.add(player, t_us, res_us, key)
        window.presses_seen += count - len(earliest)
        window.saw(latest)

    # --- reporting -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        from companion.games.kilo.odds import pile_odds

        s = self._s
        window = s.window.result()
        return {
            "game": "kilo",
            "players": list(self.players),
            "rules": self.rules.model_dump(),
            "round": s.round,
            "rounds": self.rounds,
            "finished": s.finished,
            "end_reason": s.end_reason,
            "winners": self.winners(),
            "awaiting": self.awaiting,
            "owed_draws": list(s.owed),
            "starter": s.starter,
            "dealer": s.dealer,
            "standings": [
                {"player": p, "kilos": k, "cards": [str(c) for c in s.cards[p]], "flushes": s.flushes[p]}
                for p, k in self.standings()
            ],
            "pile": {
                "count": self.pile_count,
                "known_bottom": self.known_bottom,
                **pile_odds(self).to_json(),
            },
            "window": {
                "order": [{"player": p.player, "t_us": p.t_us} for p in window.order],
                "close_us": window.close_us,
            },
            "last_slap": s.last_slap.to_json() if s.last_slap else None,
            "slaps": s.slaps,
            "draws": s.draws,
            "ignored_presses": s.ignored_presses,
            "history": [list(row) for row in s.history],
            **self._late_json(),
        }

    def _late_json(self) -> dict[str, Any]:
        """Presses stamped before the last verdict's close that arrived after it: those it was
        judged again with, then those only recorded (docs/table-log.md); absent when none."""
        s = self._s
        judged = s.last_slap.late if s.last_slap else ()
        if not judged and not s.late:
            return {}
        return {
            "late": [
                {"player": p, "t_us": t, "counted": counted}
                for counted, presses in ((True, judged), (False, s.late))
                for p, t in presses
            ]
        }

    def summary(self, lang: str = "fr") -> str:
        from companion.games.kilo.narrate import kilo_summary

        return kilo_summary(self, lang)


# What each event class is to the engine: its check, its change, and what undo keeps of it (a
# "decision" gets a copy of the state before it; a "fact" joins the run after the newest one;
# an "undo" neither). Looked up by the event's class, once an event: the chains of isinstance in
# the check and the apply were a tenth of a long replay.
_Step = tuple[Callable[[KiloGame, Any], None], Callable[[KiloGame, Any], None], str]
_BY_CLASS: tuple[tuple[type, _Step], ...] = (
    (Press, (KiloGame._check_player, KiloGame._press, "fact")),
    (Starter, (KiloGame._check_player, KiloGame._set_starter, "fact")),
    (Dealer, (KiloGame._check_dealer, KiloGame._set_dealer, "fact")),
    (Close, (KiloGame._check_close, KiloGame._close, "fact")),
    (Outage, (KiloGame._check_outage, KiloGame._outage, "fact")),
    (Undo, (KiloGame._check_undo, KiloGame._apply_undo, "undo")),
    (Verdict, (KiloGame._check_verdict, KiloGame._apply_verdict, "decision")),
    (Draw, (KiloGame._check_draw, KiloGame._apply_draw, "decision")),
)
_FOREIGN: _Step = (KiloGame._check_foreign, KiloGame._ignore, "fact")
_STEPS: dict[type, _Step] = dict(_BY_CLASS)


def _step_of(cls: type) -> _Step:
    """The step of an event class that is not one of ``_BY_CLASS``'s own: a subclass takes its
    base's, another game's event is foreign. Found anew each time (no such class comes in a
    log), so what it answers is never an answer kept from before."""
    return next((step for base, step in _BY_CLASS if issubclass(cls, base)), _FOREIGN)


__all__ = [
    "DEALT_RANKS",
    "KILOS",
    "Awaiting",
    "DrawOutcome",
    "JudgedSlap",
    "KiloGame",
    "card_kilos",
    "pile_ranks",
]
