"""The production GPIO path: each button's line requested through libgpiod's public API (the
``gpiod`` binding) from a model of the kernel's GPIO character device (issue 10: event buffer
size, lost events; issue 19: libgpiod instead of hand-written ioctls, the header's chip found
by its lines' names, one sentence and nothing opened when there is none)."""

from __future__ import annotations

import queue
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gpiod
import pytest
from gpiod.line import Bias, Direction, Edge

from companion.errors import HardwareError
from companion.inputs.base import QueueItem, SourceStatus
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import GpioSource, open_gpio_source
from companion.inputs.gpio_lines import MAX_EVENT_BUFFER, GpiodLines
from companion.inputs.gpio_pins import ButtonPin
from companion.inputs.gpiochip import header_chip
from tests.gpio_helpers import FakeClock, drain, presses, statuses
from tests.serial_helpers import wait_for

FAKES = Path(__file__).resolve().parents[1] / "fakes"
US = 1_000
MS = 1_000_000


@pytest.fixture
def fk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The kernel model, as on a Pi 5 on a recent kernel."""
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delitem(sys.modules, "fake_kernel", raising=False)
    import fake_kernel

    fake_kernel.pi_chips()
    yield fake_kernel


Rig = tuple[GpioSource, "queue.Queue[QueueItem]", Any, FakeClock]


@pytest.fixture
def rig(fk: Any) -> Iterator[Rig]:
    kernel = fk.FakeKernel()
    clock = FakeClock()
    lines = GpiodLines("/dev/gpiochip0", [17, 27], open_chip=kernel.open_chip)
    src = GpioSource(
        [ButtonPin("seat", 0, 17), ButtonPin("seat", 1, 27)], lines=lines, now_ns=clock, delivery_margin_ns=0
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    yield src, q, kernel, clock
    src.stop()


def test_lines_are_requested_with_the_largest_buffer_the_pull_up_and_both_edges(rig: Rig) -> None:
    _, _, kernel, _ = rig
    req = kernel.request_for(17)
    assert req.size == MAX_EVENT_BUFFER == 1024  # left at 0 the kernel would give 16
    (settings,) = req.settings.values()
    assert isinstance(settings, gpiod.LineSettings)  # libgpiod's own settings object
    assert (settings.direction, settings.edge_detection, settings.bias) == (
        Direction.INPUT,
        Edge.BOTH,
        Bias.PULL_UP,
    )
    assert kernel.request_for(27) is not req  # a buffer of its own for each button


def test_press_through_the_kernel_keeps_its_integer_stamp(rig: Rig) -> None:
    src, q, kernel, clock = rig
    t = clock() + MS + 7  # not a multiple of anything: a float round trip would show
    kernel.edge(27, t, 0)
    kernel.edge(27, t + 40 * US, 1)  # bounce
    kernel.edge(27, t + 90 * US, 0)
    kernel.edge(17, t + 3, 0)
    clock.set(t + 10 * MS)
    got: list[tuple[int, int]] = []

    def both() -> bool:
        src.flush()
        got.extend((e.seat, e.t_ns) for e in presses(drain(q)))
        return len(got) >= 2

    wait_for(both, 5, "both presses")
    assert sorted(got, key=lambda x: x[1]) == [(1, t), (0, t + 3)]
    assert all(type(ts) is int for _, ts in got)
    assert src.stats()[0].pressed  # the level is read from our own line request


def test_a_starved_reader_loses_no_first_edge_of_a_bouncy_press(rig: Rig) -> None:
    # 40 edges while the reading thread sleeps: the kernel's default 16 would drop the first 24,
    # the press's first edge among them (issue 10, finding 4).
    src, q, kernel, clock = rig
    t = clock() + MS
    kernel.paused = True
    level = 0
    for k in range(40):
        kernel.edge(17, t + k * 20 * US, level)
        level ^= 1
    kernel.edge(17, t + 40 * 20 * US, 0)
    kernel.resume()
    wait_for(lambda: src.stats()[0].bounces >= 40, 5, "the burst read")
    clock.set(t + 20 * MS)
    assert src.flush()
    items = drain(q)
    assert [(e.seat, e.t_ns) for e in presses(items)] == [(0, t)]
    assert statuses(items) == [] and kernel.dropped == 0


def test_kernel_overflow_is_reported_not_stamped_late_in_silence(rig: Rig) -> None:
    _, q, kernel, clock = rig
    t = clock() + MS
    kernel.paused = True
    level = 0
    for k in range(MAX_EVENT_BUFFER + 6):  # a line chattering while the Pi is stalled
        kernel.edge(27, t + k * 10 * US, level)
        level ^= 1
    kernel.resume()
    wait_for(lambda: any(s.kind == "error" for s in statuses(list(q.queue))), 5, "the report")
    (st,) = [s for s in statuses(drain(q)) if s.kind == "error"]
    assert st.seat == 1 and "6" in st.en and "seat 2" in st.en and "place 2" in st.fr
    assert kernel.dropped == 6


def test_header_chip_is_found_by_its_line_names(fk: Any) -> None:
    kernel = fk.FakeKernel()
    assert header_chip(kernel.open_chip, kernel.paths()) == "/dev/gpiochip0"
    # An older Pi 5 kernel numbered RP1 gpiochip4; a Pi 4 names some lines by function.
    chips = fk.CHIPS
    chips[4] = chips.pop(0)
    assert header_chip(kernel.open_chip, kernel.paths()) == "/dev/gpiochip4"
    pi4 = ["ID_SDA", "ID_SCL", "SDA1", "SCL1", "GPIO_GCLK"] + [f"GPIO{n}" for n in range(5, 28)]
    chips.clear()
    chips[0] = fk.Chip("pinctrl-bcm2711", pi4)
    chips[1] = fk.Chip("raspberrypi-exp-gpio", ["BT_ON", "WL_ON"] + [""] * 6)
    assert header_chip(kernel.open_chip, kernel.paths()) == "/dev/gpiochip0"


@pytest.mark.parametrize("numbering", ["gpiochip0 is the SoC's", "no chip at all"])
def test_no_chip_with_the_header_names_is_one_sentence_and_nothing_opened(fk: Any, numbering: str) -> None:
    # Issue 19, finding 4: a Pi 5 whose RP1 lines are not named (or a laptop): gpiozero's guess
    # would open the SoC's chip 0 and put GPIO17 there.
    chips = fk.CHIPS
    chips.clear()
    if numbering == "gpiochip0 is the SoC's":
        chips[0] = fk.Chip("gpio-brcmstb@107d508500", ["RP1_SDA", "RP1_SCL", "RP1_RUN"] + [""] * 29)
        chips[4] = fk.Chip("pinctrl-rp1", [""] * 54)
    kernel = fk.FakeKernel()
    with pytest.raises(HardwareError) as info:
        open_gpio_source(
            [ButtonPin("seat", 0, 17)],
            chip=None,
            settings=DebounceSettings(),
            open_chip=kernel.open_chip,
            paths=kernel.paths,
        )
    err = info.value
    for text in (err.en, err.fr):
        assert "GPIO0..GPIO27" in text and "\n" not in text and text.count(". ") == 0
    assert "no pin was opened" in err.en and "aucune broche n’a été ouverte" in err.fr
    assert kernel.requests == []  # no line requested anywhere
    from companion.hardware.led_lines import led_lines

    with pytest.raises(HardwareError):
        led_lines(None, open_chip=kernel.open_chip, paths=kernel.paths)


def test_a_busy_line_names_the_pin_and_leaves_nothing_claimed(rig: Rig, fk: Any) -> None:
    _, _, kernel, _ = rig
    from companion.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        GpiodLines("/dev/gpiochip0", [22, 17], open_chip=kernel.open_chip)
    assert "GPIO17" in info.value.en
    assert 22 not in {o for r in kernel.requests for o in r.lines}


def test_the_kernel_reader_dying_reaches_the_queue(rig: Rig) -> None:
    _, q, kernel, clock = rig
    kernel.read_error = OSError(5, "Input/output error")  # the chip went away under us
    kernel.edge(17, clock() + MS, 0)
    wait_for(lambda: any(s.kind == "error" for s in statuses(list(q.queue))), 5, "the report")
    (st,) = [s for s in statuses(drain(q)) if isinstance(s, SourceStatus)]
    assert "Input/output error" in st.en and "Input/output error" in st.fr
    src, _, _, _ = rig
    wait_for(lambda: not src.promise().live, 5, "the dead reader's promise")  # not waited for


@pytest.mark.parametrize("press", [False, True])
def test_a_glitch_whose_end_the_kernel_dropped_lends_no_stamp(rig: Rig, press: bool) -> None:
    # Seat 2 closes for 0.6 ms (a brush): the reader gets the closing. Then, while the Pi is
    # stalled, the line chatters 13 ms and ends at rest: the kernel keeps the newest 1024 events
    # and drops the oldest, the reopening among them. A press follows 3 ms later, or none. By the
    # rules (the true edges) the brush and the chatter are one glitch, and the press is stamped at
    # its own first edge. Deciding the brush from the level its last edge left (closed) made a
    # press of it, stamped at the brush, before the real press (the host's version of the Pico's
    # phantom press after a ring overflow, issue 19).
    src, q, kernel, clock = rig
    t = clock() + MS
    clock.set(t + 100 * US)
    kernel.edge(27, t, 0)
    assert src.flush()
    kernel.paused = True
    kernel.edge(27, t + 600 * US, 1)
    chatter = 1_330  # 307 more than the buffer: the dropped run spans 3 ms, past the 2 ms minimum
    for k in range(chatter):
        kernel.edge(27, t + 700 * US + k * 10 * US, k & 1)
    assert kernel.dropped == chatter + 1 - MAX_EVENT_BUFFER
    kernel.resume()
    # Every line read until empty before anything is decided up to the clock.
    wait_for(lambda: not kernel.request_for(27).events, 5, "the buffer read")
    assert src.flush()
    t_end = t + 700 * US + (chatter - 1) * 10 * US
    tp = t_end + 3 * MS
    if press:
        kernel.edge(27, tp, 0)
        kernel.edge(27, tp + 60 * MS, 1)
    clock.set(tp + 200 * MS)
    assert src.flush()
    items = drain(q)
    assert [(e.seat, e.t_ns) for e in presses(items)] == ([(1, tp)] if press else [])
    assert [s.kind for s in statuses(items)] == ["error"]  # the loss is reported, nothing else
