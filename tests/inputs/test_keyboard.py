"""The keyboard source, driven by real pygame events posted to SDL's dummy video driver."""

from __future__ import annotations

import os
import queue
from collections.abc import Iterator

import pygame
import pytest

from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig
from companion.inputs.base import InputEvent, InputSource, QueueItem
from companion.inputs.keyboard import FED_CLOCK, OWN_WINDOW_CLOCK, KeyboardSource, bindings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


@pytest.fixture
def source() -> Iterator[tuple[KeyboardSource, queue.Queue[QueueItem]]]:
    cfg = HardwareConfig.from_toml("")
    src = KeyboardSource.from_config(cfg.keyboard, n_seats=4)
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    yield src, q
    src.stop()


def get(q: queue.Queue[QueueItem]) -> InputEvent:
    ev = q.get(timeout=5)
    assert isinstance(ev, InputEvent)
    return ev


def test_is_an_input_source(source: tuple[KeyboardSource, queue.Queue[QueueItem]]) -> None:
    assert isinstance(source[0], InputSource)


def test_posted_keys_become_presses_in_order(
    source: tuple[KeyboardSource, queue.Queue[QueueItem]],
) -> None:
    _, q = source
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_3))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_KP1))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_3))  # auto-repeat: not a new press
    pygame.event.post(key(pygame.KEYUP, pygame.K_3))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_RETURN))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_z))  # not bound: ignored
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_BACKSPACE))
    got = [get(q) for _ in range(5)]
    assert [(e.role, e.seat, e.edge) for e in got] == [
        ("seat", 2, "press"),
        ("seat", 0, "press"),
        ("seat", 2, "release"),
        ("confirm", 0, "press"),
        ("undo", 0, "press"),
    ]
    assert all(e.clock == OWN_WINDOW_CLOCK and e.source == "keyboard" for e in got)
    stamps = [e.t_ns for e in got]
    assert stamps == sorted(stamps)


def test_fed_by_the_display_loop() -> None:
    stamps = iter(range(1000, 100_000, 1000))
    src = KeyboardSource(bindings(["a", "b"]), own_window=False, now_ns=lambda: next(stamps))
    q: queue.Queue[QueueItem] = queue.Queue()
    src.start(q)
    assert src.handle(key(pygame.KEYDOWN, pygame.K_b))
    assert not src.handle(key(pygame.KEYDOWN, pygame.K_c))
    assert not src.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0)))
    ev = get(q)
    assert (ev.seat, ev.t_ns, ev.clock) == (1, 1000, FED_CLOCK)
    src.stop()


def test_default_keys_number_row_and_numpad() -> None:
    b = bindings(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"])
    seat_of = {x.key: x.seat for x in b}
    assert seat_of[pygame.K_1] == 0 and seat_of[pygame.K_0] == 9
    assert seat_of[pygame.K_KP1] == 0 and seat_of[pygame.K_KP0] == 9


def test_configured_keys() -> None:
    cfg = HardwareConfig.from_toml('[keyboard]\nseats = ["q", "p"]\nundo = "u"\nconfirm = "space"')
    b = KeyboardSource.from_config(cfg.keyboard).keys
    assert [(x.role, x.seat, x.name) for x in b] == [
        ("seat", 0, "q"),
        ("seat", 1, "p"),
        ("confirm", 0, "space"),
        ("cancel", 0, "escape"),
        ("undo", 0, "u"),
    ]


def test_unknown_key_name() -> None:
    with pytest.raises(ConfigError) as err:
        bindings(["1", "nosuchkey"])
    assert "nosuchkey" in err.value.en and "nosuchkey" in err.value.fr


def test_more_players_than_keys() -> None:
    cfg = HardwareConfig.from_toml('[keyboard]\nseats = ["a", "b"]')
    with pytest.raises(ConfigError, match="3 players"):
        KeyboardSource.from_config(cfg.keyboard, n_seats=3)
