"""The table log (spec/table-log.md): one JSON event a line; the same models are the journal's payload.

``parse_event`` turns one line into a typed event or raises a player-readable error;
``replay`` folds a whole log into a game and reports the first bad line as ``line N: ...``.
"""

from __future__ import annotations

import functools
import itertools
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from companion.cards import Card, parse_card
from companion.errors import CardError, CompanionError, LogError, SetupError
from companion.table import FORMULA_STARTS
from companion.text import Cut, Text

MAX_NAME = 24
# The longest line a table log may hold, in bytes. An event is a few hundred bytes at most (a
# Cinq Rois round with every hand of ten players is under 2 KB): a longer line is not a table log
# (/dev/zero, a binary file, one huge JSON value), and reading it whole would take any memory.
MAX_LINE_BYTES = 64 * 1024


def _card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise CardError(
            "log.card",
            value=value,
        )
    return parse_card(value)


CardField = Annotated[Card, BeforeValidator(_card), PlainSerializer(str, return_type=str)]

# Characters a name may not hold: controls (NUL, newline: a newline forges lines of the summary),
# format characters (bidi overrides such as U+202E, zero-width spaces and joiners), line and
# paragraph separators, lone surrogates (not text: they cannot even be printed).
_BAD_CATEGORIES = {
    "Cc": ("a control character", "un caractère de contrôle"),
    "Cf": ("an invisible formatting character", "un caractère de mise en forme invisible"),
    "Cs": ("a lone surrogate", "un demi-caractère (surrogate) isolé"),
    "Zl": ("a line separator", "un séparateur de ligne"),
    "Zp": ("a paragraph separator", "un séparateur de paragraphe"),
}


def _name(value: object) -> object:
    """Names are compared as the players read them: NFC, so "é" typed either way is one player."""
    if not isinstance(value, str):
        return value  # strict str validation reports it
    if value.isprintable():  # the usual case, checked at C speed: no Cc, Cf, Cs, Zl or Zp
        return value if value.isascii() else unicodedata.normalize("NFC", value)
    for char in value:
        bad = _BAD_CATEGORIES.get(unicodedata.category(char))
        if bad is not None:
            code = f"U+{ord(char):04X}"
            raise EventError(
                "log.name_invisible", value=value, what=Text.pair(en=bad[0], fr=bad[1]), code=code
            )
    return unicodedata.normalize("NFC", value)


Name = Annotated[str, Field(strict=True), AfterValidator(_name)]


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    def to_json(self) -> str:
        return json.dumps(
            self.model_dump(mode="json", exclude_none=True), ensure_ascii=False, separators=(", ", ": ")
        )


# --- common to every game ----------------------------------------------------------------------


class NewGameBase(Event):
    """What every game's ``new_game`` has; each game's package adds its own keys (games/*/events.py)."""

    type: Literal["new_game"] = "new_game"
    game: str
    players: list[Name]

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        seen: set[str] = set()
        for name in players:
            if not name.strip():
                raise SetupError("log.names")
            if len(name) > MAX_NAME:
                raise SetupError(
                    "log.name_longer_than",
                    name=Cut(name, 30, quoted=True),
                    MAX_NAME=MAX_NAME,
                )
            if name in seen:
                raise SetupError(
                    "log.two_players_called",
                    name=name,
                )
            seen.add(name)
        return players


# Characters that show nothing although they are letters or symbols (Hangul fillers, the blank
# Braille pattern): a name of them alone is invisible, and beside a letter they make a look-alike.
_BLANKS = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800"))


def name_look(name: str) -> str:
    """What a name looks like on the screen: compatibility forms folded (NFKC), blanks and
    every kind of space reduced to one ordinary space between words."""
    return " ".join(unicodedata.normalize("NFKC", name).translate(_BLANKS).split())


def _spelled(name: str) -> str:
    """A name quoted with what does not show written out (U+00A0, U+3164...)."""
    return (
        "'"
        + "".join(
            c
            if c == " " or (c.isprintable() and not c.isspace() and ord(c) not in _BLANKS)
            else f"U+{ord(c):04X}"
            for c in name[:40]
        )
        + ("…'" if len(name) > 40 else "'")
    )


