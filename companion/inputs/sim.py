"""Simulated players: a button source whose presses come from human-like reaction times.

Each slap is planned from ``(seed, slap number)`` alone, so a demo that is killed and resumed
replays exactly the presses it would have made. The source thread only puts events on the queue;
``speed`` scales real time (0 = as fast as possible; stamps are virtual either way).
"""

from __future__ import annotations

import heapq
import queue
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from companion.inputs.base import Clock, InputEvent, Promise, QueueItem, source_thread

SIM_CLOCK = Clock("sim", 1000)
# Next to real buttons (e.g. ``serial+sim``) the simulator stamps on the host's clock.
SIM_REAL_CLOCK = Clock("CLOCK_MONOTONIC", 1000)
SlapKind = Literal["valid", "false", "timeout"]

# Human choice-reaction times are right-skewed: an ex-Gaussian fits them well (normal part
# ~220 ms ± 35 ms plus an exponential tail of ~90 ms), and nobody reacts in under ~120 ms.
RT_MU_US, RT_SIGMA_US, RT_TAU_US, RT_MIN_US = 220_000, 35_000, 90_000, 120_000
P_FALSE, P_TIMEOUT, P_PHOTO_FINISH, P_DEAD_HEAT = 0.08, 0.05, 0.2, 0.03
SLAP_SPACING_US = 30_000_000


@dataclass(frozen=True, slots=True)
class SlapPlan:
    index: int
    kind: SlapKind
    claimant: int
    t0_us: int
    presses: tuple[tuple[int, int], ...]  # (seat, t_us) in the order they reach the host
    penalized: tuple[int, ...]  # false slap: seats the table names (claimant first)
    lead_in_s: float  # real seconds of card passing before the first press, at speed 1
    timeout_us: int

    @property
    def close_us(self) -> int:
        return self.t0_us + self.timeout_us


@dataclass(frozen=True, slots=True)
class BurstEnd:
    """Put on the queue after a plan's last press: the simulated table has seen every slap."""

    plan: SlapPlan


def reaction_us(rng: random.Random) -> int:
    rt = rng.gauss(RT_MU_US, RT_SIGMA_US) + rng.expovariate(1 / RT_TAU_US)
    return max(RT_MIN_US, int(rt))


def plan_slap(
    seed: int, index: int, n_seats: int, timeout_ms: int = 5000, allow_false: bool = True
) -> SlapPlan:
    rng = random.Random(f"{seed}:slap:{index}")
    timeout_us = timeout_ms * 1000
    claimant = rng.randrange(n_seats)
    t0 = 1_000_000 + index * SLAP_SPACING_US + rng.randrange(1_000_000)
    roll = rng.random()
    kind: SlapKind = (
        "false" if allow_false and roll < P_FALSE else "timeout" if roll < P_FALSE + P_TIMEOUT else "valid"
    )
    others = [s for s in range(n_seats) if s != claimant]
    stamps: dict[int, int] = {claimant: t0}
    penalized: tuple[int, ...] = ()
    if kind == "false":
        # A feint: some players slap by reflex, the rest hold back.
        reacting = [s for s in others if rng.random() < 0.4]
        for seat in reacting:
            stamps[seat] = t0 + reaction_us(rng)
        penalized = (claimant,)
        if reacting and rng.random() < 0.3:
            penalized = (claimant, rng.choice(reacting))
    else:
        for seat in others:
            stamps[seat] = t0 + min(reaction_us(rng), timeout_us - 1)
        if kind == "timeout":
            del stamps[rng.choice(others)]  # looked away: never slaps
        elif len(others) >= 2 and rng.random() < P_PHOTO_FINISH:
            ordered = sorted(others, key=stamps.__getitem__)
            last, previous = ordered[-1], ordered[-2]
            gap = 0 if rng.random() < P_DEAD_HEAT else rng.randrange(1, 3000)
            stamps[last] = stamps[previous] + gap
    # USB, interrupts and threads deliver presses a little late, not always in stamp order.
    arrival = sorted(stamps, key=lambda s: stamps[s] + rng.randrange(0, 2000))
    presses = tuple((seat, stamps[seat]) for seat in arrival)
    lead_in = rng.uniform(1.5, 4.0)
    return SlapPlan(index, kind, claimant, t0, presses, penalized, lead_in, timeout_us)


# The demo's queue also carries the end-of-burst marker of the simulated table.
SimItem = QueueItem | BurstEnd


