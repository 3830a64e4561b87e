"""``companion config``: read and change one setting of the table's config file, the rest of the
file kept as the user wrote it. The install guide sets the table's language with it
(``companion config set table.lang fr``): a Pi's locale is English, the table may not be."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

from companion.cli.options import lang_given
from companion.errors import CompanionError, ConfigError, exit_code
from companion.hardware.config import HardwareConfig, default_config_path
from companion.hardware.config_edit import (
    Key,
    current,
    edit,
    parse_key,
    parse_value,
    read_config_text,
    toml_value,
    write_config_text,
)
from companion.i18n import register, t

register(
    {
        # key: (French, English)
        "config.set": ("{key} = {value} écrit dans {path}.", "{key} = {value} written to {path}."),
        "config.unset": (
            "{key} retiré de {path} : sa valeur par défaut s'applique ({value}).",
            "{key} removed from {path}: its default applies ({value}).",
        ),
        "config.unchanged": ("{key} vaut déjà {value} dans {path}.", "{key} is already {value} in {path}."),
        "config.not_set": (
            "{key} n'est pas dans {path} : rien à retirer.",
            "{key} is not in {path}: nothing to remove.",
        ),
        "config.no_file": (
            "# Pas de fichier {path} : chaque réglage a sa valeur par défaut.",
            "# No file {path}: every setting has its default.",
        ),
        "config.default": ("par défaut", "default"),
    }
)


def cmd_config(args: argparse.Namespace) -> int:
    lang: str = args.lang
    path: Path = args.config or default_config_path()
    try:
        action = args.config_command
        if action == "path":
            print(path)
            return 0
        if action == "show" and args.example:
            # The commented example ships inside the package: a wheel install has no hardware/.
            from importlib.resources import files

            sys.stdout.write(
                files("companion.hardware").joinpath("companion.example.toml").read_text("utf-8")
            )
            return 0
        text = read_config_text(path)
        if action == "show":
            return _show(path, text, lang)
        key = parse_key(args.key)
        if action == "get":
            print(toml_value(_effective(text, key, path)))
            return 0
        if action == "set":
            value = parse_value(args.value)
            if key == Key("table", "lang") and value in ("fr", "en") and not lang_given(args):
                lang = str(value)  # the table's new language answers (no --lang said otherwise)
            return _set(path, text, key, value, lang)
        return _unset(path, text, key, lang)
    except CompanionError as err:
        print(err.message(lang), file=sys.stderr)
        return exit_code(err)


def _config(text: str | None, path: Path) -> HardwareConfig:
    return HardwareConfig() if text is None else HardwareConfig.from_toml(text, where=str(path))


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in data.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{name}."))
        else:
            out[f"{prefix}{name}"] = value
    return out


def _known(settings: dict[str, Any], key: Key, path: Path) -> None:
    """An unknown key is refused with the sentence the same mistake in the file gets ("unknown
    section [tabel]; did you mean [table]?")."""
    if key.dotted in settings:
        return
    nested: dict[str, Any] = {key.name: ""}
    for part in reversed(key.section.split(".")):
        nested = {part: nested}
    HardwareConfig.from_dict(nested, where=str(path))  # raises for every unknown name
    raise ConfigError(
        "cli.settings.known",
        path=path,
        dotted=key.dotted,
    )


def _effective(text: str | None, key: Key, path: Path) -> Any:
    settings = _flat(_config(text, path).model_dump(mode="json"))
    _known(settings, key, path)
    value = settings[key.dotted]
    if value is None:
        raise ConfigError(
            "cli.settings.effective",
            dotted=key.dotted,
        )
    return value


def _show(path: Path, text: str | None, lang: str) -> int:
    """Every setting, as ``section.key = value`` lines; those the file does not set are marked."""
    if text is None:
        print(t("config.no_file", lang, path=path))
    config = _config(text, path)
    default = t("config.default", lang)
    in_file = _flat(tomllib.loads(text)) if text is not None else {}  # read once, not per key
    for name, value in _flat(config.model_dump(mode="json")).items():
        if value is None:
            continue
        mark = "" if name in in_file else f"  # {default}"
        print(f"{name} = {toml_value(value)}{mark}")
    return 0


def _set(path: Path, text: str | None, key: Key, value: Any, lang: str) -> int:
    if text is not None and current(text, key) == (True, value):
        print(t("config.unchanged", lang, key=key.dotted, value=toml_value(value), path=path))
        return 0
    new = edit(text or "", key, value, where=str(path))
    write_config_text(path, new)
    print(t("config.set", lang, key=key.dotted, value=toml_value(value), path=path))
    return 0


def _unset(path: Path, text: str | None, key: Key, lang: str) -> int:
    if text is None or not current(text, key)[0]:
        _known(_flat(_config(text, path).model_dump(mode="json")), key, path)
        print(t("config.not_set", lang, key=key.dotted, path=path))
        return 0
    new = edit(text, key, None, remove=True, where=str(path))
    write_config_text(path, new)
    after = _flat(_config(new, path).model_dump(mode="json")).get(key.dotted)
    print(
        t(
            "config.unset",
            lang,
            key=key.dotted,
            path=path,
            value=toml_value(after) if after is not None else "—",
        )
    )
    return 0