def check_new_names(players: Iterable[str]) -> None:
    """The names of a game about to start. Stricter than the event model on purpose: old logs
    and journals keep replaying whatever names they hold, new games get names a table can tell
    apart and a spreadsheet cannot run."""
    seen: dict[str, str] = {}
    for name in players:
        look = name_look(name)
        if not look:
            raise SetupError(
                "log.check_new_names",
                spelled_name=_spelled(name),
            )
        if name.startswith(FORMULA_STARTS):
            raise SetupError(
                "log.name_starts_which",
                name=Cut(name, 30, quoted=True),
                first=name[0],
            )
        if look in seen:
            raise SetupError(
                "log.look_same_screen",
                spelled=_spelled(seen[look]),
                spelled_name=_spelled(name),
            )
        seen[look] = name


class Undo(Event):
    type: Literal["undo"] = "undo"


# Typing names kept for readability: a game's events are its own models, all of them ``Event``s.
NewGame = NewGameBase
AnyEvent = Event
COMMON_EVENTS: dict[str, type[Event]] = {"undo": Undo}


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
            "log.unknown_key_event",
            loc=loc,
            kind=kind,
            fields=_fields_of(model),
        )
    if etype == "missing":
        return EventError("log.event_needs_key", kind=kind, loc=loc)
    if etype in ("value_error", "assertion_error"):
        ctx = first.get("ctx", {})
        cause = ctx.get("error")
        if isinstance(cause, CompanionError):
            return EventError(cause.text)
        msg = str(cause) if cause is not None else first["msg"]
        return EventError("log.value_refused", loc=loc, msg=msg)
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
        what = Text.pair(en=expected[0], fr=expected[1])
        return EventError("log.wrong_type", loc=loc, kind=kind, what=what, got=json.dumps(got))
    if etype == "literal_error":
        allowed = first.get("ctx", {}).get("expected", "")
        allowed_text = Text.pair(en=allowed, fr=allowed.replace(" or ", " ou "))
        return EventError("log.not_allowed", loc=loc, got=json.dumps(got), allowed=allowed_text)
    if etype in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        ctx = first.get("ctx", {})
        bound = next(iter(ctx.values()), "?")
        en, fr = {
            "greater_than_equal": ("at least", "au moins"),
            "less_than_equal": ("at most", "au plus"),
            "greater_than": ("more than", "plus de"),
            "less_than": ("less than", "moins de"),
        }[etype]
        return EventError(
            "log.out_of_range", loc=loc, side=Text.pair(en=en, fr=fr), bound=bound, got=str(got)
        )
    return EventError("log.explain", what=key or kind, msg=first["msg"])


@functools.cache
def _event_models(game: str | None) -> dict[str, type[Event]]:
    """The events a log of ``game`` may hold; every registered game's when the game is unknown.
    Cached: it is asked once an event, and the registry does not change while we run."""
    from companion.table.registry import GAMES, load

    models = dict(COMMON_EVENTS)
    for name in [game] if game in GAMES else list(GAMES):
        models.update(load(name).events)
    return models


def event_from_dict(data: object, game: str | None = None) -> AnyEvent:
    """One event; ``game`` (from the log's ``new_game``) says whose events may follow."""
    if not isinstance(data, dict):
        raise EventError(
            "log.event_from_dict",
        )
    kind = data.get("type")
    model: type[Event] | None
    if kind == "new_game":
        from companion.table.registry import GAMES, load

        name = data.get("game")
        model = load(name).setup if isinstance(name, str) and name in GAMES else None
        if model is None:
            known = ", ".join(f'"{g}"' for g in GAMES)
            raise EventError(
                "log.unknown_game_use",
                name_json=json.dumps(name),
                known=known,
            )
    else:
        models = _event_models(game)
        model = models.get(kind) if isinstance(kind, str) else None
        if model is None:
            # Imported on the way to an error only: an import statement at every event is a
            # few per cent of a long replay.
            from companion.table.registry import GAMES

            everything = _event_models(None)
            if game in GAMES and isinstance(kind, str) and kind in everything:
                title = GAMES[game].title
                raise EventError(
                    "log.not_an_event_of_game",
                    kind=kind,
                    title=title,
                    models=", ".join(models),
                )
            known = "new_game, " + ", ".join(models)
            raise EventError(
                "log.unknown_event_type",
                kind_json=json.dumps(kind),
                known=known,
            )
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise _explain(model, str(kind), err) from None


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise EventError("log.key_twice", key=ascii(key))
    return data


