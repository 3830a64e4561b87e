"""``companion stats``, ``history``, ``games``, ``export --csv --all`` and ``doctor`` over a journal
of 2,000 mixed games, and ``companion doctor`` on a machine with nothing attached, against their
budgets; one JSON object a line on stdout (see bench/core.py).

    python bench/stats.py                   # 2,000 games (under a minute to build), 5 runs
    python bench/stats.py --quick           # smoke run: 40 games, 2 runs
    python bench/stats.py --from DATA_DIR   # time a journal built before (its copy)

The journal keeps a summary of each game (written by the table when the game ends), and the
commands keep the records they read in ``stats-cache.json`` beside it. What the names mean:

- ``cold``: no ``stats-cache.json``; every game's record read from its summary in the journal
  after one scan of the events (each game's count and bytes, which say whether its summary is
  still true). The operating system's page cache is NOT dropped (that needs root): the journal's
  pages are in memory, as they are on the table after a game. Cold here is the companion's cold.
- ``after_write``: ``stats-cache.json`` of the run before, but the journal's files changed since
  (their time is set back 30 s, which is all a new event changes that matters here): the events
  are scanned again, the records come from the cache. What the first listing after a game costs.
- ``warm``: the cache of the run before and the journal's files as that run saw them, last
  written more than two seconds earlier (``Journal.fingerprint``): no scan. The bench sets the
  files' time a minute back after copying the journal (a journal last written a minute ago),
  since a file written in the last two seconds is never trusted unscanned.
- ``first``: the first look at a journal written before summaries (``--from`` an older one):
  every game replayed once and its summary appended, what an upgrade costs once.

Every figure is the wall time of the console script as a user runs it, interpreter start and
imports included, with the package's bytecode compiled beforehand (``compileall``, as pip does
on install; ``PYTHONDONTWRITEBYTECODE`` is dropped from the children's environment, otherwise
every run would compile every module again); CPU seconds beside it.

The journal is built by the real demos (Kilo de merde, Les Cinq Rois and 13 feuilles in turn,
simulated players, each game's range of seats, their wrong cards and undos): ``POOL`` games of
each kind played, the rest of the 2,000 written again through the table's own writer (see
``build_journal``: about 40 s where playing every game took over ten minutes), on a tmpfs when
there is one, because the demo's durable appends cost an fsync each; it is then copied to
``--dir`` (default: a temporary folder), where the timed commands read it. The commands are
timed as a user runs them: the console script, interpreter start included.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from core import companion_command, filesystem_of, repeat, report

from companion.errors import JournalError
from companion.games import load
from companion.table import stats as stats_module
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from companion.table.log import Event, NewGame, check_new_names

# The three games in turn, each with its own range of seats: a club's evenings mix them.
MIX = (("kilo", 3, 10), ("cinq-rois", 2, 7), ("treize", 3, 6))
# Games of each kind played by the demos; the rest of the journal plays them again (build_journal).
POOL = 12


def build_journal(
    folder: Path, games: int, mix: tuple[tuple[str, int, int], ...] = MIX, pool: int = POOL
) -> int:
    """``games`` whole games in one journal, the games of ``mix`` in turn; returns the number of
    events.

    The first ``pool`` games of each kind are played by the real demos (simulated players,
    each game's range of seats, their wrong cards and undos) through the table's own writer.
    Les Cinq Rois' simulated players search every hand (about a second a game): playing all
    2,000 took over ten minutes. So every later game is one of those played again, written
    through the same writer as a table writes it: ``new_game``, its events (``append_many``,
    one transaction a game, the very payload text; the table commits step by step, which gives
    the same rows), then ``mark_finished`` with the engine's final state, which sums the game
    up in the journal and in ``stats-cache.json`` as the table does at a game's end. Each copy
    is a game of its own (new id and time, every row its own): the journal holds what a club
    replaying the same deals would have written, and ``doctor`` finds it healthy.
    """
    played: list[tuple[str, list[tuple[int, Event]], dict[str, Any], dict[str, Any], bool]] = []
    # The table rewrites stats-cache.json at each game's end; the bench copies the journal alone
    # (copy_journal), so that file is never read, and rewriting it 2,000 times, each time
    # bigger, was most of the build (quadratic): it is left alone here.
    update = stats_module._Cache.update
    stats_module._Cache.update = lambda *args, **kwargs: None  # type: ignore[method-assign]
    try:
        _build(folder, games, mix, pool, played)
    finally:
        stats_module._Cache.update = update  # type: ignore[method-assign]
    with sqlite3.connect(folder / FILENAME) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def _build(
    folder: Path,
    games: int,
    mix: tuple[tuple[str, int, int], ...],
    pool: int,
    played: list[tuple[str, list[tuple[int, Event]], dict[str, Any], dict[str, Any], bool]],
) -> None:
    with Journal(folder, writer=True) as journal:

        def start(setup: NewGame, meta: dict[str, Any]) -> Table:
            for _ in range(50):
                try:
                    return Table.start(journal, setup, meta)
                except JournalError:
                    # Game ids are the second plus 16 random bits: at hundreds of games a
                    # second two can meet (a table never starts games that fast). Retry:
                    # a new id each time, the refused one left no row.
                    continue
            raise RuntimeError("no free game id")

        for i in range(games):
            name, low, high = mix[i % len(mix)]
            if i < pool * len(mix):
                game = load(name)
                setup = game.demo_setup(low + (i // len(mix)) % (high - low + 1), 10, i)
                meta = {"input": "sim", "seed": i, "lang": "en"}
                table = start(setup, meta)
                game.run_demo(table, i, 0, "en", io.StringIO())
                events = list(journal.events(table.game_id))
                played.append((name, events, meta, table.engine.to_json(), table.engine.finished))
                continue
            name, events, meta, state, finished = played[i % len(played)]
            first = events[0][1]
            assert isinstance(first, NewGame)
            # As Table.start: the names checked, then the game's row and its first event.
            check_new_names(first.players)
            for _ in range(50):
                try:
                    game_id = journal.new_game(first, first.game, tuple(first.players), meta)
                    break
                except JournalError:
                    continue
            else:
                raise RuntimeError("no free game id")
            journal.append_many(game_id, events[1:])
            journal.mark_finished(game_id, finished)
            if finished:
                stats_module.remember(journal, game_id, state)


def copy_journal(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(src / FILENAME)
    target = sqlite3.connect(dst / FILENAME)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


CPU: dict[str, list[float]] = {}  # command -> CPU seconds of each run (user + system)


def timed(args: list[str], env: dict[str, str], ok_codes: tuple[int, ...] = (0,), key: str = "") -> float:
    """Wall seconds of one run; its CPU seconds go to ``CPU[key]`` (a busy shared machine
    stretches the wall time, not the CPU time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [*companion_command(), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=900,
        check=False,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(key or args[0], []).append(
        after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    )
    if proc.returncode not in ok_codes:
        raise RuntimeError(f"companion {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small journal: a smoke run")
    parser.add_argument("--games", type=int, default=None, help="games in the journal (2000)")
    parser.add_argument(
        "--pool",
        type=int,
        default=POOL,
        help=f"games of each kind the demos play ({POOL}); the rest copy them",
    )
    parser.add_argument("--runs", type=int, default=None, help="repetitions (default 5, quick 2)")
    parser.add_argument(
        "--cold-runs", type=int, default=None, help="repetitions of the cold runs (default: --runs)"
    )
    parser.add_argument("--first-runs", type=int, default=1, help="repetitions of the first look (default 1)")
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the timed journal lives (default: a temporary folder)"
    )
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=None,
        help="a data folder whose journal to copy instead of building one",
    )
    args = parser.parse_args(argv)
    games = args.games or (40 if args.quick else 2000)
    runs = args.runs or (2 if args.quick else 5)
    shm = Path("/dev/shm")
    build_base = Path(tempfile.mkdtemp(prefix="companion-stats-build-", dir=shm if shm.is_dir() else None))
    base = Path(tempfile.mkdtemp(prefix="companion-stats-bench-", dir=args.dir))
    try:
        start = time.perf_counter()
        built = args.source or build_base / "data"
        if args.source is None:
            build_journal(built, games, pool=args.pool)
        build_s = time.perf_counter() - start
        data = base / "data"
        copy_journal(built, data)
        with sqlite3.connect(data / FILENAME) as db:
            games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
            events = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
            mix = dict(db.execute("SELECT game, count(*) FROM games GROUP BY game").fetchall())
        env = {
            k: v for k, v in os.environ.items() if k not in ("COMPANION_CONFIG", "PYTHONDONTWRITEBYTECODE")
        }
        env["COMPANION_DATA_DIR"] = str(data)
        import companion

        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(Path(companion.__file__).parent)],
            check=False,
            stdout=subprocess.DEVNULL,
        )
        cache = data / "stats-cache.json"

        def cpu(key: str) -> float:
            return round(statistics.median(CPU[key]), 3)

        def first() -> list[float]:
            fresh = base / "first"
            shutil.rmtree(fresh, ignore_errors=True)
            copy_journal(built, fresh)
            return [timed(["games"], dict(env, COMPANION_DATA_DIR=str(fresh)), key="games.first")]

        report(
            "games.command.first",
            "s",
            repeat(args.first_runs, first),
            "median",
            900,  # no target: paid once per journal
            n=games,
            events=events,
            cpu_median=cpu("games.first"),
            command="companion games on a fresh copy of the journal (no stats-cache.json)",
        )
        # From here on the journal as the first look left it: every game summed up (a journal
        # the table wrote has its summaries from the end of each game anyway).
        shutil.rmtree(data)
        copy_journal(base / "first", data)

        def age(seconds: float) -> None:
            then = time.time() - seconds
            for path in data.glob(FILENAME + "*"):
                os.utime(path, (then, then))

        age(60)

        # Cold: no stats-cache.json, every game folded through its engine (what a journal
        # copied from elsewhere costs once). Warm: the cache of the run before (what the
        # players see: the table writes each game's record into it when the game ends).
        for command in (["stats"], ["history"], ["games"], ["export", "--csv", "--all"]):
            name = command[0] if command[0] != "export" else "export_csv"

            def cold(command: list[str] = command, name: str = name) -> list[float]:
                cache.unlink(missing_ok=True)
                return [timed(command, env, key=f"{name}.cold")]

            runs_cold = repeat(args.cold_runs or runs, cold)
            report(
                f"{name}.command.cold",
                "s",
                runs_cold,
                "median",
                1,
                n=games,
                events=events,
                mix=mix,
                cpu_median=cpu(f"{name}.cold"),
                build_s=round(build_s, 1),
                fs=filesystem_of(base),
                command=f"companion {' '.join(command)} (no stats-cache.json)",
            )

            def after_write(command: list[str] = command, name: str = name) -> list[float]:
                timed(command, env, key=f"{name}.prime")  # the cache as a listing leaves it
                age(30)  # then the journal's files changed (a new event)
                return [timed(command, env, key=f"{name}.after_write")]

            runs_after = repeat(runs, after_write)
            report(
                f"{name}.command.after_write",
                "s",
                runs_after,
                "median",
                1,
                n=games,
                events=events,
                cpu_median=cpu(f"{name}.after_write"),
                command=f"companion {' '.join(command)} (the cache of the run before; journal changed since)",
            )
            age(60)
            timed(command, env, key=f"{name}.prime")  # the cache now holds the files as they are
            runs_warm = repeat(
                runs,
                lambda command=command, name=name: [  # type: ignore[misc]
                    timed(command, env, key=f"{name}.warm")
                ],
            )
            report(
                f"{name}.command",
                "s",
                runs_warm,
                "median",
                0.3,
                n=games,
                events=events,
                cpu_median=cpu(f"{name}.warm"),
                command=f"companion {' '.join(command)} (stats-cache.json of earlier runs)",
            )
        runs_doctor_data = repeat(
            runs, lambda: [timed(["doctor"], env, ok_codes=(0, 1), key="doctor.journal")]
        )
        report(
            "doctor.journal.command",
            "s",
            runs_doctor_data,
            "median",
            2,
            n=games,
            cpu_median=cpu("doctor.journal"),
            command="companion doctor (this journal; its cache of earlier runs)",
        )

        # Doctor with nothing attached: a fresh home, no config, no journal, no display.
        home = base / "home"
        home.mkdir()
        bare = {
            k: v
            for k, v in os.environ.items()
            if k
            not in ("COMPANION_CONFIG", "COMPANION_DATA_DIR", "SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")
        }
        bare["HOME"] = str(home)
        runs_doctor = repeat(runs, lambda: [timed(["doctor"], bare, ok_codes=(0, 1))])
        report(
            "doctor.command",
            "s",
            runs_doctor,
            "median",
            2,
            cpu_median=cpu("doctor"),
            command="companion doctor (nothing attached)",
        )
    finally:
        shutil.rmtree(build_base, ignore_errors=True)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
