"""Mutation testing of the core, one module at a time, with mutmut (from PyPI).

    python bench/mutation.py [MODULE ...] [--list] [--keep]
    python bench/mutation.py MODULE --again SCRATCH

Each MODULE is a key of ``MODULES`` (default: all, one after the other, never at once: the
machine is shared). For each, the package and the module's own small test selection are copied
into a scratch folder (the worktree is never mutated), mutmut mutates that one file and runs the
selected tests against each mutant, and one JSON object is printed:
``{"name": "mutation.<module>", "mutants", "killed", "survived", "timeout", "no_tests",
"score", "seconds", "survivors": [...]}``. ``score`` is killed (timeouts count as killed) over
all mutants; a mutant listed in docs/mutants.md as equivalent is counted apart
(``"equivalent"``) and not as a survivor. Install with ``pip install -e '.[mutation]'``.

``--again SCRATCH`` takes the folder a ``--keep`` run left, brings the worktree's package and tests
into it, and judges again only what can have changed: the mutants of the functions whose source
changed (mutmut finds them) and the mutants that survived there. The others keep their verdict:
a mutant killed before is still killed by tests that were only added to. The score it prints is
the module's, after.

Run it in the background on a shared machine:
``nohup .venv/bin/python bench/mutation.py slap > /tmp/mutation-slap.log 2>&1 &``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# module key: (file to mutate, the tests that judge it: small and in-process, so a mutant is
# judged in seconds).
MODULES: dict[str, tuple[str, list[str]]] = {
    # tests/games/kilo/test_slap_replay.py pins the floor, the latest stamp and following() (issue 22).
    "slap": (
        "companion/games/kilo/slap.py",
        ["tests/games/kilo/test_slap.py", "tests/games/kilo/test_slap_replay.py"],
    ),
    # tests/games/kilo/test_slap_epochs.py holds the undo oracle across clock horizons (the kept presses of
    # _Run);
    # tests/review/test_kilo_mutants.py pins what the first whole run let through (docs/mutants.md).
    "kilo_rules": (
        "companion/games/kilo/rules.py",
        [
            "tests/games/kilo/test_rules.py",
            "tests/games/kilo/test_rules_undo.py",
            "tests/games/kilo/test_slap_epochs.py",
            "tests/review/test_kilo_mutants.py",
        ],
    ),
    "cinq_rois_rules": (
        "companion/games/cinq_rois/rules.py",
        [
            "tests/games/cinq_rois/test_rules.py",
            "tests/games/cinq_rois/test_rules_dealer.py",
        ],  # the dealer draw has its own file
    ),
    "treize_rules": ("companion/games/treize/rules.py", ["tests/games/treize/test_rules.py"]),
    # tests/table/test_fold.py: replay's undo scan and the copies it drops (issue 22), quickly.
    "fold": ("companion/table/fold.py", ["tests/table/test_log.py", "tests/table/test_fold.py"]),
    "undo": ("companion/games/undo.py", ["tests/games/test_undo.py"]),
    "solver": ("companion/games/cinq_rois/solver.py", ["tests/games/cinq_rois/test_solver.py"]),
    "protocol": ("companion/inputs/protocol.py", ["tests/inputs/test_protocol.py"]),
    # The hostile-edges property is the debounce's oracle for late edges and lost ones.
    "debounce": (
        "companion/inputs/debounce.py",
        [
            "tests/inputs/test_debounce.py",
            "tests/inputs/test_debounce_exact.py",
            "tests/review/test_hostile_edges.py",
        ],
    ),
    "audit": ("companion/display/audit.py", ["tests/display/test_audit.py"]),
    # Issue 38: the modules outside the core, each with the smallest selection of tests that
    # reach it through what a user sees (the phones' pages and sockets, the CLI's files and
    # output, the screens). In this process: a subprocess runs the mutant too, but mutmut maps a
    # test to the functions it calls in-process only, and gives a function no test reaches none.
    "web_pairing": (
        "companion/web/pairing.py",
        [
            "tests/review/test_web_mutants.py",
            "tests/web/test_server.py::test_replays_other_games_strangers_and_revoked_phones_are_refused",
        ],
    ),
    # tests/web/test_pad.py: the phone's messages and the table's answers and presses, worked by hand.
    "web_clockmap": (
        "companion/web/clockmap.py",
        ["tests/web/test_fairness.py", "tests/web/test_pad.py"],
    ),
    "web_fairness": (
        "companion/web/fairness.py",
        ["tests/web/test_pad.py", "tests/web/test_fairness.py"],
    ),
    # The phones' standings feed: the page every game shares (web/feed.py), then each game's own
    # part of it (games/<g>/feed.py, moved out of web/feed.py) and the JSON they share
    # (games/plain.py), each judged by the page Feed.poll hands the server, without a server.
    "web_feed": ("companion/web/feed.py", ["tests/web/test_feed.py", "tests/review/test_view_mutants.py"]),
    "kilo_feed": ("companion/games/kilo/feed.py", ["tests/web/test_feed.py"]),
    "cinq_rois_feed": (
        "companion/games/cinq_rois/feed.py",
        ["tests/web/test_feed.py", "tests/review/test_view_mutants.py"],
    ),
    "treize_feed": (
        "companion/games/treize/feed.py",
        ["tests/web/test_feed.py", "tests/review/test_view_mutants.py"],
    ),
    "plain": ("companion/games/plain.py", ["tests/web/test_feed.py"]),
    "web_scorer": (
        "companion/web/scorer.py",
        [
            "tests/web/test_scorer.py",
            "tests/review/test_web_mutants.py",
            "tests/web/test_server.py",
            "tests/web/test_server_event_time.py::test_a_scorer_write_carries_the_instant_it_was_sent_on_the_table_clock",
        ],
    ),
    # The scorer's game-specific part, moved out of web/scorer.py: a round's cards entered from
    # the phone as the table screen enters them.
    "cinq_rois_scorer": (
        "companion/games/cinq_rois/scorer.py",
        [
            "tests/web/test_scorer.py",
            "tests/web/test_server.py::test_a_scorer_phone_journals_cards_left_and_hands_as_the_screen_does",
        ],
    ),
    # Split out of web/server.py: the security headers and the body's cap, the Host check
    # against DNS rebinding, the connection-level guard (tests/web/test_guard.py: the real server).
    "web_guard": (
        "companion/web/guard.py",
        [
            "tests/review/test_web_mutants.py",
            "tests/web/test_guard.py",
            "tests/web/test_server.py::test_an_address_flooding_unknown_tokens_is_cut_at_the_connection",
            "tests/web/test_server.py::test_the_upgrade_override_still_meets_uvicorn",
        ],
    ),
    "web_evening_route": (
        "companion/web/evening_route.py",
        [
            "tests/review/test_web_mutants.py",
            "tests/web/test_evening.py::test_the_phones_evening_is_made_again_when_the_tables_game_ends",
            "tests/web/test_evening.py::test_the_phones_evening_without_a_game_follows_the_journal_and_shows_the_sheets",
        ],
    ),
    "web_assets": ("companion/web/assets.py", ["tests/review/test_web_mutants.py"]),
    "web_pad": (
        "companion/web/pad.py",
        ["tests/web/test_pad.py", "tests/web/test_fairness.py", "tests/review/test_web_mutants.py"],
    ),
    # tests/web/test_guard.py: the server's side of the connection guard (an address's refusals and
    # places, a stranger's WebSocket handshake).
    "web_server": (
        "companion/web/server.py",
        [
            "tests/web/test_server_promise.py",
            "tests/web/test_server_refusals.py",
            "tests/web/test_server_open.py",
            "tests/web/test_server_standings.py",
            "tests/web/test_server_pads.py",
            "tests/web/test_server_asks.py",
            "tests/review/test_web_mutants.py",
            "tests/web/test_server.py",
            "tests/web/test_guard.py",
            "tests/web/test_server_event_time.py",
        ],
    ),
    "config_edit": ("companion/hardware/config_edit.py", ["tests/cli/test_settings.py"]),
    "hw_config": (
        "companion/hardware/config.py",
        [
            "tests/hardware/test_config_refusals.py",
            "tests/hardware/test_config.py",
            "tests/cli/test_settings.py",
        ],
    ),
    # tests/cli/test_history.py: history and stats as printed, from journals written in-process (no demo);
    # tests/table/test_stats.py: the export and the numbers (its demos run once per judged session).
    "history": ("companion/cli/history.py", ["tests/cli/test_history.py", "tests/table/test_stats.py"]),
    # Kilo de merde's statistics, moved out of the CLI and table/stats.py (g39stats): the same
    # printed output, the evening page's sections and the table screen's columns
    # (tests/games/kilo/test_stats.py: the page's Kilo sections and --json's numbers from records
    # made by hand; tests/display/test_tally.py: the stats screen's model and drawing). Fast
    # files first.
    "kilo_stats": (
        "companion/games/kilo/stats.py",
        [
            "tests/games/kilo/test_stats.py",
            "tests/web/test_evening.py",
            "tests/display/test_tally.py",
            "tests/cli/test_history.py",
            "tests/table/test_stats.py",
        ],
    ),
    # Its columns on the table's stats screen, as the screen's model (display/tally.py's
    # ``columns``) gives them and the screen draws them.
    "kilo_draw_stats": ("companion/games/kilo/draw/stats.py", ["tests/display/test_tally.py"]),
    "i18n": ("companion/i18n.py", ["tests/test_i18n.py", "tests/house/test_french_typography.py"]),
    "names": (
        "companion/display/names.py",
        ["tests/display/test_names_forms.py", "tests/display/test_names.py"],
    ),
    "rotation": (
        "companion/display/rotation.py",
        ["tests/display/test_rotation_rects.py", "tests/display/test_rotation.py"],
    ),
    "kilo_view": (
        "companion/games/kilo/view.py",
        ["tests/display/test_display.py", "tests/display/test_grid.py"],
    ),
    # tests/review/test_view_mutants.py: a game in play as the screens and the phones' page show it.
    "treize_view": (
        "companion/games/treize/view.py",
        ["tests/games/treize/test_screens.py", "tests/review/test_view_mutants.py"],
    ),
    "cinq_rois_view": (
        "companion/games/cinq_rois/view.py",
        ["tests/games/cinq_rois/test_screens_hierarchy.py", "tests/review/test_view_mutants.py"],
    ),
}

EQUIVALENT_LIST = ROOT / "docs" / "mutants.md"


def equivalents() -> set[str]:
    """Mutant names that docs/mutants.md explains as equivalent (a line starting with the name
    in backquotes)."""
    if not EQUIVALENT_LIST.exists():
        return set()
    return set(re.findall(r"^- `([\w.]+__mutmut_\d+)`", EQUIVALENT_LIST.read_text("utf-8"), re.MULTILINE))


# A pytest plugin every judged run loads: mutmut forks each mutant's run from a process that
# already ran the tests on the unmutated code, so a memoised function (the solver's lru_cache)
# would answer from that run and hide the mutant. Each run starts with every cache empty.
# It also turns off Hypothesis's shrinking: a mutant is killed by the first failing example, and
# shrinking it (which decides nothing) spent up to the whole CPU limit per mutant, so a killed
# mutant was counted as a timeout after 20 CPU seconds (Kilo's rules: 61 of the first 207).
FRESH_CACHES = '''"""Empty the package's memo caches before each test session, and judge
property tests without shrinking (bench/mutation.py)."""
import sys

from hypothesis import Phase, settings

settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("mutation")


def pytest_sessionstart(session):
    for name, module in list(sys.modules.items()):
        if name == "companion" or name.startswith("companion."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
'''


def scratch(target: str, tests: list[str]) -> Path:
    """A copy of what mutmut needs: the package, the tests, and a pyproject with its config."""
    work = Path(tempfile.mkdtemp(prefix="companion-mutation-"))
    shutil.copytree(ROOT / "companion", work / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    # The tests read the docs' examples, the firmware and the benches: copied too.
    for folder in ("tests", "docs", "firmware", "bench", "hardware"):
        if (ROOT / folder).is_dir():
            shutil.copytree(
                ROOT / folder, work / folder, ignore=shutil.ignore_patterns("__pycache__", "*.png")
            )
    selection = ", ".join(json.dumps(t) for t in tests)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    pyproject += (
        "\n[tool.mutmut]\n"
        'source_paths = ["companion"]\n'
        f"only_mutate = [{json.dumps(target)}]\n"
        'also_copy = ["docs", "firmware", "bench", "hardware"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'pytest_add_cli_args = ["-p", "no:randomly", "-p", "no:cacheprovider", "-q", '
        '"-p", "companion_fresh_caches"]\n'
        # mutmut stops a mutant's run at (clean time + 1 s) x this x 2 CPU seconds, and at half
        # that in WALL seconds. At 3 the wall limit was 12 s for Kilo's rules: on the loaded
        # shared machine, under nice 19, mutants whose tests all pass took longer and were
        # counted as timeouts, i.e. killed (a to_json key renamed, checked by hand: 50 passed).
        # At 10 a mutant that loops forever still costs under a minute.
        "timeout_multiplier = 10.0\n"
    )
    (work / "pyproject.toml").write_text(pyproject, "utf-8")
    # PYTHONPATH names mutants/ before mutmut creates it: a folder missing when Python starts
    # is skipped for good, and the tests would then import the unmutated copy.
    (work / "mutants").mkdir()
    for base in (work, work / "mutants"):
        (base / "companion_fresh_caches.py").write_text(FRESH_CACHES, "utf-8")
    return work


def statuses(work: Path, env: dict[str, str]) -> dict[str, str]:
    """Each mutant's verdict in a scratch folder, as mutmut reports it."""
    results = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    status: dict[str, str] = {}
    for line in results.stdout.splitlines():
        name, _, state = line.strip().partition(": ")
        if "__mutmut_" in name:
            status[name] = state.strip()
    return status


