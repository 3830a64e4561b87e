"""The floors of the package (docs/architecture.md, "Floors"): no import cycle between folders of
``companion/``, none between the modules of a folder (``display/``, ``table/``...) or of a game's
package, and the page's picture is the code's.

Every import counts, inside functions too: an import moved into a function hides a cycle from
the interpreter, not from a reader. Only ``if TYPE_CHECKING:`` blocks are left aside (they never
run). The reading of the imports is bench/floors.py's, which also draws the picture.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _floors() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floors", ROOT / "bench" / "floors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["floors"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


floors = _floors()


def rooms(root: Path = ROOT) -> list[str]:
    """The packages inside which no two modules may import each other in a circle: every folder
    of companion/ (``display/`` first) and each game's package."""
    package = root / "companion"
    folders = sorted(p.parent.name for p in package.glob("*/__init__.py") if p.parent.name != "firmware")
    games = sorted(p.parent.name for p in (package / "games").glob("*/__init__.py"))
    ordered = ["display", *(f for f in folders if f != "display")]
    return [f"companion.{f}" for f in ordered] + [f"companion.games.{g}" for g in games]


def cycle_report(root: Path, within: str | None = None) -> str:
    edges = floors.imports(floors.modules(root))
    g = floors.graph(edges, within=within)
    return "\n".join(floors.explain(c, g) for c in floors.cycles(g))


def test_no_cycle_between_folders() -> None:
    report = cycle_report(ROOT)
    assert not report, "import cycles between folders of companion/:\n" + report


@pytest.mark.parametrize("room", rooms())
def test_no_cycle_inside_a_room(room: str) -> None:
    report = cycle_report(ROOT, within=room)
    assert not report, f"import cycles inside {room}:\n" + report


def test_the_page_shows_the_floors_of_the_code() -> None:
    shown = floors.page_picture()
    assert shown is not None, f"docs/architecture.md has no picture between {floors.BEGIN} and {floors.END}"
    assert shown == floors.picture(), (
        "docs/architecture.md's floors are not the code's: run python bench/floors.py --write"
    )


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "companion" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_hidden_in_a_function_is_named_with_its_path(tmp_path: Path) -> None:
    """The reader itself: a cycle through an import inside a function is found, a TYPE_CHECKING
    import is not one, and the report names the path and the lines behind each step."""
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "",
            "low/kit.py": "def f():\n    from companion.high.game import G\n    return G\n",
            "high/__init__.py": "",
            "high/game.py": "from companion.low import kit\nG = 1\n",
            "side/__init__.py": "",
            "side/a.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion.high import game\n"
                "else:\n    from companion.low import kit\n"
            ),
            "side/b.py": "from .a import kit\n",
        },
    )
    report = cycle_report(root)
    assert report.splitlines()[0] == "high -> low -> high"
    assert "companion/high/game.py:1 imports companion.low" in report
    assert "companion/low/kit.py:2 imports companion.high.game" in report
    assert "companion.side" not in report  # its TYPE_CHECKING import runs never; its else branch does
    edges = floors.imports(floors.modules(root))
    assert ("companion.side.a", "companion.low.kit") in {(e.source, e.target) for e in edges}
    assert ("companion.side.b", "companion.side.a") in {(e.source, e.target) for e in edges}
    assert ("companion.side.a", "companion.high.game") not in {(e.source, e.target) for e in edges}


def test_a_cycle_inside_a_room_is_named(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "games/__init__.py": "",
            "games/g/__init__.py": "",
            "games/g/rules.py": "def summary():\n    from companion.games.g.draw import story\n",
            "games/g/draw/__init__.py": "",
            "games/g/draw/story.py": "from companion.games.g import rules\n",
        },
    )
    assert rooms(root) == ["companion.display", "companion.games", "companion.games.g"]
    report = cycle_report(root, within="companion.games.g")
    assert (
        report.splitlines()[0]
        == "companion.games.g.draw.story -> companion.games.g.rules -> companion.games.g.draw.story"
    )
    assert not cycle_report(root)  # one folder: no cycle between folders
