"""Sample 13 feuilles table logs for the screenshots in the docs and the tests.

The logs are cut from matches the simulated players play (``sim.simulate_match``) with fixed
seeds, at the moment that shows a screen best, so they always replay.
``python -m companion.games.treize.samples DIR`` writes every treize screen of the samples to DIR
as PNGs named ``treize-SCREEN-LANG-WxH.png`` (both languages, 1280x720 and 800x480).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.display.snapshot import sample_lines, write_sample
from companion.games.treize.events import NewTreizeGame
from companion.games.treize.rules import TreizeGame
from companion.games.treize.sim import simulate_match
from companion.table.log import Event

FIVE = ["Alice", "Bruno", "Chloé", "Dédé", "Émile"]
SIX = ["Alice", "Bruno", "Chloé", "Dédé", "Émile", "Maximilien-Alexandre"]


def _dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [json.loads(e.to_json()) for e in events]


def _match(seed: int, players: list[str], **kw: Any) -> list[Event]:
    return simulate_match(random.Random(seed), players, **kw)


def _cut(events: list[Event], stop: Callable[[TreizeGame], bool]) -> list[Event]:
    """The events up to the first state where ``stop`` holds."""
    setup = events[0]
    assert isinstance(setup, NewTreizeGame)
    game = TreizeGame(setup)
    for i, event in enumerate(events[1:], start=1):
        game.apply(event)
        if stop(game):
            return events[: i + 1]
    return events


def _busy_table(game: TreizeGame, number: int) -> bool:
    series = game.series
    return (
        game.game_number == number
        and series is not None
        and len(series.stacks) >= 3
        and len(game.passed) >= 1
        and game.turn is not None
    )


def lots() -> list[dict[str, Any]]:
    """An advanced match about to start: who starts is drawn by lot."""
    return [{"type": "new_game", "game": "treize", "players": FIVE, "variant": "advanced"}]


def midgame() -> list[dict[str, Any]]:
    """Five players in game 2 of an advanced match: three stacks on the table, one has passed."""
    return _dicts(_cut(_match(7, FIVE), lambda g: _busy_table(g, 2)))


def result() -> list[dict[str, Any]]:
    """Game 2 has just ended: the score sheet and the race to 20."""
    return _dicts(_cut(_match(7, FIVE), lambda g: g.games_played == 2))


def finished() -> list[dict[str, Any]]:
    return _dicts(_match(7, FIVE))


def busy() -> list[dict[str, Any]]:
    """Six players, a long name, late in the match: the heaviest frame."""
    events = _match(11, SIX)
    whole = TreizeGame(NewTreizeGame(players=SIX, variant="advanced"))
    for e in events[1:]:
        whole.apply(e)
    return _dicts(_cut(events, lambda g: _busy_table(g, whole.games_played)))


def passes() -> list[dict[str, Any]]:
    """The spec's minimal log, without plays: passes only, in game 2."""
    events = _match(5, FIVE, enter_plays=False)
    return _dicts(_cut(events, lambda g: g.game_number == 2 and len(g.passed) == 2))


SAMPLES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "lots": lots,
    "midgame": midgame,
    "result": result,
    "finished": finished,
    "busy": busy,
    "passes": passes,
}
# Which sample shows each screen best in the docs.
DOC_SAMPLE: dict[str, str | None] = {
    "table": "midgame",
    "play": "midgame",
    "take": "midgame",
    "lots": "lots",
    "scores": "result",
    "end": "passes",
    "gameover": "finished",
    "rules": "midgame",
}


def lines(name: str) -> list[str]:
    return sample_lines(SAMPLES[name]())


def write_log(name: str, folder: Path) -> Path:
    return write_sample(SAMPLES[name](), folder / f"treize-{name}.jsonl")


def main(argv: list[str]) -> int:
    from companion.display.snapshot import doc_screens, samples_main

    return samples_main(
        argv,
        "companion.games.treize.samples",
        lambda out: doc_screens(SAMPLES, DOC_SAMPLE, out, prefix="treize-"),
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
