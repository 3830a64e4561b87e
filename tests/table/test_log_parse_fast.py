"""The table log's short parsing path (pydantic's JSON parser, table/log.py ``_fast_event``)
against the long one (json.loads with the duplicate-key hook, then the model).

The short path may decline any line (the long one then reads it); whatever it accepts, the long
path must accept too, as the same event with the same keys given. Checked on every line of the
project's logs, on lines made to trip a JSON parser (duplicate keys, NaN, huge or oddly written
numbers, escapes, blanks, commas in names...), and on random edits of real lines.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.games.cinq_rois import samples as cinq_samples
from companion.games.kilo import samples as kilo_samples
from companion.games.treize import samples as treize_samples
from companion.table.log import _fast_event, _parse_event, _parse_slow

PRESS = '{"type": "press", "player": "Ana", "t_us": 5}'
HOSTILE = [
    '{"type": "press", "player": "Ana", "player": "Bea", "t_us": 5}',
    '{"type": "press", "player": "Ana", "t_us": 5, "t_us": 6}',
    '{"type": "press", "type": "press", "player": "Ana", "t_us": 5}',
    '{"type": "verdict", "valid": true, "valid": false}',
    '{"type": "press", "player": "A,B", "t_us": 5}',
    '{"type": "press", "player": "Ana", "t_us": 5,}',
    '{"type": "press", "player": "Ana", "t_us": NaN}',
    '{"type": "press", "player": "Ana", "t_us": Infinity}',
    '{"type": "press", "player": "Ana", "t_us": -Infinity}',
    '{"type": "press", "player": "Ana", "t_us": 1e3}',
    '{"type": "press", "player": "Ana", "t_us": 1.0}',
    '{"type": "press", "player": "Ana", "t_us": -0}',
    '{"type": "press", "player": "Ana", "t_us": 05}',
    '{"type": "press", "player": "Ana", "t_us": +5}',
    '{"type": "press", "player": "Ana", "t_us": ' + "9" * 150 + "}",
    '{"type": "press", "player": "Ana", "t_us": "5"}',
    '{"type": "press", "player": "Ana", "t_us": true}',
    '{"type": "press", "player": "Ana", "t_us": null}',
    '{"type": "press", "player": "Ana", "t_us": 5, "res_us": null}',
    '{"type": "press", "player": "Ana", "t_us": 5, "res_us": 0}',
    '{"type": "press", "player": "Ana", "t_us": 5, "clock": ""}',
    '{"type": "press", "player": "Ana", "t_us": 5, "clock": "k", "epoch": "e"}',
    '{"type": "press", "player": "Ana", "t_us": 5, "extra": 1}',
    '{"type": "press", "player": 5, "t_us": 5}',
    '{"type": "press", "player": "", "t_us": 5}',
    '{"type": "press", "player": "Chloe\u0301", "t_us": 5}',  # decomposed: NFC both ways
    '{"type": "press", "player": "Chloé", "t_us": 5}',
    '{"type": "press", "player": "\u3164", "t_us": 5}',
    '{"type": "press", "player": "\u00a0Ana", "t_us": 5}',
    '{"type": "press", "player": "A\u202eB", "t_us": 5}',
    '{"type": "press", "player": "\\u0041na", "t_us": 5}',
    '{"type": "press", "player": "\\ud800", "t_us": 5}',
    '{"type":"press","player":"Ana","t_us":5}',
    '{ "type" : "press" , "player" : "Ana" , "t_us" : 5 }',
    '{"type": "press",\t"player": "Ana", "t_us": 5}',
    "{'type': 'press', 'player': 'Ana', 't_us': 5}",
    '{"type": "press", "player": "Ana", "t_us": 5} {"type": "undo"}',
    '{"type": "press", "player": "Ana", "t_us": 5}]',
    '{"player": "Ana", "t_us": 5}',
    '{"type": "Press", "player": "Ana", "t_us": 5}',
    '{"type": "draw", "player": "Ana", "card": "7H"}',
    '{"type": "draw", "player": "Ana", "card": "7,H"}',
    '{"type": "verdict", "valid": false, "penalized": ["Ana"]}',
    '{"type": "verdict", "valid": false, "penalized": []}',
    '{"type": "verdict", "valid": 0}',
    '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 2}',
    '{"type": "pass", "player": "Ana"}',
    '{"type": "undo"}',
    '{"type": "undo", "type": "undo"}',
    "{}",
    "[]",
    '"undo"',
    "null",
]


def outcome(parse: Any, text: str, game: str) -> tuple[str, Any]:
    try:
        event = parse(text, game)
    except CompanionError as err:
        return "error", err.en
    return "event", (type(event), event.__dict__, event.model_fields_set)


def assert_agrees(text: str, game: str) -> bool:
    """True when the short path answered (and agreed)."""
    fast = _fast_event(text, game)
    if fast is None:
        return False
    assert outcome(_parse_slow, text, game) == ("event", (type(fast), fast.__dict__, fast.model_fields_set))
    return True


def project_lines() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for module in (kilo_samples, treize_samples, cinq_samples):
        for name in module.SAMPLES:
            lines = module.lines(name)
            game = json.loads(lines[0])["game"]
            out.extend((line.strip(), game) for line in lines[1:])
    return out


def test_every_project_line_parses_the_same_and_most_take_the_short_path() -> None:
    answered = [assert_agrees(text, game) for text, game in project_lines()]
    assert sum(answered) > len(answered) // 2


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("game", ["kilo", "treize", "cinq_rois"])
def test_lines_made_to_trip_a_parser(text: str, game: str) -> None:
    assert_agrees(text, game)
    # And whichever path reads it, the public parser says the same as the long one.
    assert outcome(_parse_event, text, game) == outcome(_parse_slow, text, game)


def test_the_short_path_declines_duplicate_keys() -> None:
    assert _fast_event(PRESS, "kilo") is not None
    for text in HOSTILE[:4]:
        assert _fast_event(text, "kilo") is None, text


ALPHABET = st.sampled_from(list(' ,:{}[]"\\0123456789.-+eEaAnNtuplrsyfv_\u00e9\u0301\u00a0\t'))


@settings(max_examples=400, deadline=None)
@given(
    base=st.sampled_from(
        [PRESS, *HOSTILE[16:24], '{"type": "verdict", "valid": true}', '{"type": "pass", "player": "Bea"}']
    ),
    edits=st.lists(st.tuples(st.integers(0, 80), st.integers(0, 2), ALPHABET), max_size=4),
)
def test_random_edits_of_real_lines(base: str, edits: list[tuple[int, int, str]]) -> None:
    text = base
    for at, how, char in edits:
        at = min(at, len(text))
        if how == 0:
            text = text[:at] + char + text[at:]
        elif how == 1:
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    for game in ("kilo", "treize"):
        assert_agrees(text.strip(), game)
