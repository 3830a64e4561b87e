"""The table's voice, one JSON object per line (never asserted in tests).

    .venv/bin/python bench/voice.py            # both
    .venv/bin/python bench/voice.py latency    # one of: latency, frames

latency: verdict -> first audio sample, through the real loop: a Kilo table of four (a journal
         on disk, the App on SDL's dummy video and audio drivers, espeak-ng kept warm), a slap's
         presses, then Enter (valid claim) posted as a key and ``App.step`` run: the step
         judges, journals (group commit), draws, then releases the sentence to the voice's
         thread, which synthesises it and starts it on its mixer channel. ``to_play_ms``: from
         before the step to the channel's ``play`` returning; ``first_sample_ms`` adds the
         silence left before the first audible sample (|s| > 1000; the voice cuts espeak-ng's
         45 ms down to 5) and one buffer of the mixer (512 samples at 22,050 Hz, 23 ms: what
         SDL holds before the device has it).
         ``step_to_play_ms``: the voice's own part, from the step's end (the sentence handed
         over) to ``play``. An undo (Backspace) hushes it and reopens the verdict for the next
         run. Issue 40: at most 150 ms.
frames:  the loop's frame time while the voice speaks and while it is silent: the same verdict
         screen redrawn (``App.dirty`` then ``App.step``) in alternating blocks of 60 frames,
         the voice either saying a long sentence again whenever it ends, or off. Medians and
         90th percentiles of the step's wall time and of the process's CPU time over the
         frames. Issue 40: speaking within 10 % of silent.
"""

from __future__ import annotations

import json
import os
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from companion.display.app import App
from companion.display.sound import Sounds
from companion.display.state import Ui
from companion.display.voice import Espeak, Voice, pcm_of, trimmed
from companion.display.window import open_display
from companion.games.kilo.events import NewKiloGame, Press
from companion.hardware.config import HardwareConfig
from companion.inputs.keyboard import KeyboardSource
from companion.table.journal import Journal
from companion.table.live import Table

PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]
MIXER_BUFFER_S = 512 / 22050
LONG = (
    "Égalité à la dernière place : Alice, Bruno et Chloé piochent. Partie terminée : Dédé gagne "
    "avec douze kilos."
)


def emit(data: dict[str, object]) -> None:
    print(json.dumps(data, ensure_ascii=False), flush=True)


def _key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


def _app(journal: Journal, voice: Voice) -> App:
    surface = open_display((800, 480), fullscreen=False)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=99), {"input": "keyboard"})
    keys = HardwareConfig().keyboard
    app = App(
        surface,
        journal,
        table,
        Ui(lang="fr"),
        sounds=Sounds(enabled=True, voice=voice, lang="fr"),
        source_factory=lambda _name, n: KeyboardSource.from_config(keys, n, own_window=False),
    )
    app.start()  # as `companion play` does: the constructor starts nothing
    app.step()
    if not app.sounds.available or not voice.ready:
        raise SystemExit("no audio device or no espeak-ng: nothing to measure")
    return app


def _slap(app: App, t_us: int) -> None:
    for i, p in enumerate(["Bruno", "Alice", "Dédé", "Chloé"]):
        app.submit(Press(player=p, t_us=t_us + 1000 * i + (2000 if p == "Chloé" else 0)))
    app.step()  # the frame of the open window: the verdict's "before"


def _lead_s(wav: bytes) -> float:
    rate, pcm = pcm_of(wav)
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    first = next((i for i, s in enumerate(samples) if abs(s) > 1000), len(samples))
    return first / rate


