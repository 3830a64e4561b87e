"""Board side of docs/protocol.md: COBS + CRC-16 frames out, ASCII ':hex' command lines in."""

import struct
from binascii import unhexlify

from micropython import const

PROTOCOL_VERSION = const(2)

HELLO = const(0x01)
EVENT = const(0x02)
HEARTBEAT = const(0x03)
PONG = const(0x04)
RESEND_DONE = const(0x05)
MARK = const(0x06)
HELLO_REQUEST = const(0x81)
SET_LEDS = const(0x82)
RESEND = const(0x83)
PING = const(0x84)
ASK = const(0x85)

NO_PIN = const(0xFF)
_MAX_LINE = const(80)


def _crc_table():
    t = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t.append(c & 0xFFFF)
    return t


_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE, as binascii.crc_hqx(data, 0xFFFF) on the host."""
    c = 0xFFFF
    t = _TABLE
    for b in data:
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ b]
    return c


def cobs_encode(data):
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """None if the bytes are not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        out.extend(data[i + 1:i + code])
        i += code
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(body):
    """The bytes on the wire; a zero on each side, so noise before a frame cannot spoil it."""
    return b"\x00" + cobs_encode(body + struct.pack("<H", crc16(body))) + b"\x00"


def event(seq, role, index, kind, t_us):
    return frame(struct.pack("<BIBBBQ", EVENT, seq, role, index, kind, t_us))


def heartbeat(t_us, next_seq, lost):
    return frame(struct.pack("<BQII", HEARTBEAT, t_us, next_seq, min(lost, 0xFFFFFFFF)))


def pong(nonce, t_us):
    return frame(struct.pack("<BIQ", PONG, nonce, t_us))


def resend_done(requested, first, next_seq):
    return frame(struct.pack("<BIII", RESEND_DONE, requested, first, next_seq))


def mark(nonce, t_us, watermark_us, next_seq):
    """The answer to ASK: the clock now, how far every press is decided, and the seq after the
    last event sent (every event before it left ahead of this frame)."""
    return frame(struct.pack("<BIQQI", MARK, nonce, t_us, watermark_us, next_seq))


def _pins(pins):
    return bytes([NO_PIN if p is None else p for p in pins])


def hello(firmware, uid, boot_id, next_seq, oldest_seq, lockout_us, glitch_us, stuck_ms,
          seat_pins, referee_pins, led_pins, machine, capture=0, resolution_us=0, align_us=0,
          ring_records=0):
    m = machine.encode()[:64] if isinstance(machine, str) else machine[:64]
    body = (struct.pack("<BBBBB", HELLO, PROTOCOL_VERSION, firmware[0], firmware[1], firmware[2])
            + bytes(uid)[:8]
            + struct.pack("<IIIIIIB", boot_id, next_seq, oldest_seq, lockout_us, glitch_us,
                          stuck_ms, len(seat_pins))
            + _pins(seat_pins) + _pins(referee_pins) + _pins(led_pins)
            + bytes([len(m)]) + m
            + struct.pack("<BIHH", capture, resolution_us * 1000, min(align_us, 0xFFFF),
                          min(ring_records, 0xFFFF)))
    return frame(body)


def parse_command(hexpart):
    """(type, a, b) from the hex digits after ':', or None if the line is not a valid command."""
    if len(hexpart) & 1:
        return None
    try:
        p = unhexlify(hexpart)
    except ValueError:
        return None
    n = len(p) - 2
    if n < 1 or crc16(p[:n]) != p[n] | (p[n + 1] << 8):
        return None
    t = p[0]
    if t == HELLO_REQUEST and n == 2:
        return (t, p[1], 0)
    if t == SET_LEDS and n == 5:
        return (t, p[1] | (p[2] << 8), p[3] | (p[4] << 8))
    if (t == RESEND or t == PING or t == ASK) and n == 5:
        return (t, struct.unpack_from("<I", p, 1)[0], 0)
    return None


class LineReader:
    """Collects ':hex\\n' lines byte by byte; anything else between lines is ignored."""

    def __init__(self):
        self._buf = bytearray(_MAX_LINE)
        self._n = -1  # -1: waiting for ':'
        self.bad = 0

    def feed(self, b):
        """One byte in; a parsed command tuple out when a line ends, else None."""
        if b == 0x3A:  # ':' always starts afresh: a lost newline costs one command, not two
            if self._n > 0:
                self.bad += 1
            self._n = 0
            return None
        if self._n < 0:
            return None
        if b == 0x0A or b == 0x0D:
            n = self._n
            self._n = -1
            if n == 0:
                return None
            cmd = parse_command(bytes(self._buf[:n]))
            if cmd is None:
                self.bad += 1
            return cmd
        if self._n >= _MAX_LINE:
            self._n = -1
            self.bad += 1
            return None
        self._buf[self._n] = b
        self._n += 1
        return None
