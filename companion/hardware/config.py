"""The hardware part of the config file: which input source, the pin map, debounce and key settings.

Read from TOML and validated at start-up, so a wrong pin stops the companion with one sentence
(French and English) before any hardware is touched. Other sections of the same file belong to
other parts of the companion and are ignored here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from companion.errors import ConfigError, cut
from companion.hardware.web_config import WebConfig
from companion.i18n import REFEREE_FR
from companion.inputs.base import Role
from companion.inputs.debounce import DebounceSettings
from companion.inputs.names import SourceName
from companion.text import Cut, OsReason, Text

Bus = Literal["i2c", "spi", "uart", "id_eeprom"]
MAX_SEATS = 10

# Physical header position -> BCM GPIO number, for the 40-pin header of every Pi since the B+.
HEADER_GPIO: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip
GPIO_HEADER: dict[int, int] = {g: p for p, g in HEADER_GPIO.items()}
HEADER_POWER = {1: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND",
                25: "GND", 30: "GND", 34: "GND", 39: "GND"}  # fmt: skip

BUS_PINS: dict[str, tuple[int, ...]] = {
    "i2c": (2, 3),
    "spi": (7, 8, 9, 10, 11),
    "uart": (14, 15),
    "id_eeprom": (0, 1),
}
BUS_NAMES_FR = {"i2c": "I2C", "spi": "SPI", "uart": "UART (port série)", "id_eeprom": "EEPROM HAT"}
BUS_NAMES_EN = {"i2c": "I2C", "spi": "SPI", "uart": "UART (serial port)", "id_eeprom": "HAT EEPROM"}


# Number row 1..9, 0: seat 1 is "1", seat 10 is "0".
DEFAULT_SEAT_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]


def parse_pin(value: Any) -> int:
    """A BCM GPIO number from ``17``, ``"GPIO17"``, ``"BCM17"`` or header position ``"BOARD11"``."""
    if isinstance(value, bool):
        raise ConfigError(
            "config.pin_write_gpio",
            value=value,
        )
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().upper()
        for prefix in ("GPIO", "BCM"):
            if text.startswith(prefix) and text[len(prefix) :].isdigit():
                return int(text[len(prefix) :])
        if text.startswith("BOARD") and text[5:].isdigit():
            pos = int(text[5:])
            if pos in HEADER_GPIO:
                return HEADER_GPIO[pos]
            what = HEADER_POWER.get(pos)
            if what is not None:
                raise ConfigError(
                    "config.header_pin_gpio",
                    pos=pos,
                    what=what,
                )
            raise ConfigError(
                "config.there_header_pin",
                pos=pos,
            )
        if text.isdigit():
            return int(text)
    raise ConfigError(
        "config.parse_pin",
        value=value,
    )


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatPins(_Strict):
    """One player's seat: its button, and optionally its LED."""

    button: int | None = None
    led: int | None = None

    @field_validator("button", "led", mode="before")
    @classmethod
    def _pin(cls, v: Any) -> int | None:
        return None if v is None else parse_pin(v)


class RefereePins(_Strict):
    confirm: int | None = None
    cancel: int | None = None
    undo: int | None = None

    @field_validator("confirm", "cancel", "undo", mode="before")
    @classmethod
    def _pin(cls, v: Any) -> int | None:
        return None if v is None else parse_pin(v)


