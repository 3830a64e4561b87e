"""No game is named outside its package (issue 39): the registry's lines, the games' packages and
the catalogue (``companion/i18n.py``, whose texts may name a game) are the only places that say
"kilo", "cinq-rois", "treize", a game's title or its classes. Everything else asks the registry
or the game (``games/base.py``'s ``Game`` and ``GameEngine``), so adding a game touches its
package and its registry line only (docs/architecture.md, "Adding a game"). The phones' pages
(``companion/web/static/``: scripts and pages) are read too: the server sends them what a game
needs (its part of the page under the key of the view that draws it, its scorer's events, its
units), and they draw it by kind, never by the game's name.

Code is what is read: identifiers, imported modules and string literals. Comments and docstrings
are prose, and may give a game as an example."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import companion.i18n
from companion.games import GAMES, GameInfo
from tests.conftest import ROOT

PACKAGE = ROOT / "companion"
# The games' packages, the registry's lines (wherever the floors put them) and the catalogue.
ALLOWED = (
    PACKAGE / "games",
    Path(sys.modules[GameInfo.__module__].__file__ or ""),
    Path(companion.i18n.__file__ or ""),
)


def _words(identifier: str) -> list[str]:
    """``KiloGame`` -> kilo, game; ``cinq_rois.view`` -> cinq, rois, view."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", identifier)
    return [w.lower() for w in re.split(r"[\W_]+", spaced) if w]


def _names_of_games() -> tuple[set[str], tuple[tuple[str, ...], ...]]:
    """Every way the code could name a game, from the registry itself: its name in the table log,
    its package's folder, the words of its title."""
    single: set[str] = set()
    runs: set[tuple[str, ...]] = set()
    for info in GAMES.values():
        for form in (info.name, info.package.rsplit(".", 1)[-1]):
            words = tuple(_words(form))
            (single.add(words[0]) if len(words) == 1 else runs.add(words))
        title = [w for w in _words(info.title) if w not in ("les", "de", "la", "le")]
        runs.add(tuple(title))
    return single, tuple(sorted(runs))


SINGLE, RUNS = _names_of_games()


def names_a_game(text: str) -> bool:
    words = _words(text)
    if SINGLE.intersection(words):
        return True
    return any(
        tuple(words[i : i + len(run)]) == run for run in RUNS for i in range(len(words) - len(run) + 1)
    )


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def code_texts(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every identifier, imported module and string literal but docstrings."""
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            yield line, node.arg
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module
        elif isinstance(node, ast.alias):
            yield line, node.name + " " + (node.asname or "")


def hits(root: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """(file, line, text) of every game named in code outside the places allowed to."""
    out = []
    for path in sorted(root.rglob("*.py")):
        if any(path == a or a in path.parents for a in ALLOWED):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in code_texts(tree):
            if names_a_game(text):
                out.append((path.relative_to(ROOT).as_posix(), line, text))
    return sorted(out)


STATIC = PACKAGE / "web" / "static"
# A script's or a page's comments (prose, left aside), strings and words.
_WEB_TOKEN = re.compile(
    r"//[^\n]*|/\*.*?\*/|<!--.*?-->|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`|[A-Za-z_$][\w$-]*",
    re.S,
)


def web_texts(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every identifier, word and string literal of a script or a page, comments
    aside (``//``, ``/* */``, ``<!-- -->``)."""
    for match in _WEB_TOKEN.finditer(source):
        token = match.group()
        if token.startswith(("//", "/*", "<!--")):
            continue
        line = source.count("\n", 0, match.start()) + 1
        yield line, token[1:-1] if token[0] in "\"'`" else token


def web_hits(root: Path = STATIC) -> list[tuple[str, int, str]]:
    """(file, line, text) of every game named in the phones' scripts and pages."""
    out = []
    for path in sorted([*root.glob("*.js"), *root.glob("*.html")]):
        for line, text in web_texts(path.read_text(encoding="utf-8")):
            if names_a_game(text):
                out.append((path.relative_to(ROOT).as_posix(), line, text))
    return out


def test_the_scanner_knows_every_form_of_a_games_name() -> None:
    for text in (
        "kilo",
        "KiloGame",
        "companion.games.cinq_rois.view",
        "cinq-rois",
        "CinqRoisScreens",
        "Les Cinq Rois",
        "treize",
        "13 feuilles",
        "kilo_games",
        "partie de Kilo",
    ):
        assert names_a_game(text), text
    for text in ("kilos", "kilobytes", "_kilos_chart", "cinq", "rois", "feuilles", "13"):
        assert not names_a_game(text), text


def test_comments_and_docstrings_are_prose_identifiers_and_strings_are_code() -> None:
    tree = ast.parse('"""Kilo de merde."""\n# kilo\nx = "treize"\ndef kilo_f(): """KiloGame"""\n')
    assert sorted(t for _, t in code_texts(tree) if names_a_game(t)) == ["kilo_f", "treize"]


def test_no_game_is_named_outside_its_package_and_the_catalogue() -> None:
    found = [f"{f}:{line}: {text!r}" for f, line, text in hits()]
    assert not found, (
        "a game named outside companion/games/ and the catalogue (ask the registry or the game, "
        "games/base.py):\n" + "\n".join(found)
    )


def test_the_web_scanner_reads_code_and_leaves_comments() -> None:
    source = (
        "// Kilo de merde\n/* treize */ <!-- cinq-rois -->\n"
        'if (page.game === "kilo") drawTreize(page.turns);\n'
        "x = 'Les Cinq Rois' + `13 feuilles`; entryKilo: 1"
    )
    found = sorted(t for _, t in web_texts(source) if names_a_game(t))
    assert found == ["13 feuilles", "Les Cinq Rois", "drawTreize", "entryKilo", "kilo"]


def test_the_phones_pages_name_no_game() -> None:
    assert sorted(p.name for p in STATIC.glob("*.js"))  # the scripts are there to be read
    found = [f"{f}:{line}: {text!r}" for f, line, text in web_hits()]
    assert not found, (
        "a game named in the phones' pages (send what the page needs from the game's feed, "
        "under the key of the view that draws it):\n" + "\n".join(found)
    )
