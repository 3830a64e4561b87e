"""``companion buttons``: a live monitor for wiring and maintenance, and ``--assign`` to write the
pin map by pressing each button in seat order (nobody needs to know pin numbers)."""

from __future__ import annotations

import argparse
import errno
import json
import os
import queue
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.errors import CompanionError, ConfigError, HardwareError
from companion.hardware.config import (
    BUS_PINS,
    GPIO_HEADER,
    HardwareConfig,
    RefereePins,
    SeatPins,
    default_config_path,
    load_config,
    render_gpio,
    render_toml,
)
from companion.i18n import REFEREE_FR, os_reason, referee_name, t
from companion.inputs.base import InputEvent, QueueItem, SourceStatus
from companion.text import Text

BURST_GAP_NS = 1_500_000_000


def tr(lang: str, key: str, **kw: Any) -> str:
    return t(f"buttons.{key}", lang, **kw)


def who(lang: str, role: str, seat: int) -> str:
    if role == "seat":
        return tr(lang, "seat", n=seat + 1)
    return tr(lang, "referee", role=referee_name(role, lang))


def cmd_buttons(args: argparse.Namespace, *, pin_factory: Any = None) -> int:
    lang: str = args.lang
    try:
        config = load_config(args.config)
        if args.assign:
            _assign_needs_gpio(args.input, real_pins=pin_factory is None)
            return assign(
                config,
                output=args.output or args.config or default_config_path(),
                force=args.force,
                seats=args.seats,
                referee=args.referee,
                duration=args.duration,
                lang=lang,
                pin_factory=pin_factory,
            )
        from companion.hardware.sources import build_source

        name = args.input or config.input.source
        if "keyboard" in name.split("+") and _no_screen():
            raise HardwareError("buttons.no_screen")
        n_seats = args.seats if args.seats is not None else (4 if name == "sim" else None)
        source = build_source(
            name, config, n_seats=n_seats, pin_factory=pin_factory, seed=args.seed,
            speed=args.speed,
        )  # fmt: skip
        return monitor(
            source,
            sys.stdout,
            lang,
            max_events=args.max_events,
            duration=args.duration,
            as_json=args.json,
        )
    except CompanionError as err:
        print(err.message(lang), file=sys.stderr)
        return 2 if isinstance(err, ConfigError) else 1


def _no_screen() -> bool:
    """No desktop session, no video driver asked for, no DRM device: SDL would open an
    invisible window and the monitor would wait for keys that can never come."""
    import os

    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    if os.environ.get("SDL_VIDEODRIVER"):
        return False  # chosen on purpose (kmsdrm on a Pi console; dummy in tests)
    return not any(Path("/dev/dri").glob("card*"))


def _assign_needs_gpio(source: str | None, *, real_pins: bool) -> None:
    """``--assign`` names GPIO pins, so it listens to the Pi's header and nothing else."""
    import importlib.util

    if source is not None and source != "gpio":
        raise ConfigError("buttons.assign_gpio_only", source=source)
    if not real_pins:
        return
    from companion.advice import pip_install

    if importlib.util.find_spec("gpiod") is None:
        raise HardwareError("buttons.assign_no_gpiod", pip=pip_install("gpio"))
    from companion.inputs.gpiochip import chip_paths

    if not chip_paths():  # gpiod is here (just checked): its advice would be to install it again
        raise HardwareError("buttons.assign_no_chip")


