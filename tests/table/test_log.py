"""The table log (spec/table-log.md): parsing, replay through the CLI, every error of the spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import LogError
from companion.games.kilo.events import Draw, KiloRules, NewKiloGame, Press, Verdict
from companion.table.fold import replay
from companion.table.log import parse_event
from tests.conftest import ROOT, run_cli

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.jsonl"))
HEAD = '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C", "D"], "rounds": 2}'
SLAP = [
    '{"type": "press", "player": "A", "t_us": 1}',
    '{"type": "press", "player": "B", "t_us": 2}',
    '{"type": "press", "player": "C", "t_us": 3}',
    '{"type": "press", "player": "D", "t_us": 9}',
    '{"type": "verdict", "valid": true}',
]


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_doc_examples_replay_to_their_expected_state(example: Path) -> None:
    expected = json.loads(example.with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = run_cli("replay", str(example), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected
    for lang in ("fr", "en"):
        text = run_cli("replay", str(example), "--lang", lang)
        assert text.returncode == 0 and "Kilo de merde" in text.stdout


def test_json_result_has_every_key_of_the_spec(tmp_path: Path) -> None:
    state = replay((ROOT / "docs/examples/kilo-four-players.jsonl").open(encoding="utf-8")).to_json()
    for key in [
        "game",
        "round",
        "rounds",
        "finished",
        "winners",
        "awaiting",
        "owed_draws",
        "standings",
        "pile",
        "last_slap",
    ]:
        assert key in state
    assert set(state["pile"]) >= {"count", "known_bottom"}
    assert set(state["standings"][0]) >= {"player", "kilos", "cards"}
    assert set(state["last_slap"]) >= {"order", "losers", "margin_us"}
    assert set(state["last_slap"]["order"][0]) == {"player", "t_us"}


def test_round_trip_of_events() -> None:
    events = [
        NewKiloGame(players=["A", "B", "C"], rounds=3, rules=KiloRules(tie="reslap")),
        Press(player="A", t_us=-5),
        Verdict(valid=False, penalized=["A"]),
        Draw.model_validate({"type": "draw", "player": "A", "card": "10h"}),
    ]
    for event in events:
        assert parse_event(event.to_json()) == event
    assert json.loads(events[3].to_json())["card"] == "10H"


BAD = [
    ("{not json", 2, "not valid JSON"),
    ('{"type": "slap", "player": "A"}', 2, 'unknown event type "slap"'),
    ('{"type": "press", "player": "Zoé", "t_us": 1}', 2, "unknown player 'Zoé'"),
    ('{"type": "press", "player": "A", "t_us": 1, "extra": 1}', 2, "unknown key 'extra'"),
    ('{"type": "press", "player": "A", "tus": 1}', 2, "unknown key 'tus'"),
    ('{"type": "press", "player": "A", "t_us": 1.5}', 2, "must be a whole number"),
    ('{"type": "press", "player": "A"}', 2, "needs the key 't_us'"),
    ('{"type": "draw", "player": "A", "card": "5H"}', 2, "nobody does"),
    ('{"type": "verdict", "valid": true}', 2, "no slap to judge"),
    ('{"type": "undo"}', 2, "nothing to undo"),
    ('{"type": "pass", "player": "A"}', 2, "pass is not an event of Kilo de merde"),
    ("[1, 2]", 2, "must be a JSON object"),
]


@pytest.mark.parametrize("line,number,message", BAD, ids=[b[2] for b in BAD])
def test_bad_lines_stop_the_replay(tmp_path: Path, line: str, number: int, message: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(HEAD + "\n" + line + "\n", encoding="utf-8")
    before = log.read_bytes()
    result = run_cli("replay", str(log), "--json", "--lang", "en")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"companion: {log}: line {number}: ")
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert log.read_bytes() == before  # the input is never modified


@pytest.mark.parametrize(
    "tail,message",
    [
        (
            '{"type": "draw", "player": "D", "card": "KH"}',
            "KH cannot be drawn: Kings are dealt to the players at 4 players, the pile holds A 3-10",
        ),
        ('{"type": "draw", "player": "A", "card": "5H"}', "D must draw"),
        ('{"type": "draw", "player": "D", "card": "QQ"}', "'QQ' is not a card"),
    ],
)
def test_rule_errors_after_a_slap(tmp_path: Path, tail: str, message: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join([HEAD, *SLAP, tail]) + "\n", encoding="utf-8")
    result = run_cli("replay", str(log), "--lang", "en")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"companion: {log}: line 7: ") and message in result.stderr


def test_french_messages_by_default(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(
        "\n".join([HEAD, *SLAP, '{"type": "draw", "player": "D", "card": "KH"}']), encoding="utf-8"
    )
    result = run_cli("replay", str(log))
    assert result.stderr.startswith(
        f"companion: {log}\u202f: ligne 7\u202f: KH ne peut pas être pioché\u202f: les Rois sont distribués"
    )


@pytest.mark.parametrize(
    "content,message",
    [
        ("", "line 1: the log holds no game"),
        ('{"type": "press", "player": "A", "t_us": 1}', "line 1: the log must start with a new_game"),
        (HEAD + "\n" + HEAD, "line 2: a table log holds one game"),
        (
            '{"type": "new_game", "game": "kilo", "players": ["A", "B"], "rounds": 2}',
            "line 1: Kilo de merde is played by 3 to 10 players, not 2",
        ),
        (
            '{"type": "new_game", "game": "kilo", "players": ["A", "A", "B"], "rounds": 2}',
            "two players are called 'A'",
        ),
        (
            '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 100}',
            "'rounds' is out of range",
        ),
        (
            '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 1, '
            '"rules": {"seven": "flush", "tie": "coin"}}',
            "'rules.tie' cannot be \"coin\"",
        ),
        ('{"type": "new_game", "game": "poker", "players": ["A", "B", "C"]}', 'unknown game "poker"'),
        (
            '{"type": "new_game", "game": "kilo", "players": ["A", "B", "' + "x" * 25 + '"], "rounds": 1}',
            "longer than 24 characters",
        ),
    ],
)
def test_bad_logs(tmp_path: Path, content: str, message: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    with pytest.raises(LogError) as info:
        replay(log.read_text(encoding="utf-8").splitlines())
    assert message in str(info.value)
    result = run_cli("replay", str(log), "--lang", "en")
    assert result.returncode == 2 and result.stdout == "" and message in result.stderr


def test_unreadable_input_files(tmp_path: Path) -> None:
    result = run_cli("replay", str(tmp_path / "missing.jsonl"), "--lang", "en")
    assert result.returncode == 2 and "cannot read" in result.stderr and result.stdout == ""
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = run_cli("replay", str(binary), "--lang", "en")
    assert result.returncode == 2 and result.stderr.startswith(f"companion: {binary}: line 1: ")


def test_replay_from_stdin() -> None:
    result = run_cli("replay", "-", "--json", stdin="\n".join([HEAD, *SLAP]))
    assert result.returncode == 0 and json.loads(result.stdout)["owed_draws"] == ["D"]


def test_out_of_order_lines_are_ordered_by_stamp() -> None:
    lines = [
        HEAD,
        '{"type": "press", "player": "B", "t_us": 500}',
        '{"type": "press", "player": "C", "t_us": 900}',
        '{"type": "close", "t_us": 950}',
        '{"type": "press", "player": "D", "t_us": 940}',  # written late, stamped in time
        '{"type": "press", "player": "A", "t_us": 100}',  # the real claimant
        '{"type": "verdict", "valid": true}',
    ]
    state = replay(lines).to_json()
    assert [p["player"] for p in state["last_slap"]["order"]] == ["A", "B", "C", "D"]
    assert state["last_slap"]["losers"] == ["D"] and state["last_slap"]["margin_us"] == 40


# --- the fold's own refusals, word for word in both languages (bench/mutation.py found them
# unchecked) ---------------------------------------------------------------------------------------


def test_the_fold_refuses_in_both_languages_and_counts_what_it_folded() -> None:
    import pytest

    from companion.errors import LogError
    from companion.table.fold import Fold
    from companion.table.log import parse_event

    start = '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 2}'
    cases = [
        (
            [start, '{"type": "press", "player": "A", "t_us": 5}', start],
            3,
            "a table log holds one game: a second new_game starts here (split the file, one game each)",
            "un journal de table contient une seule partie\u202f: un second new_game commence ici "
            "(séparez le fichier, une partie chacun)",
        ),
        (
            ['{"type": "undo"}'],
            1,
            "the log must start with a new_game event, not undo",
            "le journal doit commencer par un événement new_game, pas undo",
        ),
        (
            ["# nothing", ""],
            1,
            "the log holds no game: it needs a new_game event",
            "le journal ne contient aucune partie\u202f: il faut un événement new_game",
        ),
        (
            [],
            1,
            "the log holds no game: it needs a new_game event",
            "le journal ne contient aucune partie\u202f: il faut un événement new_game",
        ),
    ]
    for lines, line, en, fr in cases:
        with pytest.raises(LogError) as info:
            replay(lines)
        assert info.value.line == line
        assert str(info.value) == f"line {line}: {en}"
        assert info.value.message("fr") == f"ligne {line}\u202f: {fr}"
    fold = Fold()
    assert fold.count == 0 and fold.engine is None
    for text in (start, '{"type": "press", "player": "A", "t_us": 5}'):
        fold.feed(parse_event(text, "kilo"))
    assert fold.count == 2
