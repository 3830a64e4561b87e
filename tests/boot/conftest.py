"""The boot test runs beside the rest of the suite: its scenario (a Debian image built from the
install guide, booted under QEMU) starts in the background as soon as collection ends, so its
minutes of emulated boots overlap the other tests; its checks run last and read what it saw.

The scenario is the pytest run's child in fact: its own process group, which a watchdog
(tests/boot/watchdog.py) kills when the run ends however it ends, even by a kill -9; its folder
goes with it (COMPANION_BOOT_KEEP=1 keeps the folder, without its disk image, to look at the
screendumps).

Under pytest-xdist (the README's `-n 2`) the scenario is the controller's child
(tests/boot/xdist_scenario.py), started once when a worker's collection kept the checks: a worker
is not the run (it ends when its share of the tests does, and each worker collects the whole
suite). The controller hands the workers the scenario's folder; the worker that runs the checks
waits there for the scenario's exit code."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.boot.appliance import ROOT, SUITE, missing_tools

_RUN: dict[str, Any] = {}
NEEDS_VM = "needs_vm"
GPIO_SIM = "gpio_sim"
WAIT_S = 25 * 60  # the longest wait for the scenario


def _vm_items(items: list[pytest.Item]) -> list[pytest.Item]:
    return [i for i in items if i.get_closest_marker(NEEDS_VM)]


def _worker_out(config: pytest.Config) -> Path | None:
    """In an xdist worker: the folder the controller runs the scenario in (None elsewhere)."""
    given = getattr(config, "workerinput", {}).get("companion_boot_out")
    return Path(given) if given else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{NEEDS_VM}: reads the booted appliance's observations")
    config.addinivalue_line(
        "markers", f"{GPIO_SIM}: reads real kernel edges: a suite whose kernel has gpio-sim"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not SUITE.gpio_sim:
        # The checks of real kernel edges belong to a suite whose kernel has gpio-sim (trixie's
        # backports kernel); the one booted here has none, so they are not this run's checks:
        # left out, and said so in pytest's count, rather than skipped on every run.
        other = [i for i in items if i.get_closest_marker(GPIO_SIM)]
        if other:
            config.hook.pytest_deselected(items=other)
            items[:] = [i for i in items if not i.get_closest_marker(GPIO_SIM)]
    vm = _vm_items(items)
    for item in vm:
        items.remove(item)
        # The first of them waits for the scenario (its own bound is WAIT_S): run alone, the
        # suite's 300 s per test would cut the wait and kill the scenario half-way.
        item.add_marker(pytest.mark.timeout(WAIT_S + 60))
    items.extend(vm)


def pytest_itemcollected(item: pytest.Item) -> None:
    # The scenario starts as soon as its first check is collected, not when the collection of
    # the whole suite ends (seconds of one core's time that the scenario would otherwise wait).
    # Not when options may deselect it (it would be started, then killed when the collection
    # ends: see pytest_collection_finish).
    if _worker_out(item.config) is not None:
        return  # the controller starts it (tests/boot/xdist_scenario.py)
    opt = item.config.option
    filtered = any(getattr(opt, name, None) for name in ("keyword", "markexpr", "deselect", "lf", "stepwise"))
    if item.get_closest_marker(NEEDS_VM) and not _RUN and not opt.collectonly and not filtered:
        _start()


def _start(out: Path | None = None) -> None:
    if os.environ.get("COMPANION_BOOT_OBSERVATIONS"):
        _RUN["given"] = True
        return
    if missing_tools():
        _RUN["missing"] = missing_tools()
        return
    out = out or Path(tempfile.mkdtemp(prefix="companion-boot-"))
    log = (out / "scenario.log").open("w", encoding="utf-8")
    _RUN["out"] = out
    # (tests/boot/test_cleanup.py puts a stand-in here: QEMU mid-boot, without the minutes.)
    module = os.environ.get("COMPANION_BOOT_SCENARIO_MODULE") or "tests.boot.scenario"
    _RUN["proc"] = proc = subprocess.Popen(
        [sys.executable, "-m", module, "--out", str(out)],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # its own group: its QEMU goes with it when the group is killed
    )
    # The keeper, in a session of its own: it outlives this process however this process ends.
    keep = out / "machine" if os.environ.get("COMPANION_BOOT_KEEP") == "1" else out
    _RUN["watchdog"] = subprocess.Popen(
        [sys.executable, "-m", "tests.boot.watchdog", str(os.getpid()), str(proc.pid), str(keep)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook tells the controller the collection ended
def pytest_collection_finish(session: pytest.Session) -> None:
    out = _worker_out(session.config)
    if out is not None:
        vm = _vm_items(session.items)
        if vm and not session.config.option.collectonly:
            # The checks kept: the controller starts the scenario, and hands them out last.
            out.mkdir(mode=0o700, exist_ok=True)
            part = out / f"checks.{os.getpid()}"
            part.write_text("\n".join(item.nodeid for item in vm), encoding="utf-8")
            part.rename(out / "checks")
        return
    if not _vm_items(session.items):
        # Its checks were deselected after all: the scenario started for nothing.
        _kill()
        if "out" in _RUN:
            shutil.rmtree(_RUN["out"], ignore_errors=True)
    elif not _RUN:
        _start()


def _kill() -> None:
    proc = _RUN.get("proc")
    if proc is not None:
        # The scenario and its QEMU (a QEMU left behind would take a core for ever), and what
        # it left running in its group after its own end (the image tree's removal).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _worker_out(session.config) is not None:
        return  # the controller's scenario, the controller's to end
    _kill()
    if "out" in _RUN:
        # The watchdog would remove it once this process is gone; done here, the run leaves
        # nothing behind the moment it ends.
        keep = os.environ.get("COMPANION_BOOT_KEEP") == "1"
        shutil.rmtree(_RUN["out"] / "machine" if keep else _RUN["out"], ignore_errors=True)


def _controllers_scenario(out: Path) -> int:
    """In an xdist worker: wait for the scenario the controller runs in ``out``, and its exit
    code (killed after WAIT_S, as in a run without workers)."""
    pid_file = out / "pid"
    if not pid_file.exists():
        pytest.fail(f"the pytest-xdist controller started no boot scenario in {out}")
    deadline = time.monotonic() + WAIT_S
    while not (out / "exit").exists():
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(int(pid_file.read_text(encoding="utf-8")), signal.SIGKILL)
            deadline = time.monotonic() + 60  # the controller's wait then writes the code
        time.sleep(1)  # minutes of boot: a second's poll of the controller's report costs nothing
    return int((out / "exit").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def observations(request: pytest.FixtureRequest) -> dict[str, Any]:
    """What the booted appliance showed (tests/boot/scenario.py)."""
    given = os.environ.get("COMPANION_BOOT_OBSERVATIONS")
    if given:
        return dict(json.loads(Path(given).read_text(encoding="utf-8")))
    from tests.conftest import skip_unless_ci

    if "missing" in _RUN:
        skip_unless_ci("the boot test needs " + ", ".join(_RUN["missing"]))
    out = _worker_out(request.config)
    if out is not None:
        if missing_tools():
            skip_unless_ci("the boot test needs " + ", ".join(missing_tools()))
        code = _controllers_scenario(out)
    else:
        proc = _RUN["proc"]
        out = _RUN["out"]
        try:
            proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        code = proc.returncode
    obs_file = out / "observations.json"
    log_tail = (out / "scenario.log").read_text(encoding="utf-8", errors="replace")[-6000:]
    if not obs_file.exists():
        pytest.fail(f"the boot scenario wrote nothing (exit {code}):\n{log_tail}")
    obs = dict(json.loads(obs_file.read_text(encoding="utf-8")))
    # The scenario is over and said what it saw: its 1.2 GB disk image goes (a developer's /tmp
    # kept one a run); the log, the screendumps and the observations stay for a failed check.
    (out / "machine" / "disk.img").unlink(missing_ok=True)
    obs["_out"] = str(out)
    obs["_log"] = log_tail
    print(f"boot test: {out} (build {obs.get('build_s')} s, total {obs.get('total_s')} s)")
    return obs
