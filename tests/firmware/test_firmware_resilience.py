"""Two suspected points of issue 20, settled under the MicroPython unix port: a firmware exception
no longer leaves the board at the REPL for good (it resets; Ctrl-C still gives the REPL), and the
interrupt fallback's ``poll`` allocates nothing while interrupts are masked (issue 19's rewrite
swaps banks with two integer stores; the heap is locked there to prove it)."""

from __future__ import annotations

from typing import Any

from tests.mpy_helpers import json_lines, run_mp


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
    # The heap is locked while interrupts are masked: any allocation there is a MemoryError.
    rec = run("irq_alloc")
    assert rec["ok"], rec["error"]
    (edge,) = rec["data"]["edges"]
    assert edge[1:] == [0, True]  # the press of the first pin was still handed on
