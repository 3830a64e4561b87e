"""The board's host-liveness watchdog under the MicroPython unix port (issue 20, point 8): LEDs
left lit by a host that died, or whose quit "off" was lost, go dark by themselves."""

from __future__ import annotations

import pytest

from tests.mpy_helpers import json_lines, run_mp

TESTS = ["leds_go_dark_when_the_host_falls_silent", "the_host_back_lights_them_again"]


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, object]]:
    proc = run_mp("mp_watchdog.py")
    got = {r["test"]: r for r in json_lines(proc.stdout)}
    assert got, f"MicroPython ran no test:\n{proc.stdout}\n{proc.stderr}"
    return got


@pytest.mark.parametrize("name", TESTS)
def test_watchdog(name: str, results: dict[str, dict[str, object]]) -> None:
    assert results[name]["ok"], results[name]["error"]


def test_the_board_waits_for_two_missed_refreshes_and_at_most_three_seconds() -> None:
    """The test above reads the board's own constant, so any silence passed it (30 s did). The
    constant itself: longer than two of the host's LED refreshes (a late one must not blink a
    table's LEDs off), at most the 3 s the docs promise (docs/decisions.md, "Time")."""
    import re

    from companion.inputs.serial_source import LED_REFRESH_S
    from tests.conftest import ROOT

    text = (ROOT / "firmware" / "buttonboard.py").read_text(encoding="utf-8")
    found = re.search(r"^HOST_SILENT_US = const\((\d+)\)", text, re.M)
    assert found is not None
    silent_us = int(found[1])
    assert silent_us >= 2 * LED_REFRESH_S * 1_000_000
    assert silent_us <= 3_000_000
