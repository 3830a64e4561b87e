"""What a warm listing (`stats`, `history`, `games`, `export --csv`) no longer pays for, each
checked against what it replaced (issue 22: 2,000 games, warm <= 0.3 s, interpreter start and
imports included; bench/stats.py gives the figures, never asserted here)."""

from __future__ import annotations

import functools
import gc
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.kilo.stats import KiloPart
from companion.table.stats import rare_collections
from tests.conftest import ROOT, run_cli

LOADED = """
import json, sys
from companion.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def test_the_median_delay_is_statistics_median_truncated() -> None:
    rng = random.Random(22)
    cases = [[5], [1, 2], [1, 4], [3, 1, 2], [-3, 4], [7, 7, 8, 8]]
    cases += [[rng.randrange(-(10**7), 10**9) for _ in range(rng.randrange(1, 40))] for _ in range(500)]
    for delays in cases:
        s = KiloPart(delays_us=list(delays))
        assert s.median_delay_us == int(statistics.median(delays)), delays
        assert s.delays_us == delays  # read, not sorted in place
    assert KiloPart().median_delay_us is None


def test_stats_prints_its_medians_without_importing_statistics(tmp_path: Path) -> None:
    made = run_cli("demo", "--speed", "0", "--rounds", "2", "--seed", "3", data_dir=tmp_path)
    assert made.returncode == 0, made.stderr
    for args in (["stats", "--demos", "--lang", "en"], ["stats", "--demos", "--json"]):
        proc = subprocess.run(
            [sys.executable, "-c", LOADED, *args, "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        loaded = set(json.loads(proc.stderr.splitlines()[-1]))
        assert "companion.table.stats" in loaded  # it did read the records
        assert "statistics" not in loaded
    players = json.loads(proc.stdout)["players"]
    assert any(p["kilo"]["median_delay_us"] is not None for p in players)


def test_rare_collections_gives_the_collector_its_pace_back() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with rare_collections():
            assert gc.get_threshold()[0] >= 100_000
            assert gc.get_threshold()[1:] == (10, 10)
            with rare_collections():  # nested (a listing's records): still rare
                assert gc.get_threshold()[0] >= 100_000
            assert gc.get_threshold()[0] >= 100_000
        assert gc.get_threshold() == (700, 10, 10)
        try:
            with rare_collections():
                raise ValueError("a command failing half-way")
        except ValueError:
            pass
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_the_parser_measures_the_terminal_once_and_wraps_help_as_argparse_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse
    import shutil

    from companion.cli.parser import Parser, build_parser

    measured = 0
    real = shutil.get_terminal_size

    def counted(*args: Any, **kwargs: Any) -> os.terminal_size:
        nonlocal measured
        measured += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(shutil, "get_terminal_size", counted)
    for columns in ("50", "132"):
        monkeypatch.setenv("COLUMNS", columns)
        monkeypatch.setattr(Parser, "_width", None, raising=False)
        measured = 0
        parser = build_parser()
        assert measured == 1  # was one a formatter: 120 while building the parser
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for p in [parser, *subparsers.choices.values()]:
            ours = p.format_help()
            monkeypatch.setattr(
                p, "_get_formatter", functools.partial(argparse.ArgumentParser._get_formatter, p)
            )
            assert ours == p.format_help()  # argparse's own width, from COLUMNS
