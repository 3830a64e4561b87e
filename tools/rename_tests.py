#!/usr/bin/env python3
"""Rename the suite's files after the modules they test (issue 39, build point 5), on any tree.

The rule is tests/house/test_suite_names.py's (tests/README.md says it in words): a test of
``companion/<folder>/<module>.py`` is ``tests/<folder>/test_<module>[_<aspect>].py``, a test of a
folder as a whole ``tests/<folder>/test_<folder>.py``, ``tests/bench/`` mirrors ``bench/``; the
repository's own checks are in ``tests/house/``, the review rounds in ``tests/review/``.

Run from anywhere, on a clean work tree (it refuses a dirty one, so that what it did is one diff),
with the venv's Python (its ruff sorts the imports and formats the lines it made longer)::

    .venv/bin/python tools/rename_tests.py          # rename, rewrite, stage; say what it did
    .venv/bin/python tools/rename_tests.py --check  # say what it would do, change nothing

It moves each file of ``MAPPING`` that exists with ``git mv``, makes tests/ and its folders
packages, and rewrites every reference to an old name in the files git tracks: imports between
test modules (``from tests.test_web import Pad``, ``from test_legibility import LONG``), the
helpers' bare imports (``from serial_helpers import ...``: tests/ is no longer on sys.path once it
is a package), paths (``tests/test_web.py::test_x`` in bench/mutation.py, .ci/run, the docs,
pyproject's comments), a test's own ``Path(__file__).parent`` one folder deeper, and a bare
``test_web`` named in a comment; long comment and docstring lines are broken at 110. Run twice,
the second run finds nothing to do. It exits 1 when a ``Path(__file__).parent`` in a moved test
came back from another branch after the move (it names the test's folder, not tests/): fix those.

It stops before changing anything when a test file under tests/ is in no line of ``MAPPING`` and
does not keep the rule (a test another branch added under an old-style name): add its line."""

from __future__ import annotations

