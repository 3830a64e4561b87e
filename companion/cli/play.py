"""``companion play kilo`` (the table screen) and ``companion snapshot`` (any screen to a PNG)."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.cli.options import lang_given
from companion.errors import CompanionError, JournalError, exit_code
from companion.i18n import t
from companion.inputs.names import INPUT_CHOICES
from companion.text import Text

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Benchmarks and the kiosk's health check read this to know when the first frame is up.
_TRACE_FRAMES = "COMPANION_TRACE_FRAMES"


def _both(key: str, **values: object) -> str:
    return t(key, "fr", **values) + "\n" + t(key, "en", **values)


def _err(err: CompanionError, lang: str) -> int:
    print(err.message(lang), file=sys.stderr)
    return exit_code(err)


def _lang(value: str) -> str | None:
    return value if value in ("fr", "en") else None


def _check_input(name: str, lang: str) -> bool:
    parts = [p.strip() for p in name.split("+")]
    if parts and all(p in INPUT_CHOICES for p in parts):
        return True
    print(t("cli.bad_input", lang, value=name, choices=", ".join(INPUT_CHOICES)), file=sys.stderr)
    return False


# --- snapshot ----------------------------------------------------------------------------------


def cmd_snapshot(args: argparse.Namespace) -> int:
    from companion.display.snapshot import check_screen, parse_size, snapshot

    lang = _lang(args.lang)
    if lang is None:
        print(_both("cli.bad_lang", value=args.lang), file=sys.stderr)
        return 2
    try:
        if not args.log:
            check_screen(args.screen)  # with a log, against that game's screens (in snapshot)
        size = parse_size(args.size)
        out = snapshot(
            args.screen,
            Path(args.log) if args.log else None,
            size,
            lang,
            Path(args.out),
            rotate=args.rotate or 0,
        )
    except CompanionError as err:
        return _err(err, lang)
    print(t("cli.wrote", lang, path=out, size=f"{size[0]}x{size[1]}"))
    return 0


# --- play --------------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    lang = _lang(args.lang)
    if lang is None:
        print(_both("cli.bad_lang", value=args.lang), file=sys.stderr)
        return 2
    if not _args_ok(args, lang):
        return 2
    try:
        size = _size(args)
        config, config_error = _play_config(args)
    except CompanionError as err:
        return _err(err, lang)
    from companion.display.state import Ui
    from companion.games import DEFAULT_GAME
    from companion.table.journal import Journal, default_data_dir

    ui = Ui(lang=lang, muted=args.mute, game=args.game or DEFAULT_GAME)
    if not _players_ok(args, lang):
        return 2
    names = [n.strip() for n in args.players.split(",")] if args.players else None
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        journal = Journal(data_dir, writer=True)
    except CompanionError as err:
        return _err(err, lang)
    try:
        return _play(journal, args, ui, _Start(config, config_error, names, seed, size))
    finally:
        journal.close()


def _args_ok(args: argparse.Namespace, lang: str) -> bool:
    """The options that need nothing read: the game, --rounds for it, --speed, --input."""
    from companion.games import GAMES

    if args.game is not None and args.game not in GAMES:
        print(t("cli.bad_game", lang, value=args.game, choices=", ".join(GAMES)), file=sys.stderr)
        return False
    if args.rounds is not None and args.game is not None and not GAMES[args.game].play_rounds:
        print(t("cli.rounds_fixed", lang, game=GAMES[args.game].title), file=sys.stderr)
        return False
    if not args.speed >= 0:  # also refuses nan
        print(t("cli.speed_range", lang), file=sys.stderr)
        return False
    return args.input is None or _check_input(args.input, lang)


def _players_ok(args: argparse.Namespace, lang: str) -> bool:
    names = [n.strip() for n in args.players.split(",")] if args.players else []
    if len(names) == 1 and names[0].isdigit():  # `demo --players 5` taken over to play
        print(t("cli.players_are_names", lang, value=names[0]), file=sys.stderr)
        return False
    if args.rounds is not None and not 1 <= args.rounds <= 99:
        print(t("cli.rounds_range", lang), file=sys.stderr)
        return False
    return True


def _size(args: argparse.Namespace) -> tuple[int, int] | None:
    if not args.size:
        return None
    from companion.display.snapshot import parse_size

    return parse_size(args.size)


def _play_config(args: argparse.Namespace) -> tuple[Any, CompanionError | None]:
    """The config and, for a kiosk whose file cannot be read, why (it then opens on the defaults)."""
    from companion.hardware.config import load_config

    # Without --config, the pin map `companion buttons --assign` wrote (if any) is the one.
    try:
        return load_config(Path(args.config) if args.config else None), None
    except CompanionError as err:
        if not args.fullscreen:
            raise
        # A kiosk has nobody at a terminal, and exiting would restart it for ever: the screen
        # opens with the defaults (keys, touch) and says what is wrong with the file.
        from companion.hardware.config import HardwareConfig

        return HardwareConfig(), err


@dataclass
class _Start:
    """What ``play`` brings to the table: its config (and why the file was refused), the
    players named, the seed, the window's size."""

    config: Any
    config_error: CompanionError | None
    names: list[str] | None
    seed: int
    size: tuple[int, int] | None


