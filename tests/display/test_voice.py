"""The table's voice (display/voice.py): what each game says in both languages, the sound
espeak-ng makes of it, the last sentence only, and silence without a device or an engine."""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.display import app_actions
from companion.display.app import App
from companion.display.game_ui import screens_for
from companion.display.sound import Sounds
from companion.display.state import Ui
from companion.display.voice import HUSH, Espeak, Voice, fixed_wav, margin_said, pcm_of, sentence, trimmed
from companion.games import new_engine
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.kilo.events import Draw, NewKiloGame, Press, Verdict
from companion.games.treize.events import NewTreizeGame, Pass, Play, Starter
from companion.hardware.config import HardwareConfig
from companion.inputs.keyboard import KeyboardSource
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import Undo
from tests.conftest import skip_unless_ci

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
P = ["Alice", "Bruno", "Chloé", "Dédé"]
NNBSP = "\u202f"


def said(game: str, engine: Any, event: Any, name: Callable[[str], str] = str) -> dict[str, str | None]:
    """Apply ``event`` and return the sentence each language says for it."""
    screens = screens_for(game)
    before = screens.build_view(engine)
    engine.apply(event)
    view = screens.build_view(engine)
    return {lang: sentence(game, before, view, event, lang, name) for lang in ("fr", "en")}


def kilo_slapped(last_by_us: int = 3000, valid: bool = True) -> Any:
    """Four presses, Chloé last by ``last_by_us`` (the verdict is next)."""
    engine = new_engine(NewKiloGame(players=P, rounds=3))
    t = 1_000_000
    for i, p in enumerate(["Bruno", "Alice", "Dédé"]):
        engine.apply(Press(player=p, t_us=t + 1000 * i))
    engine.apply(Press(player="Chloé", t_us=t + 2000 + last_by_us))
    return engine


# --- what is said -----------------------------------------------------------------------------


def test_the_kilo_verdict_is_said_as_the_table_says_it() -> None:
    assert said("kilo", kilo_slapped(), Verdict(valid=True)) == {
        "fr": "Chloé, de 3 millisecondes.",
        "en": "Chloé, by 3 milliseconds.",
    }


def test_a_name_is_said_as_the_table_set_it() -> None:
    say = {"Chloé": "Klo-é"}.get
    out = said("kilo", kilo_slapped(), Verdict(valid=True), lambda n: say(n, n))
    assert out["fr"] == "Klo-é, de 3 millisecondes."


@pytest.mark.parametrize(
    ("us", "res", "fr", "en"),
    [
        (400, 1, "400 microsecondes", "400 microseconds"),
        (1000, 1, "1 milliseconde", "1 millisecond"),
        (3240, 1, "3,2 millisecondes", "3.2 milliseconds"),
        (48_600, 1, "49 millisecondes", "49 milliseconds"),
        (31_000, 20_000, "environ 30 millisecondes", "about 30 milliseconds"),
    ],
)
def test_margins_are_said_with_their_units_in_words(us: int, res: int, fr: str, en: str) -> None:
    assert (margin_said(us, res, "fr"), margin_said(us, res, "en")) == (fr, en)


def test_a_false_slap_is_said() -> None:
    engine = kilo_slapped()
    out = said("kilo", engine, Verdict(valid=False, penalized=["Bruno"]))
    assert out == {"fr": f"Fausse tape{NNBSP}: Bruno pioche.", "en": "False slap: Bruno draws."}


def test_the_card_drawn_is_said_with_its_kilos() -> None:
    engine = kilo_slapped()
    engine.apply(Verdict(valid=True))
    assert said("kilo", engine, Draw(player="Chloé", card="10S")) == {
        "fr": f"Chloé{NNBSP}: 10 de pique, 10 kilos.",
        "en": "Chloé: 10 of spades, 10 kilos.",
    }