import argparse
import importlib.util
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# Old file (directly under tests/) -> new path under tests/. A test of several modules of one
# folder is named after the folder's main one, with the aspect it checks after it.
MAPPING: dict[str, str | tuple[str, ...]] = {
    # companion/*.py, the package's top floor
    "test_advice.py": "test_advice.py",
    "test_advice_commands.py": "test_advice_commands.py",
    "test_cards.py": "test_cards.py",
    "test_catalogue_french.py": "test_i18n_participles.py",
    "test_cut.py": "test_errors_cut.py",
    "test_i18n.py": "test_i18n.py",
    "test_sandbox.py": "test_paths_sandbox.py",
    # companion/cli/
    "test_buttons_cli.py": "cli/test_buttons.py",
    "test_cli_numbers.py": "cli/test_options_numbers.py",
    "test_cli_parser.py": "cli/test_parser.py",
    "test_config_cli.py": "cli/test_settings.py",
    "test_doctor.py": "cli/test_doctor.py",
    "test_exit_codes.py": "cli/test_cli_exit_codes.py",
    "test_firmware_cli.py": "cli/test_firmware.py",
    "test_listings_warm.py": "cli/test_history_warm.py",
    "test_play_last_game.py": "cli/test_play_last_game.py",
    # companion/display/
    "test_audit.py": "display/test_audit.py",
    "test_chrome.py": "display/test_screens_chrome.py",
    "test_colour_roles.py": "display/test_theme_colour_roles.py",
    "test_display.py": "display/test_display.py",
    "test_draw_caches.py": "display/test_caches.py",
    "test_event_time.py": "display/test_event_time.py",
    "test_event_time_gpio.py": "display/test_event_time_gpio.py",
    "test_feedback.py": "display/test_feedback.py",
    "test_frame_after_event.py": "display/test_layout_frame_after_event.py",
    "test_grid.py": "display/test_grid.py",
    "test_group_commit.py": "display/test_commits.py",
    "test_idle.py": "display/test_app_idle.py",
    "test_kit.py": "display/test_kit.py",
    "test_legibility.py": "display/test_audit_legibility.py",
    "test_loop_order.py": "display/test_app_loop_order.py",
    "test_motion.py": "display/test_motion.py",
    "test_names_forms.py": "display/test_names_forms.py",
    "test_play.py": "display/test_app.py",
    "test_render_cache.py": "display/test_caches_render.py",
    "test_retained.py": "display/test_caches_retained.py",
    "test_rotation.py": "display/test_rotation.py",
    "test_rotation_rects.py": "display/test_rotation_rects.py",
    "test_serial_event_time.py": "display/test_event_time_serial.py",
    "test_seven_inch.py": "display/test_viewing_seven_inch.py",
    "test_sheet.py": "display/test_sheet.py",
    "test_short_names.py": "display/test_names.py",
    "test_snapshot.py": "display/test_snapshot.py",
    "test_sources_return_table.py": "display/test_source_host.py",
    "test_startup.py": "display/test_app_startup.py",
    "test_tally_screen.py": "display/test_tally.py",
    "test_touch.py": "display/test_viewing_touch.py",
    "test_typeface.py": "display/test_typeface.py",
    "test_voice.py": "display/test_voice.py",
    "test_warm.py": "display/test_app_warm.py",
    "test_wrap.py": "display/test_blocks_wrap.py",
    # companion/games/
    "test_undo.py": "games/test_undo.py",
    "test_cinq_dealer.py": "games/cinq_rois/test_rules_dealer.py",
    "test_cinq_demo.py": "games/cinq_rois/test_demo.py",
    "test_cinq_hierarchy.py": "games/cinq_rois/test_screens_hierarchy.py",
    "test_cinq_rois.py": "games/cinq_rois/test_rules.py",
    "test_cinq_rois_solver.py": "games/cinq_rois/test_solver.py",
    "test_cinq_screens.py": "games/cinq_rois/test_screens.py",
    "test_demo.py": "games/kilo/test_demo.py",
    "test_epochs.py": "games/kilo/test_slap_epochs.py",
    "test_kilo.py": "games/kilo/test_rules.py",
    "test_kilo_hierarchy.py": "games/kilo/test_screens_hierarchy.py",
    # games/kilo/refusals.py becomes games/kilo/strings.py on the branch e39errors.
    "test_kilo_refusals.py": ("games/kilo/test_strings_refusals.py", "games/kilo/test_refusals.py"),
    "test_kilo_slap_screen.py": "games/kilo/test_screens_slap.py",
    "test_kilo_undo.py": "games/kilo/test_rules_undo.py",
    "test_properties.py": "games/kilo/test_rules_properties.py",
    "test_replay_window.py": "games/kilo/test_slap_replay.py",
    "test_slap.py": "games/kilo/test_slap.py",
    "test_treize.py": "games/treize/test_rules.py",
    "test_treize_demo.py": "games/treize/test_demo.py",
    "test_treize_display.py": "games/treize/test_screens.py",
    "test_treize_hierarchy.py": "games/treize/test_screens_hierarchy.py",
    "test_treize_play.py": "games/treize/test_controls.py",
    "test_treize_series.py": "games/treize/test_series.py",
    "test_treize_sim.py": "games/treize/test_sim.py",
    # companion/hardware/
    "test_config_refusals.py": "hardware/test_config_refusals.py",
    "test_hwconfig.py": "hardware/test_config.py",
    "test_led_lines.py": "hardware/test_led_lines.py",
    "test_leds.py": "hardware/test_leds.py",
    "test_pinout.py": "hardware/test_pinout.py",
    # companion/inputs/
    "test_clocks.py": "inputs/test_clocks.py",
    "test_debounce.py": "inputs/test_debounce.py",
    "test_debounce_exact.py": "inputs/test_debounce_exact.py",
    "test_gpio.py": "inputs/test_gpio.py",
    "test_gpio_event_time.py": "inputs/test_gpio_event_time.py",
    "test_gpio_kernel.py": "inputs/test_gpio_kernel.py",
    "test_keyboard.py": "inputs/test_keyboard.py",
    "test_protocol.py": "inputs/test_protocol.py",
    "test_registry.py": "inputs/test_registry.py",
    "test_serial_resume.py": "inputs/test_serial_source_resume.py",
    "test_serial_source.py": "inputs/test_serial_source.py",
    "test_serial_watermark.py": "inputs/test_serial_source_watermark.py",
    "test_sources_return.py": "inputs/test_registry_sources_return.py",
    # companion/table/
    "test_crash.py": "table/test_live_crash.py",
    "test_journal.py": "table/test_journal.py",
    "test_parse_fast.py": "table/test_log_parse_fast.py",
    "test_positions.py": "table/test_journal_positions.py",
    "test_reader_never_stalls.py": "table/test_journal_readers.py",
    "test_replay_fast.py": "table/test_fold_replay_fast.py",
    "test_replay_fold.py": "table/test_fold.py",
    "test_replay_stream.py": "table/test_log_stream.py",
    "test_resume_order.py": "table/test_journal_resume_order.py",
    "test_stats.py": "table/test_stats.py",
    "test_summaries.py": "table/test_journal_summaries.py",
    "test_tablelog.py": "table/test_log.py",
    # companion/web/
    "test_evening.py": "web/test_evening.py",
    "test_evening_browser.py": "web/test_evening_route_browser.py",
    "test_pad_protocol.py": "web/test_pad.py",
    "test_scorer_entry.py": "web/test_scorer.py",
    "test_web.py": "web/test_server.py",
    "test_web_browser.py": "web/test_server_browser.py",
    "test_web_browser_phones.py": "web/test_server_browser_phones.py",
    "test_web_event_time.py": "web/test_server_event_time.py",
    "test_web_fairness.py": "web/test_fairness.py",
    "test_web_limits.py": "web/test_guard.py",
    "test_web_phones.py": "web/test_server_phones.py",
    # firmware/ (companion/firmware in the package)
    "test_capture_properties.py": "firmware/test_firmware_capture_properties.py",
    "test_firmware_build.py": "firmware/test_firmware_build.py",
    "test_firmware_debounce.py": "firmware/test_debounce.py",
    "test_firmware_resilience.py": "firmware/test_firmware_resilience.py",
    "test_firmware_types.py": "firmware/test_firmware_types.py",
    "test_firmware_unit.py": "firmware/test_firmware.py",
    "test_firmware_watchdog.py": "firmware/test_buttonboard_watchdog.py",
    "test_pio.py": "firmware/test_piocapture.py",
    # bench/
    "test_bench_pio.py": "bench/test_serial_link.py",
    "test_bench_smoke.py": "bench/test_bench.py",
    "test_bench_stats.py": "bench/test_stats.py",
    # The repository as a whole: floors, quality, packaging, docs, the suite itself.
    "test_build_guide.py": "house/test_build_guide.py",
    "test_ci_profile.py": "house/test_ci_profile.py",
    "test_floors.py": "house/test_floors.py",
    "test_french_typography.py": "house/test_french_typography.py",
    "test_game_names.py": "house/test_game_names.py",
    "test_game_recipe.py": "house/test_game_recipe.py",
    "test_house.py": "house/test_house.py",
    "test_install_doc.py": "house/test_install_doc.py",
    "test_isolation.py": "house/test_isolation.py",
    "test_packaging.py": "house/test_packaging.py",
    "test_quality.py": "house/test_quality.py",
    "test_recipes.py": "house/test_recipes.py",
    "test_service.py": "house/test_service.py",
    "test_suite_parts.py": "house/test_suite_parts.py",
    "test_wheels_aarch64.py": "house/test_wheels_aarch64.py",
    # Review rounds: an audit's findings, mutants that survived, hostile inputs, a first evening.
    "test_findings23.py": "review/test_findings23.py",
    "test_first_evening_screens.py": "review/test_first_evening_screens.py",
    "test_hostile_edges.py": "review/test_hostile_edges.py",
    "test_hostile_input.py": "review/test_hostile_input.py",
    "test_hostile_storage.py": "review/test_hostile_storage.py",
    "test_kilo_mutants.py": "review/test_kilo_mutants.py",
    "test_newcomer.py": "review/test_newcomer.py",
    "test_nothing_lost.py": "review/test_nothing_lost.py",
    "test_source_robustness.py": "review/test_source_robustness.py",
    "test_view_mutants.py": "review/test_view_mutants.py",
    "test_web_mutants.py": "review/test_web_mutants.py",
    # Added on other branches of issue 38-39 (m38rest, e39errors).
    "test_feed.py": "web/test_feed.py",
    "test_error_texts.py": "house/test_error_texts.py",
    "test_app.py": "display/test_app_parts.py",
    "test_history.py": "cli/test_history.py",
    # Not a test: the GPIO tests' shared pins and clock, beside the other helpers.
    "test_gpio_support.py": "gpio_helpers.py",
}
# Helpers at tests/ imported by their bare name while tests/ was on sys.path.
HELPERS = ("app_helpers", "kit_checks", "mpy_helpers", "pio_helpers", "serial_helpers", "gpio_helpers")
# Where bare imports are rewritten: Python run by CPython with the repository's root on sys.path
# (the MicroPython programs and the kernel model, put on the path by hand, keep theirs).
NOT_REWRITTEN_IMPORTS = ("tests/micropython/", "tests/fakes/")
# Sentences that name the old layout as a pattern, not a file.
LITERALS = {
    "Its tests: `tests/test_<g>*.py`": "Its tests: `tests/games/<g>/`",
}
# Mypy's list of modules imported by a bare name: the tests and their helpers are tests.* now.
MYPY_BARE = re.compile(r'"([a-z0-9_]+)",\s*')
THIS = PurePosixPath("tools/rename_tests.py")


