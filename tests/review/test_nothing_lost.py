"""Nothing lost, round two (issue 22): damaged -wal files, foreign journals, readers that hold a
read transaction, hostile configs, caches and names, through the real CLI on real SQLite files.

Every refusal is one sentence in the asked language, a non-zero exit, no traceback, and the
user's files byte for byte as they were.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games.kilo.events import NewKiloGame, Press
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from tests.conftest import ROOT
from tests.conftest import run_cli as _run_cli
from tests.review.test_hostile_storage import one_clear_line


def run_cli(*args: str, **given: Any) -> subprocess.CompletedProcess[str]:
    """The CLI; the journals here are made by `companion demo`, standing in for a table's games,
    so history and stats are told to count them (tests/review/test_newcomer.py: not unasked)."""
    demos = ("--demos",) if args and args[0] in ("history", "stats") else ()
    return _run_cli(*args, *demos, **given)


SETUP = NewKiloGame(players=["A", "B", "C"], rounds=2)
WAL = FILENAME + "-wal"


def digests(folder: Path) -> dict[str, str]:
    """Every file of the folder but SQLite's -shm (an index SQLite rebuilds at will) and the
    writer's lock file (it holds the pid of the last writer)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
        and not p.name.endswith("-shm")
        and p.name != "journal.lock"
        and not (p.name == WAL and p.stat().st_size == 0)
    }


def crashed_copy(dst: Path, presses: int = 20) -> None:
    """A journal as a kill leaves it: every event after the first in its -wal (fewer than the
    32 between checkpoints), the -shm of a process that is gone."""
    src = dst.parent / (dst.name + "-live")
    with Journal(src, writer=True) as journal:
        table = Table.start(journal, SETUP, {"input": "sim"})
        for i in range(presses):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        dst.mkdir()
        for name in (FILENAME, WAL, FILENAME + "-shm"):
            shutil.copy(src / name, dst / name)


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


FRAME = 4096 + 24


# --- 1. a damaged -wal -------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["page", "frame header", "wal header"])
def test_damaged_wal_is_named_and_left_untouched(tmp_path: Path, where: str) -> None:
    data = tmp_path / "data"
    crashed_copy(data)
    offset = {"page": 32 + 5 * FRAME + 24 + 100, "frame header": 32 + 5 * FRAME + 2, "wal header": 12}[where]
    flip(data / WAL, offset)
    before = digests(data)
    for args in (
        ["games"],
        ["games", "--json"],
        ["export"],
        ["history"],
        ["stats"],
        ["export", "--csv", "--all"],
        ["resume", "--speed", "0"],
        ["demo", "--speed", "0", "--rounds", "1"],
    ):
        line = one_clear_line(run_cli(*args, "--lang", "en", data_dir=data))
        assert "damaged" in line and "left untouched" in line and WAL in line, (args, line)
        assert digests(data) == before, args
    fr = one_clear_line(run_cli("resume", data_dir=data))
    assert "abîmé" in fr and "n’a pas été modifié" in fr
    assert digests(data) == before


def test_whole_crashed_wal_is_read_and_resumed(tmp_path: Path) -> None:
    """What the check must not refuse: a kill, every frame whole."""
    data = tmp_path / "data"
    crashed_copy(data)
    exported = run_cli("export", data_dir=data)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.count('"press"') == 20


def test_a_cut_short_last_transaction_is_not_damage(tmp_path: Path) -> None:
    """A pulled plug during the last commit leaves its frame half-written: that event was never
    acknowledged, SQLite drops it, and the journal is still the players' journal."""
    data = tmp_path / "data"
    crashed_copy(data)
    wal = data / WAL
    size = wal.stat().st_size
    flip(wal, size - 100)  # inside the last frame: the last transaction
    exported = run_cli("export", data_dir=data)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.count('"press"') == 19


# --- 3. a reader holding a read transaction never stalls the writer ----------------------------


