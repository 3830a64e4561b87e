"""Event time figures (issue 34): the real ``companion play`` loop (App.run), the real journal on
disk, one JSON object per line on stdout.

    python bench/event_time.py [--runs 30] [--kinds gpio-model,keyboard,...]

For each kind of seat buttons:

1. ``event_time.return_to_verdict``: the referee's Return posted to SDL -> the first frame that
   shows the verdict, p50/p99 over ``--runs`` slaps (Alice and Bob slapped, Chloé and Dédé did
   not), after an untimed first slap. With a source that publishes a watermark the verdict
   first waits for it to pass the key's instant; the keyboard (read by the loop itself)
   promises at once.
2. ``event_time.race_sweep``: Chloé presses at -20..+20 ms (1 ms steps) around Return; Dédé
   never does. A press made before the decision's instant counts (only Dédé draws), one made at
   or after it does not (Chloé and Dédé draw). ``wrong_verdicts`` counts first verdicts that
   say otherwise, judged against the instant the table gave the decision (the journal's
   ``close``: the key's read) and, for the keyboard, against the order the keys were made;
   ``read_band`` counts presses made after Return went down but before the loop read it (the
   key's own resolution, DECISION_POLL_S: the table cannot tell those apart); ``rejudged``
   counts verdicts judged again because a press came in after its source's bound.

Kinds: ``gpio-model`` is a GPIO-kind source modelled here: a press reaches the queue the
debouncer's delay (7 ms) after it is made, and its watermark is a read's instant held back to
the earliest press not yet delivered (docs/decisions.md, "Event time"); ``keyboard`` is the
seat keys. Other helpers add theirs as ``bench/event_time_<kind>.py`` exposing
``KIND: str`` and ``make(n_seats: int) -> tuple[source, press]``, where ``press(seat, t_ns)``
makes a press of ``seat`` at the table-clock instant ``t_ns`` (called at that instant); this
script runs every such module it finds (``--kinds`` chooses).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.display.window import open_display
from companion.games.kilo.events import NewKiloGame
from companion.hardware.config import HardwareConfig
from companion.inputs.base import Clock, InputEvent, Promise
from companion.inputs.keyboard import KeyboardSource
from companion.table.journal import Journal
from companion.table.live import Table

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
MS = 1_000_000
TABLE = Clock("CLOCK_MONOTONIC", 1000)
SEAT_KEYS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4)
Press = Callable[[int, int], None]


class GpioModel:
    """A GPIO-kind source: each press reaches the queue ``delay_ns`` after it is made (the
    debouncer deciding), and the reader publishes, after each delivery or question, the instant
    it looked, held back to the earliest press it holds: an honest watermark."""

    name = "gpio"

    def __init__(self, delay_ns: int = 7 * MS) -> None:
        self.delay_ns = delay_ns
        self.lateness_ns = delay_ns + 2 * MS
        self._held: list[tuple[int, int]] = []  # (stamp, seat)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._promise = Promise(self.name, None, True, (0, 1, 2, 3))
        self._events: queue.Queue[Any] | None = None
        self._thread: threading.Thread | None = None

    def start(self, events: queue.Queue[Any]) -> None:
        self._events = events
        self._thread = threading.Thread(target=self._run, name="gpio-model", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(2)

    def press(self, seat: int, t_ns: int) -> None:
        with self._lock:
            self._held.append((t_ns, seat))
        self._wake.set()

    def promise(self) -> Promise:
        return self._promise

    def ask(self, t_ns: int) -> None:
        self._wake.set()

    def _run(self) -> None:
        assert self._events is not None
        while not self._stop.is_set():
            now = time.monotonic_ns()
            with self._lock:
                due = sorted(x for x in self._held if x[0] + self.delay_ns <= now)
                for x in due:
                    self._held.remove(x)
                held = min((t for t, _ in self._held), default=None)
                nxt = min((t + self.delay_ns for t, _ in self._held), default=None)
            for t_ns, seat in due:
                self._events.put(InputEvent("seat", seat, "press", t_ns, TABLE, "gpio"))
                self._events.put(InputEvent("seat", seat, "release", t_ns + 80 * MS, TABLE, "gpio"))
            # Published after the puts: what it covers is on the queue.
            self._promise = Promise(self.name, now if held is None else min(now, held), True, (0, 1, 2, 3))
            wait = 0.05 if nxt is None else max(0.0, (nxt - time.monotonic_ns()) / 1e9)
            self._wake.wait(wait)
            self._wake.clear()


def gpio_model(n_seats: int) -> tuple[Any, Press]:
    source = GpioModel()
    return source, source.press


def keyboard(n_seats: int) -> tuple[Any, Press]:
    source = KeyboardSource.from_config(HardwareConfig().keyboard, n_seats, own_window=False)

    def press(seat: int, t_ns: int) -> None:
        key = SEAT_KEYS[seat]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))

    return source, press


def kinds_found() -> dict[str, Callable[[int], tuple[Any, Press]]]:
    found: dict[str, Callable[[int], tuple[Any, Press]]] = {"gpio-model": gpio_model, "keyboard": keyboard}
    for path in sorted(Path(__file__).resolve().parent.glob("event_time_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[str(module.KIND)] = module.make
    return found


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


def until(check: Callable[[], bool], timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the table did not get there in time")
        time.sleep(0.0005)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def play(
    kind: str, make: Callable[[int], tuple[Any, Press]], runs: int, offsets: list[int]
) -> list[dict[str, Any]]:
    surface = open_display((800, 480), fullscreen=False)
    source, press = make(len(PLAYERS))
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp), writer=True)
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=99), {"input": kind})
        app = App(
            surface, journal, table, Ui(lang="en"), source_name=kind, source_factory=lambda n, s: source
        )
        app.start()  # as `companion play` does: the constructor starts nothing
        shown: list[int] = []
        judged = [0]

        def on_frame(n: int) -> None:
            game = app.game
            if game is not None and game.slaps_judged > judged[0]:
                judged[0] = game.slaps_judged
                shown.append(time.monotonic_ns())

        app.on_frame = on_frame
        latencies: list[float] = []
        wrong: list[dict[str, Any]] = []
        read_band = rejudged = 0

        def game() -> Any:
            assert app.game is not None
            return app.game

        def drawn(owed: int) -> bool:
            return len(game().owed_draws) < owed or bool(game().finished)

        def one_slap(offset_ms: int | None) -> None:
            nonlocal read_band, rejudged
            until(lambda: game().awaiting == "play" and not app.arrivals.early)
            time.sleep(0.05)  # a moment of quiet: the loop idles as a table does between slaps
            press(0, time.monotonic_ns())  # each press made at its instant
            time.sleep(0.03)
            press(1, time.monotonic_ns())
            until(lambda: game().awaiting == "verdict" and len(game().window().order) == 2)
            time.sleep(0.02)
            events_before = len(list(reader.payloads(table.game_id)))
            chloe_at: int | None = None
            if offset_ms is not None and offset_ms < 0:
                chloe_at = time.monotonic_ns()
                press(2, chloe_at)
                time.sleep(-offset_ms / 1000)
            before = len(shown)
            posted = time.monotonic_ns()
            key(pygame.K_RETURN)
            if offset_ms is not None and offset_ms >= 0:
                time.sleep(offset_ms / 1000)
                chloe_at = time.monotonic_ns()
                press(2, chloe_at)
            until(lambda: len(shown) > before)
            if offset_ms is None:
                latencies.append((shown[before] - posted) / 1e6)
            else:
                time.sleep(0.05)  # a late press has had time to come in and re-judge
                rows = [json.loads(p) for _, p in reader.payloads(table.game_id)][events_before:]
                kinds = [r["type"] for r in rows]
                first = kinds.index("verdict")
                close = next((r["t_us"] for r in rows[:first] if r["type"] == "close"), None)
                assert chloe_at is not None
                counted_first = any(r["type"] == "press" and r["player"] == "Chloé" for r in rows[:first])
                # A source on a clock of its own (a Pico board: the window and its close are on
                # the board's clock) says whether the press, as it stamped it, came before.
                judge = getattr(source, "before_close", None)
                if judge is not None:
                    truth_table = close is not None and bool(judge(2, chloe_at, close))
                else:
                    truth_table = close is not None and chloe_at // 1000 < close
                truth_made = offset_ms < 0
                if "undo" in kinds:
                    rejudged += 1
                if truth_table != truth_made:
                    read_band += 1
                if counted_first != (truth_made if kind == "keyboard" else truth_table):
                    # Within her press's stated resolution of the decision, the table cannot
                    # tell before from after (a phone's stamp is known to a few ms): said apart.
                    mine = next((r for r in rows if r["type"] == "press" and r["player"] == "Chloé"), None)
                    res_us = (mine.get("res_us") or 1) if mine is not None else 1
                    within = close is not None and abs(chloe_at // 1000 - close) <= res_us
                    wrong.append(
                        {
                            "offset_ms": offset_ms,
                            "counted": counted_first,
                            "journal": kinds,
                            "res_ms": res_us / 1000,
                            "within_res": within,
                        }
                    )
            # The draws owed, entered on the table: Return (on to the card), a card, Return.
            until(lambda: game().awaiting in ("draw", "play"))
            # A seat key made after Return (the keyboard's race) lands on the result screen as a
            # rank: whatever screen that left, go on until the draw is made.
            while game().awaiting == "draw":
                owed = len(game().owed_draws)
                if app.last_screen != "card":
                    key(pygame.K_RETURN)
                    until(lambda: app.last_screen == "card" or game().awaiting != "draw")
                    continue
                _, counts = game().draw_source()
                ranks = [r.value for r, n in counts.items() if n]
                rank = "7" if "7" in ranks else ranks[0]
                key({"10": pygame.K_0, "A": pygame.K_a}.get(rank, getattr(pygame, f"K_{rank}", pygame.K_7)))
                key(pygame.K_RETURN)
                try:
                    until(partial(drawn, owed), 1.0)
                except TimeoutError:
                    key(pygame.K_ESCAPE)  # a rank refused: clear it and choose again

        failure: list[BaseException] = []

        reader = Journal(Path(tmp), writer=False)  # the driver's own reading of the disk

        def drive() -> None:
            try:
                # An untimed first slap: its frames fill the font caches (a table's first slap
                # after start; bench/gpio.py says it apart as its cold first game).
                one_slap(None)
                latencies.clear()
                for _ in range(runs):
                    one_slap(None)
                for offset in offsets:
                    one_slap(offset)
            except BaseException as exc:  # said after the loop stops
                failure.append(exc)
            finally:
                pygame.event.post(pygame.event.Event(pygame.QUIT))

        driver = threading.Thread(target=drive, name="bench-driver")
        app.step()
        driver.start()
        app.run()
        driver.join()
        reader.close()
        journal.close()
    if failure:
        raise failure[0]
    return [
        {
            "bench": "event_time.return_to_verdict",
            "source": kind,
            "runs": len(latencies),
            "p50_ms": round(statistics.median(latencies), 2),
            "p99_ms": round(pct(latencies, 0.99), 2),
            "max_ms": round(max(latencies), 2),
            "load_1m": round(os.getloadavg()[0], 2),
        },
        {
            "bench": "event_time.race_sweep",
            "source": kind,
            "offsets_ms": [offsets[0], offsets[-1]] if offsets else [],
            "cases": len(offsets),
            "wrong_verdicts": len(wrong),
            "wrong_beyond_resolution": sum(not w["within_res"] for w in wrong),
            "read_band": read_band,
            "rejudged": rejudged,
            "wrong": wrong,
        },
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: every one found)")
    parser.add_argument("--step-ms", type=int, default=1)
    parser.add_argument("--span-ms", type=int, default=20)
    args = parser.parse_args()
    found = kinds_found()
    chosen = [k for k in args.kinds.split(",") if k] or list(found)
    offsets = list(range(-args.span_ms, args.span_ms + 1, args.step_ms))
    for kind in chosen:
        for line in play(kind, found[kind], args.runs, offsets):
            print(json.dumps(line, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
