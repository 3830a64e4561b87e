"""The App's sources' host: it builds the game's button source (supervised, the phones' pads
joined when the server runs), starts and stops it, finds its parts, their watermarks and their
clocks, and which keys are seat buttons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.inputs.base import Clock, EventInbox, Promising, host_epoch, promising_of

CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
UI_KEYS = {*CONFIRM_KEYS, pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_TAB}


class SourceHost:
    """One source at a time, for the running game."""

    def __init__(
        self,
        name: str,
        *,
        config: Any = None,
        seed: int = 0,
        speed: float = 1.0,
        factory: Callable[[str, int], Any] | None = None,
        pin_factory: Any = None,
        web: Any = None,
        resume_from: Callable[[str], int | None] | None = None,
    ) -> None:
        self.name = name
        self.config = config
        self.config_file: str | None = None  # where ``config`` came from, kept in a game's meta
        self.seed = seed
        self.speed = speed
        self.factory = factory or self.build
        self.pin_factory = pin_factory  # gpiozero's backend, shared with the LEDs if any
        self.web = web  # the phones' server (--web): its pads join every game's buttons
        self.resume_from = resume_from or (lambda _stream: None)
        self.source: Any = None
        self.seat_keys: dict[int, int] = {}  # keys that are seat buttons: key -> seat

    def build(self, name: str, n_seats: int) -> Any:
        from companion.hardware.config import HardwareConfig
        from companion.hardware.sources import build_source
        from companion.inputs.registry import Supervised

        config = self.config if self.config is not None else HardwareConfig()
        if self.web is not None and "web" not in name.split("+"):
            name += "+web"
        # Supervised: a reader that dies is started again, and the table is told.
        return Supervised(
            lambda: build_source(
                name,
                config,
                n_seats=n_seats,
                seed=self.seed,
                speed=self.speed,
                own_window=False,
                pin_factory=self.pin_factory,
                wait_for_board=True,
                web=self.web,
                resume_from=self.resume_from,
            )
        )

    def start(self, n_seats: int, inbox: EventInbox) -> Any:
        """Build the source and start it on ``inbox`` (raises CompanionError, leaving none)."""
        source = self.factory(self.name, n_seats)
        source.start(inbox)
        self.source = source
        self.seat_keys = {}
        for part in self.parts():
            for b in getattr(part, "keys", ()):
                if b.role == "seat" or b.key not in UI_KEYS:
                    self.seat_keys[b.key] = b.seat
        return source

    def stop(self) -> None:
        if self.source is not None:
            try:
                self.source.stop()
            finally:
                self.source = None

    def parts(self) -> tuple[Any, ...]:
        """The game's button sources, each part of a combined one (none before it starts)."""
        source = self.source
        return tuple(getattr(source, "sources", (source,))) if source is not None else ()

    def promisers(self) -> list[Promising]:
        """Every source of the game's buttons that publishes a watermark (the phones' server
        too), each once: what a decision waits for."""
        found = promising_of(self.source)
        for extra in promising_of(self.web):
            if all(extra is not f and getattr(f, "part", None) is not extra for f in found):
                found.append(extra)
        return found

    def sim(self) -> Any:
        """The simulated players among the parts, if any."""
        for part in getattr(self.source, "sources", (self.source,)):
            if hasattr(part, "trigger_slap"):
                return part
        return None

    def on_clock(self, key: tuple[str | None, str | None], at: int) -> int | None:
        """The table-clock instant ``at`` on the clock ``key`` (its name and epoch), in whole µs,
        the last one before it: the table clock's own, or a board's through its heartbeats'
        offset; None when it cannot be placed there (a virtual clock, a board not heard from)."""
        name, epoch = key
        if name is None or epoch is None:
            return None
        if name == "CLOCK_MONOTONIC" and epoch == host_epoch():
            return (at - 1) // 1000
        for part in self.parts():
            offset_of = getattr(part, "clock_offset", None)
            clock = getattr(part, "clock", None)
            if not callable(offset_of) or not isinstance(clock, Clock) or clock.name != name:
                continue
            offset = offset_of(Clock(name, clock.resolution_ns, epoch))
            if offset is not None:
                return int(at - offset.offset_ns - 1) // 1000
        return None

    def key_handler(self) -> Callable[[pygame.event.Event], bool] | None:
        """What reads a seat key as a press: the keyboard part's ``handle``, if any."""
        handle = getattr(self.source, "handle", None)
        for part in getattr(self.source, "sources", (self.source,)):
            handle = getattr(part, "handle", handle)
        return handle
