"""Motion where it carries meaning (display/motion.py, issue 23 Build 6): its state at given
times on an injected clock (no sleeps), the kit's parts that move (turn banner, tiles, "+N"),
input handled while something moves, and frames drawn only while something moves."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
from typing import Any

import pygame
import pytest

from companion.display import kit
from companion.display.app import App
from companion.display.layout import Fonts, Painter
from companion.display.motion import FLOAT_S, FRAME_S, LONGEST_S, SLIDE_S, Motion, ease
from companion.display.snapshot import render, ui_for, view_of
from companion.display.state import Ui
from companion.games.kilo import samples as kilo_samples
from companion.games.kilo.events import NewKiloGame
from companion.hardware.config import HardwareConfig
from companion.inputs.keyboard import KeyboardSource
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import painter_of
from tests.app_helpers import press_key as key

PLAYERS = ["Alice", "Bruno", "Chloé"]


# --- the clock -----------------------------------------------------------------------------------


def test_a_change_moves_for_its_length_then_rests() -> None:
    m = Motion()
    m.frame(10.0)
    assert m.changed("k", 1, 0.3) is None  # first seen: nothing to move from
    assert m.next_frame_in() is None
    m.frame(11.0)
    assert m.changed("k", 2, 0.3) == (0.0, 1)  # changed: starts from the old value
    assert m.next_frame_in() == pytest.approx(FRAME_S)
    m.frame(11.15)
    moving = m.changed("k", 2, 0.3)
    assert moving is not None
    k, old = moving
    assert old == 1 and k == pytest.approx(ease(0.5)) and 0.5 < k < 1  # fast, then settling
    m.frame(11.3)
    assert m.changed("k", 2, 0.3) is None  # over: drawn at rest
    assert m.next_frame_in() is None  # and no more frames


def test_nothing_lasts_longer_than_400_ms() -> None:
    m = Motion()
    m.frame(0.0)
    m.changed("k", 1, 5.0)
    m.frame(1.0)
    m.changed("k", 2, 5.0)
    m.frame(1.0 + LONGEST_S)
    assert m.changed("k", 2, 5.0) is None and m.next_frame_in() is None


def test_no_clock_nothing_moves() -> None:
    """A snapshot or a test render has no clock: every change is drawn at rest."""
    m = Motion()
    for v in (1, 2, 3):
        m.frame(None)
        assert m.changed("k", v, 0.3) is None
    assert m.next_frame_in() is None


def test_an_overlay_holds_changes_until_it_is_gone() -> None:
    m = Motion()
    m.frame(0.0)
    m.changed("k", 1, 0.3)
    m.frame(0.5, quiet=True)  # the drawn card covers the screen: the new score waits
    assert m.changed("k", 2, 0.3) is None
    m.frame(2.0)
    assert m.changed("k", 2, 0.3) == (0.0, 1)  # seen when the screen shows again


# --- the kit's parts ---------------------------------------------------------------------------


def painter(m: Motion, now: float) -> Painter:
    pygame.font.init()
    m.frame(now)
    p = Painter(pygame.Surface((800, 480)), FONTS)
    p.motion = m
    return p


FONTS = Fonts()


def test_the_turn_banner_slides_to_the_next_player() -> None:
    m = Motion()
    box = pygame.Rect(8, 64, 784, 70)
    players = ("Alice", "Bruno", "Chloé")
    rest = kit.turn_banner(painter(m, 0.0), box, 0, "Alice", players, "fr")
    moving = kit.turn_banner(painter(m, 1.0), box, 1, "Bruno", players, "fr")
    assert moving.x > rest.x + 100  # Bruno's name comes in from the right...
    later = kit.turn_banner(painter(m, 1.1), box, 1, "Bruno", players, "fr")
    assert rest.x < later.x < moving.x  # ... and slides to where a name stands
    landed = kit.turn_banner(painter(m, 1.31), box, 1, "Bruno", players, "fr")
    assert landed.x == rest.x and m.next_frame_in() is None


def standings(order: list[tuple[str, int]]) -> list[kit.Standing]:
    """Rows by place, each player at their own seat."""
    seats = ("Alice", "Bruno", "Chloé")
    return [
        kit.Standing(seats.index(who), who, place, score, "kg") for place, (who, score) in enumerate(order, 1)
    ]


def name_rect(p: Painter, who: str) -> pygame.Rect:
    return next(r.rect for r in p.texts if r.kind == "name" and r.who == who)


def test_rows_glide_to_their_new_places_and_a_changed_score_floats() -> None:
    m = Motion()
    area = pygame.Rect(8, 64, 784, 400)
    players = ("Alice", "Bruno", "Chloé")
    before = painter(m, 0.0)
    kit.tiles(before, area, standings([("Alice", 0), ("Bruno", 5), ("Chloé", 9)]), players, "fr", cols=1)
    assert not m.drawn
    # Chloé flushes: first place, from the third row to the first.
    after = [("Chloé", 0), ("Alice", 0), ("Bruno", 5)]
    # The change is seen at 1.0 ...
    kit.tiles(painter(m, 1.0), area, standings(after), players, "fr", cols=1)
    mid = painter(m, 1.1)  # ... and drawn moving 100 ms later
    kit.tiles(mid, area, standings(after), players, "fr", cols=1)
    old_y, new_y = name_rect(before, "Chloé").y, name_rect(before, "Alice").y
    assert new_y < name_rect(mid, "Chloé").y < old_y
    assert [text for text, _ in m.drawn] == ["\u22129"]  # her −9 floats up from her kilos
    assert m.next_frame_in() is not None
    done = painter(m, 1.5)
    kit.tiles(done, area, standings(after), players, "fr", cols=1)
    assert name_rect(done, "Chloé").y == new_y and not m.drawn
    assert m.next_frame_in() is None


# --- the loop ------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class KeyClock:
    def __init__(self) -> None:
        self.t = 1_000_000_000

    def __call__(self) -> int:
        self.t += 25_000_000
        return self.t


def keyboard(name: str, n_seats: int) -> KeyboardSource:
    return KeyboardSource.from_config(HardwareConfig().keyboard, n_seats, own_window=False, now_ns=KeyClock())


def test_a_draw_floats_its_kilos_without_holding_up_input_then_the_loop_sleeps(
    journal: Journal, screen: pygame.Surface
) -> None:
    clock = Clock()
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=2), {"input": "keyboard"})
    app = App(screen, journal, table, Ui(), source_name="keyboard", source_factory=keyboard, now=clock)
    app.step()
    for k in (pygame.K_1, pygame.K_2, pygame.K_3):  # Chloé slaps last
        key(app, k)
    key(app, pygame.K_RETURN)  # a valid claim
    key(app, pygame.K_RETURN)  # on to the card entry
    key(app, pygame.K_9)
    key(app, pygame.K_RETURN)  # Chloé drew a 9: +9 kg, the card shown big for a moment
    assert app.ui.anim_start is not None
    clock.t += 2.0  # the drawn card has gone: the table shows, Chloé's kilos changed
    app.step()
    assert app.last_screen == "table"
    assert [text for text, _ in app.ui.motion.drawn] == ["+9"]
    first = app.ui.motion.drawn[0][1]
    frames = app.frames
    clock.t += 0.1
    app.step()  # no input: the float alone draws the frame
    assert app.frames == frames + 1
    assert app.ui.motion.drawn[0][1].y < first.y  # it rises
    clock.t += 0.05
    key(app, pygame.K_p)  # a key in the middle of it is handled at once
    assert app.last_screen == "pile"
    key(app, pygame.K_t)
    clock.t += FLOAT_S
    app.step()  # the float has ended: one frame at rest...
    assert not app.ui.motion.drawn and app.tick_at is None
    frames = app.frames
    for _ in range(3):
        clock.t += 1.0
        app.step()
    assert app.frames == frames  # ... then nothing is drawn while nothing moves
    assert "Chloé" in [r.who for r in painter_of(app).texts]


# --- the turn banner on every screen where who acts changes ------------------------------------


def _kilo_after(n_verdicts: int) -> Any:
    """Kilo's midgame sample up to its ``n_verdicts``-th verdict: each slap lost by another."""
    events = kilo_samples.midgame()
    cut = [i for i, e in enumerate(events) if e["type"] == "verdict"][n_verdicts - 1]
    return replay(json.dumps(e, ensure_ascii=False) for e in events[: cut + 1])


