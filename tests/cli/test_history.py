"""``companion history`` and ``companion stats`` as a player reads them (issue 38): every line
printed, in French (U+202F before ":" and ";", decimal commas) and in English, from a journal the
table wrote in this process (the docs' sample games, no demo subprocess), so each mutant of
``companion/cli/history.py`` and of Kilo de merde's statistics (``games/kilo/stats.py``) is judged
in a second or two."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.cinq_rois.samples import SAMPLES as CINQ
from companion.games.kilo.events import NewKiloGame
from companion.games.kilo.samples import SAMPLES as KILO
from companion.games.treize.samples import SAMPLES as TREIZE
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import NewGameBase, event_from_dict

N = "\u202f"
FIVE = "Alice, Bruno, Chloé, Dédé, Émile"


def play(journal: Journal, events: list[dict[str, Any]], meta: dict[str, Any] | None = None) -> Table:
    setup = event_from_dict(events[0], None)
    assert isinstance(setup, NewGameBase)
    table = Table.start(journal, setup, meta or {"input": "keyboard"})
    for e in events[1:]:
        table.submit(event_from_dict(e, table.engine.game))
    return table


def companion(*args: str, data: Path) -> tuple[int, str, str]:
    """The real command line, in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*args, "--data-dir", str(data)])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 2
    return code, out.getvalue(), err.getvalue()


class Evening:
    """A journal of four games: Kilo de merde finished (samples.finished), Les Cinq Rois and
    13 feuilles finished, a Kilo game in play; and the minutes it was written in."""

    def __init__(self, data: Path) -> None:
        self.data = data
        before = time.time()
        with Journal(data, writer=True) as journal:
            self.ids = [
                play(journal, events).game_id
                for events in (
                    KILO["finished"](),
                    CINQ["finished"](),
                    TREIZE["finished"](),
                    KILO["midgame"](),
                )
            ]
        after = time.time()
        self.minutes = {time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) for t in (before, after)}
        # The Kilo game was played on another evening: 14 July 2026 at 21:30, local time, as the
        # journal keeps it (nanoseconds since the epoch).
        july = int(time.mktime((2026, 7, 14, 21, 30, 0, 0, 0, -1))) * 10**9
        with sqlite3.connect(data / "journal.sqlite3") as db:
            db.execute("UPDATE games SET created_ns = ? WHERE id = ?", (july, self.ids[0]))
        db.close()
        self.minutes.add("2026-07-14 21:30")

    def lines(self, printed: str) -> list[str]:
        """The lines of ``history``, each one's date checked (written while the test ran) and
        cut off."""
        out = []
        for line in printed.splitlines():
            stamp = re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d  ", line)
            if stamp is not None:
                assert stamp.group().strip() in self.minutes, line
                line = line[stamp.end() :]
            out.append(line)
        return out


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Evening:
    return Evening(tmp_path_factory.mktemp("history") / "data")


def test_history_lists_each_game_with_its_outcome(evening: Evening) -> None:
    kilo, cinq, treize, playing = evening.ids
    code, out, err = companion("history", "--lang", "en", data=evening.data)
    assert (code, err) == (0, "")
    assert out.startswith(f"2026-07-14 21:30  {kilo}  Kilo de merde")  # the day it was played
    assert evening.lines(out) == [
        f"{kilo}  Kilo de merde  {FIVE}  →  joint winners: Alice, Émile (0 kg)",
        f"{cinq}  Les Cinq Rois  {FIVE}  →  winner: Chloé (126 points)",
        f"{treize}  13 feuilles    {FIVE}  →  winner: Dédé (8 points)",
        f"{playing}  Kilo de merde  {FIVE}  →  in progress",
        "4 games, 3 finished.",
    ]
    code, out, err = companion("history", data=evening.data)
    assert (code, err) == (0, "")
    assert evening.lines(out) == [
        f"{kilo}  Kilo de merde  {FIVE}  →  gagnants ex aequo{N}: Alice, Émile (0 kg)",
        f"{cinq}  Les Cinq Rois  {FIVE}  →  gagnant{N}: Chloé (126 points)",
        f"{treize}  13 feuilles    {FIVE}  →  gagnant{N}: Dédé (8 points)",
        f"{playing}  Kilo de merde  {FIVE}  →  en cours",
        "4 parties, 3 terminées.",
    ]


