"""Pictures and parts made from hardware/pinout.toml: a wiring diagram per board and seat count
(SVG), the bill of materials (CSV) and the cable plan (markdown), in French and English.

Pure text generation; ``render.outputs`` writes them with the other generated files.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from html import escape

from companion.hardware import pinout as po
from companion.hardware.config import HEADER_GPIO, HEADER_POWER

SEAT_COUNTS = range(3, 11)
COLOUR_FR = {
    "red": "rouge",
    "yellow": "jaune",
    "green": "verte",
    "orange": "orange",
    "blue": "bleue",
    "white": "blanche",
}
ROW = 22  # px between two header pins
PIN_R = 6

# Cable plan model: players sit 0.6 m apart around the table; the box is under its middle.
SEAT_SPACING_M = 0.6
SLACK_M = 0.8  # down to the box under the table, and a loop to unplug a button
PULL_UP_OHM = 50_000  # internal pull-up of both boards (Pi 50-65 kΩ, RP2040 50-80 kΩ)
CABLE_PF_PER_M = 100  # two-core cable, typical
RC_OHM = 1_000
RC_NF = 100
PLAIN_MAX_M = 3.0  # plain two-core cable up to this length
SHIELD_FROM_M = 10.0


def _pico_power(pin: int) -> str | None:
    return po.PICO_POWER.get(pin)


def _pin_label(board: po.Board, pin: int) -> str:
    """What a physical pin is: GPIOn, GND, 3V3..."""
    if board.name == "pi":
        if pin in HEADER_GPIO:
            return f"GPIO{HEADER_GPIO[pin]}"
        return HEADER_POWER[pin]
    gp = {v: k for k, v in po.PICO_GP_PIN.items()}
    if pin in gp:
        return f"GP{gp[pin]}"
    return _pico_power(pin) or "?"


def _pin_xy(board: po.Board, pin: int, cx: float, top: float) -> tuple[float, float, str]:
    """Where a physical pin is drawn, and on which side its wires leave ("l" or "r")."""
    if board.name == "pi":  # odd pins on the left column, even on the right, pin 1 at the top
        row = (pin - 1) // 2
        side = "l" if pin % 2 else "r"
    else:  # Pico: pins 1-20 down the left edge, 21-40 up the right edge (USB at the top)
        row = pin - 1 if pin <= 20 else 40 - pin
        side = "l" if pin <= 20 else "r"
    x = cx - 14 if side == "l" else cx + 14
    return x, top + row * ROW, side


def wiring_svg(p: po.Pinout, board_name: po.BoardName, seats: int) -> str:
    """One board with ``seats`` seats and the referee buttons drawn to their pins and ground."""
    board = p.board(board_name)
    width, top = 980, 110
    cx = width / 2
    height = top + 20 * ROW + 120
    parts: list[str] = []
    add = parts.append
    _title(add, p, board, seats, width, height)
    # The board and its 40 pins.
    add(
        f'<rect x="{cx - 70}" y="{top - 30}" width="140" height="{20 * ROW + 40}" rx="8" '
        f'fill="{"#1b6b3a" if board.name == "pi" else "#2e7d32"}" stroke="black"/>'
    )
    label = "40-pin header" if board.name == "pi" else "Pico (USB ↑)"
    add(f'<text x="{cx}" y="{top - 14}" text-anchor="middle" fill="white">{label}</text>')
    items = _wired_items(board, seats)
    wired = {board.physical(gpio) for gpio, *_ in items}
    ties = {
        side: next(g for g in board.ground_pins() if _pin_xy(board, g, cx, top)[2] == side)
        for side in ("l", "r")
    }
    wired |= set(ties.values())  # named at the foot of their ground bus
    _pins(add, board, cx, top, wired)
    # The ground buses, one each side, each tied to a GND pin of its side.
    bus_x = {"l": 40.0, "r": width - 40.0}
    for side in ("l", "r"):
        _ground_bus(add, board, side, ties[side], bus_x[side], cx, top, width)
    for item in items:
        _wire(add, board, item, bus_x, cx, top)
    for k, line in enumerate(_foot(board, seats)):
        add(f'<text x="{cx}" y="{height - 40 + k * 16}" text-anchor="middle">{escape(line)}</text>')
    add("</svg>")
    return "\n".join(parts) + "\n"


def _title(
    add: Callable[[str], None], p: po.Pinout, board: po.Board, seats: int, width: int, height: int
) -> None:
    cx = width / 2
    title = f"{board.title} — {seats} places / seats"
    add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="11">'
    )
    add(f"<title>{escape(title)}</title>")
    add(f'<rect width="{width}" height="{height}" fill="white"/>')
    add(
        f'<text x="{cx}" y="28" text-anchor="middle" font-size="18" font-weight="bold">{escape(title)}</text>'
    )
    note_fr = (
        f"Bouton : broche → NO ; COM → bornier de masse, un fil par bouton. LED : broche → "
        f"{p.resistor_ohm:g} Ω → LED "
        "(patte longue côté résistance) → masse."
    )
    note_en = (
        f"Button: pin → NO; COM → ground block, one wire per button. LED: pin → {p.resistor_ohm:g} "
        f"Ω → LED (long leg "
        "towards the resistor) → ground."
    )
    add(f'<text x="{cx}" y="50" text-anchor="middle">{escape(note_fr)}</text>')
    add(f'<text x="{cx}" y="66" text-anchor="middle" fill="#444">{escape(note_en)}</text>')


_Item = tuple[int, str, str, str]  # (gpio, kind, id, label)


def _wired_items(board: po.Board, seats: int) -> list[_Item]:
    """Each wired pin: its component between the pin and its side's ground bus."""
    items: list[_Item] = []
    for i, s in enumerate(board.seats[:seats]):
        items.append(
            (s.button, "button", f"seat{i + 1}-button", f"place {i + 1} bouton / seat {i + 1} button")
        )
        if s.led is not None:
            items.append((s.led, "led", f"seat{i + 1}-led", f"place {i + 1} LED / seat {i + 1} LED"))
    for role, pin in board.referee:
        items.append((pin, "button", f"referee-{role}", f"arbitre {po.REFEREE_FR[role]} / referee {role}"))
    return items