def _name_x(screen: str, engine: Any, ui: Ui, now: float | None) -> int:
    ui.now = now
    r = render(screen, view_of(engine), (800, 480), "fr", ui)
    p: Painter = r.painter  # type: ignore[assignment]
    who = view_of(engine).owed[0]
    if screen == "card":  # the kit's turn banner names them
        return next(x.rect.x for x in p.texts if x.kind == "headline")
    # The first time the name is drawn, at the top (the slap screen names them again in its
    # timeline, which does not move).
    return next(x.rect.x for x in p.texts if x.kind == "name" and x.who == who)


@pytest.mark.parametrize("screen", ["slap", "card"])
def test_the_kilo_name_of_who_draws_slides_in_when_it_changes(screen: str) -> None:
    """Kilo's slap screen (who lost, who draws) and card screen (the turn banner: who draws)
    name whoever must act next: when that changes the name slides in, then rests, and no frame
    is asked for once it is still."""
    first, second = _kilo_after(1), _kilo_after(2)
    assert view_of(first).owed != view_of(second).owed  # Chloé lost the first slap, Dédé the second
    rest = _name_x(screen, second, ui_for(second, "fr"), None)  # no clock: drawn at rest
    ui = ui_for(first, "fr")
    _name_x(screen, first, ui, 0.0)
    start = _name_x(screen, second, ui, 1.0)
    assert start > rest + 100  # Dédé's name comes in from the right ...
    mid = _name_x(screen, second, ui, 1.1)
    assert rest < mid < start  # ... slides ...
    assert ui.motion.next_frame_in() is not None
    end = _name_x(screen, second, ui, 1.0 + SLIDE_S + 0.01)
    assert end == rest  # ... and lands where it is drawn at rest
    assert ui.motion.next_frame_in() is None  # still: no frame asked for
    assert _name_x(screen, second, ui, 5.0) == rest and ui.motion.next_frame_in() is None
