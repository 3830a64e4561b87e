"""Sources that come back (issue 20, points 2, 4, 5, 8): a board rebooted is a new clock epoch
with its own offset, a board missing at start is waited for, the LEDs are sent again in full
after a reconnect, and a crashed reader is restarted with a status the table sees."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, cast

import pytest

from companion.inputs import protocol as p
from companion.inputs.base import InputSource, QueueItem
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import open_gpio_source
from companion.inputs.gpio_pins import ButtonPin
from companion.inputs.registry import CombinedSource, Supervised
from companion.inputs.serial_source import SerialSource
from companion.inputs.sim import SimSource
from tests.gpio_helpers import drain, presses, statuses
from tests.inputs.test_gpio_kernel import fk  # noqa: F401  (the fixture, asked for by name)
from tests.inputs.test_serial_source import hello
from tests.serial_helpers import Collector, Plug, ScriptedBoard, wait_for

S = 1_000_000  # µs
MS = 1_000_000  # ns


@pytest.fixture
def collector() -> Collector:
    return Collector()


def test_a_rebooted_board_drops_the_old_boots_heartbeats_from_its_clock_offset(collector: Collector) -> None:
    b = ScriptedBoard(hello(boot_id=1))
    plug = Plug(lambda: b.pty.path)
    src = SerialSource(port_factory=plug)
    src.start(collector.q)
    try:
        for i in range(4):  # an hour after the board's first boot
            b.write(p.encode_frame(p.Heartbeat(3600 * S + i * 250_000, 0, 0)))
        wait_for(lambda: src.clock_offset() is not None, 5, "first offset")
        old = src.clock_offset()
        assert old is not None and src.clock is not None
        old_clock = src.clock
        plug.pull()
        wait_for(lambda: any(s.kind == "disconnected" for s in collector.statuses()), 5)
        b.hello = hello(boot_id=2)  # the board rebooted: its clock starts again near zero
        plug.plugged = True
        wait_for(lambda: src.hello is not None and src.hello.boot_id == 2, 5, "reconnect")
        assert src.clock is not None and src.clock.epoch != old_clock.epoch
        b.write(p.encode_frame(p.Heartbeat(25 * S, 0, 0)))

        def new_offset() -> bool:
            o = src.clock_offset()
            return o is not None and o.offset_ns > old.offset_ns + 3000 * 10**9

        # Within one heartbeat, not after twenty: a press is never put 3,575 s in the past.
        wait_for(new_offset, 8, "the new boot's offset")  # this board sends no other beat
        assert src.clock_offset(old_clock) == old  # the old boot's presses keep theirs
    finally:
        src.stop()
        b.close()


def test_a_board_missing_at_start_is_waited_for_like_an_unplugged_one(collector: Collector) -> None:
    b = ScriptedBoard(hello(boot_id=3, next_seq=5))
    plug = Plug(lambda: b.pty.path)
    plug.plugged = False
    src = SerialSource(port_factory=plug, wait_for_board=True)  # as the table screen builds it
    src.start(collector.q)  # not there yet: no exception, a status
    try:
        wait_for(lambda: [s.kind for s in collector.statuses()] == ["disconnected"], 5)
        plug.plugged = True  # enumerated a second after the kiosk started
        wait_for(lambda: any(s.kind == "connected" for s in collector.statuses()), 5, "connected")
        b.write(p.encode_frame(p.Event(5, "seat", 1, "press", 7 * S)))
        (ev,) = collector.wait_events(1)
        assert (ev.seat, ev.edge, ev.t_ns) == (1, "press", 7 * S * 1000)
    finally:
        src.stop()
        b.close()


def test_leds_turned_off_while_the_link_was_down_are_sent_after_it_reconnects(collector: Collector) -> None:
    b = ScriptedBoard(hello(boot_id=4))
    plug = Plug(lambda: b.pty.path)
    src = SerialSource(port_factory=plug)
    src.start(collector.q)
    try:
        src.set_leds(0b0110)
        wait_for(lambda: p.SetLeds(0b0110, 0) in b.commands, 5, "LEDs on")
        plug.pull()
        wait_for(lambda: any(s.kind == "disconnected" for s in collector.statuses()), 5)
        src.set_leds(0)  # the verdict turned them off while the board could not hear
        before = len(b.commands)
        plug.plugged = True
        wait_for(lambda: p.SetLeds(0, 0) in b.commands[before:], 5, "LEDs off after reconnect")
    finally:
        src.stop()
        b.close()


def test_the_host_sends_the_led_state_again_while_idle_for_the_boards_watchdog(collector: Collector) -> None:
    b = ScriptedBoard(hello(boot_id=5))
    alive = threading.Event()

    def heartbeats() -> None:  # the board's own, so that the link stays up
        t = 0
        while not alive.wait(0.1):
            t += 100_000
            b.write(p.encode_frame(p.Heartbeat(t, 0, 0)))

    th = threading.Thread(target=heartbeats, daemon=True)
    th.start()
    src = SerialSource(port_factory=Plug(lambda: b.pty.path))
    src.start(collector.q)
    try:
        src.set_leds(0b1)
        wait_for(lambda: b.commands.count(p.SetLeds(1, 0)) >= 3, 5, "LED refreshes")
        assert src.reconnects == 0  # sent again on a live link, not by reconnecting
    finally:
        alive.set()
        th.join()
        src.stop()
        b.close()


def test_a_combined_source_converts_a_rebooted_boards_presses_with_the_new_boots_offset(
    collector: Collector,
) -> None:
    b = ScriptedBoard(hello(boot_id=1))
    plug = Plug(lambda: b.pty.path)
    serial_src = SerialSource(port_factory=plug)
    beat = threading.Event()

    def heartbeats() -> None:
        # The board's heartbeats, 4 a second, on its clock (reset to 25 s at the reboot).
        t0 = time.monotonic()
        while not beat.is_set():
            start = 3600 * S if src_boot[0] == 1 else 25 * S
            elapsed = int((time.monotonic() - t0) * S)
            try:
                b.write(p.encode_frame(p.Heartbeat(start + elapsed, 0, 0)))
            except OSError:
                return
            beat.wait(0.05)

    src_boot = [1]
    sim = SimSource(4, seed=1, speed=0, now_ns=time.monotonic_ns)
    combined = CombinedSource([serial_src, cast(InputSource, sim)])  # SimSource fills a wider queue
    th = threading.Thread(target=heartbeats, daemon=True)
    th.start()
    try:
        combined.start(collector.q)
        plug.pull()
        wait_for(lambda: any(s.kind == "disconnected" for s in collector.statuses()), 5)
        b.hello = hello(boot_id=2, next_seq=0)
        src_boot[0] = 2
        plug.plugged = True
        wait_for(lambda: serial_src.hello is not None and serial_src.hello.boot_id == 2, 5)
        host_now = time.monotonic_ns()
        b.write(p.encode_frame(p.Event(0, "seat", 2, "press", 25 * S + 1000)))
        (ev,) = [e for e in collector.wait_events(1) if e.source == "serial"]
        # Converted with the new boot's offset: near now, not an hour in the past.
        assert abs(ev.t_ns - host_now) < 2 * 10**9
    finally:
        beat.set()
        combined.stop()
        b.close()


def test_a_gpio_reader_that_died_of_a_transient_eio_is_restarted(request: pytest.FixtureRequest) -> None:
    """The kernel's line requests fail once (EIO): the reader dies, the source is rebuilt on the
    same chip (its lines released and requested again), the table is told, presses come back."""
    kernel = request.getfixturevalue("fk").FakeKernel()
    buttons = [ButtonPin("seat", 0, 17), ButtonPin("seat", 1, 27)]
    src = Supervised(
        lambda: open_gpio_source(
            buttons, chip=None, settings=DebounceSettings(), open_chip=kernel.open_chip, paths=kernel.paths
        ),
        retry_s=0.01,
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    seen: list[QueueItem] = []

    def collect(pred: Any) -> Any:
        def check() -> bool:
            seen.extend(drain(q))
            return bool(pred())

        return check

    try:
        kernel.read_error = OSError(5, "Input/output error")  # the chip hiccuped
        kernel.edge(17, time.monotonic_ns(), 1)  # any event: reading it fails
        wait_for(collect(lambda: any(s.kind == "disconnected" for s in statuses(seen))), 5, "the crash")
        kernel.read_error = None
        wait_for(collect(lambda: any(s.kind == "connected" for s in statuses(seen))), 5, "the restart")
        kinds = [s.kind for s in statuses(seen)]
        assert kinds == ["disconnected", "connected"], kinds
        down = statuses(seen)[0]
        assert "Input/output error" in down.en and "redémarrage" in down.fr
        assert src.restarts == 1
        # The next game's presses arrive: the reader came back with its lines.
        t = time.monotonic_ns()
        kernel.edge(27, t, 0)
        kernel.edge(27, t + 60 * MS, 1)
        wait_for(collect(lambda: presses(seen)), 5, "a press after the restart")
    finally:
        src.stop()