def test_the_flush_of_a_seven_is_said() -> None:
    engine = kilo_slapped()
    engine.apply(Verdict(valid=True))
    engine.apply(Draw(player="Chloé", card="10S"))
    t = 5_000_000
    for i, p in enumerate(["Bruno", "Alice", "Dédé", "Chloé"]):
        engine.apply(Press(player=p, t_us=t + 1000 * i))
    engine.apply(Verdict(valid=True))
    out = said("kilo", engine, Draw(player="Chloé", card="7H"))
    assert out == {
        "fr": f"Chasse d’eau{NNBSP}! Chloé tire un sept{NNBSP}: 2 cartes partent sous le tas, retour à zéro.",
        "en": "Flush! Chloé draws a seven: 2 cards go under the pile, back to zero.",
    }


def test_the_end_of_a_kilo_game_is_said_after_its_last_card() -> None:
    engine = new_engine(NewKiloGame(players=P, rounds=1))
    for i, p in enumerate(["Bruno", "Alice", "Dédé", "Chloé"]):
        engine.apply(Press(player=p, t_us=1_000_000 + 1000 * i))
    engine.apply(Verdict(valid=True))
    out = said("kilo", engine, Draw(player="Chloé", card="AS"))
    assert out == {
        "fr": f"Chloé{NNBSP}: As de pique, 100 kilos. Partie terminée{NNBSP}: Alice, Bruno et Dédé "
        "gagnent avec 0 kilo.",
        "en": "Chloé: Ace of spades, 100 kilos. Game over: Alice, Bruno and Dédé win with 0 kilos.",
    }


def test_cinq_rois_says_who_deals_and_who_plays_first() -> None:
    engine = new_engine(NewCinqRoisGame(players=P[:3]))
    out = said("cinq-rois", engine, Dealer(player="Bruno"))
    assert out == {
        "fr": f"Donne 1{NNBSP}: Bruno donne, Chloé commence.",
        "en": "Round 1: Bruno deals, Chloé plays first.",
    }
    out = said("cinq-rois", engine, RoundEnd(out="Alice", points={"Bruno": 12, "Chloé": 3}))
    assert out == {
        "fr": f"Donne 2{NNBSP}: Chloé donne, Alice commence.",
        "en": "Round 2: Chloé deals, Alice plays first.",
    }


def test_cinq_rois_says_its_end() -> None:
    engine = new_engine(NewCinqRoisGame(players=P[:3]))
    engine.apply(Dealer(player="Bruno"))
    for _ in range(10):
        engine.apply(RoundEnd(out="Alice", points={"Bruno": 12, "Chloé": 3}))
    out = said("cinq-rois", engine, RoundEnd(out="Alice", points={"Bruno": 1, "Chloé": 3}))
    assert out == {
        "fr": f"Partie terminée{NNBSP}: Alice gagne avec 0 point.",
        "en": "Game over: Alice wins with 0 points.",
    }


def test_treize_says_whose_turn_it_is() -> None:
    engine = new_engine(NewTreizeGame(players=P))
    assert said("treize", engine, Starter(player="Chloé")) == {
        "fr": "À Chloé de jouer.",
        "en": "Chloé to play.",
    }
    assert said("treize", engine, Play(player="Chloé", value=3, count=1)) == {
        "fr": "À Dédé de jouer.",
        "en": "Dédé to play.",
    }
    assert said("treize", engine, Pass(player="Dédé")) == {"fr": "À Alice de jouer.", "en": "Alice to play."}


def test_an_undo_hushes_and_a_press_says_nothing() -> None:
    engine = new_engine(NewKiloGame(players=P, rounds=2))
    assert said("kilo", engine, Press(player="Bruno", t_us=1)) == {"fr": None, "en": None}
    assert sentence("kilo", None, None, Undo(), "fr", str) == HUSH


# --- the sound made of it ---------------------------------------------------------------------


def _engine_or_skip() -> None:
    if shutil.which("espeak-ng") is None:
        skip_unless_ci("espeak-ng is not installed (.ci/run installs it)")


