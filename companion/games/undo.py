"""The decisions in force, for undo: a stack whose older part waits in a temporary file, so that a
game's memory stays flat however many decisions its log holds (a copy of the state per decision
held in memory was 1.6 GB for a log of 500,000 verdicts).

Undo reaches back as far as the log says, so no checkpoint may be dropped; but only the newest
are ever touched in a row. The newest ``keep`` to ``2 * keep`` live in memory; older ones are
pickled by batches of ``keep`` to an anonymous temporary file (deleted by the system when closed,
readable by no one else, so unpickling it trusts only what this process wrote) and read back,
newest batch first, when undos reach them. Without a writable temporary folder they stay in
memory, as they always did.

A replay that has read its log ahead knows when no undo follows any more: ``none_ahead`` then
forgets every checkpoint, and ``needed`` tells the engine to make none from there on (a copy of
the state at every decision was most of a long replay's time).
"""

from __future__ import annotations

import dataclasses
import operator
import pickle
import struct
import tempfile
from typing import IO, Any, Generic, TypeVar

from companion.errors import CompanionError

T = TypeVar("T")
C = TypeVar("C", bound=type)
_LENGTH = struct.Struct("<Q")  # each batch is followed by its length, so the stack reads backwards


class Checkpoints(Generic[T]):
    __slots__ = ("_end", "_file", "_keep", "_recent", "_spilled", "_stuck", "needed")

    def __init__(self, keep: int = 1024) -> None:
        if keep < 1:
            raise ValueError("keep must be at least 1")
        self._keep = keep
        self._recent: list[T] = []
        self._file: IO[bytes] | None = None
        self._spilled = 0  # checkpoints in the file
        self._end = 0  # where the file's stack ends (batches read back are overwritten later)
        self._stuck = False  # the file could not be written: keep everything in memory
        # False once no undo can come any more: engines then skip making checkpoints at all.
        self.needed = True

    def __len__(self) -> int:
        return len(self._recent) + self._spilled

    def __bool__(self) -> bool:
        return bool(self._recent) or self._spilled > 0

    @property
    def in_memory(self) -> int:
        return len(self._recent)

    def none_ahead(self) -> None:
        """No undo will follow (the replay read its log's last one): drop every checkpoint, the
        temporary file with them, and keep none from now on."""
        self.needed = False
        self._recent.clear()
        self._spilled = self._end = 0
        if self._file is not None:
            self._file.close()
            self._file = None

    def append(self, item: T) -> None:
        if not self.needed:
            return
        self._recent.append(item)
        if len(self._recent) >= 2 * self._keep and not self._stuck:
            self._spill()

    def top(self) -> T:
        """The newest checkpoint (IndexError when there is none)."""
        if not self._recent:
            self._reload()
        return self._recent[-1]

    def pop(self) -> T:
        if not self._recent:
            self._reload()
        return self._recent.pop()

    def _spill(self) -> None:
        older = self._recent[: self._keep]
        blob = pickle.dumps(older, pickle.HIGHEST_PROTOCOL)
        try:
            if self._file is None:
                # Lives as long as the game; closed (and gone) when the game is dropped.
                self._file = tempfile.TemporaryFile(prefix="companion-undo-")  # noqa: SIM115
            self._file.seek(self._end)
            self._file.write(blob)
            self._file.write(_LENGTH.pack(len(blob)))
        except OSError:
            # No room or no temporary folder: memory then grows with the log, as before; the
            # game itself is unharmed. What the file holds already stays readable.
            self._stuck = True
            return
        del self._recent[: self._keep]
        self._spilled += len(older)
        self._end += len(blob) + _LENGTH.size

    def _reload(self) -> None:
        if not self._spilled or self._file is None:
            return
        try:
            self._file.seek(self._end - _LENGTH.size)
            (size,) = _LENGTH.unpack(self._file.read(_LENGTH.size))
            self._file.seek(self._end - _LENGTH.size - size)
            blob = self._file.read(size)
        except OSError as err:
            raise CompanionError(
                "games.undo.reload",
                why=err.strerror or err,
            ) from None
        older: list[T] = pickle.loads(blob)  # our own anonymous file, see above
        self._end -= size + _LENGTH.size
        self._spilled -= len(older)
        self._recent[:0] = older


def pickled_by_fields(cls: C) -> C:
    """A dataclass pickled as its constructor and its fields in order: several times faster than
    pickle's default for slotted classes, which is what a checkpoint's state is made of."""
    fields = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))

    def __reduce__(self: Any) -> tuple[Any, ...]:
        values = fields(self)
        return cls, values if isinstance(values, tuple) else (values,)

    cls.__reduce__ = __reduce__  # type: ignore[assignment]
    return cls