def refresh(work: Path) -> None:
    """The worktree's package and tests over those of an earlier scratch folder, and over
    mutmut's copy in mutants/ (which it never refreshes itself; a file copied with its mtime
    is one mutmut mutates again)."""
    for base in (work, work / "mutants"):
        for folder in ("companion", "tests"):
            shutil.copytree(
                ROOT / folder, base / folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
            )


def reselect(work: Path, tests: list[str]) -> None:
    """The module's test selection as ``MODULES`` has it now, in an earlier scratch folder's
    pyproject: a test file added to the selection since the ``--keep`` run would otherwise never
    run there (debounce's tests/inputs/test_debounce_exact.py did not, and --again judged nothing new)."""
    pyproject = work / "pyproject.toml"
    selection = ", ".join(json.dumps(t) for t in tests)
    text = re.sub(
        r"^pytest_add_cli_args_test_selection = .*$",
        lambda _: f"pytest_add_cli_args_test_selection = [{selection}]",
        pyproject.read_text("utf-8"),
        flags=re.MULTILINE,
    )
    pyproject.write_text(text, "utf-8")


def run(key: str, keep: bool, again: Path | None = None, children: int = 1) -> dict[str, object]:
    target, tests = MODULES[key]
    if again is None:
        work = scratch(target, tests)
    else:
        work = again
        refresh(work)
        reselect(work, tests)
    # mutmut puts mutants/ first on sys.path; the editable install's finder would still hand
    # out the worktree's package, so the scratch copy must be what "companion" resolves to.
    env = dict(
        os.environ,
        PYTHONPATH=str(work / "mutants"),
        PYTHONDONTWRITEBYTECODE="1",
        COMPANION_PROPERTY_SCALE="0.1",
    )  # a tenth of the property examples: a survivor
    # runs every test that covers it, and a mutant is killed by the first failure
    mutmut_run = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)]
    start = time.monotonic()
    # Unnamed, mutmut judges only mutants it has no verdict for (all of them the first time;
    # again, those of the functions whose source changed).
    proc = subprocess.run(mutmut_run, cwd=work, env=env, capture_output=True, text=True, check=False)
    if again is not None:
        # Named, it judges them whatever their verdict: the survivors meet the new tests.
        names = [n for n, s in statuses(work, env).items() if s in ("survived", "no tests")]
        if names:
            proc = subprocess.run(
                [*mutmut_run, *names], cwd=work, env=env, capture_output=True, text=True, check=False
            )
    seconds = time.monotonic() - start
    status = statuses(work, env)
    known = equivalents()
    counts = {"killed": 0, "survived": 0, "timeout": 0, "no_tests": 0, "equivalent": 0, "other": 0}
    survivors = []
    for name, state in sorted(status.items()):
        if state == "survived" and name in known:
            counts["equivalent"] += 1
        elif state == "survived":
            counts["survived"] += 1
            survivors.append(name)
        elif state in ("killed", "timeout"):
            counts[state] += 1
        elif state == "no tests":
            counts["no_tests"] += 1
            survivors.append(name)
        else:
            counts["other"] += 1
    total = len(status)
    judged = total - counts["equivalent"]
    score = (counts["killed"] + counts["timeout"]) / judged if judged else 0.0
    out: dict[str, object] = {
        "name": f"mutation.{key}",
        "module": target,
        "tests": tests,
        "mutants": total,
        **counts,
        "score": round(score, 4),
        "survived_share": round(1 - score, 4),
        "target": 0.95,
        "ok": score >= 0.95,
        "seconds": round(seconds, 1),
        "survivors": survivors,
    }
    if (proc.returncode != 0 and not status) or (total and counts["other"] == total):
        # No mutant judged: mutmut could not run the selection clean (its output says why).
        out["error"] = (proc.stderr or proc.stdout)[-2000:]
    if again is not None:
        out["again"] = True
    if keep or again is not None:
        out["scratch"] = str(work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[[], *MODULES], default=[])
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument(
        "--keep", action="store_true", help="keep the scratch folder (to run `mutmut show NAME` there)"
    )
    parser.add_argument(
        "--again",
        type=Path,
        metavar="SCRATCH",
        help="judge again, in the folder of an earlier --keep run of the module, "
        "the survivors and the mutants of changed functions",
    )
    parser.add_argument(
        "--children",
        type=int,
        default=1,
        help="mutants judged at once (default 1: one core of a shared machine; 2 on a quiet one)",
    )
    args = parser.parse_args()
    if args.again is not None and len(args.modules) != 1:
        parser.error("--again takes the one module whose scratch folder it is")
    if args.list:
        for key, (target, tests) in MODULES.items():
            print(json.dumps({"module": key, "file": target, "tests": tests}))
        return 0
    for key in args.modules or list(MODULES):
        print(json.dumps(run(key, args.keep, args.again, args.children), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
