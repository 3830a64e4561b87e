"""A quick fold of one stored game of Kilo de merde for the statistics: final kilos, flushes,
winners and every judged slap, from the journal's payloads without building the engine.

Statistics read every game of the journal (a thousand games in well under a second), and the full
engine costs a pydantic model and a state checkpoint per event. The payloads were checked by the
engine before they were stored, so this fold only follows them: undo first removes the decision
it cancels (the engine's rule: the state is that of the log without that decision), then one
pass in order. ``tests/table/test_stats.py`` checks it against the engine on whole games with undos.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.games.kilo.slap import stretched_limit
from companion.table.stats import SlapFact  # what statistics keep of a judged slap

_KILOS = {"A": 100, "J": 11, "Q": 12, "K": 13}
_DEALT = {
    3: "K Q J",
    4: "K Q J 2",
    5: "K Q J 2 3",
    6: "K Q J 2 3 4",
    7: "K Q J 2 3 4 5",
    8: "K Q J 2 3 4 5 6",
    9: "K Q J 2 3 4 5 6 8",
    10: "K Q J 2 3 4 5 6 8 9",
}
_DECISIONS = ("verdict", "draw")


@dataclass(frozen=True, slots=True)
class KiloTally:
    finished: bool
    winners: tuple[str, ...]
    kilos: dict[str, int]
    flushes: dict[str, int]
    slaps: tuple[SlapFact, ...]


def _rank(card: str) -> str:
    text = card.strip().upper()
    return text[:-1] if text[-1:] in "SHDC" and len(text) > 1 else text


def _kilos(rank: str) -> int:
    return _KILOS.get(rank) or int(rank)


def effective(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events in force: each undo removes the latest decision still in force."""
    out: list[dict[str, Any]] = []
    decisions: list[int] = []
    for event in events:
        kind = event.get("type")
        if kind == "undo":
            if decisions:
                del out[decisions.pop()]
            continue
        if kind in _DECISIONS:
            decisions.append(len(out))
        out.append(event)
    return out


class _Window:
    """A slap window reduced to what a judged slap needs; ``slap.SlapWindow``'s rules (earliest
    press a player, order by stamp then seat, cut at the close), without its bookkeeping."""

    __slots__ = ("close", "closed", "earliest", "epoch", "floor", "latest", "outages")

    def __init__(self, floor: tuple[Any, int] | None = None) -> None:
        self.earliest: dict[str, int] = {}
        self.close: int | None = None
        self.closed: int | None = None  # the latest close (a verdict's instant)
        self.outages: list[tuple[int, int]] = []  # the table stopped: the timeout waits
        self.epoch: Any = None
        self.latest: int | None = None
        self.floor = floor  # the last verdict's horizon: (epoch, its window's latest stamp)

    def horizon(self) -> tuple[Any, int] | None:
        if self.latest is None or self.epoch is None or self.epoch[-1] is None:
            return None  # no named epoch: an old log, one clock, no horizon
        # As slap.SlapWindow.horizon: the later of the latest press and the table's close.
        if self.closed is not None and self.closed > self.latest:
            return self.epoch, self.closed
        return self.epoch, self.latest

    def add(self, player: str, t_us: int, epoch: Any = (None, None)) -> None:
        if self.floor is not None and epoch == self.floor[0] and t_us <= self.floor[1]:
            return  # made before the last verdict: the judged window's
        # One clock epoch a window: a press of another (a reboot) comes after its close.
        if self.epoch is None:
            self.epoch = epoch
        elif self.epoch != epoch:
            return
        if self.latest is None or t_us > self.latest:
            self.latest = t_us
        current = self.earliest.get(player)
        if current is None or t_us < current:
            self.earliest[player] = t_us

    def judge(
        self, players: tuple[str, ...], seat: dict[str, int], timeout_us: int
    ) -> tuple[list[tuple[str, int]], tuple[str, ...], bool, int | None, bool]:
        """(order, last, tied, margin_us, everyone pressed)."""
        keys = sorted((t, seat[p], p) for p, t in self.earliest.items())
        if keys:
            limit = stretched_limit(keys[0][0], timeout_us, self.outages)
            close = limit if self.close is None else min(limit, self.close)
            keys = [k for k in keys if k[0] <= close]
        order = [(p, t) for t, _, p in keys]
        if len(order) < len(players):
            pressed = {p for p, _ in order}
            non_pressers = tuple(p for p in players if p not in pressed)
            return order, non_pressers, False, None, False
        last_t = order[-1][1]
        last = tuple(p for p, t in order if t == last_t)
        margin = order[-1][1] - order[-2][1] if len(order) >= 2 else None
        return order, last, len(last) > 1, margin, True


