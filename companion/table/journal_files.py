"""Forensics on a journal's files before SQLite opens them: SQLite would "recover" a damaged
file (replay and delete its ``-wal``) before we could say no, and silently stop at the first bad
frame of a ``-wal``, dropping every later transaction. Each finding is a reason in English and
French for ``journal_errors.broken``."""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path

from companion.i18n import os_reason

_WAL_MAGIC = {0x377F0682: "<", 0x377F0683: ">"}  # checksum words little- or big-endian


def _wal_sum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum (the same sums SQLite checks on recovery), continued from s0, s1."""
    words = iter(struct.unpack(f"{order}{len(data) // 4}I", data))
    for a in words:
        b = next(words)
        s0 = (s0 + a + s1) & 0xFFFFFFFF
        s1 = (s1 + b + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> tuple[str, str] | None:
    """Where a ``-wal`` left by a run that did not close would lose committed events, in English
    and French; None when SQLite's recovery will keep every one of them.

    SQLite's recovery reads the frames in order and silently stops at the first one whose salts
    or checksum do not match, dropping every later transaction. Only the last transaction in the
    file may legitimately be cut short (a pulled plug during its write, before its commit
    returned); a bad frame before it means events the players saw committed would vanish.
    """
    try:
        with open(wal, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    if len(data) < 32:
        return None  # SQLite reads a WAL without a whole header as empty: nothing was committed
    magic, version, page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    order = _WAL_MAGIC.get(magic)
    header_ok = (
        order is not None
        and version == 3007000
        and page >= 512
        and not page & (page - 1)
        and _wal_sum(data[:24], order, 0, 0) == (c1, c2)
    )
    if not header_ok:
        # Without a header no frame can be checked; the frames' own headers still tell whether
        # more than one transaction (so at least one acknowledged) was written.
        page = page if 512 <= page <= 65536 and not page & (page - 1) else 0
        if page == 0 or len(data) < 32 + 2 * (page + 24):
            return None
        salt1, salt2 = struct.unpack(">2I", data[32 + 8 : 32 + 16])
    size = page + 24
    frames = (len(data) - 32) // size
    heads = [struct.unpack_from(">6I", data, 32 + i * size) for i in range(frames)]
    ours = [i for i, h in enumerate(heads) if (h[2], h[3]) == (salt1, salt2)]
    if not ours:
        return None
    # A commit followed by more frames of this generation was acknowledged: the writer went on.
    acked = [i for i in ours if heads[i][1] and i < ours[-1]]
    if not acked:
        return None
    last = acked[-1]
    if not header_ok:
        return (
            f"the header of its {wal.name} is damaged, so SQLite would silently ignore every event in it",
            f"l'en-tête de son {wal.name} est abîmé, SQLite ignorerait sans rien dire tous "
            "les événements qu'il contient",
        )
    assert order is not None
    sums = (c1, c2)
    for i in range(last + 1):
        at = 32 + i * size
        h = heads[i]
        sums = _wal_sum(data[at : at + 8], order, *sums)
        sums = _wal_sum(data[at + 24 : at + size], order, *sums)
        if (h[2], h[3]) != (salt1, salt2) or sums != (h[4], h[5]):
            lost = sum(1 for j in ours if j >= i and heads[j][1])
            return (
                f"frame {i + 1} of {frames} of its {wal.name} is damaged, so SQLite would "
                f"silently drop the {lost} transaction(s) committed after it",
                f"la trame {i + 1} sur {frames} de son {wal.name} est abîmée, SQLite "
                f"abandonnerait sans rien dire les {lost} transaction(s) validée(s) après "
                "elle",
            )
    return None


Why = tuple[str, str]  # a reason the journal cannot be read, in English and French


def file_damage(path: Path, wal: Path, *, judge_wal: Callable[[], bool]) -> Why | None:
    """Why ``path`` (with its ``wal``) is not a whole companion journal, or None (None too when
    there is no journal yet). ``judge_wal``: whether a ``-wal`` left there is ours to judge (no
    live writer is behind it)."""
    if not path.exists():
        if wal.exists():
            return (
                f"the file is missing but its {wal.name} is there",
                f"le fichier manque mais son {wal.name} est là",
            )
        return None
    if not path.is_file():
        return ("it is not a file", "ce n'est pas un fichier")
    if not os.access(path, os.R_OK):
        return ("permission denied", "permission refusée")
    damage = _header_damage(path, wal)
    if damage is not None:
        return damage
    # A -wal left by a run that did not close is replayed by SQLite, which silently stops
    # at its first damaged frame; judge it first. A live writer's -wal is its own business:
    # SQLite reads it through that writer's index, and it may be half-way through a frame.
    if wal.exists() and wal.stat().st_size > 32 and judge_wal():
        try:
            return wal_damage(wal)
        except OSError as err:
            return (
                f"its {wal.name} cannot be read: {err.strerror}",
                f"son {wal.name} est illisible : {os_reason(err)}",
            )
    return None


def _header_damage(path: Path, wal: Path) -> Why | None:
    size = path.stat().st_size
    with open(path, "rb") as handle:
        header = handle.read(100)
    if size < 100 or not header.startswith(b"SQLite format 3\x00"):
        return (
            f"{size} bytes: not a companion journal",
            f"{size} octets : ce n'est pas un journal du companion",
        )
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1) or size % page:
        return (
            f"damaged: {size} bytes is not a whole number of {page}-byte pages; its "
            f"{wal.name}, if any, was kept too",
            f"abîmé : {size} octets ne font pas un nombre entier de pages de {page} octets ; "
            f"son {wal.name}, s'il existe, a été gardé aussi",
        )
    return None


def is_disk_full(folder: Path) -> bool:
    try:
        st = os.statvfs(folder)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def on_read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False
