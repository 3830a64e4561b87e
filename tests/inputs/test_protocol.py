"""The host side of the Pico wire protocol against the vectors the firmware tests also use."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.inputs import protocol as p

# COMPANION_PROPERTY_SCALE=0.1 (bench/mutation.py) runs a tenth of the examples, 20 at least.
SCALE = float(os.environ.get("COMPANION_PROPERTY_SCALE", "1"))


def examples(n: int) -> int:
    return max(20, int(n * SCALE))


VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[2] / "firmware" / "protocol_vectors.json").read_text()
)
_TYPES = {
    c.__name__: c
    for c in (
        p.Hello,
        p.ForeignHello,
        p.Event,
        p.Heartbeat,
        p.Pong,
        p.ResendDone,
        p.HelloRequest,
        p.SetLeds,
        p.Resend,
        p.Ping,
        p.Mark,
        p.Ask,
    )
}


def from_json(d: dict[str, Any]) -> Any:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k != "type"}
    return _TYPES[d["type"]](**fields)


def board_frames() -> list[tuple[str, Any, bytes]]:
    return [(v["name"], from_json(v["message"]), bytes.fromhex(v["wire"])) for v in VECTORS["board_frames"]]


def test_vectors_speak_our_version() -> None:
    assert VECTORS["protocol_version"] == p.PROTOCOL_VERSION


@pytest.mark.parametrize("v", VECTORS["crc16"], ids=lambda v: v["data"][:12] or "empty")
def test_crc16(v: dict[str, Any]) -> None:
    assert p.crc16(bytes.fromhex(v["data"])) == v["crc"]


@pytest.mark.parametrize("v", VECTORS["cobs"], ids=lambda v: v["raw"][:12] or "empty")
def test_cobs_both_ways(v: dict[str, Any]) -> None:
    raw, enc = bytes.fromhex(v["raw"]), bytes.fromhex(v["encoded"])
    assert p.cobs_encode(raw) == enc
    assert b"\x00" not in enc
    assert p.cobs_decode(enc) == raw


@pytest.mark.parametrize(
    ("name", "msg", "wire"), board_frames(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_board_frames_encode_and_parse(name: str, msg: Any, wire: bytes) -> None:
    assert p.encode_frame(msg) == wire
    parser = p.FrameParser()
    assert parser.feed(wire) == [msg]
    assert (parser.good, parser.bad) == (1, 0)


@pytest.mark.parametrize("v", VECTORS["host_commands"], ids=lambda v: v["name"])
def test_host_commands(v: dict[str, Any]) -> None:
    cmd = from_json(v["message"])
    line = p.encode_command(cmd)
    assert line.decode() == v["line"]
    assert b"\x03" not in line  # the REPL's Ctrl-C must never appear in what the host sends
    assert p.parse_command(line) == cmd


@pytest.mark.parametrize("line", VECTORS["bad_commands"])
def test_bad_commands_are_refused(line: str) -> None:
    with pytest.raises(p.FrameError):
        p.parse_command(line.encode())


@pytest.mark.parametrize("v", VECTORS["bad_frames"], ids=lambda v: v["name"])
def test_bad_frames_are_dropped_and_counted(v: dict[str, Any]) -> None:
    parser = p.FrameParser()
    assert parser.feed(bytes.fromhex(v["wire"])) == []
    assert parser.bad == 1


def test_noisy_stream_gives_every_frame_in_order() -> None:
    by_name = {name: msg for name, msg, _ in board_frames()}
    for s in VECTORS["streams"]:
        wire = bytes.fromhex(s["wire"])
        expect = [by_name[n] for n in s["expect"]]
        assert p.FrameParser().feed(wire) == expect
        # Same result whatever the read sizes are.
        parser = p.FrameParser()
        got: list[p.BoardMessage] = []
        for i in range(len(wire)):
            got += parser.feed(wire[i : i + 1])
        assert got == expect


def test_foreign_hello_still_tells_its_version() -> None:
    parser = p.FrameParser()
    body = bytes([p.MsgType.HELLO, 7, 9, 9, 9])
    frame = b"\x00" + p.cobs_encode(body + p.crc16(body).to_bytes(2, "little")) + b"\x00"
    assert parser.feed(frame) == [p.ForeignHello(7)]


def test_overlong_garbage_does_not_grow_the_buffer() -> None:
    parser = p.FrameParser()
    assert parser.feed(b"\x01" * 10_000) == []
    assert parser.overlong == 1
    event = p.Event(1, "seat", 2, "press", 3)
    assert parser.feed(p.encode_frame(event)) == [event]


events = st.builds(
    p.Event,
    seq=st.integers(0, 2**32 - 1),
    role=st.sampled_from(p.ROLES),
    index=st.integers(0, 255),
    kind=st.sampled_from(p.EVENT_KINDS),
    t_us=st.integers(0, 2**64 - 1),
)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_random_bytes_never_crash(data: bytes) -> None:
    parser = p.FrameParser()
    msgs = parser.feed(data)
    assert all(isinstance(m, p.BoardMessage) for m in msgs)  # type: ignore[misc,arg-type]


@settings(max_examples=examples(300), deadline=None)
@given(
    msgs=st.lists(events, min_size=1, max_size=20),
    noise=st.lists(st.binary(max_size=40), min_size=21, max_size=21),
    cut=st.integers(1, 64),
)
def test_fuzz_noise_between_frames_loses_no_frame(msgs: list[p.Event], noise: list[bytes], cut: int) -> None:
    wire = b"".join(n + p.encode_frame(m) for n, m in zip(noise, msgs, strict=False)) + noise[-1]
    parser = p.FrameParser()
    got: list[p.BoardMessage] = []
    for i in range(0, len(wire), cut):
        got += parser.feed(wire[i : i + cut])
    # Noise can itself look like a frame only by passing COBS, a known type, its exact length
    # and the CRC; whatever else was decoded, every real frame is there, in order.
    it = iter(got)
    assert all(any(g == m for g in it) for m in msgs)


@settings(max_examples=examples(300), deadline=None)
@given(msg=events, pos=st.data(), flip=st.integers(1, 255))
def test_fuzz_corrupted_frame_is_dropped(msg: p.Event, pos: st.DataObject, flip: int) -> None:
    wire = bytearray(p.encode_frame(msg))
    i = pos.draw(st.integers(1, len(wire) - 2))
    wire[i] ^= flip
    parser = p.FrameParser()
    got = parser.feed(bytes(wire))
    # A single corrupted byte is always caught: by COBS, the length or the CRC.
    assert msg not in got
    assert all(not isinstance(g, p.Event) for g in got)
    assert parser.bad >= 1


@pytest.mark.parametrize("v", VECTORS["foreign_hellos"], ids=lambda v: v["name"])
def test_a_hello_from_older_firmware_is_known_as_foreign(v: dict[str, Any]) -> None:
    # The whole v1 hello as the old firmware sent it: only its version is read, never its body.
    assert p.FrameParser().feed(bytes.fromhex(v["wire"])) == [p.ForeignHello(v["protocol"])]
    assert v["protocol"] < p.PROTOCOL_VERSION


def test_hello_says_the_capture_path_and_its_resolution() -> None:
    by_name = {name: msg for name, msg, _ in board_frames()}
    assert (by_name["hello"].capture, by_name["hello"].resolution_ns) == ("pio", 1000)
    assert (by_name["hello_minimal"].capture, by_name["hello_minimal"].resolution_ns) == ("irq", 50_000)


# --- refusals, each for its own reason --------------------------------------------------------
# The parsers are what the board's bytes meet first: a frame misread as another message, or a
# crash of another kind than FrameError (FrameParser counts only those), is a lost press.


def hellos() -> list[p.Hello]:
    by_name = {name: msg for name, msg, _ in board_frames()}
    # Twelve seats and no machine name: the pin tables are longer than the name and the tail.
    wide = dataclasses.replace(
        by_name["hello"], seat_pins=tuple(range(2, 14)), led_pins=(None,) * 12, machine=""
    )
    return [by_name["hello"], by_name["hello_minimal"], wide]


@pytest.mark.parametrize("hello", hellos(), ids=["hello", "minimal", "twelve_seats"])
def test_a_hello_cut_anywhere_or_too_long_is_refused_for_its_length(hello: p.Hello) -> None:
    body = p.encode_body(hello)
    assert p.parse_body(body) == hello
    for n in [*range(1, len(body)), len(body) + 1]:
        cut = (body + b"\x00")[:n]
        with pytest.raises(p.FrameError) as e:
            p.parse_body(cut)
        assert (e.value.en, e.value.fr) == (f"HELLO body of {n} bytes", f"corps HELLO de {n} octets")


def test_a_hello_with_an_unknown_capture_path_is_refused() -> None:
    body = bytearray(p.encode_body(hellos()[0]))
    body[-p._HELLO_TAIL.size] = len(p.CAPTURE_PATHS)  # the tail's first byte: 0 irq, 1 pio, nothing else yet
    with pytest.raises(p.FrameError) as e:
        p.parse_body(bytes(body))
    assert (e.value.en, e.value.fr) == ("HELLO with capture path 2", "HELLO avec capture 2")


@pytest.mark.parametrize(
    ("kind", "msg"),
    [
        ("EVENT", p.Event(1, "seat", 2, "press", 3)),
        ("HEARTBEAT", p.Heartbeat(1, 2, 3)),
        ("PONG", p.Pong(1, 2)),
        ("RESEND_DONE", p.ResendDone(1, 2, 3)),
    ],
)
def test_a_fixed_size_message_of_another_length_is_refused(kind: str, msg: Any) -> None:
    body = p.encode_body(msg)
    for n in (len(body) - 1, len(body) + 1):
        with pytest.raises(p.FrameError) as e:
            p.parse_body((body + b"\x00")[:n])
        assert (e.value.en, e.value.fr) == (f"{kind} body of {n} bytes", f"corps {kind} de {n} octets")


def command_line(body: bytes) -> bytes:
    """A host line around any body, with its right CRC: what the firmware would be sent."""
    return b":" + (body + p.crc16(body).to_bytes(2, "little")).hex().encode() + b"\n"


@pytest.mark.parametrize(
    ("line", "en", "fr"),
    [
        (b"8100", "command line must start with ':'", "une commande commence par ':'"),
        (b":zz", "command line is not hex", "commande non hexadécimale"),
        # 80 characters is the most the firmware's line buffer holds: such a line is read (and then
        # refused as hex of odd length), one more is too long.
        (b":" + b"0" * 79, "command line is not hex", "commande non hexadécimale"),
        (
            b":" + b"0" * 80,
            "command line of 81 characters is too long: at most 80",
            "commande de 81 caractères trop longue\u202f: 80 au plus",
        ),
        (b":8101ffff", "checksum mismatch", "somme de contrôle fausse"),
        (command_line(bytes([0x84, 1, 2, 3])), "unknown command 0x84 (4 bytes)", "commande inconnue 0x84"),
        (command_line(bytes([0x81, 2, 0])), "unknown command 0x81 (3 bytes)", "commande inconnue 0x81"),
        (
            command_line(bytes([0x82, 1, 2, 3, 4, 5])),
            "unknown command 0x82 (6 bytes)",
            "commande inconnue 0x82",
        ),
        (command_line(bytes([0x83])), "unknown command 0x83 (1 bytes)", "commande inconnue 0x83"),
        # A length that fits another command does not make an unknown type that command.
        (command_line(bytes([0x99, 0])), "unknown command 0x99 (2 bytes)", "commande inconnue 0x99"),
        (command_line(bytes([0x99, 0, 0, 0, 0])), "unknown command 0x99 (5 bytes)", "commande inconnue 0x99"),
    ],
)
def test_a_bad_command_is_refused_for_its_reason(line: bytes, en: str, fr: str) -> None:
    with pytest.raises(p.FrameError) as e:
        p.parse_command(line)
    assert (e.value.en, e.value.fr) == (en, fr)


commands = st.one_of(
    st.builds(p.HelloRequest, protocol=st.integers(0, 255)),
    st.builds(p.SetLeds, on_mask=st.integers(0, 0xFFFF), blink_mask=st.integers(0, 0xFFFF)),
    st.builds(p.Resend, from_seq=st.integers(0, 2**32 - 1)),
    st.builds(p.Ping, nonce=st.integers(0, 2**32 - 1)),
)


@settings(max_examples=examples(200), deadline=None)
@given(cmd=commands)
def test_any_command_reads_back_as_sent(cmd: p.HostCommand) -> None:
    # Masks and counters use their whole unsigned range: seat 15's LED, a nonce past 2**31.
    assert p.parse_command(p.encode_command(cmd)) == cmd


@pytest.mark.parametrize("cmd", [p.SetLeds(0xFFFF, 0x8000), p.Resend(2**32 - 1), p.Ping(2**31)])
def test_the_top_bit_of_a_command_field_is_kept(cmd: p.HostCommand) -> None:
    assert p.parse_command(p.encode_command(cmd)) == cmd


def with_crc(body: bytes) -> bytes:
    return body + p.crc16(body).to_bytes(2, "little")


@pytest.mark.parametrize(
    ("frame", "en", "fr"),
    [
        (p.cobs_encode(b"\x02\x01"), "frame of 2 bytes is too short", "trame de 2 octets trop courte"),
        # The shortest frame is a type byte and its CRC: read, then refused for what it is.
        (
            p.cobs_encode(with_crc(bytes([p.MsgType.EVENT]))),
            "EVENT body of 1 bytes",
            "corps EVENT de 1 octets",
        ),
        (
            p.cobs_encode(with_crc(bytes([0x7F, 1, 2]))),
            "unknown board message type 0x7f",
            "type de message inconnu 0x7f",
        ),
        (b"\x01\x00\x03", "zero byte inside a COBS block", "octet nul dans un bloc COBS"),
    ],
)
def test_a_bad_frame_is_refused_for_its_reason(frame: bytes, en: str, fr: str) -> None:
    with pytest.raises(p.FrameError) as e:
        p.parse_frame(frame)
    assert (e.value.en, e.value.fr) == (en, fr)


@pytest.mark.parametrize("v", VECTORS["bad_frames"], ids=lambda v: v["name"])
def test_the_bad_frame_vectors_say_why(v: dict[str, Any]) -> None:
    why = {
        "flipped_bit": ("COBS block runs past the frame", "bloc COBS plus long que la trame"),
        "cobs_overrun": ("COBS block runs past the frame", "bloc COBS plus long que la trame"),
        "truncated": ("checksum mismatch", "somme de contrôle fausse"),
        "bad_crc": ("checksum mismatch", "somme de contrôle fausse"),
        "unknown_type": ("unknown board message type 0x7f", "type de message inconnu 0x7f"),
        "wrong_length": ("EVENT body of 15 bytes", "corps EVENT de 15 octets"),
        "too_short": ("frame of 1 bytes is too short", "trame de 1 octets trop courte"),
    }
    with pytest.raises(p.FrameError) as e:
        p.parse_frame(bytes.fromhex(v["wire"]).strip(b"\x00"))
    assert (e.value.en, e.value.fr) == why[v["name"]]


def test_a_long_or_foreign_board_name_still_makes_a_valid_hello() -> None:
    # The name is for people (doctor, buttons): cut at 64 ASCII characters, never a refusal.
    hello = hellos()[0]
    for name, read in [("Pico W ñ", "Pico W ?"), ("x" * 70, "x" * 64)]:
        body = p.encode_body(dataclasses.replace(hello, machine=name))
        assert p.parse_body(body) == dataclasses.replace(hello, machine=read)


def test_a_frame_longer_than_the_limit_is_refused_unread() -> None:
    with pytest.raises(p.FrameError) as e:
        p.parse_frame(b"\x01" * (p.MAX_FRAME + 1))
    assert (e.value.en, e.value.fr) == ("frame of 256 bytes is too long", "trame trop longue")


def test_the_counters_add_up_over_a_stream() -> None:
    """Every byte read is in a good frame, counted as noise, a delimiter, or still pending."""
    good = p.encode_frame(p.Event(1, "seat", 0, "press", 10))
    bad_crc = bytearray(good)
    bad_crc[-2] ^= 1
    stream = [
        good,
        bytes(bad_crc),
        b"\x05\x06\x07",  # a good frame, a bad one, three bytes of noise
        b"\x00" + b"\x01" * 300,  # then no delimiter for longer than any frame: dropped,
        b"\x01" * 300,  # and again
        b"\x09" * 4 + good,  # four more bytes of noise, and a good frame again
        good[:5],  # the start of a frame, still pending
    ]
    parser = p.FrameParser()
    got = [m for chunk in stream for m in parser.feed(chunk)]
    assert got == [p.Event(1, "seat", 0, "press", 10)] * 2
    assert (parser.good, parser.bad, parser.overlong) == (2, 3, 2)
    # Noise: the corrupted frame, the three bytes, twice 300, the four.
    assert parser.noise_bytes == (len(bad_crc) - 2) + 3 + 300 + 300 + 4
    parser.reset()  # the pending start is forgotten, not counted
    assert parser.feed(good) == [p.Event(1, "seat", 0, "press", 10)]
    assert (parser.good, parser.bad, parser.overlong) == (3, 3, 2)


def test_a_frame_as_long_as_the_limit_is_judged_as_a_frame_not_as_garbage() -> None:
    # feed() drops what has no delimiter only past MAX_FRAME, the length parse_frame accepts:
    # a frame of exactly that length arriving without its end yet is kept for the next read.
    parser = p.FrameParser()
    assert parser.feed(b"\x01" * p.MAX_FRAME) == []
    assert parser.overlong == 0
    parser.feed(b"\x00")
    assert (parser.bad, parser.overlong, parser.noise_bytes) == (1, 0, p.MAX_FRAME)
