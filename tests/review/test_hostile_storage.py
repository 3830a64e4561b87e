"""Hostile storage: relative folders, damaged, tiny, read-only or full journals, a deleted -wal.

Every refusal is one sentence in the asked language, a non-zero exit, and the journal's bytes
(and its -wal's) exactly as they were. Read-only media and full disks are real: a read-only bind
mount and a small tmpfs, in a private mount namespace (``unshare``), skipped where none is allowed.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.games.kilo.events import NewKiloGame, Press
from companion.table.journal import FILENAME, Journal
from companion.table.live import Table
from tests.conftest import ROOT, run_cli, skip_unless_ci

SETUP = NewKiloGame(players=["A", "B", "C"], rounds=2)
WRITERS = (["resume"], ["demo", "--speed", "0", "--rounds", "1"])
READERS = (["games"], ["export"])


def digests(folder: Path) -> dict[str, str]:
    """The user's data: the journal and its -wal. The -shm is SQLite's index, rebuilt at will,
    and an empty -wal (which a read-only reader may create) holds nothing: SQLite reads a missing
    and an empty -wal alike."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.name == FILENAME or (p.name == FILENAME + "-wal" and p.stat().st_size)
    }


def one_clear_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def live_copy(dst: Path, presses: int = 5) -> None:
    """A journal as a crash leaves it: the recent events only in its -wal."""
    src = dst.parent / (dst.name + "-live")
    with Journal(src, writer=True) as journal:
        table = Table.start(journal, SETUP, {"input": "sim"})
        for i in range(presses):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        dst.mkdir()
        for name in (FILENAME, FILENAME + "-wal", FILENAME + "-shm"):
            shutil.copy(src / name, dst / name)
    assert (dst / (FILENAME + "-wal")).stat().st_size > 0


# --- 1. relative folders -----------------------------------------------------------------------


def test_relative_data_dir_works_by_flag_and_by_environment(tmp_path: Path) -> None:
    made = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "3", "--data-dir", "d1", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "d1" / FILENAME).is_file()
    for env_dir in ("d1", "./d1"):
        listed = run_cli("games", "--json", env={"COMPANION_DATA_DIR": env_dir}, cwd=tmp_path)
        assert listed.returncode == 0, listed.stderr
        exported = run_cli("export", env={"COMPANION_DATA_DIR": env_dir}, cwd=tmp_path)
        assert exported.returncode == 0 and exported.stdout.startswith("{")


# --- 2. a damaged journal with its -wal --------------------------------------------------------


def test_truncated_journal_with_wal_is_refused_without_a_byte_changed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    live_copy(data)
    os.truncate(data / FILENAME, 512)
    before = digests(data)
    assert len(before) == 2
    for args in WRITERS:
        line = one_clear_line(run_cli(*args, "--lang", "en", data_dir=data))
        assert "cannot be read" in line and "left untouched" in line and "damaged" in line
        assert digests(data) == before
    fr = one_clear_line(run_cli("resume", data_dir=data))
    assert "abîmé" in fr and "n’a pas été modifié" in fr
    for args in READERS:
        run_cli(*args, "--lang", "en", data_dir=data)  # may or may not read it: never writes
        assert digests(data) == before
    assert (data / (FILENAME + "-wal")).exists()


def test_crashed_but_whole_journal_is_resumed(tmp_path: Path) -> None:
    """The ordinary case the check above must not refuse: a kill, then resume."""
    data = tmp_path / "data"
    live_copy(data)
    listed = run_cli("export", data_dir=data)
    assert listed.returncode == 0 and listed.stdout.count('"press"') == 5


# --- 5. tiny journals --------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"\x00", b"S"])
def test_tiny_journal_same_verdict_for_readers_and_writers(tmp_path: Path, content: bytes) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / FILENAME).write_bytes(content)
    before = digests(data)
    for args in READERS + WRITERS:
        line = one_clear_line(run_cli(*args, "--lang", "en", data_dir=data))
        assert f"{len(content)} bytes: not a companion journal" in line, (args, line)
        assert "left untouched" in line
        assert digests(data) == before


# --- 6. a deleted -wal, then a crash -----------------------------------------------------------


