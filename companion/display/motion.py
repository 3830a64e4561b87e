"""Motion where it carries meaning (docs/screen.md, "Motion"): the turn banner slides to the next
player, "+N" floats up from a score that changed, rows glide to their new places when ranks
change. Each lasts at most 400 ms, is drawn frame by frame from the loop's clock (never a sleep:
inputs are read between frames as always), and asks for frames only while it runs, so the loop
sleeps again as soon as nothing moves.

The screens stay pure functions of the view: a part asks ``Motion.changed`` what it showed last
under a key; a new value starts a tween from the old one. Nothing moves without a clock (a
snapshot, a test render), or on the first frame a key is seen.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import pygame

LONGEST_S = 0.4  # the longest motion: past this a change reads as late, not as a change
FRAME_S = 1 / 30  # a frame while something moves
SLIDE_S = 0.3  # the turn banner
FLOAT_S = 0.4  # "+N"
REORDER_S = 0.35  # a row to its new place

_NOTHING = object()


def ease(x: float) -> float:
    """Fast, then settling (cubic ease-out): the eye finds where a thing lands."""
    x = min(1.0, max(0.0, x))
    return 1 - (1 - x) ** 3


@dataclass
class Tween:
    start: float
    seconds: float
    old: Any

    def phase(self, now: float) -> float | None:
        """0 … 1 while it runs; None once it has ended."""
        done = (now - self.start) / self.seconds
        return None if done >= 1 - 1e-9 else max(0.0, done)  # 1.4 - 1.0 is 0.3999…


@dataclass
class Motion:
    """What moves on screen, between frames. Owned by the main loop (``Ui.motion``)."""

    now: float | None = None
    quiet: bool = False  # an overlay covers the screen: changes wait until it is gone
    seen: dict[Hashable, Any] = field(default_factory=dict)
    tweens: dict[Hashable, Tween] = field(default_factory=dict)
    # What the motion drew on this frame (the floats' texts and rects): for tests to read.
    drawn: list[tuple[str, pygame.Rect]] = field(default_factory=list)

    def frame(self, now: float | None, quiet: bool = False) -> None:
        """A new frame at ``now`` (None: no clock, nothing moves)."""
        self.now = now
        self.quiet = quiet
        self.drawn = []
        if now is not None:
            for key in [k for k, tw in self.tweens.items() if tw.phase(now) is None]:
                del self.tweens[key]

    def reset(self) -> None:
        """A new game: nothing seen before it is a change."""
        self.seen.clear()
        self.tweens.clear()

    def changed(self, key: Hashable, value: Any, seconds: float) -> tuple[float, Any] | None:
        """Note that ``value`` is shown under ``key``; while the tween its last change started
        runs, (eased progress 0 … 1, the value before). ``seconds`` is capped at 400 ms."""
        now = self.now
        if now is None:
            return None
        if not self.quiet:
            old = self.seen.get(key, _NOTHING)
            if old is not _NOTHING and old != value:
                self.tweens[key] = Tween(now, min(seconds, LONGEST_S), old)
            self.seen[key] = value
        tween = self.tweens.get(key)
        if tween is None:
            return None
        phase = tween.phase(now)
        if phase is None:
            del self.tweens[key]
            return None
        return ease(phase), tween.old

    def next_frame_in(self) -> float | None:
        """Seconds to the next frame while something moves; None when nothing does (the loop
        then sleeps on its inputs)."""
        now = self.now
        if now is None or not self.tweens:
            return None
        left = [tw.start + tw.seconds - now for tw in self.tweens.values()]
        live = [x for x in left if x > 0]
        if not live:
            return 0.0  # the frame that draws everything at rest
        return min(FRAME_S, min(live))


def lerp_rect(a: tuple[int, int, int, int], b: pygame.Rect, k: float) -> pygame.Rect:
    """``a`` moved ``k`` of the way to ``b``."""
    return pygame.Rect(
        round(a[0] + (b.x - a[0]) * k),
        round(a[1] + (b.y - a[1]) * k),
        round(a[2] + (b.width - a[2]) * k),
        round(a[3] + (b.height - a[3]) * k),
    )
