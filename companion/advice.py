"""Install commands that name real things: the pip of the Python running the companion (its venv,
not the system's), the packages an extra of the project as installed really needs (the project
itself is not on the package index), and the place this copy was installed from."""

from __future__ import annotations

import json
import re
import shlex
import sys
from functools import cache
from pathlib import Path

DIST = "table-companion"  # the distribution's name (pyproject's [project] name)


def pip() -> str:
    """The running interpreter's pip: on a Pi, /home/companion/venv/bin/python -m pip."""
    return f"{shlex.quote(sys.executable)} -m pip"


@cache
def extra_requirements(extra: str) -> tuple[str, ...]:
    """What ``extra`` adds, as installed (the distribution's metadata), else as the source
    checkout's pyproject.toml says; markers dropped, since advice for a Pi may be printed on a
    laptop."""
    from importlib import metadata

    found: list[str] = []
    try:
        requires = metadata.requires(DIST) or []
    except metadata.PackageNotFoundError:
        requires = []
    wanted = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    for line in requires:
        spec, _, marker = line.partition(";")
        if wanted.search(marker):
            found.append(spec.strip())
    if not found:
        found = _from_pyproject(extra)
    return tuple(found)


def _from_pyproject(extra: str) -> list[str]:
    import tomllib

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    lines = data.get("project", {}).get("optional-dependencies", {}).get(extra, [])
    return [str(line).partition(";")[0].strip() for line in lines]


def pip_install(extra: str) -> str:
    """The command that installs what ``extra`` needs into the companion's own environment:
    "/home/companion/venv/bin/python -m pip install "'gpiod>=2.2' 'gpiozero>=2.0'"."""
    names = [shlex.quote(r) for r in extra_requirements(extra) if not r.startswith(DIST)]
    return f"{pip()} install {' '.join(names)}"


def installed_from() -> str | None:
    """Where this copy was installed from (pip's direct_url.json: a folder, a wheel, a git URL),
    if pip recorded it."""
    from importlib import metadata

    try:
        text = metadata.distribution(DIST).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        url = str(json.loads(text).get("url", ""))
    except ValueError:
        return None
    return url.removeprefix("file://") or None


def pip_upgrade() -> tuple[str, str]:
    """How to update the companion (English, French): from where it was installed."""
    source = installed_from()
    if source is None:
        return (
            f"{pip()} install --upgrade with the new wheel or source folder of the companion",
            f"{pip()} install --upgrade avec la nouvelle roue (wheel) ou le nouveau dossier "
            "source du companion",
        )
    command = f"{pip()} install --upgrade {shlex.quote(source)}"
    return command, command
