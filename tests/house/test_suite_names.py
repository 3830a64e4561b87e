"""The suite's files are named by one rule (issue 39, build point 5; tests/README.md): a test of
``companion/<folder>/<module>.py`` is ``tests/<folder>/test_<module>.py``, or
``tests/<folder>/test_<module>_<aspect>.py`` when the module has several; a test of a folder as a
whole is ``tests/<folder>/test_<folder>.py``; ``tests/bench/`` mirrors ``bench/``. The suites that
read the repository rather than one module (``house/``), the review rounds (``review/``) and the
booted appliance (``boot/``) are kept apart, their names free.

A newcomer finds a module's tests by its path, and a test file named after nothing fails here, not
in a reader's head. tools/rename_tests.py applies the same rule when it moves the old names."""

from __future__ import annotations

import ast
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# The folders of tests/ whose files test no one module, and why each is apart.
KEPT_APART = {
    "house": "checks of the repository as a whole: floors, quality, packaging, docs, the suite",
    "review": "review rounds: findings, mutants, hostile inputs, a newcomer's first evening",
    "boot": "the appliance booted under QEMU (the boot test, its own marker and scenario)",
}
# Folders that hold no test module: fakes and programs other tests run.
NOT_TESTS = {"fakes", "micropython", "__pycache__"}


def mirrored(folder: PurePosixPath, root: Path = ROOT) -> Path:
    """The source folder ``tests/<folder>`` stands for: bench/ for tests/bench/, else companion/."""
    if folder.parts[:1] == ("bench",):
        return root.joinpath("bench", *folder.parts[1:])
    return root.joinpath("companion", *folder.parts)


def rule_problem(rel: PurePosixPath, root: Path = ROOT) -> str | None:
    """What is wrong with the name of the test file ``tests/<rel>`` (None: it keeps the rule)."""
    if not rel.name.startswith("test_") or rel.suffix != ".py":
        return None  # a helper, not a test module
    if rel.parts[0] in KEPT_APART:
        return None
    folder = rel.parent
    source = mirrored(folder, root)
    where = f"tests/{rel}"
    if not source.is_dir():
        return (
            f"{where}: tests/{folder}/ mirrors no source folder ({source.relative_to(root)} does not exist)"
        )
    names = {p.stem for p in source.glob("*.py") if p.stem != "__init__"}
    if folder.parts:
        names.add(source.name)  # the folder as a whole: tests/cli/test_cli_exit_codes.py
    name = rel.stem.removeprefix("test_")
    if any(name == m or name.startswith(m + "_") for m in names):
        return None
    shown = source.relative_to(root)
    return (
        f"{where}: named after no module of {shown}/: name it test_<module>.py or "
        f"test_<module>_<aspect>.py after one of {sorted(names)}, or move it to tests/house/ or "
        "tests/review/ if it tests no one module"
    )


def suite_files() -> list[PurePosixPath]:
    """Every test module under tests/, relative to it."""
    return sorted(
        PurePosixPath(p.relative_to(TESTS).as_posix())
        for p in TESTS.rglob("test_*.py")
        if not NOT_TESTS & set(p.relative_to(TESTS).parts)
    )


def test_every_test_file_is_named_after_the_module_it_tests() -> None:
    problems = [p for rel in suite_files() if (p := rule_problem(rel))]
    assert not problems, "\n".join(problems)


def test_every_folder_of_tests_is_a_package() -> None:
    # tests/ and its folders are packages, so that tests/games/kilo/test_rules.py and
    # tests/games/treize/test_rules.py are two modules (tests.games.kilo.test_rules...), not one
    # name pytest refuses the second time.
    missing = sorted(
        f"tests/{rel.parent}/__init__.py"
        for rel in suite_files()
        if not (TESTS / rel.parent / "__init__.py").is_file()
    )
    assert not missing, f"add these files (empty): {sorted(set(missing))}"


def test_every_test_file_holds_tests() -> None:
    # A module named test_* that only shares helpers belongs beside the other helpers
    # (tests/gpio_helpers.py), named after what it gives.
    empty = []
    for rel in suite_files():
        tree = ast.parse((TESTS / rel).read_text(encoding="utf-8"))
        if not any(
            (isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_"))
            or (isinstance(n, ast.ClassDef) and n.name.startswith("Test"))
            for n in tree.body
        ):
            empty.append(f"tests/{rel}")
    assert not empty, f"test modules with no test: {empty}"


@pytest.mark.parametrize(
    ("rel", "ok"),
    [
        ("display/test_kit.py", True),
        ("display/test_kit_banner.py", True),
        ("display/test_display.py", True),
        ("games/kilo/test_rules.py", True),
        ("firmware/test_piocapture.py", True),
        ("bench/test_stats.py", True),
        ("test_i18n.py", True),
        ("review/test_findings23.py", True),
        ("gpio_helpers.py", True),
        ("test_kit.py", False),  # display's kit, not a module of companion/
        ("display/test_kits.py", False),
        ("games/test_kilo_rules.py", False),
        ("widgets/test_kit.py", False),
        ("test_display.py", False),  # the display folder's tests are in tests/display/
    ],
)
def test_the_rule_on_names_it_must_take_and_refuse(rel: str, ok: bool) -> None:
    assert (rule_problem(PurePosixPath(rel)) is None) is ok
