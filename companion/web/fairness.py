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
    sim = _Sim(random.Random(seed), seats, delay_ms, step_ns)
    for s in range(seats):
        sim.at(sim.rng.randrange(PING_EVERY_NS), "tick", s, None)
    # Presses begin once a phone has been paired a few seconds, as at a real table.
    t = 5_000_000_000
    for i in range(presses):
        t += int(sim.rng.expovariate(1 / (press_every_ms * 1e6)))
        sim.at(t, "touch", sim.rng.randrange(seats), i + 1)
    sim.end = t + 1_000_000_000
    return sim.run()


class _Sim:
    """The simulated room: the phones, the table's sessions, and what is on its way, by time."""

    def __init__(self, rng: random.Random, seats: int, delay_ms: tuple[float, float], step_ns: int) -> None:
        self.rng = rng
        self.now = 0
        self.end = 0
        self.delay_ms = delay_ms
        game = Pairings().for_game("g1", seats)
        self.sessions: list[PadSession] = []
        self.phones: list[_Phone] = []
        for s in range(seats):
            self.sessions.append(PadSession(Grant("g1", "seat", s), game, lambda: self.now))
            self.phones.append(
                _Phone(s, rng.randrange(10**9, 10**12), rng.uniform(-80, 80), rng.uniform(0, 20), step_ns)
            )
        # (time, order, kind, seat, payload)
        self.queue: list[tuple[int, int, str, int, object]] = []
        self.order = 0
        # A WebSocket is one TCP stream each way: a message delayed never overtakes the one before.
        self.last_arrival: dict[tuple[int, str], int] = {}
        self.results: list[Result] = []
        self.numbers = [0] * seats
        self.hello_sent = [False] * seats

    def at(self, t: int, kind: str, seat: int, payload: object) -> None:
        # Nothing happens before what caused it: a message arrives after it is sent, a tick
        # follows the one before. The bound that makes ``run`` end (simulated time only moves
        # on, and ticks stop at ``end``), kept as a refusal rather than an endless loop.
        if t < self.now:
            raise ValueError(f"an event at {t} ns scheduled before now ({self.now} ns)")
        self.order += 1
        heapq.heappush(self.queue, (t, self.order, kind, seat, payload))

    def delay(self, seat: int, way: str) -> int:
        arrive = max(
            self.now + int(self.rng.uniform(*self.delay_ms) * 1e6), self.last_arrival.get((seat, way), 0)
        )
        self.last_arrival[(seat, way)] = arrive
        return arrive - self.now

    def run(self) -> list[Result]:
        steps = {
            "tick": self.tick,
            "ping@phone": self.ping_at_phone,
            "touch": self.touch,
            "lift": self.lift,
            "to_table": self.to_table,
        }
        while self.queue:
            self.now, _, kind, seat, payload = heapq.heappop(self.queue)
            steps[kind](seat, payload)
        return self.results

    def tick(self, seat: int, _: object) -> None:
        """The table pings; the ping reaches the phone later."""
        session = self.sessions[seat]
        if not self.hello_sent[seat]:
            self.hello_sent[seat] = True
            session.receive(json.dumps({"t": "hello", "step_us": self.phones[seat].step_ns / 1e3}))
        text = session.ping()
        self.at(self.now + self.delay(seat, "out"), "ping@phone", seat, text)
        if self.now < self.end:
            self.at(self.now + PING_EVERY_NS, "tick", seat, None)

    def ping_at_phone(self, seat: int, payload: object) -> None:
        ident = json.loads(str(payload))["id"]
        pong = json.dumps({"t": "pong", "id": ident, "p": self.phones[seat].read(self.now)})
        self.at(self.now + self.delay(seat, "in"), "to_table", seat, pong)

    def touch(self, seat: int, _: object) -> None:
        self.numbers[seat] += 1
        n = self.numbers[seat]
        msg = json.dumps({"t": "press", "n": n, "p": self.phones[seat].read(self.now), "g": "g1"})
        self.at(self.now + self.delay(seat, "in"), "to_table", seat, (msg, self.now))
        self.at(self.now + 80_000_000, "lift", seat, n)

    def lift(self, seat: int, payload: object) -> None:
        """The finger leaves the pad 80 ms later."""
        release = json.dumps({"t": "release", "n": payload, "p": self.phones[seat].read(self.now)})
        self.at(self.now + self.delay(seat, "in"), "to_table", seat, (release, None))

    def to_table(self, seat: int, payload: object) -> None:
        session = self.sessions[seat]
        if not isinstance(payload, tuple):
            session.receive(str(payload))
            return
        text, true_ns = payload
        out = session.receive(text)
        if out.press is not None and out.press.edge == "press" and true_ns is not None:
            self.results.append(Result(seat, true_ns, out.press.t_ns, out.press.clock.resolution_ns))


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
