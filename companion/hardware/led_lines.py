"""The seat LEDs' lines on the Pi's header, requested as outputs through libgpiod.

libgpiod's binding (``gpiod``) has wheels for every Python and machine a Pi runs, as the buttons
already need it; gpiozero's lgpio backend, which drove the LEDs before, has no aarch64 wheel for
Python 3.13 (Pi OS trixie) and would have to be compiled on the Pi. An LED is one
line, its own request (so a busy pin names itself), driven low at the start and at the end.

Blinking is one thread for all the LEDs, woken only at a change of level (a few times a second,
never a busy loop); the main loop's calls set a line at once. There is no fading: PWM on a line
written from Python would wake the interpreter hundreds of times a second, beside the buttons'
reader, for a breathing effect. A pattern that fades (idle) blinks as its heartbeat instead.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.errors import HardwareError
from companion.inputs.gpiochip import (
    CONSUMER,
    NO_GPIOD,
    GpioLineError,
    chip_paths,
    explain_chip_failure,
    find_header_chip,
    gpiod_available,
)


@dataclass(frozen=True, slots=True)
class _Blink:
    start_ns: int
    on_ns: int
    off_ns: int

    def at(self, now_ns: int) -> tuple[bool, int]:
        """Lit or not at ``now_ns``, and when that next changes."""
        period = self.on_ns + self.off_ns
        phase = (now_ns - self.start_ns) % period
        if phase < self.on_ns:
            return True, now_ns + self.on_ns - phase
        return False, now_ns + period - phase


class LineLed:
    """One LED on one output line: gpiozero's LED methods that SeatLeds uses."""

    def __init__(self, owner: LedLines, pin: int, request: Any) -> None:
        from gpiod.line import Value

        self.owner = owner
        self.pin = pin
        self._request = request
        self._levels = (Value.INACTIVE, Value.ACTIVE)
        self.lit = False  # what the line was last set to (it starts low)

    def on(self) -> None:
        self.owner._steady(self, True)

    def off(self) -> None:
        self.owner._steady(self, False)

    def blink(self, on_time: float, off_time: float, **_fades: float) -> None:
        """On for ``on_time`` s, off for ``off_time`` s, from now until told otherwise; fade
        times are accepted as gpiozero's PWMLED takes them, and not drawn (see the module)."""
        self.owner._blink(self, _Blink(self.owner.now_ns(), round(on_time * 1e9), round(off_time * 1e9)))

    def close(self) -> None:
        self.owner._release(self)

    def _write(self, lit: bool) -> None:
        self._request.set_value(self.pin, self._levels[lit])
        self.lit = lit


class LedLines:
    """The LEDs' output lines on the header's chip ``chip_path``, and their blinking thread.

    It stands where gpiozero's pin factory stood: ``play`` hands it to the GPIO source, which
    requests the buttons' lines on the same chip through libgpiod (``buttons_through_gpiod``).
    ``open_chip`` is the seam: ``gpiod.Chip`` on the Pi, the kernel model in the tests."""

    buttons_through_gpiod = True
    can_fade = False

    def __init__(
        self,
        chip_path: str,
        *,
        open_chip: Callable[[str], Any] | None = None,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        if open_chip is None:
            import gpiod

            open_chip = gpiod.Chip
        self.chip_path = chip_path
        self.now_ns = now_ns
        self._open_chip = open_chip
        self._cond = threading.Condition()
        self._leds: list[LineLed] = []
        self._blinking: dict[LineLed, _Blink] = {}
        self._thread: threading.Thread | None = None
        self._closed = False
        try:  # a chip the user may not open says so now, not at the first LED
            open_chip(chip_path).close()
        except OSError as exc:
            raise explain_chip_failure(chip_path, exc) from exc

    def led(self, pin: int) -> LineLed:
        """The LED on BCM ``pin``, its line requested as an output, low; GpioLineError when the
        line is taken or not on this chip."""
        from gpiod import LineSettings
        from gpiod.line import Direction, Value

        settings = LineSettings(direction=Direction.OUTPUT, output_value=Value.INACTIVE)
        chip = self._open_chip(self.chip_path)
        try:
            request = chip.request_lines({pin: settings}, consumer=CONSUMER)
        except (OSError, ValueError) as exc:
            raise GpioLineError(pin, exc) from exc
        finally:
            chip.close()
        led = LineLed(self, pin, request)
        with self._cond:
            self._leds.append(led)
        return led

    def close(self) -> None:
        """Every LED dark and its line given back; the blinking thread ends."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
        for led in list(self._leds):
            self._release(led)

    def _steady(self, led: LineLed, lit: bool) -> None:
        with self._cond:
            self._blinking.pop(led, None)
            led._write(lit)

    def _blink(self, led: LineLed, blink: _Blink) -> None:
        with self._cond:
            self._blinking[led] = blink
            led._write(True)
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._run, name="seat-leds", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def _release(self, led: LineLed) -> None:
        with self._cond:
            if led not in self._leds:
                return
            self._leds.remove(led)
            self._blinking.pop(led, None)
            with contextlib.suppress(OSError):
                led._write(False)
            led._request.release()

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                now = self.now_ns()
                next_ns: int | None = None
                for led, blink in self._blinking.items():
                    lit, change_ns = blink.at(now)
                    if lit != led.lit:
                        led._write(lit)
                    next_ns = change_ns if next_ns is None else min(next_ns, change_ns)
                self._cond.wait(None if next_ns is None else max(0, next_ns - now) / 1e9)


def led_lines(
    chip: int | None = None,
    *,
    open_chip: Callable[[str], Any] | None = None,
    paths: Callable[[], list[str]] = chip_paths,
) -> LedLines:
    """The seat LEDs' lines on the header's chip, found by its lines' names as the buttons find
    it unless ``[gpio] chip`` names it."""
    path = find_header_chip(chip, open_chip=open_chip, paths=paths)
    if open_chip is None and not gpiod_available():
        raise HardwareError(NO_GPIOD)
    return LedLines(path, open_chip=open_chip)
