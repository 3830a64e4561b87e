"""hardware/pinout.toml: the files made from it match it, and it is electrically sound."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import ConfigError
from companion.hardware import pinout as po
from companion.hardware.config import BUS_PINS, HEADER_POWER, GpioConfig, HardwareConfig
from companion.hardware.render import drifted, outputs

ROOT = Path(__file__).resolve().parents[2]
PINOUT = ROOT / "hardware" / "pinout.toml"
TEXT = PINOUT.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def pinout() -> po.Pinout:
    return po.load_pinout(PINOUT)


def test_no_generated_file_drifts(pinout: po.Pinout) -> None:
    assert drifted(ROOT, pinout) == [], "run `python -m companion.hardware render`"


def test_render_check_command_reports_drift(tmp_path: Path, pinout: po.Pinout) -> None:
    for rel, text in outputs(ROOT, pinout).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "hardware" / "pinout.toml").write_text(TEXT, encoding="utf-8")
    cmd = [sys.executable, "-m", "companion.hardware", "render", "--check", "--root", str(tmp_path)]
    assert subprocess.run(cmd, capture_output=True, check=False).returncode == 0
    (tmp_path / "hardware" / "pinout.toml").write_text(
        TEXT.replace("{ button = 2, led = 15 }", "{ button = 28, led = 15 }"), encoding="utf-8"
    )
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert "firmware/pinmap.py: differs from hardware/pinout.toml" in proc.stderr
    write = subprocess.run(
        [*cmd[:-3], "--root", str(tmp_path), "--lang", "en"], capture_output=True, text=True, check=False
    )
    assert write.returncode == 0 and "wrote firmware/pinmap.py" in write.stdout
    assert "SEAT_PINS = (28, 3," in (tmp_path / "firmware" / "pinmap.py").read_text()


def _firmware_pinmap() -> dict[str, object]:
    tree = ast.parse((ROOT / "firmware" / "pinmap.py").read_text(encoding="utf-8"))
    return {
        n.targets[0].id: ast.literal_eval(n.value)  # type: ignore[attr-defined]
        for n in tree.body
        if isinstance(n, ast.Assign)
    }


def test_firmware_table_keeps_its_names_and_shape(pinout: po.Pinout) -> None:
    fw = _firmware_pinmap()
    assert set(fw) == {"SEAT_PINS", "REFEREE_PINS", "LED_PINS", "STATUS_LED", "SAFE_MODE_PIN"}
    assert fw["SEAT_PINS"] == tuple(s.button for s in pinout.pico.seats)
    assert fw["REFEREE_PINS"] == tuple(pinout.pico.referee_pin(r) for r in po.REFEREE_ROLES)
    assert fw["LED_PINS"] == tuple(s.led for s in pinout.pico.seats)
    assert fw["SAFE_MODE_PIN"] == pinout.pico.referee_pin("cancel")


def test_hand_copy_in_the_serial_test_helpers_matches(pinout: po.Pinout) -> None:
    from tests import serial_helpers  # type: ignore[import-not-found]

    pico = pinout.pico
    assert tuple(s.button for s in pico.seats) == serial_helpers.SEAT_PINS
    assert tuple(pico.referee_pin(r) for r in po.REFEREE_ROLES) == serial_helpers.REFEREE_PINS


def test_default_gpio_map_is_accepted_by_the_config_with_the_buses_it_leaves_free(pinout: po.Pinout) -> None:
    pi = pinout.pi
    free = [b for b in BUS_PINS if b not in pi.gives_up]
    cfg = GpioConfig.model_validate(
        {
            "buses": free,
            "seats": [{"button": s.button, "led": s.led} for s in pi.seats],
            "referee": dict(pi.referee),
        }
    )
    assert len(cfg.seats) == 10
    with pytest.raises(ValueError, match="SPI"):  # seats 9 and 10 need SPI off
        GpioConfig.model_validate(
            {"buses": list(BUS_PINS), "seats": [{"button": s.button} for s in pi.seats]}
        )


def test_example_config_is_the_first_four_seats(pinout: po.Pinout) -> None:
    cfg = HardwareConfig.from_file(ROOT / "hardware" / "companion.example.toml")
    assert [(s.button, s.led) for s in cfg.gpio.seats] == [(s.button, s.led) for s in pinout.pi.seats[:4]]


# --- electrical ---------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["pi", "pico"])
def test_no_pin_twice_no_power_no_reserved(pinout: po.Pinout, board: po.BoardName) -> None:
    b = pinout.board(board)
    pins = [pin for pin, _, _ in b.uses()]
    assert len(pins) == len(set(pins))
    physical = [b.physical(pin) for pin in pins]
    power = HEADER_POWER if board == "pi" else po.PICO_POWER
    assert not set(physical) & set(power)
    if board == "pico":
        assert not set(pins) & set(po.PICO_RESERVED)
        assert not set(pins) & {0, 1}  # UART0 stays free
    else:
        for bus, bus_pins in BUS_PINS.items():
            if bus not in b.gives_up:
                assert not set(pins) & set(bus_pins), bus


def test_every_seat_the_table_supports_has_an_led_pin(pinout: po.Pinout) -> None:
    """Issue 37: the header's map gave LEDs to seats 1-6 only, though the table seats ten."""
    from companion.games import GAMES

    most = max(entry.max_players for entry in GAMES.values())
    for board in (pinout.pi, pinout.pico):
        assert len(board.seats) >= most
        assert all(s.led is not None for s in board.seats[:most]), board.name