def load_rule() -> ModuleType:
    """tests/house/test_suite_names.py, whose ``rule_problem`` is the rule."""
    path = TESTS / "house" / "test_suite_names.py"
    spec = importlib.util.spec_from_file_location("suite_names", path)
    if spec is None or spec.loader is None:
        sys.exit(f"rename_tests: {path} is missing: it holds the naming rule this script applies")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def dotted(new: str) -> str:
    return "tests." + new.removesuffix(".py").replace("/", ".")


def stem(name: str) -> str:
    return name.removesuffix(".py")


# MAPPING resolved against the tree (main() fills them): old -> the first new name the rule takes,
# and the other names a line offers -> that one (a file an earlier run moved to one of them).
TARGETS: dict[str, str] = {}
FORMER: dict[str, str] = {}


def resolve(rule: ModuleType) -> None:
    """Each line's new name: the first of its names the rule takes on this tree (the last when
    none does, for ``bad_targets`` to say), since other branches add and remove modules."""
    for old, news in MAPPING.items():
        names = (news,) if isinstance(news, str) else news
        good = [n for n in names if not n.rsplit("/", 1)[-1].startswith("test_")]
        good += [n for n in names if rule.rule_problem(PurePosixPath(n)) is None]
        TARGETS[old] = (good or [names[-1]])[0]
        FORMER.update({n: TARGETS[old] for n in names if n != TARGETS[old]})