# One decoder for every line: json.loads with a hook would build a new one each call.
_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys)


# Lines seen again and again (a verdict, a pass, an undo: most of a long log) are parsed once:
# events are frozen models, so one object may stand for every line of the same text, and undo's
# checkpoints then pickle it once per batch instead of once per decision. Bounded in entries and
# in the length of what it keeps; presses (a new stamp each) are never found in it.
_SEEN: dict[tuple[str, str | None], AnyEvent] = {}
_SEEN_MAX = 512
_SEEN_LINE = 200


def parse_event(text: str, game: str | None = None) -> AnyEvent:
    if len(text) > _SEEN_LINE:
        return _parse_event(text, game)
    key = (text, game)
    event = _SEEN.get(key)
    if event is None:
        event = _fast_event(text, game)  # what _parse_event does, one call less a new line
        if event is None:
            event = _parse_slow(text, game)
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()  # a log of ever new lines: start again rather than grow
        _SEEN[key] = event
    return event


# The short path: one call into pydantic's own JSON parser for a game's events, a third of the
# time of json.loads followed by model_validate. It only ever answers for lines the long path
# would read the same way (anything else, errors included, goes the long way, which says what
# is wrong). Short lines only (no number of thousands of digits, which json.loads refuses). And
# no duplicate key, which pydantic would take (the last one wins) where the long path refuses
# it: in JSON a comma separates two keys or two items, or sits in a text, so a line has at least
# one comma fewer than its keys, exactly that when no nested list or object has two items and
# no text holds a comma; counting them against the keys pydantic saw leaves no room for a key
# given twice, at any depth. Lines with an escape or a character that does not print go the
# long way too: the two parsers agreed on every such line tests/table/test_log_parse_fast.py tries, but
# they are rare, and a lone surrogate is the kind of corner where JSON parsers part.
_FAST_LINE = 200


@functools.cache
def _fast_parser(game: str) -> Any:
    models = tuple(_event_models(game).values())
    union: Any = Annotated[Union[models], Field(discriminator="type")]  # noqa: UP007
    return TypeAdapter(union).validator.validate_json


def _fast_event(text: str, game: str | None) -> AnyEvent | None:
    if game is None or len(text) > _FAST_LINE or "\\" in text or not text.isprintable():
        return None
    try:
        event: AnyEvent = _fast_parser(game)(text)
    except Exception:  # the long path says what is wrong, in its own words
        return None
    return event if text.count(",") + 1 == len(event.model_fields_set) else None


def _parse_event(text: str, game: str | None = None) -> AnyEvent:
    event = _fast_event(text, game)
    if event is not None:
        return event
    return _parse_slow(text, game)


# What the json module says, in French (its messages are English and fixed: Lib/json/decoder.py).
_JSON_FR = {
    "Expecting value": "une valeur est attendue",
    "Expecting property name enclosed in double quotes": "un nom de clé entre guillemets est attendu",
    "Expecting ',' delimiter": "une virgule est attendue",
    "Expecting ':' delimiter": "un deux-points est attendu",
    "Extra data": "du texte après l'événement",
    "Unterminated string starting at": "un texte entre guillemets jamais fermé",
    "Invalid control character at": "un caractère de contrôle dans un texte",
    "Invalid \\escape": "un échappement \\ invalide",
    "Invalid \\uXXXX escape": "un échappement \\uXXXX invalide",
    "Illegal trailing comma before end of object": "une virgule de trop avant la fin de l'objet",
    "Illegal trailing comma before end of array": "une virgule de trop avant la fin de la liste",
}


def _parse_slow(text: str, game: str | None = None) -> AnyEvent:
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as err:
        why = Text.pair(en=err.msg, fr=_JSON_FR.get(err.msg, "texte illisible"))
        raise EventError("log.not_json", why=why, column=err.colno) from None
    except EventError:
        raise
    except (ValueError, RecursionError):
        # Python refuses integers of thousands of digits and very deep nesting: no event is either.
        raise EventError(
            "log.parse_slow",
        ) from None
    return event_from_dict(data, game)


