"""The wire protocol between the Pico button board and the host (see docs/protocol.md).

Pure: bytes in, typed messages out, and back. Board -> host frames are COBS-encoded and
delimited by 0x00; host -> board commands are ASCII lines, so they can never contain the
Ctrl-C byte that MicroPython's REPL (and mpremote) rely on. Both carry a CRC-16/CCITT-FALSE.
"""

from __future__ import annotations

import binascii
import struct
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final, Literal

from companion.errors import CompanionError

PROTOCOL_VERSION: Final = 2
# A board frame never needs more; anything longer is noise and is dropped without decoding.
MAX_FRAME: Final = 255
MAX_LINE: Final = 80
NO_PIN: Final = 0xFF

Role = Literal["seat", "confirm", "cancel", "undo"]
# How the board stamps edges: "pio" (a PIO state machine samples every pin each microsecond,
# DMA moves the samples to RAM) or "irq" (the fallback: a per-pin interrupt handler).
CapturePath = Literal["irq", "pio"]
CAPTURE_PATHS: Final[tuple[CapturePath, ...]] = ("irq", "pio")
EventKind = Literal["release", "press", "stuck", "unstuck"]
ROLES: Final[tuple[Role, ...]] = ("seat", "confirm", "cancel", "undo")
EVENT_KINDS: Final[tuple[EventKind, ...]] = ("release", "press", "stuck", "unstuck")


class FrameError(CompanionError, ValueError):
    """Bytes that are not a valid frame (bad COBS, bad checksum, unknown type, wrong length)."""


class MsgType(IntEnum):
    HELLO = 0x01
    EVENT = 0x02
    HEARTBEAT = 0x03
    PONG = 0x04
    RESEND_DONE = 0x05
    MARK = 0x06
    HELLO_REQUEST = 0x81
    SET_LEDS = 0x82
    RESEND = 0x83
    PING = 0x84
    ASK = 0x85


@dataclass(frozen=True, slots=True)
class Hello:
    """The board's answer to the handshake: who it is and how its buttons are wired."""

    protocol: int
    firmware: tuple[int, int, int]
    uid: str  # 16 hex digits, upper case, from machine.unique_id()
    boot_id: int  # changes at every board reset: sequence numbers restart with it
    next_seq: int
    oldest_seq: int  # oldest event the board still holds for a resend
    lockout_us: int
    glitch_us: int
    stuck_ms: int  # 0: never reported stuck
    seat_pins: tuple[int, ...]
    referee_pins: tuple[int | None, int | None, int | None]  # confirm, cancel, undo
    led_pins: tuple[int | None, ...]
    machine: str
    capture: CapturePath = "irq"
    resolution_ns: int = 0  # how far apart two edges must be to be stamped in their order
    align_us: int = 0  # bound on the capture clock's offset from ticks_us (PIO path)
    ring_records: int = 0  # edges the capture ring holds for a busy main loop (PIO path)


@dataclass(frozen=True, slots=True)
class ForeignHello:
    """A handshake from a board speaking another protocol version: only the version is known."""

    protocol: int


@dataclass(frozen=True, slots=True)
class Event:
    """One debounced edge; ``index`` is the seat, or 0/1/2 for confirm/cancel/undo."""

    seq: int
    role: Role
    index: int
    kind: EventKind
    t_us: int  # board clock, microseconds since its reset


@dataclass(frozen=True, slots=True)
class Heartbeat:
    t_us: int
    next_seq: int
    lost: int  # edges the capture could not keep for the main loop since power-up


@dataclass(frozen=True, slots=True)
class Pong:
    nonce: int
    t_us: int


@dataclass(frozen=True, slots=True)
class ResendDone:
    """End of a resend; events in ``[requested, first)`` were no longer held and are lost."""

    requested: int
    first: int
    next_seq: int


@dataclass(frozen=True, slots=True)
class Mark:
    """The board's answer to ASK: its clock now, and its watermark: no press it has not sent yet
    will be stamped before ``watermark_us`` (now, held back to the contacts its debouncer has not
    decided). Every event before ``next_seq`` was sent ahead of this frame."""

    nonce: int
    t_us: int
    watermark_us: int
    next_seq: int