class GpioConfig(_Strict):
    """``[gpio]``: the pin map, in BCM GPIO numbers."""

    chip: int | None = None
    buses: list[Bus] = Field(default_factory=lambda: list[Bus](["id_eeprom"]))
    seats: list[SeatPins] = Field(default_factory=list)
    referee: RefereePins = Field(default_factory=RefereePins)
    led_pwm: bool = True

    @model_validator(mode="after")
    def _check(self) -> GpioConfig:
        check_pin_map(self)
        return self

    def uses(self) -> Iterator[tuple[int, str, str]]:
        """Every pin in use, with what it is for (English, French)."""
        for i, s in enumerate(self.seats):
            if s.button is not None:
                yield s.button, f"the button of seat {i + 1}", f"le bouton de la place {i + 1}"
            if s.led is not None:
                yield s.led, f"the LED of seat {i + 1}", f"la LED de la place {i + 1}"
        for role in ("confirm", "cancel", "undo"):
            p = getattr(self.referee, role)
            if p is not None:
                yield p, f"the referee button {role}", f"le bouton d'arbitre {REFEREE_FR[role]}"

    def button_pins(self) -> list[tuple[Role, int, int]]:
        """(role, index, pin) for every button, seats first."""
        out: list[tuple[Role, int, int]] = []
        for i, s in enumerate(self.seats):
            assert s.button is not None
            out.append(("seat", i, s.button))
        roles: tuple[Role, ...] = ("confirm", "cancel", "undo")
        for role in roles:
            p = getattr(self.referee, role)
            if p is not None:
                out.append((role, 0, p))
        return out


def check_pin_map(cfg: GpioConfig) -> None:
    """Refuse, with one sentence, a pin map that cannot work; called on every load."""
    if len(cfg.seats) > MAX_SEATS:
        raise ConfigError(
            "config.check_pin_map",
            n_seats=len(cfg.seats),
            MAX_SEATS=MAX_SEATS,
        )
    for i, s in enumerate(cfg.seats):
        if s.button is None:
            raise ConfigError(
                "config.seat_has_button",
                seat=i + 1,
            )
    reserved = {p: bus for bus in cfg.buses for p in BUS_PINS[bus]}
    seen: dict[int, Text] = {}
    for pin, en, fr in cfg.uses():
        use = Text.pair(en=en, fr=fr)
        if pin not in GPIO_HEADER:
            raise ConfigError("config.pin_off_header", pin=pin, use=use)
        if pin in reserved:
            bus = reserved[pin]
            bus_name = Text.pair(en=BUS_NAMES_EN[bus], fr=BUS_NAMES_FR[bus])
            raise ConfigError("config.pin_on_bus", pin=pin, use=use, bus_name=bus_name, bus=bus)
        if pin in seen:
            raise ConfigError("config.pin_twice", pin=pin, first=seen[pin], use=use)
        seen[pin] = use


def _debounce_why(cfg: DebounceConfig, exc: ValueError) -> Text:
    """Which of ``DebounceSettings``'s rules the numbers break, in the player's language (the
    settings say it in English only, for programmers)."""
    if cfg.glitch_ms > cfg.lockout_ms:
        return Text("config.debounce.glitch")
    if cfg.stuck_after_s is not None and cfg.stuck_after_s * 1000 <= cfg.lockout_ms:
        return Text("config.debounce.stuck")
    return Text.pair(en=str(exc), fr=str(exc))


class DebounceConfig(_Strict):
    """``[debounce]``, in the units people think in; shared with the Pico firmware."""

    # allow_inf_nan=False and a day at most: inf or 1e308 would overflow the nanoseconds.
    lockout_ms: float = Field(default=30.0, ge=0, le=1000, allow_inf_nan=False)
    glitch_ms: float = Field(default=2.0, ge=0, le=1000, allow_inf_nan=False)
    stuck_after_s: float | None = Field(default=10.0, gt=0, le=86400, allow_inf_nan=False)

    @model_validator(mode="after")
    def _check(self) -> DebounceConfig:
        try:
            self.settings()
        except ValueError as exc:
            raise ConfigError("config.debounce_misfit", why=_debounce_why(self, exc)) from exc
        return self

    def settings(self) -> DebounceSettings:
        return DebounceSettings(
            lockout_ns=round(self.lockout_ms * 1_000_000),
            glitch_ns=round(self.glitch_ms * 1_000_000),
            stuck_ns=None if self.stuck_after_s is None else round(self.stuck_after_s * 1e9),
        )


