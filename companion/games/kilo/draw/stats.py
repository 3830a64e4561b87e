"""Kilo de merde's columns of the table screen's stats (``display/tally.py``): the players'
reaction, draws per game, false slaps and closest escape, a dash for who never played it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.display.tally import Column, share
from companion.display.theme import BAD, MUTED
from companion.i18n import ms, t

if TYPE_CHECKING:
    from companion.games.kilo.stats import KiloPart


def columns(parts: Sequence[KiloPart], lang: str) -> list[Column]:
    """No column when none of the players shown has played the game."""
    if not any(s.games for s in parts):
        return []
    dash = "—"
    slowest = max((s.median_delay_us or 0 for s in parts), default=0)
    lost = [s.slap_losses / s.games if s.games else 0.0 for s in parts]
    false_top = max(1, max(s.false_slaps for s in parts))
    return [
        Column(
            t("scr.stats.reaction", lang),
            1.3,
            tuple(ms(s.median_delay_us, lang) if s.median_delay_us is not None else dash for s in parts),
            tuple(share(s.median_delay_us or 0, slowest) for s in parts),
            MUTED,  # a measure, no role (yellow is a warning only)
        ),
        Column(
            t("scr.stats.draws", lang),
            1.2,
            tuple(
                t("scr.stats.per_game", lang, n=float(x)) if s.games else dash
                for s, x in zip(parts, lost, strict=True)
            ),
            tuple(share(x, max(lost)) for x in lost),
            BAD,
        ),
        Column(
            t("scr.stats.false", lang),
            1.0,
            tuple(str(s.false_slaps) if s.games else dash for s in parts),
            tuple(share(s.false_slaps, false_top) for s in parts),
            MUTED,
        ),
        Column(
            t("scr.stats.closest", lang),
            1.2,
            tuple(ms(s.closest_escapes(1)[0], lang) if s.closest_escapes(1) else dash for s in parts),
        ),
    ]
