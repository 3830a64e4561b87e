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


@pytest.mark.parametrize(
    "screen,lang,size",
    [
        ("table", "fr", "800x480"),
        ("slap", "en", "1280x720"),
        ("card", "fr", "720x1280"),
        ("history", "en", "1920x1080"),
    ],
)
def test_writes_the_png(
    tmp_path: Path, screen: str, lang: str, size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log("midgame", tmp_path)
    out = tmp_path / f"{screen}.png"
    assert (
        main(["snapshot", screen, "--log", str(log), "--size", size, "--lang", lang, "--out", str(out)]) == 0
    )
    w, h = (int(x) for x in size.split("x"))
    assert pygame.image.load(str(out)).get_size() == (w, h)
    assert str(out) in capsys.readouterr().out


def test_without_a_log_shows_the_setup(tmp_path: Path) -> None:
    out = tmp_path / "setup.png"
    assert main(["snapshot", "setup", "--out", str(out)]) == 0
    assert out.exists()


@pytest.mark.parametrize(
    "args,words",
    [
        (["nosuch"], "écran inconnu"),
        (["table", "--size", "800by480"], "--size"),
        (["table", "--size", "10x10"], "--size"),
        (["table", "--lang", "klingon"], "choix invalide"),
        (["table", "--log", "/nonexistent/game.jsonl"], "impossible de lire"),
    ],
)
def test_bad_requests_are_explained(
    tmp_path: Path, args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["snapshot", *args, "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert not (tmp_path / "x.png").exists()


def test_a_broken_log_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(
        '{"type": "new_game", "game": "kilo", "players": ["A", "B", "C"], '
        '"rounds": 2}\n{"type": "draw", "player": "A", "card": "KH"}\n',
        encoding="utf-8",
    )
    assert (
        main(["snapshot", "card", "--log", str(log), "--lang", "en", "--out", str(tmp_path / "x.png")]) == 2
    )
    assert capsys.readouterr().err.startswith("companion: line 2:")


# --- what the PNG shows -------------------------------------------------------------------------


def pixel_problems(png: pygame.Surface, reference: pygame.Surface, texts: list[object]) -> list[str]:
    """What is wrong with a written PNG, against the same screen drawn in the test.

    Stated tolerance: at most 0.5 % of pixels may differ from the reference by more than 24 in
    a channel (PNG is lossless: today nothing differs), and each text's box must hold at least
    2 % of pixels within 60 of the text's colour (the letters are there) and some within 60 of
    the colour under it (drawn on its background).
    """
    out: list[str] = []
    if png.get_size() != reference.get_size():
        return [f"size {png.get_size()} != {reference.get_size()}"]
    w, h = png.get_size()
    got = pygame.image.tobytes(png, "RGB")
    want = pygame.image.tobytes(reference, "RGB")
    if got != want:
        differ = sum(
            1 for i in range(0, len(got), 3) if max(abs(got[i + k] - want[i + k]) for k in range(3)) > 24
        )
        if differ > 0.005 * w * h:
            out.append(f"{differ} of {w * h} pixels differ from the reference render")

    def near(c: pygame.Color, target: tuple[int, int, int]) -> bool:
        return max(abs(c.r - target[0]), abs(c.g - target[1]), abs(c.b - target[2])) <= 60

    for rec in texts:
        rect = rec.rect.clip(png.get_rect())  # type: ignore[attr-defined]
        if rect.width * rect.height < 100:
            continue
        pixels = [
            png.get_at((x, y))
            for x in range(rect.left, rect.right, 2)
            for y in range(rect.top, rect.bottom, 2)
        ]
        ink = sum(near(c, rec.color) for c in pixels)  # type: ignore[attr-defined]
        if ink < 0.02 * len(pixels):
            out.append(f"{rec.text!r} is not in its box {rect}")  # type: ignore[attr-defined]
        bg = rec.bg  # type: ignore[attr-defined]
        if bg is not None and not any(near(c, bg) for c in pixels):
            out.append(f"{rec.text!r} is not on its background {bg}")  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("screen,lang,size", [("table", "fr", "800x480"), ("slap", "en", "1280x720")])
def test_the_png_shows_the_screen(tmp_path: Path, screen: str, lang: str, size: str) -> None:
    from companion.display.snapshot import parse_size, render, ui_for, view_of
    from companion.table.fold import replay

    log = write_log("midgame", tmp_path)
    out = tmp_path / f"{screen}.png"
    assert (
        main(["snapshot", screen, "--log", str(log), "--size", size, "--lang", lang, "--out", str(out)]) == 0
    )
    game = replay(log.read_text(encoding="utf-8").splitlines())
    drawn = render(screen, view_of(game), parse_size(size), lang, ui_for(game, lang), audit=True)
    texts = list(drawn.painter.texts)  # type: ignore[attr-defined]
    # The frame holds the table: every player's name is among what was drawn.
    assert set(game.players) <= {rec.who for rec in texts if rec.who}
    png = pygame.image.load(str(out))
    assert pixel_problems(png, drawn.surface, texts) == []  # type: ignore[arg-type]
    # The check itself: an all-black PNG fails it, and so does one with a name rubbed out.
    black = pygame.Surface(png.get_size())
    assert pixel_problems(black, drawn.surface, texts)  # type: ignore[arg-type]
    rubbed = png.copy()
    name = next(rec for rec in texts if rec.who)
    rubbed.fill(name.bg or (0, 0, 0), name.rect)
    found = pixel_problems(rubbed, drawn.surface, texts)  # type: ignore[arg-type]
    assert f"{name.text!r} is not in its box {name.rect.clip(png.get_rect())}" in found, found


@pytest.mark.parametrize("game", ["kilo", "cinq_rois", "treize"])
def test_a_samples_module_answers_help_and_refuses_an_option(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m companion.games.<game>.samples --help` took "--help" for the folder and filled
    it with pictures: it says how to call it instead, and refuses any other option."""
    import importlib

    samples = importlib.import_module(f"companion.games.{game}.samples")
    monkeypatch.chdir(tmp_path)
    assert samples.main(["--help"]) == 0
    assert "usage: python -m companion.games." in capsys.readouterr().out
    assert samples.main(["-x"]) == 2
    assert "not a folder: -x" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
