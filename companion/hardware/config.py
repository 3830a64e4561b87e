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

from companion.errors import ConfigError, cut, shown
from companion.hardware.web_config import WebConfig
from companion.i18n import REFEREE_FR, os_reason
from companion.inputs.base import Role
from companion.inputs.debounce import DebounceSettings
from companion.inputs.names import SourceName

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
            f'{value!r} is not a pin: write the GPIO number, e.g. 17 or "GPIO17".',
            f'{value!r} n\'est pas une broche : écrivez le numéro GPIO, par ex. 17 ou "GPIO17".',
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
                    f"Header pin {pos} is {what}, not a GPIO: wire the button to a GPIO pin "
                    "and its other leg to a GND pin.",
                    f"La broche {pos} du connecteur est {what}, pas un GPIO : reliez le bouton à "
                    "une broche GPIO et son autre patte à une broche GND.",
                )
            raise ConfigError(
                f"There is no header pin {pos}: the header has pins 1 to 40.",
                f"Il n'y a pas de broche {pos} : le connecteur a les broches 1 à 40.",
            )
        if text.isdigit():
            return int(text)
    raise ConfigError(
        f'{value!r} is not a pin: write the GPIO number, e.g. 17, "GPIO17" or "BOARD11".',
        f'{value!r} n\'est pas une broche : écrivez le numéro GPIO, par ex. 17, "GPIO17" ou "BOARD11".',
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
            f"The pin map has {len(cfg.seats)} seats; at most {MAX_SEATS} players can sit down.",
            f"Le plan de câblage a {len(cfg.seats)} places ; {MAX_SEATS} joueurs au plus.",
        )
    for i, s in enumerate(cfg.seats):
        if s.button is None:
            raise ConfigError(
                f"Seat {i + 1} has no button pin: add `button = <GPIO number>` to it, or run "
                "`companion buttons --assign`.",
                f"La place {i + 1} n'a pas de broche de bouton : ajoutez `button = <numéro GPIO>`, "
                "ou lancez `companion buttons --assign`.",
            )
    reserved = {p: bus for bus in cfg.buses for p in BUS_PINS[bus]}
    seen: dict[int, tuple[str, str]] = {}
    for pin, en, fr in cfg.uses():
        if pin not in GPIO_HEADER:
            raise ConfigError(
                f"GPIO{pin} for {en} is not on the 40-pin header: use a GPIO from 2 to 27.",
                f"GPIO{pin} pour {fr} n'est pas sur le connecteur 40 broches : prenez un GPIO de 2 à 27.",
            )
        if pin in reserved:
            bus = reserved[pin]
            raise ConfigError(
                f"GPIO{pin} for {en} belongs to the enabled {BUS_NAMES_EN[bus]} bus: pick another "
                f'pin, or remove "{bus}" from gpio.buses if the bus is not used.',
                f"GPIO{pin} pour {fr} appartient au bus {BUS_NAMES_FR[bus]} activé : prenez une "
                f'autre broche, ou retirez "{bus}" de gpio.buses si ce bus ne sert pas.',
            )
        if pin in seen:
            raise ConfigError(
                f"GPIO{pin} is used twice, for {seen[pin][0]} and for {en}: each needs its own pin.",
                f"GPIO{pin} sert deux fois, pour {seen[pin][1]} et pour {fr} : chacun a besoin de "
                "sa propre broche.",
            )
        seen[pin] = (en, fr)


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
            raise ConfigError(
                f"Debounce settings do not fit together ({exc}): keep glitch_ms <= lockout_ms and "
                "stuck_after_s longer than the lockout.",
                f"Les réglages anti-rebond sont incohérents ({exc}) : gardez glitch_ms <= "
                "lockout_ms et stuck_after_s plus long que le verrouillage.",
            ) from exc
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
                f"keyboard.seats lists {len(self.seats)} keys; at most {MAX_SEATS} players.",
                f"keyboard.seats donne {len(self.seats)} touches ; {MAX_SEATS} joueurs au plus.",
            )
        seen: dict[str, tuple[str, str]] = {}
        named = [(k, f"seat {i + 1}", f"la place {i + 1}") for i, k in enumerate(self.seats)]
        named += [(k, r, REFEREE_FR[r]) for r in ("confirm", "cancel", "undo") if (k := getattr(self, r))]
        for key, en, fr in named:
            k = key.lower()
            if k in seen:
                raise ConfigError(
                    f'The key "{key}" is given to both {seen[k][0]} and {en}: give each its own key.',
                    f"La touche « {key} » est donnée à {seen[k][1]} et à {fr} : une touche chacun.",
                )
            seen[k] = (en, fr)
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
                f"serial.port = {shown(v)} is not a device path: write one like "
                '"/dev/ttyACM0", or leave it out to find the board by its USB id.',
                f"serial.port = {shown(v, lang='fr')} n'est pas un chemin de périphérique : "
                'écrivez-en un comme "/dev/ttyACM0", ou retirez-le pour trouver le boîtier par '
                "son identifiant USB.",
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
            f"[display] rotate = {value!r} is refused: the screen turns by 0, 90, 180 or 270 "
            "degrees (clockwise).",
            f"[display] rotate = {value!r} est refusé : l'écran tourne de 0, 90, 180 ou 270 "
            "degrés (dans le sens des aiguilles d'une montre).",
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
            f'[table] lang = {shown(value)} is refused: the companion speaks "fr" (French) or '
            '"en" (English).',
            f'[table] lang = {shown(value, lang="fr")} est refusé : le companion parle "fr" '
            '(français) ou "en" (anglais).',
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
            f'[sound] voice = {shown(value)} is refused: write "on" (the verdicts said aloud) or "off".',
            f'[sound] voice = {shown(value, lang="fr")} est refusé : écrivez "on" (les verdicts '
            'dits à voix haute) ou "off".',
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
                f"[sound.names] {shown(name)} = {shown(said)} is refused: write how the name is "
                'said as text of 1 to 80 characters, as "Chloé" = "Klo-é".',
                f"[sound.names] {shown(name, lang='fr')} = {shown(said, lang='fr')} est refusé : "
                'écrivez comment le nom se dit, en texte de 1 à 80 caractères, comme "Chloé" = '
                '"Klo-é".',
            )
        raise ConfigError(
            f"[sound] names = {shown(value)} is refused: write a table of names, as "
            '[sound.names] then "Chloé" = "Klo-é".',
            f"[sound] names = {shown(value, lang='fr')} est refusé : écrivez une table de noms, "
            'comme [sound.names] puis "Chloé" = "Klo-é".',
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
                f"{where} is not valid TOML ({cut(str(exc), 120)}); fix that line.",
                f"{where} n'est pas du TOML valide ({cut(str(exc), 120, 'fr')}) ; corrigez cette ligne.",
            ) from None
        except RecursionError:
            raise ConfigError(
                f"{where} nests tables or arrays far too deep to be a config; write it as "
                "`companion config show --example` does.",
                f"{where} imbrique tables ou listes beaucoup trop profondément pour une "
                "configuration ; écrivez-le comme `companion config show --example`.",
            ) from None
        return cls.from_dict(data, where=where)

    @classmethod
    def from_file(cls, path: Path) -> HardwareConfig:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                f"Cannot read the config file {path} ({exc.strerror}); check the path given to --config.",
                f"Impossible de lire le fichier de configuration {path} ({os_reason(exc)}) ; "
                "vérifiez le chemin donné à --config.",
            ) from None
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"The config file {path} is not UTF-8 text (byte {exc.start + 1}); save it as UTF-8.",
                f"Le fichier de configuration {path} n'est pas du texte UTF-8 (octet "
                f"{exc.start + 1}) ; enregistrez-le en UTF-8.",
            ) from None
        return cls.from_toml(text, where=str(path))

    def require_gpio_seats(self) -> None:
        if not self.gpio.seats:
            raise ConfigError(
                "No button pins in the config ([gpio] seats): run `companion buttons --assign` "
                "to write them, or use --input keyboard.",
                "Aucune broche de bouton dans la configuration ([gpio] seats) : lancez "
                "`companion buttons --assign` pour les écrire, ou utilisez --input keyboard.",
            )


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
        hint_en = f"did you mean [{near[0]}]? " if near else ""
        hint_fr = f"vouliez-vous dire [{near[0]}] ? " if near else ""
        known = ", ".join(f"[{k}]" for k in HardwareConfig.model_fields)
        return ConfigError(
            f"{where}: unknown section [{name}]; {hint_en}the sections are {known}.",
            f"{where} : section inconnue [{name}] ; {hint_fr}les sections sont {known}.",
        )
    if err["type"] == "extra_forbidden":
        return ConfigError(
            f"{where}: unknown setting {loc}; check its spelling against `companion config show "
            f"--example` (every setting, commented).",
            f"{where} : réglage inconnu {loc} ; vérifiez l'orthographe dans `companion config show "
            f"--example` (chaque réglage, commenté).",
        )
    return ConfigError(
        f"{where}: {cut(loc)} = {shown(got)} is refused ({err['msg']}).",
        f"{where} : {cut(loc, lang='fr')} = {shown(got, lang='fr')} est refusé ({err['msg']}).",
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
