"""Buttons wired to the Pi's 40-pin header, read through gpiozero with an injected pin factory.

Each press is stamped with the kernel's timestamp of its first edge (CLOCK_MONOTONIC; the edges
are read from the GPIO character device by ``gpiocdev``, lgpio only claims lines and sets pulls),
debounced in our own code (``debounce.py``) rather than by gpiozero's ``bounce_time``, which on
lgpio stamps a press late.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.advice import pip_install
from companion.errors import CompanionError, ConfigError, HardwareError
from companion.inputs.base import (
    Clock,
    InputEvent,
    QueueItem,
    Role,
    SourceStatus,
    crash_status,
    source_thread,
)
from companion.inputs.debounce import (
    Debouncer,
    DebounceSettings,
    Decision,
    Stuck,
    Transition,
    Unstuck,
)
from companion.inputs.gpiocdev import (
    FLAG_BIAS_DISABLED,
    FLAG_BIAS_PULL_DOWN,
    FLAG_BIAS_PULL_UP,
    FLAG_EDGE_FALLING,
    FLAG_EDGE_RISING,
    FLAG_INPUT,
    MAX_EVENT_BUFFER,
    EventReader,
    Kernel,
    KernelGpio,
    header_chip,
)

# Kernel edge stamps are nanoseconds, but interrupt latency jitters by about a microsecond, so
# that is the resolution we stand behind.
GPIO_CLOCK = Clock("CLOCK_MONOTONIC", 1_000)

# Edges reach us from lgpio's thread a little after the kernel stamped them; deadlines are
# decided this far in the past so a late edge is never stamped later than it happened.
DEFAULT_DELIVERY_MARGIN_NS = 5_000_000

NO_LGPIO_EN = (
    "The lgpio library is not installed, so the Pi's GPIO buttons cannot be read: on a Raspberry "
    f"Pi run `{pip_install('gpio')}`; on a laptop use --input keyboard "
    "(or --input sim for a demo)."
)
NO_LGPIO_FR = (
    "La bibliothèque lgpio n'est pas installée, les boutons GPIO du Pi ne peuvent pas être lus : "
    f"sur un Raspberry Pi lancez `{pip_install('gpio')}` ; sur un portable utilisez "
    "--input keyboard (ou --input sim pour une démo)."
)


@dataclass(frozen=True, slots=True)
class ButtonPin:
    """One button: who it belongs to and the BCM GPIO number its free leg is wired to."""

    role: Role
    seat: int
    pin: int

    def label(self) -> tuple[str, str]:
        if self.role == "seat":
            return f"seat {self.seat + 1}", f"place {self.seat + 1}"
        fr = {"confirm": "valider", "cancel": "annuler", "undo": "revenir"}[self.role]
        return f"referee button {self.role}", f"bouton d'arbitre {fr}"


def lgpio_workdir() -> Path:
    """A writable directory for lgpio's notification pipes (it would otherwise use the cwd)."""
    from companion.paths import runtime_dir

    return runtime_dir()


def prepare_lgpio_env() -> Path:
    """Point LG_WD at a writable directory; must run before lgpio is first imported. A folder
    that cannot be made is a HardwareError naming the fix (the unit's RuntimeDirectory=)."""
    existing = os.environ.get("LG_WD")
    if existing:
        return Path(existing)
    from companion.paths import ensure_runtime_dir

    wd = ensure_runtime_dir(("of the GPIO library (lgpio)", "de la bibliothèque GPIO (lgpio)"))
    os.environ["LG_WD"] = str(wd)
    return wd


