"""13 feuilles' part of the phones' page (``Game.feed``): the table (the trick in play, whose
turn) and the race to the target."""

from __future__ import annotations

from typing import Any

from companion.games.plain import plain
from companion.games.treize.rules import TreizeGame
from companion.games.treize.view import build_view


def feed(engine: TreizeGame) -> dict[str, Any]:
    tv = build_view(engine)
    return {
        # The phones draw it as a table of turns (standings.js's ``drawTurns``), by this key.
        "turns": {
            "variant": tv.variant,
            "game_number": tv.game_number,
            "trick": tv.trick,
            "turn": tv.turn,
            "stacks": [list(v) for v in tv.stacks],
            "last_play": plain(tv.last_play),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "passed": s.passed,
                    "turn": s.turn,
                    "leader": s.leader,
                    "count": s.count,
                    "total": s.total,
                }
                for s in tv.seats
            ],
            "target": tv.target,
        }
    }
