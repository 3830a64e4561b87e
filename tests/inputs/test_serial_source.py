"""The serial source against the real firmware (MicroPython on a pty) and against bad ports."""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterator

import pytest
import serial

from companion.errors import HardwareError
from companion.inputs import protocol as p
from companion.inputs.base import Clock, InputEvent, InputSource
from companion.inputs.serial_source import SerialSource
from tests.serial_helpers import (
    REFEREE_PINS,
    SEAT_PINS,
    Collector,
    FirmwareBoard,
    Plug,
    ScriptedBoard,
    wait_for,
)

UID = "E6614103E7452D2F"
CLOCK = Clock(name=f"pico:{UID}", resolution_ns=1000)  # its name is what the tests compare
WRAP = 2**30


@pytest.fixture(params=["pio", "irq"])
def board(request: pytest.FixtureRequest) -> Iterator[FirmwareBoard]:
    # Both capture paths: the PIO one a board uses, and the interrupts it falls back to.
    b = FirmwareBoard(boot_id=1, start_us=WRAP - 700_000, capture=request.param)
    yield b
    b.close()


@pytest.fixture
def collector() -> Collector:
    return Collector()


def expected(board: FirmwareBoard, fired: list[tuple[int, int, int, int]]) -> list[tuple[str, int, str, int]]:
    gpio_role = {g: ("seat", i) for i, g in enumerate(SEAT_PINS)}
    gpio_role.update({g: (r, i) for i, (g, r) in enumerate(zip(REFEREE_PINS, p.ROLES[1:], strict=True))})
    out = []
    for t, gpio, level, _ in fired:
        role, index = gpio_role[gpio]
        out.append((role, index, "release" if level else "press", t * 1000))
    return out


def seen(events: list[InputEvent]) -> list[tuple[str, int, str, int]]:
    # The clock's resolution is the capture path's: 1 µs (PIO), or the interrupt fallback's
    # stated bound (146 µs).
    assert all(e.clock.name == CLOCK.name and e.source == "serial" for e in events)
    assert all(e.clock.resolution_ns in (1000, 146_000) for e in events)
    return [(e.role, e.seat, e.edge, e.t_ns) for e in events]


def test_is_an_input_source() -> None:
    assert isinstance(SerialSource("loop://"), InputSource)


