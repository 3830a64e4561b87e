"""``hardware/pinout.toml``, the one source of truth for the button box's wiring, read, checked
electrically and turned into the files made from it (firmware pin table, default GPIO map,
markdown pin tables).

Pure: text in, text out. ``python -m companion.hardware render`` writes the files; a test fails
when one of them drifts from pinout.toml.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.errors import ConfigError
from companion.hardware.config import BUS_NAMES_EN, BUS_NAMES_FR, BUS_PINS, HEADER_GPIO, HEADER_POWER
from companion.text import Text

BoardName = Literal["pi", "pico"]
REFEREE_ROLES = ("confirm", "cancel", "undo")
REFEREE_FR = {"confirm": "valider", "cancel": "annuler", "undo": "revenir"}
IO_VOLTS = 3.3  # both boards drive their pins at 3.3 V

# The Pico's 40 pins, as printed on the board: GPn -> physical pin. Same on Pico, Pico W, Pico 2.
PICO_GP_PIN: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
PICO_POWER: dict[int, str] = {
    3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "AGND", 38: "GND",
    30: "RUN", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 39: "VSYS", 40: "VBUS",
}  # fmt: skip
# GPIOs wired on the Pico board itself, never on its edge pins.
PICO_RESERVED: dict[int, str] = {
    23: "the power supply's mode pin", 24: "VBUS sense", 25: "the on-board LED (Pico)",
    29: "the VSYS voltage sense",
}  # fmt: skip
PICO_BUSES: dict[str, tuple[int, ...]] = {"uart0": (0, 1)}
PICO_BUS_NAMES = {"uart0": "UART0"}


@dataclass(frozen=True, slots=True)
class Seat:
    button: int
    led: int | None


@dataclass(frozen=True, slots=True)
class Board:
    """One board's map: seats in seat order, referee buttons by role, limits for LED current."""

    name: BoardName
    title: str
    seats: tuple[Seat, ...]
    referee: tuple[tuple[str, int], ...]  # (role, pin), in REFEREE_ROLES order
    gives_up: tuple[str, ...]
    pin_max_ma: float
    total_max_ma: float
    status_led: str | None = None
    safe_mode: str | None = None

    def referee_pin(self, role: str) -> int | None:
        return dict(self.referee).get(role)

    def uses(self) -> list[tuple[int, str, str]]:
        """(pin, English, French) for every pin in use."""
        out: list[tuple[int, str, str]] = []
        for i, s in enumerate(self.seats):
            out.append((s.button, f"the button of seat {i + 1}", f"le bouton de la place {i + 1}"))
            if s.led is not None:
                out.append((s.led, f"the LED of seat {i + 1}", f"la LED de la place {i + 1}"))
        for role, pin in self.referee:
            out.append((pin, f"the referee button {role}", f"le bouton d'arbitre {REFEREE_FR[role]}"))
        return out

    def physical(self, gpio: int) -> int:
        return HEADER_GPIO_INV[gpio] if self.name == "pi" else PICO_GP_PIN[gpio]

    def gpio_name(self, gpio: int) -> str:
        return f"GPIO{gpio}" if self.name == "pi" else f"GP{gpio}"

    def ground_pins(self) -> list[int]:
        power = HEADER_POWER if self.name == "pi" else PICO_POWER
        return [p for p, what in sorted(power.items()) if what == "GND"]


HEADER_GPIO_INV: dict[int, int] = {g: p for p, g in HEADER_GPIO.items()}


@dataclass(frozen=True, slots=True)
class Pinout:
    pi: Board
    pico: Board
    resistor_ohm: float
    forward_v: float
    led_colour: str

    def board(self, name: BoardName) -> Board:
        return self.pi if name == "pi" else self.pico

    @property
    def led_ma(self) -> float:
        """Current through one lit LED, from the pin's 3.3 V through the resistor."""
        return max(0.0, (IO_VOLTS - self.forward_v) / self.resistor_ohm * 1000)


def _err(where: str, key: str, /, **fields: object) -> ConfigError:
    """A refusal of the pinout file, ``where`` naming the table it is in."""
    return ConfigError("pinout.err", where=where, what=Text(key, **fields))


