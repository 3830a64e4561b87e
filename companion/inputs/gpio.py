"""Buttons wired to the Pi's 40-pin header, read through libgpiod (the ``gpiod`` binding).

Each button's line is requested from the kernel with the largest event buffer it grants, the
pull-up and both edges; each press is stamped with the kernel's timestamp of its first edge
(CLOCK_MONOTONIC, integer ns), and a gap in a line's event sequence numbers is reported as
dropped edges. Debouncing is our own (``debounce.py``). The seat LEDs are output lines on the
same chip (``companion/hardware/led_lines.py``); gpiozero's ``MockFactory`` drives the same
source in tests through gpiozero's public pin API.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import logging
import os
import queue
import re
import select
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.advice import pip_install
from companion.errors import ConfigError, HardwareError
from companion.inputs.base import (
    Clock,
    InputEvent,
    Promise,
    QueueItem,
    Role,
    SourceStatus,
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

log = logging.getLogger("companion.inputs")

# Kernel edge stamps are nanoseconds, but interrupt latency jitters by about a microsecond, so
# that is the resolution we stand behind.
GPIO_CLOCK = Clock("CLOCK_MONOTONIC", 1_000)

# The kernel stamps an edge in its hard interrupt and queues it from the line's interrupt thread
# (SCHED_FIFO 50: tens of µs on a Pi, under load too). The reader reads every line until it is
# empty *after* reading the clock, so an edge stamped before that reading is read then, unless
# its interrupt thread had not queued it yet: deadlines are decided this far behind the clock for
# that, and no further (it was 5 ms when the reader decided before reading everything: a guess at
# how late the reader itself was; read-until-empty made that guess unnecessary, issue 34). An edge
# later than this keeps its own stamp all the same (debounce.py, rule 6), it is only "late".
DEFAULT_DELIVERY_MARGIN_NS = 1_000_000
# How long after an instant a healthy reader's watermark passes it, beyond the debounce's own
# delay (the glitch minimum after a contact's last edge) and the margin above: a busy Pi's
# scheduling and a contact still bouncing at that instant.
LATENESS_SLACK_NS = 7_000_000

# The kernel caps a request's event buffer at GPIO_V2_LINES_MAX * 16 (linux/gpio.h, uAPI v2);
# left at 0 it gives 16 per line, which a bouncy press on a starved Pi can overflow.
MAX_EVENT_BUFFER = 64 * 16
CONSUMER = "table-companion"

PIP_GPIO = pip_install("gpio")  # the running venv's pip and the extra's real packages
NO_GPIOD_EN = (
    "The gpiod library (libgpiod's Python binding) is not installed, so the Pi's GPIO buttons "
    f"cannot be read: on a Raspberry Pi run `{PIP_GPIO}`; on a laptop use --input keyboard "
    "(or --input sim for a demo)."
)
NO_GPIOD_FR = (
    "La bibliothèque gpiod (l'interface Python de libgpiod) n'est pas installée, les boutons "
    f"GPIO du Pi ne peuvent pas être lus : sur un Raspberry Pi lancez `{PIP_GPIO}` ; sur un "
    "portable utilisez --input keyboard (ou --input sim pour une démo)."
)
HEADER_NAMES = "GPIO0..GPIO27"


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


def gpiod_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("gpiod") is not None


def _gpiod_chip() -> Callable[[str], Any]:
    try:
        import gpiod
    except ImportError as exc:
        raise HardwareError(NO_GPIOD_EN, NO_GPIOD_FR) from exc
    return gpiod.Chip


def chip_paths() -> list[str]:
    """The GPIO character devices here, in number order."""
    found = (re.fullmatch(r".*gpiochip(\d+)", p) for p in glob.glob("/dev/gpiochip*"))
    return [f"/dev/gpiochip{n}" for n in sorted(int(m.group(1)) for m in found if m)]


def explain_chip_failure(chip: int | str | None, exc: BaseException) -> HardwareError:
    """One sentence naming the fix for a GPIO chip that would not open."""
    dev = chip if isinstance(chip, str) else f"/dev/gpiochip{chip if chip is not None else 0}"
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


def header_score(names: Sequence[str]) -> int:
    """How many of lines 0..27 carry the header's name ``GPIOn`` (Pi 4 and earlier name a few
    by their function instead, so the best score wins rather than a perfect one)."""
    return sum(1 for n, name in enumerate(names[:28]) if name == f"GPIO{n}")


def header_chip(
    open_chip: Callable[[str], Any], paths: Iterable[str], denied: list[tuple[str, OSError]] | None = None
) -> str | None:
    """The path of the 40-pin header's chip, found by its lines' names in libgpiod's chip and
    line info (Pi 5: RP1, ``gpiochip0`` or ``gpiochip4`` depending on the kernel; Pi 4 and
    earlier: the BCM chip). None if no chip has any line so named; the chips the user may not
    open go to ``denied``."""
    best, best_score = None, 0
    for path in paths:
        try:
            with contextlib.closing(open_chip(path)) as chip:
                n = min(28, chip.get_info().num_lines)
                names = [chip.get_line_info(o).name or "" for o in range(n)]
        except PermissionError as exc:
            if denied is not None:
                denied.append((path, exc))
            continue
        except OSError:
            continue
        score = header_score(names)
        if score > best_score:
            best, best_score = path, score
    return best


class NoHeaderChip(HardwareError):
    """No chip has the header's line names; ``looked`` says which chips were seen (en, fr)."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.looked = (
            ", ".join(paths) if paths else "no /dev/gpiochip* at all",
            ", ".join(paths) if paths else "aucun /dev/gpiochip*",
        )
        en, fr = self.looked
        super().__init__(
            f"No GPIO chip here has lines named {HEADER_NAMES} like the Raspberry Pi's 40-pin "
            f"header (looked at: {en}), so no pin was opened: on a Pi set [gpio] chip to the "
            "header's chip number, on a laptop use --input keyboard.",
            f"Aucune puce GPIO ici n'a de lignes nommées {HEADER_NAMES} comme le connecteur 40 "
            f"broches du Raspberry Pi (vu : {fr}), donc aucune broche n'a été ouverte : sur un Pi "
            "réglez [gpio] chip sur le numéro de la puce du connecteur, sur un portable utilisez "
            "--input keyboard.",
        )


