"""Pile odds for Kilo de merde: what the next card off the pile is likely to be.

The next card is uniform over the cards it can be: the never-drawn part while it lasts, then the
top block of returned cards. A 7 is counted at 0 kilos in ``expected_kilos`` (it flushes);
``expected_change`` gives, per player, the expected change of their total if they drew next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.cards import Rank
from companion.games.kilo.state import KILOS

if TYPE_CHECKING:
    from companion.games.kilo.rules import KiloGame


@dataclass(frozen=True, slots=True)
class PileOdds:
    count: int
    known_bottom: int
    source: str  # "unknown", "returned" or "empty"
    ranks: dict[str, int]  # rank -> how many the next card can be drawn from
    ace: float
    seven: float
    expected_kilos: float
    expected_change: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ranks": self.ranks,
            "next_draw": {
                "ace": round(self.ace, 4),
                "seven": round(self.seven, 4),
                "expected_kilos": round(self.expected_kilos, 2),
                "expected_change": {p: round(v, 2) for p, v in self.expected_change.items()},
            },
        }


def pile_odds(game: KiloGame) -> PileOdds:
    source, counts = game.draw_source()
    total = sum(counts.values())
    ranks = {r.value: counts[r] for r in sorted(counts, key=lambda r: r.order)}
    if not total:
        return PileOdds(
            game.pile_count, game.known_bottom, source, ranks, 0.0, 0.0, 0.0, {p: 0.0 for p in game.players}
        )
    ace = counts.get(Rank.ACE, 0) / total
    seven = counts.get(Rank.SEVEN, 0) / total
    others = sum(KILOS[r] * n for r, n in counts.items() if r is not Rank.SEVEN) / total
    change: dict[str, float] = {}
    for player in game.players:
        keeps_seven = game.rules.seven == "first_card_counts" and not game.cards_of(player)
        seven_effect = 7.0 if keeps_seven else -float(game.kilos(player))
        change[player] = others + seven * seven_effect
    return PileOdds(game.pile_count, game.known_bottom, source, ranks, ace, seven, others, change)
