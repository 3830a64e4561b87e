"""Sample table logs for the screenshots in the docs, the tests and the benchmark.

``python -m companion.games.kilo.samples DIR`` writes every screen of the samples to DIR as PNGs
(both languages, 1280x720 and 800x480), through the same code as ``companion snapshot``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.display.snapshot import sample_lines, write_sample

FIVE = ["Alice", "Bruno", "Chloé", "Dédé", "Émile"]
TEN = [
    "Alice",
    "Bruno",
    "Chloé",
    "Dédé",
    "Émile",
    "Fanny",
    "Gaston",
    "Hélène",
    "Ibrahim",
    "Maximilien-Alexandre",
]


def _slap(t0: int, order: list[str], gaps_us: list[int]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    t = t0
    for name, gap in zip(order, [0, *gaps_us], strict=False):
        t += gap
        out.append({"type": "press", "player": name, "t_us": t})
    return out


def midgame() -> list[dict[str, object]]:
    """Five players in round 4 of 6: a flush, cards in front, and a valid slap lost by 3.2 ms."""
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "kilo", "players": FIVE, "rounds": 6}]
    rounds = [
        (["Bruno", "Alice", "Dédé", "Émile", "Chloé"], "AH"),
        (["Chloé", "Émile", "Alice", "Bruno", "Dédé"], "9S"),
        (["Dédé", "Chloé", "Bruno", "Alice", "Émile"], "10D"),
    ]
    t = 1_000_000
    for order, card in rounds:
        ev += _slap(t, order, [184_200, 31_500, 62_900, 11_300])
        ev += [{"type": "verdict", "valid": True}, {"type": "draw", "player": order[-1], "card": card}]
        t += 40_000_000
    # A false slap in round 4, then a flush for the player who slapped in error.
    ev += _slap(t, ["Émile", "Alice"], [240_000])
    ev += [{"type": "verdict", "valid": False}, {"type": "draw", "player": "Émile", "card": "7C"}]
    t += 20_000_000
    ev.append({"type": "starter", "player": "Chloé"})
    ev += _slap(t, ["Alice", "Bruno", "Dédé", "Émile", "Chloé"], [180_000, 50_000, 30_500, 3_200])
    ev.append({"type": "verdict", "valid": True})
    return ev


def verdict() -> list[dict[str, object]]:
    """A slap in progress: four of five have pressed, the table must judge."""
    ev = midgame()[:-1]
    ev.pop()  # the last press: Chloé has not pressed yet
    return ev


def finished() -> list[dict[str, object]]:
    ev = [e for e in midgame() if e.get("type") != "starter"]
    ev.append({"type": "draw", "player": "Chloé", "card": "8H"})
    t = 400_000_000
    for i, (order, card) in enumerate(
        [
            (["Alice", "Chloé", "Dédé", "Émile", "Bruno"], "AS"),
            (["Bruno", "Alice", "Chloé", "Émile", "Dédé"], "5D"),
        ]
    ):
        ev += _slap(t + i * 30_000_000, order, [150_000, 40_000, 20_000, 8_700])
        ev += [{"type": "verdict", "valid": True}, {"type": "draw", "player": order[-1], "card": card}]
    return ev


def busy() -> list[dict[str, object]]:
    """Ten players, long names, cards everywhere and a window half-pressed: the heaviest frame."""
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "kilo", "players": TEN, "rounds": 12}]
    cards = ["AH", "10S", "10C", "AS", "7D", "10D", "AC", "10H", "AD"]
    t = 1_000_000
    for i, card in enumerate(cards):
        loser = TEN[(i * 3) % 10]
        order = [p for p in TEN if p != loser] + [loser]
        ev += _slap(t, order, [20_000 + (i * 137) % 900] * 9)
        ev += [{"type": "verdict", "valid": True}, {"type": "draw", "player": loser, "card": card}]
        t += 10_000_000
    ev += _slap(t, TEN[:7], [31_000] * 6)
    return ev


SAMPLES = {"midgame": midgame, "verdict": verdict, "finished": finished, "busy": busy}
# Which sample shows each screen best in the docs.
DOC_SAMPLE = {
    "setup": None,
    "setup-settings": None,  # the setup's second page (drawn by ``main``'s special)
    "table": "midgame",
    "slap": "midgame",
    "verdict": "verdict",
    "card": "midgame",
    "pile": "midgame",
    "history": "finished",
    "gameover": "finished",
    "rules": "midgame",
    "status": "midgame",
}


def lines(name: str) -> list[str]:
    return sample_lines(SAMPLES[name]())


def write_log(name: str, folder: Path) -> Path:
    return write_sample(SAMPLES[name](), folder / f"{name}.jsonl")


def main(argv: list[str]) -> int:
    import pygame

    from companion.display.snapshot import doc_screens, render, samples_main
    from companion.display.state import Ui

    def special(screen: str, lang: str, size: tuple[int, int], path: Path) -> bool:
        if screen != "setup-settings":
            return False
        ui = Ui(lang=lang)
        ui.setup.page = "settings"
        pygame.image.save(render("setup", None, size, lang, ui).surface, str(path))  # type: ignore[arg-type]
        return True

    return samples_main(
        argv,
        "companion.games.kilo.samples",
        lambda out: doc_screens(SAMPLES, DOC_SAMPLE, out, prefix="", special=special),
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
