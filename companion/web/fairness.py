"""Seat phones over a bad Wi-Fi, in simulated time: what the fairness test and bench/web.py run.

Each phone has its own clock (offset, a drift that wanders, a step like a browser's), each message
is delayed at random in each direction, and the table's side is the real ``PadSession`` fed the
real JSON text at the simulated moment it arrives. Nothing sleeps: 10,000 presses take seconds.
"""

from __future__ import annotations

import heapq
import json
import math
import random
from dataclasses import dataclass

from companion.web.pad import PING_EVERY_NS, PadSession
from companion.web.pairing import Grant, Pairings


@dataclass(frozen=True, slots=True)
class Result:
    seat: int
    true_ns: int  # when the finger touched, on the table's clock
    t_ns: int  # what the table made of it
    res_ns: int  # what the table said it was known to


@dataclass
class _Phone:
    seat: int
    offset_ns: int
    skew_ppm: float
    wobble_ppm: float
    step_ns: int

    def read(self, true_ns: int) -> float:
        """``performance.now()`` in ms at table time ``true_ns``: offset, a drifting rate, and
        rounded down to the browser's step."""
        drift = self.skew_ppm * true_ns + self.wobble_ppm * 3e11 * math.sin(true_ns / 3e11)
        ns = self.offset_ns + true_ns + int(drift / 1e6)
        return (ns // self.step_ns) * self.step_ns / 1e6


def simulate(
    presses: int = 10_000,
    *,
    seats: int = 4,
    seed: int = 0,
    delay_ms: tuple[float, float] = (5.0, 60.0),
    step_ns: int = 100_000,
    press_every_ms: float = 100.0,
) -> list[Result]:
    """``presses`` touches spread over ``seats`` phones; every message delayed uniformly in
    ``delay_ms`` each way (a loopback proxy's job, done here in simulated time)."""
    rng = random.Random(seed)
    now = 0
    pairings = Pairings()
    game = pairings.for_game("g1", seats)
    sessions: list[PadSession] = []
    phones: list[_Phone] = []
    for s in range(seats):
        sessions.append(PadSession(Grant("g1", "seat", s), game, lambda: now))
        phones.append(
            _Phone(s, rng.randrange(10**9, 10**12), rng.uniform(-80, 80), rng.uniform(0, 20), step_ns)
        )
    # (time, order, kind, seat, payload)
    queue: list[tuple[int, int, str, int, object]] = []
    order = 0

    def at(t: int, kind: str, seat: int, payload: object) -> None:
        nonlocal order
        order += 1
        heapq.heappush(queue, (t, order, kind, seat, payload))

    # A WebSocket is one TCP stream each way: a message delayed never overtakes the one before.
    last_arrival: dict[tuple[int, str], int] = {}

    def delay(seat: int, way: str) -> int:
        arrive = max(now + int(rng.uniform(*delay_ms) * 1e6), last_arrival.get((seat, way), 0))
        last_arrival[(seat, way)] = arrive
        return arrive - now

    for s in range(seats):
        at(rng.randrange(PING_EVERY_NS), "tick", s, None)
    # Presses begin once a phone has been paired a few seconds, as at a real table.
    t = 5_000_000_000
    for i in range(presses):
        t += int(rng.expovariate(1 / (press_every_ms * 1e6)))
        at(t, "touch", rng.randrange(seats), i + 1)
    end = t + 1_000_000_000
    results: list[Result] = []
    numbers = [0] * seats
    hello_sent = [False] * seats
    while queue:
        now, _, kind, seat, payload = heapq.heappop(queue)
        session = sessions[seat]
        if kind == "tick":  # the table pings; the ping reaches the phone later
            if not hello_sent[seat]:
                hello_sent[seat] = True
                session.receive(json.dumps({"t": "hello", "step_us": phones[seat].step_ns / 1e3}))
            text = session.ping()
            at(now + delay(seat, "out"), "ping@phone", seat, text)
            if now < end:
                at(now + PING_EVERY_NS, "tick", seat, None)
        elif kind == "ping@phone":
            ident = json.loads(str(payload))["id"]
            pong = json.dumps({"t": "pong", "id": ident, "p": phones[seat].read(now)})
            at(now + delay(seat, "in"), "to_table", seat, pong)
        elif kind == "touch":
            numbers[seat] += 1
            msg = json.dumps({"t": "press", "n": numbers[seat], "p": phones[seat].read(now), "g": "g1"})
            at(now + delay(seat, "in"), "to_table", seat, (msg, now))
            at(now + 80_000_000, "lift", seat, numbers[seat])
        elif kind == "lift":  # the finger leaves the pad 80 ms later
            release = json.dumps({"t": "release", "n": payload, "p": phones[seat].read(now)})
            at(now + delay(seat, "in"), "to_table", seat, (release, None))
        elif kind == "to_table":
            if isinstance(payload, tuple):
                text, true_ns = payload
                out = session.receive(text)
                if out.press is not None and out.press.edge == "press" and true_ns is not None:
                    results.append(Result(seat, true_ns, out.press.t_ns, out.press.clock.resolution_ns))
            else:
                session.receive(str(payload))
    return results


def within(results: list[Result]) -> float:
    """The share of presses whose true time lies within their stated resolution."""
    return sum(abs(r.t_ns - r.true_ns) <= r.res_ns for r in results) / max(len(results), 1)


def worst_misorder(results: list[Result], horizon_ns: int = 1_000_000_000) -> int:
    """Over every pair of presses misordered by the table (within ``horizon_ns`` of each other),
    the largest excess of their true gap over their combined resolution; <= 0 means never
    ordered wrongly by more than that."""
    by_true = sorted(results, key=lambda r: r.true_ns)
    worst = -(10**18)
    for i, a in enumerate(by_true):
        for b in by_true[i + 1 :]:
            if b.true_ns - a.true_ns > horizon_ns:
                break
            if b.t_ns < a.t_ns:  # a touched first, the table puts b first
                worst = max(worst, (b.true_ns - a.true_ns) - (a.res_ns + b.res_ns))
    return worst