def bench_latency(runs: int = 30) -> None:
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp), writer=True) as journal:
        synth = Espeak()
        leads: dict[str, float] = {}

        class Measured:
            """espeak-ng as the table runs it, noting each sentence's leading silence."""

            def synth(self, text: str, lang: str) -> bytes:
                wav = synth.synth(text, lang)
                leads[text] = _lead_s(trimmed(wav))
                return wav

            def close(self) -> None:
                synth.close()

        voice = Voice(Measured())
        app = _app(journal, voice)
        _slap(app, 1_000_000)
        to_play, first, voice_only = [], [], []
        for _ in range(runs):
            last = voice.heard[-1] if voice.heard else None
            _key(pygame.K_RETURN)
            began = time.monotonic()
            app.step()
            stepped = time.monotonic()  # judged, journaled, drawn: the sentence handed over
            voice.wait_idle()
            if not voice.heard or voice.heard[-1] is last:
                raise SystemExit("the verdict was not said")
            heard = voice.heard[-1]
            to_play.append((heard.at - began) * 1000)
            voice_only.append((heard.at - stepped) * 1000)
            first.append((heard.at - began + leads[heard.text] + MIXER_BUFFER_S) * 1000)
            _key(pygame.K_BACKSPACE)
            app.step()
        app.stop_source()
        app.sounds.close()
    emit(
        {
            "bench": "voice.latency",
            "runs": runs,
            "sentence": heard.text,
            "to_play_median_ms": round(statistics.median(to_play), 1),
            "to_play_max_ms": round(max(to_play), 1),
            "first_sample_median_ms": round(statistics.median(first), 1),
            "first_sample_max_ms": round(max(first), 1),
            "step_to_play_median_ms": round(statistics.median(voice_only), 1),
            "step_to_play_max_ms": round(max(voice_only), 1),
            "lead_silence_ms": round(leads[heard.text] * 1000, 1),
            "mixer_buffer_ms": round(MIXER_BUFFER_S * 1000, 1),
        }
    )


def bench_frames(blocks: int = 10, per_block: int = 60) -> None:
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp), writer=True) as journal:
        voice = Voice(Espeak())
        app = _app(journal, voice)
        _slap(app, 1_000_000)
        _key(pygame.K_RETURN)
        app.step()  # the verdict screen, said once
        wall: dict[str, list[float]] = {"silent": [], "speaking": []}
        cpu: dict[str, list[float]] = {"silent": [], "speaking": []}
        said = 0
        for block in range(blocks * 2):
            mode = "speaking" if block % 2 else "silent"
            app.sounds.set_voice(mode == "speaking")
            for i in range(per_block):
                if mode == "speaking" and not voice.talking:
                    app.sounds.say(LONG, "fr")  # from the loop, as a verdict's sentence is
                    said += 1
                app.dirty = True
                w0, c0 = time.perf_counter(), time.process_time()
                app.step()
                w1, c1 = time.perf_counter(), time.process_time()
                if i >= 5:  # the block's first frames: the switch itself
                    wall[mode].append((w1 - w0) * 1000)
                    cpu[mode].append((c1 - c0) * 1000)
                time.sleep(1 / 60 - min(1 / 60, w1 - w0))  # a 60 Hz loop: the voice runs between
        app.stop_source()
        app.sounds.close()

    def p90(xs: list[float]) -> float:
        return sorted(xs)[int(len(xs) * 0.9)]

    out: dict[str, object] = {"bench": "voice.frames", "frames_each": len(wall["silent"]), "sentences": said}
    for mode in ("silent", "speaking"):
        out[f"{mode}_median_ms"] = round(statistics.median(wall[mode]), 3)
        out[f"{mode}_p90_ms"] = round(p90(wall[mode]), 3)
        out[f"{mode}_cpu_median_ms"] = round(statistics.median(cpu[mode]), 3)
    out["median_ratio"] = round(statistics.median(wall["speaking"]) / statistics.median(wall["silent"]), 3)
    out["cpu_median_ratio"] = round(statistics.median(cpu["speaking"]) / statistics.median(cpu["silent"]), 3)
    emit(out)


def main(argv: list[str]) -> int:
    which = argv[1:] or ["latency", "frames"]
    for name in which:
        benches: dict[str, Callable[[], None]] = {"latency": bench_latency, "frames": bench_frames}
        benches[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