def unknown_tests(rule: ModuleType) -> list[str]:
    """Test files under tests/ that no line of MAPPING moves and that do not keep the rule."""
    targets = set(TARGETS.values()) | set(FORMER)
    found = []
    for rel in rule.suite_files():
        name = str(rel)
        if name in TARGETS and not (TESTS / TARGETS[name]).exists():
            continue
        if name in targets or rule.rule_problem(rel) is None:
            continue
        found.append(name)
    return found


def bad_targets(rule: ModuleType) -> list[str]:
    """Lines of MAPPING whose new name breaks the rule (a module renamed on another branch)."""
    return [
        f"{old} -> {new}: {problem}"
        for old, new in TARGETS.items()
        if new.rsplit("/", 1)[-1].startswith("test_")
        and (problem := rule.rule_problem(PurePosixPath(new))) is not None
    ]


def move(check: bool) -> list[tuple[str, str]]:
    """git mv every old file still there (or moved by an earlier run to a name this tree no longer
    takes); the (old, new) pairs moved."""
    moved = []
    for old, new in TARGETS.items():
        for former in [old, *(f for f, n in FORMER.items() if n == new)]:
            src, dst = TESTS / former, TESTS / new
            if former == new or not src.exists():
                continue
            if dst.exists():
                sys.exit(f"rename_tests: both tests/{former} and tests/{new} exist: merge them by hand first")
            print(f"move   tests/{former} -> tests/{new}")
            if not check:
                dst.parent.mkdir(parents=True, exist_ok=True)
                git("mv", str(src), str(dst))
            moved.append((former, new))
    return moved