class KeyboardConfig(_Strict):
    """``[keyboard]``: pygame key names (``pygame.key.name``) per seat and referee button."""

    seats: list[str] = Field(default_factory=lambda: list(DEFAULT_SEAT_KEYS))
    confirm: str | None = "return"
    cancel: str | None = "escape"
    undo: str | None = "backspace"

    @model_validator(mode="after")
    def _check(self) -> KeyboardConfig:
        if len(self.seats) > MAX_SEATS:
            raise ConfigError(
                "config.check",
                n_seats=len(self.seats),
                MAX_SEATS=MAX_SEATS,
            )
        seen: dict[str, Text] = {}
        named = [(k, f"seat {i + 1}", f"la place {i + 1}") for i, k in enumerate(self.seats)]
        named += [(k, r, REFEREE_FR[r]) for r in ("confirm", "cancel", "undo") if (k := getattr(self, r))]
        for key, en, fr in named:
            k = key.lower()
            if k in seen:
                raise ConfigError("config.key_twice", key=key, first=seen[k], who=Text.pair(en=en, fr=fr))
            seen[k] = Text.pair(en=en, fr=fr)
        return self


class InputConfig(_Strict):
    """``[input]``: which source the companion reads buttons from."""

    source: SourceName = "keyboard"


class SerialConfig(_Strict):
    """``[serial]``: the Pico board's port, when finding it by its USB id is not enough."""

    port: str | None = None

    @field_validator("port")
    @classmethod
    def _port(cls, v: str | None) -> str | None:
        if v is not None and (not v.isprintable() or len(v) > 1024):
            raise ConfigError(
                "config.port",
                v=v,
            )
        return v


class DisplayConfig(_Strict):
    """``[display]``: a screen mounted turned (``rotate``, degrees clockwise); a misspelt key
    is refused like any other section's."""

    rotate: int = 0

    @field_validator("rotate", mode="before")
    @classmethod
    def _quarter_turn(cls, value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 90, 180, 270):
            return value
        raise ConfigError(
            "config.quarter_turn",
            value=value,
        )


class TableConfig(_Strict):
    """``[table]``: the table's own language. A Pi ships with an English locale (en_GB), so
    following the locale alone would turn a French table English: the table says which it speaks,
    and every command follows it when ``--lang`` is not given."""

    lang: Literal["fr", "en"] | None = None

    @field_validator("lang", mode="before")
    @classmethod
    def _known(cls, value: Any) -> str:
        if value in ("fr", "en"):
            return str(value)
        raise ConfigError(
            "config.known",
            value=value,
        )


class SoundConfig(_Strict):
    """``[sound]``: the table's voice (display/voice.py), on or off, and how names are said
    where the voice reads the table's spelling wrong (``[sound.names]``, "Chloé" = "Klo-é")."""

    voice: Literal["on", "off"] = "on"
    names: dict[str, str] = Field(default_factory=dict)

    @field_validator("voice", mode="before")
    @classmethod
    def _on_off(cls, value: Any) -> str:
        if value in ("on", "off"):
            return str(value)
        raise ConfigError(
            "config.on_off",
            value=value,
        )

    @field_validator("names", mode="before")
    @classmethod
    def _said(cls, value: Any) -> dict[str, str]:
        if isinstance(value, dict):
            bad = next(
                ((k, v) for k, v in value.items() if not isinstance(v, str) or not v.strip() or len(v) > 80),
                None,
            )
            if bad is None:
                return {str(k): v.strip() for k, v in value.items()}
            name, said = bad
            raise ConfigError(
                "config.sound_names_refused",
                name=name,
                said=said,
            )
        raise ConfigError(
            "config.said",
            value=value,
        )


