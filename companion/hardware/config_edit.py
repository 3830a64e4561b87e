"""One setting of the config file changed, every other line kept: the user's comments, their
order, the sections this copy does not touch. Pure text in, text out (``companion config`` writes
it, atomically); a layout the line scan cannot follow is refused rather than half-rewritten.

Why not load, change and dump the TOML: the standard library reads TOML but does not write it,
and a dump would drop every comment the user (or ``hardware/companion.example.toml``) wrote."""

from __future__ import annotations

import errno
import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig
from companion.i18n import os_reason
from companion.text import Text

# A table header: ``[name]`` or ``[[name]]``, a comment allowed after it.
_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Key:
    """``table.lang`` -> section ``table``, name ``lang``; ``gpio.referee.confirm`` -> section
    ``gpio.referee``."""

    section: str
    name: str

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"


def parse_key(text: str) -> Key:
    parts = text.split(".")
    if len(parts) < 2 or not all(_BARE_KEY.fullmatch(p) for p in parts):
        raise ConfigError(
            "config_edit.parse_key",
            text=text,
        )
    return Key(".".join(parts[:-1]), parts[-1])


def parse_value(text: str) -> Any:
    """What the user typed, read as a TOML value when it is one (``180``, ``true``, ``"fr"``,
    ``[1, 2]``), else as a string (``fr``, ``/dev/ttyACM0``): nobody should have to quote twice
    on a shell line."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def toml_value(value: Any) -> str:
    """A value as TOML writes it (the types a config holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON's escapes are TOML's basic string's
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        # TOML has no null: a key left unset is a key left out ({ button = 17 }, no led).
        kept = [f"{k} = {toml_value(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(kept) + " }"
    raise TypeError(type(value).__name__)


def _header_name(line: str) -> tuple[str, bool] | None:
    match = _HEADER.match(line)
    if not match:
        return None
    name = match.group(2).replace(" ", "").replace('"', "").replace("'", "")
    return name, match.group(1) == "[["


def _key_of(line: str) -> str | None:
    match = re.match(r"\s*([A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*=", line)
    return match.group(1).strip("\"'") if match else None


def _comment_of(line: str, key: str) -> str:
    """The comment after a ``key = value`` line, found where the text before it parses as a
    whole TOML line (a ``#`` inside a string is not a comment)."""
    for at in [i for i, c in enumerate(line) if c == "#"]:
        try:
            tomllib.loads(line[:at].strip())
        except tomllib.TOMLDecodeError:
            continue
        return "  " + line[at:].rstrip()
    return ""


def _get(data: dict[str, Any], key: Key) -> tuple[bool, Any]:
    node: Any = data
    for part in key.section.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    if not isinstance(node, dict) or key.name not in node:
        return False, None
    return True, node[key.name]


def _with(data: dict[str, Any], key: Key, value: Any, *, remove: bool = False) -> dict[str, Any]:
    """A deep copy of ``data`` with one key set (or removed)."""
    out: dict[str, Any] = json.loads(json.dumps(data, default=str))
    node = out
    for part in key.section.split("."):
        node = node.setdefault(part, {})
    if remove:
        node.pop(key.name, None)
    else:
        node[key.name] = value
    return out


def edit(text: str, key: Key, value: Any, *, remove: bool = False, where: str = "config") -> str:
    """``text`` with ``key`` set to ``value`` (or removed), every other line as it was. The
    result is checked twice: it must read as the old file with that one key changed, and the
    companion must accept it (a wrong value is refused with the config's own sentence)."""
    lines = text.splitlines()
    start, end = _section(lines, key.section)
    new_line = "" if remove else f"{key.name} = {toml_value(value)}"
    if start is None:
        if not remove:
            while lines and not lines[-1].strip():
                lines.pop()
            lines += ([""] if lines else []) + [f"[{key.section}]", new_line]
    else:
        _edit_section(lines, start, end, key.name, new_line, remove=remove)
    result = "\n".join(lines) + "\n"
    _check(text, result, key, value, remove=remove, where=where)
    return result


def _section(lines: list[str], section: str) -> tuple[int | None, int]:
    """The line of ``[section]``'s header (None if the file has none) and where it ends."""
    start: int | None = None
    for i, line in enumerate(lines):
        header = _header_name(line)
        if header is None:
            continue
        if start is not None:
            return start, i
        if header == (section, False):
            start = i
    return start, len(lines)


def _edit_section(lines: list[str], start: int, end: int, name: str, new_line: str, *, remove: bool) -> None:
    """The key's line in the section between ``start`` and ``end`` replaced (its comment kept),
    removed, or added after the section's last setting."""
    found = [i for i in range(start + 1, end) if _key_of(lines[i]) == name]
    if found and remove:
        del lines[found[0]]
    elif found:
        old = lines[found[0]]
        indent = old[: len(old) - len(old.lstrip())]
        lines[found[0]] = indent + new_line + _comment_of(old, name)
    elif not remove:
        last = start
        for i in range(start + 1, end):
            if lines[i].strip() and not lines[i].lstrip().startswith("#"):
                last = i
        lines.insert(last + 1, new_line)


def _check(before: str, after: str, key: Key, value: Any, *, remove: bool, where: str) -> None:
    try:
        old = tomllib.loads(before)
        new = tomllib.loads(after)
    except tomllib.TOMLDecodeError:
        same = False
    else:
        same = _plain(new) == _plain(_with(old, key, value, remove=remove))
    if not same:
        raise ConfigError(
            "config_edit.check",
            where=where,
            name=key.name,
            section=key.section,
        )
    HardwareConfig.from_toml(after, where=where)


def _plain(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data, default=str, sort_keys=True))


def current(text: str, key: Key) -> tuple[bool, Any]:
    """Whether the file sets ``key``, and to what."""
    return _get(tomllib.loads(text), key)


def read_config_text(path: Path) -> str | None:
    """The file's text, None when there is none yet (every setting at its default)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as err:
        raise _cannot(path, err, Text("config_edit.read")) from None
    except UnicodeDecodeError as err:
        raise ConfigError(
            "config_edit.read_config_text",
            path=path,
            column=err.start + 1,
        ) from None


def _cannot(path: Path, err: OSError, action: Text) -> ConfigError:
    why = Text.pair(en=err.strerror or type(err).__name__, fr=os_reason(err))
    return ConfigError("config_edit.cannot", action=action, path=path, why=why)


def write_config_text(path: Path, text: str) -> None:
    """Whole or not at all (a temporary file, then rename): a crash never leaves half a config,
    and a file that cannot be written is left exactly as it was."""
    from companion.paths import ensure_dir

    ensure_dir(
        path.parent,
        what=Text.pair(en="the config folder", fr="le dossier de configuration"),
        fix=Text.pair(
            en="pass --config with a file this user can write",
            fr="indiquez avec --config un fichier où cet utilisateur peut écrire",
        ),
        error=ConfigError,
    )
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        try:
            tmp.write_text(text, encoding="utf-8")
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o7777)  # the user's permissions stay
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as err:
        raise _cannot(path, err, Text("config_edit.write")) from None


def set_in_file(path: Path, key: Key, value: Any) -> bool:
    """``key = value`` in the config file at ``path`` (made if missing), every other line kept;
    False when the file already says so (nothing written)."""
    text = read_config_text(path)
    if text is not None and current(text, key) == (True, value):
        return False
    write_config_text(path, edit(text or "", key, value, where=str(path)))
    return True