def _pins(add: Callable[[str], None], board: po.Board, cx: float, top: int, wired: set[int]) -> None:
    for pin in range(1, 41):
        x, y, side = _pin_xy(board, pin, cx, top)
        what = _pin_label(board, pin)
        colour = (
            "#111"
            if what in ("GND", "AGND")
            else "#c62828"
            if what in ("5V", "3V3", "VSYS", "VBUS")
            else "#f9a825"
        )
        add(f'<circle cx="{x}" cy="{y}" r="{PIN_R}" fill="{colour}" stroke="white"/>')
        if pin in wired:
            continue  # its wire's label names it
        tx = x - 10 if side == "l" else x + 10
        anchor = "end" if side == "l" else "start"
        add(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" font-size="9" fill="white">{pin}</text>')


def _ground_bus(
    add: Callable[[str], None],
    board: po.Board,
    side: str,
    gnd: int,
    x: float,
    cx: float,
    top: int,
    width: int,
) -> None:
    gx, gy, _ = _pin_xy(board, gnd, cx, top)
    add(
        f'<line x1="{x}" y1="{top - 10}" x2="{x}" y2="{top + 19 * ROW + 10}" stroke="black" '
        f'stroke-width="3"/>'
    )
    drop = gx - 36 if side == "l" else gx + 36  # beside the pin column, not over it
    add(
        f'<path id="gnd-{side}" data-pin="{gnd}" d="M{x},{top - 10} V{top - 40} H{drop} '
        f'V{gy} H{gx}" fill="none" stroke="black" stroke-width="2"/>'
    )
    gnd_anchor = "start" if side == "l" else "end"
    gnd_x = 8 if side == "l" else width - 8
    add(
        f'<text x="{gnd_x}" y="{top + 19 * ROW + 28}" text-anchor="{gnd_anchor}">GND '
        f"(broche/pin {gnd})</text>"
    )


def _wire(
    add: Callable[[str], None], board: po.Board, item: _Item, bus_x: dict[str, float], cx: float, top: int
) -> None:
    """pin -> label zone -> component -> ground bus"""
    gpio, kind, ident, text = item
    pin = board.physical(gpio)
    x, y, side = _pin_xy(board, pin, cx, top)
    sign = -1 if side == "l" else 1
    gx = bus_x[side]
    name = board.gpio_name(gpio)
    add(f'<g id="{ident}" data-gpio="{name}" data-pin="{pin}">')
    comp_x = gx + 60 if side == "l" else gx - 60
    add(f'<line x1="{x}" y1="{y}" x2="{comp_x - sign * 22}" y2="{y}" stroke="#1565c0" stroke-width="2"/>')
    if kind == "button":
        add(f'<circle cx="{comp_x}" cy="{y}" r="9" fill="#e53935" stroke="black"/>')
        add(f'<line x1="{comp_x + sign * 9}" y1="{y}" x2="{gx}" y2="{y}" stroke="black" stroke-width="2"/>')
    else:
        rx = comp_x - sign * 2 - 10
        add(f'<rect x="{rx}" y="{y - 4}" width="20" height="8" fill="#d7ccc8" stroke="black"/>')
        lx = comp_x + sign * 20
        tri = f"{lx - sign * 6},{y - 6} {lx - sign * 6},{y + 6} {lx + sign * 6},{y}"
        add(f'<polygon points="{tri}" fill="#ef5350" stroke="black"/>')
        add(f'<line x1="{lx + sign * 6}" y1="{y}" x2="{gx}" y2="{y}" stroke="black" stroke-width="2"/>')
    anchor = "end" if side == "l" else "start"
    tx = cx - 78 if side == "l" else cx + 78  # outside the board, clear of its wires
    add(
        f'<text x="{tx}" y="{y - 4}" text-anchor="{anchor}" font-size="10">'
        f"{escape(name)} (broche/pin {pin}) · {escape(text)}</text>"
    )
    add("</g>")


def _foot(board: po.Board, seats: int) -> list[str]:
    foot = []
    if board.name == "pi" and seats >= 9 and "spi" in board.gives_up:
        foot.append("Places 9-10 sur des broches SPI : SPI éteint. / Seats 9-10 use SPI pins: SPI off.")
    if board.name == "pi":
        lit = sum(1 for s in board.seats[:seats] if s.led is not None)
        if lit < seats:
            foot.append(
                f"LED sur les places 1 à {lit} seulement (budget de courant du Pi) ; "
                f"LEDs on seats 1-{lit} only (the Pi's current budget)."
            )
    return foot


# --- bill of materials ---------------------------------------------------------------------------


def _leds(board: po.Board, seats: int) -> int:
    return sum(1 for s in board.seats[:seats] if s.led is not None)


def cable_per_seat_m(seats: int) -> float:
    """From the box under the middle of a round table to one seat's button, with slack."""
    radius = seats * SEAT_SPACING_M / (2 * math.pi)
    return round(max(radius, 0.5) + SLACK_M, 1)


def bom_csv(p: po.Pinout) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["board", "part_fr", "part_en", "note_fr", "note_en", *(f"seats_{n}" for n in SEAT_COUNTS)])
    counts = list(SEAT_COUNTS)

    def row(board: str, fr: str, en: str, nfr: str, nen: str, qty: Sequence[object]) -> None:
        w.writerow([board, fr, en, nfr, nen, *qty])

    row(
        "both",
        "Bouton d'arcade 60 mm, micro-rupteur normalement ouvert",
        "60 mm arcade push button, normally-open microswitch",
        "un par joueur",
        "one per player",
        counts,
    )
    row(
        "both",
        "Bouton d'arcade 30 mm (arbitre : valider, annuler, revenir)",
        "30 mm arcade button (referee: confirm, cancel, undo)",
        "facultatif",
        "optional",
        [len(p.pi.referee)] * len(counts),
    )
    colour_fr = COLOUR_FR.get(p.led_colour, p.led_colour)
    row(
        "pi",
        f"LED 5 mm {colour_fr}",
        f"5 mm LED, {p.led_colour}",
        "une par place qui a une broche LED",
        "one per seat with an LED pin",
        [_leds(p.pi, n) for n in counts],
    )
    row(
        "pi",
        f"Résistance {p.resistor_ohm:g} Ω 1/4 W",
        f"{p.resistor_ohm:g} Ω resistor 1/4 W",
        "une par LED",
        "one per LED",
        [_leds(p.pi, n) for n in counts],
    )
    row(
        "pico",
        f"LED 5 mm {colour_fr}",
        f"5 mm LED, {p.led_colour}",
        "une par place",
        "one per seat",
        [_leds(p.pico, n) for n in counts],
    )
    row(
        "pico",
        f"Résistance {p.resistor_ohm:g} Ω 1/4 W",
        f"{p.resistor_ohm:g} Ω resistor 1/4 W",
        "une par LED",
        "one per LED",
        [_leds(p.pico, n) for n in counts],
    )
    row(
        "both",
        "Câble 2 conducteurs 0,25-0,5 mm² (mètres)",
        "Two-core cable 0.25-0.5 mm² (metres)",
        "bouton de chaque place (voir cable-plan.md)",
        "each seat's button (see cable-plan.md)",
        [round(n * cable_per_seat_m(n), 1) for n in counts],
    )
    row(
        "both",
        "Câble 2 conducteurs pour les LED (mètres)",
        "Two-core cable for the LEDs (metres)",
        "ou un câble 4 conducteurs bouton + LED",
        "or one four-core cable for button + LED",
        [round(_leds(p.pico, n) * cable_per_seat_m(n), 1) for n in counts],
    )
    row(
        "both",
        "Cosses femelles à sertir 4,8 mm (ou 6,3 mm : mesurez les pattes), ou fer à souder",
        "4.8 mm female crimp spade connectors (or 6.3 mm: measure the tabs), or a soldering iron",
        "deux par bouton, sur COM et NO du micro-rupteur (jamais NC)",
        "two per button, on the microswitch's COM and NO (never NC)",
        [2 * (n + len(p.pi.referee)) for n in counts],
    )
    row(
        "both",
        f"Filtre RC : résistance {RC_OHM} Ω + condensateur {RC_NF} nF",
        f"RC filter: {RC_OHM} Ω resistor + {RC_NF} nF capacitor",
        f"par bouton, seulement au-delà de {PLAIN_MAX_M:g} m de câble",
        f"per button, only beyond {PLAIN_MAX_M:g} m of cable",
        [n + len(p.pi.referee) if cable_per_seat_m(n) > PLAIN_MAX_M else 0 for n in counts],
    )
    row(
        "both",
        "Bornier à vis (masse commune)",
        "Screw terminal block (common ground)",
        "une borne par bouton + 1",
        "one terminal per button + 1",
        [n + len(p.pi.referee) + 1 for n in counts],
    )
    row(
        "both",
        "Raspberry Pi 4 ou 5 (connecteur 40 broches)",
        "Raspberry Pi 4 or 5 (40-pin header)",
        "Pi 3B+ possible ; avec le boîtier Pico, le Pi le reçoit en USB",
        "Pi 3B+ works; with the Pico box, the Pi takes it on USB",
        [1] * len(counts),
    )
    row("both", "Carte microSD 16 Go ou plus", "microSD card, 16 GB or more", "", "", [1] * len(counts))
    row(
        "both",
        "Alimentation officielle du Pi : Pi 5 USB-C 5,1 V 5 A ; Pi 4 USB-C 5,1 V 3 A ; Pi 3B+ "
        "micro-USB 5,1 V 2,5 A",
        "The Pi's official power supply: Pi 5 USB-C 5.1 V 5 A; Pi 4 USB-C 5.1 V 3 A; Pi 3B+ "
        "micro-USB 5.1 V 2.5 A",
        "celle de votre Pi : le Pi 3B+ ne prend pas l'USB-C",
        "the one for your Pi: the Pi 3B+ does not take USB-C",
        [1] * len(counts),
    )
    row(
        "both",
        "Clavier USB, ou pavé numérique USB",
        "USB keyboard, or a USB numeric keypad",
        "pour dire les cartes piochées et les noms : les boutons d'arbitre ne font que valider, "
        "annuler, revenir",
        "to enter the cards drawn and the names: the referee buttons only confirm, cancel and undo",
        [1] * len(counts),
    )
    row(
        "both",
        "Boîtier (boîte de dérivation ou boîte plastique) pour la carte et le bornier, avec presse-étoupes",
        "Enclosure (junction box or plastic box) for the board and the terminal block, with cable glands",
        "sous le milieu de la table ; un câble par place en sort",
        "under the middle of the table; one cable per seat leaves it",
        [1] * len(counts),
    )
    row(
        "pi",
        "Adaptateur bornier à vis pour GPIO 40 broches",
        "Screw-terminal breakout for the 40-pin header",
        "ou des fils Dupont femelles",
        "or female Dupont wires",
        [1] * len(counts),
    )
    row(
        "pico",
        "Raspberry Pi Pico, Pico W ou Pico 2, avec connecteurs",
        "Raspberry Pi Pico, Pico W or Pico 2, with headers",
        "MicroPython",
        "MicroPython",
        [1] * len(counts),
    )
    row(
        "pico",
        "Câble USB de données (micro-USB)",
        "Data USB cable (micro-USB)",
        "pas un câble de charge seule",
        "not a charge-only cable",
        [1] * len(counts),
    )
    row(
        "both",
        'Écran HDMI ou écran tactile officiel 7"',
        'HDMI TV or the official 7" touchscreen',
        "sans écran tactile, le clavier sert à tout",
        "without a touchscreen, the keyboard does everything",
        [1] * len(counts),
    )
    row(
        "both",
        "Câble micro-HDMI vers HDMI (Pi 4 et 5 ; HDMI vers HDMI pour le Pi 3B+)",
        "Micro-HDMI to HDMI cable (Pi 4 and 5; HDMI to HDMI for the Pi 3B+)",
        "pour un écran HDMI",
        "for an HDMI screen",
        [1] * len(counts),
    )
    row(
        "both",
        "Câble d'écran pour Pi 5 (FPC 22 broches vers 15 broches, 200 mm)",
        "Raspberry Pi 5 display cable (22-pin to 15-pin FPC, 200 mm)",
        "seulement Pi 5 + écran 7\" : le câble livré avec l'écran ne va qu'aux Pi 3 et 4",
        "Pi 5 with the 7\" screen only: the cable in the screen's box fits the Pi 3 and 4 alone",
        [1] * len(counts),
    )
    return out.getvalue()


