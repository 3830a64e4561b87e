"""`companion demo`: a whole simulated game through queue -> journal -> state, and its resume."""

from __future__ import annotations

import json
import queue
import re
from pathlib import Path

from companion.inputs.base import InputEvent
from companion.inputs.sim import BurstEnd, SimItem, SimSource, plan_slap
from tests.conftest import run_cli


def test_demo_tells_the_whole_game(tmp_path: Path) -> None:
    result = run_cli(
        "demo", "--speed", "0", "--seed", "3", "--players", "6", "--rounds", "10", data_dir=tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Démo de Kilo de merde\u202f: 6 joueurs simulés (graine 3)" in out
    assert out.count("— Manche ") == 10
    # Order with offsets: a tenth under 10 ms only ("+3,2 ms", "+140 ms").
    assert re.search(r"^\s+2\. \S+\s+\+\d+(,\d)? ms$", out, re.M)
    assert re.search(r"Dernier\u202f: \S+, à \d+,\d ms près", out)  # loser and margin
    assert re.search(r"pioche .+\u202f: \+\d+ kg \(total \d+ kg\)", out)  # the card
    assert "Classement\u202f:" in out
    assert re.search(
        r"Tas\u202f: \d+ cartes \(\d+ remises? dessous\) · prochaine carte\u202f: "
        r"As \d+\u202f%",
        out,
    )
    assert re.search(r"^Vainqueurs?( ex aequo)?\u202f: ", out, re.M)


def test_demo_in_english_with_json(tmp_path: Path) -> None:
    result = run_cli(
        "demo", "--speed", "0", "--seed", "11", "--rounds", "4", "--lang", "en", "--json", data_dir=tmp_path
    )
    assert result.returncode == 0
    state = json.loads(result.stdout)
    assert state["finished"] and state["rounds"] == 4 and state["winners"]
    assert "Kilo de merde demo: 5 simulated players" in result.stderr and "slaps:" in result.stderr


def test_same_seed_same_game(tmp_path: Path) -> None:
    a = run_cli("demo", "--speed", "0", "--seed", "9", "--rounds", "5", data_dir=tmp_path / "a")
    b = run_cli("demo", "--speed", "0", "--seed", "9", "--rounds", "5", data_dir=tmp_path / "b")
    strip = lambda s: "\n".join(s.splitlines()[2:])  # noqa: E731 (game id and path differ)
    assert strip(a.stdout) == strip(b.stdout)
    ea = run_cli("export", data_dir=tmp_path / "a").stdout.splitlines()
    eb = run_cli("export", data_dir=tmp_path / "b").stdout.splitlines()
    assert ea == eb and len(ea) > 20


def test_many_seeds_cover_false_slaps_timeouts_flushes_and_undo(tmp_path: Path) -> None:
    result = run_cli(
        "demo",
        "--speed",
        "0",
        "--seed",
        "2024",
        "--players",
        "8",
        "--rounds",
        "60",
        "--lang",
        "en",
        data_dir=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for fragment in ["False slap!", "did not slap (timed out)", "flush!", "The table undoes"]:
        assert fragment in out, fragment


def test_bad_demo_options(tmp_path: Path) -> None:
    for args, message in [
        (["--players", "2"], "3 to 10"),
        (["--rounds", "0"], "1 to 99"),
        (["--speed", "-1"], "--speed"),
    ]:
        result = run_cli("demo", *args, "--lang", "en", data_dir=tmp_path)
        assert result.returncode == 2 and message in result.stderr
        assert "Traceback" not in result.stderr


def test_sim_source_runs_on_its_own_thread_and_delivers_out_of_order() -> None:
    source = SimSource(6, seed=1, speed=0)
    events: queue.Queue[SimItem] = queue.Queue()
    source.start(events)
    reordered = 0
    try:
        for index in range(40):
            plan = source.trigger_slap(index)
            stamps = []
            while True:
                item = events.get(timeout=5)
                if isinstance(item, BurstEnd):
                    assert item.plan == plan
                    break
                assert isinstance(item, InputEvent) and item.clock.name == "sim"
                if item.edge == "press":
                    stamps.append(item.t_us)
            assert sorted(stamps) == sorted(t for _, t in plan.presses)
            reordered += stamps != sorted(stamps)
    finally:
        source.stop()
    assert reordered > 0  # arrival order is not stamp order: adjudication must sort


def test_reaction_times_look_human() -> None:
    gaps: list[int] = []
    for index in range(300):
        plan = plan_slap(5, index, 6)
        if plan.kind == "valid":
            gaps.extend(t - plan.t0_us for _, t in plan.presses if t != plan.t0_us)
    gaps.sort()
    median = gaps[len(gaps) // 2]
    assert 220_000 < median < 380_000 and gaps[0] >= 120_000
    assert gaps[-1] < 5_000_000