def loudness(pcm: bytes) -> tuple[float, float]:
    """(RMS of the whole, share of 20 ms blocks louder than a whisper) of 16-bit mono samples."""
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples)))
    block = 441
    loud = [max(abs(s) for s in samples[i : i + block]) > 1000 for i in range(0, len(samples) - block, block)]
    return rms, sum(loud) / max(1, len(loud))


def first_loud(pcm: bytes) -> int:
    return next(i for i, s in enumerate(struct.unpack(f"<{len(pcm) // 2}h", pcm)) if abs(s) > 1000)


@pytest.mark.parametrize(
    ("lang", "short", "long"),
    [
        ("fr", "Chloé, de 3 millisecondes.", "Égalité à la dernière place : Alice, Bruno et Chloé piochent."),
        ("en", "Chloé, by 3 milliseconds.", "Tie for last place: Alice, Bruno and Chloé draw."),
    ],
)
def test_the_audio_is_speech_and_lasts_what_the_sentence_needs(
    lang: str, short: str, long: str, tmp_path: Path
) -> None:
    _engine_or_skip()
    synth = Espeak()
    try:
        lengths = []
        for text in (short, long):
            wav = synth.synth(text, lang)
            path = tmp_path / "said.wav"
            path.write_bytes(wav)
            with wave.open(str(path)) as w:  # a WAV any reader takes (espeak-ng's sizes fixed)
                assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
                seconds = w.getnframes() / w.getframerate()
            rms, voiced = loudness(pcm_of(wav)[1])
            assert rms > 500 and voiced > 0.4, (text, rms, voiced)
            # At 160 words a minute with a comma's pause: about 0.3-0.7 s a word.
            words = len(text.split())
            assert 0.2 * words <= seconds <= 0.8 * words, (text, seconds)
            # As long as espeak-ng's own WAV file of the sentence (-w, sizes written by seeking).
            own = tmp_path / "own.wav"
            voice = {"fr": "fr-fr", "en": "en-gb"}[lang]
            subprocess.run(["espeak-ng", "-v", voice, "-s", "160", "-w", str(own), text], check=True)
            with wave.open(str(own)) as w:
                assert abs(w.getnframes() / w.getframerate() - seconds) < 0.01
            lengths.append(seconds)
            # The silence before the first word is cut to 5 ms (the verdict is heard sooner).
            rate, pcm = pcm_of(wav)
            was = first_loud(pcm)
            cut = pcm_of(trimmed(wav))[1]
            assert first_loud(cut) == min(was, int(0.005 * rate))
            assert len(pcm) - len(cut) == 2 * (was - first_loud(cut))
        assert lengths[1] > lengths[0] * 1.5
    finally:
        synth.close()


def test_a_wav_without_data_is_refused() -> None:
    with pytest.raises(ValueError, match="no WAV data"):
        fixed_wav(b"")


# --- when it is said ----------------------------------------------------------------------------


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """SDL's dummy audio device: a mixer that plays (in time) to nowhere."""
    _engine_or_skip()
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
    pygame.mixer.quit()


def kilo_app(journal: Journal, screen: pygame.Surface, voice: Voice, rounds: int = 2) -> App:
    table = Table.start(journal, NewKiloGame(players=P, rounds=rounds), {"input": "keyboard"})
    sounds = Sounds(enabled=True, voice=voice, lang="fr")
    keys = HardwareConfig().keyboard
    app = App(
        screen,
        journal,
        table,
        Ui(lang="fr"),
        sounds=sounds,
        source_factory=lambda _name, n: KeyboardSource.from_config(keys, n, own_window=False),
    )
    app.step()
    return app


def slap(app: App, chloe_by_us: int, t: int = 1_000_000) -> None:
    for i, p in enumerate(["Bruno", "Alice", "Dédé"]):
        app.submit(Press(player=p, t_us=t + 1000 * i))
    app.submit(Press(player="Chloé", t_us=t + 2000 + chloe_by_us))
    assert app.view is not None  # the frame's view: what the verdict's "before" is


