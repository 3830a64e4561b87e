"""The Pico board's watermark (issue 34, docs/decisions.md "Event time"): the serial source
promises "every press stamped before W is on the queue" only when it is true, against the real
firmware on a pty and against scripted boards for what the firmware never does."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

import pytest

from companion.inputs import protocol as p
from companion.inputs.base import InputEvent, Promising
from companion.inputs.serial_source import ASKS_FROM, SerialSource
from tests.inputs.test_serial_source import hello
from tests.serial_helpers import Collector, FirmwareBoard, Plug, ScriptedBoard, drain, wait_for

WRAP = 2**30


@pytest.fixture(params=["pio", "irq"])
def board(request: pytest.FixtureRequest) -> Iterator[FirmwareBoard]:
    b = FirmwareBoard(boot_id=1, start_us=WRAP - 700_000, capture=request.param)
    yield b
    b.close()


def presses(items: Sequence[object]) -> list[InputEvent]:
    return [x for x in items if isinstance(x, InputEvent) and x.edge == "press"]


def test_no_press_arrives_after_a_promise_that_covers_it(board: FirmwareBoard) -> None:
    # The promise, checked as the main loop uses it: read the watermark, then take what is on
    # the queue; a press taken later must be stamped (table clock) at or after every watermark
    # read before. Chloé presses, releases at 50 ms and closes again at 55 ms, inside the
    # release's lockout: by the debounce rules that press is stamped at 55 ms but decided only
    # at the lockout's end, 80 ms. The table asks all along, as a loop waiting to decide would.
    collector = Collector()
    src = SerialSource(port_factory=Plug(lambda: board.pty.path), n_seats=4)
    assert isinstance(src, Promising)
    src.start(collector.q)
    try:
        assert src.answers_ask and src.promise().live and src.promise().seats == (0, 1, 2, 3)
        wait_for(lambda: src.promise().watermark_ns is not None, 5, "a first watermark")
        for delay, level in ((0, 0), (50_000, 1), (55_000, 0), (150_000, 1)):
            board.edge(delay, 4, level)
        got: list[InputEvent] = []
        before: int | None = None
        moves = 0
        deadline = time.monotonic() + 10
        # Asked until the presses are in and the promise has moved on many times: a count of
        # questions, not of milliseconds, so a loaded machine only makes it take longer.
        while (
            len(got) < 2
            or (src.promise().watermark_ns or 0) <= (got[-1].table_ns or 0)
            or moves <= 10
            or src.marks <= 10
        ):
            assert time.monotonic() < deadline, f"the watermark stopped: {got}"
            w = src.promise().watermark_ns
            for press in presses(drain(collector.q)):
                assert press.table_ns is not None
                assert before is None or press.table_ns >= before, (
                    f"a press stamped {press.table_ns} arrived after a promise to {before}"
                )
                got.append(press)
            if w is not None and before is not None and w > before:
                moves += 1
            before = w
            src.ask(time.monotonic_ns())
            time.sleep(0.001)
        assert [e.seat for e in got] == [2, 2]
        fired = board.wait_fired(4)
        assert [e.t_ns // 1000 for e in got] == [fired[0][0], fired[2][0]]
        assert moves > 10 and src.marks > 10 and src.lost == 0
    finally:
        src.stop()


def test_a_press_made_while_unplugged_comes_back_with_its_table_stamp_and_the_board_was_not_live(
    board: FirmwareBoard,
) -> None:
    # Issue 34, case 2a, the source's side: the link drops, Chloé slaps on the board, the board
    # replays her press on reconnect. The table must have seen the board not live during the
    # outage (a decision then names its seats), and her press must come with its own stamp, on
    # the table clock, before the instant it was made at: not when it arrived.
    collector = Collector()
    plug = Plug(lambda: board.pty.path)
    src = SerialSource(port_factory=plug, n_seats=4)
    src.start(collector.q)
    try:
        wait_for(lambda: src.clock_offset() is not None, 5, "the clocks tied")
        plug.pull()
        wait_for(lambda: not src.promise().live, 5, "the board not live")
        assert src.promise().seats == (0, 1, 2, 3)
        board.edge(0, 4, 0)
        board.wait_fired(1)
        made_by = time.monotonic_ns()  # her press was made before this
        time.sleep(0.3)  # the outage goes on
        assert presses(drain(collector.q)) == []
        back_at = time.monotonic_ns()
        plug.plugged = True
        wait_for(lambda: src.promise().live, 5, "the board back")
        wait_for(lambda: (src.promise().watermark_ns or 0) > back_at, 5, "the promise past the outage")
        (press,) = presses(drain(collector.q))
        assert press.seat == 2 and press.clock.epoch == "pico-boot:00000001"
        # Its own instant, not its arrival's (the mapping may be late by the USB's delay).
        # (Half the outage as the allowance: the tie's uncertainty on a loaded machine, far
        # below the outage an arrival stamp would carry.)
        assert press.table_ns is not None and press.table_ns < made_by + (back_at - made_by) // 2
        assert press.resume_at == (f"pico:{src.hello.uid}@pico-boot:00000001", 1)  # type: ignore[union-attr]
    finally:
        src.stop()


def test_an_older_board_promises_at_its_heartbeats_and_is_told_to_update() -> None:
    b = ScriptedBoard(hello(firmware=(0, 2, 0), next_seq=0))
    collector = Collector()
    src = SerialSource(b.pty.path, n_seats=2)
    src.start(collector.q)
    try:
        assert not src.answers_ask
        (connected,) = collector.statuses()
        assert "0.3.0" in connected.en and "companion firmware install" in connected.en
        assert "0.3.0" in connected.fr and "companion firmware install" in connected.fr
        # A quarter of a second between heartbeats, then the debounce's longest hold.
        assert src.lateness_ns > 250_000_000 + 32_000_000
        src.ask(time.monotonic_ns())
        time.sleep(0.05)
        assert not any(isinstance(c, p.Ask) for c in b.commands), "an ASK the board cannot answer"
        b.write(p.encode_frame(p.Heartbeat(10_000_000, 0, 0)))
        wait_for(lambda: src.promise().watermark_ns is not None, 5, "the heartbeat's promise")
        offset = src.clock_offset()
        assert offset is not None and src.clock is not None
        # The heartbeat's instant, less what a contact undecided then may still be stamped at.
        held = (10_000_000 - 30_000 - 2_000 - 1_000) * 1000
        want = held + offset.offset_ns - offset.uncertainty_ns - src.clock.resolution_ns
        assert src.promise().watermark_ns == want
    finally:
        src.stop()
        b.close()


def test_a_promise_waits_for_the_events_sent_before_it() -> None:
    # The MARK says every event before next_seq was sent; one was lost on the way (seq 0): the
    # promise waits for it, asked again, before it is published.
    answer = threading.Event()
    events = [p.Event(s, "seat", s, "press", 5_000_000 + s) for s in range(2)]

    def on_command(board: ScriptedBoard, cmd: p.HostCommand) -> None:
        if isinstance(cmd, p.Resend) and answer.is_set():
            for ev in events[cmd.from_seq :]:
                board.write(p.encode_frame(ev))
            board.write(p.encode_frame(p.ResendDone(cmd.from_seq, cmd.from_seq, 2)))

    b = ScriptedBoard(hello(firmware=ASKS_FROM, next_seq=0), on_command)
    collector = Collector()
    src = SerialSource(b.pty.path)
    src.start(collector.q)
    try:
        b.write(p.encode_frame(events[1]))  # seq 0 lost on the way
        b.write(p.encode_frame(p.Mark(1, 6_000_000, 5_900_000, 2)))
        wait_for(lambda: src.marks >= 1, 5, "the MARK read")
        assert src.promise().watermark_ns is None, "promised with an event before it missing"
        answer.set()
        wait_for(lambda: src.promise().watermark_ns is not None, 5, "the promise after the resend")
        got = [e.seat for e in collector.events()]
        assert got == [0, 1]
    finally:
        src.stop()
        b.close()


def test_marks_read_late_in_a_burst_do_not_move_the_clock_offset() -> None:
    # While the table waits the host asks every 2 ms; a reader held up (a loaded Pi) then reads
    # a burst of MARKs answered long before. Each says the board's clock is further behind than
    # it is; a window of the last 20 samples let them push out the one good heartbeat: at load
    # 12 the offset jumped 80 ms, the watermark held at an undecided contact was mapped 80 ms
    # later and passed Return, and the press was judged after it (tests/display/test_event_time_serial.py).
    b = ScriptedBoard(hello(firmware=ASKS_FROM, next_seq=0))
    collector = Collector()
    src = SerialSource(b.pty.path)
    src.start(collector.q)
    base_us = time.monotonic_ns() // 1000 - 1_000_000  # the board's clock: 1 s behind ours

    def board_now() -> int:
        return time.monotonic_ns() // 1000 - base_us

    try:
        hb = board_now()
        b.write(p.encode_frame(p.Heartbeat(hb, 0, 0)))
        wait_for(lambda: src.clock_offset() is not None, 5, "the heartbeat read")
        good = src.clock_offset()
        assert good is not None and src.clock is not None
        # Forty answers made 2 ms apart a second ago, all read now (more than any load delays
        # the heartbeat above: each of them gives an offset at least a second too large).
        t = board_now() - 1_000_000
        for i in range(40):
            b.write(p.encode_frame(p.Mark(i, t + 2_000 * i, t + 2_000 * i, 0)))
        wait_for(lambda: src.marks >= 40, 5, "the MARKs read")
        after = src.clock_offset()
        assert after is not None and after.offset_ns <= good.offset_ns, "the late answers moved the offset"
        # Then an answer of now, held back to a contact closed at the heartbeat and undecided:
        # mapped with that offset (or a better one, this answer's own), not a second later.
        before = src.promise().watermark_ns
        b.write(p.encode_frame(p.Mark(40, board_now(), hb, 0)))
        wait_for(lambda: src.promise().watermark_ns != before, 5, "the answer's promise")
        off = src.clock_offset()
        assert off is not None and off.offset_ns <= good.offset_ns
        want = hb * 1000 + off.offset_ns - off.uncertainty_ns - src.clock.resolution_ns
        assert src.promise().watermark_ns == want
    finally:
        src.stop()
        b.close()


def test_a_resumed_source_asks_the_board_for_every_press_after_its_position(board: FirmwareBoard) -> None:
    # Issue 34, case 2b, the source's side: a first source reads two presses and goes (the
    # companion killed); the board keeps two more; a source told the position after the first
    # press (what the journal kept) gets the three after it, in order, and nothing before it.
    first = Collector()
    src = SerialSource(port_factory=Plug(lambda: board.pty.path))
    src.start(first.q)
    try:
        board.press(2, 10_000, hold_us=40_000)
        board.wait_fired(2)
        alice = first.wait_events(2)
    finally:
        src.stop()
    assert alice[0].resume_at is not None
    stream, position = alice[0].resume_at
    board.press(3, 10_000, hold_us=40_000)
    board.press(4, 100_000, hold_us=40_000)
    fired = board.wait_fired(6)
    asked: list[str] = []

    def resume_from(name: str) -> int | None:
        asked.append(name)
        return position if name == stream else None

    second = Collector()
    src = SerialSource(port_factory=Plug(lambda: board.pty.path), resume_from=resume_from)
    src.start(second.q)
    try:
        got = second.wait_events(5)
        assert asked == [stream]
        assert [(e.seat, e.edge) for e in got] == [
            (0, "release"),
            (1, "press"),
            (1, "release"),
            (2, "press"),
            (2, "release"),
        ]
        assert [e.t_ns // 1000 for e in got] == [t for t, *_ in fired[1:]]
        assert all(e.table_ns is not None for e in got), "caught up before the clocks were tied"
    finally:
        src.stop()
