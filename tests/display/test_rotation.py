"""A screen mounted turned: the frame is the unturned layout turned (pixel for pixel), and a tap
on the display reaches the control drawn under the finger, at each angle."""

from __future__ import annotations

import os

from companion.display.app_actions import Menu, Nav

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from companion.display.rotation import ANGLES, Rotated, logical_size
from companion.display.snapshot import render, snapshot
from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig, render_toml
from companion.table.journal import Journal
from tests.conftest import ROOT, run_cli
from tests.display.test_app import make_app

PHYSICAL = (800, 480)


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def physical_point(logical: tuple[int, int], size: tuple[int, int], angle: int) -> tuple[int, int]:
    """Where pygame's own rotation puts one pixel of the laid-out frame: found by marking it,
    not by the formula under test."""
    frame = pygame.Surface(size)
    frame.fill((0, 0, 0))
    frame.set_at(logical, (255, 255, 255))
    turned = pygame.transform.rotate(frame, -angle)
    found = [
        (x, y)
        for x in range(turned.get_width())
        for y in range(turned.get_height())
        if turned.get_at((x, y))[:3] == (255, 255, 255)
    ]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("angle", ANGLES)
def test_a_snapshot_turned_is_the_layout_turned(angle: int, tmp_path: Path) -> None:
    out = tmp_path / f"setup-{angle}.png"
    snapshot("setup", None, PHYSICAL, "en", out, rotate=angle)
    shot = pygame.image.load(str(out))
    assert shot.get_size() == PHYSICAL
    unturned = render("setup", None, logical_size(PHYSICAL, angle), "en").surface
    expected = pygame.transform.rotate(unturned, -angle)  # type: ignore[arg-type]
    assert pixels(shot) == pixels(expected)
    if angle:
        assert pixels(shot) != pixels(render("setup", None, PHYSICAL, "en").surface)  # type: ignore[arg-type]


@pytest.mark.parametrize("angle", ANGLES)
def test_the_table_screen_turned_and_a_tap_where_a_button_shows(
    angle: int, journal: Journal, screen: pygame.Surface
) -> None:
    app = make_app(journal, screen, lang="en")
    app.turned = Rotated(angle)
    app.dirty = True
    app.step()
    canvas = app.turned.canvas(app.surface)
    assert canvas.get_size() == logical_size(PHYSICAL, angle)
    assert pixels(app.surface) == pixels(pygame.transform.rotate(canvas, -angle))
    assert app.painter is not None
    control = next(c for c in app.painter.controls if c.action == Menu())
    x, y = physical_point(control.rect.center, canvas.get_size(), angle)
    w, h = PHYSICAL
    # A finger on the touchscreen, as SDL reports it: a fraction of the display.
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN, x=x / w, y=y / h, touch_id=0, finger_id=0, pressure=1.0, dx=0, dy=0
        )
    )
    app.step()
    assert app.ui.menu
    # A mouse click where the menu shows the rules.
    control = next(c for c in app.painter.controls if c.action == Nav("rules"))
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEBUTTONDOWN,
            pos=physical_point(control.rect.center, canvas.get_size(), angle),
            button=1,
        )
    )
    app.step()
    assert app.ui.screen == "rules" and not app.ui.menu


def test_the_config_takes_a_quarter_turn_and_refuses_anything_else() -> None:
    assert HardwareConfig.from_toml("[display]\nrotate = 180\n").display.rotate == 180
    assert HardwareConfig().display.rotate == 0
    for bad in ("45", "true", '"90"', "-90"):
        with pytest.raises(ConfigError) as err:
            HardwareConfig.from_toml(f"[display]\nrotate = {bad}\n")
        assert "0, 90, 180 or 270" in err.value.en and "0, 90, 180 ou 270" in err.value.fr
        assert err.value.en.count(". ") == 0
    # --assign rewrites the file: the turn stays.
    kept = HardwareConfig.from_toml(render_toml(HardwareConfig.from_dict({"display": {"rotate": 270}})))
    assert kept.display.rotate == 270


def test_rotate_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "s.png"
    ok = run_cli(
        "snapshot", "setup", "--size", "800x480", "--rotate", "90", "--out", str(out), "--lang", "en"
    )
    assert ok.returncode == 0, ok.stderr
    assert pygame.image.load(str(out)).get_size() == (800, 480)
    bad = run_cli("play", "--rotate", "45", "--lang", "en")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "0, 90, 180 or 270" in bad.stderr
    config = tmp_path / "c.toml"
    config.write_text("[display]\nrotate = 30\n")
    refused = run_cli("play", "--config", str(config), "--lang", "en", env={"SDL_VIDEODRIVER": "dummy"})
    assert refused.returncode == 2 and "[display] rotate = 30 is refused" in refused.stderr
    assert ROOT.is_dir()