def test_a_reader_holding_a_transaction_does_not_freeze_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "1", data_dir=data)
    assert made.returncode == 0, made.stderr
    reader = sqlite3.connect(f"file:{data / FILENAME}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM events").fetchone()  # holds its snapshot from here
    try:
        env = dict(os.environ, COMPANION_DATA_DIR=str(data), COMPANION_TRACE_COMMITS="1")
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "demo", "treize", "--speed", "0", "--seed", "2"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr is not None
        stamps = [time.monotonic() for line in proc.stderr if line.startswith("#committed")]
        assert proc.wait(timeout=120) == 0
    finally:
        reader.close()
    assert len(stamps) > 3 * 32  # enough commits for several checkpoints
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    # The busy timeout is 5 s: a checkpoint that waited for the reader shows as such a gap.
    assert max(gaps) < 2.5, max(gaps)


# --- 5. a journal carrying its own SQL -------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TRIGGER wipe AFTER INSERT ON events BEGIN DELETE FROM events; END",
        "CREATE VIEW everything AS SELECT * FROM events",
        "CREATE TRIGGER hide AFTER UPDATE ON games BEGIN DELETE FROM games; END",
    ],
    ids=["trigger on events", "view", "trigger on games"],
)
def test_a_journal_with_foreign_sql_is_read_never_written(tmp_path: Path, sql: str) -> None:
    data = tmp_path / "data"
    made = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "1", data_dir=data)
    assert made.returncode == 0, made.stderr
    db = sqlite3.connect(data / FILENAME)
    db.execute(sql)
    db.commit()
    db.close()
    before = digests(data)
    for args in (["resume", "--speed", "0"], ["demo", "--speed", "0", "--rounds", "1"]):
        line = one_clear_line(run_cli(*args, "--lang", "en", data_dir=data))
        assert "not created by the companion" in line and "left untouched" in line, line
        assert digests(data) == before
    fr = one_clear_line(run_cli("demo", "--speed", "0", data_dir=data))
    assert "n’a pas été modifié" in fr
    listed = run_cli("games", "--json", data_dir=data)  # its games can still be read out
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["games"]) == 1
    # The reader may note in its own cache how the journal's files stood (a look that finds
    # them so again skips counting); the journal itself is byte for byte as it was.
    after = digests(data)
    assert after.pop("stats-cache.json") and before.pop("stats-cache.json")
    assert after == before


# --- 2 and 7. `buttons --assign` keeps the rest of the config, and checks before listening -------

USER_CONFIG = """\
# my table: keys for the kids, the Pico on its own port
[input]
source = "keyboard"

[keyboard]
seats = ["a", "z", "e"]  # the kids' keys
confirm = "space"

[serial]
port = "/dev/ttyACM7"

[gpio]
buses = ["id_eeprom"]
seats = [{ button = 17 }]

[debounce]
lockout_ms = 40
"""


