"""`companion replay`'s fast path against the plain engine, step by step.

``replay`` on a file (or a list of lines) reads the log ahead for its last undo and, past it,
lets the engine keep no copy of its state for undo (issue 22: those copies were most of a long
replay's time). The reference here folds the same lines one event at a time, each line parsed
by the plain parser (no cache, no shortcut), into an engine that keeps every checkpoint. Every
log the project has is replayed both ways -- the docs' examples, the screens' samples, the demos
of all three games, the same logs with undos inserted (single, chained, at the very end, written
with escapes) -- and the outputs (``--json`` and both summaries), the final states and the
errors must be identical.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import io
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import CompanionError, LogError, RuleError
from companion.games import new_engine
from companion.games.base import GameEngine
from companion.games.cinq_rois import samples as cinq_samples
from companion.games.kilo import samples as kilo_samples
from companion.games.treize import samples as treize_samples
from companion.table import fold as fold_module
from companion.table.fold import Fold, replay
from companion.table.journal import Journal
from companion.table.log import Event, NewGameBase, Undo, _parse_event, _parse_slow
from companion.text import Text

ROOT = Path(__file__).resolve().parents[2]
UNDO = '{"type": "undo"}\n'


def plain(lines: list[str]) -> GameEngine:
    """The reference: one line at a time, the uncached parser, an engine that keeps everything."""
    fold = Fold()
    game: str | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            event = _parse_slow(text, game)
            if isinstance(event, NewGameBase):
                game = event.game
            fold.feed(event)
        except CompanionError as err:
            raise LogError(number, err.text) from None
    if fold.engine is None:
        raise LogError(1, Text.pair(en="no game", fr="aucune partie"))
    return fold.engine


def canon(value: Any) -> Any:
    """A value as plain data, whatever objects are shared: what pickle would keep of it, without
    the identities (two equal names may be one string or two)."""
    if value is None or isinstance(value, bool | int | float | bytes) or type(value) is str:
        return value
    if isinstance(value, enum.Enum | type):
        return repr(value)
    if isinstance(value, list | tuple):
        return (type(value).__name__, [canon(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in value.items()])
    if isinstance(value, set | frozenset):
        return (type(value).__name__, sorted(repr(canon(v)) for v in value))
    reduced = value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    if isinstance(reduced, str):
        return reduced
    rest = [list(part) if isinstance(part, Iterator) else part for part in reduced[1:]]
    return (type(value).__qualname__, canon(rest))


def outcome(engine: GameEngine) -> dict[str, Any]:
    """What a replay shows and what it leaves: the outputs, and the state but for the undo
    checkpoints (which the fast path drops on purpose)."""
    state = {k: v for k, v in vars(engine).items() if k != "_checkpoints"}
    return {
        "json": json.dumps(engine.to_json(), ensure_ascii=False, sort_keys=True),
        "en": engine.summary("en"),
        "fr": engine.summary("fr"),
        "state": canon(state),
    }


def run(replayer: Any, lines: list[str]) -> dict[str, Any] | str:
    try:
        return outcome(replayer(lines))
    except LogError as err:
        return f"{err.en} | {err.fr}"


def fast_from_file(tmp: Path, lines: list[str]) -> Any:
    path = tmp / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")

    def replayer(_: list[str]) -> GameEngine:
        with path.open("rb") as handle:  # as `companion replay FILE` reads it
            return replay(handle, read_only=True)

    return replayer


def assert_same(tmp: Path, lines: list[str]) -> dict[str, Any] | str:
    expected = run(plain, lines)
    assert run(fast_from_file(tmp, lines), lines) == expected
    assert run(functools.partial(replay, read_only=True), list(lines)) == expected
    assert run(replay, list(lines)) == expected  # the copies kept: the same outcome
    return expected


# --- the project's logs ---------------------------------------------------------------------------


def demo_lines(tmp: Path, game: str, seed: int, *extra: str) -> list[str]:
    data = tmp / f"demo-{game}-{seed}"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["demo", game, "--speed", "0", "--seed", str(seed), "--data-dir", str(data), *extra]) == 0
    with Journal(data, writer=False) as journal:
        info = journal.games()[-1]
        return [payload + "\n" for _, payload in journal.payloads(info.id)]


def project_logs(tmp: Path) -> Iterator[tuple[str, list[str]]]:
    for path in sorted((ROOT / "docs" / "examples").rglob("*.jsonl")):
        yield path.name, path.read_text(encoding="utf-8").splitlines(keepends=True)
    for name, module in (("kilo", kilo_samples), ("treize", treize_samples), ("cinq", cinq_samples)):
        for sample in module.SAMPLES:
            yield f"{name}-{sample}", module.lines(sample)
    for seed in (1, 2):
        yield f"demo-kilo-{seed}", demo_lines(tmp, "kilo", seed, "--rounds", "3")
        yield f"demo-treize-{seed}", demo_lines(tmp, "treize", seed, "--players", "4")
        yield f"demo-cinq-{seed}", demo_lines(tmp, "cinq-rois", seed)


def decisions_again(lines: list[str], seed: int, chain: int) -> list[str]:
    """The log with undos: after some events, up to ``chain`` undos in a row, then the undone
    decisions entered again (a table that went back too far). Built on a real engine, so every
    undo undoes something; it stops where an event would be refused."""
    rng = random.Random(seed)
    texts = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    first = _parse_event(texts[0].strip())
    assert isinstance(first, NewGameBase)
    engine = new_engine(first)
    out = [texts[0]]
    applied: list[tuple[Event, str]] = []  # Cinq Rois' decisions in force
    for text in texts[1:]:
        event = _parse_event(text.strip(), first.game)
        try:
            engine.apply(event)
        except RuleError:
            break
        out.append(text)
        applied.append((event, text))
        if rng.random() >= 0.3:
            continue
        undone: list[str] = []
        for _ in range(rng.randint(1, chain)):
            try:
                engine.check(Undo())
            except RuleError:
                break
            engine.apply(Undo())
            out.append(UNDO)
            if hasattr(engine, "_checkpoints"):  # Kilo, 13 feuilles: the undone event itself
                last = engine.last_undone  # type: ignore[attr-defined]
                assert isinstance(last, Event)
                undone.append(last.to_json() + "\n")
            else:  # Cinq Rois: every event is a decision
                undone.append(applied.pop()[1])
        for again in reversed(undone):
            redone = _parse_event(again.strip(), first.game)
            try:
                engine.apply(redone)
            except RuleError:
                return out
            out.append(again)
            applied.append((redone, again))
    return out


def test_the_projects_logs_replay_the_same_both_ways(tmp_path: Path) -> None:
    seen = 0
    for name, lines in project_logs(tmp_path):
        result = assert_same(tmp_path, lines)
        assert isinstance(result, dict), f"{name} does not replay: {result}"
        for seed, chain in ((1, 1), (2, 3), (3, 6)):
            undone = decisions_again(lines, seed, chain)
            assert assert_same(tmp_path, undone) == run(plain, undone), name
            # The undos at the very end: a chain the scan sees last.
            tail = undone + [UNDO] * chain
            assert_same(tmp_path, tail)
            seen += 1
    assert seen >= 3 * 20


def kilo_log(slaps: int, undo_at: set[int] | None = None) -> list[str]:
    lines = ['{"type": "new_game", "game": "kilo", "players": ["Ana", "Bea", "Cy"], "rounds": 99}\n']
    for i in range(slaps):
        lines.append(f'{{"type": "press", "player": "Bea", "t_us": {i * 10_000_000}}}\n')
        lines.append(f'{{"type": "press", "player": "Ana", "t_us": {i * 10_000_000 + 7}}}\n')
        lines.append('{"type": "verdict", "valid": false, "penalized": []}\n')
        if undo_at and i in undo_at:
            lines.append(UNDO)
            lines.append('{"type": "verdict", "valid": false}\n')
            card = "4568"[len(lines) % 4]
            lines.append(f'{{"type": "draw", "player": "Bea", "card": "{card}"}}\n')
    return lines


@pytest.mark.parametrize(
    "undo",
    [
        UNDO,
        '{"type": "\\u0075ndo"}\n',  # escaped: no "undo" in the bytes, a backslash instead
        '{ "type" :  "undo" }\r\n',
    ],
)
def test_a_late_undo_however_written_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, undo: str
) -> None:
    lines = kilo_log(40, {5})
    lines[-3:-3] = [undo, '{"type": "verdict", "valid": false, "penalized": []}\n']
    folds = []
    real_fold = fold_module._fold

    def counted(lines: Any, last_undo: int | None) -> GameEngine:
        folds.append(last_undo)
        return real_fold(lines, last_undo)

    monkeypatch.setattr(fold_module, "_fold", counted)
    assert isinstance(assert_same(tmp_path, lines), dict)
    # Seen by the scan, not caught by the fold starting over: one fold a replay, not two (the
    # file and the list read only; the list again, copies kept, with no scan).
    last = max(number for number, line in enumerate(lines, start=1) if line == undo)
    assert folds == [last, last, None]


def test_undo_right_after_the_scan_point_and_at_the_start(tmp_path: Path) -> None:
    lines = kilo_log(10)
    # Refused: nothing to undo yet; the same sentence both ways.
    bad = [*lines[:1], UNDO, *lines[1:]]
    assert "line 2" in str(assert_same(tmp_path, bad))
    # A comment naming undo and blank lines keep the numbering.
    commented = ["# undo nothing here\n", "\n", *lines, "# undo\n", UNDO]
    assert isinstance(assert_same(tmp_path, commented), dict)


def test_an_undo_the_scan_missed_starts_the_fold_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log that grew after the scan (or a scan that erred) must not lose an undo: the fold
    starts over without the shortcut."""
    lines = kilo_log(20, {3, 15})
    expected = run(plain, lines)
    monkeypatch.setattr(fold_module, "_last_undo_line", lambda _lines: 1)
    assert run(fast_from_file(tmp_path, lines), lines) == expected
    assert run(replay, list(lines)) == expected


def test_past_the_last_undo_no_checkpoint_is_kept(tmp_path: Path) -> None:
    """The shortcut is taken: after the last undo the engine keeps no state copy."""
    lines = kilo_log(300, {2})
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    with path.open("rb") as handle:
        engine = replay(handle, read_only=True)
    assert len(engine._checkpoints) == 0  # type: ignore[attr-defined]
    assert len(plain(lines)._checkpoints) == 301  # type: ignore[attr-defined]


def test_a_replay_that_plays_on_can_still_undo(tmp_path: Path) -> None:
    """Only ``companion replay`` (read_only) drops the undo copies: an engine a caller plays on
    (a screen, a test) undoes its last decisions as the plain fold's does. The shortcut once
    applied to every replay of a list or file, and an undo after it said "nothing to undo"."""
    lines = kilo_log(5)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    with path.open("rb") as handle:
        from_file = replay(handle)
    for engine in (replay(lines), from_file):
        expected = plain(lines)
        for _ in range(3):
            engine.apply(Undo())
            expected.apply(Undo())
        assert outcome(engine) == outcome(expected)