def _int(value: Any, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(
            where,
            "pinout.int",
            what=what,
            value=value,
        )
    return value


def _board(name: BoardName, data: Any, where: str) -> Board:
    if not isinstance(data, dict):
        raise _err(
            where,
            "pinout.board",
            name=name,
        )
    seats = []
    for i, s in enumerate(data.get("seats", [])):
        if not isinstance(s, dict) or "button" not in s:
            raise _err(
                where,
                "pinout.seats_needs_button",
                name=name,
                i=i,
            )
        led = s.get("led")
        seats.append(
            Seat(
                _int(s["button"], where, f"{name} seat {i + 1} button"),
                None if led is None else _int(led, where, f"{name} seat {i + 1} led"),
            )
        )
    referee = data.get("referee", {})
    unknown = set(referee) - set(REFEREE_ROLES)
    if unknown:
        bad = sorted(unknown)[0]
        raise _err(
            where,
            "pinout.referee_referee_button",
            name=name,
            bad=bad,
        )
    gives_up = tuple(data.get("gives_up", ()))
    buses = BUS_PINS if name == "pi" else PICO_BUSES
    for bus in gives_up:
        if bus not in buses:
            raise _err(
                where,
                "pinout.gives_up_unknown_bus",
                name=name,
                bus=bus,
                buses=", ".join(buses),
            )
    return Board(
        name=name,
        title=str(data.get("name", name)),
        seats=tuple(seats),
        referee=tuple(
            (r, _int(referee[r], where, f"{name} referee {r}")) for r in REFEREE_ROLES if r in referee
        ),
        gives_up=gives_up,
        pin_max_ma=float(data.get("pin_max_ma", 16)),
        total_max_ma=float(data.get("total_max_ma", 50)),
        status_led=data.get("status_led"),
        safe_mode=data.get("safe_mode"),
    )


def parse_pinout(text: str, where: str = "pinout.toml") -> Pinout:
    """Read pinout.toml and check it (``check``); one sentence with the fix if anything is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _err(
            where,
            "pinout.parse_pinout",
            exc=exc,
        ) from None
    led = data.get("led", {})
    pinout = Pinout(
        pi=_board("pi", data.get("pi"), where),
        pico=_board("pico", data.get("pico"), where),
        resistor_ohm=float(led.get("resistor_ohm", 330)),
        forward_v=float(led.get("forward_v", 2.0)),
        led_colour=str(led.get("colour", "red")),
    )
    check(pinout, where)
    return pinout


def load_pinout(path: Path | None = None) -> Pinout:
    path = path or shipped("pinout.toml")
    return parse_pinout(path.read_text(encoding="utf-8"), str(path))


def shipped(name: str) -> Path:
    """A file of hardware/ shipped in the package (package data; a link in a checkout)."""
    from importlib.resources import files

    return Path(str(files("companion.hardware") / name))


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


# --- electrical check ---------------------------------------------------------------------------


def check(p: Pinout, where: str = "pinout.toml") -> None:
    """Refuse a map that cannot work on the real board, naming the pin and the fix."""
    if p.resistor_ohm < 100:
        raise _err(
            where,
            "pinout.check",
            resistor_ohm=p.resistor_ohm,
        )
    for board in (p.pi, p.pico):
        _check_board(board, where)
        lit = sum(1 for s in board.seats if s.led is not None)
        if p.led_ma > board.pin_max_ma:
            raise _err(
                where,
                "pinout.one_led_draws",
                led_ma=p.led_ma,
                resistor_ohm=p.resistor_ohm,
                pin_max_ma=board.pin_max_ma,
                name=board.name,
            )
        if lit * p.led_ma > board.total_max_ma:
            raise _err(
                where,
                "pinout.leds_ma_draw",
                lit=lit,
                led_ma=p.led_ma,
                lit_ma=lit * p.led_ma,
                total_max_ma=board.total_max_ma,
                name=board.name,
            )


def _check_board(board: Board, where: str) -> None:
    if not 1 <= len(board.seats) <= 10:
        raise _err(
            where,
            "pinout.check_board",
            name=board.name,
            n_seats=len(board.seats),
        )
    if board.name == "pi":
        buses = {pin: bus for bus, pins in BUS_PINS.items() if bus not in board.gives_up for pin in pins}
        bus_names = (BUS_NAMES_EN, BUS_NAMES_FR)
    else:
        buses = {pin: bus for bus, pins in PICO_BUSES.items() if bus not in board.gives_up for pin in pins}
        bus_names = (PICO_BUS_NAMES, PICO_BUS_NAMES)
    seen: dict[int, tuple[str, str]] = {}
    for pin, en, fr in board.uses():
        _check_exists(board, pin, en, fr, where)
        _check_free(board, pin, en, fr, where, buses, bus_names, seen)
        seen[pin] = (en, fr)
    if board.safe_mode is not None and board.referee_pin(board.safe_mode) is None:
        raise _err(
            where,
            "pinout.safe_mode_one",
            name=board.name,
            safe_mode=board.safe_mode,
        )


def _check_exists(board: Board, pin: int, en: str, fr: str, where: str) -> None:
    """The pin is one of the board's own edge pins."""
    if board.name == "pi" and pin not in HEADER_GPIO_INV:
        raise _err(
            where,
            "pinout.check_exists",
            pin=pin,
            use=Text.pair(en=en, fr=fr),
        )
    if board.name != "pico":
        return
    if pin in PICO_RESERVED:
        raise _err(
            where,
            "pinout.pico_gp_board",
            pin=pin,
            use=Text.pair(en=en, fr=fr),
            pico_reserved_pin=PICO_RESERVED[pin],
        )
    if pin not in PICO_GP_PIN:
        raise _err(
            where,
            "pinout.pico_gp_does",
            pin=pin,
            use=Text.pair(en=en, fr=fr),
        )


def _check_free(
    board: Board,
    pin: int,
    en: str,
    fr: str,
    where: str,
    buses: dict[int, str],
    bus_names: tuple[dict[str, str], dict[str, str]],
    seen: dict[int, tuple[str, str]],
) -> None:
    """The pin is on no bus kept for its use, and used once."""
    name = board.gpio_name(pin)
    if pin in buses:
        bus = buses[pin]
        raise _err(
            where,
            "pinout.check_free",
            name=board.name,
            gpio=name,
            use=Text.pair(en=en, fr=fr),
            bus_name=Text.pair(en=bus_names[0][bus], fr=bus_names[1][bus]),
            bus=bus,
        )
    if pin in seen:
        raise _err(
            where,
            "pinout.used_twice_give",
            name=board.name,
            gpio=name,
            first=Text.pair(en=seen[pin][0], fr=seen[pin][1]),
            use=Text.pair(en=en, fr=fr),
        )


# --- files made from the pinout -----------------------------------------------------------------

GENERATED = "generated from hardware/pinout.toml by `python -m companion.hardware render`"


def _tuple(values: list[int | None]) -> str:
    return "(" + ", ".join("None" if v is None else str(v) for v in values) + ")"


def render_firmware_pinmap(p: Pinout) -> str:
    b = p.pico
    leds = [s.led for s in b.seats]
    referee = [b.referee_pin(r) for r in REFEREE_ROLES]
    safe = b.referee_pin(b.safe_mode) if b.safe_mode else None
    min_gpio = min(pin for pin in (*[s.button for s in b.seats], *referee) if pin is not None)
    return f"""# The board's wiring, {GENERATED}:
# edit pinout.toml, not this file. hardware/pico-pinmap.md shows the same numbers.
# GPIO numbers (GPn), not physical pins.
# Every button is wired between its pin and GND (the pin's pull-up makes "pressed" read 0).
# A seat or referee button that is not wired simply never reads pressed.

# The PIO capture (piocapture.py) reads the seat and referee pins with one 13-pin `in`, from the
# lowest of them: keep them within 13 consecutive GPIOs (here GP{min_gpio}..GP{min_gpio + 12}), or the board
# falls back to the interrupt path (hello and `companion firmware info` say which one runs).

# Seats 0..{len(b.seats) - 1}, in the order the companion numbers them.
SEAT_PINS = {_tuple([s.button for s in b.seats])}

# Referee buttons: confirm, cancel, undo. None for a button the board does not have.
REFEREE_PINS = {_tuple(referee)}

# One LED per seat, same order as SEAT_PINS (through a resistor to GND). None: no LED.
LED_PINS = {_tuple(leds)}

# The Pico's own LED blinks with the heartbeat ("LED" works on Pico, Pico W and Pico 2).
STATUS_LED = "{b.status_led}"

# Held while the board powers up, this button keeps the firmware from starting, so that the
# REPL stays free (e.g. for mpremote) even if a bad main.py were installed. The {b.safe_mode} button.
SAFE_MODE_PIN = {safe}
"""


def render_pi_markdown(p: Pinout) -> str:
    b = p.pi
    spi = set(BUS_PINS["spi"]) if "spi" in b.gives_up else set()
    uart = set(BUS_PINS["uart"]) if "uart" in b.gives_up else set()
    gnd = ", ".join(str(g) for g in b.ground_pins())
    rows = []
    for i, s in enumerate(b.seats):
        star = "*" if s.button in spi else ""
        led = (
            f"GPIO{s.led}{'*' if s.led in spi else '†' if s.led in uart else ''}"
            if s.led is not None
            else "—"
        )
        led_pin = str(b.physical(s.led)) if s.led is not None else ""
        rows.append(f"| {i + 1} | GPIO{s.button}{star} | {b.physical(s.button)} | {led} | {led_pin} |")
    for role, pin in b.referee:
        rows.append(f"| {REFEREE_FR[role]} / {role} | GPIO{pin} | {b.physical(pin)} | | |")
    table = "\n".join(rows)
    lit = sum(1 for s in b.seats if s.led is not None)
    spi_fr = spi_en = ""
    if spi:
        starred = [i + 1 for i, s in enumerate(b.seats) if s.button in spi or s.led in spi]
        which = ", ".join(str(n) for n in starred[:-1]) + " et " + str(starred[-1])
        which_en = ", ".join(str(n) for n in starred[:-1]) + " and " + str(starred[-1])
        spi_fr = (
            f"\n\\* Les places {which} prennent des broches SPI : seulement avec le SPI "
            "éteint (absent de `gpio.buses`, comme par défaut).\n"
        )
        spi_en = (
            f"\n\\* Seats {which_en} use SPI pins: only when SPI is off (not in `gpio.buses`, the default).\n"
        )
    if uart:
        crossed = [i + 1 for i, s in enumerate(b.seats) if s.button in uart or s.led in uart]
        spi_fr += (
            f"\n† La LED de la place {crossed[0]} prend une broche de l'UART : laissez le port "
            "série éteint (il l'est, sauf si « Serial Port » a été activé dans raspi-config).\n"
        )
        spi_en += (
            f"\n† Seat {crossed[0]}'s LED uses a UART pin: leave the serial port off (it is, "
            "unless raspi-config's Serial Port was turned on).\n"
        )
    return f"""# Plan de câblage / Pin map (Raspberry Pi 40-pin header)

<!-- {GENERATED}; edit pinout.toml, not this file. -->

## Français

Numéros GPIO (BCM, ceux du fichier de configuration) et broches du connecteur. Aucune de ces
broches n'appartient à l'I2C (GPIO2/3) ni à l'EEPROM des HAT (GPIO0/1).
Masse (GND) : broches {gnd}. Chaque bouton va de sa broche à une masse ; chaque LED va de sa
broche à une résistance de {p.resistor_ohm:g} Ω puis à la masse ({p.led_ma:.1f} mA par LED,
{lit * p.led_ma:.0f} mA pour les {lit} LED allumées ensemble, sous les {b.total_max_ma:g} mA du Pi).

## English

BCM GPIO numbers (what the config file uses) and physical header pins. None of these pins belong
to I2C (GPIO2/3) or the HAT EEPROM (GPIO0/1). Ground: pins {gnd}. Each button
goes from its pin to a ground; each LED from its pin through a {p.resistor_ohm:g} Ω resistor to
ground ({p.led_ma:.1f} mA per LED, {lit * p.led_ma:.0f} mA with all {lit} lit, within the Pi's
{b.total_max_ma:g} mA).

| Place / seat | Bouton / button | Broche / pin | LED | Broche / pin |
|---|---|---|---|---|
{table}
{spi_fr}{spi_en}
`hardware/companion.example.toml` is this map for four players with LEDs and referee buttons;
`companion buttons --assign` writes your own. Pictures: `hardware/wiring/pi-<seats>.svg`.
"""


def render_pico_markdown(p: Pinout) -> str:
    b = p.pico
    gnd = ", ".join(str(g) for g in b.ground_pins())
    left = [(f"seat {i + 1} button / bouton place {i + 1}", s.button) for i, s in enumerate(b.seats)]
    left += [(f"{role} / {REFEREE_FR[role]} (referee / arbitre)", pin) for role, pin in b.referee]
    right = [
        (f"seat {i + 1} LED / LED place {i + 1}", s.led) for i, s in enumerate(b.seats) if s.led is not None
    ]
    rows = ["| what / quoi | GPIO | pin / broche |", "|---|---|---|"]
    rows += [f"| {what} | GP{pin} | {b.physical(pin)} |" for what, pin in left + right]
    rows.append(f"| GND | — | {gnd} |")
    rows.append(f'| on-board LED: heartbeat / LED de la carte : battement | "{b.status_led}" | — |')
    safe = b.referee_pin(b.safe_mode) if b.safe_mode else None
    table = "\n".join(rows)
    safe_fr = safe_en = ""
    if safe is not None and b.safe_mode is not None:
        safe_fr = (
            f"Tenir **{REFEREE_FR[b.safe_mode]}** (GP{safe}) enfoncé en branchant la carte "
            "la démarre en mode sans échec : le firmware ne tourne pas et le REPL reste "
            "libre.\n\n"
        )
        safe_en = (
            f"Holding **{b.safe_mode}** (GP{safe}) while plugging the board in starts it "
            "in safe mode: the firmware does not run and the REPL stays free.\n\n"
        )
    return f"""# Boîtier Pico / Pico button board: pin map

<!-- {GENERATED}; edit pinout.toml, not this file. -->

## Français

Le firmware lit ses broches dans `firmware/pinmap.py`, tiré de `hardware/pinout.toml` comme ce
tableau. GPn est le numéro GPIO (celui du code) ; « broche » est la broche physique, numérotée
comme sur la Pico, la Pico W et la Pico 2 (même brochage). Chaque bouton va de son GPIO à une
broche GND (tirage interne : appuyé lit 0). Chaque LED va de son GPIO à une résistance de
{p.resistor_ohm:g} Ω puis à GND ({p.led_ma:.1f} mA par LED, sous les {b.pin_max_ma:g} mA d'une
broche ; {len(right) * p.led_ma:.0f} mA pour toutes, sous les {b.total_max_ma:g} mA de la carte).

{safe_fr}Moins de places : laissez les boutons inutiles non câblés (ils ne lisent jamais
« appuyé »). Autres broches : modifiez `hardware/pinout.toml`, lancez
`python -m companion.hardware render` puis `companion firmware install` ;
`companion firmware info` montre le plan que la carte exécute vraiment. Évitez GP23, GP24, GP25
et GP29 (câblés sur la carte), et GP0/GP1 si l'UART peut servir un jour.

## English

The firmware reads its pins from `firmware/pinmap.py`, made from `hardware/pinout.toml` like this
table. GPn is the GPIO number (what the code uses); "pin" is the physical pin, counted as printed
on the Pico, Pico W and Pico 2 (same footprint, same numbers). Every button goes between its GPIO
and any GND pin (internal pull-up: pressed reads 0). Every LED goes from its GPIO through a
{p.resistor_ohm:g} Ω resistor to GND ({p.led_ma:.1f} mA per LED, within a pin's
{b.pin_max_ma:g} mA; {len(right) * p.led_ma:.0f} mA for all, within the board's
{b.total_max_ma:g} mA).

{safe_en}Fewer seats: leave the unused buttons unwired (they never read pressed). Other pins: edit
`hardware/pinout.toml`, run `python -m companion.hardware render`, then
`companion firmware install`; `companion firmware info` shows the map the board really runs.
Avoid GP23, GP24, GP25 and GP29 (used on the Pico board itself), and GP0/GP1 if you may want the
UART later.

{table}

Pictures: `hardware/wiring/pico-<seats>.svg`.
"""


EXAMPLE_BEGIN = "# BEGIN pin map (generated from hardware/pinout.toml)"
EXAMPLE_END = "# END pin map"
EXAMPLE_SEATS = 4


def render_example_block(p: Pinout) -> str:
    """The pin-map block of companion.example.toml: the first four seats and the referee."""
    b = p.pi
    lines = [EXAMPLE_BEGIN, "seats = ["]
    for i, s in enumerate(b.seats[:EXAMPLE_SEATS]):
        led = "" if s.led is None else f", led = {s.led}"
        where = f"header pins {b.physical(s.button)}"
        if s.led is not None:
            where += f" (button) and {b.physical(s.led)} (LED)"
        lines.append(f"  {{ button = {s.button}{led} }},  # seat {i + 1}: {where}")
    lines += ["]", "", "[gpio.referee]", "# Optional referee buttons; leave out the ones you do not have."]
    lines += [f"{role} = {pin}  # pin {b.physical(pin)}" for role, pin in b.referee]
    lines.append(EXAMPLE_END)
    return "\n".join(lines)


def splice(text: str, block: str, begin: str = EXAMPLE_BEGIN, end: str = EXAMPLE_END) -> str:
    """``text`` with the lines from ``begin`` to ``end`` replaced by ``block``."""
    start = text.index(begin)
    stop = text.index(end, start) + len(end)
    return text[:start] + block + text[stop:]
