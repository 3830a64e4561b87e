"""Les Cinq Rois' part of the phones' page (``Game.feed``): the round and the score sheet."""

from __future__ import annotations

from typing import Any

from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.view import build_view


def feed(engine: CinqRoisGame) -> dict[str, Any]:
    cv = build_view(engine)
    return {
        "round": [engine.round, 11],
        # The score sheet: a row a round, a column a player (seating order), then the totals.
        "sheet": {
            "rows": [
                {"round": r.round, "dealer": r.dealer, "out": r.out, "scores": list(r.scores)}
                for r in cv.history
            ],
            "totals": list(cv.totals),
            "places": list(cv.places),
            "cards": cv.cards,
            "bonus": cv.bonus,
        },
    }