@pytest.mark.parametrize("board", ["pi", "pico"])
def test_led_current_within_the_board_limits(pinout: po.Pinout, board: po.BoardName) -> None:
    b = pinout.board(board)
    per_led = (3.3 - pinout.forward_v) / pinout.resistor_ohm * 1000
    leds = sum(1 for s in b.seats if s.led is not None)
    assert per_led <= b.pin_max_ma
    assert per_led * leds <= b.total_max_ma
    # The documented resistor is the one the budget was computed for.
    doc = "pinmap.md" if board == "pi" else "pico-pinmap.md"
    assert f"{pinout.resistor_ohm:g} Ω" in (ROOT / "hardware" / doc).read_text(encoding="utf-8")
    assert f"{pinout.resistor_ohm:g} Ω" in (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        (
            "{ button = 27, led = 6 }",
            "{ button = 17, led = 6 }",
            "GPIO17 is used twice, for the button of seat 1 and for the button of seat 2",
        ),
        (
            "{ button = 3, led = 16 }",
            "{ button = 25, led = 16 }",
            "GP25 for the button of seat 2 is the on-board LED",
        ),
        ("{ button = 3, led = 16 }", "{ button = 1, led = 16 }", "belongs to the UART0 bus"),
        ('gives_up = ["spi", "uart"]', 'gives_up = ["uart"]', "belongs to the SPI bus"),
        ("{ button = 27, led = 6 }", "{ button = 2, led = 6 }", "belongs to the I2C bus"),
        ("{ button = 27, led = 6 }", "{ button = 40, led = 6 }", "is not on the 40-pin header"),
        ("resistor_ohm = 330", "resistor_ohm = 270", "4.8 mA through 270 Ω, more than the 4 mA a pico pin"),
        ("resistor_ohm = 330", "resistor_ohm = 150", "10 LEDs at 8.7 mA draw 87 mA together"),
        (
            "pin_max_ma = 16\ntotal_max_ma = 50",
            "pin_max_ma = 16\ntotal_max_ma = 20",
            "10 LEDs at 3.9 mA draw 39 mA together",
        ),
        ('safe_mode = "cancel"', 'safe_mode = "reset"', "is not one of its referee buttons"),
        ("[pi]", "[pie]", "the [pi] table is missing"),
    ],
)
def test_bad_pinout_is_one_sentence_with_the_fix(old: str, new: str, fragment: str) -> None:
    assert old in TEXT
    with pytest.raises(ConfigError) as info:
        po.parse_pinout(TEXT.replace(old, new, 1))
    assert fragment in info.value.en
    assert info.value.fr and info.value.fr != info.value.en
    assert info.value.en.count(":") >= 1 and "\n" not in info.value.en