# --- cable plan -----------------------------------------------------------------------------------


def rc_delay_us() -> float:
    """The RC filter's delay to the input threshold (half the supply), same for every seat."""
    return RC_OHM * RC_NF * 1e-9 * math.log(2) * 1e6


def cable_plan_md(p: po.Pinout) -> str:
    rows = []
    for n in SEAT_COUNTS:
        per = cable_per_seat_m(n)
        c_pf = per * CABLE_PF_PER_M
        tau_us = PULL_UP_OHM * c_pf * 1e-12 * 1e6
        need = "RC" if per > PLAIN_MAX_M else "—"
        rows.append(
            f"| {n} | {n * SEAT_SPACING_M:.1f} | {per:.1f} | {n * per:.1f} | "
            f"{c_pf:.0f} | {tau_us:.0f} | {need} |"
        )
    table = "\n".join(rows)
    head = (
        "| places / seats | tour de table / table round (m) | câble par place / cable per seat "
        "(m) | câble en tout / cable in all (m) | capacité / capacitance (pF) | "
        f"τ = {PULL_UP_OHM // 1000} kΩ × C (µs) | filtre / filter |"
    )
    ohm_m = 0.069  # 0.25 mm² copper
    led_drop_mv = p.led_ma * 2 * cable_per_seat_m(10) * ohm_m
    tau_rc = RC_OHM * RC_NF * 1e-9 * 1e6
    return f"""# Plan de câblage de la table / Cable plan for a table

<!-- {po.GENERATED}; edit pinout.toml, not this file. -->

The same numbers for both boards: the Pi's header and the Pico box sit in a box under the middle
of the table, and each seat's button (and LED) is one cable from that box.

{head}
|---|---|---|---|---|---|---|
{table}

## Français

**Longueurs.** Les joueurs sont à {SEAT_SPACING_M:g} m l'un de l'autre autour d'une table ronde ;
le boîtier est sous le milieu. Chaque place reçoit le rayon de la table plus {SLACK_M:g} m (la
descente vers le boîtier et une boucle pour débrancher). Comptez un câble à 2 conducteurs par
bouton (signal + masse), ou un câble à 4 conducteurs pour bouton + LED.

**Masse commune.** Toutes les masses se rejoignent sur **un seul** bornier dans le boîtier,
relié à une broche GND de la carte (schémas : `hardware/wiring/`). Chaque bouton a son propre
fil de masse torsadé avec son fil de signal : la boucle signal-masse reste petite et capte peu
de parasites. Ne faites pas passer la masse d'un joueur à l'autre en guirlande sur de grandes
longueurs : un seul fil coupé ferait tomber plusieurs places.

**Pourquoi un filtre au-delà de {PLAIN_MAX_M:g} m.** Un bouton au repos n'est tenu à 1 que par
la résistance de tirage interne (~{PULL_UP_OHM // 1000} kΩ) : une entrée à haute impédance au bout
d'un long fil est une antenne (secteur à 50 Hz, éclairage, décharges électrostatiques quand on
tape). Le companion rejette déjà une impulsion de moins de 2 ms, mais une décharge peut abîmer la
broche. Au-delà de {PLAIN_MAX_M:g} m, mettez côté carte une résistance de {RC_OHM} Ω en série
et un condensateur de {RC_NF} nF entre la broche et la masse : τ = {tau_rc:.0f} µs, le front est
retardé de {rc_delay_us():.0f} µs, **le même retard pour toutes les places** (prenez des
résistances à 1 % et des condensateurs C0G à 5 % : l'écart entre deux places reste sous
{rc_delay_us() * 0.06:.0f} µs). La résistance série limite aussi le courant d'une décharge. Le
câble lui-même ajoute {CABLE_PF_PER_M} pF/m : avec la résistance de tirage, τ = 50 kΩ × C reste
de l'ordre de la dizaine de µs, négligeable devant le verrouillage de 30 ms.

**Câble blindé** au-delà de {SHIELD_FROM_M:g} m, ou le long de câbles secteur : blindage relié à
la masse **côté boîtier seulement**. À cette distance, mieux vaut rapprocher le boîtier Pico de
la table et allonger le câble USB.

**LED.** {p.led_ma:.1f} mA dans {2 * cable_per_seat_m(10):.1f} m de fil de 0,25 mm²
({ohm_m} Ω/m) font chuter {led_drop_mv:.1f} mV : rien à craindre.

## English

**Lengths.** Players sit {SEAT_SPACING_M:g} m apart around a round table; the box is under the
middle. Each seat gets the table's radius plus {SLACK_M:g} m (down to the box and a loop to
unplug). One two-core cable per button (signal + ground), or a four-core cable for button + LED.

**Common ground.** All grounds meet on **one** terminal block in the box, tied to one GND pin of
the board (diagrams: `hardware/wiring/`). Each button has its own ground wire twisted with its
signal wire, which keeps the signal-ground loop small and quiet. Do not daisy-chain one ground
from player to player over long runs: one broken wire would drop several seats.

**Why a filter beyond {PLAIN_MAX_M:g} m.** An idle button is held at 1 only by the internal
pull-up (~{PULL_UP_OHM // 1000} kΩ): a high-impedance input at the end of a long wire is an
antenna (50 Hz mains, lighting, static discharges when a hand slaps). The companion already
rejects pulses shorter than 2 ms, but a discharge can damage the pin. Beyond {PLAIN_MAX_M:g} m put,
at the board end, a {RC_OHM} Ω resistor in series and a {RC_NF} nF capacitor from the pin to
ground: τ = {tau_rc:.0f} µs, the edge is delayed by {rc_delay_us():.0f} µs, **the same delay for every
seat** (use 1 % resistors and 5 % C0G capacitors: two seats then differ by less than
{rc_delay_us() * 0.06:.0f} µs). The series resistor also limits a discharge's current. The cable itself
adds about {CABLE_PF_PER_M} pF/m: with the pull-up, τ = 50 kΩ × C stays around ten µs,
negligible next to the 30 ms lockout.

**Shielded cable** beyond {SHIELD_FROM_M:g} m, or along mains cables: shield to ground **at the
box end only**. At that distance, rather bring the Pico box closer to the table and lengthen its
USB cable.

**LEDs.** {p.led_ma:.1f} mA through {2 * cable_per_seat_m(10):.1f} m of 0.25 mm² wire
({ohm_m} Ω/m) drops {led_drop_mv:.1f} mV: nothing to worry about.
"""


def outputs(p: po.Pinout) -> dict[str, str]:
    files = {f"hardware/wiring/{b}-{n}.svg": wiring_svg(p, b, n) for b in ("pi", "pico") for n in SEAT_COUNTS}
    files["hardware/bom.csv"] = bom_csv(p)
    files["hardware/cable-plan.md"] = cable_plan_md(p)
    return files
