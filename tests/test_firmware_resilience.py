"""Two suspected points of issue 20, settled under the MicroPython unix port: a firmware exception
no longer leaves the board at the REPL for good (it resets; Ctrl-C still gives the REPL), and the
interrupt fallback's ``poll`` allocates while interrupts are masked (confirmed; the fix belongs
to firmware/irqcapture.py, which issue 19 rewrites)."""

from __future__ import annotations

from typing import Any

from mpy_helpers import json_lines, run_mp


def run(what: str) -> dict[str, Any]:
    proc = run_mp("mp_resilience.py", what)
    (rec,) = json_lines(proc.stdout)
    return rec


def test_an_exception_in_the_main_loop_resets_the_board_with_its_leds_off() -> None:
    rec = run("crash")
    assert rec["ok"], rec["error"]
    assert rec["data"] == {"resets": 1, "reached_repl": False, "led0": 0}


def test_ctrl_c_still_gives_the_repl() -> None:
    rec = run("ctrl_c")
    assert rec["ok"], rec["error"]
    assert rec["data"]["reached_repl"] and rec["data"]["resets"] == 0


def test_the_interrupt_path_allocates_nothing_while_interrupts_are_masked() -> None:
    # A collection while interrupts are masked would hold every button's edge for milliseconds.
    rec = run("irq_alloc")
    assert rec["ok"], rec["error"]
    assert rec["data"] == {"edges": 1}
