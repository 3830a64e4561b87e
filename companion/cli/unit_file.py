"""The companion's systemd unit as ``companion doctor`` reads it (its user, runtime folder,
sandbox of /home, config file), and whether that user may read a file: plain helpers, no check."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

NOT_BOOTED = "has not been booted with systemd"


@dataclass
class Unit:
    """What doctor needs from the companion's unit: its user, runtime folder, sandbox of /home
    and the config file its command names."""

    user: str = "root"
    runtime: str = ""
    protect_home: str = "no"
    visible: list[str] = field(default_factory=list)  # Bind(ReadOnly)Paths= under the sandbox
    config: str | None = None

    @classmethod
    def parse(cls, text: str) -> Unit:
        unit = cls()
        joined = re.sub(r"\\\n\s*", " ", text)  # continuation lines are one setting
        for raw in joined.splitlines():
            key, sep, value = raw.strip().partition("=")
            if not sep or key.startswith(("#", ";")):
                continue
            key, value = key.strip(), value.strip()
            if key == "User":
                unit.user = value
            elif key == "RuntimeDirectory":
                unit.runtime = value
            elif key == "ProtectHome":
                unit.protect_home = value
            elif key in ("BindPaths", "BindReadOnlyPaths"):
                unit.visible += [p.lstrip("-").split(":")[0] for p in value.split()]
            elif key == "ExecStart":
                found = re.search(r"--config(?:=|\s+)(\S+)", value)
                unit.config = found[1] if found else unit.config
        return unit

    def hides(self, path: str) -> bool:
        """Whether the sandbox hides ``path`` from the service (ProtectHome= without a bind)."""
        if self.protect_home not in ("yes", "read-only", "tmpfs", "true"):
            return False
        if not path.startswith(("/home/", "/root/", "/run/user/")):
            return False
        return not any(path == v or path.startswith(v.rstrip("/") + "/") for v in self.visible)


def readable_by(path: Path, user: str) -> bool | None:
    """Whether ``user`` may read ``path`` by its modes (None: no such user here)."""
    import grp
    import pwd

    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None
    if entry.pw_uid == 0:
        return True
    groups = set(os.getgrouplist(user, entry.pw_gid))
    groups |= {g.gr_gid for g in grp.getgrall() if user in g.gr_mem}

    def may(p: Path, bit: int) -> bool:
        st = p.stat()
        if st.st_uid == entry.pw_uid:
            return bool(st.st_mode & (bit << 6))
        if st.st_gid in groups:
            return bool(st.st_mode & (bit << 3))
        return bool(st.st_mode & bit)

    try:
        return all(may(d, 1) for d in path.parents) and may(path, 4)
    except OSError:
        return False
