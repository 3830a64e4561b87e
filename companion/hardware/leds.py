"""One LED per seat, showing the main loop's decisions: a press seen, the loser, a false slap, idle.

Only the main loop calls these methods; the blinking runs on the LEDs' own thread (libgpiod's
output lines on the Pi, ``led_lines.py``; gpiozero's in the tests' MockFactory), so nothing here
ever runs on an input thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from companion.errors import CompanionError, ConfigError
from companion.text import Text

PatternName = Literal["off", "press_seen", "loser", "false_slap", "idle"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """How an LED shows one state; times in seconds, as gpiozero takes them."""

    name: PatternName
    on_time: float = 0.0
    off_time: float = 0.0
    fade: float = 0.0  # PWM LEDs only: fade in and out over this long


OFF = Pattern("off")
PRESS_SEEN = Pattern("press_seen")  # steady on, at once: "your press is counted"
LOSER = Pattern("loser", on_time=0.15, off_time=0.15)  # fast, urgent blink
FALSE_SLAP = Pattern("false_slap", on_time=0.6, off_time=0.2)  # long flashes: "that was wrong"
IDLE = Pattern("idle", on_time=0.1, off_time=1.9, fade=0.9)  # slow breathing (PWM) or heartbeat


class Leds(Protocol):
    """What the main loop may ask of any set of seat LEDs (the Pi's own, or the Pico board's)."""

    def press_seen(self, seat: int) -> None: ...

    def loser(self, seats: Iterable[int]) -> None: ...

    def false_slap(self, seats: Iterable[int]) -> None: ...

    def idle(self) -> None: ...

    def off(self) -> None: ...


class SeatLeds:
    """The seats' LEDs. ``pins[seat]`` is a BCM GPIO number or None for a seat without an LED.

    ``pin_factory`` makes them: the header's output lines (``led_lines.LedLines``) on the Pi, or
    one of gpiozero's pin factories (its MockFactory in the tests)."""

    def __init__(self, pins: Sequence[int | None], *, pin_factory: Any, pwm: bool = True) -> None:
        from companion.hardware.led_lines import LedLines

        make: Any
        refused: tuple[type[BaseException], ...]
        if isinstance(pin_factory, LedLines):
            pwm = pwm and pin_factory.can_fade
            make, refused = pin_factory.led, (ConfigError,)
        else:
            from gpiozero import LED, PWMLED, GPIOZeroError

            cls = PWMLED if pwm else LED
            make, refused = (lambda pin: cls(pin, pin_factory=pin_factory)), (GPIOZeroError,)
        self.pwm = pwm
        self._leds: list[Any | None] = []
        self._showing: list[Pattern] = []
        seat, pin = 0, None
        try:
            for seat, pin in enumerate(pins):  # noqa: B007  (named in the error below)
                self._leds.append(None if pin is None else make(pin))
                self._showing.append(OFF)
        except refused as exc:
            self.close()
            cause = exc.__cause__ if isinstance(exc, ConfigError) and exc.__cause__ else exc
            why = cause.text if isinstance(cause, CompanionError) else str(cause)
            hint = Text("leds.no_pwm") if pwm else Text.pair(en="", fr="")
            raise ConfigError("leds.cannot_drive", seat=seat + 1, pin=pin, why=why, hint=hint) from cause

    def __len__(self) -> int:
        return len(self._leds)

    def showing(self, seat: int) -> Pattern:
        return self._showing[seat]

    def press_seen(self, seat: int) -> None:
        """Light the seat's LED at once; the others keep what they show."""
        self._show(seat, PRESS_SEEN)

    def loser(self, seats: Iterable[int]) -> None:
        """The loser(s) blink fast; everyone else goes dark so the loser stands out."""
        self._only(set(seats), LOSER)

    def false_slap(self, seats: Iterable[int]) -> None:
        """False slappers flash long; everyone else goes dark."""
        self._only(set(seats), FALSE_SLAP)

    def idle(self) -> None:
        """Between rounds: every LED breathes slowly (or ticks, without PWM)."""
        for seat in range(len(self._leds)):
            self._show(seat, IDLE)

    def off(self) -> None:
        for seat in range(len(self._leds)):
            self._show(seat, OFF)

    def close(self) -> None:
        for led in self._leds:
            if led is not None:
                led.close()

    def _only(self, seats: set[int], pattern: Pattern) -> None:
        for seat in range(len(self._leds)):
            self._show(seat, pattern if seat in seats else OFF)

    def _show(self, seat: int, pattern: Pattern) -> None:
        if not 0 <= seat < len(self._leds):
            return  # a seat without an LED slot (more players than LEDs) shows nothing
        self._showing[seat] = pattern
        led = self._leds[seat]
        if led is None:
            return
        if pattern.name == "off":
            led.off()
        elif pattern.name == "press_seen":
            led.on()
        elif self.pwm and pattern.fade:
            led.blink(
                on_time=pattern.on_time,
                off_time=pattern.off_time - pattern.fade,
                fade_in_time=pattern.fade,
                fade_out_time=pattern.fade,
            )
        else:
            led.blink(on_time=pattern.on_time, off_time=pattern.off_time)


class Board(Protocol):
    def set_leds(self, on_mask: int, blink_mask: int = 0) -> None: ...


class BoardLeds:
    """The Pico board's LEDs through its one command (bit i = seat i). The board blinks at a
    single rate, so a false slap shows steady (the loser blinks) and idle is dark."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.on = self.blink = -1  # unknown: the first call is always sent

    def press_seen(self, seat: int) -> None:
        bit = 1 << seat
        self._set(self.on | bit, self.blink & ~bit)

    def loser(self, seats: Iterable[int]) -> None:
        self._set(0, _mask(seats))

    def false_slap(self, seats: Iterable[int]) -> None:
        self._set(_mask(seats), 0)

    def idle(self) -> None:
        self._set(0, 0)

    def off(self) -> None:
        self._set(0, 0)

    def _set(self, on: int, blink: int) -> None:
        if (on, blink) != (self.on, self.blink):
            self.on, self.blink = on, blink
            self.board.set_leds(on, blink)


def _mask(seats: Iterable[int]) -> int:
    mask = 0
    for seat in seats:
        if 0 <= seat < 16:
            mask |= 1 << seat
    return mask
