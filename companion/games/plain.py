"""A game's view as plain JSON, for the phones' page (``Game.feed``)."""

from __future__ import annotations

import dataclasses
from typing import Any


def plain(value: Any) -> Any:
    """Dataclasses as objects, tuples as lists, keys as text, anything else unknown as its text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