class HardwareConfig(BaseModel):
    """The sections of the config file that concern buttons and LEDs."""

    # Every section of the file is one of these: a misspelt one ([debouce]) is named, not ignored.
    model_config = ConfigDict(extra="forbid", frozen=True)

    input: InputConfig = Field(default_factory=InputConfig)
    gpio: GpioConfig = Field(default_factory=GpioConfig)
    debounce: DebounceConfig = Field(default_factory=DebounceConfig)
    keyboard: KeyboardConfig = Field(default_factory=KeyboardConfig)
    serial: SerialConfig = Field(default_factory=SerialConfig)
    display: DisplayConfig = Field(default_factory=DisplayConfig)
    web: WebConfig = Field(default_factory=WebConfig)  # the phones' server (companion/web/)
    table: TableConfig = Field(default_factory=TableConfig)
    sound: SoundConfig = Field(default_factory=SoundConfig)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, where: str = "config") -> HardwareConfig:
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise _one_sentence(exc, where) from None

    @classmethod
    def from_toml(cls, text: str, *, where: str = "config") -> HardwareConfig:
        import tomllib  # only when there is a file: not on the way to a first frame without one

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                "config.from_toml",
                where=where,
                exc=Cut(exc, 120),
            ) from None
        except RecursionError:
            raise ConfigError(
                "config.nests_tables_arrays",
                where=where,
            ) from None
        return cls.from_dict(data, where=where)

    @classmethod
    def from_file(cls, path: Path) -> HardwareConfig:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError("config.cannot_read", path=path, why=OsReason(exc)) from None
        except UnicodeDecodeError as exc:
            raise ConfigError(
                "config.from_file",
                path=path,
                column=exc.start + 1,
            ) from None
        return cls.from_toml(text, where=str(path))

    def require_gpio_seats(self) -> None:
        if not self.gpio.seats:
            raise ConfigError(
                "config.require_gpio_seats",
            )


_PYDANTIC_TYPES = {
    "int_type": ("a valid integer", "un nombre entier"),
    "int_parsing": ("a valid integer", "un nombre entier"),
    "int_from_float": ("a valid integer", "un nombre entier"),
    "float_type": ("a valid number", "un nombre"),
    "float_parsing": ("a valid number", "un nombre"),
    "bool_type": ("a valid boolean", "true ou false"),
    "bool_parsing": ("a valid boolean", "true ou false"),
    "string_type": ("a valid string", "du texte entre guillemets"),
    "list_type": ("a valid list", "une liste [...]"),
    "dict_type": ("a valid dictionary", "une table"),
    "model_type": ("a valid dictionary", "une table"),
}
_PYDANTIC_SIDES = {
    "greater_than_equal": ("greater than or equal to", "au moins"),
    "less_than_equal": ("less than or equal to", "au plus"),
    "greater_than": ("greater than", "plus de"),
    "less_than": ("less than", "moins de"),
}


def _bound(value: object) -> object:
    """A limit as pydantic writes it: 1000, not 1000.0 (a fraction keeps its decimal comma)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


class PydanticWhy:
    """Why pydantic refused a value, as a field of a config error: pydantic's own sentence in
    English, the same said in French for the refusals a player meets (a value missing, of the
    wrong type, out of range, a key that is not one), pydantic's English for the rest."""

    __slots__ = ("err",)

    def __init__(self, err: Any) -> None:
        self.err = err

    def render(self, lang: str) -> str:
        msg = str(self.err["msg"])
        said = self._french() if lang == "fr" else None
        return msg if said is None else said.fr

    def _french(self) -> Text | None:
        kind, ctx = self.err["type"], self.err.get("ctx", {})
        if kind == "missing":
            return Text("pydantic.missing")
        if kind == "extra_forbidden":
            return Text("pydantic.extra")
        if kind in ("finite_number",):
            return Text("pydantic.finite")
        if kind in _PYDANTIC_TYPES:
            en, fr = _PYDANTIC_TYPES[kind]
            return Text("pydantic.type", what=Text.pair(en=en, fr=fr))
        if kind in _PYDANTIC_SIDES and ctx:
            en, fr = _PYDANTIC_SIDES[kind]
            return Text(
                "pydantic.range", side=Text.pair(en=en, fr=fr), bound=_bound(next(iter(ctx.values())))
            )
        if kind == "literal_error" and "expected" in ctx:
            return Text("pydantic.literal", expected=str(ctx["expected"]).replace(" or ", " ou "))
        return None


