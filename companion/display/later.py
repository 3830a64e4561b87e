"""The App's work for later: what waits for the step's commit (the evening's tally, the simulated
players' turn: both read the journal's state) and what waits for idle time (the tally's first
reading, the warm-up of the views a first slap will show)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pygame

from companion.display.layout import Fonts, Painter
from companion.display.screens import draw
from companion.display.state import Ui


class Later:
    """The flags of work put off, and the warm-up's views still to draw."""

    def __init__(self, tally: bool) -> None:
        # The evening's tally (the stats and game-over screens) is read once the first frame is
        # up, while idle, or before a frame of a screen that shows it: reading it (its modules,
        # a pass over the journal) was a tenth of the time to the first frame.
        self.tally_pending = tally
        self.tally_after = False  # the tally reads the journal: after the commit
        self.simulate_after = False  # simulated players act on committed states only
        self.sim_busy = False  # the simulated players' burst is under way
        # A resumed game may have stopped with a slap window open: the game's screens say what
        # the stop did to it at the first step (its clock may need the source first).
        self.resume_pending = False
        # Views a first slap will show, drawn off screen while idle after a game's first frame
        # (``warm_step``): None until planned, then those left to draw.
        self.warm_pending = False
        self.warm: list[tuple[Any, dict[str, Any]]] | None = None

    def rewarm(self) -> None:
        """New names, maybe a new game's screens: the warm-up is planned again."""
        self.warm_pending, self.warm = True, None

    def warm_step(self, plan: Any, canvas: pygame.Surface, fonts: Fonts, ui: Ui, now: float) -> None:
        """Draw one of the views a first slap will show (``plan()``: the game's ``warm_views``)
        on a scratch surface of ``canvas``'s size: the fonts at its sizes, the glyphs and the
        names it renders are then in the caches when the slap comes (cold, its frame took about
        200 ms on this build machine). One view a step, while idle, after the game's first
        frame: the first frame is not delayed, and a press that comes meanwhile waits for one
        view at most."""
        if self.warm is None:
            self.warm = list(plan())
        if self.warm:
            view, fields = self.warm.pop(0)
            seen = dataclasses.replace(ui, window_open_at=now, now=now, **fields)
            draw(Painter(pygame.Surface(canvas.get_size()), fonts), view, seen)
        if not self.warm:
            self.warm_pending, self.warm = False, None
