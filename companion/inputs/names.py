"""The input sources by name: the one list that ``--input``, the config's ``[input] source`` and
the source builder (``hardware/sources.py``, one builder per name) read. Phones ("web") join
through the server ``--web`` starts, never by ``--input`` or the setup screen."""

from __future__ import annotations

from typing import Literal, get_args

SourceName = Literal["gpio", "serial", "keyboard", "sim"]
INPUT_CHOICES: tuple[SourceName, ...] = get_args(SourceName)
SOURCE_NAMES: tuple[str, ...] = (*INPUT_CHOICES, "web")
