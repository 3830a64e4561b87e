"""Builds the button source named by config or ``--input``, once, at start-up.

Here, above the inputs, because it reads the config (``hardware/config.py``), which stands on the
inputs' own types. Sources are imported only when chosen, so a laptop without gpiod or pyserial
still runs the keyboard and the simulator.
"""

from __future__ import annotations

import time
from typing import Any

from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig
from companion.inputs.base import InputSource
from companion.inputs.registry import CombinedSource, load_class

SOURCE_NAMES = ("gpio", "serial", "keyboard", "sim", "web")
SERIAL_CLASS = "companion.inputs.serial_source.SerialSource"
SIM_CLASS = "companion.inputs.sim.SimSource"


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
    if len(parts) > 1:
        built: list[InputSource] = []
        try:
            for part in parts:
                built.append(
                    build_source(
                        part,
                        config,
                        n_seats=n_seats,
                        pin_factory=pin_factory,
                        seed=seed,
                        speed=speed,
                        own_window=own_window,
                        combined=True,
                        web=web,
                        **options,
                    )
                )
        except BaseException:
            for s in built:
                s.stop()
            raise
        return CombinedSource(built)
    if not parts or parts[0] not in SOURCE_NAMES:
        raise ConfigError(
            f'"{name}" is not an input source: choose gpio, serial, keyboard, sim or web.',
            f"« {name} » n'est pas une source d'entrée : choisissez gpio, serial, keyboard, sim ou web.",
        )
    kind = parts[0]
    if kind == "gpio":
        return _build_gpio(config, n_seats, pin_factory)
    if kind == "web":  # phones, through the server started with --web (companion/web/)
        from companion.inputs.web import WebSource

        return WebSource(web)
    if kind == "keyboard":
        from companion.inputs.keyboard import KeyboardSource

        return KeyboardSource.from_config(config.keyboard, n_seats, own_window=own_window)
    if kind == "sim":
        cls = load_class(SIM_CLASS)
        seats = n_seats or len(config.gpio.seats) or 4
        if combined:
            # Next to real buttons, simulated presses must be stamped on the real clock.
            return cls(seats, seed=seed, speed=speed, now_ns=time.monotonic_ns)  # type: ignore[no-any-return]
        return cls(seats, seed=seed, speed=speed)  # type: ignore[no-any-return]
    cls = load_class(SERIAL_CLASS, extra="serial")
    if hasattr(cls, "from_config"):
        return cls.from_config(config, n_seats=n_seats, **options)  # type: ignore[no-any-return]
    return cls(**options)  # type: ignore[no-any-return]


def _build_gpio(config: HardwareConfig, n_seats: int | None, pin_factory: Any) -> InputSource:
    from companion.inputs.gpio import open_gpio_source
    from companion.inputs.gpio_pins import ButtonPin

    config.require_gpio_seats()
    pins = config.gpio.button_pins()
    if n_seats is not None:
        have = len(config.gpio.seats)
        if have < n_seats:
            raise ConfigError(
                f"{n_seats} players but only {have} button pins in [gpio] seats: wire and add "
                "the others, or run `companion buttons --assign`.",
                f"{n_seats} joueurs mais seulement {have} broches de bouton dans [gpio] seats : "
                "câblez et ajoutez les autres, ou lancez `companion buttons --assign`.",
            )
        pins = [p for p in pins if p[0] != "seat" or p[1] < n_seats]
    return open_gpio_source(
        [ButtonPin(role, i, pin) for role, i, pin in pins],
        chip=config.gpio.chip,
        settings=config.debounce.settings(),
        pin_factory=pin_factory,
    )
