"""The seat LEDs on the Pi: output lines requested through libgpiod (issue 35: no lgpio, so
`[gpio]` installs from wheels alone), driven on the model of the kernel's GPIO character device
(tests/fakes/fake_kernel.py), which records every level an output line is set to."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import ConfigError, HardwareError
from companion.hardware.led_lines import LedLines, _Blink, led_lines
from companion.hardware.leds import IDLE, LOSER, OFF, PRESS_SEEN, SeatLeds
from companion.inputs.debounce import DebounceSettings
from companion.inputs.gpio import open_gpio_source
from companion.inputs.gpio_lines import GpiodLines
from companion.inputs.gpio_pins import ButtonPin

FAKES = Path(__file__).resolve().parents[1] / "fakes"
PINS = [5, 6, None, 13]
MS = 1_000_000


@pytest.fixture
def fk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delitem(sys.modules, "fake_kernel", raising=False)
    import fake_kernel

    fake_kernel.pi_chips()
    yield fake_kernel


@pytest.fixture
def kernel(fk: Any) -> Any:
    return fk.FakeKernel()


@pytest.fixture
def leds(kernel: Any) -> Iterator[SeatLeds]:
    lines = led_lines(open_chip=kernel.open_chip, paths=kernel.paths)
    seat_leds = SeatLeds(PINS, pin_factory=lines, pwm=True)
    yield seat_leds
    seat_leds.close()
    lines.close()


def level(kernel: Any, pin: int) -> int:
    return int(kernel.levels(pin)[-1])


def wait_writes(kernel: Any, pin: int, n: int, timeout: float = 5.0) -> list[int]:
    """The first ``n`` levels ``pin`` was set to, once the blinking thread has set them (woken by
    the kernel model's writes, not by polling)."""
    with kernel.wrote:
        assert kernel.wrote.wait_for(lambda: len(kernel.levels(pin)) >= n, timeout), kernel.levels(pin)
    return kernel.levels(pin)[:n]


def test_the_leds_are_output_lines_low_from_the_start(kernel: Any, leds: SeatLeds) -> None:
    for pin in (5, 6, 13):
        req = kernel.request_for(pin)
        assert req.lines[pin].output and kernel.levels(pin) == [0]
    assert leds.pwm is False  # no fading on a line written from Python


def test_press_seen_lights_that_seat_at_once_and_only_it(kernel: Any, leds: SeatLeds) -> None:
    leds.press_seen(1)
    assert level(kernel, 6) == 1 and level(kernel, 5) == 0 and level(kernel, 13) == 0
    leds.press_seen(3)
    assert level(kernel, 6) == 1 and level(kernel, 13) == 1
    assert leds.showing(1) == PRESS_SEEN
    leds.off()
    assert [level(kernel, p) for p in (5, 6, 13)] == [0, 0, 0]
    assert leds.showing(3) == OFF


def test_the_loser_blinks_on_the_line_and_the_others_go_dark(kernel: Any, leds: SeatLeds) -> None:
    leds.press_seen(0)
    leds.press_seen(1)
    leds.loser([1])
    assert level(kernel, 5) == 0  # at once, on the main loop's call
    # On, off, on...: the blinking thread sets the line at each change of the loser's pattern.
    assert wait_writes(kernel, 6, 5) == [0, 1, 1, 0, 1]  # start, press seen, blink on, off, on
    stamps = [t for _, o, _, t in kernel.writes if o == 6][2:5]
    on_ms, off_ms = (stamps[1] - stamps[0]) / MS, (stamps[2] - stamps[1]) / MS
    assert on_ms >= LOSER.on_time * 1000 * 0.9 and off_ms >= LOSER.off_time * 1000 * 0.9
    assert leds.showing(1) == LOSER and kernel.levels(5)[-1] == 0
    leds.press_seen(1)  # a steady state ends the blinking: the line stays lit
    n = len(kernel.levels(6))
    assert level(kernel, 6) == 1
    threading.Event().wait(LOSER.off_time * 2)  # a whole blink period: nothing may toggle it
    assert len(kernel.levels(6)) == n


def test_idle_ticks_as_its_heartbeat_on_every_led(kernel: Any, leds: SeatLeds) -> None:
    leds.idle()
    for pin in (5, 6, 13):
        assert kernel.levels(pin)[-1] == 1  # the tick starts lit
    assert wait_writes(kernel, 5, 3) == [0, 1, 0]  # dark after on_time, without a fade
    assert leds.showing(0) == IDLE


def test_blink_phases() -> None:
    b = _Blink(start_ns=1000, on_ns=100, off_ns=300)
    assert b.at(1000) == (True, 1100)
    assert b.at(1099) == (True, 1100)
    assert b.at(1100) == (False, 1400)
    assert b.at(1399) == (False, 1400)
    assert b.at(1400 + 50) == (True, 1500)


def test_close_darkens_and_gives_every_line_back(kernel: Any) -> None:
    lines = led_lines(open_chip=kernel.open_chip, paths=kernel.paths)
    leds = SeatLeds([5, 6], pin_factory=lines)
    leds.loser([0])
    leds.press_seen(1)
    leds.close()
    lines.close()
    assert kernel.requests == []
    assert kernel.levels(5)[-1] == 0 and kernel.levels(6)[-1] == 0
    assert not any(t.name == "seat-leds" and t.is_alive() for t in threading.enumerate())


def test_a_pin_a_button_holds_is_refused_by_seat_and_nothing_is_kept(kernel: Any) -> None:
    buttons = GpiodLines("/dev/gpiochip0", [6], open_chip=kernel.open_chip)
    lines = led_lines(open_chip=kernel.open_chip, paths=kernel.paths)
    with pytest.raises(ConfigError) as err:
        SeatLeds([5, 6], pin_factory=lines)
    assert "seat 2" in err.value.en and "GPIO6" in err.value.en and "busy" in err.value.en
    assert "place 2" in err.value.fr and "GPIO6" in err.value.fr
    assert "led_pwm" not in err.value.en  # not a PWM matter on these lines
    assert [r.offsets for r in kernel.requests] == [[6]]  # seat 1's LED was given back
    buttons.close()
    lines.close()


def test_a_chip_the_user_may_not_open_names_the_group(kernel: Any) -> None:
    kernel.denied.add("/dev/gpiochip0")
    with pytest.raises(HardwareError) as err:
        LedLines("/dev/gpiochip0", open_chip=kernel.open_chip)
    assert "gpio group" in err.value.en


def test_buttons_beside_the_leds_are_requested_on_the_same_chip(fk: Any, kernel: Any) -> None:
    chips = fk.CHIPS
    chips[4] = chips.pop(0)  # the header is gpiochip4 on this kernel
    lines = led_lines(open_chip=kernel.open_chip, paths=kernel.paths)
    assert lines.chip_path == "/dev/gpiochip4"
    leds = SeatLeds([5], pin_factory=lines)
    src = open_gpio_source(
        [ButtonPin("seat", 0, 17)],
        chip=None,
        settings=DebounceSettings(),
        pin_factory=lines,
        open_chip=kernel.open_chip,
        paths=kernel.paths,
    )
    assert kernel.request_for(17).chip == 4 and kernel.request_for(5).chip == 4
    leds.press_seen(0)
    assert kernel.levels(5, chip=4)[-1] == 1
    src.stop()
    leds.close()
    lines.close()
