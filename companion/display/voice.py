"""The table's voice: the verdict, the card, the flush, whose turn, a game's end, said aloud.

Speech is made by Debian's espeak-ng (a process kept warm, its text sent when there is one) on
a thread of its own, and played on a mixer channel kept for it: the main loop only hands over a
sentence. A new sentence cuts the one being said; an undo hushes it. Without the engine or an
audio device the table stays silent and nothing fails (``companion doctor`` says which is
missing). What each game says is in ``games/<name>/spoken.py``; docs/screen.md, "Voice".
"""

from __future__ import annotations

import array
import contextlib
import importlib
import io
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion.table.log import Undo
from companion.table.registry import GAMES

PROGRAM = "espeak-ng"
RATE = 22050  # espeak-ng's own output rate, 16-bit mono
# espeak-ng's voices for the table's languages, and its speed in words a minute (its default,
# 175, rushes a name said across a noisy table).
VOICES = {"fr": "fr-fr", "en": "en-gb"}
WPM = 160
# Said in place of the sentence being spoken: nothing (an undo takes back what was announced).
HUSH = ""
SILENCE = 1000  # sample level under which espeak-ng's output is the silence before a word


class Output(Protocol):
    """Where the sound goes: a mixer channel of its own, or a recording in tests."""

    def play(self, wav: bytes) -> None: ...

    def stop(self) -> None: ...

    def busy(self) -> bool: ...


class Synth(Protocol):
    def synth(self, text: str, lang: str) -> bytes: ...

    def close(self) -> None: ...


def engine_path(program: str = PROGRAM) -> str | None:
    """The speech engine's executable, or None where it is not installed."""
    return shutil.which(program)


def fixed_wav(raw: bytes) -> bytes:
    """espeak-ng writing to a pipe cannot seek back to fill in its header's sizes (it leaves
    0x7fffffff): the sizes the bytes really have, so that any WAV reader takes them."""
    at = raw.find(b"data", 12)
    if raw[:4] != b"RIFF" or at < 0 or len(raw) < at + 8:
        raise ValueError(f"{PROGRAM} wrote no WAV data ({len(raw)} bytes)")
    data = len(raw) - at - 8
    data -= data % 2  # whole 16-bit samples
    head = bytearray(raw[: at + 8])
    head[4:8] = struct.pack("<I", at + data)
    head[at + 4 : at + 8] = struct.pack("<I", data)
    return bytes(head) + raw[at + 8 : at + 8 + data]


def trimmed(wav: bytes, keep_s: float = 0.005) -> bytes:
    """The WAV without the silence espeak-ng puts before the first word (45 ms here): the
    verdict's first sound comes that much sooner. ``keep_s`` of it stays, so no click."""
    rate, pcm = pcm_of(wav)
    samples = array.array("h")
    samples.frombytes(pcm[:rate])  # the first second is plenty to find the first word
    first = next((i for i, s in enumerate(samples) if abs(s) > SILENCE), 0)
    cut = max(0, first - int(keep_s * rate)) * 2
    if not cut:
        return wav
    at = wav.find(b"data", 12)
    head = bytearray(wav[: at + 8])
    head[4:8] = struct.pack("<I", len(wav) - cut - 8)
    head[at + 4 : at + 8] = struct.pack("<I", len(pcm) - cut)
    return bytes(head) + pcm[cut:]


def pcm_of(wav: bytes) -> tuple[int, bytes]:
    """(rate, 16-bit mono samples) of a WAV as ``fixed_wav`` leaves it."""
    at = wav.find(b"data", 12)
    rate = struct.unpack_from("<I", wav, 24)[0]
    return rate, wav[at + 8 :]


