"""Table screen figures, one JSON object per line (never asserted in tests).

    .venv/bin/python bench/display.py            # all three
    .venv/bin/python bench/display.py redraw     # one of: redraw, view, idle, startup

redraw: a redraw is one call of ``screens.draw`` as the app makes it each frame: the same surface
        every frame (the display), with the memory of the last frame (``layout.Retained``: a
        block whose key and place are unchanged is left as it is, the background filled only
        where something changed). Figures at 1920x1080 in each game's busiest sample state (ten
        players, cards everywhere), each screen drawn 60 times, the busiest screen's median:
        ``median_ms`` the same state frame after frame (a countdown's or a motion's frame: what
        is still is left alone; issue 23: at most 2.5 ms); ``changed_median_ms`` the busy
        log's last events one by one, each state drawn once (the frame after a slap, a card, a
        score; Les Cinq Rois' busy log has ten rounds, so ten frames), with the loop's clock
        (the motion an event starts is drawn, as ``App._render`` draws it) and caches of the
        screen's own (no state to come drawn before); ``fresh_blocks_median_ms`` no memory and
        every block drawn anew, the first frame after everything changed (the issue's goal:
        the changed frame costs no more than that, and at most 4 ms at 1080p).
        ``cpu_…`` are the same in the process's CPU time, what a loaded machine can still
        measure; ``…per_screen_ms`` each screen's. One line a game (Kilo, Les Cinq Rois,
        13 feuilles). To compare two versions of the code on a loaded machine, run this file
        with each one's package first on PYTHONPATH, one after the other, and compare ratios.
view:   the read-only picture a frame is drawn from (``screens.build_view``), built once per
        event the app hands to the game: each game's sample states, 7 runs of 50 builds each,
        in the process's CPU time (what a loaded machine can still measure), the fastest run's
        µs per build and the median's (a view asks the rules about every card: Kilo's
        "midgame", where a draw is awaited, says why each card cannot be the one drawn).
idle:   process CPU time of `companion play kilo` over 10 s with nothing happening, as a share
        of one core (from /proc/PID/stat's ticks, and from the scheduler's nanoseconds), for
        keyboard input (keys are slap buttons) and for the simulated players once their slap is
        in (their presses come on the queue, as GPIO's and serial's do); issue 23: at most 1 %.
startup: `companion play kilo --input sim` from process start to its first frame (issue 23: at
        most 0.5 s), with the package's bytecode compiled, as pip leaves an installed wheel (a
        PYTHONDONTWRITEBYTECODE in the environment would make every run compile the package
        again, which no table does); each run in a new data folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
COMPANION = [sys.executable, "-m", "companion.cli"]


def emit(data: dict[str, object]) -> None:
    print(json.dumps(data, ensure_ascii=False), flush=True)


BUSY = {
    "kilo": "busy (10 players)",
    "cinq-rois": "busy (7 players, 10 rounds)",
    "treize": "busy (6 players, late in the match)",
}


def _redraw_medians(game_name: str, repeats: int, mode: str = "same") -> dict[str, float]:
    """Each screen of ``game_name``'s busy sample drawn ``repeats`` times, as the app draws: the
    same ``draw`` on one surface that persists, with the memory of the last frame
    (``layout.Retained``): its median in ms. ``mode``: "same", the same state every frame;
    "changed", the busy log's last events one by one (each frame the state after the next
    event, drawn once: up to ``repeats`` frames, fewer where the log is shorter); "fresh", no
    memory and every block drawn anew (``Painter.layer`` copies none), the first frame after
    everything changed (texts and fonts stay cached)."""
    import importlib

    import pygame

    from companion.display.layout import Fonts, Painter, Retained
    from companion.display.screens import draw
    from companion.display.snapshot import headless_pygame, screens, ui_for, view_of
    from companion.table.fold import replay

    headless_pygame()
    samples = importlib.import_module(f"companion.games.{game_name.replace('-', '_')}.samples")
    lines = samples.lines("busy")
    game = replay(lines)
    views = [view_of(game)]
    if mode == "changed":
        # The busy log's last events one by one: each frame shows the state after the next
        # event, as the app's frame after a slap, a card or a score.
        views = []
        for cut in range(max(1, len(lines) - repeats), len(lines) + 1):
            view = view_of(replay(lines[:cut]))
            if not views or view != views[-1]:
                views.append(view)
    surface = pygame.Surface((1920, 1080))
    fonts = Fonts()
    medians = {}
    for screen in screens(game_name):
        ui = ui_for(game, "fr")
        memory = None if mode == "fresh" else Retained()
        times = []
        cpu: list[int] = []
        if mode == "changed":
            # Caches of its own, as a table that has stayed on this screen: the screens before
            # it here drew the very states to come, and a block drawn a second time is copied
            # (``Painter.layer``), which the first frame after an event does not pay.
            fonts = Fonts()
            # With the loop's clock, as the app draws (``App._render`` sets ``ui.now``): each
            # frame the first after its event, the motion it starts ("+N", a sliding banner, rows
            # to their new places) at its start; the last one's has ended.
            ui.now = 1000.0
            draw(Painter(surface, fonts, retained=memory), views[0], ui, screen)
        for i in range(1, repeats + 1):
            if mode == "fresh":
                fonts.clear_layers()
            if mode == "changed":
                if i >= len(views):
                    break
                assert ui.now is not None
                ui.now += 1.0
            view = views[i % len(views)]
            t0 = time.perf_counter_ns()
            c0 = time.process_time_ns()
            draw(Painter(surface, fonts, retained=memory), view, ui, screen)
            times.append(time.perf_counter_ns() - t0)
            cpu.append(time.process_time_ns() - c0)
        skip = 5 if len(times) > 20 else 0  # the first frames fill the caches
        medians[screen] = statistics.median(times[skip:]) / 1e6
        CPU_MEDIANS[(game_name, mode, screen)] = statistics.median(cpu[skip:]) / 1e6
    return medians


# The same frames in CPU time (the process's own): on a loaded machine the wall clock counts the
# time other processes had the core, and the redraw figure is then mostly the load average.
CPU_MEDIANS: dict[tuple[str, str, str], float] = {}


def _busiest(medians: dict[str, float]) -> str:
    return max(medians, key=medians.__getitem__)


def bench_redraw(repeats: int = 60) -> None:
    for game_name, state in BUSY.items():
        figures: dict[str, object] = {}
        for mode in ("same", "changed", "fresh"):
            medians = _redraw_medians(game_name, repeats, mode)
            cpu = {k[2]: v for k, v in CPU_MEDIANS.items() if k[0] == game_name and k[1] == mode}
            busiest, cpu_busiest = _busiest(medians), _busiest(cpu)
            prefix = {"same": "", "changed": "changed_", "fresh": "fresh_blocks_"}[mode]
            figures[f"{prefix}busiest_screen"] = busiest
            figures[f"{prefix}median_ms"] = round(medians[busiest], 2)
            figures[f"{prefix}cpu_median_ms"] = round(cpu[cpu_busiest], 2)
            figures[f"{prefix}cpu_busiest_screen"] = cpu_busiest
            figures[f"{prefix}per_screen_ms"] = {k: round(v, 2) for k, v in medians.items()}
            figures[f"{prefix}cpu_per_screen_ms"] = {k: round(v, 2) for k, v in cpu.items()}
        emit(
            {
                "bench": "display.redraw",
                "game": game_name,
                "size": "1920x1080",
                "state": state,
                "target_ms": 2.5,
                **figures,
            }
        )


def bench_view(runs: int = 7, builds: int = 50) -> None:
    import importlib

    from companion.table import registry
    from companion.table.fold import replay

    for name in registry.GAMES:
        package = registry.info(name).package
        samples = importlib.import_module(package + ".samples")
        screens = registry.load(name).screens()
        per_state: dict[str, dict[str, float]] = {}
        for state, make in samples.SAMPLES.items():
            engine = replay([json.dumps(event) for event in make()])
            screens.build_view(engine)  # the first build fills what any cache keeps
            each = []
            for _ in range(runs):
                began = time.process_time()
                for _ in range(builds):
                    screens.build_view(engine)
                each.append((time.process_time() - began) / builds * 1e6)
            per_state[state] = {"min_us": round(min(each), 1), "median_us": round(statistics.median(each), 1)}
        emit({"bench": "view", "game": name, "states": per_state})


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _run_ns(pid: int) -> int:
    """The CPU time of the process's live threads in ns (the scheduler's own count, not the
    10 ms ticks of /proc/PID/stat: 1 % of a core over 10 s is only ten ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            total += int((task / "schedstat").read_text().split()[0])
    return total