def no_header_chip(paths: Sequence[str]) -> HardwareError:
    return NoHeaderChip(paths)


def find_header_chip(
    chip: int | None,
    *,
    open_chip: Callable[[str], Any] | None = None,
    paths: Callable[[], list[str]] = chip_paths,
) -> str:
    """``/dev/gpiochipN`` of the header: ``chip`` if the config names it, else found by its
    lines' names; a HardwareError naming what was looked for when there is none."""
    if chip is not None:
        return f"/dev/gpiochip{chip}"
    opener = open_chip if open_chip is not None else _gpiod_chip()
    listed = paths()
    denied: list[tuple[str, OSError]] = []
    found = header_chip(opener, listed, denied)
    if found is None:
        if denied:
            # Not "no header here": the header may be the very chip we were not let open.
            raise explain_chip_failure(*denied[0])
        raise no_header_chip(listed)
    return found


EdgeCallback = Callable[[int, int, int], None]  # (pin, t_ns, level)
GapCallback = Callable[[int, int, int], None]  # (pin, events lost, stamp after the gap)


class GpiodLines:
    """The buttons' lines, one libgpiod request each (so each has the kernel's largest buffer
    to itself), read by the source's own thread, which checks every line's event sequence
    numbers: the edge goes from the kernel to the debouncer with no thread hand-off between.

    ``open_chip`` is the seam: ``gpiod.Chip`` on the Pi; tests pass a model of the kernel's
    GPIO character device with the same public methods."""

    def __init__(
        self, path: str, pins: Sequence[int], *, open_chip: Callable[[str], Any] | None = None
    ) -> None:
        import gpiod
        from gpiod.line import Bias, Direction, Edge

        opener = open_chip if open_chip is not None else gpiod.Chip
        self._rising = gpiod.EdgeEvent.Type.RISING_EDGE
        self.path = path
        self._requests: dict[int, Any] = {}
        self._last_seq: dict[int, int] = {}
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._poller = select.poll()
        self._poller.register(self._wake_r, select.POLLIN)
        self._by_fd: dict[int, tuple[int, Any]] = {}
        settings = gpiod.LineSettings(direction=Direction.INPUT, edge_detection=Edge.BOTH, bias=Bias.PULL_UP)
        try:
            chip = opener(path)
        except OSError as exc:
            self._close_pipe()
            raise explain_chip_failure(path, exc) from exc
        try:
            for pin in pins:
                req = chip.request_lines(
                    {pin: settings}, consumer=CONSUMER, event_buffer_size=MAX_EVENT_BUFFER
                )
                self._requests[pin] = req
                self._last_seq[pin] = 0  # the kernel numbers a line's events from 1
                self._by_fd[req.fd] = (pin, req)
                self._poller.register(req.fd, select.POLLIN | select.POLLPRI)
        except (OSError, ValueError) as exc:
            self.close()
            raise GpioLineError(pin, exc) from exc
        finally:
            chip.close()

    def level(self, pin: int) -> int:
        return int(self._requests[pin].get_value(pin).value)

    def wait(self, timeout_s: float) -> list[tuple[int, int]]:
        """The lines' fds with events, after at most ``timeout_s``; empty on a ``wake()``."""
        ready = self._poller.poll(max(0, int(timeout_s * 1000 + 0.999)))
        if len(ready) == 1 and ready[0][0] != self._wake_r:
            return ready  # the common case: one button's edge
        out = []
        for fd, ev in ready:
            if fd == self._wake_r:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 4096)
            else:
                out.append((fd, ev))
        return out

    def wake(self) -> None:
        """Ends a ``wait`` now (a flush or a stop is waiting on the source's thread)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"w")

    def read(self, ready: list[tuple[int, int]], on_edge: EdgeCallback, on_gap: GapCallback) -> None:
        """Every event of the ready lines until each is empty, in the kernel's order, as
        on_edge(pin, t_ns, level); a gap in a line's sequence numbers first as
        on_gap(pin, lost, stamp after the gap).

        One read returns at most what libgpiod's buffer holds (64 events unless asked for more:
        we ask for the kernel's whole buffer); a read that returns fewer than asked for found
        the kernel's buffer empty (linereq_read copies out events while there are some and
        they fit). One that returns as many may have left some: the line is polled before it is
        read again, as a read of an empty buffer blocks."""
        by_fd, last_seq, rising = self._by_fd, self._last_seq, self._rising
        want = MAX_EVENT_BUFFER
        for fd, _ in ready:
            pin, req = by_fd[fd]
            last = last_seq[pin]
            while True:
                events = req.read_edge_events(want)
                for ev in events:
                    seq = ev.line_seqno
                    if seq != last + 1:
                        # The kernel drops the oldest events of a full buffer: say how many went.
                        on_gap(pin, seq - last - 1, ev.timestamp_ns)
                    last = seq
                    on_edge(pin, ev.timestamp_ns, 1 if ev.event_type is rising else 0)
                if len(events) < want or not select.select((fd,), (), (), 0)[0]:
                    break
            last_seq[pin] = last

    def close(self) -> None:
        for req in self._requests.values():
            with contextlib.suppress(Exception):
                req.release()
        self._requests.clear()
        self._by_fd.clear()
        self._close_pipe()

    def _close_pipe(self) -> None:
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1


class ButtonPinError(ConfigError):
    """A button's pin that cannot be requested (taken, or not on this chip): names the button."""

    def __init__(self, button: ButtonPin, exc: BaseException) -> None:
        en, fr = button.label()
        super().__init__(
            f"GPIO{button.pin} for {en} cannot be used ({exc}); pick another pin in the pin map.",
            f"GPIO{button.pin} pour {fr} est inutilisable ({exc}) ; choisissez une autre broche "
            "dans le plan de câblage.",
        )
        self.button = button
        self.cause = exc


