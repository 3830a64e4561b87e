"""The systemd unit of the kiosk: valid for systemd itself, and sandboxed as a kiosk should be.

``systemd-analyze verify`` runs against a scratch root holding systemd's own units and a stand-in
for the program, so it checks every key and value of our unit without a Pi (Debian's systemd
package provides the tool; .ci/run installs it).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import ROOT, skip_unless_ci

UNIT = ROOT / "hardware" / "companion.service"
ANALYZE = shutil.which("systemd-analyze")


def needs_systemd(test: Callable[..., None]) -> Callable[..., None]:
    """systemd-analyze is Debian's; .ci/run installs it, so only a developer's machine skips."""

    @functools.wraps(test)
    def run(*args: object, **kwargs: object) -> None:
        if ANALYZE is None:
            skip_unless_ci("systemd-analyze not installed (apt-get install systemd)")
        test(*args, **kwargs)

    return run


def settings() -> dict[str, list[str]]:
    text = UNIT.read_text().replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def scratch_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    units = next(p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir())
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    program = Path(settings()["ExecStart"][0].split()[0])
    stand_in = root / program.relative_to("/")
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / UNIT.name)
    return root


@needs_systemd
def test_systemd_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    root = scratch_root(tmp_path)
    result = subprocess.run(
        [str(ANALYZE), "verify", f"--root={root}", UNIT.name], capture_output=True, text=True, timeout=120
    )
    # verify exits 0 even on an unknown key or a bad value: it only warns, so silence is the test
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "", result


@needs_systemd
def test_systemd_security_rates_the_sandbox_ok(tmp_path: Path) -> None:
    root = scratch_root(tmp_path)
    result = subprocess.run(
        [str(ANALYZE), "security", "--offline=true", f"--root={root}", "--no-pager", UNIT.name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout + result.stderr)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 2.0, result.stdout  # "OK" is below 4.0; we keep to 2


def test_the_sandbox_a_kiosk_needs() -> None:
    unit = settings()
    for key, value in [
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("PrivateTmp", "yes"),
        ("DevicePolicy", "closed"),
        ("CapabilityBoundingSet", ""),
    ]:
        assert unit.get(key) == [value], key
    assert unit["ProtectHome"][0] in ("yes", "read-only", "tmpfs")
    data_dir = next(v.split("=", 1)[1] for v in unit["Environment"] if v.startswith("COMPANION_DATA_DIR="))
    writable = unit.get("BindPaths", []) + unit.get("ReadWritePaths", [])
    assert data_dir in writable  # the journal's folder, and nothing else, is writable
    devices = " ".join(unit["DeviceAllow"])
    for device in ("char-drm", "char-gpiochip", "char-ttyACM", "char-input", "/dev/tty1"):
        assert device in devices, device
    config = next(a for a in unit["ExecStart"][0].split() if a.endswith(".toml"))
    assert config.startswith("/home/companion/.config/table-companion/")
    assert any(config.startswith(p.lstrip("-")) for p in unit["BindReadOnlyPaths"])


WEB_DROP_IN = UNIT.parent / "companion-web.conf"


def test_the_network_opens_only_with_the_phones_drop_in_and_only_to_the_room() -> None:
    """Without [web] the kiosk has no network at all; the drop-in docs/kiosk.md installs for it
    opens IPv4/IPv6 to this machine, the link and the private ranges, never the internet."""
    import ipaddress

    unit = settings()
    assert unit["IPAddressDeny"] == ["any"]
    assert "AF_INET" not in " ".join(unit["RestrictAddressFamilies"])
    drop: dict[str, list[str]] = {}
    for line in WEB_DROP_IN.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            drop.setdefault(key.strip(), []).append(value.strip())
    assert set(drop) == {"RestrictAddressFamilies", "IPAddressAllow"}
    assert drop["RestrictAddressFamilies"] == ["AF_INET AF_INET6"]
    for entry in drop["IPAddressAllow"][0].split():
        if entry in ("localhost", "link-local"):
            continue
        net = ipaddress.ip_network(entry)
        assert net.is_private and net.prefixlen >= 7, entry  # never "any", never a public range
    install = f"hardware/{WEB_DROP_IN.name} /etc/systemd/system/{UNIT.name}.d/"
    assert install in (UNIT.parents[1] / "docs" / "kiosk.md").read_text()


@needs_systemd
def test_systemd_verify_accepts_the_phones_drop_in(tmp_path: Path) -> None:
    root = scratch_root(tmp_path)
    drop_in = root / "etc/systemd/system" / f"{UNIT.name}.d" / "web.conf"
    drop_in.parent.mkdir(parents=True)
    shutil.copy(WEB_DROP_IN, drop_in)
    result = subprocess.run(
        [str(ANALYZE), "verify", f"--root={root}", UNIT.name], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "", result