def _assign(
    argv: list[str], presses: list[int], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """Run `companion buttons --assign ...` on a gpiozero MockFactory, pressing ``presses`` as
    the prompts ask for them."""
    from gpiozero.pins.mock import MockFactory

    from companion import cli
    from companion.cli.buttons import cmd_buttons
    from tests.cli.test_buttons import LineSink, human_pause

    factory = MockFactory()
    sink = LineSink()
    args = cli.build_parser().parse_args(["buttons", "--assign", "--lang", "en", *argv])
    result: list[int] = []
    with monkeypatch.context() as m:
        m.setattr(sys, "stdout", sink)

        def assign() -> None:
            result.append(cmd_buttons(args, pin_factory=factory))

        th = threading.Thread(target=assign)
        th.start()
        for n, pin in enumerate(presses, start=1):
            sink.wait_for(functools.partial(_asks_for_seat, n))
            factory.pin(pin).drive_low()
            human_pause()
            factory.pin(pin).drive_high()
        th.join(30)
    factory.close()
    assert not th.is_alive() and len(result) == 1
    return result[0], sink.getvalue(), capsys.readouterr().err


def test_assign_force_changes_the_pin_map_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tomllib

    cfg = tmp_path / "companion.toml"
    cfg.write_text(USER_CONFIG, encoding="utf-8")
    rc, _out, err = _assign(
        ["--force", "--config", str(cfg), "--seats", "2", "--duration", "30"], [22, 5], monkeypatch, capsys
    )
    assert rc == 0, err
    text = cfg.read_text(encoding="utf-8")
    before, after = tomllib.loads(USER_CONFIG), tomllib.loads(text)
    assert [s["button"] for s in after["gpio"]["seats"]] == [22, 5]
    for section in ("input", "keyboard", "serial", "debounce"):
        assert after[section] == before[section], section
    assert "# the kids' keys" in text and text.startswith("# my table")


def test_assign_into_a_folder_it_cannot_write_says_so_before_listening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    out = blocker / "companion.toml"
    rc, said, err = _assign(["--output", str(out), "--duration", "30"], [], monkeypatch, capsys)
    assert rc != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(out) in err and "seat 1" not in said  # refused before a single button was asked
    assert blocker.read_text() == "a file where a folder should be"


# --- 6. hostile config files ---------------------------------------------------------------------

BAD_CONFIGS = {
    "inf": ("[debounce]\nstuck_after_s = inf\n", "stuck_after_s"),
    "1e308": ("[debounce]\nstuck_after_s = 1e308\n", "stuck_after_s"),
    "nan lockout": ("[debounce]\nlockout_ms = nan\n", "lockout_ms"),
    "not utf-8": (b'[serial]\nport = "/dev/tty\xe9"\n', "UTF-8"),
    "deep": ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nest"),
    "debouce": ("[debouce]\nlockout_ms = 40\n", "debounce"),
    "gpoi": ("[gpoi]\nseats = [{ button = 17 }]\n", "gpio"),
}


def bad_config(tmp_path: Path, case: str) -> tuple[Path, str]:
    """BAD_CONFIGS[case] written as the config file, with the words its refusal must carry."""
    content, needle = BAD_CONFIGS[case]
    cfg = tmp_path / "companion.toml"
    if isinstance(content, bytes):
        cfg.write_bytes(content)
    else:
        cfg.write_text(str(content), encoding="utf-8")
    return cfg, needle


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
@pytest.mark.parametrize(
    "command",
    [["buttons", "--input", "sim", "--duration", "0.01"], ["play", "kilo", "--players", "A,B,C"]],
    ids=["buttons", "play"],
)
def test_a_bad_config_is_one_sentence(tmp_path: Path, case: str, command: list[str]) -> None:
    cfg, needle = bad_config(tmp_path, case)
    before = cfg.read_bytes()
    result = run_cli(
        *command,
        "--config",
        str(cfg),
        "--lang",
        "en",
        data_dir=tmp_path / "d",
        env={"SDL_VIDEODRIVER": "dummy"},
    )
    line = one_clear_line(result)
    assert needle in line and str(cfg) in line, line
    assert cfg.read_bytes() == before


@pytest.mark.parametrize("case", ["inf", "not utf-8", "deep", "debouce"])
def test_doctor_names_a_bad_config_not_its_own_failure(tmp_path: Path, case: str) -> None:
    cfg, needle = bad_config(tmp_path, case)
    result = run_cli(
        "doctor",
        "--json",
        "--config",
        str(cfg),
        "--lang",
        "en",
        data_dir=tmp_path / "d",
        env={"SDL_VIDEODRIVER": "dummy"},
    )
    assert "Traceback" not in result.stderr
    check = next(c for c in json.loads(result.stdout)["checks"] if c["key"] == "config")
    assert check["status"] == "fail" and needle in check["en"], check
    assert "check itself failed" not in check["en"]


# --- 8. a damaged stats cache is ignored and rebuilt -------------------------------------------


def _parts(cache: Path) -> tuple[dict[str, object], list[object]]:
    lines = cache.read_bytes().split(b"\n")
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def _write(cache: Path, head: dict[str, object], parts: list[object], *, sign: bool) -> None:
    """The cache file with ``parts`` as its lines; ``sign``: with digests that match them (a
    forged file), else with the old ones (a damaged or hand-edited file)."""
    lines = [json.dumps(p, separators=(",", ":")).encode() for p in parts]
    if sign:
        head = dict(head, sha256=[hashlib.sha256(line).hexdigest() for line in lines])
    cache.write_bytes(b"\n".join([json.dumps(head).encode(), *lines]))


def _asks_for_seat(n: int, line: str) -> bool:
    return f"seat {n}" in line


def _stranger(parts: list[Any]) -> list[Any]:
    rows, slaps, sheets = parts
    for row in rows.values():
        row[2][4] = [["Mallory", 999], *row[2][4][1:]]  # a player not at the table
        row[2][3] = ["Mallory"]
    for facts in slaps.values():
        facts.append([[["Mallory", 1]], ["Mallory"], 5, True, False])
    return [rows, slaps, sheets]


def _wrong_types(parts: list[Any]) -> list[Any]:
    rows, slaps, sheets = parts
    return [
        {gid: [row[0], row[1], ["kilo", 5, "yes", None, 7, "kilos", 3]] for gid, row in rows.items()},
        slaps,
        sheets,
    ]


def _nest(depth: int) -> Any:
    value: Any = ["Alice", 1]
    for _ in range(depth):
        value = [value]
    return value


# Forged records that keep every row's events, date, digest and bytes, so that the cache's
# count and size checks take them and only its own reading of the record can refuse them.
RECORDS: dict[str, Callable[[list[Any]], list[Any]]] = {
    "players not a list": lambda r: [r[0], 5, *r[2:]],
    "players nested": lambda r: [r[0], [_nest(300)], *r[2:]],
    "scores nested": lambda r: [*r[:4], [_nest(300)], *r[5:]],
    "scores not numbers": lambda r: [*r[:4], [[p, "lots"] for p, _ in r[4]], *r[5:]],
    "winners a number": lambda r: [*r[:3], 7, *r[4:]],
    "flushes of a stranger": lambda r: [*r[:6], [["Mallory", "x"]]],
    "unit an object": lambda r: [*r[:5], {"kilos": 1}, r[6]],
    "short record": lambda r: r[:5],
}
SLAPS: dict[str, Callable[[list[Any]], list[Any]]] = {
    "slap stamps not numbers": lambda facts: [[[[p, "soon"] for p, _ in f[0]], *f[1:]] for f in facts],
    "slap nested": lambda facts: [_nest(300) for _ in facts],
    "slap of a stranger": lambda facts: [[[["Mallory", None]], ["Mallory"], "x", True, False]],
}


def _forged_record(change: Callable[[list[Any]], list[Any]]) -> Callable[[list[Any]], list[Any]]:
    def forge(parts: list[Any]) -> list[Any]:
        rows, slaps, sheets = parts
        return [{gid: [*row[:2], change(row[2]), *row[3:]] for gid, row in rows.items()}, slaps, sheets]

    return forge


def _forged_slaps(change: Callable[[list[Any]], list[Any]]) -> Callable[[list[Any]], list[Any]]:
    def forge(parts: list[Any]) -> list[Any]:
        rows, slaps, sheets = parts
        return [rows, {gid: change(facts) for gid, facts in slaps.items()}, sheets]

    return forge


FORGED = {
    **{f"record: {k}": _forged_record(v) for k, v in RECORDS.items()},
    **{f"slaps: {k}": _forged_slaps(v) for k, v in SLAPS.items()},
}


CACHES = {
    "nested": lambda cache: cache.write_text(
        '{"version": 3}\n' + "[" * 100_000 + "]" * 100_000, encoding="utf-8"
    ),
    "truncated": lambda cache: cache.write_bytes(cache.read_bytes()[:-100]),
    "flipped": lambda cache: flip(cache, cache.stat().st_size // 2),
    "list": lambda cache: cache.write_text("[1, 2, 3]", encoding="utf-8"),
    "edited stranger": lambda cache: _write(cache, _parts(cache)[0], _stranger(_parts(cache)[1]), sign=False),
    "forged stranger": lambda cache: _write(cache, _parts(cache)[0], _stranger(_parts(cache)[1]), sign=True),
    "forged wrong types": lambda cache: _write(
        cache, _parts(cache)[0], _wrong_types(_parts(cache)[1]), sign=True
    ),
}


def _cached(content: bytes) -> tuple[Any, list[bytes]]:
    """A cache's records and their digests; not the journal's fingerprint in its header, which
    depends on how long ago the journal was written (none within 2 s)."""
    head, *lines = content.split(b"\n")
    return {k: v for k, v in json.loads(head).items() if k != "journal"}, lines


def _two_demos(data: Path, commands: list[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """Two demo games in ``data``, then ``commands`` run on them (which write the stats cache):
    what each printed."""
    for seed in (5, 6):
        made = run_cli("demo", "--speed", "0", "--rounds", "2", "--seed", str(seed), data_dir=data)
        assert made.returncode == 0, made.stderr
    truth = {cmd: run_cli(*cmd, data_dir=data) for cmd in commands}
    assert all(r.returncode == 0 for r in truth.values())
    return {cmd: r.stdout for cmd, r in truth.items()}


# The journal and its cache are made once a test (by the CLI, as a table would): each case works
# on its own copy (copytree keeps the files' times; a new inode makes the cache's note of the
# journal's files stale, so the journal is counted, as when the cache was written within 2 s).
TRUTH_DAMAGED: list[tuple[str, ...]] = [("stats", "--json"), ("history", "--json")]
TRUTH_FORGED: list[tuple[str, ...]] = [
    ("stats", "--json"),
    ("history", "--json"),
    ("games", "--json"),
    ("stats", "Alice"),
]


@pytest.fixture(scope="module")
def demos_damaged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, ...], str]]:
    data = tmp_path_factory.mktemp("demos") / "data"
    return data, _two_demos(data, TRUTH_DAMAGED)


@pytest.fixture(scope="module")
def demos_forged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, ...], str]]:
    data = tmp_path_factory.mktemp("demos") / "data"
    return data, _two_demos(data, [(*cmd, "--lang", "en") for cmd in TRUTH_FORGED])


