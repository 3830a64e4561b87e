"""Soak: an evening of Kilo de merde on the table screen at 1920x1080, headless and sped up, RSS
printed every simulated minute. One JSON object a line.

    python bench/soak.py                       # an hour of play, at 60x (about a minute a game-hour
                                               # of wall time if the machine keeps up)
    python bench/soak.py --minutes 10 --speed 120

The real ``App`` (the same object ``companion play`` runs) draws every frame into a 1920x1080
surface with SDL's dummy driver; simulated players slap (``--input sim``), and the bench plays
the table: a verdict about two simulated seconds after each slap, the owed draws, a look at
another screen now and then, and a new game with new names when one ends. Lines:
``{"name": "soak.rss", "minute", "rss_mb", "text_cache_mb", "texts", "fonts", "games", "events"}``
then ``{"name": "soak.summary", ..., "growth_after_5_min_mb", "target_mb": 10, "ok"}``, the growth
being the median RSS of the last five minutes less that of minutes 5 to 9 (needs --minutes 11 or
more).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FIRST = [
    "Alice",
    "Bob",
    "Chloé",
    "Dan",
    "Élodie",
    "Fanny",
    "Gaspard",
    "Hugo",
    "Inès",
    "Jules",
    "Karim",
    "Léa",
    "Manon",
    "Noé",
    "Océane",
    "Paul",
    "Quentin",
    "Rose",
    "Sacha",
    "Théo",
]
SCREENS = ("table", "pile", "history", "status", "rules")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def emit(data: dict[str, object]) -> None:
    print(json.dumps(data, ensure_ascii=False), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60, help="simulated minutes (default 60)")
    parser.add_argument(
        "--speed", type=float, default=60, help="simulated seconds per wall second (default 60)"
    )
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    import pygame

    from companion.display.app import App
    from companion.display.app_actions import Nav
    from companion.display.state import Ui
    from companion.games.kilo.demo import choose_card
    from companion.games.kilo.events import Draw, NewKiloGame, Verdict
    from companion.table.journal import Journal
    from companion.table.live import Table

    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((width, height))
    rng = random.Random(args.seed)
    wall0 = time.monotonic()

    def now() -> float:  # the simulated clock: animations run at the simulated pace too
        return wall0 + (time.monotonic() - wall0) * args.speed

    def names() -> list[str]:
        picked = rng.sample(FIRST, 10)
        return [f"{n} {rng.randrange(100)}" if rng.random() < 0.5 else n for n in picked]

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp), writer=True)
        table = Table.start(journal, NewKiloGame(players=names(), rounds=99), {"input": "sim"})
        app = App(
            surface,
            journal,
            table,
            Ui(lang="fr"),
            source_name="sim",
            seed=args.seed,
            speed=args.speed,
            now=now,
        )
        app.start()  # as `companion play` does: the constructor starts nothing
        games, events, minute = 1, 0, 0
        waiting_since: float | None = None
        end = now() + args.minutes * 60
        next_minute = now()
        first: float | None = None
        samples: list[float] = []
        try:
            # Until the time is up and every whole minute's sample is taken: the last sample
            # falls due exactly at the end, and a turn may land just past it.
            while now() < end or minute <= int(args.minutes):
                app.dirty = True  # a frame every turn: the most text the screen can churn
                app.step(0.002)
                if now() >= next_minute:
                    rss = rss_mb()
                    stats = (
                        app.fonts.stats()
                        if hasattr(app.fonts, "stats")
                        else {"text_bytes": 0, "texts": len(app.fonts._texts), "fonts": len(app.fonts._fonts)}
                    )  # the uncapped cache of old
                    emit(
                        {
                            "name": "soak.rss",
                            "minute": minute,
                            "rss_mb": round(rss, 1),
                            "text_cache_mb": round(stats["text_bytes"] / 2**20, 1),
                            "texts": stats["texts"],
                            "fonts": stats["fonts"],
                            "games": games,
                            "events": events,
                            "frames": app.frames,
                            "wall_s": round(time.monotonic() - wall0, 1),
                        }
                    )
                    first = rss if first is None else first
                    samples.append(rss)
                    minute += 1
                    next_minute += 60
                game = app.game
                if game.finished:
                    app.start_game(NewKiloGame(players=names(), rounds=99), "sim")
                    games += 1
                    continue
                awaiting = game.awaiting
                if awaiting == "play":
                    waiting_since = None
                    continue
                waiting_since = waiting_since or now()
                if now() - waiting_since < 2:  # the table takes two seconds to decide
                    continue
                waiting_since = None
                if awaiting == "verdict":
                    app.submit(Verdict(valid=rng.random() < 0.8))
                elif awaiting == "draw":
                    owed = app.view.owed if hasattr(app.view, "owed") else game.to_json()["owed_draws"]
                    app.submit(Draw(player=owed[0], card=choose_card(game, rng)))
                events += 1
                if rng.random() < 0.15:
                    app.do(Nav(rng.choice(SCREENS)))
                elif rng.random() < 0.3:
                    app.do(Nav("table"))
        finally:
            app.stop_source()
            journal.close()
    summary: dict[str, object] = {
        "name": "soak.summary",
        "minutes": args.minutes,
        "speed": args.speed,
        "size": args.size,
        "games": games,
        "events": events,
        "frames": app.frames,
        "rss_first_mb": round(first or 0, 1),
        "rss_end_mb": round(rss_mb(), 1),
        "wall_s": round(time.monotonic() - wall0, 1),
        "target_mb": 10,
    }
    if len(samples) >= 11:
        # RSS wobbles by a few MB as the allocator reuses freed surfaces: compare medians of
        # five minutes (5-9 against the last five), the trend, and say the wobble too.
        import statistics

        early = statistics.median(samples[5:10])
        late = statistics.median(samples[-5:])
        summary.update(
            {
                "rss_median_min_5_9_mb": round(early, 1),
                "rss_median_last_5_min_mb": round(late, 1),
                "rss_max_after_5_min_mb": round(max(samples[5:]), 1),
                "growth_after_5_min_mb": round(late - early, 1),
                "ok": late - early <= 10,
            }
        )
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