def monitor(
    source: Any,
    out: TextIO,
    lang: str,
    *,
    max_events: int | None = None,
    duration: float | None = None,
    as_json: bool = False,
) -> int:
    """Print every press and release until ``max_events`` or ``duration``; 0 when it ends well."""
    q: queue.Queue[QueueItem] = queue.Queue()
    source.start(q)
    deadline = None if duration is None else time.monotonic() + duration
    if not as_json:
        print(tr(lang, "listening", source=source.name), file=out, flush=True)
    trigger = getattr(source, "trigger_slap", None)
    if trigger is not None:
        trigger()
    seen = 0
    bursts = _Bursts()
    try:
        while max_events is None or seen < max_events:
            item = _next_item(q, deadline)
            if item is _ENDED:
                break
            if isinstance(item, SourceStatus):
                _print_status(item, out, lang, as_json)
            elif isinstance(item, InputEvent):
                seen += 1
                if item.edge == "press" and bursts.press(item.t_ns) and not as_json:
                    print(tr(lang, "burst"), file=out)
                _print_event(item, bursts.first, source, out, lang, as_json)
            elif hasattr(item, "plan") and trigger is not None:
                trigger()  # the simulated table finished a slap: ask for the next one
    except KeyboardInterrupt:
        pass
    finally:
        source.stop()
    _print_summary(source, out, lang, as_json)
    return 0


_ENDED = object()


def _next_item(q: queue.Queue[QueueItem], deadline: float | None) -> Any:
    """What the source put within a quarter of a second (None if nothing), or _ENDED once the
    deadline has passed."""
    wait = 0.25 if deadline is None else min(0.25, deadline - time.monotonic())
    if wait <= 0:
        return _ENDED
    try:
        return q.get(timeout=wait)
    except queue.Empty:
        return None


class _Bursts:
    """Presses in bursts: one more than BURST_GAP_NS after the last starts the next, whose first
    press the listing counts from."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.last: int | None = None

    def press(self, t_ns: int) -> bool:
        """Whether this press starts a burst after an earlier one."""
        last = self.last
        new = last is None or t_ns - last > BURST_GAP_NS
        if new:
            self.first = t_ns
        self.last = max(t_ns, last or t_ns)
        return new and last is not None


def _stats_for(source: Any, role: str, seat: int) -> Any:
    stats = getattr(source, "stats", None)
    if stats is None:
        return None
    for s in stats():
        if s.button.role == role and s.button.seat == seat:
            return s
    return None


def _print_event(
    ev: InputEvent, first: int | None, source: Any, out: TextIO, lang: str, as_json: bool
) -> None:
    since_us = None if first is None else (ev.t_ns - first) // 1000
    st = _stats_for(source, ev.role, ev.seat)
    if as_json:
        rec: dict[str, Any] = {
            "role": ev.role,
            "seat": ev.seat,
            "edge": ev.edge,
            "t_ns": ev.t_ns,
            "since_first_us": since_us,
            "clock": ev.clock.name,
            "resolution_ns": ev.clock.resolution_ns,
            "source": ev.source,
        }
        if st is not None:
            rec.update(bounces=st.bounces, glitches=st.glitches, stuck=st.stuck)
        print(json.dumps(rec, ensure_ascii=False), file=out, flush=True)
        return
    since = "" if since_us is None else f"{since_us / 1000:+.3f} ms"
    if lang == "fr":
        since = since.replace(".", ",")
    line = f"{who(lang, ev.role, ev.seat):<18} {tr(lang, ev.edge):<9} {since:>14}"
    if st is not None:
        line += "   " + tr(lang, "stats", b=st.bounces, g=st.glitches)
        if st.stuck:
            line += "   " + tr(lang, "stuck")
    print(line, file=out, flush=True)


def _print_status(st: SourceStatus, out: TextIO, lang: str, as_json: bool) -> None:
    text = st.fr if lang == "fr" else st.en
    if as_json:
        rec = {"status": st.kind, "seat": st.seat, "source": st.source, "message": text}
        print(json.dumps(rec, ensure_ascii=False), file=out, flush=True)
    else:
        print(f"[{st.kind}] {text}", file=out, flush=True)


def _print_summary(source: Any, out: TextIO, lang: str, as_json: bool) -> None:
    stats = getattr(source, "stats", None)
    if stats is None or as_json:
        return
    for s in stats():
        stuck = f", {tr(lang, 'stuck')}" if s.stuck else ""
        name = who(lang, s.button.role, s.button.seat)
        print(
            tr(lang, "summary", who=name, presses=s.presses, b=s.bounces, g=s.glitches, stuck=stuck),
            file=out,
        )


# --- assign ------------------------------------------------------------------------------------


def free_pins(config: HardwareConfig) -> list[int]:
    """Header GPIOs not reserved by an enabled bus nor used by an LED: where buttons may be."""
    reserved = {p for bus in config.gpio.buses for p in BUS_PINS[bus]}
    reserved |= {s.led for s in config.gpio.seats if s.led is not None}
    return [p for p in sorted(GPIO_HEADER) if p not in reserved]


def assign(
    config: HardwareConfig,
    *,
    output: Path,
    force: bool = False,
    seats: int | None = None,
    referee: bool = False,
    duration: float | None = None,
    lang: str = "fr",
    pin_factory: Any = None,
    prompt: Callable[[str], None] | None = None,
) -> int:
    """Listen on every free pin; each first press names the next seat's pin. Writes the pin map."""
    from companion.inputs.gpio import open_gpio_source
    from companion.inputs.gpio_pins import ButtonPin

    say = prompt if prompt is not None else (lambda s: print(s, flush=True))
    if output.exists() and not force:
        raise ConfigError(
            "cli.buttons.assign",
            output=output,
        )
    _check_writable(output)
    if output.exists():
        _with_pin_map(output, config)  # a file it cannot rewrite is refused before listening too
    pins = free_pins(config)
    source = open_gpio_source(
        [ButtonPin("seat", i, p) for i, p in enumerate(pins)],
        chip=config.gpio.chip,
        settings=config.debounce.settings(),
        pin_factory=pin_factory,
    )
    q: queue.Queue[QueueItem] = queue.Queue()
    source.start(q)
    presses = _Presses(q, pins, None if duration is None else time.monotonic() + duration)
    ref: dict[str, int] = {}
    try:
        say(tr(lang, "assign.intro", n=len(pins)))
        chosen = _ask_seats(presses, say, lang, seats)
        if referee and chosen:
            ref = _ask_referee(presses, say, lang, chosen)
    finally:
        source.stop()
    if not chosen:
        raise HardwareError("buttons.assign.none")
    _write_config(output, _assigned(config, chosen, ref))
    say(tr(lang, "assign.written", path=output))
    return 0


