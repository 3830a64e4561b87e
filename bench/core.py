"""Benchmarks of the core paths against their budgets; one JSON object a line on stdout.

    python bench/core.py            # full run (about a minute)
    python bench/core.py --quick    # smoke run: same lines, small samples

Each line: ``name``, ``unit``, ``median`` and ``p99`` (medians over ``runs`` of each run's
median and p99; for one-shot measurements a run is one sample and ``p99`` is the slowest run),
``runs``, ``n`` (samples per run, or events for the replays), ``target`` and ``ok``.
Everything timed is the real code: the engine, the pydantic event models, SQLite with WAL and
synchronous FULL, the ``companion`` console script.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.games.kilo.demo import NAMES, choose_card
from companion.games.kilo.events import Close, Draw, NewKiloGame, Press, Verdict
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.slap import SlapWindow
from companion.inputs.sim import plan_slap
from companion.table.fold import replay
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from companion.table.log import Event, Undo

Sampler = Callable[[], list[float]]


# --- statistics and output ----------------------------------------------------------------------


def percentile(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100)."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def report(
    name: str,
    unit: str,
    runs: list[list[float]],
    target_stat: str,
    target_max: float,
    n: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Median over runs of each run's median and p99; the target applies to ``target_stat``."""
    if all(len(r) == 1 for r in runs):
        values = [r[0] for r in runs]
        median, p99 = statistics.median(values), max(values)
    else:
        median = statistics.median(statistics.median(r) for r in runs)
        p99 = statistics.median(percentile(r, 99) for r in runs)
    figure = median if target_stat == "median" else p99
    line = {
        "name": name,
        "unit": unit,
        "median": round(median, 4),
        "p99": round(p99, 4),
        "runs": len(runs),
        "n": n if n is not None else len(runs[0]),
        "target": f"{target_stat} <= {target_max:g} {unit}",
        "ok": figure <= target_max,
        **extra,
    }
    print(json.dumps(line, ensure_ascii=False), flush=True)
    return line


def repeat(runs: int, sampler: Sampler) -> list[list[float]]:
    return [sampler() for _ in range(runs)]


# --- a realistic long game ----------------------------------------------------------------------


def generate_game(
    n_events: int, n_players: int = 10, seed: int = 7, p_false: float = 0.9, p_undo_verdict: float = 0.0
) -> list[Event]:
    """A valid Kilo game log of exactly ``n_events`` events, built by driving the real engine.

    Presses come from the simulator's ``plan_slap`` (reaction times, photo finishes, timeouts,
    out-of-order arrival), cards from the demo's ``choose_card`` (only cards the pile can hold).
    A rowdy table: most slaps are judged false, so a 99-round game lasts long enough; now and then
    a player presses twice, presses while a draw is owed, or the table mistypes a card and undoes
    it. With ``seven = flush`` the sevens never stay in front of anyone, so the pile never empties.
    """
    rng = random.Random(seed)
    players = NAMES[:n_players]
    setup = NewKiloGame(players=players, rounds=99)
    game = KiloGame(setup)
    events: list[Event] = [setup]

    def push(event: Any) -> None:
        game.apply(event)
        events.append(event)

    index = 0
    while len(events) < n_events:
        if game.finished:
            raise RuntimeError(
                f"the generated game ended after {len(events)} events; raise p_false or the player count"
            )
        if game.awaiting == "draw":
            player = game.owed_draws[0]
            if rng.random() < 0.1:
                push(Press(player=rng.choice(players), t_us=index * 30_000_000 + 500))  # ignored
            card = choose_card(game, rng)
            if rng.random() < 0.04:
                push(Draw(player=player, card=choose_card(game, rng)))
                push(Undo())
            push(Draw(player=player, card=card))
            continue
        plan = plan_slap(seed, index, n_players, game.rules.slap_timeout_ms)
        index += 1
        for seat, t_us in plan.presses:
            push(Press(player=players[seat], t_us=t_us))
            if rng.random() < 0.03:  # a bounce: a second press counts for nothing
                push(Press(player=players[seat], t_us=t_us + rng.randrange(1000, 90_000)))
        if plan.kind == "timeout":
            push(Close(t_us=plan.close_us))
        if plan.kind == "false":
            named = [players[s] for s in plan.penalized]
            verdict = Verdict(valid=False, penalized=named if len(named) > 1 else None)
        elif rng.random() < p_false:
            verdict = Verdict(valid=False)
        else:
            verdict = Verdict(valid=True)
        if rng.random() < p_undo_verdict:  # the table judged too fast: undo, judge again
            push(verdict.model_copy(update={"valid": not verdict.valid, "penalized": None}))
            push(Undo())
        push(verdict)
    return events[:n_events]


