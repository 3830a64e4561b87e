"""Phones at the table: how fair, how fast, and what the listener costs the table.

    python bench/web.py [--presses 10000] [--pads 10] [--viewers 30] [--quick]

One JSON object a line, every figure named (never asserted: tests/ assert behaviours):

- ``fairness``: simulated time, the real PadSession; delays uniform each way; the share of
  presses whose true time lies within the stated resolution, the median resolution, and the
  worst misorder beyond the combined resolution (<= 0: never). Run for 5-60 ms and for a round
  trip of at most 10 ms (1-5 ms each way).
- ``press_to_queue``: loopback, the real server; ``pads`` phones (Python WebSocket clients that
  answer pings, in a process of their own) press in turn; from the send to the InputEvent on the
  table's queue (p50/p99 ms).
- ``standings_push``: from a journaled event to a viewer's server-sent event carrying it (p50/p99
  ms), with ``viewers`` viewers listening (HTTP clients in the phones' process, not a browser).
- ``idle_cpu``: the table process's CPU share over 5 s with every pad and viewer connected and
  idle (the pads keep answering pings: that is their idle).
- ``strangers``: 1,000 connection attempts with no valid token; how long they took and the
  table's press latency meanwhile.
- ``restart`` (``--only restart``): kill -9 of ``companion play --web`` with chromium pads, then
  ``--resume``: until every pad has a tap answered again (s).
- ``big_head`` and ``siege`` (``--only siege``, issue 36): the table's memory before and after
  a stranger's 100 MB head; then 500 half-open connections and 10,000 tokenless requests from
  one address, while a paired viewer loads its page (p50/p99 ms) and the pads press.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# pygame greets on stdout when imported; this bench prints one JSON object per line there.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
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
        emit(
            bench="fairness",
            delay_ms=list(delays),
            presses=len(results),
            within_resolution=round(within(results), 5),
            median_resolution_ms=round(statistics.median(r.res_ns for r in results) / 1e6, 3),
            p99_resolution_ms=pct([r.res_ns / 1e6 for r in results], 0.99),
            worst_misorder_beyond_combined_ms=round(worst_misorder(results) / 1e6, 3),
            seconds=round(time.perf_counter() - t, 1),
        )


class Pad:
    """A phone's button page in Python, over the real WebSocket (in the phones' process)."""

    def __init__(self, url: str, origin: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, origin=origin)  # type: ignore[arg-type]
        self.n = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.ws:
                m = json.loads(text)
                if m["t"] == "ping":
                    self.ws.send(json.dumps({"t": "pong", "id": m["id"], "p": time.monotonic_ns() / 1e6}))
        except ConnectionClosed:
            pass

    def press(self, game: str) -> int:
        self.n += 1
        sent = time.monotonic_ns()
        self.ws.send(json.dumps({"t": "press", "n": self.n, "p": sent / 1e6, "g": game}))
        self.ws.send(json.dumps({"t": "release", "n": self.n, "p": sent / 1e6 + 1}))
        return sent


def phones(spec: str) -> None:
    """The phones' process: pads and viewers, driven by the lines on stdin, answering on stdout
    (so their work does not compete with the table's process for its interpreter)."""
    import httpx

    cfg = json.loads(spec)
    base = cfg["base"]
    pads = [Pad(f"ws{base[4:]}/pad/{tok}/ws", base) for tok in cfg["seats"]]
    pushes: queue.Queue[tuple[int, int]] = queue.Queue()

    def viewer() -> None:
        with httpx.stream("GET", f"{base}/t/{cfg['join']}/events", timeout=None) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    pushes.put((json.loads(line[6:])["seq"], time.monotonic_ns()))

    strangers = threading.Event()
    knocked = [0.0, 0, 0]

    def page(token: str, source: str) -> int:
        """A page request on a connection of its own from ``source``, its status."""
        import socket

        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), source_address=(source, 0)) as s:
            s.sendall(f"GET /pad/{token} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(64)
        if not head:
            raise EOFError
        return int(head.split()[1])

    def knock(count: int, spread: bool) -> None:
        """``count`` new connections without a valid token: half pages, half pad sockets; from
        one address, or (``spread``) each from an address of its own (127.0.x.y: every one of
        127/8 is this machine's), which no per-address limit stops."""
        from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
        from websockets.sync.client import connect

        if spread:
            t = time.perf_counter()
            refused = cut = 0
            for i in range(count):
                token = f"stranger{i:06d}xxxxxxxxxxxx"
                source = f"127.0.{1 + i // 250}.{2 + i % 250}"
                try:
                    if i % 2:
                        refused += page(token, source) == 404
                    else:
                        connect(
                            f"ws{base[4:]}/pad/{token}/ws",
                            origin=base,  # type: ignore[arg-type]
                            source_address=(source, 0),
                        ).close()
                except InvalidStatus:
                    refused += 1
                except (OSError, EOFError, InvalidMessage, ConnectionClosed):
                    cut += 1
            knocked[:] = [time.perf_counter() - t, refused, cut]
            strangers.set()
            return

        t = time.perf_counter()
        refused = 0
        # One client, no connection kept: each page request opens a connection of its own
        # (httpx.get would build a TLS context per call, the client's cost, not the table's).
        client = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
        cut = 0  # closed as they connected: the address spent its refusals
        for i in range(count):
            token = f"stranger{i:06d}xxxxxxxxxxxx"
            try:
                if i % 2:
                    r = client.get(f"{base}/pad/{token}", headers={"connection": "close"})
                    refused += r.status_code == 404
                else:
                    connect(f"ws{base[4:]}/pad/{token}/ws", origin=base).close()  # type: ignore[arg-type]
            except InvalidStatus:
                refused += 1
            except (httpx.TransportError, OSError, EOFError, InvalidMessage, ConnectionClosed):
                cut += 1
        client.close()
        knocked[:] = [time.perf_counter() - t, refused, cut]
        strangers.set()

    sieged = threading.Event()
    siege_out: dict[str, Any] = {}

    def siege(half_open: int, requests: int) -> None:
        """Issue 36's siege: ``half_open`` connections that send ``GET /t/`` and never finish
        (spread over ten addresses, 127.0.3.1-10), and ``requests`` tokenless requests from one
        address (127.0.4.1), on kept-alive connections, a new one whenever the server closes
        it; meanwhile a paired viewer (127.0.0.1) loads its page every 50 ms on a new
        connection."""
        import socket

        port = int(base.rsplit(":", 1)[1])
        loads: list[float] = []
        statuses: dict[str, int] = {}
        done = threading.Event()

        def view() -> None:
            client = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=10)
            while not done.is_set():
                t = time.perf_counter()
                try:
                    code = client.get(f"{base}/t/{cfg['join']}").status_code
                    code2 = client.get(f"{base}/t/{cfg['join']}/now").status_code
                    key = f"{code}/{code2}"
                except httpx.TransportError as exc:
                    key = type(exc).__name__
                loads.append((time.perf_counter() - t) * 1000)
                statuses[key] = statuses.get(key, 0) + 1
                time.sleep(0.05)
            client.close()

        viewer_thread = threading.Thread(target=view, daemon=True)
        viewer_thread.start()
        held: list[socket.socket] = []
        refused_open = 0
        for i in range(half_open):
            try:
                s = socket.create_connection(
                    ("127.0.0.1", port), timeout=5, source_address=(f"127.0.3.{1 + i % 10}", 0)
                )
                s.sendall(b"GET /t/")
                held.append(s)
            except OSError:
                refused_open += 1
        answered = cut = 0
        conn: socket.socket | None = None
        t0 = time.perf_counter()
        for i in range(requests):
            try:
                if conn is None:
                    conn = socket.create_connection(
                        ("127.0.0.1", port), timeout=5, source_address=("127.0.4.1", 0)
                    )
                conn.sendall(
                    f"GET /t/stranger{i:06d}xxxxxxxxxxxx HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
                )
                head = conn.recv(4096)
                if not head:
                    raise EOFError
                answered += 1
            except (OSError, EOFError):
                cut += 1
                if conn is not None:
                    conn.close()
                conn = None
        took = time.perf_counter() - t0
        still = 0
        for s in held:  # how many half-open the server still held at the end
            s.setblocking(False)
            try:
                still += 0 if s.recv(1) == b"" else 1
            except BlockingIOError:
                still += 1
            except OSError:
                pass
        done.set()
        viewer_thread.join()
        for s in held:
            s.close()
        if conn is not None:
            conn.close()
        siege_out.update(
            half_open=half_open,
            half_open_refused_at_connect=refused_open,
            half_open_still_held=still,
            requests=requests,
            answered=answered,
            cut=cut,
            seconds=round(took, 2),
            viewer_loads=len(loads),
            viewer_p50_ms=pct(loads, 0.5) if loads else None,
            viewer_p99_ms=pct(loads, 0.99) if loads else None,
            viewer_statuses=statuses,
        )
        sieged.set()

    def big_head(megabytes: int) -> dict[str, Any]:
        """A head of ``megabytes`` MB of header lines from a stranger (127.0.5.1)."""
        import socket

        port = int(base.rsplit(":", 1)[1])
        sent = 0
        answer = b""
        with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.5.1", 0)) as s:
            s.sendall(b"GET /t/x HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            line = b"X-Filler: " + b"a" * 1000 + b"\r\n"
            chunk = line * 64
            try:
                while sent < megabytes * 1_000_000:
                    s.sendall(chunk)
                    sent += len(chunk)
                s.sendall(b"\r\n")
                answer = s.recv(64)
            except OSError:
                pass
        return {"sent_bytes": sent, "answer": answer.split(b"\r\n", 1)[0].decode("latin-1")}

    for _ in range(cfg["viewers"]):
        threading.Thread(target=viewer, daemon=True).start()
    print("ready", flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if cmd[0] == "press":
            print("sent", pads[int(cmd[1])].press(cfg["game"]), flush=True)
        elif cmd[0] == "pushes":
            out = []
            while not pushes.empty():
                out.append(pushes.get())
            print(json.dumps(out), flush=True)
        elif cmd[0] == "strangers":
            # In the background, so the table's presses are measured while they knock.
            strangers.clear()
            threading.Thread(target=knock, args=(int(cmd[1]), cmd[2:] == ["spread"]), daemon=True).start()
            print("started", flush=True)
        elif cmd[0] == "strangers_wait":
            strangers.wait()
            print("took", *knocked, flush=True)
        elif cmd[0] == "siege":
            sieged.clear()
            threading.Thread(target=siege, args=(int(cmd[1]), int(cmd[2])), daemon=True).start()
            print("started", flush=True)
        elif cmd[0] == "siege_wait":
            sieged.wait()
            print(json.dumps(siege_out), flush=True)
        elif cmd[0] == "big_head":
            print(json.dumps(big_head(int(cmd[1]))), flush=True)


class Stamped(queue.Queue):  # type: ignore[type-arg]
    """The table's queue, noting when each item was put (what "reached the queue" means)."""

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put((time.monotonic_ns(), item), block, timeout)


def _busiest_redraw() -> tuple[str, float]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_display", ROOT / "bench" / "display.py")
    assert spec is not None and spec.loader is not None
    display = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(display)
    medians: dict[str, float] = display._redraw_medians("kilo", 40)
    screen = max(medians, key=medians.__getitem__)
    return screen, medians[screen]


def _thread_cpu_s(thread: threading.Thread | None) -> float:
    """A thread's CPU seconds so far (Linux: /proc/self/task/<tid>/stat), 0 elsewhere."""
    import os

    try:
        assert thread is not None and thread.native_id is not None
        with open(f"/proc/self/task/{thread.native_id}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (AssertionError, OSError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _table_frame() -> Any:
    """A stand-in for the table's loop, in a thread of the table's process (it shares the
    interpreter with the server's thread, as the real loop does): sleeps a 60 Hz frame, notes how
    late it woke, draws kilo's busiest screen at 1920x1080 and notes how long that took."""
    import pygame

    from companion.display.layout import Fonts, Painter
    from companion.display.screens import draw
    from companion.display.snapshot import headless_pygame, ui_for, view_of
    from companion.games.kilo import samples
    from companion.table.fold import replay

    screen, _ = _busiest_redraw()
    headless_pygame()
    game = replay(samples.lines("busy"))
    view = view_of(game)
    surface = pygame.Surface((1920, 1080))
    fonts = Fonts()
    ui = ui_for(game, "fr")
    for _ in range(5):
        draw(Painter(surface, fonts), view, ui, screen)  # texts and layers cached, as in play

    def frame(stop: threading.Event, late: list[float], drawn: list[float]) -> None:
        while not stop.is_set():
            t = time.perf_counter_ns()
            time.sleep(0.016)
            t1 = time.perf_counter_ns()
            late.append((t1 - t) / 1e6 - 16)
            draw(Painter(surface, fonts), view, ui, screen)
            drawn.append((time.perf_counter_ns() - t1) / 1e6)

    return frame


def live(pads_n: int, viewers_n: int, presses: int, only: str | None = None, attempts: int = 1000) -> None:
    import subprocess

    from companion.games.kilo.events import Dealer, NewKiloGame, Press
    from companion.hardware.web_config import WebConfig
    from companion.inputs.base import InputEvent
    from companion.table.journal import Journal
    from companion.table.live import Table
    from companion.web.server import WebServer

    quiet_redraw = _busiest_redraw() if only != "idle" else ("", 0.0)
    folder = Path(tempfile.mkdtemp())
    journal = Journal(folder, writer=True)
    names = [f"P{i}" for i in range(pads_n)]
    table = Table.start(journal, NewKiloGame(players=names, rounds=2), {"input": "web"})
    web = WebServer(
        WebConfig(bind="127.0.0.1", port=0, max_viewers=viewers_n + 8),
        folder,
        current_game=lambda: table.game_id,
    )
    events = Stamped()
    web.attach(events)
    web.watch(journal)  # as serve_table does: commits wake the feed
    web.start()
    base = f"http://127.0.0.1:{web.port}"
    while web.pairing() is None:
        time.sleep(0.02)
    g = web.pairing()
    spec = json.dumps(
        {"base": base, "seats": g.seats, "join": g.join, "viewers": viewers_n, "game": table.game_id}
    )
    proc = subprocess.Popen(
        [sys.executable, __file__, "--phones", spec],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(line: str) -> str:
        proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        return proc.stdout.readline().strip()  # type: ignore[union-attr]

    assert proc.stdout.readline().strip() == "ready"
    while (
        len(web.pads) < pads_n
        or any(p.clock.pings < 8 for p in list(web.pads.values()))
        or (
            len(web._viewers) < viewers_n  # every viewer listening: idle is not their arrival
        )
    ):
        time.sleep(0.05)
    time.sleep(1.0)
    ask("pushes")

    def press_latencies(count: int) -> list[float]:
        out = []
        for i in range(count):
            sent = int(ask(f"press {i % pads_n}").split()[1])
            while True:
                at, item = events.get(timeout=10)
                if isinstance(item, InputEvent) and item.edge == "press":
                    out.append((at - sent) / 1e6)
                    break
            time.sleep(0.005)
        return out

    if only == "idle":
        presses = 0
    lat = press_latencies(presses) if presses else [0.0]
    emit(
        bench="press_to_queue",
        pads=pads_n,
        viewers=viewers_n,
        presses=len(lat),
        p50_ms=pct(lat, 0.5),
        p99_ms=pct(lat, 0.99),
    )

    # Journaled events pushed to every viewer: the first dealer, then each player's press.
    commits: dict[int, int] = {}
    events_to_push = [] if only in ("idle", "strangers", "siege") else None
    t_us = time.monotonic_ns() // 1000
    for i, event in enumerate(
        events_to_push
        if events_to_push is not None
        else [
            Dealer(player=names[0]),
            *(Press(player=n, t_us=t_us + 10_000 * k) for k, n in enumerate(names)),
        ]
    ):
        commits[table.seq + 1] = time.monotonic_ns()
        table.submit(event)
        time.sleep(0.2 + 0.013 * (i % 3))  # not in step with the server's polling
    push = [(at - commits[seq]) / 1e6 for seq, at in json.loads(ask("pushes")) if seq in commits] or [0.0]
    if only not in ("strangers", "siege"):
        emit(
            bench="standings_push",
            viewers=viewers_n,
            samples=len(push),
            p50_ms=pct(push, 0.5),
            p99_ms=pct(push, 0.99),
            note="journaled event to each viewer's server-sent event",
        )

    if only is None or only == "live":
        # The table's busiest redraw while every phone is connected (the server's thread shares
        # the interpreter), against the same with no server: bench/display.py's own measure.
        busiest = _busiest_redraw()
        emit(
            bench="redraw_connected",
            pads=pads_n,
            viewers=viewers_n,
            busiest_median_ms=round(busiest[1], 2),
            screen=busiest[0],
            quiet_median_ms=round(quiet_redraw[1], 2),
            size="1920x1080",
            note="kilo's busy sample, every screen drawn 40 times; the busiest screen's median",
        )
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(0 if only in ("strangers", "siege") else 5)
    share = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    if only not in ("strangers", "siege"):
        emit(
            bench="idle_cpu",
            pads=pads_n,
            viewers=viewers_n,
            cpu_share_percent=round(share * 100, 2),
            note="the table's process (server thread: pads pinged, commits wake the feed)",
        )

    if only == "idle":
        proc.stdin.close()
        proc.terminate()
        proc.wait(10)
        web.stop()
        journal.close()
        return

    if only == "siege":
        siege_figures(web, ask, press_latencies, lat)
        proc.stdin.close()
        proc.terminate()
        proc.wait(10)
        web.stop()
        journal.close()
        return

    frame = _table_frame()
    quiet_late: list[float] = []
    quiet_draw: list[float] = []
    stop = threading.Event()
    loop = threading.Thread(target=frame, args=(stop, quiet_late, quiet_draw))
    loop.start()
    time.sleep(3)
    stop.set()
    loop.join()
    for spread in (False, True):
        busy_late: list[float] = []
        busy_draw: list[float] = []
        stop = threading.Event()
        loop = threading.Thread(target=frame, args=(stop, busy_late, busy_draw))
        refused_before, cut_before = web.refused, getattr(web, "cut", 0)
        server_cpu0 = _thread_cpu_s(web._thread)
        assert ask(f"strangers {attempts}" + (" spread" if spread else "")) == "started"
        loop.start()
        during = press_latencies(100)
        _, took, refused, cut = ask("strangers_wait").split()
        server_cpu = _thread_cpu_s(web._thread) - server_cpu0
        stop.set()
        loop.join()
        emit(
            bench="strangers",
            addresses=attempts if spread else 1,
            attempts=attempts,
            refused=int(refused),
            cut_at_connection=int(cut),
            seen_by_handlers=web.refused - refused_before,
            cut_by_server=getattr(web, "cut", 0) - cut_before,
            seconds=round(float(took), 2),
            # the server thread's CPU (user + system) per attempt: time the interpreter, shared
            # with the table's loop, spent on strangers (system time mostly without the GIL)
            server_cpu_ms_per_attempt=round(server_cpu * 1000 / attempts, 3),
            press_p50_ms_during=pct(during, 0.5),
            press_p99_ms_during=pct(during, 0.99),
            press_p99_ms_quiet=pct(lat, 0.99),
            loop_late_p50_ms_during=pct(busy_late, 0.5),
            loop_late_p99_ms_during=pct(busy_late, 0.99),
            loop_late_p99_ms_quiet=pct(quiet_late, 0.99),
            redraw_median_ms_during=round(statistics.median(busy_draw), 2),
            redraw_p99_ms_during=pct(busy_draw, 0.99),
            redraw_median_ms_quiet=round(statistics.median(quiet_draw), 2),
            frames_during=len(busy_draw),
            note="half page requests, half pad sockets, each a new connection; meanwhile presses, "
            "and a stand-in for the table's loop: wakes every 16 ms (lateness), draws kilo's busiest screen",
        )
    proc.stdin.close()
    proc.terminate()
    proc.wait(10)
    web.stop()
    journal.close()


def _rss_mb() -> float:
    """This process's resident memory (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def siege_figures(web: Any, ask: Any, press_latencies: Any, quiet: list[float]) -> None:
    """Issue 36's numbers: a 100 MB head's cost in the table's memory; 500 half-open
    connections and 10,000 tokenless requests from one address against a paired viewer's page
    loads and the pads' presses."""
    import gc

    gc.collect()
    before = _rss_mb()
    got = json.loads(ask("big_head 100"))
    gc.collect()
    time.sleep(0.5)
    after = _rss_mb()
    emit(
        bench="big_head",
        attempted_mb=100,
        sent_mb=round(got["sent_bytes"] / 1e6, 2),
        answer=got["answer"],
        too_large=web.too_large,
        rss_before_mb=round(before, 1),
        rss_after_mb=round(after, 1),
        rss_growth_mb=round(after - before, 2),
        note="the table's process; the head sent from the phones' process (127.0.5.1)",
    )
    timed_out, cut, refused = web.timed_out, web.cut, web.refused
    assert ask("siege 500 10000") == "started"
    during = press_latencies(200)
    figures = json.loads(ask("siege_wait"))
    emit(
        bench="siege",
        **figures,
        server_head_timeouts=web.timed_out - timed_out,
        server_cut=web.cut - cut,
        server_refused=web.refused - refused,
        refusing_addresses=sorted(web._refusals),
        press_p50_ms_during=pct(during, 0.5),
        press_p99_ms_during=pct(during, 0.99),
        press_p99_ms_quiet=pct(quiet, 0.99),
        note="half-open over 127.0.3.1-10, tokenless requests from 127.0.4.1 kept alive, "
        "the viewer's page and its /now on new connections every 50 ms from 127.0.0.1",
    )


def browser_push(samples: int) -> None:
    """From a journaled event to the phone's page redrawn with it, in Debian's chromium (360 px,
    through Playwright): the page notes the wall clock as it draws; one viewer, a 13 feuilles
    match played event by event."""
    import shutil

    from companion.games.treize import samples as treize
    from companion.hardware.web_config import WebConfig
    from companion.table.journal import Journal
    from companion.table.live import Table
    from companion.table.log import parse_event
    from companion.web.server import WebServer

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        emit(bench="browser_push", skipped="playwright is not installed")
        return
    if not Path(chromium).exists():
        emit(bench="browser_push", skipped="Debian's chromium is not installed")
        return
    events = treize.finished()
    folder = Path(tempfile.mkdtemp())
    journal = Journal(folder, writer=True)
    table = Table.start(journal, parse_event(json.dumps(events[0])), {"input": "web"})  # type: ignore[arg-type]
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), folder, current_game=lambda: table.game_id)
    web.watch(journal)
    web.start()
    while web.pairing() is None:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{web.port}/t/{web.pairing().join}"
    lat: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
        page.goto(url)
        page.wait_for_selector("body[data-seq='1']")
        for i, e in enumerate(events[1 : samples + 1]):
            committed = time.time_ns() / 1e6
            table.submit(parse_event(json.dumps(e), table.engine.game))
            page.wait_for_selector(f"body[data-seq='{table.seq}']", timeout=10_000)
            lat.append(float(page.get_attribute("body", "data-drawn") or 0) - committed)
            time.sleep(0.1 + 0.013 * (i % 4))  # not in step with anything
        browser.close()
    emit(
        bench="browser_push",
        samples=len(lat),
        p50_ms=pct(lat, 0.5),
        p99_ms=pct(lat, 0.99),
        note="journaled event to the page redrawn in chromium (the page's Date.now(), 1 ms)",
    )
    web.stop()
    journal.close()


def restart(seats: int = 3) -> None:
    """kill -9 of a real ``companion play --web`` with a pad per seat open in chromium (the real
    pad.js), then ``companion play --resume --web`` on the same folder and port: from the kill,
    and from the new table's listening socket, until every pad has had a tap answered again
    (each page taps every 100 ms until its press counts, as a player would)."""
    import shutil
    import signal
    import socket
    import subprocess

    import httpx

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        emit(bench="restart", skipped="playwright is not installed")
        return
    if not Path(chromium).exists():
        emit(bench="restart", skipped="Debian's chromium is not installed")
        return
    folder = Path(tempfile.mkdtemp())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = folder / "companion.toml"
    config.write_text(
        f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\npublic_host = "127.0.0.1"\n'
    )
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "COMPANION_CONFIG": str(config),
    }
    base = f"http://127.0.0.1:{port}"
    names = ",".join(f"P{i + 1}" for i in range(seats))
    common = [
        "--web",
        "--input",
        "keyboard",
        "--data-dir",
        str(folder / "data"),
        "--mute",
        "--size",
        "800x480",
    ]

    def table(*args: str) -> tuple[subprocess.Popen[bytes], float]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", *args, *common],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(600):  # bounded: 60 s
            try:
                httpx.get(base + "/", timeout=1)
                return proc, time.monotonic()
            except httpx.TransportError:
                time.sleep(0.1)
        proc.kill()
        raise RuntimeError("the table never listened")

    first, _ = table("kilo", "--players", names)
    codes = folder / "data" / "web-codes.json"
    for _ in range(300):
        if codes.exists():
            break
        time.sleep(0.1)
    tokens = json.loads(codes.read_text())["seats"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        pages = []
        for tok in tokens:
            page = browser.new_context(viewport={"width": 360, "height": 780}, has_touch=True).new_page()
            page.goto(f"{base}/pad/{tok}")
            page.wait_for_selector("#res:has-text('±')", timeout=30_000)
            pages.append(page)
        for page in pages:
            for n in (1, 2):
                page.locator("#pad").tap()
                page.wait_for_selector(f"body[data-pressed='{n}']", timeout=10_000)
        os.kill(first.pid, signal.SIGKILL)
        killed = time.monotonic()
        first.wait()
        again, listening = table("--resume")
        back: list[float] = []
        for page in pages:  # each page taps until its first press of the new connection counts
            deadline = time.monotonic() + 30
            while page.get_attribute("body", "data-pressed") != "1" and time.monotonic() < deadline:
                if page.locator("#pad.ready").count():
                    page.locator("#pad").tap()
                page.wait_for_timeout(100)
            back.append(
                time.monotonic() if page.get_attribute("body", "data-pressed") == "1" else float("nan")
            )
        browser.close()
    again.terminate()
    again.wait(10)
    emit(
        bench="restart",
        seats=seats,
        kill_to_listening_s=round(listening - killed, 2),
        listening_to_every_pad_pressing_s=round(max(back) - listening, 2),
        kill_to_every_pad_pressing_s=round(max(back) - killed, 2),
        note="kill -9 of companion play --web, then --resume on the same folder and port; chromium pads",
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=10_000)
    ap.add_argument("--pads", type=int, default=10)
    ap.add_argument("--viewers", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument(
        "--only",
        choices=["idle", "live", "browser", "strangers", "siege", "restart"],
        help="idle: only the idle CPU; live: no fairness; strangers: only the 1,000 strangers; "
        "siege: a 100 MB head, then 500 half-open connections and 10,000 tokenless requests",
    )
    ap.add_argument("--attempts", type=int, default=1000, help="strangers' connection attempts")
    ap.add_argument("--phones", help=argparse.SUPPRESS)  # the phones' own process
    args = ap.parse_args()
    if args.phones:
        phones(args.phones)
        return
    presses = 500 if args.quick else args.presses
    if args.only == "restart":
        restart()
        return
    if args.only in (None, "browser"):
        browser_push(20 if args.quick else 200)
        if args.only == "browser":
            return
    if args.only is None:
        fairness(presses)
    live(
        3 if args.quick else args.pads,
        3 if args.quick else args.viewers,
        50 if args.quick or args.only in ("strangers", "siege") else 500,
        args.only,
        args.attempts,
    )


if __name__ == "__main__":
    main()