class _Presses:
    """The pins pressed while ``assign`` listens, one at a time, until its deadline if any."""

    def __init__(self, q: queue.Queue[QueueItem], pins: list[int], deadline: float | None) -> None:
        self.q, self.pins, self.deadline = q, pins, deadline

    def next(self) -> int | None:
        while True:
            wait = None if self.deadline is None else self.deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            try:
                item = self.q.get(timeout=wait)
            except queue.Empty:
                return None
            if isinstance(item, InputEvent) and item.edge == "press":
                return self.pins[item.seat]


def _ask_seats(presses: _Presses, say: Callable[[str], None], lang: str, seats: int | None) -> list[int]:
    """Each seat's pin, in order, until ``seats`` or the first seat's button pressed again."""
    chosen: list[int] = []
    while seats is None or len(chosen) < seats:
        say(tr(lang, "assign.seat", n=len(chosen) + 1))
        pin = presses.next()
        if pin is None:
            break
        if chosen and pin == chosen[0] and seats is None:
            break
        if pin in chosen:
            say(tr(lang, "assign.again", pin=pin, what=who(lang, "seat", chosen.index(pin))))
            continue
        chosen.append(pin)
        say(tr(lang, "assign.got", what=who(lang, "seat", len(chosen) - 1), pin=pin,
               header=GPIO_HEADER[pin]))  # fmt: skip
    return chosen


def _ask_referee(
    presses: _Presses, say: Callable[[str], None], lang: str, chosen: list[int]
) -> dict[str, int]:
    """The referee buttons' pins; the first seat's button skips one."""
    ref: dict[str, int] = {}
    for role in ("confirm", "cancel", "undo"):
        say(tr(lang, "assign.referee", en=role, fr=REFEREE_FR[role]))
        while True:
            pin = presses.next()
            if pin is None or pin == chosen[0]:
                break
            if pin in chosen or pin in ref.values():
                say(tr(lang, "assign.again", pin=pin, what="?"))
                continue
            ref[role] = pin
            say(tr(lang, "assign.got", what=who(lang, role, 0), pin=pin,
                   header=GPIO_HEADER[pin]))  # fmt: skip
            break
    return ref


