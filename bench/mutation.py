"""Mutation testing of the core, one module at a time, with mutmut (from PyPI).

    python bench/mutation.py [MODULE ...] [--list] [--keep]

Each MODULE is a key of ``MODULES`` (default: all, one after the other, never at once: the
machine is shared). For each, the package and the module's own small test selection are copied
into a scratch folder (the worktree is never mutated), mutmut mutates that one file and runs the
selected tests against each mutant, and one JSON object is printed:
``{"name": "mutation.<module>", "mutants", "killed", "survived", "timeout", "no_tests",
"score", "seconds", "survivors": [...]}``. ``score`` is killed (timeouts count as killed) over
all mutants; a mutant listed in docs/mutants.md as equivalent is counted apart
(``"equivalent"``) and not as a survivor. Install with ``pip install -e '.[mutation]'``.

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
    "slap": ("companion/games/kilo/slap.py", ["tests/test_slap.py"]),
    "kilo_rules": ("companion/games/kilo/rules.py",
                   ["tests/test_kilo.py", "tests/test_kilo_undo.py"]),
    "cinq_rois_rules": ("companion/games/cinq_rois/rules.py", ["tests/test_cinq_rois.py"]),
    "treize_rules": ("companion/games/treize/rules.py", ["tests/test_treize.py"]),
    "fold": ("companion/table/fold.py", ["tests/test_tablelog.py"]),
    "solver": ("companion/games/cinq_rois/solver.py", ["tests/test_cinq_rois_solver.py"]),
    "protocol": ("companion/inputs/protocol.py", ["tests/test_protocol.py"]),
    "debounce": ("companion/inputs/debounce.py", ["tests/test_debounce.py"]),
    "audit": ("companion/display/audit.py", ["tests/test_audit.py"]),
}

EQUIVALENT_LIST = ROOT / "docs" / "mutants.md"


def equivalents() -> set[str]:
    """Mutant names that docs/mutants.md explains as equivalent (a line starting with the name
    in backquotes)."""
    if not EQUIVALENT_LIST.exists():
        return set()
    return set(re.findall(r"^- `([\w.]+__mutmut_\d+)`", EQUIVALENT_LIST.read_text("utf-8"),
                          re.MULTILINE))


def scratch(target: str, tests: list[str]) -> Path:
    """A copy of what mutmut needs: the package, the tests, and a pyproject with its config."""
    work = Path(tempfile.mkdtemp(prefix="companion-mutation-"))
    shutil.copytree(ROOT / "companion", work / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # The tests read the docs' examples, the firmware and the benches: copied too.
    for folder in ("tests", "docs", "firmware", "bench", "hardware"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, work / folder,
                            ignore=shutil.ignore_patterns("__pycache__", "*.png"))
    selection = ", ".join(json.dumps(t) for t in tests)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    pyproject += (
        "\n[tool.mutmut]\n"
        'source_paths = ["companion"]\n'
        f"only_mutate = [{json.dumps(target)}]\n"
        'also_copy = ["docs", "firmware", "bench", "hardware"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'pytest_add_cli_args = ["-p", "no:randomly", "-p", "no:cacheprovider", "-q"]\n'
        # A mutant that loops forever is killed after 3x the clean run (mutmut's default 15x
        # spent three minutes on each such debounce mutant).
        "timeout_multiplier = 3.0\n"
    )
    (work / "pyproject.toml").write_text(pyproject, "utf-8")
    # PYTHONPATH names mutants/ before mutmut creates it: a folder missing when Python starts
    # is skipped for good, and the tests would then import the unmutated copy.
    (work / "mutants").mkdir()
    return work


def run(key: str, keep: bool) -> dict[str, object]:
    target, tests = MODULES[key]
    work = scratch(target, tests)
    # mutmut puts mutants/ first on sys.path; the editable install's finder would still hand
    # out the worktree's package, so the scratch copy must be what "companion" resolves to.
    env = dict(os.environ, PYTHONPATH=str(work / "mutants"), PYTHONDONTWRITEBYTECODE="1",
               COMPANION_PROPERTY_SCALE="0.1")  # a tenth of the property examples: a survivor
    # runs every test that covers it, and a mutant is killed by the first failure
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", "1"],
                          cwd=work, env=env, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - start
    results = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                             cwd=work, env=env, capture_output=True, text=True, check=False)
    status: dict[str, str] = {}
    for line in results.stdout.splitlines():
        name, _, state = line.strip().partition(": ")
        if "__mutmut_" in name:
            status[name] = state.strip()
    known = equivalents()
    counts = {"killed": 0, "survived": 0, "timeout": 0, "no_tests": 0, "equivalent": 0,
              "other": 0}
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
        "name": f"mutation.{key}", "module": target, "tests": tests, "mutants": total, **counts,
        "score": round(score, 4), "survived_share": round(1 - score, 4), "target": 0.95,
        "ok": score >= 0.95, "seconds": round(seconds, 1), "survivors": survivors,
    }
    if (proc.returncode != 0 and not status) or (total and counts["other"] == total):
        # No mutant judged: mutmut could not run the selection clean (its output says why).
        out["error"] = (proc.stderr or proc.stdout)[-2000:]
    if keep:
        out["scratch"] = str(work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[[], *MODULES], default=[])
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch folder (to run `mutmut show NAME` there)")
    args = parser.parse_args()
    if args.list:
        for key, (target, tests) in MODULES.items():
            print(json.dumps({"module": key, "file": target, "tests": tests}))
        return 0
    for key in args.modules or list(MODULES):
        print(json.dumps(run(key, args.keep), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
