"""The journal's writer lock: ``journal.lock`` beside it, an exclusive ``flock`` held by the one
companion that writes (its pid written in the file, to be named to a second one), and the probe
by which a reader tells whether such a writer is alive."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from companion.table import journal_errors as err

LOCK_NAME = "journal.lock"


def take_lock(data_dir: Path, *, wait: bool) -> int:
    """The lock's file descriptor, held; a JournalError naming the other companion's pid when it
    holds it. ``wait``: wait out a reader's probe (False when a writer meanwhile means "not
    now")."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise err.os_error(data_dir, exc) from None
    if not _flock(fd, attempts=20 if wait else 1):
        other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise err.locked(data_dir, other)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError as exc:
        os.close(fd)
        raise err.os_error(data_dir, exc) from None
    return fd


def _flock(fd: int, *, attempts: int) -> bool:
    # A reader's probe (``writer_alive``) holds the lock for microseconds: wait it out.
    for attempt in range(attempts):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if attempt < attempts - 1:
                time.sleep(0.01)
    return False


def writer_alive(data_dir: Path) -> bool:
    """Whether a companion holds the writer's lock now. The probe is a shared lock taken and
    dropped at once (``take_lock`` waits out such a probe); nothing is written."""
    try:
        fd = os.open(data_dir / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops the probe's lock
    return False
