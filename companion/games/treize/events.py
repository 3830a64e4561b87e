"""The table-log event that 13 feuilles adds: one play on the series (docs/treize-play-event.md).

The other events of the game (``pass``, ``trick_end``, ``game_end``) live in companion.tablelog
with the events every game shares; this module imports only ``Event`` from there, because the
table log imports ``Play`` from here to read ``{"type": "play"}`` lines.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from companion.games.treize.series import MAX_VALUE, MIN_VALUE
from companion.tablelog import Event, Name


class Play(Event):
    """``player`` put ``count`` cards of ``value`` on the series (two taps on the screen)."""

    type: Literal["play"] = "play"
    player: Name
    value: StrictInt = Field(ge=MIN_VALUE, le=MAX_VALUE)
    count: StrictInt = Field(ge=1)
