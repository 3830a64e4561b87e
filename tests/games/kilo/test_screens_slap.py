"""Kilo de merde's slap and verdict screens, read as a table reads them (issue 11, points 4-8):
the loser's row as big as the headline, the gap to the press before on every bar, a countdown
of the open window, and a false slap asked one question at a time. Computed from what the
painter drew (``painter.texts``, ``painter.controls``)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import itertools
import json
import re
from typing import Any

import pygame
import pytest

from companion.display import audit
from companion.display.app import App
from companion.display.layout import Painter, TextRecord
from companion.display.snapshot import SIZES, render, ui_for, view_of
from companion.display.state import Ui
from companion.display.theme import BAD
from companion.games.kilo.actions import Toggle
from companion.games.kilo.events import NewKiloGame
from companion.games.kilo.samples import SAMPLES
from companion.games.kilo.screens import KiloScreens
from companion.games.kilo.ui_state import kilo_ui
from companion.hardware.config import HardwareConfig
from companion.i18n import ms
from companion.inputs.keyboard import KeyboardSource
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import press_key as key
from tests.app_helpers import touch
from tests.display.test_audit_legibility import long_names

PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]


def engine_of(sample: str, long: bool = False) -> Any:
    events = SAMPLES[sample]()
    if long:
        events = long_names(events)
    return replay(json.dumps(e, ensure_ascii=False) for e in events)


def painted(screen: str, engine: Any, size: tuple[int, int], lang: str = "fr", **ui_fields: Any) -> Painter:
    ui = ui_for(engine, lang)
    for name, value in ui_fields.items():
        setattr(ui, name, value)
    r = render(screen, view_of(engine), size, lang, ui, audit=True)
    return r.painter  # type: ignore[return-value]


def content(p: Painter) -> list[TextRecord]:
    """The texts under the frame's bar."""
    top = max(bar.bottom for bar in p.chrome)
    return [r for r in p.texts if r.rect.top >= top]


# --- the slap result ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("long", [False, True], ids=["short", "long"])
@pytest.mark.parametrize("sample", ["midgame", "finished", "busy"])
def test_the_losers_row_is_as_big_as_the_headline(sample: str, long: bool, size: tuple[int, int]) -> None:
    engine = engine_of(sample, long)
    loser = engine.last_slap.losers[0]
    p = painted("slap", engine, size)
    heads = [r for r in content(p) if r.kind == "headline"]
    assert len(heads) == 1
    head = heads[0]
    margin = ms(engine.last_slap.margin_us, "fr")
    assert margin in head.text  # "perd de 3,2 ms": the margin is in the headline itself
    names = [r for r in content(p) if r.kind == "name" and r.who == loser]
    assert max(r.cap for r in names) >= head.cap
    # ... and it is the biggest thing on the screen.
    assert head.cap >= max(r.cap for r in p.texts)
    assert not audit.problems(p, engine.players)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_bar_shows_the_gap_to_the_press_before(lang: str) -> None:
    engine = engine_of("midgame")
    slap = engine.last_slap
    stamps = [t for _, t in slap.order]
    expected = ["+" + ms(b - a, lang) for a, b in itertools.pairwise(stamps)]
    for size in SIZES:
        p = painted("slap", engine, size, lang)
        gaps = [r for r in content(p) if r.text.startswith("+") and r.text.endswith("ms")]
        assert [r.text for r in gaps] == expected  # 180, 50, 30.5 then the deciding 3.2 ms
        deciding = gaps[-1]
        assert deciding.text == "+" + ms(slap.margin_us, lang)
        assert deciding.color == BAD
        # The deciding gap is the slap's score (far type); the others are read like any line.
        assert [r for r in content(p) if r.kind == "score"] == [deciding]
        assert all(deciding.cap > r.cap for r in gaps[:-1]), size  # it stands out


def test_portrait_uses_its_height() -> None:
    engine = engine_of("midgame")
    p = painted("slap", engine, (720, 1280))
    rows = [box for box, _parent in p.boxes]
    assert max(box.bottom for box in rows) > 0.75 * p.screen.height
    landscape = painted("slap", engine, (1280, 720))
    # The same screen in portrait sets the players' names at least as big as in landscape.
    cap = max(r.cap for r in p.texts if r.kind == "name" and r.who == "Alice")
    assert cap >= max(r.cap for r in landscape.texts if r.kind == "name" and r.who == "Alice")


# --- the live table ----------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class KeyClock:
    """Keys 25 ms apart: never a tie at the keyboard's 20 ms resolution."""

    def __init__(self) -> None:
        self.t = 1_000_000_000

    def __call__(self) -> int:
        self.t += 25_000_000
        return self.t


def keyboard(name: str, n_seats: int) -> KeyboardSource:
    return KeyboardSource.from_config(HardwareConfig().keyboard, n_seats, own_window=False, now_ns=KeyClock())


def make_app(journal: Journal, screen: pygame.Surface, clock: FakeClock, lang: str = "fr") -> App:
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=2), {"input": "keyboard"})
    app = App(
        screen, journal, table, Ui(lang=lang), source_name="keyboard", source_factory=keyboard, now=clock
    )
    app.step()
    return app


def seconds_left(app: App) -> int:
    assert app.painter is not None
    for rec in app.painter.texts:
        match = re.match(r"Encore (\d+) s", rec.text) or re.match(r"(\d+) s left", rec.text)
        if match:
            return int(match[1])
    raise AssertionError("no countdown on screen: " + repr([r.text for r in app.painter.texts]))


