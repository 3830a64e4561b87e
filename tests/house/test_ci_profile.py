"""CI replays the same property examples on every run; a developer's machine draws new ones.

A red CI blocks every change, so a property that finds a rare case must not turn CI red by
chance on an unrelated commit: with ``CI`` set (as `.ci/run` is run), Hypothesis loads its own
"ci" profile (``derandomize=True``: examples drawn from a seed fixed per test; no example
database). Without it, runs draw new examples, which is how the rare cases get found (the
debounce's rule-6 case was). Nothing in the suite may load another profile over it.
"""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import settings

from tests.conftest import ROOT

PROBE = "from hypothesis import settings; d = settings.default; print(d.derandomize, d.database)"


def _profile(ci: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_ci_set_gives_repeatable_examples_and_unset_new_ones() -> None:
    assert _profile(ci=True) == ["True", "None"]
    assert _profile(ci=False)[0] == "False"


def test_this_run_follows_the_profile_its_environment_asks_for() -> None:
    # The suite's own process, after every conftest ran: a `load_profile` somewhere in tests/
    # would show here.
    assert settings.default is not None
    assert settings.default.derandomize is ("CI" in os.environ)


def test_no_test_module_loads_a_profile_of_its_own() -> None:
    loaders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "tests").rglob("*.py")
        if p.name != "test_ci_profile.py" and "load_profile(" in p.read_text(encoding="utf-8")
    ]
    assert loaders == []
