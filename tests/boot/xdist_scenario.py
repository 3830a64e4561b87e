"""The boot scenario under pytest-xdist: the controller's part (tests/conftest.py registers this
module in the controller; the workers' part is in tests/boot/conftest.py).

The controller is the pytest run: it lives until the last worker is done, and a kill of it is a
kill of the run. So the scenario is its child, watched by the watchdog on its pid, as a run
without workers has it; it starts once, when a worker says its collection kept the checks (the
file ``checks`` in the folder the controller handed it, their ids), before any test is handed
out; the worker that runs the checks waits for the file ``exit`` that the controller writes when
the scenario ends. Under `--dist loadfile` the checks are a unit of their own, handed out last
(their file's unit tests go with the others): the worker that waits for the scenario has run its
share of the fast part first, and no tests queue behind the wait."""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

# Imported by its name in the controller, which loads no conftest under tests/boot: this is the
# controller's only copy of it, and of its record of the run (_RUN).
from tests.boot import conftest as boot

_FOLDER: list[Path] = []


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    # One folder for the run, named before any worker collects and made by the first whose
    # collection keeps the checks (a run without them, the fast part, makes none).
    if not _FOLDER:
        _FOLDER.append(Path(tempfile.gettempdir()) / f"companion-boot-{secrets.token_hex(6)}")
    node.workerinput["companion_boot_out"] = str(_FOLDER[0])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    # Called before the controller hands out any test: the scenario runs beside them all.
    if not _FOLDER or boot._RUN or not (_FOLDER[0] / "checks").exists():
        return
    out = _FOLDER[0]
    boot._start(out)
    proc = boot._RUN.get("proc")
    if proc is None:  # its tools are missing, or its observations were given
        return
    (out / "pid").write_text(str(proc.pid), encoding="utf-8")

    def report() -> None:
        code = proc.wait()
        (out / "exit.part").write_text(str(code), encoding="utf-8")
        (out / "exit.part").rename(out / "exit")

    threading.Thread(target=report, name="boot-scenario", daemon=True).start()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    checks: list[set[str]] = []

    class BootChecksLast(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            # Called once every worker has collected: the checks' ids are in the folder by then.
            if not checks:
                listed = _FOLDER[0] / "checks" if _FOLDER else None
                ids = listed.read_text(encoding="utf-8") if listed and listed.exists() else ""
                checks.append(set(ids.splitlines()))
            return "boot-checks" if nodeid in checks[0] else str(super()._split_scope(nodeid))

        def _assign_work_unit(self, node: Any) -> None:
            # xdist hands out the biggest files first: the checks wait for every other file.
            if "boot-checks" in self.workqueue and len(self.workqueue) > 1:
                self.workqueue.move_to_end("boot-checks")
            super()._assign_work_unit(node)

    return BootChecksLast(config, log)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _FOLDER:
        return  # not an xdist controller
    if "out" in boot._RUN:
        boot.pytest_sessionfinish(session)  # the scenario killed, its folder removed or kept
    else:
        shutil.rmtree(_FOLDER[0], ignore_errors=True)  # no scenario ran in it
    _FOLDER.clear()
    boot._RUN.clear()
