"""Keys as buttons: one key per seat (number row 1..0 by default, numpad too) and referee keys.

pygame delivers key events only to the thread that owns the window, so the source either pumps
its own small window on its own thread (``own_window=True``: the wiring monitor, a laptop with no
game screen yet) or is fed by the display's loop through ``handle()``.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import ConfigError, HardwareError
from companion.inputs.base import Clock, Edge, InputEvent, QueueItem, Role

# pygame-ce does not expose SDL's event timestamps, so a key is stamped when it is read: to
# within the pump's wake-up on our own thread, to within a frame when fed by the display.
OWN_WINDOW_CLOCK = Clock("CLOCK_MONOTONIC", 1_000_000)
FED_CLOCK = Clock("CLOCK_MONOTONIC", 20_000_000)


@dataclass(frozen=True, slots=True)
class KeyBinding:
    role: Role
    seat: int
    key: int  # pygame key code
    name: str


def key_code(name: str) -> int:
    import pygame

    try:
        with warnings.catch_warnings():
            # SDL maps names to codes without pygame.init(); initialising would open audio too.
            warnings.simplefilter("ignore")
            return int(pygame.key.key_code(name))
    except ValueError:
        raise ConfigError(
            "keyboard.key_code",
            name=name,
        ) from None


def bindings(
    seat_keys: Sequence[str],
    *,
    confirm: str | None = None,
    cancel: str | None = None,
    undo: str | None = None,
    numpad: bool = True,
) -> list[KeyBinding]:
    """Bindings for the seats in order, then the referee keys; digits also get their numpad key."""
    out = [KeyBinding("seat", i, key_code(k), k) for i, k in enumerate(seat_keys)]
    for role, name in (("confirm", confirm), ("cancel", cancel), ("undo", undo)):
        if name:
            out.append(KeyBinding(role, 0, key_code(name), name))  # type: ignore[arg-type]
    if numpad:
        taken = {b.key for b in out}
        for i, k in enumerate(seat_keys):
            if len(k) == 1 and k.isdigit():
                pad = key_code(f"[{k}]")
                if pad not in taken:
                    out.append(KeyBinding("seat", i, pad, f"[{k}]"))
                    taken.add(pad)
    codes = [b.key for b in out]
    if len(codes) != len(set(codes)):
        raise ConfigError(
            "keyboard.bindings",
        )
    return out


_STOP_CODE = "companion-keyboard-stop"


class KeyboardSource:
    """Presses and releases of bound keys, stamped on CLOCK_MONOTONIC when read."""

    name = "keyboard"

    def __init__(
        self,
        keys: Sequence[KeyBinding],
        *,
        own_window: bool = True,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.keys = tuple(keys)
        self._by_code = {b.key: b for b in self.keys}
        self.own_window = own_window
        self.clock = OWN_WINDOW_CLOCK if own_window else FED_CLOCK
        self._now_ns = now_ns
        # When the loop feeding us last looked at its events (None: unknown): a key handed over
        # now was pressed at most that long ago, which the press's resolution then says.
        # How long before this key was read the loop had last read its events (set by the loop
        # before it hands a key over): a key stamped when read is no better than that.
        self.read_late_ns: int | None = None
        self._held: set[int] = set()
        self._events: queue.Queue[QueueItem] | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stop = threading.Event()

    @classmethod
    def from_config(cls, kb: Any, n_seats: int | None = None, **kw: Any) -> KeyboardSource:
        """From a ``hwconfig.KeyboardConfig``; ``n_seats`` keeps only the seats in play."""
        seats = list(kb.seats if n_seats is None else kb.seats[:n_seats])
        if n_seats is not None and len(seats) < n_seats:
            raise ConfigError(
                "keyboard.from_config",
                n_seats=n_seats,
                n_keys=len(seats),
            )
        return cls(
            bindings(seats, confirm=kb.confirm, cancel=kb.cancel, undo=kb.undo),
            **kw,
        )

    def now_ns(self) -> int:
        return self._now_ns()

    def start(self, events: queue.Queue[QueueItem]) -> None:
        self._events = events
        if not self.own_window:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._pump, name="keyboard-source", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failure is not None:
            self._thread.join(5)
            self._thread = None
            raise HardwareError(
                "keyboard.start",
                failure=self._failure,
            ) from self._failure

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            import pygame

            if pygame.display.get_init():
                pygame.event.post(pygame.event.Event(pygame.USEREVENT, code=_STOP_CODE))
            self._thread.join(5)
            self._thread = None

    def handle(self, event: Any) -> bool:
        """Turn one pygame event into a press/release; True if it was one of our keys."""
        import pygame

        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return False
        b = self._by_code.get(event.key)
        if b is None or self._events is None:
            return False
        t = self._now_ns()
        clock = self.clock
        late = self.read_late_ns
        if late is not None and late > clock.resolution_ns:
            # A slow step read this key late: its stamp is only that good.
            clock = Clock(clock.name, late, clock.epoch)
        edge: Edge
        if event.type == pygame.KEYDOWN:
            if event.key in self._held:
                return True  # auto-repeat is not a new press
            self._held.add(event.key)
            edge = "press"
        else:
            self._held.discard(event.key)
            edge = "release"
        self._events.put(InputEvent(b.role, b.seat, edge, t, clock, self.name))
        return True

    def _pump(self) -> None:
        try:
            import pygame

            pygame.display.init()
            pygame.display.set_mode((360, 120))
            pygame.display.set_caption("companion: keys / touches")
            pygame.key.set_repeat()
        except Exception as exc:  # no display, no SDL video driver...
            self._failure = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while not self._stop.is_set():
                event = pygame.event.wait(200)
                if event.type == pygame.USEREVENT and getattr(event, "code", None) == _STOP_CODE:
                    break
                if event.type == pygame.QUIT:
                    break
                self.handle(event)
        finally:
            pygame.display.quit()


def headless() -> bool:
    """True when no display is reachable, so a keyboard window cannot open."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