class _Fold:
    """``tally``'s state, one method a kind of event (found by the event's ``type``)."""

    def __init__(self, new_game: dict[str, Any]) -> None:
        self.players = tuple(new_game["players"])
        self.seat = {p: i for i, p in enumerate(self.players)}
        rules = new_game.get("rules") or {}
        self.timeout_us = int(rules.get("slap_timeout_ms", 5000)) * 1000
        self.reslap_ties = rules.get("tie", "all_draw") == "reslap"
        self.first_counts = rules.get("seven", "flush") == "first_card_counts"
        self.rounds = int(new_game["rounds"])
        self.pile = 4 * (13 - len(_DEALT[len(self.players)].split()))
        self.hands: dict[str, list[int]] = {p: [] for p in self.players}
        self.flushes = dict.fromkeys(self.players, 0)
        self.window = _Window()
        self.owed: list[str] = []
        self.end_round = True
        self.round_no = 1
        self.finished = False
        self.slaps: list[SlapFact] = []

    def press(self, event: dict[str, Any]) -> None:
        if not (self.finished or self.owed):
            self.window.add(event["player"], event["t_us"], (event.get("clock"), event.get("epoch")))

    def close(self, event: dict[str, Any]) -> None:
        if self.finished or self.owed:
            return
        window = self.window
        if window.close is None or event["t_us"] < window.close:
            window.close = event["t_us"]
        if window.closed is None or event["t_us"] > window.closed:
            window.closed = event["t_us"]

    def outage(self, event: dict[str, Any]) -> None:
        if not (self.finished or self.owed):
            self.window.outages.append((event["from_us"], event["to_us"]))

    def verdict(self, event: dict[str, Any]) -> None:
        order, last, tied, margin, everyone = self.window.judge(self.players, self.seat, self.timeout_us)
        if event["valid"]:
            losers = () if (tied and everyone and self.reslap_ties) else last
            self.end_round = True
        else:
            named = event.get("penalized") or [order[0][0]]
            losers = tuple(sorted(named, key=self.seat.__getitem__))
            self.end_round = False
        self.slaps.append(SlapFact(tuple(order), losers, margin, bool(event["valid"]), tied))
        self.owed = list(losers)
        self.window = _Window(self.window.horizon())
        if self.owed and self.pile == 0:
            self.finished = True

    def draw(self, event: dict[str, Any]) -> None:
        player = event["player"]
        rank = _rank(event["card"])
        self.pile -= 1
        self.owed.remove(player)
        hand = self.hands[player]
        if rank == "7" and not (self.first_counts and not hand):
            self.pile += len(hand) + 1
            hand.clear()
            self.flushes[player] += 1
        else:
            hand.append(_kilos(rank))
        if self.owed:
            self.finished = self.finished or self.pile == 0
        elif self.end_round:
            self._end_round()

    def _end_round(self) -> None:
        if self.round_no >= self.rounds:
            self.finished = True
        else:
            self.round_no += 1

    def result(self) -> KiloTally:
        kilos = {p: sum(self.hands[p]) for p in self.players}
        winners: tuple[str, ...] = ()
        if self.finished:
            best = min(kilos.values())
            winners = tuple(p for p in self.players if kilos[p] == best)
        return KiloTally(self.finished, winners, kilos, self.flushes, tuple(self.slaps))


def tally(new_game: dict[str, Any], events: Iterable[dict[str, Any]], may_undo: bool = True) -> KiloTally:
    """Fold the events after ``new_game`` (payload dicts, as stored). ``may_undo=False`` says
    the events hold no undo (the caller saw none in the text), which saves a pass."""
    fold = _Fold(new_game)
    steps = {
        "press": fold.press,
        "close": fold.close,
        "outage": fold.outage,
        "verdict": fold.verdict,
        "draw": fold.draw,
    }
    rows = list(events)
    if may_undo and any(e.get("type") == "undo" for e in rows):
        rows = effective(rows)
    for event in rows:
        step = steps.get(event["type"])
        if step is not None:
            step(event)
    return fold.result()