def _assigned(config: HardwareConfig, chosen: list[int], ref: dict[str, int]) -> HardwareConfig:
    old = config.gpio.seats
    new_seats = [SeatPins(button=p, led=old[i].led if i < len(old) else None) for i, p in enumerate(chosen)]
    gpio = config.gpio.model_copy(update={"seats": new_seats, "referee": RefereePins(**ref)})
    return HardwareConfig.from_dict(
        {
            "input": {"source": "gpio"},
            "gpio": gpio.model_dump(),
            "debounce": config.debounce.model_dump(),
            "display": config.display.model_dump(),  # the screen's turn survives --force
        }
    )


def _write_config(output: Path, new: HardwareConfig) -> None:
    from companion.paths import ensure_dir

    folder = Text.pair(en="the config folder", fr="le dossier de configuration")
    fix = Text.pair(
        en="pass --output with a file this user can write",
        fr="indiquez avec --output un fichier où cet utilisateur peut écrire",
    )
    ensure_dir(output.parent, what=folder, fix=fix, error=ConfigError)
    text = render_toml(new)
    if output.exists():
        text = _with_pin_map(output, new)
    try:
        tmp = output.with_name(f".{output.name}.{os.getpid()}.new")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, output)  # whole or not at all: a crash never leaves half a config
    except OSError as err:
        raise _cannot_write(output, err) from None


def _cannot_write(output: Path, err: OSError) -> ConfigError:
    why = Text.pair(en=err.strerror or type(err).__name__, fr=os_reason(err))
    return ConfigError("buttons.cannot_write", output=output, why=why)


def _check_writable(output: Path) -> None:
    """Refuse before listening: a folder found unwritable after every button was pressed loses
    the whole assignment. A probe file is made and removed where the config will go."""
    import tempfile

    folder = output.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the folders still to make go in the nearest one that exists
    try:
        if output.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".companion-probe-"):
            pass
    except OSError as err:
        raise _cannot_write(output, err) from None


def _with_pin_map(output: Path, new: HardwareConfig) -> str:
    """The user's file with its pin map replaced and every other line kept as it was (their
    keys, serial port, debounce, comments): ``--force`` replaces the pin map, nothing else."""
    import tomllib

    try:
        old_text = output.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise _cannot_write(
            output, err if isinstance(err, OSError) else OSError(errno.EILSEQ, "not UTF-8 text")
        ) from None
    header = re.compile(r"\s*\[\[?\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")
    kept: list[str] = []
    at: int | None = None
    in_gpio = False
    for line in old_text.splitlines():
        match = header.match(line)
        if match:
            name = match.group(1).replace(" ", "").replace('"', "").replace("'", "")
            in_gpio = name == "gpio" or name.startswith("gpio.")
            if in_gpio and at is None:
                at = len(kept)
        if not in_gpio:
            kept.append(line)
    block = [*render_gpio(new), ""]
    if at is None:
        kept += ["", *block]
    else:
        kept[at:at] = block
    text = "\n".join(kept).rstrip("\n") + "\n"
    try:
        before, after = tomllib.loads(old_text), tomllib.loads(text)
        same = {k: v for k, v in before.items() if k != "gpio"} == {
            k: v for k, v in after.items() if k != "gpio"
        }
        HardwareConfig.from_toml(text)
    except (tomllib.TOMLDecodeError, ConfigError):
        same = False
    if not same:  # a layout the line scan cannot follow: say so rather than lose a line
        pins = ", ".join(f"{{ button = {s.button} }}" for s in new.gpio.seats)
        raise ConfigError(
            "cli.buttons.with_pin_map",
            output=output,
            pins=pins,
        )
    return text