@pytest.mark.parametrize("case", list(CACHES))
def test_a_damaged_stats_cache_is_ignored_and_rebuilt(
    tmp_path: Path, case: str, demos_damaged: tuple[Path, dict[tuple[str, ...], str]]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(demos_damaged[0], data)
    truth = {cmd[0]: out for cmd, out in demos_damaged[1].items()}
    cache = data / "stats-cache.json"
    good = cache.read_bytes()
    CACHES[case](cache)
    journal_before = hashlib.sha256((data / FILENAME).read_bytes()).hexdigest()
    for cmd in ("stats", "history", "games"):
        again = run_cli(cmd, "--json", data_dir=data)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
        if not case.startswith("forged") and cmd in truth:
            assert json.loads(again.stdout) == json.loads(truth[cmd]), cmd
    if not case.startswith("forged"):  # a forged file, digests and all, is beyond a cache's care
        assert _cached(cache.read_bytes()) == _cached(good)  # rebuilt
    assert hashlib.sha256((data / FILENAME).read_bytes()).hexdigest() == journal_before


@pytest.mark.parametrize("case", list(FORGED))
def test_a_forged_cache_that_passes_the_counts_is_refused_by_its_own_reading(
    tmp_path: Path, case: str, demos_forged: tuple[Path, dict[tuple[str, ...], str]]
) -> None:
    """Digests signed, events, dates and sizes right: only the reading of each record stands
    between a forged or corrupt cache and a traceback. It must refuse them (the game is then
    read again from its summary or its events), so every listing says what it said before."""
    data = tmp_path / "data"
    shutil.copytree(demos_forged[0], data)
    commands = TRUTH_FORGED
    truth = {cmd: demos_forged[1][(*cmd, "--lang", "en")] for cmd in commands}
    cache = data / "stats-cache.json"
    head, parts = _parts(cache)
    forged = FORGED[case](parts)
    _write(cache, head, forged, sign=True)
    for cmd in commands:
        _write(cache, head, forged, sign=True)  # each look may rebuild it: forge it again
        again = run_cli(*cmd, "--lang", "en", data_dir=data)
        assert again.returncode == 0 and "Traceback" not in again.stderr, (cmd, again.stderr[-800:])
        assert again.stdout == truth[cmd], cmd


# --- 9. CSV formula injection ------------------------------------------------------------------

HOSTILE = ['=HYPERLINK("x.fr")', "+1+cmd", "@SUM(A1)", "-2+3"]


def _old_journal_with(names: list[str], data: Path) -> None:
    """A journal written before names were checked at the table: its games must still read."""
    from companion.games.kilo.events import NewKiloGame as Setup

    with Journal(data, writer=True) as journal:
        journal.new_game(Setup(players=names, rounds=1), "kilo", tuple(names), {"input": "sim"})


def test_csv_export_defuses_formulas(tmp_path: Path) -> None:
    import csv
    import io

    data = tmp_path / "data"
    _old_journal_with(HOSTILE, data)
    result = run_cli("export", "--csv", "--all", data_dir=data)
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    assert {row[4] for row in rows[1:]} == {"'" + name for name in HOSTILE}


@pytest.mark.parametrize("players", ["=1+2,B,C", "A,+B,C", "A,B,@C", "A,-B,C"])
def test_play_refuses_a_name_that_is_a_formula(tmp_path: Path, players: str) -> None:
    result = run_cli(
        "play",
        "kilo",
        "--players",
        players,
        "--lang",
        "en",
        data_dir=tmp_path / "d",
        env={"SDL_VIDEODRIVER": "dummy"},
        timeout=30,
    )
    line = one_clear_line(result)
    assert "spreadsheet" in line, line
    assert (
        not (tmp_path / "d" / FILENAME).exists()
        or run_cli("games", "--json", data_dir=tmp_path / "d").stdout.count('"id"') == 0
    )


# --- 10. one name, one player ------------------------------------------------------------------


def test_stats_finds_a_player_typed_decomposed_and_the_exact_case_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for seed, players in ((1, "3"), (2, "3")):
        made = run_cli(
            "demo", "--speed", "0", "--rounds", "1", "--seed", str(seed), "--players", players, data_dir=data
        )
        assert made.returncode == 0, made.stderr
    # Demo names: Alice, Bruno, Chloé. Chloé typed as C h l o e + combining acute:
    nfd = run_cli("stats", "Chloe\u0301", "--json", data_dir=data)
    assert nfd.returncode == 0, nfd.stderr
    assert [p["player"] for p in json.loads(nfd.stdout)["players"]] == ["Chloé"]


def test_stats_alice_is_not_alice_in_lower_case(tmp_path: Path) -> None:
    import io

    from companion.games import load

    data = tmp_path / "data"
    kilo = load("kilo")
    with Journal(data, writer=True) as journal:
        table = Table.start(
            journal, NewKiloGame(players=["Alice", "alice", "Bob"], rounds=2), {"input": "sim", "seed": 3}
        )
        kilo.run_demo(table, 3, 0, "en", io.StringIO())
        assert table.engine.finished
    every = json.loads(run_cli("stats", "--json", data_dir=data).stdout)["players"]
    numbers = {p["player"]: p for p in every}
    for name in ("Alice", "alice"):
        one = run_cli("stats", name, "--json", data_dir=data)
        assert one.returncode == 0, one.stderr
        assert json.loads(one.stdout)["players"] == [numbers[name]]
    other = run_cli("stats", "ALICE", "--lang", "en", data_dir=data)  # which one? say so
    line = one_clear_line(other)
    assert "Alice" in line and "alice" in line


@pytest.mark.parametrize(
    "players", ["Jean Paul,Jean\u00a0Paul,C", "A,B,\u3164", "C,C\u3164,B", "A,B,\u2800", "Zoé,Zoe\u0301 ,B"]
)
def test_names_that_look_the_same_or_invisible_are_refused(tmp_path: Path, players: str) -> None:
    result = run_cli(
        "play",
        "kilo",
        "--players",
        players,
        "--lang",
        "en",
        data_dir=tmp_path / "d",
        env={"SDL_VIDEODRIVER": "dummy"},
        timeout=30,
    )
    line = one_clear_line(result)
    assert "look the same" in line or "shows nothing" in line or "unique" in line, line


# --- 11. an error quotes a hostile value cut, with its length -------------------------------------


def test_a_huge_value_gives_a_short_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = run_cli("demo", "--speed", "0", "--rounds", "1", data_dir=data)
    assert made.returncode == 0
    huge = "x" * 10_000
    log = tmp_path / "huge.jsonl"
    log.write_text(
        json.dumps({"type": "new_game", "game": "kilo", "players": [huge, "B", "C"], "rounds": 1}) + "\n",
        encoding="utf-8",
    )
    for args in (
        ["play", "kilo", "--players", f"{huge},B,C"],
        ["export", huge],
        ["stats", huge],
        ["resume", huge],
        ["replay", str(log)],
    ):
        result = run_cli(*args, "--lang", "en", data_dir=data, env={"SDL_VIDEODRIVER": "dummy"}, timeout=30)
        line = one_clear_line(result)
        assert len(line) < 600 and "10000" in line.replace(",", "").replace("\u202f", ""), (
            args[0],
            line[:300],
        )


# --- 12. a data folder path longer than the file system allows --------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["games"],
        ["history"],
        ["stats"],
        ["export"],
        ["export", "--csv", "--all"],
        ["resume"],
        ["demo", "--speed", "0"],
    ],
)
def test_a_too_long_data_dir_is_one_sentence(tmp_path: Path, command: list[str]) -> None:
    for folder in (tmp_path / ("x" * 300), tmp_path.joinpath(*["y" * 200] * 25)):
        line = one_clear_line(run_cli(*command, "--lang", "en", data_dir=folder))
        assert "too long" in line, line