def write_log(events: Sequence[Event], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write("# companion bench: generated Kilo de merde game\n")
        handle.writelines(event.to_json() + "\n" for event in events)


# --- adjudication -------------------------------------------------------------------------------


def windows(count: int, seed: int) -> list[tuple[NewKiloGame, list[Press]]]:
    """``count`` windows of 3-10 players, every player pressing once at a random stamp,
    listed in a random arrival order."""
    rng = random.Random(seed)
    setups = {n: NewKiloGame(players=NAMES[:n], rounds=99) for n in range(3, 11)}
    out = []
    for _ in range(count):
        n = rng.randint(3, 10)
        t0 = rng.randrange(10**12)
        presses = [Press(player=p, t_us=t0 + rng.randrange(0, 1_500_000)) for p in NAMES[:n]]
        rng.shuffle(presses)
        out.append((setups[n], presses))
    return out


def sample_engine_press(count: int, seed: int) -> Sampler:
    """One press in, the decision out: ``engine.apply(Press)`` then ``engine.window()``."""

    def run() -> list[float]:
        samples: list[float] = []
        clock = time.perf_counter_ns
        for setup, presses in windows(count, seed):
            engine = KiloGame(setup)
            for press in presses:
                start = clock()
                engine.apply(press)
                engine.window()
                samples.append((clock() - start) / 1000)
        return samples

    return run


def sample_slap_window(count: int, seed: int) -> Sampler:
    """The pure adjudicator alone: ``SlapWindow.add`` then ``result``."""

    def run() -> list[float]:
        samples: list[float] = []
        clock = time.perf_counter_ns
        for setup, presses in windows(count, seed):
            window = SlapWindow(setup.players, setup.rules.slap_timeout_ms * 1000)
            for press in presses:
                player, t_us = press.player, press.t_us
                start = clock()
                window.add(player, t_us)
                window.result()
                samples.append((clock() - start) / 1000)
        return samples

    return run


# --- journal ------------------------------------------------------------------------------------


def filesystem_of(path: Path) -> str:
    """The filesystem type holding ``path`` (fsync costs depend on it), from /proc/mounts."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "?"
    best, kind = "", "?"
    resolved = str(path.resolve())
    for fields in mounts:
        if (
            len(fields) >= 3
            and (resolved == fields[1] or resolved.startswith(fields[1].rstrip("/") + "/"))
            and len(fields[1]) > len(best)
        ):
            best, kind = fields[1], fields[2]
    return kind


def sample_journal_append(events: Sequence[Event], base: Path) -> Sampler:
    def run() -> list[float]:
        folder = Path(tempfile.mkdtemp(prefix="append-", dir=base))
        samples: list[float] = []
        try:
            with Journal(folder, writer=True) as journal:
                setup = events[0]
                assert isinstance(setup, NewKiloGame)
                game_id = journal.new_game(setup, "kilo", tuple(setup.players), {})
                clock = time.perf_counter_ns
                for seq, event in enumerate(events[1:], start=2):
                    start = clock()
                    journal.append(game_id, seq, event)
                    samples.append((clock() - start) / 1e6)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return samples

    return run


def sample_table_submit(events: Sequence[Event], base: Path) -> Sampler:
    """Check, journal, apply: the whole path of one event from the main loop."""

    def run() -> list[float]:
        folder = Path(tempfile.mkdtemp(prefix="submit-", dir=base))
        samples: list[float] = []
        try:
            with Journal(folder, writer=True) as journal:
                setup = events[0]
                assert isinstance(setup, NewKiloGame)
                table = Table.start(journal, setup, {"input": "bench"})
                clock = time.perf_counter_ns
                for event in events[1:]:
                    start = clock()
                    table.submit(event)  # type: ignore[arg-type]
                    samples.append((clock() - start) / 1e6)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return samples

    return run


# --- replay -------------------------------------------------------------------------------------


def sample_replay_file(path: Path, expected: dict[str, Any]) -> Sampler:
    def run() -> list[float]:
        start = time.perf_counter()
        with path.open(encoding="utf-8") as handle:
            engine = replay(handle, read_only=True)  # as `companion replay`
        elapsed = time.perf_counter() - start
        if engine.to_json() != expected:
            raise AssertionError("replaying the table log did not give the live game's state")
        return [elapsed]

    return run


def build_journal(events: Sequence[Event], folder: Path) -> str:
    """A journal holding the game. The rows are inserted in one transaction (as ``append``
    would write them, one by one) so that setting up the benchmark takes no minutes of fsyncs."""
    setup = events[0]
    assert isinstance(setup, NewKiloGame)
    with Journal(folder, writer=True) as journal:
        game_id = journal.new_game(setup, "kilo", tuple(setup.players), {"input": "bench"})
    db = sqlite3.connect(folder / FILENAME, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?)",
            (
                (game_id, seq, event.to_json(), time.time_ns())
                for seq, event in enumerate(events[1:], start=2)
            ),
        )
        db.execute("COMMIT")
    finally:
        db.close()
    return game_id


def sample_replay_journal(folder: Path, game_id: str, expected: dict[str, Any]) -> Sampler:
    def run() -> list[float]:
        start = time.perf_counter()
        with Journal(folder, writer=False) as journal:
            table = Table.load(journal, game_id)
        elapsed = time.perf_counter() - start
        if table.engine.to_json() != expected:
            raise AssertionError("rebuilding from the journal did not give the live game's state")
        return [elapsed]

    return run


# --- the demo, as a user runs it ----------------------------------------------------------------


def companion_command() -> list[str]:
    script = Path(sys.executable).with_name("companion")
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def sample_demo(base: Path, args: list[str], seeds: list[int]) -> Sampler:
    seeds = list(seeds)

    def run() -> list[float]:
        seed = seeds.pop(0)
        folder = Path(tempfile.mkdtemp(prefix="demo-", dir=base))
        env = dict(os.environ, COMPANION_DATA_DIR=str(folder))
        try:
            start = time.perf_counter()
            proc = subprocess.run(
                [*companion_command(), *args, "--seed", str(seed)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                check=False,
            )
            elapsed = time.perf_counter() - start
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if proc.returncode != 0:
            raise RuntimeError(f"companion demo failed ({proc.returncode}): {proc.stderr}")
        return [elapsed]

    return run


# --- main ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples: a smoke run")
    parser.add_argument("--runs", type=int, default=None, help="repetitions (default 5, quick 2)")
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="where the journals are written (default: a temporary folder); "
        "put it on the storage the table will use, fsync costs differ",
    )
    args = parser.parse_args(argv)
    quick = args.quick
    runs = args.runs or (2 if quick else 5)
    n_windows = 40 if quick else 3000
    n_append = 40 if quick else 500
    n_replay = 1000 if quick else 10_000
    base = Path(tempfile.mkdtemp(prefix="companion-bench-", dir=args.dir))
    try:
        report(
            "adjudication.engine_press", "us", repeat(runs, sample_engine_press(n_windows, seed=1)), "p99", 50
        )
        report(
            "adjudication.slap_window", "us", repeat(runs, sample_slap_window(n_windows, seed=1)), "p99", 50
        )

        events = generate_game(n_replay)
        fs = filesystem_of(base)
        report(
            "journal.append",
            "ms",
            repeat(runs, sample_journal_append(events[: n_append + 1], base)),
            "p99",
            10,
            fs=fs,
        )
        report(
            "table.submit",
            "ms",
            repeat(runs, sample_table_submit(events[: n_append + 1], base)),
            "p99",
            10,
            fs=fs,
        )

        live = KiloGame(events[0])  # type: ignore[arg-type]
        for event in events[1:]:
            live.apply(event)  # type: ignore[arg-type]
        expected = live.to_json()
        log = base / "game.jsonl"
        write_log(events, log)
        undos = sum(isinstance(e, Undo) for e in events)
        report(
            "replay.table_log",
            "s",
            repeat(runs, sample_replay_file(log, expected)),
            "median",
            0.5,
            n=len(events),
            undos=undos,
        )
        folder = base / "journal"
        game_id = build_journal(events, folder)
        report(
            "replay.journal",
            "s",
            repeat(runs, sample_replay_journal(folder, game_id, expected)),
            "median",
            0.5,
            n=len(events),
        )

        demo_args = ["demo", "--speed", "0", "--players", "6", "--rounds", "10"]
        report(
            "demo.wall",
            "s",
            repeat(runs, sample_demo(base, demo_args, list(range(1, runs + 1)))),
            "median",
            2,
            command="companion " + " ".join(demo_args),
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
