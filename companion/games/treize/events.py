"""13 feuilles's table-log events (spec/table-log.md): ``new_game`` keys, passes, game ends."""

from __future__ import annotations

from typing import Literal

from pydantic import StrictInt

from companion.table.log import Event, Name, NewGameBase


class NewTreizeGame(NewGameBase):
    game: Literal["treize"] = "treize"
    variant: Literal["basic", "advanced"] = "basic"
    starter: Name | None = None


class Pass(Event):
    type: Literal["pass"] = "pass"
    player: Name


class TrickEnd(Event):
    type: Literal["trick_end"] = "trick_end"


class GameEnd(Event):
    type: Literal["game_end"] = "game_end"
    winner: Name
    left: dict[str, StrictInt] | None = None


EVENTS: dict[str, type[Event]] = {"pass": Pass, "trick_end": TrickEnd, "game_end": GameEnd}
