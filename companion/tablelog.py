"""The table log (spec/table-log.md): one JSON event a line; the same models are the journal's payload.

``parse_event`` turns one line into a typed event or raises a player-readable error;
``replay`` folds a whole log into a game and reports the first bad line as ``line N: ...``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
)

from companion.cards import Card, parse_card
from companion.errors import CompanionError, LogError

MAX_NAME = 24


def _card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a card: write it as text, like \"7H\" or \"10\"")
    return parse_card(value)


CardField = Annotated[Card, BeforeValidator(_card), PlainSerializer(str, return_type=str)]
Name = Annotated[str, Field(strict=True)]


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json", exclude_none=True), ensure_ascii=False,
                          separators=(", ", ": "))


# --- common ------------------------------------------------------------------------------------

class KiloRules(BaseModel):
    """House-rule switches of Kilo de merde (spec/rules.md section 1); defaults marked there."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seven: Literal["flush", "first_card_counts"] = "flush"
    quads: Literal["rank", "rank_or_suit"] = "rank"
    passing: Literal["one_by_one", "simultaneous"] = "one_by_one"
    tie: Literal["all_draw", "reslap"] = "all_draw"
    slap_timeout_ms: StrictInt = Field(5000, ge=100, le=60000)


class _NewGameBase(Event):
    type: Literal["new_game"] = "new_game"
    players: list[Name]

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        seen: set[str] = set()
        for name in players:
            if not name.strip():
                raise ValueError("a player's name cannot be empty")
            if len(name) > MAX_NAME:
                raise ValueError(f"the name {name!r} is longer than {MAX_NAME} characters")
            if name in seen:
                raise ValueError(f"two players are called {name!r}: names must be unique")
            seen.add(name)
        return players


class NewKiloGame(_NewGameBase):
    game: Literal["kilo"] = "kilo"
    rounds: StrictInt = Field(ge=1, le=99)
    rules: KiloRules = KiloRules()

    @field_validator("players")
    @classmethod
    def _count(cls, players: list[str]) -> list[str]:
        if not 3 <= len(players) <= 10:
            raise ValueError(f"Kilo de merde is played by 3 to 10 players, not {len(players)}")
        return players


class NewCinqRoisGame(_NewGameBase):
    game: Literal["cinq-rois"] = "cinq-rois"
    dealer: Name | None = None


class NewTreizeGame(_NewGameBase):
    game: Literal["treize"] = "treize"
    variant: Literal["basic", "advanced"] = "basic"
    starter: Name | None = None


class Undo(Event):
    type: Literal["undo"] = "undo"


# --- Kilo de merde -----------------------------------------------------------------------------

class Press(Event):
    type: Literal["press"] = "press"
    player: Name
    t_us: StrictInt
    # The stamping clock's resolution when coarser than 1 µs (a key: 20000); absent means 1.
    res_us: StrictInt | None = Field(None, ge=1)


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


# --- Les Cinq Rois and 13 feuilles (events read and checked; their engines come later) ---------

class RoundEnd(Event):
    type: Literal["round_end"] = "round_end"
    out: Name
    points: dict[str, StrictInt] | None = None
    left: dict[str, list[CardField]] | None = None
    hands: dict[str, list[CardField]] | None = None


class Pass(Event):
    type: Literal["pass"] = "pass"
    player: Name


class TrickEnd(Event):
    type: Literal["trick_end"] = "trick_end"


class GameEnd(Event):
    type: Literal["game_end"] = "game_end"
    winner: Name
    left: dict[str, StrictInt] | None = None


NewGame = NewKiloGame | NewCinqRoisGame | NewTreizeGame
AnyEvent = (NewKiloGame | NewCinqRoisGame | NewTreizeGame | Undo | Press | Close | Verdict | Draw
            | Starter | RoundEnd | Pass | TrickEnd | GameEnd)

_NEW_GAMES: dict[str, type[Event]] = {
    "kilo": NewKiloGame, "cinq-rois": NewCinqRoisGame, "treize": NewTreizeGame}
_EVENTS: dict[str, type[Event]] = {
    "undo": Undo, "press": Press, "close": Close, "verdict": Verdict, "draw": Draw,
    "starter": Starter, "round_end": RoundEnd, "pass": Pass, "trick_end": TrickEnd,
    "game_end": GameEnd,
}
GAME_NAMES = {"kilo": "Kilo de merde", "cinq-rois": "Les Cinq Rois", "treize": "13 feuilles"}


class EventError(CompanionError, ValueError):
    """One event that cannot be read; LogError adds the line number."""


def _fields_of(model: type[Event]) -> str:
    return ", ".join(model.model_fields)


