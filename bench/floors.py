"""The package's floors, read from its imports: which folder of ``companion/`` stands on which.

Every ``import`` and ``from ... import`` of a module counts, inside functions too (an import moved
into a function hides a cycle from the interpreter, not from the design); only the imports under
``if TYPE_CHECKING:`` are left aside, since they never run. ``tests/house/test_floors.py`` fails on a
cycle between folders, or between the modules of a room (``display/``, a game's package), and
checks that docs/architecture.md shows the picture this script draws.

    python bench/floors.py            # print the picture
    python bench/floors.py --write    # put it into docs/architecture.md
    python bench/floors.py --check    # exit 1 when the page's picture is not the code's
"""

from __future__ import annotations

import argparse
import ast
import itertools
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "companion"
# MicroPython for the button board: copied to the Pico, never imported by the package.
NOT_IMPORTED = ("companion.firmware",)
PAGE = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- floors: begin (bench/floors.py --write) -->", "<!-- floors: end -->"


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` (both module names) at ``line`` of ``path``."""

    source: str
    target: str
    path: Path
    line: int

    def __str__(self) -> str:
        depth = self.source.count(".") + (1 if self.path.name == "__init__.py" else 0)
        where = self.path.relative_to(self.path.parents[depth])  # from the package's folder on
        return f"{where}:{self.line} imports {self.target}"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if not name.startswith(NOT_IMPORTED):
            found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that can run: everywhere but an ``if TYPE_CHECKING:`` body."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield from _statements(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _statements(child)


def _targets(node: ast.Import | ast.ImportFrom, name: str, is_package: bool) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        here = name.split(".") if is_package else name.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join([*here, *([node.module] if node.module else [])])
    for alias in node.names:
        yield f"{base}.{alias.name}"  # a submodule when there is one, else the name in ``base``
        yield base


def imports(known: Mapping[str, Path]) -> list[Import]:
    """Every import of a module of the package by another, one per statement and target."""
    found: dict[tuple[str, str, int], Import] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _statements(tree):
            for target in _targets(node, name, path.name == "__init__.py"):
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in known and target != name and target.startswith(PACKAGE + "."):
                    found.setdefault((name, target, node.lineno), Import(name, target, path, node.lineno))
    return sorted(found.values(), key=lambda i: (i.source, i.target, i.line))


def folder(name: str) -> str:
    """The floor a module belongs to: its folder of ``companion/`` (``display``), or itself for a
    module at the top (``errors``)."""
    return name.split(".")[1] if name.count(".") >= 1 else name


Graph = dict[str, dict[str, list[Import]]]


def graph(edges: Iterable[Import], key: Callable[[str], str] = folder, within: str | None = None) -> Graph:
    """``node -> node -> the imports behind that edge``: between floors, or with ``within`` (a
    package), between the modules inside it (its subpackages' too)."""
    out: Graph = {}
    for edge in edges:
        if within is not None:
            a, b = edge.source, edge.target
            if not (a.startswith(within + ".") and b.startswith(within + ".")):
                continue
        else:
            a, b = key(edge.source), key(edge.target)
            if a == b:
                continue
        out.setdefault(a, {}).setdefault(b, []).append(edge)
    return out


def cycles(g: Graph) -> list[list[str]]:
    """One shortest cycle through each node that lies on one, each cycle once, as the path of its
    nodes (the first again at the end)."""
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    for start in sorted(g):
        back: dict[str, str] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if start in g.get(node, {}) and (node != start or not back):
                path = [node]
                while path[-1] != start:
                    path.append(back[path[-1]])
                path = [*reversed(path), start]
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append(path)
                break
            for nxt in sorted(g.get(node, {})):
                if nxt not in back and nxt != start:
                    back[nxt] = node
                    queue.append(nxt)
    return found


def explain(path: list[str], g: Graph) -> str:
    """The cycle's path, then the first import behind each of its steps."""
    steps = [f"  {a} -> {b}: {g[a][b][0]}" for a, b in itertools.pairwise(path)]
    return " -> ".join(path) + "\n" + "\n".join(steps)


def floors(g: Graph, nodes: Iterable[str]) -> list[list[str]]:
    """The nodes by floor, from the ground up: a node's floor is one above the highest it stands
    on. Only for a graph without cycles."""
    level: dict[str, int] = {}

    def height(node: str, trail: tuple[str, ...] = ()) -> int:
        if node not in level:
            if node in trail:
                raise ValueError("a cycle has no floors: " + " -> ".join((*trail, node)))
            below = [height(b, (*trail, node)) for b in g.get(node, {})]
            level[node] = 1 + max(below, default=-1)
        return level[node]

    for node in nodes:
        height(node)
    out: list[list[str]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
    for node, floor in level.items():
        out[floor].append(node)
    return [sorted(f) for f in out]


def _label(node: str, known: Mapping[str, Path]) -> str:
    path = known.get(f"{PACKAGE}.{node}")
    return f"{node}/" if path is not None and path.name == "__init__.py" else node


def picture(root: Path = ROOT) -> str:
    """The floors as text: the top floor first, each folder with what it stands on directly."""
    known = modules(root)
    g = graph(imports(known))
    nodes = sorted({folder(m) for m in known if m != PACKAGE})
    rows = []
    for number, names in reversed(list(enumerate(floors(g, nodes)))):
        for node in names:
            on = ", ".join(_label(b, known) for b in sorted(g.get(node, {})))
            rows.append((str(number), _label(node, known), on or "-"))
    width = max(len(r[1]) for r in rows)
    lines = [f"{'floor':>5}  {'folder':<{width}}  stands on"]
    lines += [f"{n:>5}  {name:<{width}}  {on}" for n, name, on in rows]
    return "\n".join(lines) + "\n"


def page_picture(page: Path = PAGE) -> str | None:
    """The picture the page shows, between its markers (without the code fence)."""
    text = page.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        return None
    inside = text.split(BEGIN, 1)[1].split(END, 1)[0]
    return "\n".join(line[4:] for line in inside.strip("\n").splitlines()) + "\n"


def write(page: Path = PAGE) -> None:
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    block = "".join(f"    {line}\n" if line else "\n" for line in picture().splitlines())
    page.write_text(f"{head}{BEGIN}\n\n{block}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"put the picture into {PAGE.name}")
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is not the code")
    args = parser.parse_args(argv)
    g = graph(imports(modules()))
    found = cycles(g)
    if found:
        print("\n".join(explain(c, g) for c in found), file=sys.stderr)
        return 1
    if args.write:
        write()
    elif args.check:
        if page_picture() != picture():
            print(f"{PAGE} does not show the floors of the code: run python bench/floors.py --write")
            return 1
    else:
        print(picture(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
