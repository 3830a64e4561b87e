"""Les Cinq Rois's table-log events (spec/table-log.md): ``new_game`` keys and ``round_end``, and
the first ``dealer`` drawn by lot on the table screen (docs/table-log.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import StrictInt

from companion.table.log import CardField, Event, Name, NewGameBase


class NewCinqRoisGame(NewGameBase):
    game: Literal["cinq-rois"] = "cinq-rois"
    dealer: Name | None = None


class RoundEnd(Event):
    type: Literal["round_end"] = "round_end"
    out: Name
    points: dict[Name, StrictInt] | None = None
    left: dict[Name, list[CardField]] | None = None
    hands: dict[Name, list[CardField]] | None = None


class Dealer(Event):
    """The first dealer, drawn by lot at the table before round 1 when ``new_game`` named none
    (the screen's "press to draw lots"); journaled so that replay and resume deal alike."""

    type: Literal["dealer"] = "dealer"
    player: Name


EVENTS: dict[str, type[Event]] = {"round_end": RoundEnd, "dealer": Dealer}