def _explain(model: type[Event], kind: str, err: ValidationError) -> EventError:
    """Turn pydantic's first complaint into one sentence a player can act on."""
    errors = err.errors(include_url=False)
    # A typo shows up as one unknown key plus one missing key: name the typo, it is the cause.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = ".".join(str(part) for part in first["loc"])
    key = str(first["loc"][0]) if first["loc"] else ""
    etype = first["type"]
    got = first.get("input")
    if etype == "extra_forbidden":
        return EventError(
            f"unknown key {loc!r} in a {kind} event (allowed: {_fields_of(model)})",
            f"clé inconnue {loc!r} dans un événement {kind} (permises : {_fields_of(model)})")
    if etype == "missing":
        return EventError(f"a {kind} event needs the key {loc!r}",
                          f"un événement {kind} doit avoir la clé {loc!r}")
    if etype in ("value_error", "assertion_error"):
        ctx = first.get("ctx", {})
        cause = ctx.get("error")
        if isinstance(cause, CompanionError):
            return EventError(cause.en, cause.fr)
        msg = str(cause) if cause is not None else first["msg"]
        return EventError(f"{loc}: {msg}", f"{loc} : {msg}")
    expected = {
        "int_type": ("a whole number", "un nombre entier"),
        "int_from_float": ("a whole number", "un nombre entier"),
        "bool_type": ("true or false", "true ou false"),
        "string_type": ("text in quotes", "du texte entre guillemets"),
        "list_type": ("a list [...]", "une liste [...]"),
        "dict_type": ("an object {...}", "un objet {...}"),
        "model_type": ("an object {...}", "un objet {...}"),
    }.get(etype)
    if expected:
        return EventError(f"{loc!r} in a {kind} event must be {expected[0]}, not {json.dumps(got)}",
                          f"{loc!r} dans un événement {kind} doit être {expected[1]}, "
                          f"pas {json.dumps(got)}")
    if etype == "literal_error":
        allowed = first.get("ctx", {}).get("expected", "")
        return EventError(f"{loc!r} cannot be {json.dumps(got)}: use {allowed}",
                          f"{loc!r} ne peut pas valoir {json.dumps(got)} : utilisez {allowed}")
    if etype in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return EventError(f"{loc!r} is out of range: {first['msg'].lower()}, not {got}",
                          f"{loc!r} est hors limites : {first['msg'].lower()}, pas {got}")
    return EventError(f"{key or kind}: {first['msg']}", f"{key or kind} : {first['msg']}")


def event_from_dict(data: object) -> AnyEvent:
    if not isinstance(data, dict):
        raise EventError("an event must be a JSON object like {\"type\": \"press\", ...}",
                         "un événement doit être un objet JSON comme {\"type\": \"press\", ...}")
    kind = data.get("type")
    if kind == "new_game":
        game = data.get("game")
        model = _NEW_GAMES.get(game) if isinstance(game, str) else None
        if model is None:
            raise EventError(
                f"unknown game {json.dumps(game)}: use \"kilo\", \"cinq-rois\" or \"treize\"",
                f"jeu inconnu {json.dumps(game)} : utilisez \"kilo\", \"cinq-rois\" ou \"treize\"")
    else:
        model = _EVENTS.get(kind) if isinstance(kind, str) else None
        if model is None:
            known = "new_game, " + ", ".join(_EVENTS)
            raise EventError(f"unknown event type {json.dumps(kind)} (known: {known})",
                             f"type d'événement inconnu {json.dumps(kind)} (connus : {known})")
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as err:
        raise _explain(model, str(kind), err) from None


def parse_event(text: str) -> AnyEvent:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise EventError(f"not valid JSON ({err.msg} at column {err.colno})",
                         f"JSON invalide ({err.msg} à la colonne {err.colno})") from None
    except (ValueError, RecursionError):
        # Python refuses integers of thousands of digits and very deep nesting: no event is either.
        raise EventError("not a table-log event: a number is far too long or the nesting far too "
                         "deep", "pas un événement du journal de table : un nombre beaucoup trop "
                         "long ou une imbrication beaucoup trop profonde") from None
    return event_from_dict(data)


def iter_events(lines: Iterable[str]) -> Iterator[tuple[int, AnyEvent]]:
    """Yield ``(line_number, event)``, skipping blank lines and ``#`` comments."""
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield number, parse_event(text)
        except CompanionError as err:
            raise LogError(number, err.en, err.fr) from None


def dump_events(events: Iterable[Event]) -> Iterator[str]:
    for event in events:
        yield event.to_json() + "\n"


def as_payload(event: Event) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude_none=True)