def _play(journal: Any, args: argparse.Namespace, ui: Any, start: _Start) -> int:
    """The game resumed, begun from --players, or the setup screen; then the table screen."""
    lang = ui.lang
    try:
        table = _resumed(journal, args.resume)
        # --input, else the config's [input] source (when the file names one), else keys.
        config = start.config
        configured = config.input.source if "source" in config.input.model_fields_set else None
        input_name = args.input or configured or "keyboard"
        if table is not None:
            if not lang_given(args) and table.meta.get("lang") in ("fr", "en"):
                lang = ui.lang = str(table.meta["lang"])  # it goes on in the language it began in
            input_name = args.input or str(table.meta.get("input", "keyboard"))
            start.seed = int(table.meta.get("seed", start.seed))
            if not args.config:
                start.config = _config_of(table.meta)
        _show_setup_errors(ui, input_name, start, begun=table is not None, players=args.players)
        if table is None and start.names is not None:
            table = _begin(journal, args, ui, start, input_name)
            if table is None:
                return 2
        elif table is None:
            _setup_screen(journal, args, ui, input_name)
        else:
            ui.game = args.game or table.engine.game
            ui.say(
                Text("scr.msg.resumed", game_id=table.game_id),
                error=False,
            )
        return _run(journal, table, ui, input_name, start.config, start.seed, args, start.size)
    except CompanionError as err:
        return _err(err, lang)


def _resumed(journal: Any, resume: str | None) -> Any:
    """``--resume [ID]``'s game, or None."""
    from companion.table.live import Table

    if resume is None:
        return None
    try:
        return Table.resume(journal, resume or None)
    except JournalError:
        if resume:
            raise
        # Nothing unfinished: a kiosk that always passes --resume opens a new game.
        return None


def _show_setup_errors(ui: Any, input_name: str, start: _Start, *, begun: bool, players: str | None) -> None:
    """Buttons that cannot work, or a config file refused: the table screen still comes up and
    says why (a kiosk that exited here would restart for ever, showing nothing)."""
    try:
        _preflight(input_name, start.config)
    except CompanionError as err:
        _hardware_failed(ui, input_name, err)
        if not begun and start.names is not None:
            start.names = None  # no game begun half-way: the setup screen, with the names
            ui.setup.players = [n.strip() for n in (players or "").split(",")]
    refused = start.config_error
    if refused is not None:
        ui.hardware.notes.append(refused.text)
        ui.say(refused.text)
        print(refused.message(ui.lang), file=sys.stderr, flush=True)


def _chosen_game(journal: Any, args: argparse.Namespace) -> tuple[str, Any]:
    """The game named, else the one the table played last (the unit is the table's, not a
    game's), else the default; and that last game (None when a game is named)."""
    from companion.games import DEFAULT_GAME, GAMES

    last = journal.last_game() if args.game is None else None
    return args.game or (last.game if last is not None and last.game in GAMES else DEFAULT_GAME), last


