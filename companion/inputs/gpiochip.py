"""The Pi's 40-pin header as a GPIO chip: finding it among the kernel's character devices by
its lines' names, and saying in one sentence why it, or one of its lines, would not open.

The buttons' reader (``inputs/gpio.py``) and the seat LEDs (``hardware/led_lines.py``) request
lines on the same chip, so what both need to find and open it lives here, on the inputs' floor,
which the hardware's stands on.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion.advice import pip_install
from companion.errors import ConfigError, HardwareError
from companion.text import Text

CONSUMER = "table-companion"

PIP_GPIO = pip_install("gpio")  # the running venv's pip and the extra's real packages
NO_GPIOD = Text("gpio.no_gpiod", pip=PIP_GPIO)
NO_GPIOD_EN, NO_GPIOD_FR = NO_GPIOD.en, NO_GPIOD.fr
HEADER_NAMES = "GPIO0..GPIO27"


def gpiod_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("gpiod") is not None


def _gpiod_chip() -> Callable[[str], Any]:
    try:
        import gpiod
    except ImportError as exc:
        raise HardwareError(NO_GPIOD) from exc
    return gpiod.Chip


def chip_paths() -> list[str]:
    """The GPIO character devices here, in number order."""
    found = (re.fullmatch(r".*gpiochip(\d+)", p) for p in glob.glob("/dev/gpiochip*"))
    return [f"/dev/gpiochip{n}" for n in sorted(int(m.group(1)) for m in found if m)]


def explain_chip_failure(chip: int | str | None, exc: BaseException) -> HardwareError:
    """One sentence naming the fix for a GPIO chip that would not open."""
    dev = chip if isinstance(chip, str) else f"/dev/gpiochip{chip if chip is not None else 0}"
    text = str(exc).lower()
    code = getattr(exc, "errno", None)
    if code in (errno.EACCES, errno.EPERM) or "permission" in text or "not permitted" in text:
        return HardwareError(
            "gpiochip.permission_open_add",
            dev=dev,
        )
    return HardwareError(
        "gpiochip.explain_chip_failure",
        dev=dev,
        exc=exc,
    )


def header_score(names: Sequence[str]) -> int:
    """How many of lines 0..27 carry the header's name ``GPIOn`` (Pi 4 and earlier name a few
    by their function instead, so the best score wins rather than a perfect one)."""
    return sum(1 for n, name in enumerate(names[:28]) if name == f"GPIO{n}")


def header_chip(
    open_chip: Callable[[str], Any], paths: Iterable[str], denied: list[tuple[str, OSError]] | None = None
) -> str | None:
    """The path of the 40-pin header's chip, found by its lines' names in libgpiod's chip and
    line info (Pi 5: RP1, ``gpiochip0`` or ``gpiochip4`` depending on the kernel; Pi 4 and
    earlier: the BCM chip). None if no chip has any line so named; the chips the user may not
    open go to ``denied``."""
    best, best_score = None, 0
    for path in paths:
        try:
            with contextlib.closing(open_chip(path)) as chip:
                n = min(28, chip.get_info().num_lines)
                names = [chip.get_line_info(o).name or "" for o in range(n)]
        except PermissionError as exc:
            if denied is not None:
                denied.append((path, exc))
            continue
        except OSError:
            continue
        score = header_score(names)
        if score > best_score:
            best, best_score = path, score
    return best


class NoHeaderChip(HardwareError):
    """No chip has the header's line names; ``looked`` says which chips were seen."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.looked = (
            Text.pair(en=", ".join(paths), fr=", ".join(paths)) if paths else Text("gpio.no_chip_at_all")
        )
        super().__init__("gpio.no_header_chip", names=HEADER_NAMES, looked=self.looked)


def no_header_chip(paths: Sequence[str]) -> HardwareError:
    return NoHeaderChip(paths)


def find_header_chip(
    chip: int | None,
    *,
    open_chip: Callable[[str], Any] | None = None,
    paths: Callable[[], list[str]] = chip_paths,
) -> str:
    """``/dev/gpiochipN`` of the header: ``chip`` if the config names it, else found by its
    lines' names; a HardwareError naming what was looked for when there is none."""
    if chip is not None:
        return f"/dev/gpiochip{chip}"
    opener = open_chip if open_chip is not None else _gpiod_chip()
    listed = paths()
    denied: list[tuple[str, OSError]] = []
    found = header_chip(opener, listed, denied)
    if found is None:
        if denied:
            # Not "no header here": the header may be the very chip we were not let open.
            raise explain_chip_failure(*denied[0])
        raise no_header_chip(listed)
    return found


class GpioLineError(ConfigError):
    def __init__(self, pin: int, exc: BaseException) -> None:
        if getattr(exc, "errno", None) == errno.EBUSY:
            # The line is fine, another program holds it: most often the table's own service,
            # still running while someone tries `companion buttons` or `--assign`.
            super().__init__("gpio.line_busy", pin=pin)
        else:
            super().__init__("gpio.line_refused", pin=pin, exc=exc)
        self.pin = pin
