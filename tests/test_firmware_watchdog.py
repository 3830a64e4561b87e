"""The board's host-liveness watchdog under the MicroPython unix port (issue 20, point 8): LEDs
left lit by a host that died, or whose quit "off" was lost, go dark by themselves."""

from __future__ import annotations

import pytest
from mpy_helpers import json_lines, run_mp

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