class GpioLineError(ConfigError):
    def __init__(self, pin: int, exc: BaseException) -> None:
        if getattr(exc, "errno", None) == errno.EBUSY:
            # The line is fine, another program holds it: most often the table's own service,
            # still running while someone tries `companion buttons` or `--assign`.
            super().__init__(
                f"GPIO{pin} is held by another program, most likely the companion's service: "
                "sudo systemctl stop companion, then run the command again "
                "(sudo systemctl start companion after).",
                f"GPIO{pin} est tenue par un autre programme, sans doute le service du companion : "
                "sudo systemctl stop companion, puis relancez la commande "
                "(sudo systemctl start companion ensuite).",
            )
        else:
            super().__init__(
                f"GPIO{pin} cannot be used ({exc}); pick another pin in the pin map.",
                f"GPIO{pin} est inutilisable ({exc}) ; choisissez une autre broche dans le plan de câblage.",
            )
        self.pin = pin


def ticks_to_ns(ticks: int | float) -> int:
    """Our pins hand over integer ns; gpiozero's own pins hand over float seconds."""
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
_ASK = object()  # in the inbox: the main loop asked for a watermark (wakes the gpiozero path)
_GAP = object()  # in a batch's edges: the kernel dropped that line's edges up to this stamp


class GpioSource:
    """Debounced, kernel-stamped presses from buttons between a GPIO pin and ground.

    The lines come from ``lines`` (a ``GpiodLines``: libgpiod on the Pi, a model of the kernel
    in tests) or, for tests and other backends, from a gpiozero ``pin_factory`` such as
    ``MockFactory`` through gpiozero's public pin API. ``now_ns`` reads the clock the edges are
    stamped with; tests inject their own.
    """

    name = "gpio"

    def __init__(
        self,
        buttons: Sequence[ButtonPin],
        *,
        pin_factory: Any = None,
        lines: GpiodLines | None = None,
        settings: DebounceSettings | None = None,
        now_ns: Callable[[], int] = time.monotonic_ns,
        clock: Clock = GPIO_CLOCK,
        delivery_margin_ns: int = DEFAULT_DELIVERY_MARGIN_NS,
    ) -> None:
        if (pin_factory is None) == (lines is None):
            raise TypeError("GpioSource takes either lines or a pin_factory")
        self.buttons = tuple(buttons)
        self.owned_factory: Any = None  # a factory or lines opened for this source, closed on stop
        self.settings = settings if settings is not None else DebounceSettings()
        self.clock = clock
        self._now_ns = now_ns
        self._margin = delivery_margin_ns
        # The watermark (docs/architecture.md, "Event time"): written by the reading thread
        # after its puts, read by the main loop; one reference, swapped whole.
        self._seats = tuple(b.seat for b in self.buttons if b.role == "seat")
        self._promise = Promise(self.name, None, True, self._seats)
        self._watermark = -1  # the latest promised, on the reader's side
        self._asked = -1  # the latest instant the main loop asked about
        self._held_from: int | None = None  # the earliest decision held back (see _decider)
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._handlers = [_EdgeHandler(i, self._inbox) for i in range(len(self.buttons))]
        self._debouncers: list[Debouncer] = []
        self._dues: list[int | None] = []  # each debouncer's next deadline, kept by the decider
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._events: queue.Queue[QueueItem] | None = None
        self._devices: list[Any] = []
        self._lines = lines
        self._index_of_pin = {b.pin: i for i, b in enumerate(self.buttons)}
        if lines is not None:
            return
        from gpiozero import GPIOZeroError, InputDevice

        # Claim every pin now, so a wrong pin fails before anything has started.
        try:
            for b in self.buttons:
                self._devices.append(InputDevice(b.pin, pull_up=True, pin_factory=pin_factory))
        except GPIOZeroError as exc:
            self._close_devices()
            raise ButtonPinError(b, exc) from exc

    # -- Promising: the source's watermark --------------------------------------------------

    @property
    def lateness_ns(self) -> int:
        """How long after an instant a healthy reader's watermark has passed it: the glitch
        minimum after a contact's last edge, the margin behind the clock, and a busy Pi's
        slack (10 ms with the defaults)."""
        return self.settings.glitch_ns + self._margin + LATENESS_SLACK_NS

    def promise(self) -> Promise:
        """Every press (seat or referee button) stamped before ``watermark_ns`` is on the queue:
        the clock read before the latest reading of every line until empty, less the margin,
        held back to the first edge of a contact the debouncer has not decided yet."""
        p = self._promise
        thread = self._thread
        if thread is not None and not thread.is_alive():
            return Promise(self.name, p.watermark_ns, False, self._seats)
        return p

    def ask(self, t_ns: int) -> None:
        """Wake the reader so that it reads every line and decides now, and again when the
        clock has passed ``t_ns`` by the margin or an undecided contact's deadline comes."""
        if t_ns > self._asked:
            self._asked = t_ns
        if self._lines is not None:
            self._lines.wake()
        else:
            self._inbox.put(_ASK)

    # -- InputSource -------------------------------------------------------------------------

    def start(self, events: queue.Queue[QueueItem]) -> None:
        if self._thread is not None:
            raise RuntimeError("GpioSource already started")
        self._events = events
        now = self._now_ns()
        lines = self._lines
        levels = self.levels()
        self._debouncers = [Debouncer(self.settings, active=not level, t_ns=now) for level in levels]
        for b, d in zip(self.buttons, self._debouncers, strict=True):
            if d.stuck:
                events.put(self._stuck_status(b))
        if lines is None:
            for dev, handler in zip(self._devices, self._handlers, strict=True):
                dev.pin.edges = "both"
                dev.pin.when_changed = handler
        run = self._run if lines is None else self._run_lines
        self._thread = source_thread("gpio", run, events, name="gpio-source")
        self._thread.start()

    def stop(self) -> None:
        for dev in self._devices:
            if not dev.closed:
                dev.pin.when_changed = None
        if self._thread is not None:
            self._inbox.put(_STOP)
            if self._lines is not None:
                self._lines.wake()
            self._thread.join(timeout=5)
            self._thread = None
        self._close_devices()
        if self._lines is not None:
            self._lines.close()
        if self.owned_factory is not None:
            self.owned_factory.close()
            self.owned_factory = None

    # -- for the wiring monitor and tests --------------------------------------------------

    def levels(self) -> list[int]:
        """Each button's line now, 1 open (pulled up) and 0 closed: what the debouncers start
        from, and what ``companion doctor`` shows."""
        if self._lines is not None:
            return [self._lines.level(b.pin) for b in self.buttons]
        return [int(dev.pin.state) for dev in self._devices]

    def now_ns(self) -> int:
        """The current time on the clock this source stamps with."""
        return self._now_ns()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every edge delivered so far, and every deadline due now, is decided."""
        barrier = _Barrier()
        self._inbox.put(barrier)
        if self._lines is not None:
            self._lines.wake()
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
        deadlines = [d for d in self._dues if d is not None]
        if self._asked >= self._watermark:
            deadlines.append(self._asked)
        if self._held_from is not None:
            deadlines.append(self._held_from)
        if not deadlines:
            return 1.0
        wait_ns = min(deadlines) + self._margin - self._now_ns()
        return min(max(wait_ns, 0) / 1e9, 1.0)

    def _run(self) -> None:
        # gpiozero's backends (MockFactory): their callback threads hand edges over the inbox.
        inbox = self._inbox
        get, get_nowait, empty = inbox.get, inbox.get_nowait, inbox.empty
        now_ns, margin = self._now_ns, self._margin
        decide = self._decider()
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
            for x in batch:
                if type(x) is tuple:
                    index, ticks, state = x
                    edges.append((index, ticks if type(ticks) is int else ticks_to_ns(ticks), state))
            if decide(edges, horizon, [x for x in batch if type(x) is not tuple]):
                return

    def _run_lines(self) -> None:
        # libgpiod: this thread waits on the lines' fds itself, reads the kernel's events and
        # decides, so an edge reaches the queue without a hand-off to another thread (it was
        # one more wake-up on a busy Pi: bench/gpio.py, "gpio.kernel_to_queue_us").
        lines = self._lines
        assert lines is not None
        inbox = self._inbox
        get_nowait, empty = inbox.get_nowait, inbox.empty
        now_ns, margin = self._now_ns, self._margin
        index_of = self._index_of_pin
        decide = self._decider()
        edges: list[tuple[int, int, Any]] = []
        others: list[Any] = []
        add_edge, add_other = edges.append, others.append

        def on_edge(pin: int, t_ns: int, level: int) -> None:
            add_edge((index_of[pin], t_ns, level))

        def on_gap(pin: int, lost: int, t_ns: int) -> None:
            add_other(_Gap(index_of[pin], lost, t_ns))
            add_edge((index_of[pin], t_ns, _GAP))  # in stamp order, just before the edge kept

        wait, read = lines.wait, lines.read
        while True:
            ready = wait(self._timeout())
            if ready:
                read(ready, on_edge, on_gap)
            # Flushes and stop before the clock: a flush put before it is answered by a step
            # that decided up to a clock read after it.
            while not empty():
                add_other(get_nowait())
            # The clock after those reads, then every line read again until empty: an edge
            # stamped before this instant is read now (it reached its line's buffer while we
            # read the others, or while this thread was held up), unless its interrupt thread
            # had not queued it yet (the margin). Deciding up to a clock read before the reads
            # (or after the ready lines were taken) passed edges still in the kernel: a brush
            # became a press, and a later press on one line was queued before earlier ones.
            horizon = now_ns() - margin
            ready = wait(0)
            if ready:
                read(ready, on_edge, on_gap)
            if decide(edges, horizon, others):
                return
            edges.clear()
            others.clear()

    def _decider(self) -> Callable[[list[tuple[int, int, Any]], int, list[Any]], bool]:
        """One step of the loop: the edges (index, t_ns, level) and the rest (gaps, flushes,
        stop) of one batch, decided up to ``horizon`` and put on the queue; True to stop."""
        # This is the edge-to-queue latency (bench/gpio.py, "gpio.kernel_to_queue_us"): locals
        # instead of attribute look-ups, each line's next deadline kept in ``dues`` (updated when
        # its debouncer changes) so that an edge polls no other line that has nothing due, the
        # late count looked at for the lines that had edges only, and sorting only when a batch
        # decides more than one thing.
        assert self._events is not None
        put = self._events.put
        lock = self._lock
        debouncers = self._debouncers
        dues = self._dues
        dues[:] = [d.next_deadline() for d in debouncers]
        lines = range(len(debouncers))
        to_item = self._to_item
        gap_status = self._gap_status
        late_status = self._late_status
        reported_late = [0] * len(debouncers)
        last_horizon = [0]  # decided up to there: edges the kernel dropped are later
        # Decisions stamped at or after the watermark, held until it passes them: past the
        # horizon (an edge read after the clock decided an earlier candidate of its line),
        # another line's edge stamped before them may still be in the kernel; past another
        # line's undecided contact, that contact may still be a press stamped before them (a
        # press that bounces longer is decided later). So the queue is in stamp order.
        held: list[tuple[int, Decision]] = []
        name, seats = self.name, self._seats
        watermark = [self._watermark]
        # A contact still undecided this long after its first edge is a fault (a line that
        # chatters for ever), not a press in the making: it holds nothing back any more (if it
        # ever is a press, it is a late one, and said so by the main loop).
        give_up = self.settings.lockout_ns

        def decide(edges: list[tuple[int, int, Any]], horizon: int, others: list[Any]) -> bool:
            stop = False
            barriers: list[_Barrier] = []
            for x in others:
                if x is _STOP:
                    stop = True
                elif type(x) is _Gap:
                    put(gap_status(x))
                elif x is not _ASK:
                    barriers.append(x)
            if len(edges) > 1:
                # Lines are read one after the other: order by stamp, not by arrival.
                edges.sort(key=_second)
            out: list[tuple[int, Decision]] = []
            late: list[int] = []
            with lock:
                for index, t_ns, state in edges:
                    d = debouncers[index]
                    if state is _GAP:
                        # The kernel dropped this line's edges since the last read: decide
                        # nothing from the level they would have changed (Debouncer.blind).
                        d.blind(last_horizon[0], t_ns)
                    else:
                        for dec in d.edge(t_ns, not state):
                            out.append((index, dec))
                        if d.late != reported_late[index]:
                            reported_late[index] = d.late
                            late.append(index)
                    dues[index] = d.next_deadline()
                for index in lines:
                    due = dues[index]
                    if due is not None and due <= horizon:
                        d = debouncers[index]
                        for dec in d.poll(horizon):
                            out.append((index, dec))
                        dues[index] = d.next_deadline()
                # What a press not decided yet could be stamped: the watermark stops there.
                mark = horizon
                for d in debouncers:
                    u = d.undecided_press_ns()
                    if u is not None and u < mark and u > horizon - give_up:
                        mark = u
            last_horizon[0] = horizon
            if held:
                out += held
                held.clear()
            if len(out) > 1:
                out.sort(key=_stamp_of)
            self._held_from = None
            if out and _stamp_of(out[-1]) >= mark:
                k = next(i for i, x in enumerate(out) if _stamp_of(x) >= mark)
                held.extend(out[k:])
                del out[k:]
                # Woken when the horizon can pass the first held past it; those held for an
                # undecided contact are released at its deadline (in ``dues`` already).
                self._held_from = next((s for s in map(_stamp_of, held) if s >= horizon), None)
            for index, dec in out:
                put(to_item(index, dec))
            for index in late:
                put(late_status(index))
            # Published after the puts: a loop that reads the promise and then drains the queue
            # has every press it covers (held decisions are at or after it).
            if mark > watermark[0]:
                watermark[0] = self._watermark = mark
                self._promise = Promise(name, mark, True, seats)
            for b in barriers:
                b.done.set()
            return stop

        return decide

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
    open_chip: Callable[[str], Any] | None = None,
    paths: Callable[[], list[str]] = chip_paths,
) -> GpioSource:
    """A GPIO source whose lines are requested through libgpiod on the header's chip, or on
    ``pin_factory`` when it is one of gpiozero's backends (``MockFactory``); the seat LEDs'
    lines (``led_lines.LedLines``) only tell which chip. Nothing is left claimed on error."""
    buttons = list(buttons)
    if pin_factory is not None and not getattr(pin_factory, "buttons_through_gpiod", False):
        return GpioSource(buttons, pin_factory=pin_factory, settings=settings)
    if pin_factory is not None:
        path = str(pin_factory.chip_path)
    else:
        path = find_header_chip(chip, open_chip=open_chip, paths=paths)
    if open_chip is None and not gpiod_available():
        raise HardwareError(NO_GPIOD_EN, NO_GPIOD_FR)
    try:
        lines = GpiodLines(path, [b.pin for b in buttons], open_chip=open_chip)
    except GpioLineError as exc:
        b = next(b for b in buttons if b.pin == exc.pin)
        cause = exc.__cause__ if exc.__cause__ is not None else exc
        raise ButtonPinError(b, cause) from exc.__cause__
    try:
        return GpioSource(buttons, lines=lines, settings=settings)
    except BaseException:
        lines.close()
        raise


def _second(item: tuple[Any, ...]) -> Any:
    return item[1]


def _stamp_of(item: tuple[int, Decision]) -> int:
    return _stamp(item[1])


def _stamp(dec: Decision) -> int:
    if type(dec) is Transition:
        return dec.t_ns
    if isinstance(dec, Stuck):
        return dec.decided_ns
    assert isinstance(dec, Unstuck)
    return dec.t_ns
