"""The firmware's own files under the MicroPython unix port, with a fake machine.Pin and clock."""

from __future__ import annotations

from typing import Any

import pytest

from companion.inputs import protocol as p
from tests.mpy_helpers import VECTORS, json_lines, run_mp

COMMON = [
    "ticks64_follows_true_time_across_wraps",
    "ticks64_extends_irq_stamps_taken_around_the_wrap",
    "ring_keeps_the_last_n_with_their_sequence_numbers",
    "main_loop_stalled_50ms_in_a_bouncy_10_player_slap_loses_nothing",
    "press_stamps_are_64_bit_across_the_wrap",
    "simultaneous_presses_on_two_pins_get_the_same_stamp",
    "bouncy_press_is_one_press_at_its_first_edge",
    "short_pulse_is_a_glitch_and_no_press",
    "held_at_boot_is_reported_stuck",
    "commands_hello_resend_ping_leds",
    "led_blink_follows_the_board_clock",
    "wire_matches_shared_vectors",
    "stall_glitch_then_press_4500us_later_keeps_the_press_stamp",
    "ten_seats_within_300us_in_reverse_gpio_order_keep_their_order_within_resolution",
    "ask_answers_the_clock_held_back_to_undecided_contacts",
]
# Run on one capture path only: the board's own tests of that path.
ONLY = {
    "irq": [
        "irq_handler_allocates_nothing",
        "irq_latch_cannot_overflow_and_counts_real_loss",
        "irq_contact_reopened_before_the_handler_keeps_its_first_edge",
        "irq_contact_that_reopened_before_the_handler_is_a_glitch_not_a_stuck_press",
    ],
    "pio": [
        "pio_is_claimed_and_said_in_hello",
        "pio_falls_back_to_the_interrupts_when_no_dma_channel_is_free",
        "pio_presses_1us_apart_keep_their_order",
        "pio_ring_overflow_is_reported_lost_with_how_many",
        "pio_ring_overflow_then_a_press_keeps_its_own_stamp",
    ],
}
RUNS = [(path, name) for path in ("irq", "pio") for name in COMMON + ONLY[path]]


def _run(path: str) -> dict[str, dict[str, Any]]:
    proc = run_mp("mp_unit.py", str(VECTORS), path)
    got = {r["test"]: r for r in json_lines(proc.stdout)}
    assert got, f"MicroPython ran no test:\n{proc.stdout}\n{proc.stderr}"
    return got


@pytest.fixture(scope="module")
def by_path() -> dict[str, dict[str, dict[str, Any]]]:
    return {path: _run(path) for path in ("irq", "pio")}


@pytest.fixture(scope="module")
def results(by_path: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    return by_path["irq"]


@pytest.mark.parametrize("path", ["irq", "pio"])
def test_every_micropython_test_is_listed(path: str, by_path: dict[str, dict[str, dict[str, Any]]]) -> None:
    assert sorted(by_path[path]) == sorted(COMMON + ONLY[path])


@pytest.mark.parametrize(("path", "name"), RUNS, ids=[f"{p}-{n}" for p, n in RUNS])
def test_firmware(path: str, name: str, by_path: dict[str, dict[str, dict[str, Any]]]) -> None:
    r = by_path[path][name]
    assert r["ok"], r["error"]


def test_pio_hello_reports_the_capture_path(by_path: dict[str, dict[str, dict[str, Any]]]) -> None:
    frames = by_path["pio"]["commands_hello_resend_ping_leds"]["data"]["frames"]
    (hello,) = [m for m in p.FrameParser().feed(bytes.fromhex(frames[0]))]
    assert isinstance(hello, p.Hello)
    assert (hello.capture, hello.resolution_ns) == ("pio", 1000)
    assert hello.ring_records == 992


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
    assert (hello.protocol, hello.capture, hello.resolution_ns) == (2, "irq", 146_000)
    assert hello.uid == "E6614103E7452D2F"
    assert hello.seat_pins == (2, 3, 4, 5)
    assert hello.referee_pins == (12, 13, None)
    assert hello.led_pins == (15, 16, 17, None)
    assert (hello.next_seq, hello.lockout_us, hello.glitch_us) == (3, 30_000, 2_000)
    assert isinstance(e1, p.Event) and isinstance(e2, p.Event)
    assert [(e.seq, e.index, e.kind) for e in (e1, e2)] == [(1, 1, "press"), (2, 2, "press")]
    assert e1.t_us == 110_000
    assert done == p.ResendDone(1, 1, 3)
    assert isinstance(pong, p.Pong)
    assert pong.nonce == 0x0D030D03


def test_docs_state_the_resolution_the_firmware_states_in_hello() -> None:
    # Issue 19, finding 5: docs/protocol.md said 50 µs for the fallback, the firmware 60.
    import re

    from tests.mpy_helpers import FIRMWARE, ROOT

    src = (FIRMWARE / "irqcapture.py").read_text()
    m = re.search(r"^RESOLUTION_US = const\((\d+)\)", src, re.M)
    assert m is not None
    irq_us = int(m[1])
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    pico = (ROOT / "docs" / "pico.md").read_text()
    stated_ns = re.findall(r"`u32 resolution_ns` \(1000 for PIO; [^)]*?(\d+), for the fallback\)", protocol)
    assert stated_ns == [str(irq_us * 1000)]
    stated_us = {
        int(x)
        for doc in (protocol, pico)
        for x in re.findall(r"(\d+) µs(?: on the interrupt fallback|\): stated)", doc)
    }
    stated_us |= {int(x) for doc in (protocol, pico) for x in re.findall(r"stated as (\d+) µs", doc)}
    assert stated_us == {irq_us}