def packages(check: bool) -> None:
    """tests/ and every folder that holds a test module get an ``__init__.py``."""
    rule = load_rule()
    homes = {TESTS / rel for rel in rule.suite_files()}
    if check:
        homes |= {TESTS / new for new in TARGETS.values()}
    folders = {TESTS}
    for home in homes:
        folders |= {f for f in home.parents if f.is_relative_to(TESTS)}
    for folder in sorted(folders):
        init = folder / "__init__.py"
        if not init.exists():
            print(f"create {init.relative_to(ROOT)}")
            if not check:
                init.write_text("" if folder != TESTS else INIT_DOC, encoding="utf-8")
                git("add", str(init))


INIT_DOC = (
    '"""The suite, a package: its folders mirror companion/ (tests/README.md), so that two games\'\n'
    "test_rules.py are two modules, tests.games.kilo.test_rules and tests.games.treize.test_rules."
    '"""\n'
)
# Files that name old names on purpose: this script, and the rule's own examples.
NOT_REWRITTEN = {THIS, PurePosixPath("tests/house/test_suite_names.py")}
LINE_LENGTH = 110  # pyproject's [tool.ruff] line-length
DOCSTRING = re.compile(r"^[rRbBuUfF]*(\"\"\"|''')")
Match = re.Match[str]


def depth(new: str) -> int:
    return new.count("/")


def deepen_file_paths(text: str, levels: int) -> str:
    """``Path(__file__).parent`` meant tests/ when the file was there: the same folder now."""
    if levels == 0:
        return text

    def parents(m: Match) -> str:
        n = m.group(2).count(".parent") - 1 + levels
        return f"Path(__file__){m.group(1) or ''}.parents[{n}]"

    text = re.sub(r"Path\(__file__\)(\.resolve\(\))?((?:\.parent(?![s\w]))+)", parents, text)
    for _ in range(levels):
        text = text.replace("os.path.dirname(__file__)", "os.path.dirname(os.path.dirname(__file__))", 1)
    return text


