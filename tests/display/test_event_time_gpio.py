"""Issue 34's GPIO case 1 through the real main loop: the App with the GPIO source on the
kernel model (libgpiod's public API over tests/fakes/fake_kernel.py), the journal on disk, one
clock for the kernel's stamps and the table (moved by the test, so the race is exact)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from companion.display.app import App
from companion.games.kilo.events import NewKiloGame
from companion.inputs.gpio import GpioSource
from companion.inputs.gpio_lines import GpiodLines
from companion.inputs.gpio_pins import ButtonPin
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import table_app
from tests.gpio_helpers import FakeClock
from tests.serial_helpers import wait_for

FAKES = Path(__file__).resolve().parents[1] / "fakes"
PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
PINS = [17, 27, 22, 23]
US = 1_000
MS = 1_000_000


@pytest.fixture
def fk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delitem(sys.modules, "fake_kernel", raising=False)
    import fake_kernel

    fake_kernel.pi_chips()
    yield fake_kernel


def kinds(journal: Journal, app: App) -> list[str]:
    assert app.table is not None
    return [json.loads(p)["type"] for _, p in journal.payloads(app.table.game_id)][1:]


def test_chloes_edge_3_ms_before_return_still_in_the_debouncer_counts(
    fk: Any, screen: pygame.Surface, journal: Journal
) -> None:
    """Alice and Bob slap; Chloé's contact closes 3 ms before the referee's Return and is
    still bouncing when the key is read (it settles 0.3 ms after); Dédé never slaps. The
    verdict waits for the GPIO source's watermark, which stays at Chloé's first edge until her
    press is sure: her press is journaled before the verdict, and only Dédé draws (before:
    Alice, Bob, verdict, Chloé, and both drew)."""
    kernel = fk.FakeKernel()
    clock = FakeClock()
    lines = GpiodLines("/dev/gpiochip0", PINS, open_chip=kernel.open_chip)
    src = GpioSource([ButtonPin("seat", i, p) for i, p in enumerate(PINS)], lines=lines, now_ns=clock)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
    app = table_app(
        screen,
        journal,
        table,
        lambda n, s: src,
        source_name="gpio",
        table_ns=clock,
    )
    try:
        app.step()
        t = clock() + 1_000 * MS  # Return is read at t
        kernel.edge(PINS[0], t - 80 * MS, 0)  # Alice
        kernel.edge(PINS[1], t - 40 * MS, 0)  # Bob
        clock.set(t - 30 * MS)
        assert src.flush()
        app.step()
        assert app.game is not None and app.game.awaiting == "verdict"
        kernel.edge(PINS[2], t - 3 * MS, 0)  # Chloé's contact closes
        kernel.edge(PINS[2], t - 1500 * US, 1)  # and bounces open
        clock.set(t)
        assert src.flush()
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
        )
        app.step()
        assert kinds(journal, app) == ["press", "press"], "decided before Chloé's press was sure"
        kernel.edge(PINS[2], t + 300 * US, 0)  # closed again, for good
        # The clock is past Return by more than the reader's margin: only Chloé's contact, not
        # decided yet, holds the watermark back.
        clock.set(t + 1500 * US)
        assert src.flush()
        app.step()
        assert kinds(journal, app) == ["press", "press"], "decided without Chloé's undecided contact"
        assert src.promise().watermark_ns == t - 3 * MS
        clock.set(t + 4 * MS)  # 2 ms after her last edge her press is sure

        def verdict() -> bool:
            app.step()
            return "verdict" in kinds(journal, app)

        wait_for(verdict, 5, "the verdict")
        assert kinds(journal, app) == ["press", "press", "press", "close", "verdict"]
        assert app.game.owed_draws == ("Dédé",)
        lines_ = [p for _, p in journal.payloads(app.table.game_id)]  # type: ignore[union-attr]
        assert json.loads(lines_[3])["t_us"] == (t - 3 * MS) // 1000  # Chloé at her first edge
        assert replay(lines_).to_json() == app.game.to_json()
    finally:
        app.stop_source()