def explain_chip_failure(chip: int | None, exc: BaseException) -> HardwareError:
    """One sentence naming the fix for a GPIO chip that would not open."""
    dev = f"/dev/gpiochip{chip if chip is not None else 0}"
    text = str(exc).lower()
    code = getattr(exc, "errno", None)
    if code in (errno.EACCES, errno.EPERM) or "permission" in text or "not permitted" in text:
        return HardwareError(
            f"No permission to open {dev}: add the user to the gpio group "
            "(`sudo usermod -aG gpio $USER`, then log in again).",
            f"Pas le droit d'ouvrir {dev} : ajoutez l'utilisateur au groupe gpio "
            "(`sudo usermod -aG gpio $USER`, puis reconnectez-vous).",
        )
    return HardwareError(
        f"Cannot open {dev} ({exc}): this is not a Raspberry Pi or the chip number is wrong; "
        "on a laptop use --input keyboard.",
        f"Impossible d'ouvrir {dev} ({exc}) : ce n'est pas un Raspberry Pi ou le numéro de puce "
        "est faux ; sur un portable utilisez --input keyboard.",
    )


def lgpio_factory(chip: int | None = None, *, kernel: Kernel | None = None) -> Any:
    """The production pin factory: lgpio for claiming and pulls, and each button's edges read
    from the kernel ourselves (``gpiocdev``), with the largest event buffer and gap detection.

    ``chip`` None finds the header's chip by its lines' names (``[gpio] chip`` overrides it);
    ``kernel`` is the seam to the GPIO character device (tests pass a model of it)."""
    prepare_lgpio_env()
    cwd = os.getcwd()
    try:
        import lgpio  # imported here so LG_WD is already set
        from gpiozero.pins.lgpio import LGPIOFactory, LGPIOPin
    except ImportError as exc:
        raise HardwareError(NO_LGPIO_EN, NO_LGPIO_FR) from exc
    finally:
        # lgpio's C library chdir()s to LG_WD as it loads: a relative path given on the command
        # line (--config) must still mean what it meant.
        with contextlib.suppress(OSError):
            os.chdir(cwd)
    from gpiozero.pins.pi import PiPin

    kern: Kernel = kernel if kernel is not None else KernelGpio()
    if chip is None:
        listing = getattr(kern, "chips", None)
        chip = header_chip(kern, listing() if listing is not None else range(8))
    reader = EventReader(kern)

    class NsLGPIOPin(LGPIOPin):  # type: ignore[misc]
        _line_fd: int | None = None

        def _enable_event_detect(self) -> None:
            # lgpio would request the line with a 16-event buffer and drop the sequence numbers:
            # give the line back to the kernel and request its events ourselves.
            bias = {"up": FLAG_BIAS_PULL_UP, "down": FLAG_BIAS_PULL_DOWN}.get(
                self.pull, FLAG_BIAS_DISABLED)
            lgpio.gpio_free(self.factory._handle, self._number)
            flags = FLAG_INPUT | FLAG_EDGE_RISING | FLAG_EDGE_FALLING | bias
            fd = kern.request_events(self.factory.chip, self._number, flags, MAX_EVENT_BUFFER)
            self._line_fd = fd
            reader.watch(fd, self._kernel_edge, self._kernel_gap)

        def _kernel_edge(self, t_ns: int, level: int) -> None:
            # The kernel's integer nanoseconds, where gpiozero's lgpio pins would pass floats.
            PiPin._call_when_changed(self, t_ns, level)

        def _kernel_gap(self, lost: int, t_ns: int) -> None:
            listener = self.factory.gap_listener
            if listener is not None:
                listener(self._number, lost, t_ns)

        def _disable_event_detect(self) -> None:
            fd, self._line_fd = self._line_fd, None
            if fd is None:
                return
            reader.unwatch(fd)
            kern.close(fd)
            if self.factory._handle is not None:
                flags = {"up": lgpio.SET_PULL_UP, "down": lgpio.SET_PULL_DOWN}.get(
                    self._pull_held, lgpio.SET_PULL_NONE)
                lgpio.gpio_claim_input(self.factory._handle, self._number, flags)

        def _get_state(self) -> bool:
            if self._line_fd is not None:
                return bool(kern.get_value(self._line_fd))
            return bool(super()._get_state())

        def _get_pull(self) -> str:
            if self._line_fd is not None:
                return self._pull_held
            return str(super()._get_pull())

        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            self._pull_held = value

        _pull_held = "floating"

    class NsLGPIOFactory(LGPIOFactory):  # type: ignore[misc]
        gap_listener: Callable[[int, int, int], None] | None = None

        @property
        def crash_listener(self) -> Callable[[BaseException], None] | None:
            return reader.on_crash

        @crash_listener.setter
        def crash_listener(self, value: Callable[[BaseException], None] | None) -> None:
            reader.on_crash = value

        def close(self) -> None:
            super().close()
            reader.close()

    try:
        factory = NsLGPIOFactory(chip=chip)
    except Exception as exc:  # lgpio.error is not an OSError subclass
        reader.close()
        raise explain_chip_failure(chip, exc) from exc
    factory.pin_class = NsLGPIOPin
    return factory


