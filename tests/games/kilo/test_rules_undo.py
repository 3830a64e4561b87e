"""Undo in Kilo de merde against an independent replay.

An undo is the log without the decision it undid (docs/table-log.md). The reference here is a
naive fold written from the spec alone: it keeps every press as logged, judges a window by
sorting them, and never undoes anything, since it is fed the log with the undone decisions
already taken out by a plain list operation. The engine under test is fed the log with its
undos. Presses carry mixed clock resolutions and undos come in chains, so a re-application that
drops a press's ``res_us``, or an undo that forgets what followed the later decision, shows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from companion.cards import FOUR_SUITS, RANKS, Card, Rank
from companion.errors import RuleError
from companion.games.kilo.events import (
    Close,
    Dealer,
    Draw,
    KiloRules,
    NewKiloGame,
    Press,
    Starter,
    Verdict,
)
from companion.games.kilo.rules import KiloGame
from companion.table.fold import replay
from companion.table.log import Event, Undo

NAMES = ["Ana", "Bea", "Cy", "Dom", "Eve", "Fab"]
# COMPANION_PROPERTY_SCALE=20 hunts twenty times longer; bench/mutation.py runs a tenth.
SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))
EXAMPLES = max(10, int(200 * SCALE))
# The resolutions a table mixes: GPIO kernel stamps (absent or 1), a Pico (60), keys (20 ms).
RESOLUTIONS = [None, 1, 60, 1000, 20_000, 20_000]

# The ranks dealt to the players (rules.md table), written out again rather than imported.
DEALT = {3: "K Q J", 4: "K Q J 2", 5: "K Q J 2 3", 6: "K Q J 2 3 4"}
KILOS = {"A": 100, "J": 11, "Q": 12, "K": 13}


def kilos_of(card: Card) -> int:
    assert card.rank is not None
    return KILOS.get(card.rank.value) or int(card.rank.value)


# --- the reference: a naive fold of a log without undos -------------------------------------------


@dataclass
class Reference:
    setup: NewKiloGame
    round: int = 1
    presses: list[tuple[str, int, int]] = field(default_factory=list)  # as logged, arrival order
    closes: list[int] = field(default_factory=list)
    owed: list[str] = field(default_factory=list)
    end_round_after_draws: bool = True
    finished: bool = False
    end_reason: str | None = None
    last_slap: dict[str, Any] | None = None
    starter: str | None = None
    dealer: str | None = None
    slaps: int = 0
    draws: int = 0
    ignored: int = 0
    hands: dict[str, list[Card]] = field(default_factory=dict)
    history: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = list(self.setup.players)
        self.hands = {p: [] for p in self.players}
        dealt = DEALT[len(self.players)].split()
        self.pile_size = 4 * sum(1 for r in RANKS if r.value not in dealt)

    def kilos(self, player: str) -> int:
        return sum(kilos_of(c) for c in self.hands[player])

    def pile_count(self) -> int:
        # Flushed cards go back under the pile: the pile is every card not in front of someone.
        return self.pile_size - sum(len(h) for h in self.hands.values())

    def window(self) -> dict[str, Any]:
        """The open window judged from scratch: earliest press of each player (the first logged
        among equal stamps), counted up to the close."""
        earliest: dict[str, tuple[int, int]] = {}
        for player, t, res in self.presses:
            if player not in earliest or t < earliest[player][0]:
                earliest[player] = (t, res)
        if not earliest:
            return {
                "order": [],
                "non_pressers": list(self.players),
                "last": list(self.players),
                "tied": False,
                "margin": None,
                "margin_res": 1,
            }
        first = min(t for t, _ in earliest.values())
        limit = first + self.setup.rules.slap_timeout_ms * 1000
        # A close stamped before the first press closed no window; the earliest one after did.
        after = [c for c in self.closes if c >= first]
        if after:
            limit = min(limit, min(after))
        counted = sorted((t, self.players.index(p), p, res) for p, (t, res) in earliest.items() if t <= limit)
        order = [(p, t, res) for t, _, p, res in counted]
        non_pressers = [p for p in self.players if p not in {q for q, _, _ in order}]
        tied = False
        margin: int | None = None
        margin_res = 1
        if non_pressers or not order:
            last = non_pressers
        else:
            # The latest press and every press just before it that cannot be told apart from it.
            fp, ft, fres = order[-1]
            last = [fp]
            for p, t, res in reversed(order[:-1]):
                if ft - t >= max(fres, res, 1):
                    break
                last.insert(0, p)
            tied = len(last) > 1
            if len(order) >= 2:
                margin = ft - order[-2][1]
                margin_res = max(fres, order[-2][2], 1)
        return {
            "order": order,
            "non_pressers": non_pressers,
            "last": last,
            "tied": tied,
            "margin": margin,
            "margin_res": margin_res,
        }

    def feed(self, ev: Event) -> None:
        if isinstance(ev, Press):
            if self.finished or self.owed:
                self.ignored += 1
            else:
                self.presses.append((ev.player, ev.t_us, ev.res_us or 1))
        elif isinstance(ev, Close):
            if not (self.finished or self.owed):
                self.closes.append(ev.t_us)
        elif isinstance(ev, Starter):
            self.starter = ev.player
        elif isinstance(ev, Dealer):
            self.dealer = ev.player
        elif isinstance(ev, Verdict):
            self.verdict(ev)
        elif isinstance(ev, Draw):
            self.draw(ev)
        else:
            raise AssertionError(f"the reference takes no {ev!r}")

    def verdict(self, ev: Verdict) -> None:
        w = self.window()
        if ev.valid:
            if w["tied"] and not w["non_pressers"] and self.setup.rules.tie == "reslap":
                losers: list[str] = []  # a tie replayed: nobody draws
            else:
                losers = list(w["last"])
            self.end_round_after_draws = True
        else:
            named = ev.penalized if ev.penalized is not None else [w["order"][0][0]]
            losers = sorted(named, key=self.players.index)
            self.end_round_after_draws = False
        self.last_slap = {
            "order": [{"player": p, "t_us": t} for p, t, _ in w["order"]],
            "losers": losers,
            "margin_us": w["margin"],
            "valid": ev.valid,
            "tied": w["tied"],
            "non_pressers": w["non_pressers"],
            **({"margin_res_us": w["margin_res"]} if w["margin_res"] > 1 else {}),
        }
        self.slaps += 1
        self.owed = list(losers)
        self.presses, self.closes = [], []
        if self.owed and self.pile_count() == 0:
            self.finish("pile_empty")

    def draw(self, ev: Draw) -> None:
        hand = self.hands[ev.player]
        self.owed.remove(ev.player)
        self.draws += 1
        assert ev.card.rank is not None
        if ev.card.rank is Rank.SEVEN and not (self.setup.rules.seven == "first_card_counts" and not hand):
            hand.clear()
        else:
            hand.append(ev.card)
        if self.owed:
            if self.pile_count() == 0:
                self.finish("pile_empty")
        elif self.end_round_after_draws:
            self.history.append([self.kilos(p) for p in self.players])
            if self.round >= self.setup.rounds:
                self.finish("rounds")
            else:
                self.round += 1
                self.starter = None

    def finish(self, reason: str) -> None:
        self.finished, self.end_reason, self.owed = True, reason, []
        if reason == "pile_empty" and len(self.history) < self.round:
            self.history.append([self.kilos(p) for p in self.players])

    def state(self) -> dict[str, Any]:
        w = self.window()
        return {
            "round": self.round,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "owed_draws": self.owed,
            "starter": self.starter,
            "dealer": self.dealer,
            "kilos": {p: self.kilos(p) for p in self.players},
            "cards": {p: sorted(str(c) for c in self.hands[p]) for p in self.players},
            "pile": self.pile_count(),
            "last_slap": self.last_slap,
            "slaps": self.slaps,
            "draws": self.draws,
            "ignored_presses": self.ignored,
            "history": self.history,
            "window": [(p, t) for p, t, _ in w["order"]],
            "window_last": w["last"],
            "window_tied": w["tied"],
        }


def engine_state(game: KiloGame) -> dict[str, Any]:
    js = game.to_json()
    w = game.window()
    return {
        "round": js["round"],
        "finished": js["finished"],
        "end_reason": js["end_reason"],
        "owed_draws": js["owed_draws"],
        "starter": js["starter"],
        "dealer": js["dealer"],
        "kilos": {row["player"]: row["kilos"] for row in js["standings"]},
        "cards": {row["player"]: sorted(row["cards"]) for row in js["standings"]},
        "pile": js["pile"]["count"],
        "last_slap": js["last_slap"],
        "slaps": js["slaps"],
        "draws": js["draws"],
        "ignored_presses": js["ignored_presses"],
        "history": js["history"],
        "window": [(p.player, p.t_us) for p in w.order],
        "window_last": list(w.last),
        "window_tied": w.tied,
    }


def without_undone(log: list[Event]) -> tuple[list[Event], int, int]:
    """The log with each undo and the decision it undid taken out (the latest decision still in
    force, docs/table-log.md); also how many undos and the longest chain of them in a row."""
    kept: list[Event | None] = []
    in_force: list[int] = []
    undos = chain = longest = 0
    for ev in log:
        if isinstance(ev, Undo):
            kept[in_force.pop()] = None
            undos += 1
            chain += 1
            longest = max(longest, chain)
            continue
        chain = 0
        if isinstance(ev, Verdict | Draw):
            in_force.append(len(kept))
        kept.append(ev)
    return [ev for ev in kept if ev is not None], undos, longest


# --- building logs the table could enter --------------------------------------------------------


def can_undo(game: KiloGame) -> bool:
    try:
        game.check(Undo())
    except RuleError:
        return False
    return True


def a_card(draw: st.DrawFn, game: KiloGame) -> Card:
    source, counts = game.draw_source()
    if source == "returned" and draw(st.booleans()):
        return draw(st.sampled_from(game.returned_blocks()[0]))
    rank: Rank = draw(st.sampled_from(sorted(counts, key=lambda r: r.order)))
    card = Card(rank, draw(st.sampled_from([None, *FOUR_SUITS])))
    try:
        game.check(Draw(player=game.owed_draws[0], card=card))
    except RuleError:
        card = Card(rank)  # that exact card lies elsewhere; the rank alone is always drawable
    return card


@st.composite
def logs(draw: st.DrawFn) -> list[Event]:
    n = draw(st.integers(3, 6))
    rules = KiloRules(
        seven=draw(st.sampled_from(["flush", "first_card_counts"])),
        tie=draw(st.sampled_from(["all_draw", "reslap"])),
        slap_timeout_ms=draw(st.sampled_from([100, 500, 5000])),
    )
    setup = NewKiloGame(players=NAMES[:n], rounds=draw(st.integers(1, 3)), rules=rules)
    game = KiloGame(setup)
    log: list[Event] = [setup]
    if draw(st.integers(0, 5)) == 0:
        log.append(Dealer(player=draw(st.sampled_from(setup.players))))
    base = draw(st.integers(0, 2**40))
    timeout = rules.slap_timeout_ms * 1000
    # Stamps bunched within a few key resolutions of each other, so ties and near-ties abound.
    stamp = st.integers(0, 60_000) | st.sampled_from([0, 1, 12, 59, 60, 19_999, 20_000, timeout])
    stamp = stamp | st.integers(0, 2).map(lambda k: k * 20_000) | st.integers(0, 400)
    for _ in range(draw(st.integers(1, 40))):
        kinds = ["press"] * 4 + ["burst"] * 2 + ["close", "starter"]
        if game.awaiting == "verdict":
            kinds += ["verdict"] * 3 + ["judged too soon"] * 2
        if game.awaiting == "draw":
            kinds += ["draw"] * 4
        if can_undo(game):
            kinds += ["undo"] * 3
        kind = draw(st.sampled_from(kinds))
        events: list[Event]
        if kind == "press":
            res = draw(st.sampled_from(RESOLUTIONS))
            events = [Press(player=draw(st.sampled_from(setup.players)), t_us=base + draw(stamp), res_us=res)]
        elif kind == "burst":
            # Several players on one kind of clock within a few of its ticks of each other.
            res = draw(st.sampled_from(RESOLUTIONS))
            who = draw(st.lists(st.sampled_from(setup.players), min_size=2, max_size=n, unique=True))
            at = base + draw(stamp)
            events = [
                Press(player=p, t_us=at + draw(st.integers(0, 2 * (res or 1))), res_us=res) for p in who
            ]
        elif kind == "judged too soon":
            # A verdict given while players were still pressing, then undone (issue 21).
            res = draw(st.sampled_from(RESOLUTIONS))
            late = [p for p in setup.players if not game.window_pressed(p)] or list(setup.players)
            who = draw(st.lists(st.sampled_from(late), min_size=1, max_size=len(late), unique=True))
            at = base + draw(stamp)
            events = [
                Verdict(valid=draw(st.booleans())),
                *(Press(player=p, t_us=at + draw(st.integers(0, 2 * (res or 1))), res_us=res) for p in who),
                Undo(),
            ]
        elif kind == "close":
            events = [Close(t_us=base + draw(st.integers(-timeout, 2 * timeout)))]
        elif kind == "starter":
            events = [Starter(player=draw(st.sampled_from(setup.players)))]
        elif kind == "undo":
            events = [Undo()] * draw(st.integers(1, 3))  # chains of undos, as far as allowed
        elif kind == "verdict":
            if draw(st.booleans()):
                events = [Verdict(valid=True)]
            else:
                pressers = [p for p in setup.players if game.window_pressed(p)]
                events = [
                    Verdict(
                        valid=False,
                        penalized=draw(
                            st.none() | st.lists(st.sampled_from(pressers), unique=True, min_size=1)
                        ),
                    )
                ]
            # The next window starts later, or at once: presses right after a verdict that is
            # then undone fall inside the window it had closed.
            base += draw(st.sampled_from([0, 20_000, 4 * timeout]))
        else:
            events = [Draw(player=draw(st.sampled_from(game.owed_draws)), card=a_card(draw, game))]
        for ev in events:
            if isinstance(ev, Undo) and not can_undo(game):
                break
            game.apply(ev)  # type: ignore[arg-type]
            log.append(ev)
    return log


# --- the properties -------------------------------------------------------------------------------


@settings(max_examples=EXAMPLES, deadline=None)
@given(logs())
def test_undo_is_the_log_without_the_undone_decisions(log: list[Event]) -> None:
    effective, undos, chain = without_undone(log)
    event(f"undos: {min(undos, 3)}{'+' if undos > 3 else ''}, longest chain: {min(chain, 3)}")
    reference = Reference(log[0])  # type: ignore[arg-type]
    for ev in effective[1:]:
        reference.feed(ev)
    live = KiloGame(log[0])  # type: ignore[arg-type]
    for ev in log[1:]:
        live.apply(ev)  # type: ignore[arg-type]
    assert engine_state(live) == reference.state()
    # The same log read back from its text (res_us written out and read in again).
    assert engine_state(replay([ev.to_json() for ev in log])) == reference.state()  # type: ignore[arg-type]


@st.composite
def windows_cut_by_undone_decisions(draw: st.DrawFn) -> list[Event]:
    """One window's presses (mixed clocks, any order) with verdicts slipped in between and then
    undone, one at a time or several in a row, with a draw among them now and then."""
    n = draw(st.integers(3, 6))
    setup = NewKiloGame(
        players=NAMES[:n], rounds=3, rules=KiloRules(tie=draw(st.sampled_from(["all_draw", "reslap"])))
    )
    game = KiloGame(setup)
    log: list[Event] = [setup]
    base = draw(st.integers(0, 2**40))
    for _ in range(draw(st.integers(2, 14))):
        res = draw(st.sampled_from(RESOLUTIONS))
        log.append(
            Press(
                player=draw(st.sampled_from(setup.players)),
                t_us=base + draw(st.integers(0, 60_000)),
                res_us=res,
            )
        )
        game.apply(log[-1])  # type: ignore[arg-type]
        if game.awaiting == "verdict" and draw(st.integers(0, 2)) == 0:
            log.append(Verdict(valid=draw(st.booleans())))
            game.apply(log[-1])  # type: ignore[arg-type]
            if game.awaiting == "draw" and draw(st.booleans()):
                # A plain card still in the pile (four 5s can be gone: the next rank then).
                for rank in (Rank.FIVE, Rank.SIX, Rank.FOUR, Rank.THREE):
                    card = Draw(player=game.owed_draws[0], card=Card(rank))
                    try:
                        game.apply(card)  # checked before anything changes
                    except RuleError:
                        continue
                    log.append(card)
                    break
        if can_undo(game) and draw(st.integers(0, 2)) == 0:
            for _ in range(draw(st.integers(1, 4))):
                if can_undo(game):
                    log.append(Undo())
                    game.apply(log[-1])  # type: ignore[arg-type]
    while can_undo(game):  # every decision undone in the end: one window, as if never judged
        log.append(Undo())
        game.apply(log[-1])  # type: ignore[arg-type]
    return log


@settings(max_examples=EXAMPLES, deadline=None)
@given(windows_cut_by_undone_decisions())
def test_presses_around_undone_decisions_are_judged_as_if_they_never_were(log: list[Event]) -> None:
    effective, undos, chain = without_undone(log)
    event(f"undos: {min(undos, 3)}{'+' if undos > 3 else ''}, longest chain: {min(chain, 3)}")
    assert all(isinstance(ev, NewKiloGame | Press) for ev in effective)
    reference = Reference(log[0])  # type: ignore[arg-type]
    for ev in effective[1:]:
        reference.feed(ev)
    game = replay([ev.to_json() for ev in log])
    assert isinstance(game, KiloGame)
    assert engine_state(game) == reference.state()
    game.apply(Verdict(valid=True))
    reference.feed(Verdict(valid=True))
    assert engine_state(game) == reference.state()


def test_undo_keeps_each_later_press_at_its_own_resolution() -> None:
    """The case from issue 21: A and B press 50 ms apart on keys (20 ms), a false slap, C and D
    press 12 µs apart on keys, the verdict is undone: C and D tie, as the log without it says."""
    players = ["A", "B", "C", "D"]
    log: list[Event] = [
        NewKiloGame(players=players, rounds=3),
        Press(player="A", t_us=1_000_000, res_us=20_000),
        Press(player="B", t_us=1_050_000, res_us=20_000),
        Verdict(valid=False),
        Press(player="C", t_us=1_100_000, res_us=20_000),
        Press(player="D", t_us=1_100_012, res_us=20_000),
        Undo(),
    ]
    game = replay([ev.to_json() for ev in log])
    assert isinstance(game, KiloGame)
    assert game.window().last == ("C", "D") and game.window().tied
    game.apply(Verdict(valid=True))
    assert game.owed_draws == ("C", "D")
    assert game.last_slap is not None and game.last_slap.margin_res_us == 20_000


def test_two_undos_in_a_row_keep_the_presses_after_the_later_decision() -> None:
    """Undoing a draw then its verdict: the presses made after the draw stay, judged in the
    window the verdict had closed."""
    game = KiloGame(NewKiloGame(players=["A", "B", "C"], rounds=3))
    for player, t in (("A", 100), ("B", 200), ("C", 300)):
        game.apply(Press(player=player, t_us=t))
    game.apply(Verdict(valid=False))  # A claimed wrongly and owes a draw
    game.apply(Draw(player="A", card=Card.parse("5")))
    game.apply(Press(player="B", t_us=150, res_us=20_000))  # earlier than B's first press
    game.apply(Press(player="C", t_us=160, res_us=20_000))
    game.apply(Undo())
    game.apply(Undo())
    expected = Reference(game.setup)
    for ev in [
        Press(player="A", t_us=100),
        Press(player="B", t_us=200),
        Press(player="C", t_us=300),
        Press(player="B", t_us=150, res_us=20_000),
        Press(player="C", t_us=160, res_us=20_000),
    ]:
        expected.feed(ev)
    assert engine_state(game) == expected.state()
    assert [(p.player, p.t_us, p.res_us) for p in game.window().order] == [
        ("A", 100, 1),
        ("B", 150, 20_000),
        ("C", 160, 20_000),
    ]
    assert game.window().last == ("A", "B", "C")  # within C's 20 ms key resolution: all tie


def test_the_reference_is_not_the_engine() -> None:
    """The reference judges on its own: it disagrees with a window that drops resolutions."""
    setup = NewKiloGame(players=["A", "B", "C"], rounds=1)
    ref = Reference(setup)
    for ev in [
        Press(player="A", t_us=0),
        Press(player="B", t_us=5, res_us=20_000),
        Press(player="C", t_us=10),
    ]:
        ref.feed(ev)
    # C is last by stamp; B's key clock cannot tell B from C, while A is 10 µs before C on
    # microsecond clocks: B and C tie, with the coarser precision on the margin.
    w = ref.window()
    assert w["last"] == ["B", "C"] and w["tied"] and (w["margin"], w["margin_res"]) == (5, 20_000)


def test_undo_says_what_it_undid_and_chained_undos_count_every_ignored_press() -> None:
    """Two losers owe a draw; a press falls while one still owes (ignored), the last draw
    ends the round, a press opens the next window; both draws undone: both presses fell while
    draws were owed, so both are ignored, as the log without the draws says."""
    game = KiloGame(NewKiloGame(players=["A", "B", "C"], rounds=3))
    for player, t in (("A", 100), ("B", 200), ("C", 200)):
        game.apply(Press(player=player, t_us=t))
    game.apply(Verdict(valid=True))
    assert game.owed_draws == ("B", "C")
    first, second = Draw(player="B", card=Card(Rank.FIVE)), Draw(player="C", card=Card(Rank.SIX))
    game.apply(first)
    game.apply(Press(player="A", t_us=5_000_000))  # C still owes: ignored
    game.apply(second)
    game.apply(Press(player="A", t_us=9_000_000))  # round 2's first press
    assert game.ignored_presses == 1 and game.window_pressed("A")
    game.apply(Undo())
    assert game.last_undone == second
    game.apply(Undo())
    assert game.last_undone == first
    assert game.owed_draws == ("B", "C") and game.ignored_presses == 2


def _press(player: str, t_us: int, epoch: str) -> Press:
    return Press(player=player, t_us=t_us, clock="pico", epoch=epoch)


NOBODY = Verdict(valid=False, penalized=[])
BOOT_1 = [_press("A", 1000, "1"), NOBODY, _press("B", 2000, "1"), NOBODY]


@pytest.mark.parametrize(
    ("log", "ignored", "window"),
    [
        # The window after the first verdict takes boot 1's clock; boot 2's presses that followed
        # two undone verdicts are all of another epoch: all three ignored, not the last run's one.
        (
            [*BOOT_1, _press("C", 3000, "2"), _press("D", 3100, "2"), NOBODY, _press("A", 4000, "2")],
            3,
            ["B"],
        ),
        # Boot 2 appears only after the later verdict: its one press is ignored once.
        (
            [*BOOT_1, _press("C", 3000, "1"), NOBODY, _press("D", 4000, "2")],
            1,
            ["B", "C"],
        ),
    ],
)
def test_chained_undos_count_presses_of_another_epoch_once_each(
    log: list[Event], ignored: int, window: list[str]
) -> None:
    setup = NewKiloGame(players=["A", "B", "C", "D"], rounds=9)
    full = [*log, Undo(), Undo()]
    live = KiloGame(setup)
    for ev in full:
        live.apply(ev)  # type: ignore[arg-type]
    assert live.ignored_presses == ignored
    assert [p.player for p in live.window().order] == window
    # And as the log without the two undone verdicts says.
    kept, undos, _ = without_undone([setup, *full])
    assert undos == 2
    fresh = KiloGame(setup)
    for ev in kept[1:]:
        fresh.apply(ev)  # type: ignore[arg-type]
    assert engine_state(live) == engine_state(fresh)