def test_the_open_window_counts_down(journal: Journal, screen: pygame.Surface) -> None:
    clock = FakeClock()
    app = make_app(journal, screen, clock)
    assert app.tick_at is None  # nothing open: no timer, the loop sleeps on its inputs
    key(app, pygame.K_3)  # Chloé slaps: the window opens (5 s at the default rules)
    key(app, pygame.K_1)
    assert app.last_screen == "verdict"
    first = seconds_left(app)
    assert first == 5
    assert app.tick_at is not None and app.tick_at - clock.t <= 0.25
    frames = app.frames
    clock.t += 2.3
    app.step()  # no input at all: the countdown's timer alone draws the frame
    assert app.frames == frames + 1
    later = seconds_left(app)
    assert later < first and later == 3
    assert any("2 n\u2019ont pas tapé" in r.text for r in app.painter.texts)
    clock.t += 3.0  # past the window's end
    app.step()
    texts = [r.text for r in app.painter.texts]
    assert any("Fenêtre fermée" in x for x in texts)
    assert app.tick_at is None  # closed: nothing moves any more, no more timed frames
    frames = app.frames
    clock.t += 1.0
    app.step()
    assert app.frames == frames


def test_no_timer_once_everyone_has_pressed(journal: Journal, screen: pygame.Surface) -> None:
    clock = FakeClock()
    app = make_app(journal, screen, clock, lang="en")
    for k in (pygame.K_2, pygame.K_1, pygame.K_3, pygame.K_4):
        key(app, k)
    texts = [r.text for r in app.painter.texts]  # type: ignore[union-attr]
    assert "Everyone has pressed" in texts
    assert app.tick_at is None


def test_redraw_in_is_none_without_an_open_window() -> None:
    engine = engine_of("midgame")
    ui = ui_for(engine, "fr")
    ui.window_open_at = 0.0
    assert KiloScreens().redraw_in(view_of(engine), ui, 1.0) is None
    engine = engine_of("verdict")
    view = view_of(engine)
    assert KiloScreens().redraw_in(view, ui, 1.0) == pytest.approx(0.25)
    assert KiloScreens().redraw_in(view, ui, 4.9) == pytest.approx(0.1)
    assert KiloScreens().redraw_in(view, ui, 5.0) is None


def test_the_countdown_is_legible_everywhere() -> None:
    for sample in ("verdict", "busy"):
        engine = engine_of(sample, long=True)
        for size in SIZES:
            for lang in ("fr", "en"):
                for now in (0.4, 3.1, 8.0):
                    p = painted("verdict", engine, size, lang, window_open_at=0.0, now=now)
                    assert not audit.problems(p, engine.players), (size, lang, now)


# --- the false slap ----------------------------------------------------------------------------


def questions(app: App) -> list[str]:
    assert app.painter is not None
    return [r.text for r in app.painter.texts if "?" in r.text]


def tile(app: App, name: str) -> pygame.Rect:
    assert app.painter is not None
    return next(c.rect for c in app.painter.controls if c.action == Toggle(name))


def name_cap(app: App, name: str) -> int:
    assert app.painter is not None
    return max(r.cap for r in app.painter.texts if r.kind == "name" and r.who == name)


def test_the_false_slap_asks_one_question_at_a_time(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, FakeClock())
    key(app, pygame.K_3)
    key(app, pygame.K_1)
    key(app, pygame.K_2)
    asked = questions(app)  # the verdict: the top bar says what goes on, the screen asks
    assert len(asked) == 1 and "carré" in asked[0]
    key(app, pygame.K_ESCAPE)  # false slap: who slapped in error? (the claimant is chosen)
    assert kilo_ui(app.ui).picking and kilo_ui(app.ui).penalized == ["Chloé"]
    asked = questions(app)
    assert len(asked) == 1 and "erreur" in asked[0]
    texts = [r.text for r in app.painter.texts]  # type: ignore[union-attr]
    assert any("1 … 0" in x and "ajouter ou retirer un joueur" in x for x in texts)
    # The player who draws gets more room than the bystanders, and bigger type.
    for other in ("Alice", "Bruno"):
        assert tile(app, "Chloé").height > tile(app, other).height
        assert tile(app, "Chloé").width >= tile(app, other).width
        assert name_cap(app, "Chloé") > name_cap(app, other)
    key(app, pygame.K_1)  # Alice slapped in error too: her tile grows
    assert kilo_ui(app.ui).penalized == ["Chloé", "Alice"]
    assert tile(app, "Alice").height > tile(app, "Bruno").height
    assert name_cap(app, "Alice") > name_cap(app, "Bruno")
    key(app, pygame.K_4)  # Dédé did not press: the screen says why nothing happens
    assert kilo_ui(app.ui).penalized == ["Chloé", "Alice"]
    assert app.ui.message is not None and "Dédé" in app.ui.message.fr
    touch(app, Toggle("Chloé"))  # a touch removes her again
    assert kilo_ui(app.ui).penalized == ["Alice"]
    assert tile(app, "Chloé").height < tile(app, "Alice").height
    key(app, pygame.K_RETURN)
    game = app.game
    assert game is not None and game.owed_draws == ("Alice",)
    assert game.last_slap is not None and not game.last_slap.valid
    assert app.last_screen == "slap"
    assert not audit.problems(app.painter, game.players)  # type: ignore[arg-type]


def test_confirming_with_nobody_chosen_says_so(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, FakeClock(), lang="en")
    key(app, pygame.K_3)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_3)  # Chloé removed: nobody draws
    assert kilo_ui(app.ui).penalized == []
    key(app, pygame.K_RETURN)
    game = app.game
    assert game is not None and game.awaiting == "verdict"  # nothing judged
    assert app.ui.message is not None and "Nobody" in app.ui.message.en
    key(app, pygame.K_ESCAPE)  # back to the question
    assert not kilo_ui(app.ui).picking
    assert len(questions(app)) == 1
