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
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "cinq-rois", "players": FIVE},
                                   {"type": "dealer", "player": "Chloé"}]
    return ev + _rounds(FIVE, 5, 5, "Chloé")


def lots() -> list[dict[str, object]]:
    """A new game with no dealer named: the table draws lots."""
    return [{"type": "new_game", "game": "cinq-rois", "players": FIVE}]


def finished() -> list[dict[str, object]]:
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "cinq-rois", "players": FIVE,
                                    "dealer": "Bruno"}]
    return ev + _rounds(FIVE, 8, 11, "Bruno")


def busy() -> list[dict[str, object]]:
    """Seven players, a long name, ten rounds: the heaviest sheet, 12-card hands."""
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "cinq-rois", "players": SEVEN,
                                    "dealer": "Maximilien-Alexandre"}]
    return ev + _rounds(SEVEN, 3, 10, "Maximilien-Alexandre")


SAMPLES = {"midgame": midgame, "lots": lots, "finished": finished, "busy": busy}
# Which sample shows each screen best in the docs.
DOC_SAMPLE = {"sheet": "midgame", "lots": "lots", "entry": "midgame", "round": "busy",
              "gameover": "finished", "rules": "midgame"}


def lines(name: str) -> list[str]:
    return [json.dumps(e, ensure_ascii=False) + "\n" for e in SAMPLES[name]()]


def write_log(name: str, folder: Path) -> Path:
    path = folder / f"cinq-{name}.jsonl"
    path.write_text("".join(lines(name)), encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    import tempfile

    from companion.display.snapshot import snapshot

    out = Path(argv[0]) if argv else Path("docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        logs = {name: write_log(name, Path(tmp)) for name in SAMPLES}
        for screen, sample in DOC_SAMPLE.items():
            for lang in ("fr", "en"):
                for w, h in ((1280, 720), (800, 480)):
                    snapshot(screen, logs[sample], (w, h), lang,
                             out / f"cinq-{screen}-{lang}-{w}x{h}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