# --- pictures and parts -------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["pi", "pico"])
@pytest.mark.parametrize("seats", range(3, 11))
def test_wiring_diagram_draws_each_seat_to_its_pin_and_ground(
    pinout: po.Pinout, board: po.BoardName, seats: int
) -> None:
    import xml.etree.ElementTree as ET

    svg = ROOT / "hardware" / "wiring" / f"{board}-{seats}.svg"
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    groups = {g.get("id"): g for g in root.iter(f"{ns}g")}
    b = pinout.board(board)
    for i, s in enumerate(b.seats[:seats]):
        g = groups[f"seat{i + 1}-button"]
        assert g.get("data-gpio") == b.gpio_name(s.button)
        assert g.get("data-pin") == str(b.physical(s.button))
        assert (f"seat{i + 1}-led" in groups) == (s.led is not None)
    assert f"seat{seats + 1}-button" not in groups
    for role, _ in b.referee:
        assert f"referee-{role}" in groups
    grounds = {str(g) for g in b.ground_pins()}
    paths = {p.get("id"): p.get("data-pin") for p in root.iter(f"{ns}path")}
    assert paths["gnd-l"] in grounds and paths["gnd-r"] in grounds
    title = root.find(f"{ns}title")
    assert title is not None and f"{seats} places / seats" in (title.text or "")


def test_bill_of_materials_counts_per_seat_count(pinout: po.Pinout) -> None:
    import csv

    rows = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open(encoding="utf-8")))
    buttons = next(r for r in rows if r["part_en"].startswith("60 mm arcade"))
    assert [int(buttons[f"seats_{n}"]) for n in range(3, 11)] == list(range(3, 11))
    pi_leds = next(r for r in rows if r["board"] == "pi" and r["part_en"].startswith("5 mm LED"))
    assert int(pi_leds["seats_10"]) == sum(1 for s in pinout.pi.seats if s.led is not None)
    pico_res = next(r for r in rows if r["board"] == "pico" and "resistor" in r["part_en"])
    assert int(pico_res["seats_10"]) == 10 and f"{pinout.resistor_ohm:g} Ω" in pico_res["part_en"]
    assert all(r["part_fr"] and r["part_en"] for r in rows)


def test_cable_plan_numbers_and_languages() -> None:
    from companion.hardware import drawings

    text = (ROOT / "hardware" / "cable-plan.md").read_text(encoding="utf-8")
    assert "## Français" in text and "## English" in text
    assert f"{drawings.RC_OHM} Ω" in text and f"{drawings.RC_NF} nF" in text
    # 10 players 0.6 m apart: a 6 m round, radius 0.95 m, plus slack.
    assert drawings.cable_per_seat_m(10) == 1.8
    assert "| 10 | 6.0 | 1.8 | 18.0 |" in text
    assert round(drawings.rc_delay_us()) == 69  # 1 kΩ × 100 nF × ln 2


def test_render_refuses_a_bad_pinout_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "hardware").mkdir()
    (tmp_path / "hardware" / "pinout.toml").write_text(
        TEXT.replace("{ button = 3, led = 16 }", "{ button = 2, led = 16 }"), encoding="utf-8"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "companion.hardware", "render", "--root", str(tmp_path), "--lang", "en"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().endswith(
        "pico: GP2 is used twice, for the button of seat 1 and "
        "for the button of seat 2: give each its own pin."
    )
    assert len(proc.stderr.strip().splitlines()) == 1