def test_presses_come_out_in_order_with_board_stamps_across_the_wrap(
    board: FirmwareBoard, collector: Collector
) -> None:
    src = SerialSource(port_factory=Plug(lambda: board.pty.path))
    src.start(collector.q)
    try:
        assert src.hello is not None and src.hello.uid == UID
        # Seats 0, 4, 9, confirm and undo, pressed before and after ticks_us wraps at 2**30;
        # seats 2 and 3 at the very same microsecond.
        for k, gpio in enumerate((2, 6, 11, 12, 14)):
            board.press(gpio, 150_000 * (k + 1), hold_us=50_000)
        board.press(4, 1_000_000)
        board.press(5, 1_000_000)
        fired = board.wait_fired(14)
        events = collector.wait_events(14)
        assert seen(events) == expected(board, fired)
        stamps = [e.t_ns // 1000 for e in events]
        assert min(stamps) < WRAP < max(stamps)  # the wrap really happened mid-game
        both = [e for e in events if e.role == "seat" and e.seat in (2, 3) and e.edge == "press"]
        assert len(both) == 2 and both[0].t_ns == both[1].t_ns
        assert [s.kind for s in collector.statuses()] == ["connected"]
        assert src.hello is not None and src.hello.capture == board.capture
        want = 1000 if board.capture == "pio" else 146_000
        assert {e.clock.resolution_ns for e in events} == {want}
        assert src.bad_frames == 0
    finally:
        src.stop()


def test_unplug_mid_game_loses_nothing(board: FirmwareBoard, collector: Collector) -> None:
    plug = Plug(lambda: board.pty.path)
    src = SerialSource(port_factory=plug)
    src.start(collector.q)
    try:
        board.press(2, 50_000)
        board.wait_fired(2)
        collector.wait_events(2)
        plug.pull()
        wait_for(lambda: any(s.kind == "disconnected" for s in collector.statuses()), 5)
        # Presses while the host cannot hear the board: kept in the board's ring.
        board.press(3, 20_000)
        board.press(12, 100_000)
        board.press(2, 200_000)
        fired = board.wait_fired(8)
        assert len(collector.events()) == 2
        plug.plugged = True
        events = collector.wait_events(8)
        assert seen(events) == expected(board, fired)
        kinds = [s.kind for s in collector.statuses()]
        assert kinds == ["connected", "disconnected", "connected"]
        assert src.reconnects == 1 and src.lost == 0
        # Still live after the catch-up.
        board.press(11, 10_000)
        fired = board.wait_fired(10)
        assert seen(collector.wait_events(10)) == expected(board, fired)
    finally:
        src.stop()


def test_board_reset_reconnects_and_says_the_clock_restarted(
    board: FirmwareBoard, collector: Collector
) -> None:
    src = SerialSource(port_factory=Plug(lambda: board.pty.path))
    src.start(collector.q)
    try:
        board.press(2, 20_000)
        board.wait_fired(2)
        collector.wait_events(2)
        board.reset(boot_id=2)  # a new process on a new pty: what a power cycle looks like
        wait_for(lambda: src.hello is not None and src.hello.boot_id == 2, 5, "reconnect")
        board.press(7, 20_000)
        fired = board.wait_fired(2)
        events = collector.wait_events(4)
        assert seen(events[2:]) == expected(board, fired)
        kinds = [s.kind for s in collector.statuses()]
        assert kinds == ["connected", "disconnected", "info", "connected"]
    finally:
        src.stop()


def test_ping_and_leds(board: FirmwareBoard, collector: Collector) -> None:
    src = SerialSource(port_factory=Plug(lambda: board.pty.path))
    src.start(collector.q)
    try:
        rtt = src.ping(timeout_s=5)
        assert rtt is not None and rtt > 0
        src.set_leds(0b101, blink_mask=0b10)
        assert src.ping(timeout_s=5) is not None  # the board read the LED line and goes on
    finally:
        src.stop()


def hello(**kw: object) -> p.Hello:
    base = {
        "protocol": p.PROTOCOL_VERSION,
        "firmware": (0, 1, 0),
        "uid": UID,
        "boot_id": 9,
        "next_seq": 0,
        "oldest_seq": 0,
        "lockout_us": 30_000,
        "glitch_us": 2_000,
        "stuck_ms": 10_000,
        "seat_pins": SEAT_PINS,
        "referee_pins": REFEREE_PINS,
        "led_pins": (None,) * 10,
        "machine": "scripted",
    }
    base.update(kw)
    return p.Hello(**base)  # type: ignore[arg-type]


def test_edges_lost_on_the_board_are_reported_as_lost(collector: Collector) -> None:
    b = ScriptedBoard(hello(capture="irq", resolution_ns=50_000, next_seq=0))
    src = SerialSource(b.pty.path)
    src.start(collector.q)
    try:
        assert src.clock is not None and src.clock.resolution_ns == 50_000
        b.write(p.encode_frame(p.Event(0, "seat", 3, "press", 1234)))
        b.write(p.encode_frame(p.Heartbeat(2000, 1, 0)))
        b.write(p.encode_frame(p.Heartbeat(3000, 1, 3)))
        (ev,) = collector.wait_events(1)
        assert ev.clock.resolution_ns == 50_000
        wait_for(lambda: any(s.kind == "error" for s in collector.statuses()), 5, "lost status")
        (err,) = [s for s in collector.statuses() if s.kind == "error"]
        assert "3 button edges were lost" in err.en and "3 fronts" in err.fr
        assert src.lost_edges == 3
        assert "interrupt capture" in collector.statuses()[0].en
    finally:
        src.stop()
        b.close()


def test_corrupted_frames_are_dropped_counted_and_gaps_resent(collector: Collector) -> None:
    sent: dict[int, p.Event] = {
        s: p.Event(s, "seat", s % 10, "press" if s % 2 == 0 else "release", 1_000_000 + s) for s in range(6)
    }
    lock = threading.Lock()

    def on_command(b: ScriptedBoard, cmd: p.HostCommand) -> None:
        if isinstance(cmd, p.Resend):
            with lock:
                for s in range(cmd.from_seq, 6):
                    b.write(p.encode_frame(sent[s]))
                b.write(p.encode_frame(p.ResendDone(cmd.from_seq, cmd.from_seq, 6)))

    b = ScriptedBoard(hello(), on_command)
    src = SerialSource(b.pty.path)
    src.start(collector.q)
    try:
        good = [p.encode_frame(sent[s]) for s in range(6)]
        corrupt = bytearray(good[2])
        corrupt[5] ^= 0x40
        with lock:
            b.write(b"\xde\xad" + good[0] + b"noise\x00\x01\x02" + good[1])
            b.write(bytes(corrupt))  # seq 2 damaged: the source must ask for it again
            b.write(good[3] + b"\x00\xff" * 50 + good[4] + good[5][:7])
            b.write(good[5][7:])
        events = collector.wait_events(6)
        assert [e.t_ns for e in events] == [(1_000_000 + s) * 1000 for s in range(6)]
        assert src.bad_frames >= 3
        assert any(isinstance(c, p.Resend) and c.from_seq == 2 for c in b.commands)
    finally:
        src.stop()
        b.close()


def test_a_port_that_is_not_our_board() -> None:
    src = SerialSource("loop://", handshake_timeout_s=0.3)  # echoes what we send: not a board
    with pytest.raises(HardwareError) as e:
        src.start(Collector().q)
    assert "companion firmware install" in e.value.en
    assert "companion firmware install" in e.value.fr
    assert "ne répond pas" in e.value.fr


@pytest.mark.parametrize(("version", "fix"), [(1, "companion firmware install"), (3, "pip")])
def test_a_board_with_another_protocol_version(version: int, fix: str) -> None:
    b = ScriptedBoard(p.ForeignHello(version))
    try:
        with pytest.raises(HardwareError) as e:
            SerialSource(b.pty.path).start(Collector().q)
        assert f"protocol v{version}" in e.value.en and fix in e.value.en
        assert f"protocole v{version}" in e.value.fr and fix in e.value.fr
        if version < p.PROTOCOL_VERSION:
            assert "needs new firmware" in e.value.en
            assert "nouveau firmware" in e.value.fr
    finally:
        b.close()


def denied() -> serial.Serial:
    # What pyserial raises for /dev/ttyACM0 without the dialout group (root cannot get EACCES).
    raise serial.SerialException(
        errno.EACCES, "could not open port /dev/ttyACM0: [Errno 13] Permission denied"
    )


def test_permission_error_says_dialout() -> None:
    with pytest.raises(HardwareError) as e:
        SerialSource(port_factory=denied).start(Collector().q)
    assert "dialout" in e.value.en and "dialout" in e.value.fr
    assert isinstance(e.value, OSError)


def test_missing_port_says_plug_it_in() -> None:
    with pytest.raises(HardwareError) as e:
        SerialSource("/dev/ttyACM-does-not-exist").start(Collector().q)
    assert "does not exist" in e.value.en and "n’existe pas" in e.value.fr
