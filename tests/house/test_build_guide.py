"""The build guide as someone who has never wired a button reads it (issue 37): the parts with
what each is for, the microswitch's COM and NO, one ground rule in every document, one picture
per kind of board, the sound and the service's drop-in, the service stopped before the commands
that need its pins. tests/house/test_install_doc.py runs the install guide's blocks; this reads the
words."""

from __future__ import annotations

import csv
import errno
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WIRING = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
PARTS = (ROOT / "hardware" / "parts.md").read_text(encoding="utf-8")
CABLES = (ROOT / "hardware" / "cable-plan.md").read_text(encoding="utf-8")
INSTALL = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
KIOSK = (ROOT / "docs" / "kiosk.md").read_text(encoding="utf-8")
BOM = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open(encoding="utf-8")))


def test_the_microswitch_is_wired_on_com_and_no_with_spades_or_solder() -> None:
    for text in (WIRING, PARTS):
        assert "COM" in text and "NO" in text and "NC" in text
    assert re.search(r"spade|cosse", PARTS, re.I) and "solder" in PARTS
    spades = [r for r in BOM if "spade" in r["part_en"]]
    assert spades and "COM and NO" in spades[0]["note_en"]


def test_one_ground_rule_everywhere() -> None:
    shared = re.compile(
        r"share one ground|partager la même masse|daisy-chained between|de bouton en bouton\)", re.I
    )
    for name, text in (("wiring", WIRING), ("parts", PARTS), ("cables", CABLES)):
        assert not shared.search(text), name
        assert re.search(r"own ground wire", text), name  # each button its own, to one block
    assert "~2 m per seat" not in PARTS and "1.3–1.8 m" in PARTS


def test_the_parts_say_what_a_table_needs_beyond_the_buttons() -> None:
    en = " ".join(r["part_en"] + " " + r["note_en"] for r in BOM)
    for words in ("keyboard", "numeric keypad", "Micro-HDMI", "Pi 5 display cable", "Enclosure"):
        assert words in en and words.lower() in PARTS.lower(), words
    supply = next(r for r in BOM if "power supply" in r["part_en"])
    assert "Pi 3B+ micro-USB" in supply["part_en"] and "Pi 5 USB-C 5.1 V 5 A" in supply["part_en"]
    assert "micro-USB 5.1 V 2.5 A" in PARTS


def test_one_picture_per_kind_of_board() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(\.\./(hardware/wiring/[a-z]+-\d+\.svg)\)", WIRING)
    assert sorted(p.split("/")[-1].split("-")[0] for p in pictures) == ["pi", "pico"]
    for rel in pictures:
        svg = (ROOT / rel).read_text(encoding="utf-8")
        assert "COM" in svg and "NO" in svg, rel


def test_the_led_pins_and_how_to_write_them() -> None:
    assert "led = N" in WIRING and "`--assign` writes the buttons only" in WIRING
    table = (ROOT / "hardware" / "pinmap.md").read_text(encoding="utf-8")
    assert "| 10 | GPIO9* | 21 | GPIO14† | 8 |" in table
    assert "more than eight players" not in table


def test_sound_and_mute_through_a_drop_in() -> None:
    step = INSTALL.split("## 9.")[1].split("## 10.")[0]
    assert "sudo systemctl edit companion" in step
    assert "Environment=AUDIODEV=plughw:CARD=" in step
    assert "ExecStart=\nExecStart=/home/companion/venv/bin/companion play" in step and "--mute" in step
    unit = (ROOT / "hardware" / "companion.service").read_text(encoding="utf-8")
    start = re.search(r"^ExecStart=(.*?)(?<!\\)$", unit, re.M | re.S)
    assert start is not None
    own = " ".join(start.group(1).replace("\\\n", " ").split())
    assert f"ExecStart={own} --mute" in step  # the drop-in repeats the unit's own line
    assert "sudo systemctl edit companion" in KIOSK and "AUDIODEV" in KIOSK and "--mute" in KIOSK


def test_the_service_is_stopped_before_the_commands_that_need_its_pins() -> None:
    for text in (WIRING, INSTALL, KIOSK):
        assert "sudo systemctl stop companion" in text
        assert "firmware install" in text and "--assign" in text


def test_a_busy_line_or_port_names_the_service() -> None:
    from companion.inputs.gpiochip import GpioLineError
    from companion.inputs.serial_source import open_error

    busy = OSError(errno.EBUSY, "Device or resource busy")
    line = GpioLineError(17, busy)
    assert "sudo systemctl stop companion" in line.en and "sudo systemctl stop companion" in line.fr
    assert "pick another pin" not in line.en
    port = open_error("/dev/companion-pico", busy)
    assert "sudo systemctl stop companion" in port.en and "sudo systemctl stop companion" in port.fr