# --- 13. a closed pipe, and errors named by what caused them ------------------------------------


def test_demo_into_a_closed_pipe_says_the_game_was_cut(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, COMPANION_DATA_DIR=str(data))
    # At the demo's own pace (not --speed 0) the game is still going when the reader leaves.
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--speed", "5", "--lang", "en"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.readline()
    proc.stdout.close()  # what `| head -2` does
    err = proc.stderr.read()
    assert proc.wait(timeout=60) != 0
    assert "Traceback" not in err and "companion resume" in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_play_names_the_serial_port_not_players(tmp_path: Path) -> None:
    cfg = tmp_path / "companion.toml"
    cfg.write_text('[serial]\nport = "/dev/tty\\u0000S0"\n', encoding="utf-8")
    result = run_cli(
        "play",
        "kilo",
        "--players",
        "A,B,C",
        "--input",
        "serial",
        "--config",
        str(cfg),
        "--lang",
        "en",
        data_dir=tmp_path / "d",
        env={"SDL_VIDEODRIVER": "dummy"},
        timeout=30,
    )
    line = one_clear_line(result)
    assert "--players" not in line and "port" in line, line


# --- the line-length cap of `replay` ---------------------------------------------------------------


def test_replay_refuses_a_line_longer_than_the_cap_without_reading_it_whole(tmp_path: Path) -> None:
    """One cap for every table log (table/log.py), one sentence in each language, whether the
    log is a file, stdin or no log at all."""
    from companion.table.log import MAX_LINE_BYTES

    start = '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], "rounds": 1}\n'
    long_line = '{"type": "press", "player": "' + "A" * (2 * MAX_LINE_BYTES) + '"}\n'
    log = tmp_path / "long.jsonl"
    log.write_text(start + long_line, encoding="utf-8")
    for args, stdin, number in (
        ((str(log),), None, 2),
        (("-",), start + long_line, 2),
        (("/dev/zero",), None, 1),
    ):
        line = one_clear_line(run_cli("replay", *args, "--lang", "en", stdin=stdin))
        assert line == (
            f"companion: {'stdin' if args == ('-',) else args[0]}: line {number}: longer than "
            f"65,536 bytes: a table-log line "
            "holds one "
            "event, a few hundred bytes at most"
        ), line
        line = one_clear_line(run_cli("replay", *args, "--lang", "fr", stdin=stdin))
        assert line == (
            f"companion: {'l’entrée standard' if args == ('-',) else args[0]}\u202f: ligne "
            f"{number}\u202f: plus long que 65\u202f536 octets\u202f: "
            "une ligne "
            "du journal de table contient un événement, quelques centaines d’octets "
            "au plus"
        ), line
