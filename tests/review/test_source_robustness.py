"""Issue 10, finding 6 (and the combined-clock half of 5): sources that die say so, sources
that learn their clock late can be combined, and each press keeps its own resolution."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import cast

import pytest

from companion.hardware.config import HardwareConfig
from companion.hardware.sources import build_source
from companion.inputs.base import InputEvent, InputSource, QueueItem, SourceStatus, source_thread
from companion.inputs.gpio import GpioSource
from companion.inputs.gpio_pins import ButtonPin
from companion.inputs.registry import CombinedSource
from companion.inputs.serial_source import USB_OFFSET_UNCERTAINTY_NS
from tests.gpio_helpers import ClockedMockFactory, FakeClock, drain
from tests.serial_helpers import Collector, FirmwareBoard, wait_for


def test_a_dying_thread_puts_a_source_error_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    q: queue.Queue[QueueItem] = queue.Queue()

    def boom() -> None:
        raise RuntimeError("kaput")

    t = source_thread("gpio", boom, q, name="t")
    t.start()
    t.join(5)
    (st,) = drain(q)
    assert isinstance(st, SourceStatus) and st.kind == "error" and st.source == "gpio"
    assert "kaput" in st.en and "kaput" in st.fr and "gpio" in st.fr
    assert "gpio input thread stopped" in caplog.text


def test_gpio_thread_crash_reaches_the_queue() -> None:
    clock = FakeClock()
    factory = ClockedMockFactory(clock)
    src = GpioSource([ButtonPin("seat", 0, 17)], pin_factory=factory, now_ns=clock, delivery_margin_ns=0)
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    try:
        src._inbox.put((5, clock(), 0))  # an edge for a button that does not exist
        wait_for(lambda: not q.empty(), 5, "the crash report")
        (st,) = drain(q)
        assert isinstance(st, SourceStatus) and st.kind == "error"
        assert not any(t.name == "gpio-source" and t.is_alive() for t in threading.enumerate())
    finally:
        src.stop()
        factory.close()


@pytest.fixture
def board() -> Iterator[FirmwareBoard]:
    b = FirmwareBoard(boot_id=1, start_us=123_456_789)
    yield b
    b.close()


def test_serial_plus_sim_is_built_started_and_on_one_clock(board: FirmwareBoard) -> None:
    # The board names its clock only in its hello: it is tied at start, from its heartbeats.
    src = build_source("serial+sim", HardwareConfig(), n_seats=2, port=board.pty.path, speed=0)
    assert isinstance(src, CombinedSource)
    collector = Collector()
    src.start(collector.q)
    try:
        before = time.monotonic_ns()
        board.press(2, 50_000)
        ev = collector.wait_events(1)[0]
        sim = src.sources[1]
        sim.trigger_slap()  # type: ignore[attr-defined]
        wait_for(lambda: any(e.source == "sim" for e in collector.events()), 10, "sim presses")
        after = time.monotonic_ns()
        events = collector.events()
    finally:
        src.stop()
    assert ev.source == "serial" and ev.clock.name == "CLOCK_MONOTONIC"
    # On the host's clock now, to within USB's jitter: the board pressed between before and after.
    slack = 50_000_000
    assert before - slack <= ev.t_ns <= after + slack
    assert ev.clock.resolution_ns >= USB_OFFSET_UNCERTAINTY_NS
    sim_events = [e for e in events if e.source == "sim"]
    assert all(e.clock.name == "CLOCK_MONOTONIC" for e in sim_events)
    assert all(before - slack <= e.t_ns <= after + 10_000_000_000 for e in sim_events)


def test_a_source_that_cannot_be_tied_is_refused_clearly() -> None:
    from companion.errors import ConfigError
    from companion.inputs.sim import SimSource

    class Board:
        name = "board"
        clock = None  # never learns it, and offers no way to tie it

        def start(self, events: object) -> None: ...
        def stop(self) -> None: ...

    with pytest.raises(ConfigError) as err:
        CombinedSource(
            [cast(InputSource, SimSource(2)), cast(InputSource, SimSource(2))]
        )  # virtual stamps: no real 'now'
    assert "sim" in err.value.en and "sim" in err.value.fr
    with pytest.raises(ConfigError):
        CombinedSource([Board()])  # type: ignore[list-item]


def test_press_events_carry_their_resolution_to_the_table_log() -> None:
    from companion.games.kilo.events import Press
    from companion.inputs.base import Clock
    from companion.table.log import parse_event

    key = InputEvent("seat", 0, "press", 5_000_000, Clock("CLOCK_MONOTONIC", 20_000_000), "keyboard")
    gpio = InputEvent("seat", 0, "press", 5_000_000, Clock("CLOCK_MONOTONIC", 1_000), "gpio")
    assert (key.res_us, gpio.res_us) == (20_000, None)
    line = Press(player="Ana", t_us=key.t_us, res_us=key.res_us).to_json()
    assert '"res_us": 20000' in line
    assert parse_event(line) == Press(player="Ana", t_us=5000, res_us=20_000)
    # Absent from GPIO presses: old logs and 1 µs stamps read the same.
    assert "res_us" not in Press(player="Ana", t_us=gpio.t_us, res_us=gpio.res_us).to_json()


def test_keyboard_presses_12_us_apart_tie_and_margins_keep_their_precision() -> None:
    from companion.games.kilo.events import NewKiloGame, Press, Verdict
    from companion.games.kilo.narrate import slap_lines
    from companion.games.kilo.rules import KiloGame
    from companion.i18n import margin_text

    g = KiloGame(NewKiloGame(players=["Ana", "Bea", "Cy"], rounds=1))
    g.apply(Press(player="Ana", t_us=1_000))
    g.apply(Press(player="Bea", t_us=300_000, res_us=20_000))
    g.apply(Press(player="Cy", t_us=300_012, res_us=20_000))
    g.apply(Verdict(valid=True))
    s = g.last_slap
    assert s is not None and s.tied and s.losers == ("Bea", "Cy")
    assert s.to_json()["margin_res_us"] == 20_000
    assert "12" not in " ".join(slap_lines(g, s, "en"))  # never "lost by 12 µs"
    # A real margin from keys is shown to its 10 ms decade, from GPIO stamps to the µs.
    assert margin_text(34_012, 20_000, "fr") == "≈ 30 ms"
    assert margin_text(34_012, 20_000, "en") == "≈ 30 ms"
    assert margin_text(12, 1, "en") == "12 µs"
    assert margin_text(1_234, 60, "fr") == "≈ 1,23 ms"