class Espeak:
    """espeak-ng, one process started ahead for the language last spoken: it loads its voice
    while nothing is said (40-70 ms here, most of a cold call), and synthesises a sentence in a
    few milliseconds once its text comes on stdin."""

    def __init__(self, program: str = PROGRAM, wpm: int = WPM) -> None:
        self.program = engine_path(program) or program
        self.wpm = wpm
        self._warm: tuple[str, subprocess.Popen[bytes]] | None = None

    def _start(self, lang: str) -> subprocess.Popen[bytes]:
        voice = VOICES.get(lang, lang)
        return subprocess.Popen(
            [self.program, "-v", voice, "-s", str(self.wpm), "--stdout", "--stdin"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def warm(self, lang: str) -> None:
        """Start the process for ``lang`` now, so that the next sentence finds it ready."""
        if self._warm is not None and self._warm[0] == lang:
            return
        self._drop()
        self._warm = (lang, self._start(lang))

    def synth(self, text: str, lang: str) -> bytes:
        """The sentence as a WAV (22,050 Hz, 16-bit mono). Raises OSError without the engine."""
        self.warm(lang)
        assert self._warm is not None
        proc = self._warm[1]
        self._warm = None
        # One line: espeak-ng reads its stdin to the end, a new line would only be a pause.
        try:
            out, _ = proc.communicate(" ".join(text.split()).encode("utf-8"), timeout=10)
        except BaseException:
            proc.kill()  # a hung engine is not left behind
            proc.wait()
            raise
        self.warm(lang)  # the next one loads while this one is heard
        return fixed_wav(out)

    def _drop(self) -> None:
        if self._warm is not None:
            proc = self._warm[1]
            self._warm = None
            with contextlib.suppress(OSError):
                proc.kill()
            proc.wait()

    def close(self) -> None:
        self._drop()


class MixerOutput:
    """pygame's mixer (already opened by ``Sounds``), on a channel the cues never take."""

    def __init__(self) -> None:
        import pygame

        pygame.mixer.set_reserved(1)
        self._channel = pygame.mixer.Channel(0)

    def play(self, wav: bytes) -> None:
        import pygame

        # SDL converts the WAV to the device's own rate and channels (in C, off the GIL's way).
        self._channel.play(pygame.mixer.Sound(file=io.BytesIO(wav)))

    def stop(self) -> None:
        self._channel.stop()

    def busy(self) -> bool:
        return bool(self._channel.get_busy())


@dataclass(frozen=True, slots=True)
class Heard:
    """A sentence whose sound began: when (``time.monotonic``) and how long it lasts."""

    text: str
    lang: str
    at: float
    seconds: float


class Voice:
    """Says one sentence at a time, off the caller's thread: ``say`` returns at once, a newer
    sentence replaces one not yet begun and cuts one being heard."""

    def __init__(
        self, synth: Synth | None = None, *, on: bool = True, names: Mapping[str, str] | None = None
    ):
        self.synth: Synth | None = synth
        self.on = on
        self.names = dict(names or {})  # how a name is said, where the table spells it otherwise
        self.output: Output | None = None
        self.heard: list[Heard] = []  # kept short: the doctor, the tests and the bench read it
        self.failed: str | None = None  # why the engine could not speak, once it could not
        self._cv = threading.Condition()
        self._gen = 0
        self._want: tuple[int, str, str] | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self._busy = False  # a sentence taken by the thread, not yet played nor dropped

    @property
    def ready(self) -> bool:
        """Whether a sentence said now would be heard (engine, device, voice on)."""
        return self.on and self.synth is not None and self.output is not None and self.failed is None

    def attach(self, output: Output, lang: str | None = None) -> None:
        """The audio device is open: sentences go to ``output`` (and the engine warms up)."""
        self.output = output
        if lang is not None and self.synth is not None and self.on:
            warm = getattr(self.synth, "warm", None)
            if warm is not None:
                with contextlib.suppress(OSError):
                    warm(lang)

    def say_name(self, name: str) -> str:
        return self.names.get(name, name)

    def say(self, text: str, lang: str) -> bool:
        """Say ``text`` (``HUSH``: stop talking) in place of whatever is said now; False when
        nothing will be heard."""
        if not self.ready:
            return False
        assert self.output is not None
        with self._cv:
            self._gen += 1
            self._want = (self._gen, text, lang) if text else None
            self.output.stop()
            self._cv.notify_all()
        self._start_thread()
        return bool(text)

    def hush(self) -> None:
        if self.output is not None:
            with self._cv:
                self._gen += 1
                self._want = None
                self.output.stop()

    def _start_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cv:
                while self._want is None and not self._closing:
                    self._cv.wait()
                if self._closing:
                    return
                assert self._want is not None
                gen, text, lang = self._want
                self._want = None
                self._busy = True
            try:
                self._make(gen, text, lang)
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def _make(self, gen: int, text: str, lang: str) -> None:
        """Synthesise, then play unless something newer was asked for meanwhile."""
        synth = self.synth
        if synth is None:
            return
        try:
            wav = trimmed(synth.synth(text, lang))
        except (OSError, ValueError, subprocess.SubprocessError) as err:
            self.failed = f"{type(err).__name__}: {err}"  # silent from now on, never a crash
            return
        rate, pcm = pcm_of(wav)
        with self._cv:
            if gen != self._gen or self.output is None:
                return  # a newer sentence (or an undo) came while this one was made
            try:
                self.output.play(wav)
            except Exception as err:  # a device gone mid-evening: silence, not a crash
                self.failed = f"{type(err).__name__}: {err}"
                return
            self.heard.append(Heard(text, lang, time.monotonic(), len(pcm) / 2 / rate))
            del self.heard[:-20]

    @property
    def talking(self) -> bool:
        """A sentence is asked for, being made, or being heard."""
        with self._cv:
            wanted = self._want is not None or self._busy
        return wanted or (self.output is not None and self.output.busy())

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Until every sentence asked for is playing or dropped (tests and the bench wait on
        this, never on a sleep); False if ``timeout`` passed first."""
        with self._cv:
            return self._cv.wait_for(lambda: self._want is None and not self._busy, timeout)

    def close(self) -> None:
        with self._cv:
            self._closing = True
            self._gen += 1
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self.synth is not None:
            self.synth.close()


def open_voice(on: bool, names: Mapping[str, str] | None = None) -> Voice:
    """The table's voice from its settings: no engine on this machine makes a silent one."""
    path = engine_path()
    return Voice(Espeak(path) if path else None, on=on, names=names)


# --- what is said -----------------------------------------------------------------------------

# A game's ``spoken(before, view, event, lang, name)``: the sentence for an accepted event, or
# None to leave whatever is being said.
Spoken = Callable[[Any, Any, Any, str, Callable[[str], str]], str | None]
_SPOKEN: dict[str, Spoken | None] = {}


def spoken_for(game: str) -> Spoken | None:
    """The game's ``spoken`` (``games/<name>/spoken.py``), imported on first use; None if the
    game says nothing."""
    if game not in _SPOKEN:
        try:
            module = importlib.import_module(GAMES[game].package + ".spoken")
        except (KeyError, ModuleNotFoundError):
            _SPOKEN[game] = None
        else:
            _SPOKEN[game] = module.spoken
    return _SPOKEN[game]


def names_said(names: list[str] | tuple[str, ...], lang: str) -> str:
    """Names in a sentence: "Bruno et Chloé", "Alice, Bruno et Chloé"."""
    last = " et " if lang == "fr" else " and "
    return names[0] if len(names) < 2 else ", ".join(names[:-1]) + last + names[-1]


def margin_said(margin_us: int, res_us: int = 1, lang: str = "fr") -> str:
    """A slap margin as a voice reads it, units in words ("3 ms" is read "trois em-esse"): whole
    microseconds under a millisecond, one decimal under 10 ms, whole milliseconds above; from a
    coarse clock rounded to its decade and "about"."""
    approx = res_us > 1
    if approx:
        step = 10 ** (len(str(res_us)) - 1)
        margin_us = (margin_us + step // 2) // step * step
    if margin_us < 1000:
        n: float = margin_us
        unit = ("microseconde", "microsecondes") if lang == "fr" else ("microsecond", "microseconds")
    else:
        n = round(margin_us / 1000, 1) if margin_us < 9950 else round(margin_us / 1000)
        if n == int(n):
            n = int(n)
        unit = ("milliseconde", "millisecondes") if lang == "fr" else ("millisecond", "milliseconds")
    one = n < 2 if lang == "fr" else n == 1
    text = (str(n).replace(".", ",") if lang == "fr" else str(n)) + " " + unit[0 if one else 1]
    if approx:
        text = ("environ " if lang == "fr" else "about ") + text
    return text


def sentence(
    game: str, before: Any, view: Any, event: Any, lang: str, name: Callable[[str], str]
) -> str | None:
    """What the table hears after ``event``: an undo hushes what was said (it may be what the
    undo took back); None says nothing new."""
    if isinstance(event, Undo):
        return HUSH
    if view is None or before is None:
        return None
    fn = spoken_for(game)
    return fn(before, view, event, lang, name) if fn is not None else None
