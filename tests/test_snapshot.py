"""``companion snapshot``: PNGs for any screen after a table log, and clear refusals."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from companion.cli import main
from companion.games.kilo.samples import write_log


@pytest.mark.parametrize("screen,lang,size", [
    ("table", "fr", "800x480"), ("slap", "en", "1280x720"), ("card", "fr", "720x1280"),
    ("history", "en", "1920x1080"),
])
def test_writes_the_png(tmp_path: Path, screen: str, lang: str, size: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log("midgame", tmp_path)
    out = tmp_path / f"{screen}.png"
    assert main(["snapshot", screen, "--log", str(log), "--size", size, "--lang", lang,
                 "--out", str(out)]) == 0
    w, h = (int(x) for x in size.split("x"))
    assert pygame.image.load(str(out)).get_size() == (w, h)
    assert str(out) in capsys.readouterr().out


def test_without_a_log_shows_the_setup(tmp_path: Path) -> None:
    out = tmp_path / "setup.png"
    assert main(["snapshot", "setup", "--out", str(out)]) == 0
    assert out.exists()


@pytest.mark.parametrize("args,words", [
    (["nosuch"], "écran inconnu"),
    (["table", "--size", "800by480"], "--size"),
    (["table", "--size", "10x10"], "--size"),
    (["table", "--lang", "klingon"], "langue inconnue"),
    (["table", "--log", "/nonexistent/game.jsonl"], "impossible de lire"),
])
def test_bad_requests_are_explained(tmp_path: Path, args: list[str], words: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["snapshot", *args, "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert not (tmp_path / "x.png").exists()


def test_a_broken_log_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], '
                   '"rounds": 2}\n{"type": "draw", "player": "A", "card": "KH"}\n',
                   encoding="utf-8")
    assert main(["snapshot", "card", "--log", str(log), "--lang", "en",
                 "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err.startswith("line 2:")
