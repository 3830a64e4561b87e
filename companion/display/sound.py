"""Sound cues made in code (no asset files): a slap click, the loser's fall, the flush; and the
table's voice (display/voice.py) on the same device.

Silent, never failing, when there is no audio device or the table muted it.
"""

from __future__ import annotations

import array
import contextlib
import math
import os
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.display.voice import Voice

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
    def __init__(self, enabled: bool = True, voice: Voice | None = None, lang: str = "fr") -> None:
        self.available = False
        self._muted = False
        self._sounds: dict[str, Any] = {}
        # Cues of events not yet journaled: heard only once the table has committed them.
        self.held: list[str] | None = None
        self.voice = voice
        # The sentences of the held events: only the last one is said (it replaces the others).
        self._held_speech: list[tuple[str, str]] = []
        if enabled:
            self._open(lang)

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, muted: bool) -> None:
        self._muted = muted
        if muted and self.voice is not None:
            self.voice.hush()

    def _open(self, lang: str) -> None:
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
            return
        if self.voice is not None:
            from companion.display.voice import MixerOutput

            try:
                self.voice.attach(MixerOutput(), lang)
            except Exception as err:  # the cues still play; the voice says nothing
                self.voice.failed = f"{type(err).__name__}: {err}"

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

    def say(self, text: str, lang: str) -> bool:
        """Say ``text`` in place of what is being said (``voice.HUSH``: stop); False when it will
        not be heard (muted, no device, no engine, the voice off)."""
        voice = self.voice
        if self.muted or not self.available or voice is None or not voice.ready:
            return False
        if self.held is not None:
            self._held_speech.append((text, lang))
            return bool(text)
        return voice.say(text, lang)

    def speak(self, game: str, before: Any, view: Any, event: Any, lang: str) -> None:
        """Say what ``event`` changed (the game's ``spoken``); nothing is worked out for a table
        that will not hear it."""
        voice = self.voice
        if voice is None or self.muted or not self.available or not voice.ready:
            return
        from companion.display.voice import sentence

        text = sentence(game, before, view, event, lang, voice.say_name)
        if text is not None:
            self.say(text, lang)

    def set_voice(self, on: bool) -> None:
        if self.voice is not None:
            self.voice.on = on
            if not on:
                self.voice.hush()

    def hold(self) -> None:
        """Keep the cues asked for from now on until ``release``."""
        if self.held is None:
            self.held = []

    def release(self, play: bool = True) -> None:
        """Play the kept cues (or drop them: what they announced was never recorded)."""
        cues, self.held = self.held or [], None
        speech, self._held_speech = self._held_speech, []
        for cue in cues if play else ():
            self.play(cue)
        if play and speech:
            self.say(*speech[-1])  # a verdict, an undo and a new verdict in one step: the last

    def close(self) -> None:
        if self.voice is not None:
            self.voice.close()
        if self.available:
            import pygame

            with contextlib.suppress(Exception):
                pygame.mixer.quit()
        self.available = False