def decode_lines(lines: Iterable[bytes]) -> Iterator[str]:
    """Lines of a binary file as text; a line that is not UTF-8 is named by its number."""
    for number, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _not_utf8(number, raw, err) from None


def _not_utf8(number: int, raw: bytes, err: UnicodeDecodeError) -> LogError:
    return LogError(
        number,
        "log.not_utf8",
        column=err.start + 1,
        byte=raw[err.start : err.start + 1],
    )


def _too_long(number: int) -> LogError:
    cap_fr = f"{MAX_LINE_BYTES:,}".replace(",", "\u202f")  # French groups digits with a thin space
    return LogError(number, "log.too_long", cap=Text.pair(en=f"{MAX_LINE_BYTES:,}", fr=cap_fr))


def _capped(lines: Iterable[Any]) -> Iterator[Any]:
    """The lines, none read past the cap: a file is read with ``readline(cap + 1)``, so a line
    without end (/dev/zero) costs the cap, not all memory."""
    readline = getattr(lines, "readline", None)
    if readline is not None:
        number = 0
        while True:
            raw = readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES and raw[-1:] not in (b"\n", "\n"):
                raise _too_long(number)
            yield raw
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_BYTES // 4:  # under that, no line can be over the cap in bytes
            body = raw.rstrip("\n") if isinstance(raw, str) else raw.rstrip(b"\n")
            size = len(body.encode("utf-8")) if isinstance(body, str) else len(body)
            if size > MAX_LINE_BYTES:
                raise _too_long(number)
        yield raw


def iter_events(lines: Iterable[str] | Iterable[bytes]) -> Iterator[tuple[int, AnyEvent]]:
    """Yield ``(line_number, event)``, skipping blank lines and ``#`` comments; after a
    ``new_game`` the events are read as that game's. Bytes are decoded line by line; no line is
    read past ``MAX_LINE_BYTES``."""
    readline = getattr(lines, "readline", None)
    if readline is not None:
        yield from _file_events(readline)
        return
    game: str | None = None
    texts: Iterable[str] = _as_text(_capped(lines))
    for number, raw in enumerate(texts, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            event = parse_event(text, game)
        except CompanionError as err:
            raise LogError(number, err.text) from None
        if is_new_game(event):
            game = event.game  # type: ignore[attr-defined]
        yield number, event


def _file_events(readline: Any) -> Iterator[tuple[int, AnyEvent]]:
    """``iter_events`` of a file: what ``_capped``, ``decode_lines`` and the loop above do, in
    one loop (a long replay spent a tenth of its time passing lines between generators)."""
    game: str | None = None
    number = 0
    while True:
        raw = readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and raw[-1:] not in (b"\n", "\n"):
            raise _too_long(number)
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8").strip()
            except UnicodeDecodeError as err:
                raise _not_utf8(number, raw, err) from None
        else:
            text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            event = parse_event(text, game)
        except CompanionError as err:
            raise LogError(number, err.text) from None
        if is_new_game(event):
            game = event.game  # type: ignore[attr-defined]
        yield number, event


# isinstance against a pydantic model class goes through its metaclass (a Python call, and ABC's
# check after it): a dozen of them an event were a tenth of a replay. Each event class is asked
# once here.
def class_test(base: type | tuple[type, ...]) -> Callable[[AnyEvent], bool]:
    """``isinstance(event, base)`` at a dict lookup's cost: each event class is asked once."""
    answers: dict[type, bool] = {}

    def test(event: AnyEvent) -> bool:
        cls = type(event)
        answer = answers.get(cls)
        if answer is None:
            answer = answers[cls] = issubclass(cls, base)
        return answer

    return test


is_new_game = class_test(NewGameBase)


def _as_text(lines: Iterable[str] | Iterable[bytes]) -> Iterator[str]:
    iterator = iter(lines)
    first = next(iterator, None)
    if first is None:
        return
    rest = itertools.chain([first], iterator)
    if isinstance(first, bytes):
        yield from decode_lines(rest)  # type: ignore[arg-type]
    else:
        yield from rest


def dump_events(events: Iterable[Event]) -> Iterator[str]:
    for event in events:
        yield event.to_json() + "\n"


def as_payload(event: Event) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude_none=True)