def defined_tests() -> set[str]:
    """Names a bare old stem must not be taken for: tests and helpers defined anywhere."""
    names: set[str] = set()
    for path in TESTS.rglob("*.py"):
        names |= set(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8", errors="replace")))
    return names


def offsets(text: str) -> list[int]:
    """Where each line of ``text`` starts (tokenize counts lines from 1)."""
    starts = [0, 0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def prose_spans(text: str) -> list[tuple[int, int]] | None:
    """The comments and triple-quoted strings of Python ``text`` (None: it does not tokenize)."""
    starts = offsets(text)
    spans = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and DOCSTRING.match(tok.string)):
                spans.append((starts[tok.start[0]] + tok.start[1], starts[tok.end[0]] + tok.end[1]))
    except (tokenize.TokenError, SyntaxError):
        return None
    return spans


def in_spans(
    text: str, spans: list[tuple[int, int]] | None, pattern: str, repl: Callable[[Match], str]
) -> str:
    """``re.sub`` of ``pattern`` on the parts of ``text`` in ``spans`` (all of it when None)."""
    if spans is None:
        return re.sub(pattern, repl, text)
    out, last = [], 0
    for a, b in spans:
        out += [text[last:a], re.sub(pattern, repl, text[a:b])]
        last = b
    out.append(text[last:])
    return "".join(out)


def former_names(text: str, path: PurePosixPath, said: list[str]) -> str:
    """A name an earlier run gave that this tree no longer takes, by its path and its module."""
    for former, new in FORMER.items():
        before = text
        text = text.replace(f"tests/{former}", f"tests/{new}")
        if path.suffix == ".py":
            text = re.sub(rf"\b{re.escape(dotted(former))}\b", dotted(new), text)
        if text != before:
            said.append(f"{former} -> {new}")
    return text


def rewrite(text: str, path: PurePosixPath, taken: set[str]) -> tuple[str, list[str]]:
    """``text`` of the file at ``path`` with every old name replaced, and what was replaced."""
    said: list[str] = []
    stems = {stem(old): new for old, new in TARGETS.items() if old != new}

    def note(before: str, after: str) -> str:
        if before != after:
            said.append(f"{' '.join(before.split())} -> {after}")
        return after

    def renamed_path(m: Match) -> str:
        return note(m.group(0), f"tests/{stems[m.group(1)]}") if m.group(1) in stems else m.group(0)

    text = former_names(text, path, said)
    # Paths from the root, in prose and in code: tests/test_web.py (::test_x after it or not).
    text = re.sub(r"(?<![\w/.])tests/(test_[a-z0-9_]+)\.py", renamed_path, text)
    python = path.suffix == ".py"
    if python:
        # from tests.test_web import Pad; import tests.test_web
        text = re.sub(
            r"\b(from|import)(\s+)tests\.(test_[a-z0-9_]+)\b",
            lambda m: (
                note(m.group(0), f"{m.group(1)}{m.group(2)}{dotted(stems[m.group(3)])}")
                if m.group(3) in stems
                else m.group(0)
            ),
            text,
        )
        # from test_legibility import LONG (tests/ on sys.path, as it was)
        text = re.sub(
            r"\bfrom(\s+)(test_[a-z0-9_]+)(\s+)import\b",
            lambda m: (
                note(m.group(0), f"from{m.group(1)}{dotted(stems[m.group(2)])}{m.group(3)}import")
                if m.group(2) in stems
                else m.group(0)
            ),
            text,
        )
        if not str(path).startswith(NOT_REWRITTEN_IMPORTS):
            helpers = "|".join(HELPERS)
            text = re.sub(
                rf"\bfrom(\s+)({helpers})(\s+)import\b",
                lambda m: note(m.group(0), f"from{m.group(1)}tests.{m.group(2)}{m.group(3)}import"),
                text,
            )
            text = re.sub(
                rf"^([ \t]*)import ({helpers})\b",
                lambda m: note(m.group(0), f"{m.group(1)}from tests import {m.group(2)}"),
                text,
                flags=re.M,
            )
    if str(path) == "pyproject.toml":
        gone = set(stems) | set(HELPERS)
        text = MYPY_BARE.sub(lambda m: note(m.group(0), "") if m.group(1) in gone else m.group(0), text)
        text = text.replace(
            "# Helpers some tests import by their bare name (pytest puts tests/ on sys.path; mypy sees them\n"
            "# as tests.<name>), and bench/core.py.",
            "# Modules imported by their bare name from a folder put on sys.path by hand: the kernel\n"
            "# model (tests/fakes) and the benches' own.",
        )
    for before, after in LITERALS.items():
        if before in text:
            text = text.replace(before, note(before, after))
    # In prose only (Python's comments and docstrings, any other file): test_web.py alone, and a
    # bare old name ("test_replay_window pins the floor") that is no test function's.
    spans = prose_spans(text) if python else None
    text = in_spans(text, spans, r"(?<![\w/.\-])(test_[a-z0-9_]+)\.py\b", renamed_path)
    spans = prose_spans(text) if python else None
    text = in_spans(
        text,
        spans,
        r"(?<![\w/.:\-])(test_[a-z0-9_]+)(?![\w(/.\-])",
        lambda m: (
            note(m.group(0), f"tests/{stems[m.group(1)]}")
            if m.group(1) in stems and m.group(1) not in taken
            else m.group(0)
        ),
    )
    return text, said


def wrap_prose(text: str) -> str:
    """Lines the longer names pushed over the line length, broken in their comment or docstring."""
    for _ in range(200):
        spans = prose_spans(text)
        if spans is None:
            return text
        starts = offsets(text)
        for number, line in enumerate(text.splitlines(), start=1):
            if len(line) <= LINE_LENGTH:
                continue
            cut = line.rfind(" ", 0, LINE_LENGTH + 1)
            at = starts[number] + cut
            span = next(((a, b) for a, b in spans if a < at < b), None)
            lead = line[: len(line) - len(line.lstrip())]
            if cut <= len(lead) or span is None:
                continue
            comment = text[span[0]] == "#"
            if comment and text[starts[number] : span[0]].strip():
                continue  # a comment after code: ruff format or a person moves it
            if comment and at < span[0] + 2:
                continue
            rest = (lead + "# " if comment else lead) + line[cut + 1 :]
            text = text[:at] + "\n" + rest + text[starts[number] + len(line) :]
            break
        else:
            return text
    return text


def rewrite_all(check: bool, moved_to: dict[str, int]) -> tuple[int, list[str]]:
    """Every tracked text file rewritten; how many changed, and the Python ones among them."""
    taken = defined_tests()
    changed, python = 0, []
    for name in git("ls-files", "-z").split("\0"):
        if not name or PurePosixPath(name) in NOT_REWRITTEN:
            continue
        file = ROOT / name
        if not file.is_file() or file.is_symlink():
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # pictures, fonts
        new, said = rewrite(text, PurePosixPath(name), taken)
        levels = moved_to.get(name, 0)
        deeper = deepen_file_paths(new, levels)
        if deeper != new:
            said.append(f"Path(__file__) {levels} folder(s) deeper")
        if name.endswith(".py") and deeper != text:
            deeper = wrap_prose(deeper)
        if deeper != text:
            changed += 1
            print(f"edit   {name}: " + "; ".join(sorted(set(said))))
            if not check:
                file.write_text(deeper, encoding="utf-8")
            if name.endswith(".py"):
                python.append(name)
    return changed, python


def stale_file_paths() -> list[str]:
    """``Path(__file__).parent`` in a test moved down a folder by an earlier run and brought back
    by a merge with another branch: it names the test's folder, no longer tests/."""
    found = []
    for new in TARGETS.values():
        file = TESTS / new
        if depth(new) and file.exists():
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if re.search(r"Path\(__file__\)(\.resolve\(\))?\.parent(?![s\w])", line):
                    found.append(f"tests/{new}:{number}: {line.strip()}")
    return found


def format_python(files: list[str]) -> None:
    """ruff on the Python files edited: imports sorted, long lines of code formatted, then what is
    still too long said."""
    if not files:
        return
    # The imports' order first: ``from tests.x`` sorts apart from the bare names it replaced.
    sort = [sys.executable, "-m", "ruff", "check", "--select", "I", "--fix", "-q", *files]
    done = subprocess.run(sort, cwd=ROOT, check=False, capture_output=True)
    if done.returncode == 0:
        done = subprocess.run([sys.executable, "-m", "ruff", "format", "-q", *files], cwd=ROOT, check=False)
    if done.returncode:
        print("rename_tests: run `ruff format` on the files edited above (no ruff for this Python)")
        return
    long = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "E501", "--output-format", "concise", *files],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    if long.returncode:
        print("rename_tests: lines still too long, to break by hand:\n" + long.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="say what would change, change nothing")
    args = parser.parse_args()
    rule = load_rule()
    resolve(rule)
    problems = [f"tests/{u}: in no line of MAPPING and not named by the rule" for u in unknown_tests(rule)]
    problems += bad_targets(rule)
    if problems:
        print("rename_tests: nothing changed; add or fix these lines of MAPPING in tools/rename_tests.py:")
        print("\n".join(f"  {p}" for p in problems))
        return 2
    if not args.check and git("status", "--porcelain", "--untracked-files=no").strip():
        print("rename_tests: the work tree has uncommitted changes: commit or stash them first")
        return 2
    moved = move(args.check)
    packages(args.check)
    # The depth of the files moved this run: their Path(__file__) is made to name tests/ again.
    moved_to = {f"tests/{new}": depth(new) - depth(old) for old, new in moved}
    edited, python = rewrite_all(args.check, moved_to)
    if not args.check:
        format_python(python)
        git("add", "-u")
    stale = stale_file_paths()
    if stale:
        print("rename_tests: Path(__file__) still as it was at tests/ (from another branch?):")
        print("\n".join(f"  {s}" for s in stale))
    print(
        f"rename_tests: {len(moved)} files moved, {edited} files edited"
        + (" (--check)" if args.check else "")
    )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