def _begin(journal: Any, args: argparse.Namespace, ui: Any, start: _Start, input_name: str) -> Any:
    """A new game of the players named (--players), or None when they cannot play it (said)."""
    from companion.games import load
    from companion.table.live import Table

    ui.game = _chosen_game(journal, args)[0]
    game = load(ui.game)
    try:
        setup = game.setup(players=start.names, **game.play_keys(args.rounds))
    except ValueError as err:  # a pydantic refusal of --players (count, names)
        _players_error(err, ui.lang)
        return None
    return Table.start(journal, setup, _meta(input_name, start.seed, args.config, ui.lang))


def _setup_screen(journal: Any, args: argparse.Namespace, ui: Any, input_name: str) -> None:
    """The setup screen (where the game is chosen), for the last game's kind and players."""
    from companion.display.names import kept
    from companion.display.state import SetupForm
    from companion.games import GAMES

    ui.game, last = _chosen_game(journal, args)
    given = ui.setup.players if args.players else None
    ui.setup = SetupForm(game=ui.game, input=input_name)
    if args.rounds is not None:
        ui.setup.rounds = args.rounds
    entry = GAMES[ui.game]
    if given:
        ui.setup.players = given
    elif (
        last is not None
        and last.game == ui.game
        and entry.min_players <= len(last.players) <= entry.max_players
    ):
        ui.setup.players = list(last.players)
        # The short forms chosen for that game are proposed again: the players chose them.
        ui.setup.shorts = kept(last.meta, last.players)
    del ui.setup.players[entry.max_players :]


def _players_error(err: ValueError, lang: str) -> int:
    """Why --players cannot play the game, on stderr; the exit code."""
    from pydantic import ValidationError

    message = err.message(lang) if isinstance(err, CompanionError) else str(err)
    if isinstance(err, ValidationError):
        first = err.errors(include_url=False)[0]
        cause = first.get("ctx", {}).get("error")
        message = cause.message(lang) if isinstance(cause, CompanionError) else str(cause or first["msg"])
    print(f"--players: {message}", file=sys.stderr)
    return 2


def play_table(journal: Any, table: Any, lang: str = "fr") -> int:
    """Put an already-open game on the table screen (``companion resume`` for non-sim games)."""
    from companion.cli import build_parser
    from companion.display.state import Ui

    args = build_parser().parse_args(["play", table.engine.game, "--lang", lang])
    ui = Ui(lang=lang)
    ui.say(
        Text("scr.msg.resumed", game_id=table.game_id),
        error=False,
    )
    return _run(
        journal,
        table,
        ui,
        str(table.meta.get("input", "keyboard")),
        _config_of(table.meta),
        int(table.meta.get("seed", 0)),
        args,
        None,
    )


def _hardware_failed(ui: Any, input_name: str, err: CompanionError) -> None:
    """A button source that cannot start, on the screen (the top bar and the hardware status)."""
    hw = ui.hardware
    hw.source = input_name
    hw.connected = False
    hw.failed = True
    hw.notes.append(err.text)
    ui.say(Text("scr.msg.source_failed", why=err.text))


def _preflight(input_name: str, config: Any) -> None:
    """Refuse GPIO buttons with no pin map, no libgpiod or no header chip, with the fix, without
    requesting a pin."""
    if "gpio" not in [p.strip() for p in input_name.split("+")]:
        return
    import importlib.util

    config.require_gpio_seats()
    from companion.errors import HardwareError
    from companion.inputs.gpiochip import NO_GPIOD, find_header_chip

    if importlib.util.find_spec("gpiod") is None:
        raise HardwareError(NO_GPIOD)
    find_header_chip(config.gpio.chip)  # chip info only: a sentence if the header is not here