def test_a_verdict_an_undo_and_a_verdict_in_one_step_say_the_last_only(
    audio: None, journal: Journal, screen: pygame.Surface
) -> None:
    voice = Voice(Espeak())
    app = kilo_app(journal, screen, voice)
    try:
        assert app.sounds.available and voice.ready
        slap(app, 3000)
        app.hold()
        app.submit(Verdict(valid=True))
        app.submit(Undo())
        app.submit(Verdict(valid=False, penalized=["Bruno"]))
        app.flush()
        assert voice.wait_idle()
        assert [h.text for h in voice.heard] == [f"Fausse tape{NNBSP}: Bruno pioche."]
    finally:
        app.stop_source()
        app.sounds.close()


def test_the_next_verdict_cuts_the_one_being_said_and_an_undo_hushes_it(
    audio: None, journal: Journal, screen: pygame.Surface
) -> None:
    voice = Voice(Espeak())
    app = kilo_app(journal, screen, voice)
    try:
        output = voice.output
        assert output is not None
        slap(app, 3000)
        app.submit(Verdict(valid=True))
        assert voice.wait_idle() and output.busy()  # being said (1.5 s of it)
        app.submit(Undo())
        assert not output.busy()  # hushed at once, not at the end of the sentence
        app.submit(Verdict(valid=False, penalized=["Bruno"]))
        assert voice.wait_idle() and output.busy()
        assert [h.text for h in voice.heard] == [
            "Chloé, de 3 millisecondes.",
            f"Fausse tape{NNBSP}: Bruno pioche.",
        ]
        app.do(app_actions.Voice())  # the menu turns it off: silent at once, and nothing more is said
        assert not output.busy() and not app.ui.voice
        app.submit(Undo())
        slap(app, 3000)
        app.submit(Verdict(valid=True))
        assert voice.wait_idle() and len(voice.heard) == 2
    finally:
        app.stop_source()
        app.sounds.close()


def test_no_audio_device_is_silent_and_never_fails(
    monkeypatch: pytest.MonkeyPatch, journal: Journal, screen: pygame.Surface
) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "nosuchdevice")
    voice = Voice(Espeak())
    app = kilo_app(journal, screen, voice)
    try:
        assert not app.sounds.available and not voice.ready
        slap(app, 3000)
        assert app.submit(Verdict(valid=True))
        assert voice.wait_idle() and voice.heard == []
    finally:
        app.stop_source()
        app.sounds.close()


def test_no_engine_is_silent_and_never_fails(audio: None, journal: Journal, screen: pygame.Surface) -> None:
    voice = Voice(Espeak("/nonexistent/espeak-ng"))
    app = kilo_app(journal, screen, voice)
    try:
        slap(app, 3000)
        assert app.submit(Verdict(valid=True))  # the engine fails on its own thread
        assert voice.wait_idle() and voice.heard == []
        assert voice.failed is not None and not voice.ready
        app.submit(Undo())
        assert app.submit(Verdict(valid=True))
    finally:
        app.stop_source()
        app.sounds.close()


def test_mute_silences_the_voice(audio: None, journal: Journal, screen: pygame.Surface) -> None:
    voice = Voice(Espeak())
    app = kilo_app(journal, screen, voice)
    try:
        app.do(app_actions.Mute())
        slap(app, 3000)
        app.submit(Verdict(valid=True))
        assert voice.wait_idle() and voice.heard == []
    finally:
        app.stop_source()
        app.sounds.close()


# --- the settings -------------------------------------------------------------------------------


