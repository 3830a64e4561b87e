"""``companion firmware install`` puts the button-board firmware on a Pico (with mpremote);
``companion firmware info`` asks a running board who it is and how it is wired."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion.errors import CompanionError, HardwareError
from companion.i18n import referee_name, t

# main.py goes last: until it is there, a reset runs nothing half-copied.
FIRMWARE_FILES = (
    "pinmap.py",
    "ticks64.py",
    "debounce.py",
    "evring.py",
    "wire.py",
    "stdio.py",
    "irqcapture.py",
    "piocapture.py",
    "buttonboard.py",
    "main.py",
)

Runner = Callable[[Sequence[str]], int]


def tr(lang: str, key: str, **kw: Any) -> str:
    return t(f"fw.{key}", lang, **kw)


def firmware_dir() -> Path:
    """The Pico firmware shipped inside the package (package data: in a checkout,
    companion/firmware is a link to firmware/)."""
    from importlib.resources import files

    shipped = files("companion") / "firmware"
    # A wheel installs files on disk (never zipped), so the resource is a real folder mpremote
    # can copy from.
    return Path(str(shipped))


def mpremote_command() -> list[str]:
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    exe = shutil.which("mpremote")
    if exe is None:
        from companion.advice import pip_install

        raise HardwareError("fw.no_mpremote", pip=pip_install("serial"))
    return [exe]


def install_command(port: str, source: Path) -> list[str]:
    """The mpremote line that copies the firmware and restarts the board."""
    files = [str(source / f) for f in FIRMWARE_FILES]
    # mpremote interrupts the running firmware with Ctrl-C, which it leaves enabled for that.
    return [*mpremote_command(), "connect", port, "fs", "cp", *files, ":", "+", "reset"]


def _find_port(port: str | None) -> str:
    if port:
        return port
    from companion.inputs.serial_source import find_board_port

    found = find_board_port()
    if found is None:
        raise HardwareError("fw.no_board")
    return found


def cmd_install(args: argparse.Namespace, run: Runner | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    lang: str = args.lang
    source = Path(args.source) if args.source else firmware_dir()
    try:
        missing = [f for f in FIRMWARE_FILES if not (source / f).is_file()]
        if missing:
            raise HardwareError("fw.no_source", path=source)
        port = _find_port(args.port)
        cmd = install_command(port, source)
    except CompanionError as e:
        print(e.message(lang), file=sys.stderr)
        return 2
    print(tr(lang, "copying", port=port), file=out)
    print("  " + " ".join(cmd), file=out, flush=True)
    if args.dry_run:
        return 0
    code = (run or _run)(cmd)
    if code != 0:
        print(tr(lang, "failed", code=code), file=sys.stderr)
        return 1
    print(tr(lang, "done"), file=out)
    return 0


def _run(cmd: Sequence[str]) -> int:
    return subprocess.call(list(cmd))


def board_info(port_name: str | None) -> dict[str, Any]:
    """Handshake with a running board and ping it; the facts as plain data."""
    from companion.inputs import protocol as p
    from companion.inputs.serial_source import (
        BAUDRATE,
        READ_TIMEOUT_S,
        _serial,
        handshake,
        open_error,
    )

    serial = _serial()
    name = _find_port(port_name)
    try:
        port = serial.serial_for_url(name, baudrate=BAUDRATE, timeout=READ_TIMEOUT_S)
    except OSError as e:
        raise open_error(name, e) from e
    try:
        hello, parser, _ = handshake(port, name)
        nonce = 0x5A5A5A5A
        sent = time.monotonic()
        port.write(p.encode_command(p.Ping(nonce)))
        rtt = None
        while rtt is None and time.monotonic() - sent < 1.0:
            for msg in parser.feed(port.read(max(1, port.in_waiting))):
                if isinstance(msg, p.Pong) and msg.nonce == nonce:
                    rtt = (time.monotonic() - sent) * 1000
    finally:
        port.close()
    return {
        "port": name,
        "protocol": hello.protocol,
        "firmware": ".".join(map(str, hello.firmware)),
        "uid": hello.uid,
        "boot_id": hello.boot_id,
        "machine": hello.machine,
        "next_seq": hello.next_seq,
        "oldest_seq": hello.oldest_seq,
        "lockout_us": hello.lockout_us,
        "glitch_us": hello.glitch_us,
        "stuck_ms": hello.stuck_ms,
        "seat_pins": list(hello.seat_pins),
        "led_pins": list(hello.led_pins),
        "referee_pins": dict(zip(("confirm", "cancel", "undo"), hello.referee_pins, strict=True)),
        "capture": hello.capture,
        "resolution_ns": hello.resolution_ns,
        "align_us": hello.align_us,
        "ring_records": hello.ring_records,
        "rtt_ms": rtt,
    }


def cmd_info(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    lang: str = args.lang
    try:
        info = board_info(args.port)
    except CompanionError as e:
        print(e.message(lang), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(info), file=out)
        return 0
    none = tr(lang, "none")
    stuck = f"{info['stuck_ms'] / 1000:g} s" if info["stuck_ms"] else tr(lang, "never")
    lines = [
        tr(lang, "info.title", port=info["port"]),
        tr(lang, "info.firmware", fw=info["firmware"], proto=info["protocol"]),
        tr(lang, "info.machine", machine=info["machine"]),
        tr(lang, "info.uid", uid=info["uid"]),
        tr(
            lang,
            "info.events",
            next=info["next_seq"],
            held=info["next_seq"] - info["oldest_seq"],
        ),
        tr(
            lang,
            "info.debounce",
            lockout=info["lockout_us"] / 1000,
            glitch=info["glitch_us"] / 1000,
            stuck=stuck,
        ),
    ]
    lines.append(
        tr(
            lang,
            f"info.capture.{info['capture']}",
            res=f"{info['resolution_ns'] / 1000:g}",
            align=info["align_us"],
            ring=info["ring_records"],
        )
    )
    if info["rtt_ms"] is not None:
        lines.append(tr(lang, "info.rtt", rtt=info["rtt_ms"]))
    lines.append(tr(lang, "info.pins"))
    for i, pin in enumerate(info["seat_pins"]):
        led = info["led_pins"][i] if i < len(info["led_pins"]) else None
        lines.append(tr(lang, "info.seat", n=i + 1, pin=pin, led=none if led is None else f"GP{led}"))
    for role, pin in info["referee_pins"].items():
        shown = referee_name(role, lang)
        lines.append(tr(lang, "info.ref", role=shown, pin=none if pin is None else f"GP{pin}"))
    print("\n".join(lines), file=out)
    return 0
