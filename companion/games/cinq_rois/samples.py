"""Sample table logs of Les Cinq Rois for the screenshots in the docs and the tests.

``python -m companion.games.cinq_rois.samples DIR`` writes the game's screens to DIR as
``cinq-SCREEN-LANG-WxH.png`` (both languages, 1280x720 and 800x480), through the same code as
``companion snapshot``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from companion.display.snapshot import sample_lines, write_sample
from companion.games.cinq_rois.sim import play_rounds

FIVE = ["Alice", "Bruno", "Chloé", "Dédé", "Émile"]
SEVEN = ["Alice", "Bruno", "Chloé", "Dédé", "Émile", "Fanny", "Maximilien-Alexandre"]


def _rounds(players: list[str], seed: int, count: int, dealer: str) -> list[dict[str, object]]:
    """``count`` rounds really played by the simulated players, entered in turn as points, cards
    left and whole hands (the last one always as whole hands, for the arrangements screen)."""
    out: list[dict[str, object]] = []
    rounds = play_rounds(players, random.Random(seed), dealer)
    for i in range(count):
        played = next(rounds)
        from companion.games.cinq_rois.solver import solve

        way = ("hands", "points", "left")[i % 3] if i < count - 1 else "hands"
        ev: dict[str, object] = {"type": "round_end", "out": played.out}
        if way == "hands":
            ev["hands"] = {p: [str(c) for c in h] for p, h in played.hands.items()}
        else:
            arr = {p: solve(h, played.bonus) for p, h in played.hands.items() if p != played.out}
            if way == "points":
                ev["points"] = {p: a.points for p, a in arr.items()}
            else:
                ev["left"] = {p: [str(c) for c in a.left] for p, a in arr.items()}
        out.append(ev)
    return out


def midgame() -> list[dict[str, object]]:
    """Five players, the first dealer drawn by lot, five rounds counted three ways."""
    ev: list[dict[str, object]] = [
        {"type": "new_game", "game": "cinq-rois", "players": FIVE},
        {"type": "dealer", "player": "Chloé"},
    ]
    return ev + _rounds(FIVE, 5, 5, "Chloé")


def lots() -> list[dict[str, object]]:
    """A new game with no dealer named: the table draws lots."""
    return [{"type": "new_game", "game": "cinq-rois", "players": FIVE}]


def finished() -> list[dict[str, object]]:
    ev: list[dict[str, object]] = [
        {"type": "new_game", "game": "cinq-rois", "players": FIVE, "dealer": "Bruno"}
    ]
    return ev + _rounds(FIVE, 8, 11, "Bruno")


def busy() -> list[dict[str, object]]:
    """Seven players, a long name, ten rounds: the heaviest sheet, 12-card hands."""
    ev: list[dict[str, object]] = [
        {"type": "new_game", "game": "cinq-rois", "players": SEVEN, "dealer": "Maximilien-Alexandre"}
    ]
    return ev + _rounds(SEVEN, 3, 10, "Maximilien-Alexandre")


SAMPLES = {"midgame": midgame, "lots": lots, "finished": finished, "busy": busy}
# Which sample shows each screen best in the docs.
DOC_SAMPLE: dict[str, str | None] = {
    "sheet": "midgame",
    "lots": "lots",
    "lastturn": "midgame",
    "entry": "midgame",
    "round": "busy",
    "gameover": "finished",
    "rules": "midgame",
}


def lines(name: str) -> list[str]:
    return sample_lines(SAMPLES[name]())


def write_log(name: str, folder: Path) -> Path:
    return write_sample(SAMPLES[name](), folder / f"cinq-{name}.jsonl")


def entry_ui(lang: str, screen: str) -> tuple[object, object]:
    """The view and screen state of the midgame sample with round 6 being entered: someone went
    out and, on the entry screen, a whole hand is half typed (the screen's own state, which no
    table log holds)."""
    from companion.display.snapshot import ui_for
    from companion.games.cinq_rois.entry import RoundEntry
    from companion.games.cinq_rois.rules import CinqRoisGame
    from companion.games.cinq_rois.sim import play_round
    from companion.games.cinq_rois.view import build_view
    from companion.table.fold import replay

    game = replay(json.dumps(e, ensure_ascii=False) for e in midgame())
    assert isinstance(game, CinqRoisGame) and game.dealer is not None and game.cards is not None
    played = play_round(game.players, game.round, game.dealer, random.Random(6))
    ui = ui_for(game, lang)
    entry = RoundEntry(game.round, game.players, game.cards, mode="hands")
    entry.go_out(game.players.index(played.out))
    if screen == "lastturn":
        entry.turn_done(game.players.index(entry.pending[0]))
    else:
        entry.skip_turns()
        for player in game.players[:2]:
            entry.select(game.players.index(player))
            for card in played.hands[player]:
                entry.add(str(card))
        entry.select(2)
        for card in played.hands[game.players[2]][:5]:
            entry.add(str(card))
        entry.rank = "Q"
    ui.entry = entry
    return build_view(game), ui


def main(argv: list[str]) -> int:
    import pygame

    from companion.display.snapshot import doc_screens, render, samples_main

    def special(screen: str, lang: str, size: tuple[int, int], path: Path) -> bool:
        if screen not in ("entry", "lastturn"):
            return False
        view, ui = entry_ui(lang, screen)
        rendered = render(screen, view, size, lang, ui)  # type: ignore[arg-type]
        pygame.image.save(rendered.surface, str(path))  # type: ignore[arg-type]
        return True

    return samples_main(
        argv,
        "companion.games.cinq_rois.samples",
        lambda out: doc_screens(SAMPLES, DOC_SAMPLE, out, prefix="cinq-", special=special),
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
