"""Button presses from the Pico button board over USB serial (pyserial), per docs/protocol.md.

The source keeps the link alive by itself: after an unplug or a board reset it reopens the
port, handshakes again and asks the board for every event it missed, so no press is lost while
the board kept power. The game hears about it through SourceStatus items on the queue.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.errors import HardwareError
from companion.i18n import referee_name
from companion.inputs import protocol as p
from companion.inputs.base import Clock, InputEvent, Promise, QueueItem, SourceStatus, source_thread
from companion.inputs.clocks import Offset
from companion.text import Text

PICO_VID = 0x2E8A
BAUDRATE = 115_200  # ignored by USB CDC, but pyserial wants one
READ_TIMEOUT_S = 0.05
HANDSHAKE_TIMEOUT_S = 1.5
# The board clock is tied to the host's by the heartbeats and MARKs of the last 5 s (20
# heartbeats); a full-speed USB frame is 1 ms, the spread of how late a heartbeat can be read.
# A window of time, not of samples: while the table waits the host asks every 2 ms, and a reader
# held up 80 ms then reads forty delayed MARKs at once, which a window of the last 20 samples
# took for the offset (80 ms off, and the watermark with it).
OFFSET_WINDOW_NS = 5_000_000_000
USB_OFFSET_UNCERTAINTY_NS = 1_000_000

# The board sends a heartbeat every 250 ms; this much silence means it is gone.
SILENCE_TIMEOUT_S = 1.0
RETRY_S = 0.2
RESEND_RETRY_S = 0.5
# The board's watermark (docs/decisions.md, "Event time"). Firmware 0.3.0 answers ASK at once
# with its clock held back to its undecided contacts; while the table waits past that, it is
# asked again this often.
ASK_GAP_S = 0.002
ASKS_FROM: tuple[int, int, int] = (0, 3, 0)
# How long after an instant the board's watermark passes it: a contact closing just before it
# is decided 2 ms later (the glitch minimum), but one closing inside a release's lockout only at
# the lockout's end (30 ms); then a USB round trip and a pass of the board's loop.
ASK_MARGIN_NS = 5_000_000
# An older board is heard only through its heartbeats (every 250 ms, HEARTBEAT_S): all it says
# is that every event before next_seq was sent, and any contact still undecided then will be
# stamped no earlier than lockout + glitch before the heartbeat (rule 4 of the debounce), less
# a margin for the capture's lag.
HEARTBEAT_S = 0.25
HEARTBEAT_HOLD_MARGIN_US = 1_000
# The LED state is sent again this often: after a reconnect nothing is assumed of the board, and
# the board's watchdog (firmware/buttonboard.py, HOST_SILENT_US) hears the host is alive.
LED_REFRESH_S = 1.0


class BoardMissing(HardwareError):
    """No board on USB (yet): waited for, like a board that was unplugged."""


class SerialPort(Protocol):
    """What we use of a pyserial port (``serial.Serial``, ``serial_for_url(...)``)."""

    timeout: float | None

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


PortFactory = Callable[[], SerialPort]


def _serial() -> Any:
    try:
        import serial
    except ImportError as e:
        from companion.advice import pip_install

        raise HardwareError(
            "serial_source.serial",
            pip=pip_install("serial"),
        ) from e
    return serial


def find_board_port() -> str | None:
    """The device of the first USB serial port with the Raspberry Pi VID (2E8A), if any."""
    from serial.tools import list_ports

    ports = [pt for pt in list_ports.comports() if pt.vid == PICO_VID]
    # MicroPython's own PID first: a Pico in BOOTSEL mode is not a serial port anyway.
    ports.sort(key=lambda pt: (pt.pid != 0x0005, pt.device))
    return str(ports[0].device) if ports else None


def open_error(port: str, e: BaseException) -> HardwareError:
    """One sentence with the fix, for a port that cannot be opened."""
    code = getattr(e, "errno", None)
    if isinstance(e, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return HardwareError(
            "serial_source.permission_denied_add",
            port=port,
        )
    if isinstance(e, FileNotFoundError) or code == errno.ENOENT:
        return HardwareError(
            "serial_source.does_exist_plug",
            port=port,
        )
    if code == errno.EBUSY:
        return HardwareError(
            "serial_source.busy_close_other",
            port=port,
        )
    return HardwareError(
        "serial_source.open_error",
        port=port,
        e=e,
    )


def foreign_version_error(port: str, version: int) -> HardwareError:
    ours = p.PROTOCOL_VERSION
    if version < ours:
        return HardwareError(
            "serial_source.foreign_version_error",
            port=port,
            version=version,
            ours=ours,
        )
    from companion.advice import pip_upgrade

    upgrade_en, upgrade_fr = pip_upgrade()
    upgrade = Text.pair(en=upgrade_en, fr=upgrade_fr)
    return HardwareError("serial.newer_firmware", port=port, version=version, ours=ours, upgrade=upgrade)


def not_our_board_error(port: str) -> HardwareError:
    return HardwareError(
        "serial_source.not_our_board_error",
        port=port,
    )


def handshake(
    port: SerialPort, name: str, timeout_s: float = HANDSHAKE_TIMEOUT_S
) -> tuple[p.Hello, p.FrameParser, list[p.BoardMessage]]:
    """Ask the board who it is. Raises HardwareError for a foreign protocol or a silent port.

    Returns the hello, the parser (it may hold a partial frame) and what came after the hello.
    """
    port.reset_input_buffer()
    parser = p.FrameParser()
    deadline = time.monotonic() + timeout_s
    next_ask = 0.0
    while True:
        now = time.monotonic()
        if now >= deadline:
            raise not_our_board_error(name)
        if now >= next_ask:
            # Asked again in case the board was still starting and missed the first request.
            port.write(p.encode_command(p.HelloRequest()))
            next_ask = now + 0.3
        data = port.read(max(1, port.in_waiting))
        msgs = parser.feed(data)
        for i, msg in enumerate(msgs):
            if isinstance(msg, p.ForeignHello):
                raise foreign_version_error(name, msg.protocol)
            if isinstance(msg, p.Hello):
                return msg, parser, msgs[i + 1 :]


class SerialSource:
    """An InputSource for the Pico board.

    Give it a port name or URL (``/dev/ttyACM0``, ``loop://``...), or a ``port_factory`` that
    returns an open pyserial port (the seam the tests use), or neither to find the board by its
    USB vendor id.
    """

    name = "serial"

    @classmethod
    def from_config(cls, config: Any, n_seats: int | None = None, **options: Any) -> SerialSource:
        """The port from ``options`` (``port=``), else the config's ``[serial] port``, else found
        by USB id."""
        options.setdefault("port", config.serial.port)
        return cls(n_seats=n_seats, **options)

    def __init__(
        self,
        port: str | None = None,
        *,
        port_factory: PortFactory | None = None,
        silence_timeout_s: float = SILENCE_TIMEOUT_S,
        handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
        wait_for_board: bool = False,
        n_seats: int | None = None,
        resume_from: Callable[[str], int | None] | None = None,
    ) -> None:
        if port_factory is None:
            _serial()  # fail now, with the fix, if pyserial is missing
        self._port_name = port
        self._device: str | None = None
        self._factory = port_factory
        self._silence_s = silence_timeout_s
        self._handshake_s = handshake_timeout_s
        self._events: queue.Queue[QueueItem] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._port: SerialPort | None = None
        self._write_lock = threading.Lock()
        self._parser = p.FrameParser()
        self.hello: p.Hello | None = None
        self.clock: Clock | None = None
        self._expected = 0
        self._resend_pending_since: float | None = None
        self._last_rx = 0.0
        self._leds = p.SetLeds(0, 0)
        self._pings: dict[int, tuple[float, threading.Event, list[float]]] = {}
        self._last_error: str | None = None
        self._error_said = False
        self.reconnects = 0
        self.lost = 0
        self.bad_frames = 0
        self.lost_edges = 0  # edges the board's capture could not keep (its heartbeat says)
        # (arrival, host-minus-board offset) of the heartbeats and MARKs of the board's current
        # boot in the last OFFSET_WINDOW_NS, only those smaller than every later one (the others
        # can no longer be the smallest), so the first is the offset (see clock_offset); a
        # reboot starts the list again, so two boots never mix. Replaced whole, never changed in
        # place: the main loop reads it while the reader thread adds to it.
        self._hb_offsets: list[tuple[int, int]] = []
        self._past_offsets: dict[str, Offset] = {}  # the last offset of each earlier boot
        self._leds_at = 0.0  # when the LED state was last sent
        # A game waits for a board that is not there yet; a one-off check (``companion
        # buttons``) says at once that it is missing.
        self.wait_for_board = wait_for_board
        self.missing_at_start = False
        self._n_seats = n_seats
        # A resumed game's last position in a board's stream (``InputEvent.resume_at``): its
        # first connection asks for every event after it instead of starting from the board's
        # next one (docs/decisions.md, "Resume").
        self._resume_from = resume_from
        # The watermark on the table clock (Promise), and what makes it move: the MARK awaited
        # until every event before it is on the queue, and the instant the table waits for.
        self._watermark_ns: int | None = None
        self._held_mark: tuple[int, int] | None = None  # (next_seq, watermark_ns)
        self._wanted_ns: int | None = None
        self._asked_at = 0.0
        self._fast = False  # the read timeout is ASK_GAP_S while the table waits on us
        self.asks = 0
        self.marks = 0

    # -- InputSource --------------------------------------------------------------------------

    def start(self, events: queue.Queue[QueueItem]) -> None:
        """Connect once (so that a wrong port or firmware fails here, clearly), then read.

        A board that is not there yet (plugged in, or enumerated, a moment after the kiosk
        started) is waited for, with ``wait_for_board``, as one that was unplugged: the table is
        told, and the reader connects when it appears."""
        self._events = events
        try:
            self._connect(first=True)
        except HardwareError as e:
            if not (self.wait_for_board and _absent(e)):
                raise
            self.missing_at_start = True
            self._status(
                "disconnected",
                f"{e.en.rstrip('.')}; waiting for it.",
                f"{e.fr.rstrip('.')} ; en attente.",
            )
        self._thread = source_thread(self.name, self._run, events, name="serial-source")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        # The last LED state (the "off" of a quit) once more while the port is open; if the link
        # is down, the board's watchdog turns its LEDs off when it stops hearing us.
        self._send(self._leds)
        self._close()

    # -- what the game may ask of the board ---------------------------------------------------

    def set_leds(self, on_mask: int, blink_mask: int = 0) -> None:
        """Light (bit i = seat i) and blink LEDs; remembered and sent again after a reconnect."""
        self._leds = p.SetLeds(on_mask & 0xFFFF, blink_mask & 0xFFFF)
        self._send(self._leds)

    def ping(self, timeout_s: float = 1.0) -> float | None:
        """Round-trip time to the board in seconds, or None if it did not answer in time."""
        nonce = random.getrandbits(32)
        done = threading.Event()
        box: list[float] = []
        self._pings[nonce] = (time.monotonic(), done, box)
        try:
            if not self._send(p.Ping(nonce)):
                return None
            return box[0] if done.wait(timeout_s) else None
        finally:
            self._pings.pop(nonce, None)

    def clock_offset(self, clock: Clock | None = None) -> Offset | None:
        """Board clock to CLOCK_MONOTONIC, from recent heartbeats of the boot ``clock`` belongs
        to (the current one by default); None before its first heartbeat.

        Lets the serial source be combined with others (``serial+sim``, ``gpio+serial``): USB
        delivery jitter is the uncertainty, so presses of two sources closer than it tie."""
        current = self.clock
        if clock is not None and current is not None and clock.epoch != current.epoch:
            return self._past_offsets.get(clock.epoch)
        seen = self._hb_offsets
        if not seen:
            return None
        return Offset(seen[0][1], USB_OFFSET_UNCERTAINTY_NS)

    def _tie(self, board_us: int) -> None:
        """A heartbeat or MARK stamped ``board_us`` arrives now: one more (arrival - board time)."""
        now = time.monotonic_ns()
        offset = now - board_us * 1000
        since = now - OFFSET_WINDOW_NS
        kept = [x for x in self._hb_offsets if x[0] >= since and x[1] < offset]
        kept.append((now, offset))
        self._hb_offsets = kept

    @property
    def connected(self) -> bool:
        return self._port is not None

    # -- Promising (docs/decisions.md, "Event time") ---------------------------------------

    @property
    def answers_ask(self) -> bool:
        """Whether the board answers ASK (firmware 0.3.0 on): an older one promises only at its
        heartbeats, a quarter of a second apart."""
        return self.hello is not None and tuple(self.hello.firmware) >= ASKS_FROM

    @property
    def lateness_ns(self) -> int:
        hello = self.hello
        lockout_us, glitch_us = (hello.lockout_us, hello.glitch_us) if hello else (30_000, 2_000)
        late = (lockout_us + glitch_us) * 1000 + ASK_MARGIN_NS
        if hello is not None and not self.answers_ask:
            late += int(HEARTBEAT_S * 1e9) + HEARTBEAT_HOLD_MARGIN_US * 1000
        return late

    def seats(self) -> tuple[int, ...]:
        """The seats this board's buttons are: named on screen when it cannot promise."""
        n = len(self.hello.seat_pins) if self.hello is not None else (self._n_seats or 0)
        if self._n_seats is not None:
            n = min(n, self._n_seats)
        return tuple(range(n))

    def promise(self) -> Promise:
        """Every press of this board stamped (on the table clock) before ``watermark_ns`` is on
        the queue. Not live while the link is down: a decision then goes on without the board,
        its seats named, and what the board replays on reconnect keeps its stamps."""
        return Promise(self.name, self._watermark_ns, self._port is not None, self.seats())

    def ask(self, t_ns: int) -> None:
        """Make the watermark pass ``t_ns`` (table clock) as soon as the board can: ASK now, and
        again every ASK_GAP_S from the reader while it has not. Never blocks on the board."""
        w = self._watermark_ns
        if w is not None and w > t_ns:
            return
        wanted = self._wanted_ns
        if wanted is None or t_ns > wanted:
            self._wanted_ns = t_ns
        if time.monotonic() - self._asked_at >= ASK_GAP_S:
            self._send_ask()

    def _send_ask(self) -> None:
        if self._port is None or not self.answers_ask:
            return  # an older board: its next heartbeat moves the watermark
        self._asked_at = time.monotonic()
        self.asks += 1
        self._send(p.Ask(random.getrandbits(32)))

    def _to_table(self, t_us: int) -> int | None:
        """A stamp of the board's current boot on the table clock, or None before the first
        heartbeat or MARK tied the two clocks."""
        offset = self.clock_offset()
        return None if offset is None else t_us * 1000 + offset.offset_ns

    def _promised(self, board_us: int, next_seq: int) -> None:
        """The board says no press it has not sent will be stamped before ``board_us``, and sent
        every event before ``next_seq``: published once those are all on the queue."""
        at = self._to_table(board_us)
        offset = self.clock_offset()
        if at is None or offset is None or self.clock is None:
            return
        # Less the mapping's uncertainty (a later, tighter offset maps a press up to that much
        # earlier) and the stamps' resolution.
        w = at - offset.uncertainty_ns - self.clock.resolution_ns
        if self._expected >= next_seq:
            self._publish(w)
        else:
            # Events before next_seq are still to come (a resend): the promise waits for them.
            held = self._held_mark
            if held is None or w > held[1]:
                self._held_mark = (max(next_seq, held[0] if held else 0), w)

    def _release_held(self) -> None:
        held = self._held_mark
        if held is not None and self._expected >= held[0]:
            self._held_mark = None
            self._publish(held[1])

    def _publish(self, w: int) -> None:
        if self._watermark_ns is None or w > self._watermark_ns:
            self._watermark_ns = w
        wanted = self._wanted_ns
        if wanted is not None and self._watermark_ns > wanted:
            self._wanted_ns = None

    # -- link ---------------------------------------------------------------------------------

    @staticmethod
    def stream(clock: Clock) -> str:
        """The name of one boot's stream of events, as ``InputEvent.resume_at`` gives it."""
        return f"{clock.name}@{clock.epoch}"

    def _describe(self) -> str:
        return self._device or self._port_name or "USB"

    def _open(self) -> SerialPort:
        if self._factory is not None:
            try:
                port = self._factory()
            except OSError as e:
                raise open_error(self._describe(), e) from e
        else:
            serial = _serial()
            name = self._port_name or find_board_port()
            if name is None:
                raise BoardMissing(
                    "serial_source.open",
                )
            try:
                port = serial.serial_for_url(name, baudrate=BAUDRATE, timeout=READ_TIMEOUT_S)
            except (OSError, serial.SerialException) as e:
                raise open_error(name, e) from e
        port.timeout = READ_TIMEOUT_S
        self._device = getattr(port, "port", None) or self._device
        return port

    def _connect(self, first: bool) -> None:
        port = self._open()
        try:
            hello, parser, rest = handshake(port, self._describe(), self._handshake_s)
        except BaseException:
            _close_quietly(port)
            raise
        prev = self.hello
        self._parser = parser
        self.hello = hello
        self._take_clock(hello)
        self._set_position(prev, hello)
        self._port = port
        self._last_rx = time.monotonic()
        self._resend_pending_since = None
        if not first:
            self.reconnects += 1
        self._say_connected(hello)
        # In full, "all off" included: nothing is known of what the board shows now.
        self._send(self._leds)
        self._leds_at = time.monotonic()
        # ASK before RESEND: its answer ties the clocks (a resumed game's first offset) before
        # the events caught up are stamped on the table clock.
        self._send_ask()
        if hello.next_seq > self._expected:
            self._ask_resend()
        for msg in rest:
            self._handle(msg)

    def _take_clock(self, hello: p.Hello) -> None:
        # Each press carries the resolution its board really stamped it with: 1 µs from the PIO
        # capture, the interrupt latency (as the board states it) on the fallback path.
        # The board's clock restarts at each of its boots: the boot is the stamps' epoch.
        clock = Clock(
            name=f"pico:{hello.uid}",
            resolution_ns=max(hello.resolution_ns, 1000),
            epoch=f"pico-boot:{hello.boot_id:08x}",
        )
        if self.clock is not None and self.clock.epoch != clock.epoch:
            old = self.clock_offset()
            if old is not None:
                self._past_offsets[self.clock.epoch] = old
            self._hb_offsets = []  # an earlier boot's heartbeats say nothing of this one
        self.clock = clock

    def _set_position(self, prev: p.Hello | None, hello: p.Hello) -> None:
        """The next event expected of the board just greeted."""
        assert self.clock is not None
        if prev is None:
            # Presses from before the game started are not the game's business; a resumed
            # game's are, from the last one it journaled on (the table keeps the position).
            at = self._resume_from(self.stream(self.clock)) if self._resume_from is not None else None
            self._expected = hello.next_seq if at is None else min(at, hello.next_seq)
        elif (prev.uid, prev.boot_id) != (hello.uid, hello.boot_id):
            self._expected = 0
            self._held_mark = None  # the old boot's next_seq means nothing now
            self._status(
                "info",
                "The button board restarted: its clock starts again from zero.",
                "Le boîtier de boutons a redémarré : son horloge repart de zéro.",
            )

    def _say_connected(self, hello: p.Hello) -> None:
        fw = ".".join(map(str, hello.firmware))
        res = f"{hello.resolution_ns / 1000:g}"
        if hello.capture == "pio":
            how_en, how_fr = f"PIO capture, {res} µs", f"capture PIO, {res} µs"
        else:
            how_en = f"interrupt capture, ~{res} µs: PIO or DMA was not available"
            how_fr = f"capture par interruptions, ~{res} µs : PIO ou DMA indisponible"
        old_en = old_fr = ""
        if not self.answers_ask:
            want = ".".join(map(str, ASKS_FROM))
            old_en = (
                f" Its firmware is older than {want}: the table waits up to a quarter of a "
                "second for it before each verdict; run companion firmware install."
            )
            old_fr = (
                f" Son firmware est antérieur à {want} : la table l'attend jusqu'à un quart de "
                "seconde avant chaque verdict ; lancez companion firmware install."
            )
        self._status(
            "connected",
            f"Button board connected ({self._describe()}, firmware {fw}, {how_en}).{old_en}",
            f"Boîtier de boutons connecté ({self._describe()}, firmware {fw}, {how_fr}).{old_fr}",
        )

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            _close_quietly(port)

    def _lost_link(self) -> None:
        self._close()
        self._status(
            "disconnected",
            "Button board unplugged or not answering: waiting for it (presses made meanwhile "
            "will be caught up).",
            "Boîtier de boutons débranché ou muet : en attente (les appuis faits entre-temps "
            "seront rattrapés).",
        )

    def _send(self, cmd: p.HostCommand) -> bool:
        port = self._port
        if port is None:
            return False
        try:
            with self._write_lock:
                port.write(p.encode_command(cmd))
        except Exception:  # a dying port fails in many ways; all mean "gone"
            return False
        return True

    def _ask_resend(self) -> None:
        self._resend_pending_since = time.monotonic()
        self._send(p.Resend(self._expected))

    def _status(self, kind: Any, en: str, fr: str, seat: int | None = None) -> None:
        if self._events is not None:
            self._events.put(SourceStatus(self.name, kind, seat, en=en, fr=fr))

    # -- reader thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._port is None:
                self._reconnect()
                continue
            try:
                port = self._port
                data = port.read(max(1, port.in_waiting))
            except Exception:
                self._lost_link()
                continue
            now = time.monotonic()
            if data:
                self._last_rx = now
                for msg in self._parser.feed(data):
                    self._handle(msg)
                self.bad_frames = self._parser.bad
            elif now - self._last_rx > self._silence_s:
                self._lost_link()
                continue
            self._chores(port, now)

    def _reconnect(self) -> None:
        try:
            self._connect(first=False)
            self._last_error = None
            self._error_said = False
        except HardwareError as e:
            # A port that is not there yet is the normal wait; anything else (wrong
            # firmware, permissions) is said once, and we keep trying: it may be fixed.
            gone = _absent(e)
            # Twice in a row, so that a board caught mid-boot is not called foreign.
            if not gone and e.en == self._last_error and not self._error_said:
                self._status("error", e.en, e.fr)
                self._error_said = True
            if e.en != self._last_error:
                self._error_said = False
            self._last_error = e.en
            self._stop.wait(RETRY_S)
        except Exception:
            self._stop.wait(RETRY_S)

    def _chores(self, port: SerialPort, now: float) -> None:
        """After each read: a resend asked again, the watermark asked for, the LEDs refreshed."""
        if self._resend_pending_since is not None and now - self._resend_pending_since > RESEND_RETRY_S:
            self._ask_resend()
        self._keep_asking(port, now)
        if now - self._leds_at > LED_REFRESH_S:
            self._leds_at = now
            self._send(self._leds)

    def _keep_asking(self, port: SerialPort, now: float) -> None:
        """While the table waits for the watermark to pass an instant, ask again every
        ASK_GAP_S (a contact the board has not decided yet holds it back for a few ms), reading
        with that timeout meanwhile."""
        waiting = self._wanted_ns is not None and self.answers_ask
        if waiting and now - self._asked_at >= ASK_GAP_S:
            self._send_ask()
        if waiting != self._fast:
            self._fast = waiting
            with contextlib.suppress(Exception):  # a dying port: the next read says so
                port.timeout = ASK_GAP_S if waiting else READ_TIMEOUT_S

    def _handle(self, msg: p.BoardMessage) -> None:
        if isinstance(msg, p.Event):
            self._on_event(msg)
        elif isinstance(msg, p.Heartbeat):
            self._on_heartbeat(msg)
        elif isinstance(msg, p.Mark):
            self._on_mark(msg)
        elif isinstance(msg, p.ResendDone):
            self._on_resend_done(msg)
        elif isinstance(msg, p.Pong):
            waiter = self._pings.get(msg.nonce)
            if waiter is not None:
                sent, done, box = waiter
                box.append(time.monotonic() - sent)
                done.set()

    def _on_event(self, msg: p.Event) -> None:
        if msg.seq < self._expected:
            return  # already delivered (a resend overlapping live events)
        if msg.seq > self._expected:
            # A frame was lost on the way: hold nothing, ask again from the gap.
            if self._resend_pending_since is None:
                self._ask_resend()
            return
        self._expected += 1
        self._deliver(msg)
        self._release_held()

    def _on_heartbeat(self, msg: p.Heartbeat) -> None:
        # USB only ever delays a heartbeat: the smallest recent (arrival - board time) is
        # the best offset; a short window follows the crystals' drift (tens of ppm).
        self._tie(msg.t_us)
        if msg.next_seq > self._expected and self._resend_pending_since is None:
            self._ask_resend()
        hello = self.hello
        if hello is not None:
            hold = hello.lockout_us + hello.glitch_us + HEARTBEAT_HOLD_MARGIN_US
            self._promised(msg.t_us - hold, msg.next_seq)
        if msg.lost > self.lost_edges:
            n = msg.lost - self.lost_edges
            self.lost_edges = msg.lost
            self._status(
                "error",
                f"{n} button edges were lost on the board (its main loop fell too far "
                "behind): a press may be missing.",
                f"{n} fronts de boutons perdus sur le boîtier (sa boucle principale a pris "
                "trop de retard) : un appui peut manquer.",
            )

    def _on_mark(self, msg: p.Mark) -> None:
        # An answer is a heartbeat too (its arrival ties the clocks), then the promise.
        self.marks += 1
        self._tie(msg.t_us)
        if msg.next_seq > self._expected and self._resend_pending_since is None:
            self._ask_resend()
        self._promised(msg.watermark_us, msg.next_seq)

    def _on_resend_done(self, msg: p.ResendDone) -> None:
        self._resend_pending_since = None
        if msg.first > self._expected:
            n = msg.first - self._expected
            self.lost += n
            self._expected = msg.first
            self._status(
                "error",
                f"{n} button events were lost: the board was away too long to keep them.",
                f"{n} événements de boutons perdus : le boîtier est resté absent trop "
                "longtemps pour les garder.",
            )
            self._release_held()

    def _deliver(self, ev: p.Event) -> None:
        assert self._events is not None and self.clock is not None
        if ev.kind in ("press", "release"):
            self._events.put(
                InputEvent(
                    role=ev.role,
                    seat=ev.index,
                    edge="press" if ev.kind == "press" else "release",
                    t_ns=ev.t_us * 1000,
                    clock=self.clock,
                    source=self.name,
                    # A press replayed after an outage is mapped with its boot's offset, kept
                    # across the outage: it keeps its place among the table's decisions.
                    table_ns=self._to_table(ev.t_us),
                    resume_at=(self.stream(self.clock), ev.seq + 1),
                )
            )
            return
        who_en = f"seat {ev.index + 1}" if ev.role == "seat" else f"the {ev.role} button"
        who_fr = f"la place {ev.index + 1}" if ev.role == "seat" else f"l'arbitre « {referee_name(ev.role)} »"
        seat = ev.index if ev.role == "seat" else None
        if ev.kind == "stuck":
            self._status(
                "stuck",
                f"The button of {who_en} is held down or stuck; it will not count until released.",
                f"Le bouton de {who_fr} est enfoncé ou coincé ; il ne compte plus avant d'être relâché.",
                seat,
            )
        else:
            self._status(
                "released",
                f"The button of {who_en} is released and counts again.",
                f"Le bouton de {who_fr} est relâché et compte de nouveau.",
                seat,
            )


def _absent(e: HardwareError) -> bool:
    """Whether the error only says the board is not there (yet): unplugged, not enumerated."""
    cause = e.__cause__
    return (
        isinstance(e, BoardMissing)
        or isinstance(cause, FileNotFoundError)
        or (getattr(cause, "errno", None) == errno.ENOENT)
    )


def _close_quietly(port: SerialPort) -> None:
    # Closing a port that is already gone may raise anything; there is nothing left to do.
    with contextlib.suppress(Exception):
        port.close()


def default_port_hint() -> str:
    """Where the board usually shows up, for help texts."""
    return "COM3" if os.name == "nt" else "/dev/ttyACM0"