def _meta(input_name: str, seed: int, config: str | None, lang: str = "fr") -> dict[str, Any]:
    """What a resumed game needs to find its buttons again: source, seed, pin map file, and the
    language it was played in."""
    meta: dict[str, Any] = {"input": input_name, "seed": seed, "lang": lang}
    if config:
        meta["config"] = str(Path(config).resolve())
    return meta


def _config_of(meta: dict[str, Any]) -> Any:
    """The pin map a game was started with, else the default one (as `play` would load)."""
    from companion.hardware.config import load_config

    recorded = meta.get("config")
    return load_config(Path(recorded) if recorded and Path(recorded).is_file() else None)


def _sounds(config: Any, mute: bool, ui: Any) -> Any:
    """The cues and the table's voice (``[sound]``): --mute silences both; without espeak-ng
    or an audio device the voice is silent, and the menu still turns it off and on."""
    from companion.display.sound import Sounds

    if mute:
        ui.voice = False  # the menu says so: nothing will be said
        return Sounds(enabled=False)
    from companion.display.voice import open_voice

    sound = config.sound if config is not None else None
    voice = open_voice(sound is None or sound.voice == "on", sound.names if sound is not None else None)
    ui.voice = voice.on
    return Sounds(enabled=True, voice=voice, lang=ui.lang)


def _run(
    journal: Any,
    table: Any,
    ui: Any,
    input_name: str,
    config: Any,
    seed: int,
    args: argparse.Namespace,
    size: tuple[int, int] | None,
) -> int:
    import pygame

    from companion.display.app import App
    from companion.display.window import open_display

    try:
        with _no_hopeless_wayland():
            surface = open_display(size, fullscreen=args.fullscreen)
    except pygame.error as err:
        print(t("cli.no_display", ui.lang, why=sdl_reason(str(err), ui.lang)), file=sys.stderr)
        return 1
    from companion.cli import raise_if_terminated

    raise_if_terminated()  # a stop while the screen opened (set_mode swallows it)
    factory, leds, said = _leds_or_why(config, input_name, ui)
    web = None
    if getattr(args, "web", False) or (config is not None and config.web.enabled):
        web = open_phones(config, journal.data_dir, ui)
    app = App(
        surface,
        journal,
        table,
        ui,
        config=config,
        source_name=input_name,
        seed=seed,
        speed=args.speed,
        sounds=_sounds(config, args.mute, ui),
        leds=leds,
        pin_factory=factory,
        web=web,
    )
    app.start()  # the game's buttons: a source that cannot start is said by _settle
    if web is not None:
        from companion.web.server import serve_table

        serve_table(web, app)
    _settle(app, table, config, args, said)
    try:
        raise_if_terminated()  # nor is a stop during the set-up lost (any library swallowing it)
        try:
            return app.run()
        except KeyboardInterrupt:  # Ctrl-C during the game: say how to go on, as the demo does
            from companion.cli import interrupted

            return interrupted(app.ui.lang)
    finally:
        from companion.display import snapshot

        snapshot._FONTS.clear()  # fonts die with pygame.quit(); a later snapshot makes new ones
        pygame.quit()
        _close(web, leds, factory)


def _close(web: Any, leds: Any, factory: Any) -> None:
    """The phones' server, then the LEDs, then their lines, after the screen."""
    if web is not None:
        web.stop()
    if leds is not None:
        leds.close()
    if factory is not None:
        factory.close()


def _leds_or_why(config: Any, input_name: str, ui: Any) -> tuple[Any, Any, str]:
    """The seat LEDs and their lines, or (None, None, why) said on the table's screen and stderr:
    the game goes on without LEDs."""
    try:
        factory, leds = open_seat_leds(config, input_name)
    except CompanionError as err:
        ui.say(err.text)  # the game goes on without LEDs; the table sees why
        said = err.message(ui.lang)
        print(said, file=sys.stderr, flush=True)
        return None, None, said
    return factory, leds, ""


