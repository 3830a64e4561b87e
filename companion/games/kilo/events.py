"""Kilo de merde's table-log events (spec/table-log.md): its ``new_game`` keys and its events."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

import companion.games.kilo.strings  # noqa: F401  (the game's error templates join the catalogue)
from companion.errors import SetupError
from companion.table.log import CardField, Event, Name, NewGameBase


class KiloRules(BaseModel):
    """House-rule switches of Kilo de merde (spec/rules.md section 1); defaults marked there."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seven: Literal["flush", "first_card_counts"] = "flush"
    quads: Literal["rank", "rank_or_suit"] = "rank"
    passing: Literal["one_by_one", "simultaneous"] = "one_by_one"
    tie: Literal["all_draw", "reslap"] = "all_draw"
    slap_timeout_ms: StrictInt = Field(5000, ge=100, le=60000)


class NewKiloGame(NewGameBase):
    game: Literal["kilo"] = "kilo"
    rounds: StrictInt = Field(ge=1, le=99)
    rules: KiloRules = KiloRules()

    @field_validator("players")
    @classmethod
    def _count(cls, players: list[str]) -> list[str]:
        if not 3 <= len(players) <= 10:
            raise SetupError(
                "kilo.events.count",
                n_players=len(players),
            )
        return players


class Press(Event):
    type: Literal["press"] = "press"
    player: Name
    t_us: StrictInt
    # The stamping clock's resolution when coarser than 1 µs (a key: 20000); absent means 1.
    res_us: StrictInt | None = Field(None, ge=1)
    # Which clock stamped it and which run of that clock (a boot of the Pi or of the board):
    # stamps of two epochs are never compared. Absent in logs written before these keys.
    clock: StrictStr | None = Field(None, min_length=1, max_length=64)
    epoch: StrictStr | None = Field(None, min_length=1, max_length=64)

    @property
    def epoch_key(self) -> tuple[str | None, str | None]:
        return (self.clock, self.epoch)


class Close(Event):
    type: Literal["close"] = "close"
    t_us: StrictInt


class Verdict(Event):
    type: Literal["verdict"] = "verdict"
    valid: StrictBool
    penalized: list[Name] | None = None


class Draw(Event):
    type: Literal["draw"] = "draw"
    player: Name
    card: CardField


class Starter(Event):
    type: Literal["starter"] = "starter"
    player: Name


# The house rules a table picks among (setup screen, docs): every value each switch may take.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(KiloRules.model_fields[name].annotation) for name in ("seven", "quads", "passing", "tie")
}


class Dealer(Event):
    """Who deals first, drawn by lot on the table screen before the first slap (display only,
    like the starter; an extra of this companion, docs/table-log.md)."""

    type: Literal["dealer"] = "dealer"
    player: Name


class Outage(Event):
    """The table was stopped (a crash, a power cut) from ``from_us`` to ``to_us`` on the open
    slap window's clock, while the window was open: its timeout does not run during it, since
    nobody could press (an extra of this companion, docs/table-log.md)."""

    type: Literal["outage"] = "outage"
    from_us: StrictInt
    to_us: StrictInt


EVENTS: dict[str, type[Event]] = {
    "press": Press,
    "close": Close,
    "verdict": Verdict,
    "draw": Draw,
    "starter": Starter,
    "dealer": Dealer,
    "outage": Outage,
}
