"""Builds the button source named by config or ``--input``, once, at start-up.

Here, above the inputs, because it reads the config (``hardware/config.py``), which stands on the
inputs' own types. Sources are imported only when chosen, so a laptop without gpiod or pyserial
still runs the keyboard and the simulator.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig
from companion.inputs.base import InputSource
from companion.inputs.registry import CombinedSource, load_class

SERIAL_CLASS = "companion.inputs.serial_source.SerialSource"
SIM_CLASS = "companion.inputs.sim.SimSource"


@dataclass(frozen=True, slots=True)
class Wanted:
    """What ``build_source`` was asked, as each source's builder reads it."""

    config: HardwareConfig
    n_seats: int | None = None
    pin_factory: Any = None
    seed: int = 0
    speed: float = 1.0
    own_window: bool = True
    combined: bool = False  # beside other sources (``gpio+keyboard``)
    web: Any = None
    options: dict[str, Any] = field(default_factory=dict)


def build_source(
    name: str,
    config: HardwareConfig,
    *,
    n_seats: int | None = None,
    pin_factory: Any = None,
    seed: int = 0,
    speed: float = 1.0,
    own_window: bool = True,
    combined: bool = False,
    web: Any = None,
    **options: Any,
) -> InputSource:
    """The source named ``name`` ("gpio", "serial", "keyboard", "sim", or e.g. "gpio+keyboard").

    ``pin_factory`` injects gpiozero's backend (libgpiod is used when it is None); ``options`` go
    to the serial source (e.g. ``port=``). Nothing is left claimed if building fails.
    """
    parts = [p.strip() for p in name.split("+") if p.strip()]
    wanted = Wanted(
        config, n_seats, pin_factory, seed, speed, own_window, combined or len(parts) > 1, web, options
    )
    if len(parts) > 1:
        return _combined(parts, wanted)
    if not parts or parts[0] not in BUILDERS:
        raise ConfigError(
            "sources.build_source",
            name=name,
        )
    return BUILDERS[parts[0]](wanted)


def _combined(parts: list[str], wanted: Wanted) -> InputSource:
    built: list[InputSource] = []
    try:
        for part in parts:
            built.append(
                build_source(
                    part,
                    wanted.config,
                    n_seats=wanted.n_seats,
                    pin_factory=wanted.pin_factory,
                    seed=wanted.seed,
                    speed=wanted.speed,
                    own_window=wanted.own_window,
                    combined=True,
                    web=wanted.web,
                    **wanted.options,
                )
            )
    except BaseException:
        for s in built:
            s.stop()
        raise
    return CombinedSource(built)


def _web(wanted: Wanted) -> InputSource:
    # Phones, through the server started with --web (companion/web/).
    from companion.inputs.web import WebSource

    return WebSource(wanted.web)


def _keyboard(wanted: Wanted) -> InputSource:
    from companion.inputs.keyboard import KeyboardSource

    return KeyboardSource.from_config(wanted.config.keyboard, wanted.n_seats, own_window=wanted.own_window)


def _sim(wanted: Wanted) -> InputSource:
    cls = load_class(SIM_CLASS)
    seats = wanted.n_seats or len(wanted.config.gpio.seats) or 4
    if wanted.combined:
        # Next to real buttons, simulated presses must be stamped on the real clock.
        return cls(seats, seed=wanted.seed, speed=wanted.speed, now_ns=time.monotonic_ns)  # type: ignore[no-any-return]
    return cls(seats, seed=wanted.seed, speed=wanted.speed)  # type: ignore[no-any-return]


def _serial(wanted: Wanted) -> InputSource:
    cls = load_class(SERIAL_CLASS, extra="serial")
    if hasattr(cls, "from_config"):
        return cls.from_config(wanted.config, n_seats=wanted.n_seats, **wanted.options)  # type: ignore[no-any-return]
    return cls(**wanted.options)  # type: ignore[no-any-return]


def _gpio(wanted: Wanted) -> InputSource:
    return _build_gpio(wanted.config, wanted.n_seats, wanted.pin_factory)


def _build_gpio(config: HardwareConfig, n_seats: int | None, pin_factory: Any) -> InputSource:
    from companion.inputs.gpio import open_gpio_source
    from companion.inputs.gpio_pins import ButtonPin

    config.require_gpio_seats()
    pins = config.gpio.button_pins()
    if n_seats is not None:
        have = len(config.gpio.seats)
        if have < n_seats:
            raise ConfigError(
                "sources.build_gpio",
                n_seats=n_seats,
                have=have,
            )
        pins = [p for p in pins if p[0] != "seat" or p[1] < n_seats]
    return open_gpio_source(
        [ButtonPin(role, i, pin) for role, i, pin in pins],
        chip=config.gpio.chip,
        settings=config.debounce.settings(),
        pin_factory=pin_factory,
    )


# One builder per source name (inputs/names.py): adding a source is its module, its name there
# and its line here (docs/architecture.md, "An input source").
BUILDERS: dict[str, Callable[[Wanted], InputSource]] = {
    "gpio": _gpio,
    "serial": _serial,
    "keyboard": _keyboard,
    "sim": _sim,
    "web": _web,
}
