"""The firmware's own files under the MicroPython unix port, with a fake machine.Pin and clock."""

from __future__ import annotations

from typing import Any

import pytest
from mpy_helpers import VECTORS, json_lines, run_mp

from companion.inputs import protocol as p

NAMES = [
    "ticks64_follows_true_time_across_wraps",
    "ticks64_extends_irq_stamps_taken_around_the_wrap",
    "ring_keeps_the_last_n_with_their_sequence_numbers",
    "irq_handler_allocates_nothing",
    "irq_queue_overflow_is_counted_not_fatal",
    "press_stamps_are_64_bit_across_the_wrap",
    "simultaneous_presses_on_two_pins_get_the_same_stamp",
    "bouncy_press_is_one_press_at_its_first_edge",
    "short_pulse_is_a_glitch_and_no_press",
    "held_at_boot_is_reported_stuck",
    "commands_hello_resend_ping_leds",
    "led_blink_follows_the_board_clock",
    "wire_matches_shared_vectors",
]


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    proc = run_mp("mp_unit.py", str(VECTORS))
    got = {r["test"]: r for r in json_lines(proc.stdout)}
    assert got, f"MicroPython ran no test:\n{proc.stdout}\n{proc.stderr}"
    return got


def test_every_micropython_test_is_listed(results: dict[str, dict[str, Any]]) -> None:
    assert sorted(results) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_firmware(name: str, results: dict[str, dict[str, Any]]) -> None:
    r = results[name]
    assert r["ok"], r["error"]


def test_simultaneous_presses_are_stamped_zero_us_apart(
    results: dict[str, dict[str, Any]],
) -> None:
    assert results["simultaneous_presses_on_two_pins_get_the_same_stamp"]["data"]["skew_us"] == 0


def test_firmware_replies_parse_on_the_host(results: dict[str, dict[str, Any]]) -> None:
    frames = results["commands_hello_resend_ping_leds"]["data"]["frames"]
    parser = p.FrameParser()
    msgs = [m for f in frames for m in parser.feed(bytes.fromhex(f))]
    assert parser.bad == 0
    hello, e1, e2, done, pong = msgs
    assert isinstance(hello, p.Hello)
    assert hello.uid == "E6614103E7452D2F"
    assert hello.seat_pins == (2, 3, 4, 5)
    assert hello.referee_pins == (12, 13, None)
    assert hello.led_pins == (15, 16, 17, None)
    assert (hello.next_seq, hello.lockout_us, hello.glitch_us) == (3, 30_000, 2_000)
    assert [(e.seq, e.index, e.kind) for e in (e1, e2)] == [(1, 1, "press"), (2, 2, "press")]
    assert isinstance(e1, p.Event)
    assert e1.t_us == 110_000
    assert done == p.ResendDone(1, 1, 3)
    assert isinstance(pong, p.Pong)
    assert pong.nonce == 0x0D030D03
