"""Builds the button source named by config or ``--input``, once, at start-up.

Sources are imported only when chosen, so a laptop without lgpio or pyserial still runs the
keyboard and the simulator. ``gpio+keyboard`` combines sources; their stamps are then converted to
one clock and the coarser resolution is the one reported.
"""

from __future__ import annotations

import importlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import ConfigError, HardwareError
from companion.hardware.config import HardwareConfig
from companion.inputs.base import Clock, InputEvent, InputSource, QueueItem
from companion.inputs.clocks import ClockMerger, measure_offset

SOURCE_NAMES = ("gpio", "serial", "keyboard", "sim")
SERIAL_CLASS = "companion.inputs.serial_source.SerialSource"
SIM_CLASS = "companion.inputs.sim.SimSource"
COMMON_CLOCK = Clock("CLOCK_MONOTONIC", 1)


def load_class(path: str, *, extra: str | None = None) -> Any:
    """``package.module.Class`` imported on demand, with the fix named if it is missing."""
    module_name, _, cls_name = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        hint_en = f"install it with `pip install 'table-companion[{extra}]'`" if extra else ""
        hint_fr = f"installez-le avec `pip install 'table-companion[{extra}]'`" if extra else ""
        raise HardwareError(
            f"The input source {cls_name} cannot be loaded ({exc}); "
            + (hint_en or "use --input keyboard or --input sim")
            + ".",
            f"La source d'entrée {cls_name} ne peut pas être chargée ({exc}) ; "
            + (hint_fr or "utilisez --input keyboard ou --input sim")
            + ".",
        ) from exc
    return getattr(module, cls_name)


def build_source(
    name: str,
    config: HardwareConfig,
    *,
    n_seats: int | None = None,
    pin_factory: Any = None,
    seed: int = 0,
    speed: float = 1.0,
    own_window: bool = True,
    **options: Any,
) -> InputSource:
    """The source named ``name`` ("gpio", "serial", "keyboard", "sim", or e.g. "gpio+keyboard").

    ``pin_factory`` injects gpiozero's backend (lgpio is opened when it is None); ``options`` go
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
            f'"{name}" is not an input source: choose gpio, serial, keyboard or sim.',
            f"« {name} » n'est pas une source d'entrée : choisissez gpio, serial, keyboard ou sim.",
        )
    kind = parts[0]
    if kind == "gpio":
        return _build_gpio(config, n_seats, pin_factory)
    if kind == "keyboard":
        from companion.inputs.keyboard import KeyboardSource

        return KeyboardSource.from_config(config.keyboard, n_seats, own_window=own_window)
    if kind == "sim":
        cls = load_class(SIM_CLASS)
        seats = n_seats or len(config.gpio.seats) or 4
        return cls(seats, seed=seed, speed=speed)  # type: ignore[no-any-return]
    cls = load_class(SERIAL_CLASS, extra="serial")
    if hasattr(cls, "from_config"):
        return cls.from_config(config, n_seats=n_seats, **options)  # type: ignore[no-any-return]
    return cls(**options)  # type: ignore[no-any-return]


def _build_gpio(config: HardwareConfig, n_seats: int | None, pin_factory: Any) -> InputSource:
    from companion.inputs.gpio import ButtonPin, open_gpio_source

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
    return open_gpio_source([ButtonPin(role, i, pin) for role, i, pin in pins],
                            chip=config.gpio.chip, settings=config.debounce.settings(),
                            pin_factory=pin_factory)


_STOP = object()


class CombinedSource:
    """Several sources behind one; every event leaves on the common clock."""

    def __init__(
        self,
        sources: Sequence[InputSource],
        *,
        common: Clock = COMMON_CLOCK,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.sources = tuple(sources)
        self.name = "+".join(s.name for s in self.sources)
        self.merger = ClockMerger(common)
        for s in self.sources:
            clock = getattr(s, "clock", None)
            if not isinstance(clock, Clock):
                raise ConfigError(
                    f"The {s.name} source does not say which clock it stamps with, so it cannot "
                    "be combined: use it alone.",
                    f"La source {s.name} ne dit pas avec quelle horloge elle date, elle ne peut "
                    "pas être combinée : utilisez-la seule.",
                )
            if clock.name == common.name:
                self.merger.add(clock)
            elif hasattr(s, "now_ns"):
                self.merger.add(clock, measure_offset(s.now_ns, now_ns))
            else:
                raise ConfigError(
                    f"The {s.name} source's clock ({clock.name}) cannot be tied to "
                    f"{common.name}, so it cannot be combined: use it alone.",
                    f"L'horloge de la source {s.name} ({clock.name}) ne peut pas être reliée à "
                    f"{common.name}, elle ne peut pas être combinée : utilisez-la seule.",
                )
        self.clock = self.merger.clock
        self._inner: list[queue.Queue[Any]] = []
        self._threads: list[threading.Thread] = []

    def start(self, events: queue.Queue[QueueItem]) -> None:
        started: list[InputSource] = []
        try:
            for s in self.sources:
                inner: queue.Queue[Any] = queue.Queue()
                s.start(inner)
                started.append(s)
                t = threading.Thread(
                    target=self._forward, args=(inner, events), name=f"merge-{s.name}", daemon=True
                )
                t.start()
                self._inner.append(inner)
                self._threads.append(t)
        except BaseException:
            for s in started:
                s.stop()
            self._join()
            raise

    def stop(self) -> None:
        for s in self.sources:
            s.stop()
        self._join()

    def _join(self) -> None:
        for inner in self._inner:
            inner.put(_STOP)
        for t in self._threads:
            t.join(5)
        self._inner.clear()
        self._threads.clear()

    def _forward(self, inner: queue.Queue[Any], events: queue.Queue[Any]) -> None:
        while True:
            item = inner.get()
            if item is _STOP:
                return
            events.put(self.merger.convert(item) if isinstance(item, InputEvent) else item)
