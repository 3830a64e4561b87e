"""Issue 38: what a person who writes the config file reads back, sentence by sentence.

Each line of the table is a config file a person could write, and the one sentence the table
answers with, in English and in French (French typography: U+202F before the colon and the
semicolon, the typographic apostrophe). Then the file ``companion buttons --assign`` writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.hardware.config import HardwareConfig, load_config, parse_pin, render_toml

N = "\u202f"
SECTIONS = "[input], [gpio], [debounce], [keyboard], [serial], [display], [web], [table], [sound]"
DEBOUNCE_FR = (
    "Les réglages anti-rebond sont incohérents ({why}){N}: gardez glitch_ms au plus égal à lockout_ms et "
    "stuck_after_s plus long que le verrouillage."
)
DEBOUNCE_EN = (
    "Debounce settings do not fit together ({why}): keep glitch_ms no longer than lockout_ms and "
    "stuck_after_s longer than the lockout."
)
TWICE = "GPIO17 is used twice, for the button of seat 1 and for {other}: each needs its own pin."
TWICE_FR = (
    "GPIO17 sert deux fois, pour le bouton de la place 1 et pour {other}{N}: "
    "chacun a besoin de sa propre broche."
)

CASES = [
    (
        "[gpio]\nseats = [{button = true}]",
        'True is not a pin: write the GPIO number, e.g. 17 or "GPIO17".',
        f'True n’est pas une broche{N}: écrivez le numéro GPIO, par ex. 17 ou "GPIO17".',
    ),
    (
        '[gpio]\nseats = [{button = "bcm 18"}]',
        '\'bcm 18\' is not a pin: write the GPIO number, e.g. 17, "GPIO17" or "BOARD11".',
        f'\'bcm 18\' n’est pas une broche{N}: écrivez le numéro GPIO, par ex. 17, "GPIO17" ou "BOARD11".',
    ),
    (
        '[gpio]\nseats = [{button = "BOARD2"}]',
        "Header pin 2 is 5V, not a GPIO: wire the button to a GPIO pin and its other leg to a GND pin.",
        f"La broche 2 du connecteur est 5V, pas un GPIO{N}: reliez le bouton à une broche GPIO et son "
        "autre patte à une broche GND.",
    ),
    (
        '[gpio]\nseats = [{button = "BOARD41"}]',
        "There is no header pin 41: the header has pins 1 to 40.",
        f"Il n’y a pas de broche 41{N}: le connecteur a les broches 1 à 40.",
    ),
    (
        "[gpio]\nseats = [{led = 17}]",
        "Seat 1 has no button pin: add `button = <GPIO number>` to it, or run `companion buttons --assign`.",
        f"La place 1 n’a pas de broche de bouton{N}: ajoutez `button = <numéro GPIO>`, ou lancez "
        "`companion buttons --assign`.",
    ),
    (
        "[gpio]\nseats = [{button = 17}, {button = 28}]",
        "GPIO28 for the button of seat 2 is not on the 40-pin header: use a GPIO from 2 to 27.",
        f"GPIO28 pour le bouton de la place 2 n’est pas sur le connecteur 40 broches{N}: "
        "prenez un GPIO de 2 à 27.",
    ),
    (
        "[gpio]\nseats = [{button = 1}]",
        "GPIO1 for the button of seat 1 belongs to the enabled HAT EEPROM bus: pick another pin, or remove "
        '"id_eeprom" from gpio.buses if the bus is not used.',
        f"GPIO1 pour le bouton de la place 1 appartient au bus EEPROM HAT activé{N}: "
        'prenez une autre broche, ou retirez "id_eeprom" de gpio.buses si ce bus ne sert pas.',
    ),
    (
        '[gpio]\nbuses = ["uart"]\nseats = [{button = 17, led = 14}]',
        "GPIO14 for the LED of seat 1 belongs to the enabled UART (serial port) bus: pick another pin, or "
        'remove "uart" from gpio.buses if the bus is not used.',
        f"GPIO14 pour la LED de la place 1 appartient au bus UART (port série) activé{N}: prenez une autre "
        'broche, ou retirez "uart" de gpio.buses si ce bus ne sert pas.',
    ),
    (
        "[gpio]\nseats = [{button = 17}, {button = 17}]",
        TWICE.format(other="the button of seat 2"),
        TWICE_FR.format(other="le bouton de la place 2", N=N),
    ),
    (
        "[gpio]\nseats = [{button = 17, led = 17}]",
        TWICE.format(other="the LED of seat 1"),
        TWICE_FR.format(other="la LED de la place 1", N=N),
    ),
    (
        "[gpio]\nseats = [{button = 17}]\n[gpio.referee]\nundo = 17",
        TWICE.format(other="the referee button undo"),
        TWICE_FR.format(other="le bouton d’arbitre revenir", N=N),
    ),
    (
        "[gpio]\nseats = [" + ", ".join(f"{{button = {p}}}" for p in range(4, 15)) + "]",
        "The pin map has 11 seats; at most 10 players can sit down.",
        f"Le plan de câblage a 11 places{N}; 10 joueurs au plus.",
    ),
    (
        "[debounce]\nglitch_ms = 40",
        DEBOUNCE_EN.format(why="glitch minimum must not exceed the lockout"),
        # The French says the broken rule in French (it said the settings' English).
        DEBOUNCE_FR.format(why="le minimum anti-parasite dépasse le verrouillage", N=N),
    ),
    (
        "[debounce]\nstuck_after_s = 0.01",
        DEBOUNCE_EN.format(why="stuck limit must be longer than the lockout"),
        DEBOUNCE_FR.format(why="la limite de bouton coincé doit dépasser le verrouillage", N=N),
    ),
    (
        '[keyboard]\nseats = ["a", "A"]',
        'The key "A" is given to both seat 1 and seat 2: give each its own key.',
        f"La touche «{N}A{N}» est donnée à la place 1 et à la place 2{N}: une touche chacun.",
    ),
    (
        '[keyboard]\nseats = ["a"]\nconfirm = "a"',
        'The key "a" is given to both seat 1 and confirm: give each its own key.',
        f"La touche «{N}a{N}» est donnée à la place 1 et à valider{N}: une touche chacun.",
    ),
    (
        "[keyboard]\nseats = [" + ", ".join(f'"{k}"' for k in "abcdefghijk") + "]",
        "keyboard.seats lists 11 keys; at most 10 players.",
        f"keyboard.seats donne 11 touches{N}; 10 joueurs au plus.",
    ),
    (
        '[serial]\nport = "a\\u0001"',
        "serial.port = 'a\\x01' is not a device path: write one like \"/dev/ttyACM0\", or leave it out to "
        "find the board by its USB id.",
        f"serial.port = 'a\\x01' n’est pas un chemin de périphérique{N}: écrivez-en un comme "
        '"/dev/ttyACM0", ou retirez-le pour trouver le boîtier par son identifiant USB.',
    ),
    (
        "[display]\nrotate = true",
        "[display] rotate = True is refused: the screen turns by 0, 90, 180 or 270 degrees (clockwise).",
        f"[display] rotate = True est refusé{N}: l’écran tourne de 0, 90, 180 ou 270 degrés (dans le sens "
        "des aiguilles d’une montre).",
    ),
    (
        '[table]\nlang = "de"',
        '[table] lang = \'de\' is refused: the companion speaks "fr" (French) or "en" (English).',
        f'[table] lang = \'de\' est refusé{N}: le companion parle "fr" (français) ou "en" (anglais).',
    ),
    (
        '[sound]\nvoice = "yes"',
        '[sound] voice = \'yes\' is refused: write "on" (the verdicts said aloud) or "off".',
        f'[sound] voice = \'yes\' est refusé{N}: écrivez "on" (les verdicts dits à voix haute) ou "off".',
    ),
    (
        "[sound]\nnames = 3",
        '[sound] names = 3 is refused: write a table of names, as [sound.names] then "Chloé" = "Klo-é".',
        f"[sound] names = 3 est refusé{N}: écrivez une table de noms, "
        'comme [sound.names] puis "Chloé" = "Klo-é".',
    ),
    (
        '[sound.names]\n"Ana" = "Ana"\n"Chloé" = " "',
        "[sound.names] 'Chloé' = ' ' is refused: write how the name is said as text of 1 to 80 characters, "
        'as "Chloé" = "Klo-é".',
        f"[sound.names] 'Chloé' = ' ' est refusé{N}: écrivez comment le nom se dit, en texte de 1 à 80 "
        'caractères, comme "Chloé" = "Klo-é".',
    ),
    (
        "[debouce]\nlockout_ms = 3",
        f"companion.toml: unknown section [debouce]; did you mean [debounce]? the sections are {SECTIONS}.",
        f"companion.toml{N}: section inconnue [debouce]{N}; vouliez-vous dire [debounce]{N}? les sections "
        f"sont {SECTIONS}.",
    ),
    (
        "[zzz]",
        f"companion.toml: unknown section [zzz]; the sections are {SECTIONS}.",
        f"companion.toml{N}: section inconnue [zzz]{N}; les sections sont {SECTIONS}.",
    ),
    (
        "[gpio]\nsets = 3",
        "companion.toml: unknown setting gpio.sets; check its spelling against `companion config show "
        "--example` (every setting, commented).",
        f"companion.toml{N}: réglage inconnu gpio.sets{N}; vérifiez l’orthographe dans `companion config "
        "show --example` (chaque réglage, commenté).",
    ),
    (
        '[input]\nsource = "nope"',
        "companion.toml: input.source = 'nope' is refused (Input should be 'gpio', 'serial', 'keyboard' "
        "or 'sim').",
        # pydantic's reason said in French (it was pydantic's English).
        f"companion.toml{N}: input.source = 'nope' est refusé (valeurs possibles{N}: 'gpio', 'serial', "
        "'keyboard' ou 'sim').",
    ),
    (
        "x = ",
        "companion.toml is not valid TOML (Invalid value (at end of document)); fix that line.",
        f"companion.toml n’est pas du TOML valide (Invalid value (at end of document)){N}; "
        "corrigez cette ligne.",
    ),
]


@pytest.mark.parametrize(("text", "en", "fr"), CASES, ids=[c[0][:30] for c in CASES])
def test_a_config_that_cannot_work_gets_one_sentence_in_each_language(text: str, en: str, fr: str) -> None:
    with pytest.raises(CompanionError) as caught:
        HardwareConfig.from_toml(text, where="companion.toml")
    assert (caught.value.en, caught.value.fr) == (en, fr)


def test_pins_are_read_as_people_write_them() -> None:
    assert [parse_pin(p) for p in (" gpio4 ", "BCM27", "12", 7, "BOARD40", "BOARD3")] == [4, 27, 12, 7, 21, 2]
    cfg = HardwareConfig.from_toml('[gpio]\nseats = [{button = "BOARD11", led = "GPIO27"}, {button = 4}]')
    assert cfg.gpio.button_pins() == [("seat", 0, 17), ("seat", 1, 4)]


def test_the_debounce_settings_are_the_ones_written() -> None:
    d = HardwareConfig.from_toml(
        "[debounce]\nlockout_ms = 30\nglitch_ms = 30\nstuck_after_s = 0.031"
    ).debounce
    assert (d.settings().lockout_ns, d.settings().glitch_ns, d.settings().stuck_ns) == (
        30_000_000,
        30_000_000,
        31_000_000,
    )


def test_the_file_buttons_assign_writes() -> None:
    cfg = HardwareConfig.from_toml(
        '[input]\nsource = "gpio"\n[gpio]\nchip = 4\nled_pwm = false\nbuses = []\n'
        'seats = [{button = 17, led = 27}, {button = "BOARD12"}]\n[gpio.referee]\nconfirm = 5\nundo = 6\n'
        "[debounce]\nlockout_ms = 25.5\nstuck_after_s = 3\n[display]\nrotate = 90"
    )
    assert render_toml(cfg) == (
        "# Written by `companion buttons --assign`. Pins are BCM GPIO numbers (GPIO17 = 17).\n"
        '[input]\nsource = "gpio"\n\n'
        "[gpio]\nchip = 4\nbuses = []\nled_pwm = false\nseats = [\n"
        "  { button = 17, led = 27 },  # seat 1\n  { button = 18 },  # seat 2\n]\n\n"
        "[gpio.referee]\nconfirm = 5\nundo = 6\n\n"
        "[debounce]\nlockout_ms = 25.5\nglitch_ms = 2\nstuck_after_s = 3\n\n"
        "[display]\nrotate = 90  # degrees, clockwise\n"
    )
    assert HardwareConfig.from_toml(render_toml(cfg)) == cfg  # read back as written
    plain = HardwareConfig.from_toml("[debounce]\nstuck_after_s = 3")
    assert render_toml(plain).endswith(
        '[gpio]\nbuses = ["id_eeprom"]\nled_pwm = true\nseats = [\n]\n\n'
        "[debounce]\nlockout_ms = 30\nglitch_ms = 2\nstuck_after_s = 3\n"
    )


def test_a_config_file_that_cannot_be_read_says_which_and_why(tmp_path: Path) -> None:
    missing = tmp_path / "absent.toml"
    with pytest.raises(CompanionError) as caught:
        HardwareConfig.from_file(missing)
    assert (caught.value.en, caught.value.fr) == (
        f"Cannot read the config file {missing} (No such file or directory); "
        "check the path given to --config.",
        f"Impossible de lire le fichier de configuration {missing} (fichier ou dossier introuvable){N}; "
        "vérifiez le chemin donné à --config.",
    )
    latin = tmp_path / "latin.toml"
    latin.write_bytes('[table]\nlang = "fr" # é'.encode("latin-1"))  # é is byte 23
    with pytest.raises(CompanionError) as caught:
        HardwareConfig.from_file(latin)
    assert (caught.value.en, caught.value.fr) == (
        f"The config file {latin} is not UTF-8 text (byte 23); save it as UTF-8.",
        f"Le fichier de configuration {latin} n’est pas du texte UTF-8 (octet 23){N}; "
        "enregistrez-le en UTF-8.",
    )
    # A refusal inside the file names the file.
    bad = tmp_path / "bad.toml"
    bad.write_text("[zzz]\n", encoding="utf-8")
    with pytest.raises(CompanionError) as caught:
        HardwareConfig.from_file(bad)
    assert caught.value.en.startswith(f"{bad}: unknown section [zzz];")
    good = tmp_path / "good.toml"
    good.write_text('[table]\nlang = "fr"\n[sound.names]\n"Chloé" = " Klo-é "\n', encoding="utf-8")
    cfg = HardwareConfig.from_file(good)
    assert cfg.table.lang == "fr" and cfg.sound.names == {"Chloé": "Klo-é"}


def test_gpio_input_without_pins_says_how_to_get_them() -> None:
    with pytest.raises(CompanionError) as caught:
        HardwareConfig().require_gpio_seats()
    assert (caught.value.en, caught.value.fr) == (
        "No button pins in the config ([gpio] seats): run `companion buttons --assign` to write them, "
        "or use --input keyboard.",
        f"Aucune broche de bouton dans la configuration ([gpio] seats){N}: lancez `companion buttons "
        "--assign` pour les écrire, ou utilisez --input keyboard.",
    )
    HardwareConfig.from_toml("[gpio]\nseats = [{button = 17}]").require_gpio_seats()  # pins: fine
    two = HardwareConfig.from_toml('[gpio]\nbuses = ["i2c", "spi"]')
    assert '[gpio]\nbuses = ["i2c", "spi"]\n' in render_toml(two)


def test_the_config_read_is_the_one_named_else_the_users_else_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named = tmp_path / "named.toml"
    named.write_text('[table]\nlang = "en"\n', encoding="utf-8")
    users = tmp_path / "users.toml"
    users.write_text('[table]\nlang = "fr"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(users))
    assert load_config(named).table.lang == "en"
    assert load_config().table.lang == "fr"
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    assert load_config() == HardwareConfig()  # no file: the defaults
    with pytest.raises(CompanionError, match="Cannot read the config file"):
        load_config(tmp_path / "none.toml")  # named, it must exist
