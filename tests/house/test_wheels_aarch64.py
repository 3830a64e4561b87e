"""A Raspberry Pi installs `table-companion[gpio,serial,web]` from wheels alone (issue 35).

Pi OS bookworm runs Python 3.11 and trixie Python 3.13, both on aarch64 with a glibc of at least
2.36: pip there takes manylinux wheels tagged 2_17 to 2_36 (and 2_41 on trixie; we ask for what
both take). A requirement with no such wheel makes pip build it from source on the Pi, which
needs a compiler, Python's headers and whatever C library it binds: the guide installs none of
them, so the install fails at its pip step. This asks the package index, from any machine, what
pip on a Pi would get.

pip reads environment markers against the machine it runs on even with ``--platform``, so the
markers are read here against a Pi's, and each requirement that applies to a Pi is handed to pip
bare: an aarch64-only requirement is checked, not dropped. Its own dependencies are resolved by
pip (their markers are rare and, for those there are, true on a Pi as here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import ROOT, skip_unless_ci

EXTRAS = ("gpio", "serial", "web")
PYTHONS = ("3.11", "3.13")  # Pi OS bookworm, Pi OS trixie
# manylinux2014 is manylinux_2_17; a wheel tagged for a newer glibc than bookworm's 2.36 would
# not install there.
PLATFORMS = ["manylinux2014_aarch64", *(f"manylinux_2_{n}_aarch64" for n in range(17, 37))]
INDEX = "https://pypi.org/simple/"


def pi_environment(python: str) -> dict[str, str]:
    """The marker environment of a Raspberry Pi's Python ``python`` (packaging's names)."""
    return {
        "implementation_name": "cpython",
        "implementation_version": f"{python}.0",
        "os_name": "posix",
        "platform_machine": "aarch64",
        "platform_python_implementation": "CPython",
        "platform_system": "Linux",
        "python_full_version": f"{python}.0",
        "python_version": python,
        "sys_platform": "linux",
        "extra": "",
    }


def pi_requirements(pyproject: dict, python: str) -> list[str]:
    """The project's dependencies and those of EXTRAS that a Pi with ``python`` installs, each
    without its marker (read here, against the Pi)."""
    project = pyproject["project"]
    texts = list(project["dependencies"])
    for extra in EXTRAS:
        texts += project["optional-dependencies"][extra]
    out = []
    for text in texts:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate(pi_environment(python)):
            continue
        bare = req.name + (f"[{','.join(sorted(req.extras))}]" if req.extras else "") + str(req.specifier)
        out.append(bare)
    return out


def pip_download(requirements: list[str], python: str, dest: Path) -> subprocess.CompletedProcess[str]:
    """pip as a Pi with ``python`` would resolve ``requirements``, from wheels only, against the
    package index alone (no local wheel folder or mirror a machine's config may add)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") or k == "PIP_CERT"}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    platforms = [a for p in PLATFORMS for a in ("--platform", p)]
    target = ["--python-version", python, "--implementation", "cp", "--index-url", INDEX, "-d", str(dest)]
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--only-binary=:all:",
            *platforms,
            *target,
            *requirements,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_the_markers_are_read_against_a_pi_not_this_machine() -> None:
    """An aarch64-only requirement is kept for the Pi and a laptop-only one dropped, whatever
    machine runs the check (the trap pip's --platform falls into)."""
    pyproject = {
        "project": {
            "dependencies": ["a>=1"],
            "optional-dependencies": {
                "gpio": ["b>=2; platform_machine == 'aarch64'", "c; platform_machine == 'x86_64'"],
                "serial": ["d; python_version < '3.12'"],
                "web": ["e[x]>=3; sys_platform == 'linux'"],
            },
        }
    }
    assert pi_requirements(pyproject, "3.13") == ["a>=1", "b>=2", "e[x]>=3"]
    assert pi_requirements(pyproject, "3.11") == ["a>=1", "b>=2", "d", "e[x]>=3"]


@pytest.mark.parametrize("python", PYTHONS)
def test_every_dependency_installs_from_wheels_on_a_pi(python: str, tmp_path: Path) -> None:
    try:
        urllib.request.urlopen(INDEX + "pip/", timeout=20).close()
    except OSError as exc:
        skip_unless_ci(f"the package index cannot be reached ({exc})")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = pi_requirements(pyproject, python)
    assert any(r.startswith("gpiod") for r in reqs)  # the Pi's own requirements are in
    done = pip_download(reqs, python, tmp_path / "all")
    if done.returncode == 0:
        wheels = sorted(p.name for p in (tmp_path / "all").iterdir())
        assert wheels and all(w.endswith(".whl") for w in wheels), wheels
        return
    # Name every requirement that fails, one by one, not just the first pip stopped at.
    failing = []
    for req in reqs:
        one = pip_download([req], python, tmp_path / "one")
        if one.returncode != 0:
            lines = [x for x in one.stderr.splitlines() if x.startswith("ERROR")]
            failing.append(f"{req}: {' / '.join(lines) or one.stderr.strip()[-300:]}")
    assert failing, done.stderr  # the whole failed, so some requirement must
    pytest.fail(
        f"On a Raspberry Pi with Python {python} (aarch64, manylinux 2_17..2_36) pip would build "
        "from source: " + "; ".join(failing)
    )