def _one_sentence(exc: ValidationError, where: str) -> ConfigError:
    err = exc.errors()[0]
    original = err.get("ctx", {}).get("error")
    if isinstance(original, ConfigError):
        return original
    loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
    got = err.get("input")
    if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
        import difflib

        name = cut(str(err["loc"][0]), 40)
        near = difflib.get_close_matches(str(err["loc"][0]), HardwareConfig.model_fields, n=1)
        hint = Text("config.did_you_mean", near=near[0]) if near else Text.pair(en="", fr="")
        known = ", ".join(f"[{k}]" for k in HardwareConfig.model_fields)
        return ConfigError("config.unknown_section", where=where, name=name, hint=hint, known=known)
    if err["type"] == "extra_forbidden":
        return ConfigError(
            "config.unknown_setting_check",
            where=where,
            loc=loc,
        )
    return ConfigError(
        "config.one_sentence",
        where=where,
        loc=loc,
        got=got,
        msg=PydanticWhy(err),
    )


def render_toml(cfg: HardwareConfig) -> str:
    """The hardware sections as TOML text, as ``companion buttons --assign`` writes them."""
    lines = [
        "# Written by `companion buttons --assign`. Pins are BCM GPIO numbers (GPIO17 = 17).",
        "[input]",
        f'source = "{cfg.input.source}"',
        "",
        *render_gpio(cfg),
    ]
    d = cfg.debounce
    lines += ["", "[debounce]", f"lockout_ms = {d.lockout_ms:g}", f"glitch_ms = {d.glitch_ms:g}"]
    if d.stuck_after_s is not None:
        lines.append(f"stuck_after_s = {d.stuck_after_s:g}")
    if cfg.display.rotate:
        lines += ["", "[display]", f"rotate = {cfg.display.rotate}  # degrees, clockwise"]
    return "\n".join(lines) + "\n"


def render_gpio(cfg: HardwareConfig) -> list[str]:
    """The ``[gpio]`` table (and ``[gpio.referee]``): the pin map alone, as lines."""
    lines = ["[gpio]"]
    if cfg.gpio.chip is not None:
        lines.append(f"chip = {cfg.gpio.chip}")
    lines.append("buses = [" + ", ".join(f'"{b}"' for b in cfg.gpio.buses) + "]")
    lines.append(f"led_pwm = {'true' if cfg.gpio.led_pwm else 'false'}")
    lines.append("seats = [")
    for i, s in enumerate(cfg.gpio.seats):
        led = "" if s.led is None else f", led = {s.led}"
        lines.append(f"  {{ button = {s.button}{led} }},  # seat {i + 1}")
    lines.append("]")
    ref = {r: getattr(cfg.gpio.referee, r) for r in ("confirm", "cancel", "undo")}
    ref = {r: p for r, p in ref.items() if p is not None}
    if ref:
        lines += ["", "[gpio.referee]"] + [f"{r} = {p}" for r, p in ref.items()]
    return lines


def default_config_path() -> Path:
    """``$COMPANION_CONFIG``, else ``companion.toml`` in the user's config folder."""
    from companion.paths import config_path

    return config_path()


def load_config(path: Path | None = None) -> HardwareConfig:
    """The given file (which must exist), else the default file if there is one, else defaults."""
    if path is not None:
        return HardwareConfig.from_file(path)
    default = default_config_path()
    if default.exists():
        return HardwareConfig.from_file(default)
    return HardwareConfig()
