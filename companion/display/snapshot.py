"""``companion snapshot``: any screen, for the state after a table log, drawn to a PNG headless.

No window is opened: pygame draws into a plain surface, so this runs on a server or in CI.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.display.state import SetupForm, Ui
from companion.errors import CompanionError
from companion.table.registry import DEFAULT_GAME
from companion.text import OsReason, Text

if TYPE_CHECKING:
    from companion.display.layout import Fonts, Painter

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1280, 720), (1920, 1080), (720, 1280))
MIN_SIZE, MAX_SIZE = (320, 240), (7680, 4320)


class SnapshotError(CompanionError, ValueError):
    """A snapshot request that cannot be drawn (bad size, screen, language or log)."""


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", text or "")
    if match:
        w, h = int(match[1]), int(match[2])
        if MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]:
            return w, h
        if MIN_SIZE[0] <= h <= MAX_SIZE[0] and MIN_SIZE[1] <= w <= MAX_SIZE[1]:
            return w, h  # portrait
    raise SnapshotError("cli.bad_size", value=text)


def screens(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """Every screen of ``game``: its own, then the generic ones."""
    headless_pygame()
    from companion.display.game_ui import screens_for
    from companion.display.screens import GENERIC_SCREENS

    return (*screens_for(game).screens, *GENERIC_SCREENS)


def check_screen(name: str, game: str = DEFAULT_GAME) -> str:
    known = screens(game)
    if name not in known:
        choices = ", ".join(known)
        raise SnapshotError(
            "cli.bad_screen",
            value=name,
            choices=choices,
        )
    return name


def check_lang(lang: str) -> str:
    if lang not in ("fr", "en"):
        raise SnapshotError("cli.bad_lang", value=lang)
    return lang


def headless_pygame() -> None:
    """Fonts and surfaces only: no window, no audio device."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()


@dataclass
class Rendered:
    screen: str
    surface: object  # pygame.Surface
    painter: Painter


def ui_for(game: Any, lang: str) -> Ui:
    """The screen's state for a game seen from outside (a log): its settings in the form."""
    from companion.display.game_ui import screens_for

    ui = Ui(lang=lang)
    if game is not None:
        ui.game = game.game
        ui.setup = SetupForm(game=game.game, players=list(game.players), input="keyboard")
        screens_for(game.game).fill_form(ui.setup, game)
    return ui


def view_of(game: Any) -> Any:
    from companion.display.game_ui import screens_for

    return screens_for(game.game).build_view(game) if game is not None else None


def render(
    screen: str,
    view: Any,
    size: tuple[int, int],
    lang: str,
    ui: Ui | None = None,
    anim_phase: float | None = None,
    audit: bool = False,
) -> Rendered:
    headless_pygame()
    import pygame

    from companion.display.layout import Painter
    from companion.display.screens import draw

    surface = pygame.Surface(size)
    painter = Painter(surface, _fonts(), audit=audit)
    ui = ui or Ui(lang=lang)
    ui.lang = lang
    name = draw(painter, view, ui, check_screen(screen, ui.game), anim_phase)
    return Rendered(name, surface, painter)


_FONTS: list[Fonts] = []


def _fonts() -> Fonts:
    from companion.display.layout import Fonts

    if not _FONTS:
        _FONTS.append(Fonts())
    return _FONTS[0]


def snapshot(
    screen: str, log: Path | None, size: tuple[int, int], lang: str, out: Path, rotate: int = 0
) -> Path:
    """``screen`` drawn for the game of ``log`` into the PNG ``out``, of ``size`` (the display's:
    with ``rotate``, laid out turned as on a display mounted so)."""
    from companion.table.fold import replay

    check_lang(lang)
    game: Any = None
    if log is not None:
        try:
            with open(log, "rb") as handle:  # decoded line by line: a bad byte names its line
                engine = replay(handle)
        except OSError as err:
            raise SnapshotError("cli.read_log", path=log, why=OsReason(err)) from None
        game = engine
    check_screen(screen, game.game if game is not None else DEFAULT_GAME)
    view = view_of(game)
    ui = ui_for(game, lang)
    from companion.display.rotation import logical_size, turn

    rendered = render(screen, view, logical_size(size, rotate), lang, ui)
    import pygame

    if not out.parent.is_dir():
        # SDL's own words ("Couldn't open ...: No such file or directory") are English and do
        # not say what to do.
        raise SnapshotError(
            "snapshot.snapshot",
            out=out,
            parent=out.parent,
        )
    try:
        pygame.image.save(turn(rendered.surface, rotate), str(out))
    except (pygame.error, OSError) as err:
        raise SnapshotError("cli.write_failed", path=out, why=err) from None
    return out


# --- the docs' screenshots, from each game's sample logs ---------------------------------------

DOC_SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (800, 480))


def sample_lines(events: list[dict[str, object]]) -> list[str]:
    import json

    return [json.dumps(e, ensure_ascii=False) + "\n" for e in events]


def write_sample(events: list[dict[str, object]], path: Path) -> Path:
    path.write_text("".join(sample_lines(events)), encoding="utf-8")
    return path


def samples_main(argv: list[str], module: str, draw: Callable[[Path], None]) -> int:
    """A samples module's command line: ``draw`` into its one argument (docs/screens when none),
    or say how to call it: ``--help`` answered (0), anything else starting with "-" refused (2;
    it was taken as a folder named "--help" and filled with pictures)."""
    usage = f"usage: python -m {module} [FOLDER]   (default docs/screens: the docs' pictures)"
    if argv and argv[0] in ("-h", "--help"):
        print(usage)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(f"{usage}\nnot a folder: {' '.join(argv)}", file=sys.stderr)
        return 2
    draw(Path(argv[0]) if argv else Path("docs/screens"))
    return 0


def doc_screens(
    samples: dict[str, Any],
    doc_sample: dict[str, str | None],
    out: Path,
    prefix: str = "",
    special: Any = None,
) -> None:
    """Every screen of ``doc_sample`` (screen -> the sample that shows it best) in both languages
    and the docs' sizes, as ``out/<prefix><screen>-<lang>-<w>x<h>.png``; ``special(screen, lang,
    size, path)`` draws the screens that need more than a log (a half-entered hand)."""
    import tempfile

    from companion.paths import ensure_dir

    ensure_dir(
        out, what=Text.pair(en="the screenshots folder", fr="le dossier des captures"), error=CompanionError
    )
    with tempfile.TemporaryDirectory() as tmp:
        logs = {
            name: write_sample(make(), Path(tmp) / f"{prefix}{name}.jsonl") for name, make in samples.items()
        }
        for screen, sample in doc_sample.items():
            for lang in ("fr", "en"):
                for w, h in DOC_SIZES:
                    path = out / f"{prefix}{screen}-{lang}-{w}x{h}.png"
                    if special is not None and special(screen, lang, (w, h), path):
                        continue
                    snapshot(screen, logs[sample] if sample else None, (w, h), lang, path)