def test_deleted_wal_then_crash_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = textwrap.dedent(f"""
        import os, sys
        from pathlib import Path
        from companion.games.kilo.events import NewKiloGame, Press
        from companion.table.journal import FILENAME, Journal
        from companion.table.live import Table
        journal = Journal(Path({str(data)!r}), writer=True)
        table = Table.start(journal, NewKiloGame(players=["A", "B", "C"], rounds=2), {{}})
        for i in range(10):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        os.remove(journal.wal)  # what a user tidying the folder might do
        for i in range(10, 20):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        sys.stdout.flush()
        os._exit(0)  # a crash: no close, no checkpoint at exit
    """)
    crashed = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert crashed.returncode == 0, crashed.stderr
    exported = run_cli("export", data_dir=data)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.count('"press"') == 20


# --- 3 and 4. read-only media and full disks, for real -----------------------------------------


def _in_namespace(setup: str, *cli: str, data: Path) -> subprocess.CompletedProcess[str]:
    command = f"{setup}\nexec {shlex.quote(sys.executable)} -m companion.cli " + " ".join(
        shlex.quote(a) for a in cli
    )
    env = dict(os.environ, COMPANION_DATA_DIR=str(data))
    return subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-ec", command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture(scope="module")
def namespaces() -> None:
    if shutil.which("unshare") is None:
        skip_unless_ci("no unshare here: read-only and full-disk cases need a private mount")
    probe = subprocess.run(
        [
            "unshare",
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-ec",
            "mount -t tmpfs -o size=64k tmpfs /mnt",
        ],
        capture_output=True,
    )
    if probe.returncode != 0:
        skip_unless_ci(f"mount namespaces not allowed here: {probe.stderr.decode().strip()}")


def _read_only(folder: Path) -> str:
    q = shlex.quote(str(folder))
    return f"mount --bind {q} {q}\nmount -o remount,bind,ro {q}"


@pytest.mark.parametrize("crashed", [False, True], ids=["closed", "crashed"])
def test_read_only_media_can_be_read_not_written(tmp_path: Path, namespaces: None, crashed: bool) -> None:
    data = tmp_path / "data"
    if crashed:
        live_copy(data)
        os.remove(data / (FILENAME + "-shm"))
    else:
        made = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "4", data_dir=data)
        assert made.returncode == 0
    before = digests(data)
    for args in READERS:
        result = _in_namespace(_read_only(data), *args, "--lang", "en", data=data)
        if crashed:  # the -wal holds unfinished writes: say how to read them, change nothing
            line = one_clear_line(result)
            assert "read-only media" in line and "copy the whole folder" in line
        else:
            assert result.returncode == 0, result.stderr
        assert digests(data) == before
    for args in WRITERS:
        line = one_clear_line(_in_namespace(_read_only(data), *args, "--lang", "en", data=data))
        assert "read-only" in line and "companion export" in line and "--data-dir" in line
        assert "move it aside" not in line
        assert digests(data) == before
    fr = one_clear_line(_in_namespace(_read_only(data), "resume", data=data))
    assert "lecture seule" in fr


def _small_disk(folder: Path, free_kib: int) -> str:
    q = shlex.quote(str(folder))
    return (
        f"mkdir -p {q}\nmount -t tmpfs -o size=1m tmpfs {q}\n"
        f"dd if=/dev/zero of={q}/ballast bs=1k count={1024 - free_kib} 2>/dev/null || true"
    )


@pytest.mark.parametrize("free_kib", [0, 12], ids=["full", "nearly-full"])
def test_full_disk_says_so_and_leaves_nothing_behind(tmp_path: Path, namespaces: None, free_kib: int) -> None:
    data = tmp_path / "data"
    script = _small_disk(data, free_kib)
    for lang, words in (("en", ("is full", "free some space")), ("fr", ("est plein", "libérez"))):
        check = (
            f"{script}\n{shlex.quote(sys.executable)} -m companion.cli demo --speed 0 "
            f"--lang {lang} && exit 9 || code=$?\nls -A {shlex.quote(str(data))} >&2\n"
            "exit $code"
        )
        result = subprocess.run(
            ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", check],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            env=dict(os.environ, COMPANION_DATA_DIR=str(data)),
        )
        lines = result.stderr.strip().splitlines()
        assert result.returncode not in (0, 9), result.stderr
        assert "Traceback" not in result.stderr
        assert all(w in lines[0] for w in words), lines
        assert "cannot be read" not in lines[0] and "move it aside" not in lines[0]
        # what is left in the folder: the ballast and at most the lock file, no half journal
        assert set(lines[1:]) <= {"ballast", "journal.lock"}, lines


