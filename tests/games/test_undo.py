"""The undo stack keeps its older part in a temporary file: it must give back exactly what was
pushed, newest first, and a game undone thousands of decisions deep must be the game whose log
never held them."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError, LogError
from companion.games.kilo.slap import SlapWindow
from companion.games.undo import Checkpoints, pickled_by_fields
from companion.table.fold import Fold, replay
from tests.games.kilo.test_rules_undo import without_undone


def test_the_stack_gives_back_what_was_pushed_newest_first_across_the_file() -> None:
    rng = random.Random(22)
    stack: Checkpoints[tuple[int, list[int]]] = Checkpoints(keep=3)
    model: list[tuple[int, list[int]]] = []
    spilled = 0
    for step in range(5000):
        # Pushes outweigh pops, so the stack goes deep, then drains to empty at the end.
        if model and (step > 4000 or rng.random() < 0.4):
            assert stack.top() == model[-1]
            assert stack.pop() == model.pop()
        else:
            item = (step, [step] * rng.randrange(4))
            stack.append(item)
            model.append(item)
        assert len(stack) == len(model) and bool(stack) == bool(model)
        assert stack.in_memory <= 6  # never more than 2 * keep in memory
        spilled = max(spilled, len(stack) - stack.in_memory)
    while model:
        assert stack.pop() == model.pop()
    assert not stack and spilled > 100
    with pytest.raises(IndexError):
        stack.pop()


def test_without_a_temporary_folder_everything_stays_in_memory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))
    stack: Checkpoints[int] = Checkpoints(keep=2)
    for i in range(50):
        stack.append(i)
    assert stack.in_memory == 50
    assert [stack.pop() for _ in range(50)] == list(range(49, -1, -1))


KILO = '{"type": "new_game", "game": "kilo", "players": ["Ana", "Bea", "Cy"], "rounds": 99}'


def _kilo_log(decisions: int, undos: int, redraw: bool = False) -> list[str]:
    """Cards in front of players and a flush under the pile first (so a checkpoint holds more
    than counters), then ``decisions`` false slaps nobody pays for, each a decision in force,
    then ``undos`` undos in a row, the last draw made again if ``redraw``, and two presses judged
    on what remains."""
    rng = random.Random(7)
    lines = [KILO]
    t = 0

    def press(player: str, coarse: bool = True) -> None:
        nonlocal t
        t += rng.randrange(1, 50_000) + (0 if coarse else 100_000)
        res = rng.choice(["", ', "res_us": 60', ', "res_us": 20000'] if coarse else [""])
        lines.append(f'{{"type": "press", "player": "{player}", "t_us": {t}{res}}}')

    for card in ("9H", "AS", "7D", "5C"):  # the 7 flushes Cy's 9H back under the pile
        for player in ("Ana", "Bea", "Cy"):
            press(player, coarse=False)
        lines.append('{"type": "verdict", "valid": true}')
        lines.append(f'{{"type": "draw", "player": "Cy", "card": "{card}"}}')
        t += 10_000_000
    for _ in range(decisions):
        press(rng.choice(["Ana", "Bea"]))
        lines.append('{"type": "verdict", "valid": false, "penalized": []}')
        t += 10_000_000
    lines.extend(['{"type": "undo"}'] * undos)
    if redraw:
        lines.append('{"type": "draw", "player": "Cy", "card": "6D"}')
    press("Bea")
    press("Ana")
    return lines


def _state(lines: list[str]) -> dict[str, Any]:
    return replay(lines).to_json()


def test_kilo_undone_thousands_deep_is_the_log_without_those_decisions() -> None:
    from companion.table.log import iter_events

    # Down to the last draw, made again: the window restored from the file, never pressed before,
    # takes the presses that follow.
    lines = _kilo_log(decisions=5000, undos=5001, redraw=True)
    fold = Fold()
    deepest = 0
    for _, event in iter_events(lines):
        fold.feed(event)
        stack = fold.engine._checkpoints  # type: ignore[union-attr]
        deepest = max(deepest, len(stack) - stack.in_memory)
    assert deepest > 2000  # most checkpoints waited in the file, and came back from it
    kept, undos, longest = without_undone([event for _, event in iter_events(lines)])
    assert undos == longest == 5001
    expected = replay([event.to_json() for event in kept]).to_json()
    assert fold.engine.to_json() == expected  # type: ignore[union-attr]
    # The whole stack undone, and one undo more: refused at its line, as with a short log.
    overshoot = _kilo_log(decisions=3000, undos=3000 + 8 + 1)
    with pytest.raises(LogError) as err:
        replay(overshoot)
    assert err.value.line == 1 + 4 * 5 + 3000 * 2 + 3009
    assert "there is nothing to undo" in str(err.value)


def test_treize_passes_undone_thousands_deep_are_the_log_without_them() -> None:
    lines = [
        '{"type": "new_game", "game": "treize", "players": ["Ana", "Bea", "Cy", "Dom"], "starter": "Ana"}'
    ]
    passes = [f'{{"type": "pass", "player": "{("Bea", "Cy", "Dom")[i % 3]}"}}' for i in range(6000)]
    undone = replay([*lines, *passes, *['{"type": "undo"}'] * 4500]).to_json()
    assert undone == replay([*lines, *passes[:1500]]).to_json()
    assert undone != replay([*lines, *passes[:1501]]).to_json()


# --- the stack's edges, one rule each (bench/mutation.py judges undo.py with this file) --------


def test_a_stack_keeps_at_least_one_in_memory() -> None:
    with pytest.raises(ValueError) as err:
        Checkpoints(keep=0)
    assert str(err.value) == "keep must be at least 1"
    stack: Checkpoints[int] = Checkpoints(keep=1)
    assert not stack and len(stack) == 0 and stack.in_memory == 0
    stack.append(7)
    assert stack and len(stack) == 1 and stack.in_memory == 1 and stack.top() == 7
    stack.append(8)  # 2 * keep: the older one goes to the file at once
    assert (len(stack), stack.in_memory) == (1 + 1, 1)
    assert stack.pop() == 8
    assert stack and (len(stack), stack.in_memory) == (1, 0)  # the one left is in the file
    assert [stack.top(), stack.pop()] == [7, 7]
    assert not stack and len(stack) == 0
    with pytest.raises(IndexError):
        stack.top()


def test_the_default_stack_keeps_a_thousand_and_twenty_four_in_memory() -> None:
    stack: Checkpoints[int] = Checkpoints()
    for i in range(2047):
        stack.append(i)
    assert stack.in_memory == 2047  # below 2 * keep nothing is written
    stack.append(2047)
    assert (len(stack), stack.in_memory) == (2048, 1024)
    # Emptied from the file down to the last: bool stays true while only the file holds some.
    for i in range(2047, -1, -1):
        assert stack and stack.pop() == i
    assert not stack


def test_a_batch_read_back_is_written_over_by_the_next() -> None:
    """Batches read back leave their room in the file: pushing again writes over them, and what
    is read then is the new batch, never the old bytes."""
    stack: Checkpoints[str] = Checkpoints(keep=2)
    for i in range(8):
        stack.append(f"a{i}")
    for _ in range(6):
        stack.pop()  # a5 .. a0: the file's batches come back
    assert len(stack) == 2
    for i in range(6):
        stack.append(f"b{i}")
    assert [stack.pop() for _ in range(8)] == [*(f"b{i}" for i in range(5, -1, -1)), "a1", "a0"]


class _Disk:
    """A real temporary file that fills up: writes fail once ``room`` bytes are written, or reads
    fail once ``readable`` is False (a disk gone bad)."""

    def __init__(self, room: int) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the test)
        self.room = room
        self.readable = True
        self.opened = 0
        self.asked: tuple[tuple[Any, ...], dict[str, Any]] = ((), {})

    def open(self, *args: Any, **kwargs: Any) -> _Disk:
        self.opened += 1
        self.asked = (args, kwargs)
        return self

    def seek(self, offset: int) -> int:
        return self.file.seek(offset)

    def write(self, data: bytes) -> int:
        if self.file.tell() + len(data) > self.room:
            raise OSError(28, "No space left on device")
        return self.file.write(data)

    def read(self, size: int) -> bytes:
        if not self.readable:
            raise OSError(5, "Input/output error")
        return self.file.read(size)


def test_a_full_disk_keeps_what_the_file_holds_and_the_rest_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    disk = _Disk(room=200)
    monkeypatch.setattr(tempfile, "TemporaryFile", disk.open)
    stack: Checkpoints[int] = Checkpoints(keep=2)
    for i in range(40):
        stack.append(i)
    assert disk.opened == 1  # one file for the game, opened once
    assert disk.asked == ((), {"prefix": "companion-undo-"})  # named as ours where names show
    spilled = len(stack) - stack.in_memory
    assert 0 < spilled < 38  # some batches fit, then the disk was full
    assert len(stack) == 40
    assert [stack.pop() for _ in range(40)] == list(range(39, -1, -1))
    assert not stack


def test_a_full_disk_is_not_asked_again_for_every_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    writes = 0
    disk = _Disk(room=0)
    original = disk.write

    def counted(data: bytes) -> int:
        nonlocal writes
        writes += 1
        return original(data)

    monkeypatch.setattr(disk, "write", counted)
    monkeypatch.setattr(tempfile, "TemporaryFile", disk.open)
    stack: Checkpoints[int] = Checkpoints(keep=1)
    for i in range(50):
        stack.append(i)
    assert writes == 1 and stack.in_memory == 50


def test_a_file_that_cannot_be_read_back_says_so_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    disk = _Disk(room=1 << 20)
    monkeypatch.setattr(tempfile, "TemporaryFile", disk.open)
    stack: Checkpoints[int] = Checkpoints(keep=1)
    for i in range(4):
        stack.append(i)
    disk.readable = False
    assert stack.pop() == 3
    with pytest.raises(CompanionError) as err:
        stack.pop()
    assert err.value.message("en") == (
        "the older decisions kept for undo could not be read back from the temporary folder "
        "(Input/output error): replay the game from its log or journal"
    )
    assert err.value.message("fr") == (
        "les décisions plus anciennes gardées pour l\u2019annulation n\u2019ont pas pu être relues "
        "dans le dossier temporaire (Input/output error)\u202f: rejouez la partie depuis son journal"
    )


def test_a_class_decorated_while_the_test_runs_is_pickled_by_its_fields() -> None:
    # Decorated here, not at import: the mutation bench judges what runs inside the tests.
    @dataclasses.dataclass(slots=True)
    class One:
        value: list[int]

    @dataclasses.dataclass(slots=True)
    class Two:
        name: str
        counts: dict[str, int]

    one, two = pickled_by_fields(One)([1, 2]), pickled_by_fields(Two)("Ana", {"kilos": 3})
    assert one.__reduce__() == (One, ([1, 2],))  # one field: still a tuple of arguments
    assert two.__reduce__() == (Two, ("Ana", {"kilos": 3}))
    # What pickle does with it (copy takes the same path without looking the class up by name).
    back = copy.deepcopy(two)
    assert back == two and type(back) is Two and back.counts is not two.counts
    assert copy.deepcopy(one) == one
    # And the engines' own classes through pickle itself.
    window = SlapWindow(["Ana", "Bea"], 5_000_000)
    window.add("Ana", 1000, 60)
    assert pickle.loads(pickle.dumps(window)).result() == window.result()


def test_none_ahead_forgets_everything_and_keeps_nothing_more() -> None:
    """A replay past its log's last undo: the stack, file included, is dropped, and what is
    pushed after is not kept (the engines skip the state copy on ``needed``)."""
    stack: Checkpoints[int] = Checkpoints(keep=2)
    for item in range(20):
        stack.append(item)
    assert stack._file is not None and len(stack) == 20 and stack.needed
    stack.none_ahead()
    assert not stack and len(stack) == 0 and stack.in_memory == 0 and not stack.needed
    assert stack._file is None
    stack.append(21)
    assert not stack
    with pytest.raises(IndexError):
        stack.pop()
