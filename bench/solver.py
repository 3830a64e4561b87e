"""Benchmark of the Cinq Rois arrangement solver and simulated game; one JSON object a line.

    python bench/solver.py            # 10,000 hands, brute-force check, five simulated games
    python bench/solver.py --quick    # smoke run: same lines, small samples

Lines:
- ``solver.hand13``: time to solve one random 13-card hand (a fresh solver: its cache is cleared
  before every hand), dealt from a shuffled 116-card double deck with 0-8 wilds forced in and a
  random bonus rank. Targets from issue 8: median <= 1 ms, max <= 20 ms. The first 50 hands warm
  the interpreter up and are not counted.
- ``solver.brute_force``: the solver's leftover points against an exhaustive search over every
  split of the hand into blocks, on random hands of 3 to 9 cards; ``agree`` of ``n``.
- ``sim.game5``: wall time of a whole simulated 5-player game (11 rounds dealt and played, every
  hand solved) replayed through the engine, cold solver cache.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from companion.cards import Card, Rank
from companion.games.cinq_rois import solver
from companion.games.cinq_rois.events import NewCinqRoisGame
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.sim import double_deck, play_game


def percentile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def random_hand(rng: random.Random, size: int, max_wilds: int) -> tuple[list[Card], Rank]:
    bonus = rng.choice(solver.GAME_RANKS)
    deck = double_deck()
    rng.shuffle(deck)
    wilds = [c for c in deck if solver.is_wild(c, bonus)]
    naturals = [c for c in deck if not solver.is_wild(c, bonus)]
    k = rng.randint(0, min(max_wilds, size))
    return wilds[:k] + naturals[: size - k], bonus


# --- an exhaustive reference, independent of the solver's shortcuts ----------------------------


@cache
def _valid(block: tuple[Card, ...], bonus: Rank) -> bool:
    if len(block) < 3:
        return False
    nat = [c for c in block if not solver.is_wild(c, bonus)]
    if len({c.rank for c in nat}) <= 1:
        return True
    orders = [c.rank.order for c in nat if c.rank is not None]
    return (
        len({c.suit for c in nat}) == 1
        and len(set(orders)) == len(orders)
        and len(block) <= solver.MAX_RUN
        and max(orders) - min(orders) + 1 <= len(block)
    )


def brute_force(hand: Sequence[Card], bonus: Rank) -> int:
    best = sum(solver.card_points(c, bonus) for c in hand)

    def go(rest: tuple[Card, ...], points: int) -> None:
        nonlocal best
        if points >= best:
            return
        if not rest:
            best = points
            return
        first, others = rest[0], rest[1:]
        go(others, points + solver.card_points(first, bonus))
        for mask in range(1, 1 << len(others)):
            if mask.bit_count() < 2:
                continue
            block = (first, *(c for i, c in enumerate(others) if mask >> i & 1))
            if _valid(tuple(sorted(block, key=str)), bonus):
                go(tuple(c for i, c in enumerate(others) if not mask >> i & 1), points)

    go(tuple(hand), 0)
    return best


# --- the figures --------------------------------------------------------------------------------


def bench_hands(n: int, rng: random.Random) -> None:
    for _ in range(50):
        hand, bonus = random_hand(rng, 13, 8)
        solver.solve(hand, bonus)
    times: list[float] = []
    for _ in range(n):
        hand, bonus = random_hand(rng, 13, 8)
        solver._solve_sorted.cache_clear()
        start = time.perf_counter()
        solver.solve(hand, bonus)
        times.append((time.perf_counter() - start) * 1000)
    median, worst = statistics.median(times), max(times)
    emit(
        name="solver.hand13",
        unit="ms",
        n=n,
        median=round(median, 4),
        p99=round(percentile(times, 99), 4),
        max=round(worst, 4),
        target={"median": 1, "max": 20},
        ok=median <= 1 and worst <= 20,
    )


def bench_brute(n: int, rng: random.Random) -> None:
    agree = 0
    disagree: list[dict[str, Any]] = []
    for i in range(n):
        size = 9 if i % 10 == 0 else rng.randint(3, 8)
        hand, bonus = random_hand(rng, size, rng.choice([0, 2, 4, 8]))
        got, want = solver.solve(hand, bonus).points, brute_force(hand, bonus)
        if got == want:
            agree += 1
        elif len(disagree) < 3:
            disagree.append(
                {"hand": [str(c) for c in hand], "bonus": bonus.value, "solver": got, "brute_force": want}
            )
    emit(
        name="solver.brute_force",
        unit="hands",
        n=n,
        agree=agree,
        sizes="3-9",
        disagree=disagree,
        ok=agree == n,
    )


def bench_game(runs: int, players: int) -> None:
    names = ["Ana", "Ben", "Cy", "Dom", "Eve", "Fab", "Gus"][:players]
    times: list[float] = []
    for seed in range(runs):
        solver._solve_sorted.cache_clear()
        start = time.perf_counter()
        events = play_game(names, random.Random(seed))
        setup = events[0]
        assert isinstance(setup, NewCinqRoisGame)
        engine = CinqRoisGame(setup)
        for event in events[1:]:
            engine.apply(event)
        assert engine.finished
        times.append(time.perf_counter() - start)
    emit(
        name=f"sim.game{players}",
        unit="s",
        n=runs,
        median=round(statistics.median(times), 4),
        p99=round(max(times), 4),
        max=round(max(times), 4),
        target={"max": 2},
        ok=max(times) <= 2,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples (a smoke run)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bench_hands(300 if args.quick else 10_000, rng)
    bench_brute(30 if args.quick else 1_000, rng)
    bench_game(1 if args.quick else 5, 5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
