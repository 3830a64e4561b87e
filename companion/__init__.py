"""Table companion: slap timing and scores for French card games played with real cards."""

from typing import Any

DIST = "table-companion"  # the distribution's name: its metadata holds the one version


def version() -> str:
    """The installed distribution's version: pyproject.toml's, through the package metadata."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version(DIST)
    except PackageNotFoundError:  # a bare source tree on PYTHONPATH, never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    # ``companion.__version__`` as packagers expect, read when asked: importing
    # importlib.metadata on every start would slow `companion --help`.
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
