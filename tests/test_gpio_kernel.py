"""The production GPIO path: gpiozero's lgpio pin factory over a hand-written fake of the lgpio
module, and each button's edges read from a model of the kernel's GPIO character device
(issue 10: event buffer size, lost events, the header's chip found by its lines' names, and the
working directory lgpio changes as it loads)."""

from __future__ import annotations

import os
import queue
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serial_helpers import wait_for
from test_gpio_support import FakeClock, drain, presses, statuses

from companion.inputs.base import QueueItem
from companion.inputs.gpio import ButtonPin, GpioSource, lgpio_factory
from companion.inputs.gpiocdev import (
    FLAG_BIAS_PULL_UP,
    FLAG_EDGE_FALLING,
    FLAG_EDGE_RISING,
    FLAG_INPUT,
    GET_LINE,
    GET_VALUES,
    MAX_EVENT_BUFFER,
    LineRequest,
    header_chip,
)

FAKES = Path(__file__).resolve().parent / "fakes"
US = 1_000
MS = 1_000_000


@pytest.fixture
def fake_lgpio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """Import gpiozero's lgpio pins against the fake module, as on a Pi 5 (revision d04170)."""
    monkeypatch.syspath_prepend(str(FAKES))
    for name in ("lgpio", "fake_kernel", "gpiozero.pins.lgpio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setenv("LG_WD", str(tmp_path / "lgwd"))
    (tmp_path / "lgwd").mkdir()
    import fake_kernel
    import gpiozero.pins.local

    fake_kernel.pi_chips()
    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: 0xD04170)
    yield fake_kernel
    for name in ("lgpio", "gpiozero.pins.lgpio"):
        sys.modules.pop(name, None)


@pytest.fixture
def rig(fake_lgpio: Any) -> Iterator[tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock]]:
    kernel = fake_lgpio.FakeKernel()
    clock = FakeClock()
    factory = lgpio_factory(kernel=kernel)
    src = GpioSource([ButtonPin("seat", 0, 17), ButtonPin("seat", 1, 27)], pin_factory=factory,
                     now_ns=clock, delivery_margin_ns=0)
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    yield src, q, kernel, clock
    src.stop()
    factory.close()


def test_ioctl_structures_match_the_kernel_abi() -> None:
    # linux/gpio.h: GPIO_V2_GET_LINE_IOCTL _IOWR(0xB4, 0x07, struct gpio_v2_line_request) with a
    # 592-byte request, GPIO_V2_LINE_GET_VALUES_IOCTL _IOWR(0xB4, 0x0E, 16 bytes).
    import ctypes

    assert ctypes.sizeof(LineRequest) == 592
    assert (GET_LINE, GET_VALUES) == (0xC250B407, 0xC010B40E)


def test_lines_are_requested_with_the_largest_buffer_and_the_pull_up(
    rig: tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock],
) -> None:
    _, _, kernel, _ = rig
    req = kernel.request_for(17)
    assert req.size == MAX_EVENT_BUFFER == 1024  # lgpio would have left the kernel's 16
    assert req.flags == FLAG_INPUT | FLAG_EDGE_RISING | FLAG_EDGE_FALLING | FLAG_BIAS_PULL_UP


def test_press_through_the_kernel_keeps_its_stamp(
    rig: tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock],
) -> None:
    src, q, kernel, clock = rig
    t = clock() + MS
    kernel.edge(27, t, 0)
    kernel.edge(27, t + 40 * US, 1)  # bounce
    kernel.edge(27, t + 90 * US, 0)
    kernel.edge(17, t + 3, 0)
    clock.set(t + 10 * MS)
    # Each line's fd is read when poll() says so, in no set order; an edge read after the source
    # decided up to t + 10 ms still keeps its stamp, so only wait for both presses.
    got: list[tuple[int, int]] = []

    def both() -> bool:
        src.flush()
        got.extend((e.seat, e.t_ns) for e in presses(drain(q)))
        return len(got) >= 2

    wait_for(both, 5, "both presses")
    assert sorted(got, key=lambda x: x[1]) == [(1, t), (0, t + 3)]
    assert src.stats()[0].pressed  # the level is read from our own line request


def test_a_starved_reader_loses_no_first_edge_of_a_bouncy_press(
    rig: tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock],
) -> None:
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


def test_kernel_overflow_is_reported_not_stamped_late_in_silence(
    rig: tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock],
) -> None:
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


def test_header_chip_is_found_by_its_line_names(fake_lgpio: Any) -> None:
    kernel = fake_lgpio.FakeKernel()
    assert header_chip(kernel, kernel.chips()) == 0
    # An older Pi 5 kernel numbered RP1 gpiochip4; a Pi 4 names some lines by function.
    chips = fake_lgpio.CHIPS
    chips[4] = chips.pop(0)
    pi4 = ["ID_SDA", "ID_SCL", "SDA1", "SCL1", "GPIO_GCLK"] + [f"GPIO{n}" for n in range(5, 28)]
    assert header_chip(kernel, kernel.chips()) == 4
    chips.clear()
    chips[0] = fake_lgpio.Chip("pinctrl-bcm2711", pi4)
    chips[1] = fake_lgpio.Chip("raspberrypi-exp-gpio", ["BT_ON", "WL_ON"] + [""] * 6)
    assert header_chip(kernel, kernel.chips()) == 0


def test_factory_opens_the_header_chip_and_keeps_the_working_directory(
    fake_lgpio: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chips = fake_lgpio.CHIPS
    chips[4] = chips.pop(0)  # the header is gpiochip4 on this kernel
    monkeypatch.chdir(tmp_path)
    factory = lgpio_factory(kernel=fake_lgpio.FakeKernel())
    try:
        import lgpio  # the fake, which chdir()ed to LG_WD as it loaded

        assert lgpio.opened[-1] == 4
        assert Path(os.getcwd()) == tmp_path  # a relative --config still resolves here
    finally:
        factory.close()


def test_the_kernel_reader_dying_reaches_the_queue(
    rig: tuple[GpioSource, queue.Queue[QueueItem], Any, FakeClock],
) -> None:
    _, q, kernel, clock = rig

    def broken(fd: int) -> bytes:
        raise OSError(5, "Input/output error")  # the chip went away under us

    kernel.read = broken
    kernel.edge(17, clock() + MS, 0)
    wait_for(lambda: any(s.kind == "error" for s in statuses(list(q.queue))), 5, "the report")
    (st,) = statuses(drain(q))
    assert "Input/output error" in st.en and "Input/output error" in st.fr
