"""Sound cues made in code (no asset files): a slap click, the loser's fall, the flush.

Silent, never failing, when there is no audio device or the table muted it.
"""

from __future__ import annotations

import array
import contextlib
import math
import os
import random
from collections.abc import Iterator
from typing import Any

CUES = ("slap", "loser", "flush")
RATE = 22050


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """ALSA prints to the C stderr when no card exists; the player needs none of that."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _samples(cue: str) -> list[float]:
    n = {"slap": 0.07, "loser": 0.6, "flush": 1.2}[cue]
    count = int(RATE * n)
    out: list[float] = []
    rng = random.Random(7)
    phase = 0.0
    for i in range(count):
        x = i / RATE
        if cue == "slap":
            # A short knock: a damped low tone with a little noise on the attack.
            env = math.exp(-x * 60)
            out.append(env * (0.7 * math.sin(2 * math.pi * 180 * x) + 0.3 * rng.uniform(-1, 1)))
        elif cue == "loser":
            # The classic falling "wah-wah": pitch slides down, with a slow wobble.
            f = 440 * (1 - 0.5 * x / n) * (1 + 0.03 * math.sin(2 * math.pi * 6 * x))
            phase += 2 * math.pi * f / RATE
            env = min(1.0, x * 40) * (1 - x / n)
            out.append(0.6 * env * math.copysign(abs(math.sin(phase)) ** 0.6, math.sin(phase)))
        else:
            # Water down the drain: filtered noise whose pitch swirls and falls.
            f = 900 * (1 - 0.7 * x / n) * (1 + 0.3 * math.sin(2 * math.pi * 5 * x))
            phase += 2 * math.pi * f / RATE
            env = math.sin(math.pi * x / n)
            out.append(0.45 * env * (0.6 * rng.uniform(-1, 1) * abs(math.sin(phase)) + 0.4 * math.sin(phase)))
    return out


class Sounds:
    def __init__(self, enabled: bool = True) -> None:
        self.available = False
        self.muted = False
        self._sounds: dict[str, Any] = {}
        # Cues of events not yet journaled: heard only once the table has committed them.
        self.held: list[str] | None = None
        if enabled:
            self._open()

    def _open(self) -> None:
        try:
            import pygame

            with _quiet_stderr():
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            init = pygame.mixer.get_init()
            if not init:
                return
            _freq, _size, channels = init
            for cue in CUES:
                pcm = array.array("h")
                for v in _samples(cue):
                    s = int(max(-1.0, min(1.0, v)) * 30000)
                    pcm.extend([s] * channels)
                self._sounds[cue] = pygame.mixer.Sound(buffer=pcm.tobytes())
            self.available = True
        except Exception:
            self._sounds.clear()
            self.available = False

    def play(self, cue: str) -> bool:
        """Play ``cue``; False when muted or silent (no device)."""
        if self.muted or not self.available:
            return False
        if self.held is not None:
            self.held.append(cue)
            return True
        try:
            self._sounds[cue].play()
        except Exception:
            return False
        return True

    def hold(self) -> None:
        """Keep the cues asked for from now on until ``release``."""
        if self.held is None:
            self.held = []

    def release(self, play: bool = True) -> None:
        """Play the kept cues (or drop them: what they announced was never recorded)."""
        cues, self.held = self.held or [], None
        for cue in cues if play else ():
            self.play(cue)

    def close(self) -> None:
        if self.available:
            import pygame

            with contextlib.suppress(Exception):
                pygame.mixer.quit()
        self.available = False
