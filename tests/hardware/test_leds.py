"""Seat LEDs through gpiozero's MockFactory: the pin states each decision produces."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from companion.errors import ConfigError
from companion.hardware.leds import FALSE_SLAP, IDLE, LOSER, OFF, PRESS_SEEN, BoardLeds, SeatLeds

PINS = [5, 6, None, 13]


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Wait on a condition that gpiozero's blink thread makes true (an event, not a sleep)."""
    done = threading.Event()
    while not cond():
        if done.wait(0.005) or timeout <= 0:
            return cond()
        timeout -= 0.005
    return True


@pytest.fixture(params=[True, False], ids=["pwm", "plain"])
def rig(request: pytest.FixtureRequest) -> Iterator[tuple[SeatLeds, MockFactory]]:
    pwm: bool = request.param
    factory = MockFactory(pin_class=MockPWMPin if pwm else MockPin)
    leds = SeatLeds(PINS, pin_factory=factory, pwm=pwm)
    yield leds, factory
    leds.close()
    factory.close()


def level(factory: MockFactory, pin: int) -> float:
    return float(factory.pin(pin).state)


def toggles(factory: MockFactory, pin: int) -> list[float]:
    return [float(s.state) for s in factory.pin(pin).states]


def test_press_seen_lights_at_once_and_only_that_seat(rig: tuple[SeatLeds, MockFactory]) -> None:
    leds, factory = rig
    leds.press_seen(1)
    assert level(factory, 6) == 1.0
    assert level(factory, 5) == 0.0 and level(factory, 13) == 0.0
    leds.press_seen(3)
    assert level(factory, 6) == 1.0 and level(factory, 13) == 1.0
    assert leds.showing(1) == PRESS_SEEN


def test_loser_blinks_others_dark(rig: tuple[SeatLeds, MockFactory]) -> None:
    leds, factory = rig
    leds.press_seen(0)
    leds.press_seen(1)
    leds.loser([1])
    assert level(factory, 5) == 0.0
    factory.pin(6).clear_states()
    assert wait_until(lambda: len(factory.pin(6).states) >= 5)
    seq = toggles(factory, 6)[1:5]
    assert set(seq) == {0.0, 1.0} and all(a != b for a, b in itertools.pairwise(seq))
    assert [leds.showing(s) for s in range(4)] == [OFF, LOSER, OFF, OFF]


def test_false_slap_pattern_differs_from_loser(rig: tuple[SeatLeds, MockFactory]) -> None:
    leds, factory = rig
    leds.false_slap([0, 3])
    assert leds.showing(0) == FALSE_SLAP and leds.showing(3) == FALSE_SLAP
    assert leds.showing(1) == OFF and level(factory, 6) == 0.0
    assert (FALSE_SLAP.on_time, FALSE_SLAP.off_time) != (LOSER.on_time, LOSER.off_time)
    assert wait_until(lambda: len(factory.pin(13).states) >= 3)
    assert 1.0 in toggles(factory, 13)


def test_idle_breathes_or_ticks(rig: tuple[SeatLeds, MockFactory]) -> None:
    leds, factory = rig
    leds.idle()
    assert all(leds.showing(s) == IDLE for s in range(4))
    if leds.pwm:
        # Fading passes through levels between off and fully on.
        assert wait_until(lambda: any(0.0 < v < 1.0 for v in toggles(factory, 5)))
    else:
        assert wait_until(lambda: 1.0 in toggles(factory, 5))
    leds.off()
    assert level(factory, 5) == 0.0


def test_seats_without_led_or_beyond_are_ignored(rig: tuple[SeatLeds, MockFactory]) -> None:
    leds, _ = rig
    leds.press_seen(2)
    leds.press_seen(9)
    leds.loser([2, 9])
    assert leds.showing(2) == LOSER


def test_bad_led_pin_is_refused_and_released() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    with pytest.raises(ConfigError) as err:
        SeatLeds([5, 99], pin_factory=factory)
    assert "seat 2" in err.value.en and "place 2" in err.value.fr
    SeatLeds([5], pin_factory=factory).close()  # GPIO5 was released
    factory.close()


class Board:
    """The Pico source's LED command, recorded (the real one is tested in
    tests/inputs/test_serial_source.py)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int]] = []

    def set_leds(self, on_mask: int, blink_mask: int = 0) -> None:
        self.sent.append((on_mask, blink_mask))


def test_board_leds_as_masks() -> None:
    board = Board()
    leds = BoardLeds(board)
    leds.idle()
    leds.press_seen(2)
    leds.press_seen(0)
    leds.press_seen(0)  # nothing new: nothing sent
    leds.loser([1, 3])
    leds.false_slap([3])
    leds.off()
    assert board.sent == [(0, 0), (0b100, 0), (0b101, 0), (0, 0b1010), (0b1000, 0), (0, 0)]