def test_the_sound_section_is_validated() -> None:
    cfg = HardwareConfig.from_toml('[sound]\nvoice = "off"\n[sound.names]\n"Chloé" = "Klo-é"\n')
    assert cfg.sound.voice == "off" and cfg.sound.names == {"Chloé": "Klo-é"}
    assert HardwareConfig().sound.voice == "on"
    with pytest.raises(ValueError, match='write "on"'):
        HardwareConfig.from_toml('[sound]\nvoice = "loud"\n')
    with pytest.raises(ValueError, match="1 to 80 characters"):
        HardwareConfig.from_toml('[sound.names]\n"Chloé" = ""\n')


# --- companion doctor ---------------------------------------------------------------------------


def test_doctor_says_whether_the_engine_or_the_device_is_missing(tmp_path: Path) -> None:
    from companion.cli.doctor import Context, check_voice

    def ctx(engine: str | None, device: bool, voice: str = "on") -> Context:
        c = Context(data_dir=tmp_path, speech_engine=lambda: engine, audio_device=lambda: device)
        c.config = HardwareConfig.from_toml(f'[sound]\nvoice = "{voice}"\n')
        return c

    missing = check_voice(ctx(None, True))
    assert missing.status == "fail" and "espeak-ng" in missing.fix_en and "installé" in missing.fr
    silent = check_voice(ctx("/usr/bin/espeak-ng", False))
    assert silent.status == "skip" and "no audio device" in silent.en and "espeak-ng is ready" in silent.en
    neither = check_voice(ctx(None, False))
    assert neither.status == "skip" and "not installed" in neither.en
    assert check_voice(ctx("/usr/bin/espeak-ng", True)).status == "ok"
    assert check_voice(ctx(None, False, "off")).status == "skip"


def test_the_config_and_mute_choose_the_voice() -> None:
    from companion.cli.play import _sounds

    ui = Ui(lang="fr")
    cfg = HardwareConfig.from_toml('[sound]\nvoice = "off"\n[sound.names]\n"Chloé" = "Klo-é"\n')
    sounds = _sounds(cfg, False, ui)
    try:
        assert sounds.voice is not None and not sounds.voice.on and not ui.voice
        assert sounds.voice.say_name("Chloé") == "Klo-é" and sounds.voice.say_name("Bruno") == "Bruno"
    finally:
        sounds.close()
    ui = Ui(lang="fr")
    sounds = _sounds(HardwareConfig(), True, ui)  # --mute
    assert sounds.voice is None and not sounds.available and not ui.voice
    ui = Ui(lang="fr")
    sounds = _sounds(HardwareConfig(), False, ui)
    try:
        assert sounds.voice is not None and sounds.voice.on and ui.voice
    finally:
        sounds.close()


def test_the_menu_turns_the_voice_off_and_on(audio: None, journal: Journal, screen: pygame.Surface) -> None:
    """A touch on the menu's "Voix : oui" silences the voice; another brings it back."""
    from tests.app_helpers import painter_of, touch

    voice = Voice(Espeak())
    app = kilo_app(journal, screen, voice)
    try:
        app.do(app_actions.Menu())
        app.step()
        labels = [rec.text for rec in painter_of(app).texts]
        assert "Voix\u202f: oui" in labels
        out = os.environ.get("COMPANION_SCREENS_OUT")
        if out:  # the picture of docs/screen.md's Voice section
            pygame.image.save(app.surface, str(Path(out) / "menu-voice-fr-800x480.png"))
        touch(app, app_actions.Voice())
        assert not app.ui.voice and not voice.on
        slap(app, 3000)
        app.submit(Verdict(valid=True))
        assert voice.wait_idle() and voice.heard == []
        app.do(app_actions.Menu())
        app.step()
        assert "Voix\u202f: non" in [rec.text for rec in painter_of(app).texts]
        touch(app, app_actions.Voice())
        assert app.ui.voice and voice.on
        app.submit(Undo())
        app.submit(Verdict(valid=True))
        assert voice.wait_idle() and [h.text for h in voice.heard] == ["Chloé, de 3 millisecondes."]
    finally:
        app.stop_source()
        app.sounds.close()