@dataclass(frozen=True, slots=True)
class HelloRequest:
    protocol: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class SetLeds:
    on_mask: int  # bit i: seat i's LED lit
    blink_mask: int  # bit i: seat i's LED blinks (wins over on_mask)


@dataclass(frozen=True, slots=True)
class Resend:
    from_seq: int


@dataclass(frozen=True, slots=True)
class Ping:
    nonce: int


@dataclass(frozen=True, slots=True)
class Ask:
    """Asks the board for a MARK at once (firmware 0.3.0 and later; an older board ignores it)."""

    nonce: int


BoardMessage = Hello | ForeignHello | Event | Heartbeat | Pong | ResendDone | Mark
HostCommand = HelloRequest | SetLeds | Resend | Ping | Ask

_EVENT = struct.Struct("<BIBBBQ")
_HEARTBEAT = struct.Struct("<BQII")
_PONG = struct.Struct("<BIQ")
_RESEND_DONE = struct.Struct("<BIII")
_MARK = struct.Struct("<BIQQI")
_HELLO_HEAD = struct.Struct("<BBBBB8sIIIIIIB")
_HELLO_TAIL = struct.Struct("<BIHH")
_CRC = struct.Struct("<H")
_ROLE_CODE: Final = {r: i for i, r in enumerate(ROLES)}
_KIND_CODE: Final = {k: i for i, k in enumerate(EVENT_KINDS)}


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    for block in data.split(b"\x00"):
        # Blocks longer than 254 bytes are cut at 254 data bytes with a 0xFF code (no zero).
        while len(block) >= 0xFE:
            out.append(0xFF)
            out += block[:0xFE]
            block = block[0xFE:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("protocol.cobs_decode")
        j = i + code
        if j > n:
            raise FrameError("protocol.cobs_block_runs")
        out += data[i + 1 : j]
        if code != 0xFF and j < n:
            out.append(0)
        i = j
    return bytes(out)


def _pin(v: int) -> int | None:
    return None if v == NO_PIN else v


def _pin_byte(v: int | None) -> int:
    return NO_PIN if v is None else v


def _encode_hello(msg: Hello) -> bytes:
    machine = msg.machine.encode("ascii", "replace")[:64]
    head = _HELLO_HEAD.pack(
        MsgType.HELLO,
        msg.protocol,
        *msg.firmware,
        bytes.fromhex(msg.uid),
        msg.boot_id,
        msg.next_seq,
        msg.oldest_seq,
        msg.lockout_us,
        msg.glitch_us,
        msg.stuck_ms,
        len(msg.seat_pins),
    )
    pins = bytes(
        [*msg.seat_pins] + [_pin_byte(p) for p in msg.referee_pins] + [_pin_byte(p) for p in msg.led_pins]
    )
    tail = _HELLO_TAIL.pack(
        CAPTURE_PATHS.index(msg.capture), msg.resolution_ns, msg.align_us, msg.ring_records
    )
    return head + pins + bytes([len(machine)]) + machine + tail


# Each message's payload by its type (one look-up instead of a match over thirteen cases).
_ENCODERS: Final[dict[type, Callable[[Any], bytes]]] = {
    Event: lambda m: _EVENT.pack(
        MsgType.EVENT, m.seq, _ROLE_CODE[m.role], m.index, _KIND_CODE[m.kind], m.t_us
    ),
    Heartbeat: lambda m: _HEARTBEAT.pack(MsgType.HEARTBEAT, m.t_us, m.next_seq, m.lost),
    Pong: lambda m: _PONG.pack(MsgType.PONG, m.nonce, m.t_us),
    ResendDone: lambda m: _RESEND_DONE.pack(MsgType.RESEND_DONE, m.requested, m.first, m.next_seq),
    Mark: lambda m: _MARK.pack(MsgType.MARK, m.nonce, m.t_us, m.watermark_us, m.next_seq),
    Hello: _encode_hello,
    ForeignHello: lambda m: bytes([MsgType.HELLO, m.protocol]),
    HelloRequest: lambda m: bytes([MsgType.HELLO_REQUEST, m.protocol]),
    SetLeds: lambda m: struct.pack("<BHH", MsgType.SET_LEDS, m.on_mask, m.blink_mask),
    Resend: lambda m: struct.pack("<BI", MsgType.RESEND, m.from_seq),
    Ping: lambda m: struct.pack("<BI", MsgType.PING, m.nonce),
    Ask: lambda m: struct.pack("<BI", MsgType.ASK, m.nonce),
}


def encode_body(msg: BoardMessage | HostCommand) -> bytes:
    """The payload of a message, without checksum or framing."""
    encode = _ENCODERS.get(type(msg))
    if encode is None:  # pragma: no cover
        raise TypeError(f"not a protocol message: {msg!r}")
    return encode(msg)


def encode_frame(msg: BoardMessage) -> bytes:
    """A board -> host frame as it travels on the wire, delimiters included."""
    body = encode_body(msg)
    return b"\x00" + cobs_encode(body + _CRC.pack(crc16(body))) + b"\x00"


def encode_command(cmd: HostCommand) -> bytes:
    """A host -> board command line: ``:`` + hex(body + CRC) + ``\\n``."""
    body = encode_body(cmd)
    return b":" + (body + _CRC.pack(crc16(body))).hex().encode("ascii") + b"\n"


def _checked(payload: bytes) -> bytes:
    if len(payload) < 3:
        n = len(payload)
        raise FrameError("protocol.checked", n=n)
    body = payload[:-2]
    if crc16(body) != _CRC.unpack_from(payload, len(body))[0]:
        raise FrameError("protocol.checksum_mismatch")
    return body


def _wrong_length(kind: str, n: int) -> FrameError:
    return FrameError("protocol.wrong_length", kind=kind, n=n)


def _parse_event(body: bytes) -> Event:
    if len(body) != _EVENT.size:
        raise _wrong_length("EVENT", len(body))
    _, seq, role, index, kind, t_us = _EVENT.unpack(body)
    if role >= 4 or kind >= 4:
        raise FrameError("protocol.parse_event", role=role, kind=kind)
    return Event(seq, ROLES[role], index, EVENT_KINDS[kind], t_us)


# The board's messages of one fixed layout: their name (for errors), layout and type, whose
# fields are the layout's after the type byte.
_FIXED: Final[dict[int, tuple[str, struct.Struct, Callable[..., BoardMessage]]]] = {
    MsgType.HEARTBEAT: ("HEARTBEAT", _HEARTBEAT, Heartbeat),
    MsgType.PONG: ("PONG", _PONG, Pong),
    MsgType.RESEND_DONE: ("RESEND_DONE", _RESEND_DONE, ResendDone),
    MsgType.MARK: ("MARK", _MARK, Mark),
}


def parse_body(body: bytes) -> BoardMessage:
    """Decode a checked board -> host payload (type byte first)."""
    t = body[0]
    if t == MsgType.EVENT:
        return _parse_event(body)
    fixed = _FIXED.get(t)
    if fixed is not None:
        name, layout, build = fixed
        if len(body) != layout.size:
            raise _wrong_length(name, len(body))
        return build(*layout.unpack(body)[1:])
    if t == MsgType.HELLO:
        return _parse_hello(body)
    raise FrameError("protocol.parse_body", t=t)


def _parse_hello(body: bytes) -> Hello | ForeignHello:
    # The version is byte 1 forever, so that any future board can at least say what it speaks.
    if len(body) < 2:
        raise _wrong_length("HELLO", len(body))
    if body[1] != PROTOCOL_VERSION:
        return ForeignHello(body[1])
    h = _HELLO_HEAD.size
    if len(body) < h:
        raise _wrong_length("HELLO", len(body))
    (_, proto, major, minor, patch, uid, boot_id, next_seq, oldest, lockout, glitch, stuck, n) = (
        _HELLO_HEAD.unpack_from(body)
    )
    if len(body) < h + 2 * n + 4:
        raise _wrong_length("HELLO", len(body))
    seats = tuple(body[h : h + n])
    c, x, u = body[h + n : h + n + 3]
    leds = tuple(_pin(p) for p in body[h + n + 3 : h + 2 * n + 3])
    m = body[h + 2 * n + 3]
    machine = body[h + 2 * n + 4 : h + 2 * n + 4 + m]
    tail = body[h + 2 * n + 4 + m :]
    if len(machine) != m or len(tail) != _HELLO_TAIL.size:
        raise _wrong_length("HELLO", len(body))
    capture, resolution_ns, align_us, ring_records = _HELLO_TAIL.unpack(tail)
    if capture >= len(CAPTURE_PATHS):
        raise FrameError("protocol.parse_hello", capture=capture)
    return Hello(
        protocol=proto,
        firmware=(major, minor, patch),
        uid=uid.hex().upper(),
        boot_id=boot_id,
        next_seq=next_seq,
        oldest_seq=oldest,
        lockout_us=lockout,
        glitch_us=glitch,
        stuck_ms=stuck,
        seat_pins=seats,
        referee_pins=(_pin(c), _pin(x), _pin(u)),
        led_pins=leds,
        machine=machine.decode("ascii", "replace"),
        capture=CAPTURE_PATHS[capture],
        resolution_ns=resolution_ns,
        align_us=align_us,
        ring_records=ring_records,
    )


def parse_frame(frame: bytes) -> BoardMessage:
    """Decode one frame's bytes between two 0x00 delimiters."""
    if len(frame) > MAX_FRAME:
        raise FrameError("protocol.frame_too_long", size=len(frame))
    return parse_body(_checked(cobs_decode(frame)))


def parse_command(line: bytes) -> HostCommand:
    """Decode one host -> board line (what the firmware does; used to check the vectors)."""
    line = line.strip()
    if len(line) > MAX_LINE:
        # The firmware's line buffer holds MAX_LINE characters: a longer line never reaches it.
        n = len(line)
        raise FrameError(
            "protocol.parse_command",
            n=n,
            MAX_LINE=MAX_LINE,
        )
    if not line.startswith(b":"):
        raise FrameError("protocol.command_line_must", mark=":")
    try:
        payload = bytes.fromhex(line[1:].decode("ascii"))
    except (ValueError, UnicodeDecodeError) as e:
        raise FrameError("protocol.command_line_hex") from e
    body = _checked(payload)
    t, n = body[0], len(body)
    if t == MsgType.HELLO_REQUEST and n == 2:
        return HelloRequest(body[1])
    if t == MsgType.SET_LEDS and n == 5:
        _, on, blink = struct.unpack("<BHH", body)
        return SetLeds(on, blink)
    if t == MsgType.RESEND and n == 5:
        return Resend(struct.unpack_from("<I", body, 1)[0])
    if t == MsgType.PING and n == 5:
        return Ping(struct.unpack_from("<I", body, 1)[0])
    if t == MsgType.ASK and n == 5:
        return Ask(struct.unpack_from("<I", body, 1)[0])
    raise FrameError("protocol.unknown_command", type=t, size=n)


class FrameParser:
    """Splits a board byte stream into messages; anything invalid is dropped and counted.

    ``feed`` never raises: noise, truncated and corrupted frames only move the counters.
    """

    __slots__ = ("_buf", "bad", "good", "noise_bytes", "overlong")

    def __init__(self) -> None:
        self._buf = b""
        self.good = 0
        self.bad = 0
        self.overlong = 0
        self.noise_bytes = 0

    def feed(self, data: bytes) -> list[BoardMessage]:
        out: list[BoardMessage] = []
        buf = self._buf + data if self._buf else bytes(data)
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            if end > start:
                self._one(buf[start:end], out)
            start = end + 1
        rest = buf[start:]
        if len(rest) > MAX_FRAME:
            # No delimiter for this long: resynchronise at the next zero, keep no memory.
            self.overlong += 1
            self.noise_bytes += len(rest)
            rest = b""
        self._buf = rest
        return out

    def _one(self, frame: bytes, out: list[BoardMessage]) -> None:
        try:
            msg = parse_frame(frame)
        except (FrameError, struct.error, IndexError, ValueError):
            self.bad += 1
            self.noise_bytes += len(frame)
            return
        self.good += 1
        out.append(msg)

    def reset(self) -> None:
        """Forget a partial frame (after reopening the port)."""
        self._buf = b""
