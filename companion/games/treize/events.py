"""13 feuilles's table-log events (spec/table-log.md): ``new_game`` keys, passes, plays on the
series (docs/table-log.md), the starter drawn by lot, and game ends."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from companion.games.treize.series import MAX_VALUE, MIN_VALUE
from companion.table.log import Event, Name, NewGameBase


class NewTreizeGame(NewGameBase):
    game: Literal["treize"] = "treize"
    variant: Literal["basic", "advanced"] = "basic"
    starter: Name | None = None


class Pass(Event):
    type: Literal["pass"] = "pass"
    player: Name
    took: StrictInt | None = None  # the value of the card taken from the table


class Play(Event):
    """``player`` put ``count`` cards of ``value`` on the series (two taps on the screen)."""

    type: Literal["play"] = "play"
    player: Name
    value: StrictInt = Field(ge=MIN_VALUE, le=MAX_VALUE)
    count: StrictInt = Field(ge=1)


class Starter(Event):
    """Who starts the game, drawn by lot at the table ("press to draw lots")."""

    type: Literal["starter"] = "starter"
    player: Name


class TrickEnd(Event):
    type: Literal["trick_end"] = "trick_end"


class GameEnd(Event):
    type: Literal["game_end"] = "game_end"
    winner: Name
    left: dict[str, StrictInt] | None = None


EVENTS: dict[str, type[Event]] = {
    "pass": Pass,
    "play": Play,
    "starter": Starter,
    "trick_end": TrickEnd,
    "game_end": GameEnd,
}