def test_history_as_json_and_of_one_game(evening: Evening) -> None:
    code, out, _ = companion("history", "--json", data=evening.data)
    games = json.loads(out)["games"]
    assert code == 0 and [g["id"] for g in games] == evening.ids
    assert [(g["game"], g["finished"], g["winners"]) for g in games] == [
        ("kilo", True, ["Alice", "Émile"]),
        ("cinq-rois", True, ["Chloé"]),
        ("treize", True, ["Dédé"]),
        ("kilo", False, []),
    ]
    code, out, _ = companion("history", "--game", "treize", "--lang", "en", data=evening.data)
    assert code == 0 and evening.lines(out) == [
        f"{evening.ids[2]}  13 feuilles    {FIVE}  →  winner: Dédé (8 points)",
        "1 game, 1 finished.",
    ]


TABLE_EN = [
    "player           games      wins    kg/Kilo game   draws   false median react.      best",
    "Alice                3         1             0.0       0       0        216 ms    150 ms",
    "Chloé                3         1           108.0       2       0        190 ms    150 ms",
    "Dédé                 3         1            14.0       2       0        219 ms    190 ms",
    "Émile                3         1             0.0       1       1        235 ms    184 ms",
    "Bruno                3         0           100.0       1       0        217 ms    180 ms",
]
TABLE_FR = [
    "joueur         parties victoires  kg/partie Kilo pioches fausses réaction méd. meilleure",
    "Alice                3         1             0,0       0       0        216 ms    150 ms",
    "Chloé                3         1           108,0       2       0        190 ms    150 ms",
    "Dédé                 3         1            14,0       2       0        219 ms    190 ms",
    "Émile                3         1             0,0       1       1        235 ms    184 ms",
    "Bruno                3         0           100,0       1       0        217 ms    180 ms",
]


def test_stats_prints_a_table_ranked_by_wins_then_fewest_games_then_name(evening: Evening) -> None:
    """Kilo's columns over the Kilo game alone (Chloé: the Ace and the 8 of hearts, 108 kg);
    four players with one win each, in alphabetical order, then Bruno."""
    assert companion("stats", "--lang", "en", data=evening.data) == (0, "\n".join(TABLE_EN) + "\n", "")
    assert companion("stats", data=evening.data) == (0, "\n".join(TABLE_FR) + "\n", "")


def test_stats_of_one_player_in_each_language(evening: Evening) -> None:
    code, out, err = companion("stats", "chloé", data=evening.data)  # the case as typed aside
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"Chloé{N}: 3 parties, 1 victoire",
        f"  Kilo de merde{N}: 1 partie, 0 victoire",
        f"  Les Cinq Rois{N}: 1 partie, 1 victoire",
        f"  13 feuilles{N}: 1 partie, 0 victoire",
        f"  kg{N}: 108 en tout, 108,0 par partie de Kilo",
        f"  pioches sur une tape{N}: 2 (dernier 2 fois), fausses tapes{N}: 0, chasses d’eau{N}: 0",
        f"  réaction derrière la première tape{N}: médiane 190 ms, meilleure 150 ms{N}; premier 1 fois sur 6",
        f"  plus belles évasions (écart sur le dernier){N}: —",
    ]
    code, out, err = companion("stats", "Émile", "--lang", "en", data=evening.data)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Émile: 3 games, 1 win",
        "  Kilo de merde: 1 game, 1 win",
        "  Les Cinq Rois: 1 game, 0 wins",
        "  13 feuilles: 1 game, 0 wins",
        "  kg: 0 in all, 0.0 a Kilo game",
        "  draws after a slap: 1 (last 1 time), false slaps: 1, flushes: 1",
        "  reaction behind the first slap: median 235 ms, best 184 ms; first 1 time of 7",
        "  closest escapes (margin over the last): 3.2 ms, 8.7 ms, 8.7 ms",
    ]


def test_stats_for_someone_unknown_says_who_is_known(evening: Evening) -> None:
    assert companion("stats", "Zed", data=evening.data) == (
        2,
        "",
        f"companion: Aucune partie terminée pour 'Zed' (joueurs{N}: {FIVE}){N}; vérifiez l’orthographe.\n",
    )
    assert companion("stats", "Zed", "--lang", "en", data=evening.data) == (
        2,
        "",
        f"companion: No finished game for 'Zed' (players: {FIVE}); check the spelling.\n",
    )


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[Path]:
    """A finished Kilo game of Alice, alice and Bo, written as the table writes it."""
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(
            journal, NewKiloGame(players=["Alice", "alice", "Bo"], rounds=1), {"input": "web"}
        )
        for e in (
            {"type": "press", "player": "Alice", "t_us": 1000},
            {"type": "press", "player": "Bo", "t_us": 1500},
            {"type": "verdict", "valid": True},
            {"type": "draw", "player": "alice", "card": "AH"},
        ):
            table.submit(event_from_dict(e, "kilo"))
        assert table.engine.finished
    yield tmp_path


