"""A hand-written stand-in for the lgpio module (the C library's Python binding), enough for
gpiozero's LGPIOFactory, which drives the seat LEDs. Lines live on ``CHIPS`` (shared with the
kernel model in ``fake_kernel.py``), so a line lgpio holds cannot be requested by anyone else.

Like the real library, importing it changes the working directory to ``LG_WD``."""

import os

from fake_kernel import CHIPS

if os.environ.get("LG_WD"):
    os.chdir(os.environ["LG_WD"])  # what liblgpio does as it loads

SET_ACTIVE_LOW = 4
SET_OPEN_DRAIN = 8
SET_OPEN_SOURCE = 16
SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128
SET_BIAS_PULL_UP = SET_PULL_UP
SET_BIAS_PULL_DOWN = SET_PULL_DOWN
SET_BIAS_DISABLE = SET_PULL_NONE
RISING_EDGE = 1
FALLING_EDGE = 2
BOTH_EDGES = 3

opened: list[int] = []


class error(Exception):
    pass


def gpiochip_open(chip):
    if chip not in CHIPS:
        raise error("can not open gpiochip")
    opened.append(chip)
    return 1000 + chip


def gpiochip_close(handle):
    chip = CHIPS[handle - 1000]
    for line in chip.lines.values():
        if line.owner == "lgpio":
            line.owner = None


def _line(handle, gpio):
    return CHIPS[handle - 1000].line(gpio)


def gpio_claim_input(handle, gpio, lFlags=0):
    line = _line(handle, gpio)
    if line.owner not in (None, "lgpio"):
        raise error("GPIO busy")
    line.owner = "lgpio"
    line.flags = lFlags
    line.output = False
    return 0


def gpio_claim_output(handle, gpio, level=0, lFlags=0):
    line = _line(handle, gpio)
    if line.owner not in (None, "lgpio"):
        raise error("GPIO busy")
    line.owner, line.output, line.level = "lgpio", True, level
    return 0


def gpio_free(handle, gpio):
    line = _line(handle, gpio)
    if line.owner == "lgpio":
        line.owner = None
    return 0


def gpio_get_mode(handle, gpio):
    line = _line(handle, gpio)
    mode = (2 if line.output else 0) | (line.flags & 0xE0)
    return mode | (256 if line.owner == "lgpio" else 0)


def gpio_read(handle, gpio):
    line = _line(handle, gpio)
    if line.owner not in (None, "lgpio"):
        raise error("GPIO busy")
    return line.level


def gpio_write(handle, gpio, level):
    _line(handle, gpio).level = level
    return 0


def gpio_set_debounce_micros(handle, gpio, micros):
    return 0


def gpio_claim_alert(handle, gpio, eFlags, lFlags=0, notify_handle=None):
    raise AssertionError("buttons are read through libgpiod, never through lgpio alerts")


def callback(handle, gpio, edge=RISING_EDGE, func=None):
    raise AssertionError("buttons are read through libgpiod, never through lgpio callbacks")