# The process's CPU time at each first frame (its own, threads included): on a loaded machine
# the wall clock counts the time other processes had the cores.
STARTUP_CPU: list[float] = []


def _start(
    args: list[str], data: str, env_extra: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], float, float]:
    env = {**os.environ, "COMPANION_TRACE_FRAMES": "1", "COMPANION_DATA_DIR": data, **(env_extra or {})}
    if env_extra and "PYTHONPYCACHEPREFIX" in env_extra:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [
            *COMPANION,
            "play",
            "kilo",
            *args,
            "--mute",
            "--size",
            "800x480",
            "--players",
            "Alice,Bruno,Chloé,Dédé,Émile",
            "--data-dir",
            data,
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stderr is not None
    while True:
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError("companion play exited before its first frame")
        if line.startswith("#frame 1 "):
            STARTUP_CPU.append(_cpu_s(proc.pid))
            return proc, t0, time.monotonic() - t0


def _wait_quiet(proc: subprocess.Popen[str], quiet_s: float) -> None:
    """Until no frame has been drawn for ``quiet_s`` (the sim's slap is in and judged-waiting)."""
    import selectors

    assert proc.stderr is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    while sel.select(timeout=quiet_s):
        if not proc.stderr.readline():
            return


def bench_idle(seconds: float = 10.0) -> None:
    for source, quiet in (("keyboard", 1.0), ("sim", 8.0)):
        with tempfile.TemporaryDirectory() as data:
            proc, _, _ = _start(["--input", source, "--speed", "4"], data)
            try:
                _wait_quiet(proc, quiet)
                c0, n0, w0 = _cpu_s(proc.pid), _run_ns(proc.pid), time.monotonic()
                time.sleep(seconds)
                c1, n1, w1 = _cpu_s(proc.pid), _run_ns(proc.pid), time.monotonic()
            finally:
                proc.terminate()
                proc.wait(10)
            emit(
                {
                    "bench": "display.idle",
                    "input": source,
                    "seconds": round(w1 - w0, 1),
                    "cpu_percent_of_one_core": round(100 * (c1 - c0) / (w1 - w0), 2),
                    "scheduler_cpu_percent_of_one_core": round(100 * (n1 - n0) / 1e9 / (w1 - w0), 3),
                    "target_percent": 1,
                }
            )


def bench_startup(runs: int = 5) -> None:
    times = []
    del STARTUP_CPU[:]
    with tempfile.TemporaryDirectory() as pyc:
        # The bytecode in a folder of the bench's own (the source tree stays as it is): the
        # first run compiles it and is not counted.
        bytecode = {"PYTHONPYCACHEPREFIX": pyc}
        for run in range(runs + 1):
            with tempfile.TemporaryDirectory() as data:
                proc, _, first = _start(["--input", "sim"], data, bytecode)
                proc.terminate()
                proc.wait(10)
                if run:
                    times.append(first)
    emit(
        {
            "bench": "display.startup",
            "command": "companion play kilo --input sim",
            "median_s": round(statistics.median(times), 3),
            "max_s": round(max(times), 3),
            "cpu_median_s": round(statistics.median(STARTUP_CPU[1:]), 3),
            "runs": runs,
            "bytecode": "compiled by a first run, not counted",
            "target_s": 0.5,
        }
    )


def main(argv: list[str]) -> int:
    which = argv or ["redraw", "view", "idle", "startup"]
    for name in which:
        benches: dict[str, Callable[[], None]] = {
            "redraw": bench_redraw,
            "view": bench_view,
            "idle": bench_idle,
            "startup": bench_startup,
        }
        benches[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
