"""docs/architecture.md's "Adding a game" is a checklist a newcomer follows: every registered game
has each file it names, and its ``GAME`` provides every member of ``games.base.Game``. (That
nothing else names a game is tests/house/test_game_names.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import SetupError
from companion.games import GAMES, GameInfo, load
from companion.games.base import Game
from companion.table import registry
from tests.conftest import ROOT


def recipe() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("### Adding a game")
    return text[start : text.index("\n#", start + 1)]


def recipe_files() -> list[str]:
    """The package's files the checklist names (``games/<g>/rules.py`` -> ``rules.py``)."""
    return sorted(set(re.findall(r"`games/<g>/(\w+\.py)`", recipe())))


def protocol_members() -> list[str]:
    return sorted(n for n in vars(Game) if not n.startswith("_"))


def package(name: str) -> Path:
    return ROOT / Path(*GAMES[name].package.split("."))


def test_the_recipe_names_the_registry_line_and_the_files() -> None:
    assert "`companion/table/registry.py`" in recipe()
    assert {"events.py", "rules.py", "game.py", "feed.py", "view.py", "stats.py"} <= set(recipe_files())


def test_the_recipe_names_every_member_of_the_game_protocol() -> None:
    missing = [m for m in protocol_members() if f"`{m}" not in recipe()]
    assert not missing, f"docs/architecture.md's recipe does not say what these are: {missing}"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_has_the_recipes_files(name: str) -> None:
    folder = package(name)
    # A file may have grown into a folder of modules (screens/ for screens.py).
    missing = [f for f in recipe_files() if not (folder / f).is_file() and not (folder / f[:-3]).is_dir()]
    assert not missing, f"{folder.relative_to(ROOT)} lacks {missing} (docs/architecture.md, Adding a game)"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_provides_the_whole_protocol(name: str) -> None:
    game = load(name)
    assert game.name == name
    missing = [m for m in protocol_members() if not hasattr(game, m)]
    assert not missing, f"{name}'s GAME lacks {missing} (games/base.py's Game)"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_listings_read_the_games_stats_module_alone(name: str) -> None:
    """``registry.stats`` (the listings' way, without the engine) finds the ``Game``'s own."""
    assert registry.stats(name) is load(name).stats


@pytest.mark.parametrize("module", [None, "NOT_STATS = None\n"])
def test_a_game_without_its_statistics_fails_naming_the_file(
    module: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "newgame_" + ("bare" if module is None else "empty")  # one module each: imports are cached
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    if module is not None:  # a stats.py that defines no STATS
        (package / "stats.py").write_text(module)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(GAMES, "new", GameInfo("new", name, "Nouveau", 2, 4))
    with pytest.raises(SetupError) as err:
        registry.stats("new")
    assert f"{name}/stats.py must define STATS" in err.value.en
    assert f"{name}/stats.py doit définir STATS" in err.value.fr