class SimSource:
    """Simulated buttons behind the common InputSource interface."""

    name = "sim"

    def __init__(
        self,
        n_seats: int,
        seed: int = 0,
        speed: float = 1.0,
        timeout_ms: int = 5000,
        now_ns: Callable[[], int] | None = None,
    ) -> None:
        if not 1 <= n_seats <= 10:
            raise ValueError(f"the simulator seats 1 to 10 players, not {n_seats}")
        if speed < 0:
            raise ValueError("speed cannot be negative (0 means as fast as possible)")
        self.n_seats = n_seats
        self.seed = seed
        self.speed = speed
        self.timeout_ms = timeout_ms
        # Virtual stamps by default (a resumed demo replays the same ones); with ``now_ns`` each
        # slap is moved onto that clock, as it plays, so it can be compared with real presses.
        self._real_now = now_ns
        self.clock = SIM_CLOCK if now_ns is None else SIM_REAL_CLOCK
        self._requests: queue.Queue[tuple[SlapPlan, frozenset[int]] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._next_index = 0
        # The table-clock stamps (ns) of the planned presses not yet on the queue: what the
        # watermark is held back to (a burst puts its presses a little out of stamp order).
        self._planned: list[int] = []
        self._plan_lock = threading.Lock()

    # The simulator knows what it has planned, so it promises at once: the loop's margin only.
    lateness_ns = 1_000_000

    def promise(self) -> Promise:
        """Every press stamped before now, or before the earliest planned press not yet put on
        the queue, is on it (docs/decisions.md, "Event time"). With virtual stamps no press
        has a table-clock stamp to wait for: the promise is the table clock's now."""
        with self._plan_lock:
            now = time.monotonic_ns() if self._real_now is None else self._real_now()
            planned = min(self._planned) if self._planned else now
        return Promise(self.name, min(now, planned))

    def ask(self, t_ns: int) -> None:
        """Nothing to wake: the promise is always as far as it can be."""

    def now_ns(self) -> int:
        """The clock the presses are stamped with (only meaningful next to real buttons)."""
        if self._real_now is None:
            raise ValueError("a simulator with virtual stamps has no 'now'")
        return self._real_now()

    def start(self, events: queue.Queue[SimItem]) -> None:
        self._stop.clear()
        self._thread = source_thread(
            "sim",
            lambda: self._run(events),
            events,  # type: ignore[arg-type]
            name="sim-source",
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._requests.put(None)
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def trigger_slap(self, index: int | None = None, skip: Iterable[int] = ()) -> SlapPlan:
        """Play one slap; presses of seats in ``skip`` (already journaled) are not sent again."""
        if index is None:
            index = self._next_index
        self._next_index = index + 1
        plan = plan_slap(self.seed, index, self.n_seats, self.timeout_ms)
        self._requests.put((plan, frozenset(skip)))
        return plan

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` scaled by speed; False if asked to stop meanwhile."""
        if self.speed == 0:
            return not self._stop.is_set()
        return not self._stop.wait(seconds / self.speed)

    def _run(self, events: queue.Queue[SimItem]) -> None:
        while not self._stop.is_set():
            request = self._requests.get()
            if request is None or not self._play(*request, events):
                return

    def _play(self, plan: SlapPlan, skip: frozenset[int], events: queue.Queue[SimItem]) -> bool:
        """One slap's presses and releases, then its end; False if asked to stop meanwhile."""
        if not self._sleep(plan.lead_in_s):
            return False
        with self._plan_lock:
            shift_us = 0 if self._real_now is None else self._real_now() // 1000 - plan.t0_us
            if self._real_now is not None:
                self._planned = [(t + shift_us) * 1000 for s, t in plan.presses if s not in skip]
        elapsed_us = self._press(plan, skip, shift_us, events)
        if elapsed_us is None:
            return False
        if plan.kind == "timeout" and self.speed:
            remaining = plan.timeout_us - elapsed_us
            if remaining > 0 and not self._sleep(remaining / 1e6):
                return False
        events.put(BurstEnd(plan))
        return True

    def _press(
        self, plan: SlapPlan, skip: frozenset[int], shift_us: int, events: queue.Queue[SimItem]
    ) -> int | None:
        """The plan's presses at their times, each released 110 ms later; how far into the plan
        they went, or None if asked to stop meanwhile."""
        elapsed_us = 0
        # A hand lets go 110 ms after it pressed: each release goes out once the presses
        # stamped before it have, not right behind its own press (the monitor listed a
        # release at +110 ms before a press at +80 ms).
        releases: list[tuple[int, int]] = []
        for seat, t_us in plan.presses:
            t_us += shift_us
            offset = t_us - shift_us - plan.t0_us
            if offset > elapsed_us and not self._sleep((offset - elapsed_us) / 1e6):
                return None
            elapsed_us = max(elapsed_us, offset)
            if seat in skip:
                continue
            while releases and releases[0][0] <= t_us:
                let_go, held = heapq.heappop(releases)
                events.put(InputEvent("seat", held, "release", let_go * 1000, self.clock, "sim"))
            events.put(InputEvent("seat", seat, "press", t_us * 1000, self.clock, "sim"))
            with self._plan_lock:
                if t_us * 1000 in self._planned:  # put: no longer holds the watermark back
                    self._planned.remove(t_us * 1000)
            heapq.heappush(releases, (t_us + 110_000, seat))
        while releases:
            let_go, held = heapq.heappop(releases)
            events.put(InputEvent("seat", held, "release", let_go * 1000, self.clock, "sim"))
        return elapsed_us