def _settle(app: Any, table: Any, config: Any, args: argparse.Namespace, said: str) -> None:
    """The App's settings from the command line and the config, before its loop starts."""
    recorded = table.meta.get("config") if table is not None else None
    given = getattr(args, "config", None)
    app.config_file = str(Path(given).resolve()) if given else recorded
    from companion.hardware.config import default_config_path

    # The language chosen on the screen is kept where this table's settings are read from.
    app.settings_path = Path(app.config_file) if app.config_file else default_config_path()
    from companion.display.rotation import Rotated

    rotate = getattr(args, "rotate", None)
    app.turned = Rotated(
        rotate if rotate is not None else (config.display.rotate if config is not None else 0)
    )
    hw = app.ui.hardware
    if hw.failed and hw.notes and app.ui.text(hw.notes[-1]) != said:
        print(app.ui.text(hw.notes[-1]), file=sys.stderr, flush=True)  # the unit's journal
    if os.environ.get(_TRACE_FRAMES) == "1":

        def trace(n: int) -> None:
            print(f"#frame {n} {time.monotonic_ns()}", file=sys.stderr, flush=True)

        app.on_frame = trace


@contextlib.contextmanager
def _no_hopeless_wayland() -> Iterator[None]:
    """SDL's driver list without Wayland while no Wayland socket can be found (no
    WAYLAND_DISPLAY path, no XDG_RUNTIME_DIR folder): trying it anyway makes libwayland print
    its own unprefixed English line ("error: XDG_RUNTIME_DIR is invalid...") beside ours. The
    list leaves out the invisible drivers too, as open_display refuses them anyway."""
    wayland = os.environ.get("WAYLAND_DISPLAY", "")
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    hopeless = not wayland.startswith("/") and not (runtime and os.path.isdir(runtime))
    if "SDL_VIDEODRIVER" in os.environ or not hopeless:
        yield
        return
    os.environ["SDL_VIDEODRIVER"] = "x11,kmsdrm"
    try:
        yield
    finally:
        del os.environ["SDL_VIDEODRIVER"]


def sdl_reason(why: str, lang: str) -> str:
    """SDL's reason for no screen, in French when it is one SDL gives for that (its texts are
    English and fixed); left as SDL wrote it otherwise."""
    if lang != "fr":
        return why or "SDL"
    import re

    if why in ("", "no display", "No available video device"):
        return "aucun pilote vidéo de SDL n'a trouvé d'écran"
    driver = re.fullmatch(r"(\S+) not available", why)
    if driver:
        return f"le pilote vidéo {driver.group(1)} de SDL est indisponible"
    return "SDL : " + why


def open_phones(config: Any, data_dir: Path, ui: Any) -> Any:
    """The phones' server, not listening yet (it listens once the App can be followed); None,
    said on the table's screen and on stderr, when the ``web`` extra is not installed: the game
    goes on with its other buttons, as when the server cannot listen."""
    try:
        from companion.web.server import open_web
    except ImportError as exc:
        from companion.advice import pip_install

        missing = (exc.name or "starlette").split(".")[0]  # the package, not its module
        command = pip_install("web")  # this venv's pip, the extra's own packages
        err = CompanionError("play.no_web_extra", missing=missing, command=command)
        ui.say(err.text)
        ui.hardware.notes.append(err.text)
        print(err.message(ui.lang), file=sys.stderr, flush=True)
        return None
    return open_web(config, data_dir)


def open_seat_leds(config: Any, input_name: str) -> tuple[Any, Any]:
    """The Pi's seat LEDs and their lines on the header's chip, which the GPIO buttons then share
    (the source does not own them, so LEDs outlive a restarted game); (None, None) without LED
    pins or gpio."""
    if config is None or "gpio" not in [p.strip() for p in input_name.split("+")]:
        return None, None
    pins = [s.led for s in config.gpio.seats]
    if all(pin is None for pin in pins):
        return None, None
    from companion.hardware.led_lines import led_lines
    from companion.hardware.leds import SeatLeds

    factory = led_lines(config.gpio.chip)
    try:
        return factory, SeatLeds(pins, pin_factory=factory, pwm=config.gpio.led_pwm)
    except CompanionError:
        factory.close()
        raise
