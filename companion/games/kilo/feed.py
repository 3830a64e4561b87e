"""Kilo de merde's part of the phones' page (``Game.feed``): the round, the last slap, the
table's card entry and its tiles, as the table's screen shows them."""

from __future__ import annotations

from typing import Any

from companion.games.kilo.rules import KiloGame
from companion.games.kilo.view import build_view
from companion.games.plain import plain


def feed(engine: KiloGame) -> dict[str, Any]:
    view = build_view(engine)
    out: dict[str, Any] = {"round": [view.round, view.rounds], "last_slap": plain(view.last_slap)}
    if view.awaiting == "draw":
        # The table's card entry: who draws, and for each rank and card why the pile cannot
        # hold it any more ([fr, en]) or null, in the table's order; the scorer's page
        # offers the same choice as the screen (rank, then a suit or none).
        out["draw"] = {
            "owed": list(view.owed),
            # A list, not an object: a browser puts "2".."10" before "A" in an object.
            "ranks": [[rank, plain(why)] for rank, why in view.rank_reasons.items()],
            "cards": plain(view.card_reasons),
        }
    # How a tile writes its score, in both languages ("{0}": the number): the page's words are
    # every game's, a unit is the game's.
    out["tile_score"] = {"fr": "{0} kilos", "en": "{0} kilos"}
    # The table's tiles, in seating order: kilos, the cards drawn, who owes a draw.
    out["tiles"] = [
        {
            "seat": s.seat,
            "name": s.name,
            "kilos": s.kilos,
            "cards": list(s.cards),
            "owes": s.owes,
            "starter": s.starter,
            "place": s.place,
            "change": s.change,
        }
        for s in view.seats
    ]
    return out
