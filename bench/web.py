"""Phones at the table: how fair, how fast, and what the listener costs the table.

    python bench/web.py [--presses 10000] [--pads 10] [--viewers 30] [--quick]

One JSON object a line, every figure named (never asserted: tests/ assert behaviours):

- ``fairness``: simulated time, the real PadSession; delays uniform each way; the share of
  presses whose true time lies within the stated resolution, the median resolution, and the
  worst misorder beyond the combined resolution (<= 0: never). Run for 5-60 ms and for a round
  trip of at most 10 ms (1-5 ms each way).
- ``press_to_queue``: loopback, the real server; ``pads`` phones (Python WebSocket clients that
  answer pings) press in turn; from the send to the InputEvent on the table's queue (p50/p99 ms).
- ``standings_push``: from a journaled event to a viewer's server-sent event carrying it (p50/p99
  ms), with ``viewers`` viewers listening (an HTTP client, not a browser).
- ``idle_cpu``: the process's CPU share over 5 s with every pad and viewer connected and idle
  (the pads keep answering pings: that is their idle).
- ``strangers``: 1,000 connection attempts with no valid token; how long they took and the
  table's press latency meanwhile.
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.web.fairness import simulate, within, worst_misorder  # noqa: E402


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 3)


def fairness(presses: int) -> None:
    for delays in ((5.0, 60.0), (1.0, 5.0)):
        t = time.perf_counter()
        results = simulate(presses, seats=4, seed=1, delay_ms=delays)
        emit(bench="fairness", delay_ms=list(delays), presses=len(results),
             within_resolution=round(within(results), 5),
             median_resolution_ms=round(statistics.median(r.res_ns for r in results) / 1e6, 3),
             p99_resolution_ms=pct([r.res_ns / 1e6 for r in results], 0.99),
             worst_misorder_beyond_combined_ms=round(worst_misorder(results) / 1e6, 3),
             seconds=round(time.perf_counter() - t, 1))


class Pad:
    """A phone's button page in Python, over the real WebSocket."""

    def __init__(self, url: str, origin: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, origin=origin)  # type: ignore[arg-type]
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.n = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.ws:
                m = json.loads(text)
                if m["t"] == "ping":
                    self.ws.send(json.dumps({"t": "pong", "id": m["id"],
                                             "p": time.monotonic_ns() / 1e6}))
                elif m["t"] in ("ok", "no"):
                    self.acks.put(m)
        except ConnectionClosed:
            pass

    def press(self, game: str) -> None:
        self.n += 1
        now = time.monotonic_ns() / 1e6
        self.ws.send(json.dumps({"t": "press", "n": self.n, "p": now, "g": game}))
        self.ws.send(json.dumps({"t": "release", "n": self.n, "p": now + 1}))


def live(pads_n: int, viewers_n: int, presses: int) -> None:
    import httpx

    from companion.games.kilo.events import NewKiloGame
    from companion.inputs.base import InputEvent
    from companion.table.journal import Journal
    from companion.table.live import Table
    from companion.web.config import WebConfig
    from companion.web.server import WebServer

    folder = Path(tempfile.mkdtemp())
    journal = Journal(folder, writer=True)
    names = [f"P{i}" for i in range(pads_n)]
    table = Table.start(journal, NewKiloGame(players=names, rounds=2), {"input": "web"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, max_viewers=viewers_n + 8), folder,
                    current_game=lambda: table.game_id)
    events: queue.Queue[Any] = queue.Queue()
    web.attach(events)
    web.start()
    base = f"http://127.0.0.1:{web.port}"
    while web.pairing() is None:
        time.sleep(0.02)
    g = web.pairing()
    pads = [Pad(f"ws://127.0.0.1:{web.port}/pad/{tok}/ws", base) for tok in g.seats]
    while any(p.clock.pings < 8 for p in web.pads.values()) or len(web.pads) < pads_n:
        time.sleep(0.05)
    pushes: queue.Queue[tuple[int, int]] = queue.Queue()

    def viewer() -> None:
        with httpx.stream("GET", f"{base}/t/{g.join}/events", timeout=None) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    pushes.put((json.loads(line[6:])["seq"], time.monotonic_ns()))

    for _ in range(viewers_n):
        threading.Thread(target=viewer, daemon=True).start()
    time.sleep(1.0)
    while not pushes.empty():
        pushes.get()

    def press_latencies(count: int) -> list[float]:
        out = []
        for i in range(count):
            pad = pads[i % pads_n]
            sent = time.monotonic_ns()
            pad.press(table.game_id)
            while True:
                item = events.get(timeout=10)
                if isinstance(item, InputEvent) and item.edge == "press":
                    out.append((time.monotonic_ns() - sent) / 1e6)
                    break
            time.sleep(0.005)
        return out

    lat = press_latencies(presses)
    emit(bench="press_to_queue", pads=pads_n, viewers=viewers_n, presses=len(lat),
         p50_ms=pct(lat, 0.5), p99_ms=pct(lat, 0.99))

    # Journaled events pushed to every viewer: the first dealer, then each player's press.
    from companion.games.kilo.events import Dealer, Press

    push: list[float] = []
    t_us = time.monotonic_ns() // 1000
    for i, event in enumerate([Dealer(player=names[0]),
                               *(Press(player=n, t_us=t_us + 10_000 * k) for k, n in
                                 enumerate(names))]):
        committed = time.monotonic_ns()
        table.submit(event)
        seq = table.seq
        got = 0
        while got < viewers_n:
            s, at = pushes.get(timeout=10)
            if s == seq:
                push.append((at - committed) / 1e6)
                got += 1
        time.sleep(0.02 + 0.013 * (i % 3))  # not in step with the server's polling
    emit(bench="standings_push", viewers=viewers_n, samples=len(push), p50_ms=pct(push, 0.5),
         p99_ms=pct(push, 0.99), note="journaled event to each viewer's server-sent event")

    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(5)
    share = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    emit(bench="idle_cpu", pads=pads_n, viewers=viewers_n, cpu_share_percent=round(share * 100, 2),
         note="the whole process: server thread answering 4 pings/s per pad, viewers idle")

    t = time.perf_counter()
    with httpx.Client() as client:
        for i in range(1000):
            client.get(f"{base}/pad/stranger{i:06d}xxxxxxxxxxxx")
    took = time.perf_counter() - t
    during = press_latencies(50)
    emit(bench="strangers", attempts=1000, seconds=round(took, 2),
         press_p99_ms_after=pct(during, 0.99), refused_counted=web.refused)
    web.stop()
    journal.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=10_000)
    ap.add_argument("--pads", type=int, default=10)
    ap.add_argument("--viewers", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    args = ap.parse_args()
    presses = 500 if args.quick else args.presses
    fairness(presses)
    live(3 if args.quick else args.pads, 3 if args.quick else args.viewers,
         20 if args.quick else 500)


if __name__ == "__main__":
    main()