def test_a_name_that_could_be_two_players_asks_which(twins: Path) -> None:
    assert companion("stats", "ALICE", data=twins) == (
        2,
        "",
        f"companion: 'ALICE' peut être Alice, alice{N}: écrivez le nom comme il a été saisi.\n",
    )
    assert companion("stats", "ALICE", "--lang", "en", data=twins) == (
        2,
        "",
        "companion: 'ALICE' may be Alice, alice: write the name as it was entered.\n",
    )
    code, out, _ = companion("stats", "alice", "--lang", "en", data=twins)  # as stored: that one
    assert code == 0 and out.splitlines()[:2] == ["alice: 1 game, 0 wins", "  Kilo de merde: 1 game, 0 wins"]


def test_stats_before_any_game_is_finished(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        play(journal, KILO["midgame"]())
    assert companion("stats", data=tmp_path) == (0, "Aucune partie terminée pour l’instant.\n", "")
    assert companion("stats", "--lang", "en", data=tmp_path) == (0, "No finished game yet.\n", "")
    assert companion("stats", "--json", data=tmp_path) == (0, '{"players": []}\n', "")


def test_demos_are_left_out_and_said_to_be(tmp_path: Path) -> None:
    """A demo's games are not the table's: left out of history and stats unless --demos, and
    said so (an empty list must not look like an empty journal)."""
    from companion.cli.commands import DEMO_META

    with Journal(tmp_path, writer=True) as journal:
        demo = play(journal, KILO["finished"](), dict(DEMO_META))
    assert companion("history", data=tmp_path) == (0, f"1 démo laissée de côté{N}: --demos les compte.\n", "")
    assert companion("history", "--lang", "en", data=tmp_path) == (
        0,
        "1 demo left out: --demos counts them.\n",
        "",
    )
    assert companion("stats", "--lang", "en", data=tmp_path) == (
        0,
        "1 demo left out: --demos counts them.\n",
        "",
    )
    code, out, _ = companion("history", "--demos", "--lang", "en", data=tmp_path)
    assert code == 0 and out.splitlines()[-1] == "1 game, 1 finished." and demo.game_id in out
    assert companion("history", "--json", data=tmp_path) == (0, '{"games": []}\n', "")  # no note in JSON


def test_no_journal_yet_says_how_to_fill_one(tmp_path: Path) -> None:
    for command in ("history", "stats"):
        assert companion(command, data=tmp_path / "none") == (
            0,
            f"Aucune partie enregistrée pour l’instant{N}: `companion demo` en joue une.\n",
            "",
        )
        assert companion(command, "--lang", "en", data=tmp_path / "none") == (
            0,
            "No game stored yet: `companion demo` plays one.\n",
            "",
        )


def test_a_journal_that_cannot_be_read_is_said_so_and_left_alone(tmp_path: Path) -> None:
    """Not "no game yet": the file is there and is no journal. Exit code 1, what is wrong and
    what to do, in the language asked for."""
    with Journal(tmp_path, writer=True):
        pass
    (tmp_path / "journal.sqlite3").write_bytes(b"not a database at all" * 100)
    path = tmp_path / "journal.sqlite3"
    for command in ("history", "stats"):
        assert companion(command, data=tmp_path) == (
            1,
            "",
            f"companion: le journal {path} est illisible (2100 octets{N}: ce n’est pas un journal du "
            f"companion){N}; il n’a pas été modifié{N}: déplacez-le pour en commencer un nouveau, ou "
            "indiquez un autre dossier avec --data-dir\n",
        )
    assert companion("stats", "--lang", "en", data=tmp_path) == (
        1,
        "",
        f"companion: the journal {path} cannot be read (2100 bytes: not a companion journal); it was "
        "left untouched: move it aside to start a new journal, or pass --data-dir to use another folder\n",
    )


def test_without_data_dir_the_listings_read_the_tables_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --data-dir: the folder the table writes to (COMPANION_DATA_DIR here, else the XDG
    data folder), not the current one."""
    with Journal(tmp_path, writer=True) as journal:
        play(journal, KILO["midgame"]())
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["history", "--lang", "en"]) == 0
    assert out.getvalue().splitlines()[-1] == "1 game, 0 finished."


def kilo_game(journal: Journal, players: list[str], draws: list[tuple[str, str]]) -> None:
    """A Kilo game of ``len(draws)`` rounds: in each, everyone but the loser presses, the slap
    is judged valid, and the loser draws the card."""
    table = Table.start(journal, NewKiloGame(players=players, rounds=len(draws)), {"input": "web"})
    t_us = 1000
    for loser, card in draws:
        for p in players:
            if p != loser:
                table.submit(event_from_dict({"type": "press", "player": p, "t_us": t_us}, "kilo"))
                t_us += 100
        table.submit(event_from_dict({"type": "verdict", "valid": True}, "kilo"))
        table.submit(event_from_dict({"type": "draw", "player": loser, "card": card}, "kilo"))
        t_us += 10_000
    assert table.engine.finished


def test_one_winner_joint_winners_and_a_long_name(tmp_path: Path) -> None:
    """A Kilo game won alone at 0 kg, one won jointly at 4 kg (the score they share), and a name
    longer than the table's first column, cut to 13 characters there and whole elsewhere."""
    max_, both = "Maximilien-Alexandre", "Maximilien-Alexandre, Bo, Cy"
    with Journal(tmp_path, writer=True) as journal:
        kilo_game(journal, [max_, "Bo", "Cy"], [("Cy", "5H"), ("Bo", "AH")])
        kilo_game(journal, [max_, "Bo", "Cy"], [(max_, "4S"), ("Bo", "4H"), ("Cy", "AS")])
    code, out, _ = companion("history", data=tmp_path)
    assert code == 0 and [line[40:] for line in out.splitlines()] == [
        f"Kilo de merde  {both}  →  gagnant{N}: {max_} (0 kg)",
        f"Kilo de merde  {both}  →  gagnants ex aequo{N}: {max_}, Bo (4 kg)",
        "",
    ]
    code, out, _ = companion("history", "--lang", "en", data=tmp_path)
    assert [line[40:] for line in out.splitlines()][:2] == [
        f"Kilo de merde  {both}  →  winner: {max_} (0 kg)",
        f"Kilo de merde  {both}  →  joint winners: {max_}, Bo (4 kg)",
    ]
    assert companion("stats", data=tmp_path)[1].splitlines() == [
        "joueur         parties victoires  kg/partie Kilo pioches fausses réaction méd. meilleure",
        "Maximilien-Al        2         2             2,0       1       0             —         —",
        "Bo                   2         1            52,0       2       0        100 µs    100 µs",
        "Cy                   2         0            52,5       2       0        100 µs    100 µs",
    ]
    assert companion("stats", "maximilien-alexandre", data=tmp_path)[1].splitlines()[:2] == [
        f"{max_}{N}: 2 parties, 2 victoires",
        f"  Kilo de merde{N}: 2 parties, 2 victoires",
    ]


def test_two_demos_left_out_are_counted_in_the_plural(tmp_path: Path) -> None:
    from companion.cli.commands import DEMO_META

    with Journal(tmp_path, writer=True) as journal:
        for _ in range(2):
            play(journal, KILO["finished"](), dict(DEMO_META))
    assert companion("history", data=tmp_path) == (
        0,
        f"2 démos laissées de côté{N}: --demos les compte.\n",
        "",
    )
    assert companion("stats", "--lang", "en", data=tmp_path) == (
        0,
        "2 demos left out: --demos counts them.\n",
        "",
    )


def test_a_player_asked_for_before_any_game_is_finished(tmp_path: Path) -> None:
    with Journal(tmp_path, writer=True) as journal:
        play(journal, KILO["midgame"]())
    assert companion("stats", "Zed", data=tmp_path) == (
        2,
        "",
        f"companion: Aucune partie terminée pour 'Zed' (joueurs{N}: aucun){N}; vérifiez l’orthographe.\n",
    )
    assert companion("stats", "Zed", "--lang", "en", data=tmp_path) == (
        2,
        "",
        "companion: No finished game for 'Zed' (players: none); check the spelling.\n",
    )