def ticks_to_ns(ticks: int | float) -> int:
    """Our lgpio pins hand over integer ns; gpiozero's other pins hand over float seconds."""
    if isinstance(ticks, int):
        return ticks
    return round(ticks * 1e9)


@dataclass(frozen=True, slots=True)
class ButtonStats:
    """What the wiring monitor shows for one button."""

    button: ButtonPin
    pressed: bool
    stuck: bool
    presses: int
    bounces: int
    glitches: int


class _EdgeHandler:
    """A pin's ``when_changed`` target; gpiozero holds it weakly, the source strongly."""

    __slots__ = ("__weakref__", "index", "put")

    def __init__(self, index: int, inbox: queue.SimpleQueue[Any]) -> None:
        self.index = index
        self.put = inbox.put

    def __call__(self, ticks: int | float, state: int | bool) -> None:
        # Runs on the backend's callback thread: hand over and return, nothing else.
        self.put((self.index, ticks, state))


class _Gap:
    __slots__ = ("index", "lost", "t_ns")

    def __init__(self, index: int, lost: int, t_ns: int) -> None:
        self.index, self.lost, self.t_ns = index, lost, t_ns


class _Barrier:
    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = threading.Event()


_STOP = object()


class GpioSource:
    """Debounced, kernel-stamped presses from buttons between a GPIO pin and ground.

    ``pin_factory`` is a gpiozero factory (``lgpio_factory()`` on the Pi, ``MockFactory`` in
    tests). ``now_ns`` reads the clock the factory stamps edges with; tests inject their own.
    """

    name = "gpio"

    def __init__(
        self,
        buttons: Sequence[ButtonPin],
        *,
        pin_factory: Any,
        settings: DebounceSettings | None = None,
        now_ns: Callable[[], int] = time.monotonic_ns,
        clock: Clock = GPIO_CLOCK,
        delivery_margin_ns: int = DEFAULT_DELIVERY_MARGIN_NS,
    ) -> None:
        from gpiozero import GPIOZeroError, InputDevice

        self.buttons = tuple(buttons)
        self.owned_factory: Any = None  # a factory opened for this source alone, closed on stop
        self.settings = settings if settings is not None else DebounceSettings()
        self.clock = clock
        self._now_ns = now_ns
        self._margin = delivery_margin_ns
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._handlers = [_EdgeHandler(i, self._inbox) for i in range(len(self.buttons))]
        self._debouncers: list[Debouncer] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._events: queue.Queue[QueueItem] | None = None
        self._devices: list[Any] = []
        self._index_of_pin = {b.pin: i for i, b in enumerate(self.buttons)}
        if hasattr(pin_factory, "gap_listener"):
            pin_factory.gap_listener = self._on_gap
            # The factory's own reading thread dying must reach the screen too.
            pin_factory.crash_listener = self._on_reader_crash
        # Claim every pin now, so a wrong pin fails before anything has started.
        try:
            for b in self.buttons:
                self._devices.append(InputDevice(b.pin, pull_up=True, pin_factory=pin_factory))
        except GPIOZeroError as exc:
            self._close_devices()
            en, fr = b.label()
            raise ConfigError(
                f"GPIO{b.pin} for {en} cannot be used ({exc}); pick another pin in the pin map.",
                f"GPIO{b.pin} pour {fr} est inutilisable ({exc}) ; choisissez une autre broche "
                "dans le plan de câblage.",
            ) from exc

    # -- InputSource -------------------------------------------------------------------------

    def start(self, events: queue.Queue[QueueItem]) -> None:
        if self._thread is not None:
            raise RuntimeError("GpioSource already started")
        self._events = events
        now = self._now_ns()
        self._debouncers = [
            Debouncer(self.settings, active=not dev.pin.state, t_ns=now) for dev in self._devices
        ]
        for b, d in zip(self.buttons, self._debouncers, strict=True):
            if d.stuck:
                events.put(self._stuck_status(b))
        for dev, handler in zip(self._devices, self._handlers, strict=True):
            dev.pin.edges = "both"
            dev.pin.when_changed = handler
        self._thread = source_thread("gpio", self._run, events, name="gpio-source")
        self._thread.start()

    def stop(self) -> None:
        for dev in self._devices:
            if not dev.closed:
                dev.pin.when_changed = None
        if self._thread is not None:
            self._inbox.put(_STOP)
            self._thread.join(timeout=5)
            self._thread = None
        self._close_devices()
        if self.owned_factory is not None:
            self.owned_factory.close()
            self.owned_factory = None

    # -- for the wiring monitor and tests --------------------------------------------------

    def now_ns(self) -> int:
        """The current time on the clock this source stamps with."""
        return self._now_ns()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every edge delivered so far, and every deadline due now, is decided."""
        barrier = _Barrier()
        self._inbox.put(barrier)
        return barrier.done.wait(timeout)

    def stats(self) -> list[ButtonStats]:
        with self._lock:
            return [
                ButtonStats(b, d.pressed, d.stuck, d.presses, d.bounces, d.glitches)
                for b, d in zip(self.buttons, self._debouncers, strict=True)
            ]

    # -- internals ---------------------------------------------------------------------------

    def _close_devices(self) -> None:
        for dev in self._devices:
            dev.close()

    def _stuck_status(self, b: ButtonPin) -> SourceStatus:
        en, fr = b.label()
        return SourceStatus(
            "gpio",
            "stuck",
            b.seat,
            f"The button of {en} is held down (stuck or wired wrong); it counts again once released.",
            f"Le bouton de {fr} reste enfoncé (coincé ou mal câblé) ; il recompte une fois relâché.",
        )

    def _released_status(self, b: ButtonPin) -> SourceStatus:
        en, fr = b.label()
        return SourceStatus(
            "gpio",
            "released",
            b.seat,
            f"The button of {en} is released and counts again.",
            f"Le bouton de {fr} est relâché et compte de nouveau.",
        )

    def _on_reader_crash(self, exc: BaseException) -> None:
        if self._events is not None:
            self._events.put(crash_status("gpio", exc))

    def _on_gap(self, pin: int, lost: int, t_ns: int) -> None:
        # On the pin factory's reading thread: hand over, like an edge.
        index = self._index_of_pin.get(pin)
        if index is not None:
            self._inbox.put(_Gap(index, lost, t_ns))

    def _gap_status(self, gap: _Gap) -> SourceStatus:
        # The kernel drops the oldest edges when its buffer is full: the press after the gap may
        # be stamped later than its first edge. Say so rather than let it pass as exact.
        en, fr = self.buttons[gap.index].label()
        return SourceStatus(
            "gpio",
            "error",
            self.buttons[gap.index].seat,
            f"The kernel dropped {gap.lost} edges of {en} (the Pi was too busy to read them): "
            "a press at that moment may be stamped late.",
            f"Le noyau a perdu {gap.lost} fronts de {fr} (le Pi était trop occupé pour les lire) : "
            "un appui à ce moment peut être daté en retard.",
        )

    def _late_status(self, index: int) -> SourceStatus:
        # Only an edge landing inside a press already decided past it: the press keeps its
        # first edge's stamp, but the table should know the Pi was too busy to be sure.
        en, fr = self.buttons[index].label()
        return SourceStatus(
            "gpio",
            "info",
            self.buttons[index].seat,
            f"Edges of {en} reached the program late (the Pi is busy); its press keeps the "
            "stamp of its first edge.",
            f"Des fronts de {fr} sont arrivés en retard (le Pi est surchargé) ; l'appui garde "
            "l'heure de son premier front.",
        )

    def _timeout(self) -> float:
        deadlines = [d for d in (x.next_deadline() for x in self._debouncers) if d is not None]
        if not deadlines:
            return 1.0
        wait_ns = min(deadlines) + self._margin - self._now_ns()
        return min(max(wait_ns, 0) / 1e9, 1.0)

    def _run(self) -> None:
        # This loop is the edge-to-queue latency: locals instead of attribute look-ups, no
        # exception to end a drain, and sorting only when a batch holds more than one item.
        assert self._events is not None
        put = self._events.put
        inbox = self._inbox
        get, get_nowait, empty = inbox.get, inbox.get_nowait, inbox.empty
        now_ns, margin, lock = self._now_ns, self._margin, self._lock
        debouncers = self._debouncers
        to_item = self._to_item
        reported_late = [0] * len(debouncers)
        while True:
            try:
                first = get(timeout=self._timeout())
            except queue.Empty:
                first = None
            # Read the clock before draining: every edge stamped before this instant is then
            # either in the batch or was stamped by a kernel that has not delivered it yet
            # (which is what the delivery margin allows for).
            horizon = now_ns() - margin
            batch = [] if first is None else [first]
            while not empty():  # this thread is the only consumer
                batch.append(get_nowait())
            edges: list[tuple[int, int, Any]] = []
            barriers: list[_Barrier] = []
            stop = False
            for x in batch:
                if type(x) is tuple:
                    index, ticks, state = x
                    edges.append((index, ticks if type(ticks) is int else ticks_to_ns(ticks), state))
                elif x is _STOP:
                    stop = True
                elif type(x) is _Gap:
                    put(self._gap_status(x))
                else:
                    barriers.append(x)
            if len(edges) > 1:
                # Callbacks may come from several threads: order by stamp, not by arrival.
                edges.sort(key=_second)
            out: list[tuple[int, int, Decision]] = []
            with lock:
                for index, t_ns, state in edges:
                    for dec in debouncers[index].edge(t_ns, not state):
                        out.append((index, _stamp(dec), dec))
                for index, d in enumerate(debouncers):
                    for dec in d.poll(horizon):
                        out.append((index, _stamp(dec), dec))
            if len(out) > 1:
                out.sort(key=_second)
            for index, _, dec in out:
                put(to_item(index, dec))
            if edges:
                for index, d in enumerate(debouncers):
                    if d.late != reported_late[index]:
                        reported_late[index] = d.late
                        put(self._late_status(index))
            for b in barriers:
                b.done.set()
            if stop:
                return

    def _to_item(self, index: int, dec: Decision) -> QueueItem:
        b = self.buttons[index]
        if isinstance(dec, Transition):
            return InputEvent(b.role, b.seat, dec.edge, dec.t_ns, self.clock, self.name)
        if isinstance(dec, Stuck):
            return self._stuck_status(b)
        return self._released_status(b)


def open_gpio_source(
    buttons: Sequence[ButtonPin],
    *,
    chip: int | None,
    settings: DebounceSettings,
    pin_factory: Any = None,
) -> GpioSource:
    """A GPIO source on ``pin_factory``, or on a new lgpio factory that is closed again if the
    pins cannot be claimed (so nothing is left half-started)."""
    own_factory = pin_factory is None
    factory = lgpio_factory(chip) if own_factory else pin_factory
    try:
        source = GpioSource(list(buttons), pin_factory=factory, settings=settings)
    except CompanionError:
        if own_factory:
            factory.close()
        raise
    if own_factory:
        source.owned_factory = factory  # closed by stop(): the chip is ours alone
    return source


def _second(item: tuple[Any, ...]) -> Any:
    return item[1]


def _stamp(dec: Decision) -> int:
    if type(dec) is Transition:
        return dec.t_ns
    if isinstance(dec, Stuck):
        return dec.decided_ns
    assert isinstance(dec, Unstuck)
    return dec.t_ns
