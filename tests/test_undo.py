"""The undo stack keeps its older part in a temporary file: it must give back exactly what was
pushed, newest first, and a game undone thousands of decisions deep must be the game whose log
never held them."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest

from companion.errors import LogError
from companion.games.undo import Checkpoints
from companion.table.fold import Fold, replay
from tests.test_kilo_undo import without_undone


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
