"""Button sources: each runs on its own thread and only puts immutable events on a queue."""

from companion.inputs.base import (
    Clock,
    InputEvent,
    InputSource,
    Role,
    SourceStatus,
)

__all__ = ["Clock", "InputEvent", "InputSource", "Role", "SourceStatus"]
