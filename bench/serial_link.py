"""Numbers for the Pico link; one JSON object per line.

    python bench/serial_link.py [--quick] [--pio]   (--pio: only the capture figures)

- parser: host frames/s (target >= 100,000)
- noise: 1 MB of noise interleaved with 10,000 valid frames (target: all recovered, 0 crashes)
- latency: the firmware's main loop in MicroPython on a pty, our SerialSource on the other end;
  board-to-queue (frame written -> on the queue) and edge-to-queue (includes the 2 ms glitch
  minimum the debounce rules wait for). Target p99 <= 5 ms for board-to-queue.
- reconnect: unplug/replug and board power cycle, replug -> "connected" on the queue (< 2 s)
- pio.loop: the firmware's PIO program in the RP2040 PIO emulator (pioemu): the longest loop
  over every path, in state machine cycles and microseconds (target 1 us)
- pio.order.emulator / pio.order.model: ten seats pressed 1 us apart in a random order, at a
  random phase against the samples: ties and inversions over 10,000 rounds (target 0 and 0), in
  the emulator (the PIO's records) and in the MicroPython model (the firmware's debounced events)
- stall: 10-player bouncy slaps with the main loop stalled 50 ms, both capture paths (target 0
  presses missing, 0 lost)
- ring: the DMA ring's capacity in edge records and in bouncy slaps while the main loop is
  away; loss past it is reported with how many
- absence: the event ring's capacity in seconds of host absence (a 10-player slap every 2 s);
  loss past it is reported with how many
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import queue
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.inputs import protocol as p
from companion.inputs.base import InputEvent, QueueItem, SourceStatus
from companion.inputs.serial_source import SerialSource
from tests import pio_helpers
from tests.mpy_helpers import run_mp
from tests.serial_helpers import FirmwareBoard, Plug, wait_for


def emit(**kw: object) -> None:
    print(json.dumps(kw), flush=True)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_parser(n: int) -> None:
    rnd = random.Random(1)
    frames = b"".join(
        p.encode_frame(p.Event(i, "seat", rnd.randrange(10), rnd.choice(p.EVENT_KINDS), rnd.getrandbits(40)))
        for i in range(n)
    )
    best = 0.0
    for _ in range(3):
        parser = p.FrameParser()
        got = 0
        t = time.perf_counter()
        for k in range(0, len(frames), 4096):
            got += len(parser.feed(frames[k : k + 4096]))
        dt = time.perf_counter() - t
        assert got == n and parser.bad == 0
        best = max(best, n / dt)
    emit(bench="parser", frames=n, frames_per_s=round(best), target=100_000, ok=best >= 100_000)


def bench_noise(n_frames: int, noise_bytes: int) -> None:
    rnd = random.Random(2)
    msgs = [p.Event(i, "seat", i % 10, "press", 10**9 + i * 997) for i in range(n_frames)]
    cuts = sorted(rnd.randrange(noise_bytes) for _ in range(n_frames))
    noise = rnd.randbytes(noise_bytes)
    parts: list[bytes] = []
    prev = 0
    for m, c in zip(msgs, cuts, strict=True):
        parts.append(noise[prev:c])
        # As the board sends it: a zero on each side, so the noise before cannot spoil it.
        parts.append(p.encode_frame(m))
        prev = c
    parts.append(noise[prev:])
    wire = b"".join(parts)
    parser = p.FrameParser()
    got: list[p.BoardMessage] = []
    crashes = 0
    t = time.perf_counter()
    i = 0
    while i < len(wire):
        k = rnd.randint(1, 8192)
        try:
            got += parser.feed(wire[i : i + k])
        except Exception:  # the bench counts what the tests forbid
            crashes += 1
        i += k
    dt = time.perf_counter() - t
    want = set(msgs)
    recovered = sum(1 for g in got if g in want)
    in_order = [g for g in got if g in want] == msgs
    emit(
        bench="noise",
        noise_bytes=noise_bytes,
        valid_frames=n_frames,
        recovered=recovered,
        in_order=in_order,
        false_frames=len(got) - recovered,
        bad_frames_dropped=parser.bad,
        crashes=crashes,
        seconds=round(dt, 3),
        ok=recovered == n_frames and crashes == 0 and in_order,
    )


class Arrivals:
    def __init__(self) -> None:
        self.q: queue.Queue[QueueItem] = queue.Queue()
        self.items: list[tuple[int, QueueItem]] = []
        self._stop = False
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                item = self.q.get(timeout=0.05)
            except queue.Empty:
                continue
            self.items.append((time.monotonic_ns() // 1000, item))

    def events(self) -> list[tuple[int, InputEvent]]:
        return [(t, x) for t, x in self.items if isinstance(x, InputEvent)]

    def statuses(self) -> list[tuple[int, SourceStatus]]:
        return [(t, x) for t, x in self.items if isinstance(x, SourceStatus)]

    def stop(self) -> None:
        self._stop = True


def bench_latency(presses: int) -> None:
    board = FirmwareBoard(boot_id=5, start_us="real")
    arr = Arrivals()
    plug = Plug(lambda: board.pty.path)
    src = SerialSource(port_factory=plug)
    src.start(arr.q)
    try:
        gpios = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
        for i in range(presses):
            board.press(gpios[i % 10], 50_000 + i * 25_000, hold_us=40_000)
        n = 2 * presses
        wait_for(lambda: len(arr.events()) >= n, 60 + presses * 0.05, "events")
        sent = board.sent()
        fired = board.fired()
        events = arr.events()
        board_to_queue = [(t - sent[seq]) / 1000 for seq, (t, _) in enumerate(events)]
        edge_to_queue = [(t - f[3]) / 1000 for (t, _), f in zip(events, fired, strict=False)]
        # The board's 64-bit count starts at its first ticks_us() reading, so it may differ from
        # the harness's clock by whole 2**30 periods, never by anything else.
        offsets = {e.t_ns // 1000 - f[0] for (_, e), f in zip(events, fired, strict=False)}
        stamps_ok = len(offsets) == 1 and offsets.pop() % 2**30 == 0
        emit(
            bench="latency",
            events=len(events),
            stamps_match=stamps_ok,
            board_to_queue_ms={
                "p50": round(statistics.median(board_to_queue), 3),
                "p99": round(pct(board_to_queue, 0.99), 3),
                "max": round(max(board_to_queue), 3),
            },
            edge_to_queue_ms={
                "p50": round(statistics.median(edge_to_queue), 3),
                "p99": round(pct(edge_to_queue, 0.99), 3),
                "max": round(max(edge_to_queue), 3),
            },
            target_p99_ms=5,
            ok=pct(board_to_queue, 0.99) <= 5 and stamps_ok,
            rtt_ms=round((src.ping(2) or float("nan")) * 1000, 3),
        )

        # Unplug for 0.5 s with presses meanwhile, then replug.
        plug.pull()
        wait_for(lambda: any(s.kind == "disconnected" for _, s in arr.statuses()), 5, "unplug")
        for i in range(5):
            board.press(gpios[i], 20_000 + i * 50_000)
        time.sleep(0.5)  # the cable stays out this long; nothing is asserted on it
        plugged_at = time.monotonic_ns() // 1000
        before = len(arr.statuses())
        plug.plugged = True
        wait_for(lambda: len(arr.statuses()) > before, 5, "reconnect")
        reconnect_ms = (arr.statuses()[-1][0] - plugged_at) / 1000
        wait_for(lambda: len(arr.events()) >= n + 10, 5, "catch-up")
        caught_up = len(arr.events()) - n

        # Board power cycle: a new process on a new pty.
        lost_at = time.monotonic_ns() // 1000
        board.reset(boot_id=6)
        wait_for(lambda: src.hello is not None and src.hello.boot_id == 6, 5, "reset reconnect")
        connected = [t for t, s in arr.statuses() if s.kind == "connected" and t >= lost_at]
        emit(
            bench="reconnect",
            replug_to_connected_ms=round(reconnect_ms, 1),
            presses_while_unplugged=10,
            caught_up=caught_up,
            power_cycle_to_connected_ms=round((connected[-1] - lost_at) / 1000, 1) if connected else None,
            target_ms=2000,
            ok=reconnect_ms < 2000 and caught_up == 10,
        )
    finally:
        src.stop()
        arr.stop()
        board.close()


def bench_pio_loop() -> None:
    prog = pio_helpers.load()
    worst = 0
    for wave in (lambda c: 0x1FFF, lambda c: 0x1FFF ^ ((c // 25) & 1), lambda c: 0x1FFF ^ (c & 1)):
        _, samples = pio_helpers.run(prog, wave, 100 * 25)
        worst = max(worst, *(b - a for a, b in itertools.pairwise(samples)))
    freq = pio_helpers.firmware_constant("SM_FREQ")
    emit(
        bench="pio.loop",
        words=len(prog.words),
        worst_loop_cycles=worst,
        sm_freq_hz=freq,
        resolution_us=worst * 1_000_000 / freq,
        target_us=1,
        ok=worst * 1_000_000 <= freq,
    )


def _order_rounds(args: tuple[int, int]) -> tuple[int, int, int]:
    seed, rounds = args
    prog = pio_helpers.load()
    rnd = random.Random(seed)
    ties = inversions = 0
    for _ in range(rounds):
        order = list(range(10))
        rnd.shuffle(order)
        c0 = rnd.randrange(10, 35)  # any phase against the 25-cycle sample grid
        changes = sorted((c0 + 25 * i, seat) for i, seat in enumerate(order))

        def levels(clock: int, changes: list[tuple[int, int]] = changes) -> int:
            v = 0x1FFF
            for c, seat in changes:
                if c <= clock:
                    v &= ~(1 << seat)
            return v

        recs = pio_helpers.records(pio_helpers.run(prog, levels, c0 + 11 * 25)[0])
        stamp = {s: next(t for t, lv in recs if not (lv >> s) & 1) for s in order}
        got = [stamp[s] for s in order]
        ties += len(got) - len(set(got))
        inversions += sum(1 for a, b in itertools.pairwise(got) if b < a)
    return rounds, ties, inversions


def bench_pio_order(rounds: int) -> None:
    t = time.perf_counter()
    parts = [(i, rounds // 2 + (i < rounds % 2)) for i in range(2)]
    with multiprocessing.Pool(2) as pool:
        done = pool.map(_order_rounds, parts)
    n, ties, inv = (sum(x[i] for x in done) for i in range(3))
    emit(
        bench="pio.order.emulator",
        rounds=n,
        presses_1us_apart=10,
        ties=ties,
        inversions=inv,
        seconds=round(time.perf_counter() - t, 1),
        ok=ties == 0 and inv == 0,
    )


def model(*args: str) -> dict[str, object]:
    proc = run_mp("mp_bench.py", *args, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def bench_model(rounds: int) -> None:
    r = model("order", str(rounds), "14")
    emit(bench="pio.order.model", **r, ok=r["ties"] == 0 and r["inversions"] == 0)
    for path in ("pio", "irq"):
        r = model("stall", path, str(max(10, rounds // 100)), "14", "50000")
        emit(bench="stall", **r, ok=r["missing"] == 0 and r["lost_reported"] == 0)
    r = model("ring", "14", "20")
    emit(bench="ring", **r, ok=r["lost_reported"] == r["lost_expected"])
    r = model("absence", "2000000", "20")
    kept_s = float(r["kept"]) / 20 * 2  # type: ignore[arg-type]
    emit(bench="absence", **r, seconds_kept=kept_s, ok=r["lost_reported"] == r["events"] - r["kept"])  # type: ignore[operator]


def main() -> None:
    quick = "--quick" in sys.argv
    only_pio = "--pio" in sys.argv
    if not only_pio:
        bench_parser(20_000 if quick else 100_000)
        bench_noise(10_000, 1_000_000)
        bench_latency(40 if quick else 400)
    bench_pio_loop()
    bench_pio_order(500 if quick else 10_000)
    bench_model(1000 if quick else 10_000)


if __name__ == "__main__":
    main()