# --- 7. export checks what it writes; games flags what it cannot fold --------------------------


def _damage(data: Path, seq: int, payload: str) -> str:
    import sqlite3

    db = sqlite3.connect(data / FILENAME)
    game_id = db.execute("SELECT id FROM games").fetchone()[0]
    db.execute("UPDATE events SET payload = ? WHERE seq = ?", (payload, seq))
    db.commit()
    db.close()
    return str(game_id)


@pytest.mark.parametrize(
    ("seq", "payload", "why"),
    [
        (1, '{"type": "press", "player": "Ann", "t_us": 1}', "must start with a new_game"),
        (2, '{"type": "verdict", "valid": true}', "no slap to judge"),
        (3, '{"type": "press", "player": "Nobody", "t_us": 5}', "Nobody"),
        (4, '{"type": "press", "player": "Ann", "t_', "not valid JSON"),
    ],
)
def test_export_refuses_a_game_that_does_not_replay(tmp_path: Path, seq: int, payload: str, why: str) -> None:
    data = tmp_path / "data"
    made = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "8", data_dir=data)
    assert made.returncode == 0
    game_id = _damage(data, seq, payload)
    before = digests(data)
    result = run_cli("export", "--lang", "en", data_dir=data)
    line = one_clear_line(result)
    assert result.stdout == ""  # nothing half-written
    assert f"event {seq} of game {game_id}" in line and why in line, line
    assert "nothing was exported" in line
    fr = one_clear_line(run_cli("export", data_dir=data))
    assert f"de la partie {game_id}" in fr and "rien n’a été exporté" in fr
    listed = run_cli("games", "--lang", "en", data_dir=data)
    assert listed.returncode == 1 and "DAMAGED" in listed.stdout
    assert f"event {seq} of game {game_id}" in listed.stderr
    as_json = run_cli("games", "--json", "--lang", "en", data_dir=data)
    import json

    assert why in json.loads(as_json.stdout)["games"][0]["damaged"]
    assert digests(data) == before


def test_disk_full_mid_game_keeps_every_earlier_event_and_resume_goes_on(
    tmp_path: Path, namespaces: None
) -> None:
    """The disk fills during a game: the event is refused with the fix, the game is whole, and
    after freeing space `companion resume` (the advice) continues it."""
    data = tmp_path / "data"
    q = shlex.quote(str(data))
    script = textwrap.dedent(f"""
        import os, sys
        from pathlib import Path
        from companion.errors import JournalError
        from companion.games.kilo.events import NewKiloGame, Press
        from companion.table.journal import Journal
        from companion.table.live import Table
        journal = Journal(Path({str(data)!r}), writer=True)
        table = Table.start(journal, NewKiloGame(players=["A", "B", "C"], rounds=1),
                            {{"input": "sim", "seed": 1}})
        for i in range(10):
            table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
        with open({str(data / "ballast")!r}, "wb", buffering=0) as ballast:  # fill the disk
            try:
                while True:
                    ballast.write(b"x" * 4096)
            except OSError:
                pass
        done = 11
        try:
            for i in range(10, 100000):
                table.submit(Press(player="ABC"[i % 3], t_us=i + 1))
                done += 1
        except JournalError as err:
            print(done, file=sys.stderr)
            print(err.message("en"), file=sys.stderr)
            print(err.message("fr"), file=sys.stderr)
        journal.close()
        os.remove({str(data / "ballast")!r})  # the user frees space, as advised
        os.execv(sys.executable, [sys.executable, "-m", "companion.cli", "resume", "--speed",
                                  "0", "--lang", "en"])
    """)
    command = (
        f"mkdir -p {q}\nmount -t tmpfs -o size=2m tmpfs {q}\n"
        f"exec {shlex.quote(sys.executable)} -c {shlex.quote(script)}"
    )
    result = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-ec", command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=dict(os.environ, COMPANION_DATA_DIR=str(data)),
    )
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr, result.stderr
    committed, en, fr = int(lines[0]), lines[1], lines[2]
    assert committed >= 11
    assert "is full: the last event was not recorded" in en and "`companion resume`" in en
    assert "est plein" in fr and "`companion resume`" in fr
    assert result.returncode == 0, result.stderr
    assert f"at event {committed}" in result.stdout  # every committed event came back
