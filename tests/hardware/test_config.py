"""The pin map and button settings: what is accepted, and the one sentence for what is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import ConfigError
from companion.hardware.config import (
    GPIO_HEADER,
    HardwareConfig,
    parse_pin,
    render_toml,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "companion.example.toml"


def refused(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        HardwareConfig.from_toml(text)
    e = err.value
    assert e.en and e.fr and e.en != e.fr
    # One sentence: no line breaks, a single final full stop.
    assert "\n" not in e.en and "\n" not in e.fr
    return e


def test_example_config_loads() -> None:
    cfg = HardwareConfig.from_file(EXAMPLE)
    assert cfg.input.source == "gpio"
    assert [s.button for s in cfg.gpio.seats] == [17, 27, 22, 23]
    assert cfg.gpio.seats[0].led == 5
    assert cfg.gpio.button_pins()[-3:] == [("confirm", 0, 24), ("cancel", 0, 25), ("undo", 0, 12)]
    s = cfg.debounce.settings()
    assert (s.lockout_ns, s.glitch_ns, s.stuck_ns) == (30_000_000, 2_000_000, 10_000_000_000)
    assert cfg.keyboard.seats == ["1", "2", "3", "4"]


def test_defaults_without_a_file() -> None:
    cfg = HardwareConfig.from_toml("")
    assert cfg.input.source == "keyboard"
    assert cfg.keyboard.seats == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
    assert cfg.gpio.seats == []
    with pytest.raises(ConfigError, match="--assign"):
        cfg.require_gpio_seats()


def test_a_section_no_part_reads_is_named() -> None:
    """No other part of the companion reads this file: a section outside ours is a typo or a
    wish, and silently ignoring it hides the typo ([debouce]) (issue 22)."""
    with pytest.raises(ConfigError, match=r"unknown section \[screen\]"):
        HardwareConfig.from_toml("[screen]\nfullscreen = true\n[gpio]\nseats = [{button = 4}]")
    with pytest.raises(ConfigError, match="fullscreen"):  # a key [display] does not have
        HardwareConfig.from_toml("[display]\nfullscreen = true\n[gpio]\nseats = [{button = 4}]")


@pytest.mark.parametrize(
    ("value", "gpio"),
    [(17, 17), ("GPIO17", 17), ("gpio17", 17), ("BCM17", 17), ("BOARD11", 17), ("4", 4)],
)
def test_pin_spellings(value: object, gpio: int) -> None:
    assert parse_pin(value) == gpio


def test_header_map_covers_the_26_gpios_and_the_eeprom_pair() -> None:
    assert sorted(GPIO_HEADER) == list(range(28))


def test_duplicate_pin() -> None:
    e = refused("[gpio]\nseats = [{button = 17}, {button = 27, led = 17}]")
    assert "GPIO17" in e.en and "seat 1" in e.en and "LED of seat 2" in e.en
    assert "place 1" in e.fr


def test_referee_pin_clashing_with_a_seat() -> None:
    e = refused("[gpio]\nseats = [{button = 17}]\nreferee = {undo = 17}")
    assert "referee button undo" in e.en and "revenir" in e.fr


@pytest.mark.parametrize("pin", [28, 40, 99, -1])
def test_pin_not_on_header(pin: int) -> None:
    e = refused(f"[gpio]\nseats = [{{button = {pin}}}]")
    assert f"GPIO{pin}" in e.en and "2 to 27" in e.en


def test_power_pin_by_position() -> None:
    e = refused('[gpio]\nseats = [{button = "BOARD6"}]')
    assert "GND" in e.en and "GND" in e.fr


def test_header_position_out_of_range() -> None:
    assert "1 to 40" in refused('[gpio]\nseats = [{button = "BOARD41"}]').en


@pytest.mark.parametrize(
    ("bus", "pin"), [("i2c", 2), ("i2c", 3), ("spi", 7), ("spi", 11), ("uart", 14), ("uart", 15)]
)
def test_pins_of_enabled_bus(bus: str, pin: int) -> None:
    e = refused(f'[gpio]\nbuses = ["{bus}"]\nseats = [{{button = {pin}}}]')
    assert f"GPIO{pin}" in e.en and bus in e.en
    # The same pin is fine when the bus is off.
    HardwareConfig.from_toml(f"[gpio]\nbuses = []\nseats = [{{button = {pin}}}]")


def test_eeprom_pins_reserved_by_default() -> None:
    assert "EEPROM" in refused("[gpio]\nseats = [{button = 0}]").en


def test_seat_without_pin() -> None:
    e = refused("[gpio]\nseats = [{button = 17}, {led = 5}]")
    assert "Seat 2 has no button pin" in e.en and "place 2" in e.fr


def test_too_many_seats() -> None:
    seats = ", ".join(f"{{button = {p}}}" for p in range(2, 13))
    assert "at most 10" in refused(f"[gpio]\nbuses = []\nseats = [{seats}]").en


def test_misspelt_setting() -> None:
    assert "gpio.seats.0.buton" in refused("[gpio]\nseats = [{buton = 17}]").en


def test_bad_value_and_bad_toml_and_bad_source() -> None:
    assert "lockout_ms" in refused('[debounce]\nlockout_ms = "long"').en
    assert "TOML" in refused("[gpio\n").en
    assert "input.source" in refused('[input]\nsource = "bluetooth"').en


def test_inconsistent_debounce() -> None:
    assert "glitch_ms" in refused("[debounce]\nglitch_ms = 40").en
    assert "stuck_after_s" in refused("[debounce]\nstuck_after_s = 0.01").en


def test_duplicate_keys() -> None:
    e = refused('[keyboard]\nseats = ["a", "b"]\nundo = "A"')
    assert "seat 1" in e.en and "undo" in e.en


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--config"):
        HardwareConfig.from_file(tmp_path / "nope.toml")


def test_render_round_trips() -> None:
    cfg = HardwareConfig.from_file(EXAMPLE)
    again = HardwareConfig.from_toml(render_toml(cfg))
    assert again.gpio == cfg.gpio and again.debounce == cfg.debounce


def test_suggested_pin_map_in_the_docs_is_valid() -> None:
    import re

    doc = (EXAMPLE.parent / "pinmap.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*GPIO(\d+)\*?\s*\|\s*(\d+)\s*\|\s*(?:GPIO(\d+))?", doc, re.M)
    assert len(rows) == 10
    seats = []
    for _, gpio, header, led in rows:
        assert GPIO_HEADER[int(gpio)] == int(header)
        seats.append(f"{{button = {gpio}{', led = ' + led if led else ''}}}")
    # Seats 9 and 10 need SPI off; with it off, the whole map is accepted.
    HardwareConfig.from_toml('[gpio]\nbuses = ["id_eeprom"]\nseats = [' + ", ".join(seats) + "]")


def test_the_table_says_its_language() -> None:
    assert HardwareConfig.from_toml('[table]\nlang = "en"\n').table.lang == "en"
    assert HardwareConfig.from_toml("").table.lang is None  # then the locale, else French
    with pytest.raises(ConfigError) as err:
        HardwareConfig.from_toml('[table]\nlang = "de"\n')
    assert err.value.en == (
        '[table] lang = \'de\' is refused: the companion speaks "fr" (French) or "en" (English).'
    )
    assert 'parle "fr" (français)' in err.value.fr
