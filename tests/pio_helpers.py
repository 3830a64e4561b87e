"""The firmware's PIO program, taken from firmware/piocapture.py and run in the PIO emulator.

The program is written once, as ``rp2.asm_pio`` in the firmware. Here its function body runs
against a small recorder of the same DSL that writes pioasm text; ``adafruit_pioasm`` assembles
that text into the words the RP2040 runs, and ``pioemu`` runs them cycle by cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import adafruit_pioasm
from pioemu import State, emulate

from tests.mpy_helpers import FIRMWARE

SOURCE = FIRMWARE / "piocapture.py"
PROGRAM = "edge_capture"


class _Reg:
    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name


class _Instr:
    def __init__(self, text: str) -> None:
        self.text = text
        self.cycles_delay = 0

    def __getitem__(self, delay: int) -> _Instr:
        self.cycles_delay = delay
        return self

    def delay(self, delay: int) -> _Instr:
        return self[delay]


class _Recorder:
    """The names an ``@rp2.asm_pio`` function body uses, writing pioasm lines as it runs."""

    def __init__(self) -> None:
        self.items: list[str | _Instr] = []

    def _add(self, text: str) -> _Instr:
        ins = _Instr(text)
        self.items.append(ins)
        return ins

    def namespace(self) -> dict[str, Any]:
        regs = {n: _Reg(n) for n in ("x", "y", "isr", "osr", "null", "pins", "pindirs", "pc", "status")}
        conds = {
            "not_x": "!x",
            "x_dec": "x--",
            "not_y": "!y",
            "y_dec": "y--",
            "x_not_y": "x!=y",
            "pin": "pin",
            "not_osre": "!osre",
        }

        def jmp(cond: str, label: str | None = None) -> _Instr:
            return self._add(f"jmp {conds[cond]}, {label}" if label is not None else f"jmp {cond}")

        ns: dict[str, Any] = dict(regs)
        ns.update({k: k for k in conds})
        ns.update(
            block="block",
            noblock="noblock",
            invert=lambda r: _Reg("~" + str(r)),
            mov=lambda d, s: self._add(f"mov {d}, {s}"),
            in_=lambda s, n: self._add(f"in {s}, {n}"),
            push=lambda v="block": self._add(f"push {v}"),  # push() blocks, as in rp2.py
            nop=lambda: self._add("nop"),
            jmp=jmp,
            label=lambda name: self.items.append(f"{name}:"),
            wrap_target=lambda: self.items.append(".wrap_target"),
            wrap=lambda: self.items.append(".wrap"),
        )
        return ns

    def text(self) -> str:
        out = [f".program {PROGRAM}"]
        for it in self.items:
            if isinstance(it, str):
                out.append(it)
            else:
                out.append("    " + it.text + (f" [{it.cycles_delay}]" if it.cycles_delay else ""))
        return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Program:
    pioasm: str
    words: list[int]
    wrap_target: int
    wrap: int
    decorator: dict[str, str]  # the asm_pio keyword arguments, as written

    @property
    def sample_pc(self) -> int:
        """Index of the ``in pins`` instruction: the cycle it runs is the sample."""
        lines = [ln.strip() for ln in self.pioasm.splitlines()[1:]]
        instrs = [ln for ln in lines if ln and not ln.endswith(":") and not ln.startswith(".")]
        return next(i for i, ln in enumerate(instrs) if ln.startswith("in pins"))


def firmware_constant(name: str) -> int:
    tree = ast.parse(SOURCE.read_text())
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == name
        ):
            call = node.value
            assert isinstance(call, ast.Call)
            return int(ast.literal_eval(call.args[0]))
    raise KeyError(name)


def load() -> Program:
    tree = ast.parse(SOURCE.read_text())
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == PROGRAM]
    (dec,) = fn.decorator_list
    assert isinstance(dec, ast.Call) and ast.unparse(dec.func) == "rp2.asm_pio"
    kwargs = {k.arg: ast.unparse(k.value) for k in dec.keywords if k.arg}
    extra: dict[str, Any] = {"type_params": []}  # Python 3.12's field; 3.11's stubs lack it
    plain = ast.FunctionDef(
        name=fn.name, args=fn.args, body=fn.body, decorator_list=[], returns=None, **extra
    )
    module = ast.fix_missing_locations(ast.Module(body=[plain], type_ignores=[]))
    rec = _Recorder()
    ns = rec.namespace()
    exec(compile(module, str(SOURCE), "exec"), ns)  # the firmware's own function body
    ns[PROGRAM]()
    text = rec.text()
    prog = adafruit_pioasm.Program(text)
    kw = prog.pio_kwargs
    words = list(prog.assembled)
    return Program(text, words, kw.get("wrap_target", 0), kw.get("wrap", len(words) - 1), kwargs)


@dataclass(frozen=True)
class Push:
    cycle: int  # state machine cycle at which the word entered the RX FIFO
    word: int


def run(prog: Program, levels: Callable[[int], int], cycles: int) -> tuple[list[Push], list[int]]:
    """Words pushed (drained at once, as the DMA does) and the cycles at which a sample ran."""

    def source(clock: int) -> int:
        return levels(clock)

    source.__annotations__ = {"clock": int, "return": int}  # pioemu reads it; this file has string ones

    pushes: list[Push] = []
    samples: list[int] = []
    sample_pc = prog.sample_pc
    gen = emulate(
        prog.words,
        stop_when=lambda _op, s: s.clock >= cycles,
        input_source=source,
        shift_isr_right=False,  # in_shiftdir=rp2.PIO.SHIFT_LEFT
        wrap_target=prog.wrap_target,
        wrap_top=prog.wrap,
        initial_state=State(),
    )
    for before, after in gen:
        if before.program_counter == sample_pc:
            samples.append(before.clock)
        fifo = after.receive_fifo
        while fifo:
            pushes.append(Push(after.clock, fifo.popleft()))
    return pushes, samples


def records(pushes: list[Push]) -> list[tuple[int, int]]:
    """(stamp, levels) pairs: the two words the program pushes for each change."""
    assert len(pushes) % 2 == 0
    return [(pushes[i + 1].word, pushes[i].word) for i in range(0, len(pushes), 2)]
