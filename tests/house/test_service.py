"""The systemd unit of the kiosk: valid for systemd itself, and sandboxed as a kiosk should be.

``systemd-analyze verify`` runs against a scratch root holding systemd's own units and a stand-in
for the program, so it checks every key and value of our unit without a Pi (Debian's systemd
package provides the tool; .ci/run installs it).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

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


GENERATOR = ROOT / "hardware" / "companion-web-generator"
WEB_DROP_IN = f"{UNIT.name}.d/50-companion-web.conf"
ON = "[table]\nlang = 'fr'\n\n[web]\nenabled = true\nport = 8400\n"


def generate(tmp_path: Path, config: str | bytes | None) -> tuple[dict[str, list[str]] | None, str]:
    """Run the generator as systemd does (as a program, three folders) against ``config``: the
    drop-in it wrote (its settings), or None, and what it told the kernel log."""
    path = tmp_path / "companion.toml"
    if isinstance(config, str):
        path.write_text(config, encoding="utf-8")
    elif isinstance(config, bytes):
        path.write_bytes(config)
    kmsg = tmp_path / "kmsg"
    kmsg.write_bytes(b"")
    out = tmp_path / "generator"
    env = {"COMPANION_WEB_GENERATOR_CONFIG": str(path), "COMPANION_WEB_GENERATOR_KMSG": str(kmsg)}
    result = subprocess.run(
        [str(GENERATOR), str(out), str(out) + ".early", str(out) + ".late"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", result
    written = (
        sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) if out.exists() else []
    )
    assert written in ([], [WEB_DROP_IN]), written
    said = kmsg.read_text(encoding="utf-8")
    if not written:
        return None, said
    drop: dict[str, list[str]] = {}
    for line in (out / WEB_DROP_IN).read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            drop.setdefault(key.strip(), []).append(value.strip())
    return drop, said


def test_without_web_the_kiosk_has_no_network() -> None:
    unit = settings()
    assert unit["IPAddressDeny"] == ["any"]
    assert "AF_INET" not in " ".join(unit["RestrictAddressFamilies"])
    assert "IPAddressAllow" not in unit and "SocketBindAllow" not in unit


def test_web_on_opens_the_room_and_the_port_only(tmp_path: Path) -> None:
    import ipaddress

    drop, said = generate(tmp_path, ON)
    assert drop is not None, said
    assert set(drop) == {
        "SourcePath",
        "RestrictAddressFamilies",
        "IPAddressAllow",
        "SocketBindAllow",
        "SocketBindDeny",
    }
    assert drop["SourcePath"] == [str(tmp_path / "companion.toml")]  # "changed on disk" follows the config
    assert drop["RestrictAddressFamilies"] == ["AF_INET AF_INET6"]
    assert drop["SocketBindAllow"] == ["tcp:8400"] and drop["SocketBindDeny"] == ["any"]
    entries = drop["IPAddressAllow"][0].split()
    assert "localhost" in entries and "192.168.0.0/16" in entries
    for entry in entries:
        if entry in ("localhost", "link-local"):
            continue
        net = ipaddress.ip_network(entry)
        assert net.is_private and net.prefixlen >= 7, entry  # never "any", never a public range
    assert re.fullmatch(r"<30>companion-web-generator\[\d+\]: \[web\] is on: .*8400.*\n", said), said


@pytest.mark.parametrize(
    "config",
    [None, "", "[table]\nlang = 'en'\n", "[web]\nenabled = false\nport = 8400\n", "[web]\nport = 8400\n"],
    ids=["no file", "empty", "no [web]", "off", "enabled left out"],
)
def test_web_off_writes_nothing_and_says_nothing(tmp_path: Path, config: str | None) -> None:
    assert generate(tmp_path, config) == (None, "")


MALFORMED = {
    "not TOML": "[web\nenabled = true\n",
    "not UTF-8": b"[web]\nenabled = true\n# \xff\n",
    "web not a table": "web = true\n",
    "enabled as text": '[web]\nenabled = "yes"\n',
    "enabled as a number": "[web]\nenabled = 1\n",
    "port too big": "[web]\nenabled = true\nport = 70000\n",
    "port as text": '[web]\nenabled = true\nport = "8400"\n',
    "port true": "[web]\nenabled = true\nport = true\n",
    "bind a name": '[web]\nenabled = true\nbind = "table.local"\n',
    "bind a number": "[web]\nenabled = true\nbind = 3\n",
    "unknown key": "[web]\nenabled = true\nprot = 8400\n",
    "viewers as text": '[web]\nenabled = true\nmax_viewers = "64"\n',
}


@pytest.mark.parametrize("config", list(MALFORMED.values()), ids=list(MALFORMED))
def test_a_malformed_config_keeps_the_sandbox_closed_and_says_why(
    tmp_path: Path, config: str | bytes
) -> None:
    drop, said = generate(tmp_path, config)
    assert drop is None
    # one kernel-log record at warning level, filed by journald under the generator's name
    assert re.fullmatch(r"<28>companion-web-generator\[\d+\]: [^\n]+ / [^\n]+\n", said), said
    assert "stays closed" in said and "reste fermé" in said and "daemon-reload" in said


def test_the_generator_and_the_companion_agree_on_web(tmp_path: Path) -> None:
    """The generator repeats [web]'s checks (it must not import the companion's venv as root):
    where the companion would listen, the sandbox opens, and nowhere else."""
    import tomllib

    from pydantic import ValidationError

    from companion.errors import ConfigError
    from companion.hardware.web_config import WebConfig

    cases = [ON, "[web]\nenabled = true\nport = 0\nbind = '::1'\npublic_host = 'x'\nmax_viewers = 3\n"]
    cases += [c for c in MALFORMED.values() if isinstance(c, str) and c.startswith("[web]\n")]
    cases += ["[web]\nenabled = false\nport = 70000\n", "[web]\nenabled = true\nmax_message = 1.5\n"]
    for n, config in enumerate(cases):
        try:
            web = WebConfig.model_validate(tomllib.loads(config).get("web", {}))
            listens = web.enabled
        except (ValidationError, ConfigError):
            listens = False
        (tmp_path / str(n)).mkdir()
        drop, said = generate(tmp_path / str(n), config)
        assert (drop is not None) == listens, (config, said)


def test_the_generator_reads_the_config_the_unit_starts_with() -> None:
    text = GENERATOR.read_text(encoding="utf-8")
    config = next(a for a in settings()["ExecStart"][0].split() if a.endswith(".toml"))
    assert f'"{config}"' in text
    assert text.startswith("#!/usr/bin/python3 -I\n")  # root runs it: the system's Python, isolated
    assert "import companion" not in text and "from companion" not in text
    assert GENERATOR.stat().st_mode & 0o111


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_link_or_a_fifo_in_place_of_the_config_is_refused(tmp_path: Path, kind: str) -> None:
    """Root reads a file the companion user writes: not through a link, never blocking on a FIFO."""
    path = tmp_path / "companion.toml"
    if kind == "symlink":
        (tmp_path / "elsewhere.toml").write_text(ON, encoding="utf-8")
        path.symlink_to(tmp_path / "elsewhere.toml")
    else:
        os.mkfifo(path)
    drop, said = generate(tmp_path, None)
    assert drop is None and "stays closed" in said, said


def test_the_generator_passes_the_style_gates() -> None:
    import sys

    for tool in (["ruff", "check"], ["ruff", "format", "--check"], ["mypy", "--strict"]):
        result = subprocess.run(
            [sys.executable, "-m", *tool, str(GENERATOR)], cwd=ROOT, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr


@needs_systemd
def test_systemd_verify_accepts_the_generated_drop_in(tmp_path: Path) -> None:
    root = scratch_root(tmp_path)
    drop, _ = generate(tmp_path, ON)
    assert drop is not None
    target = root / "etc/systemd/system" / WEB_DROP_IN
    target.parent.mkdir(parents=True)
    shutil.copy(tmp_path / "generator" / WEB_DROP_IN, target)
    result = subprocess.run(
        [str(ANALYZE), "verify", f"--root={root}", UNIT.name], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "", result


def test_the_guide_installs_the_generator_and_kiosk_md_says_how_phones_open() -> None:
    page = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
    assert f"hardware/{GENERATOR.name}" in page
    assert f"/tmp/{GENERATOR.name} /etc/systemd/system-generators/{GENERATOR.name}" in page
    kiosk = (ROOT / "docs" / "kiosk.md").read_text(encoding="utf-8")
    assert "companion config set web.enabled true" in kiosk and "daemon-reload" in kiosk


SCREEN_RULE = ROOT / "hardware" / "99-companion-screen.rules"


def test_the_kiosk_waits_for_the_device_the_screen_rule_makes() -> None:
    # Started before its DRM card (under emulation the card came a minute after the boot), SDL
    # found no screen: the unit is bound to, ordered after and wanted by the device the rule
    # shows to systemd, so it starts when the screen comes, however late, with no fixed wait.
    from fnmatch import fnmatchcase

    rule = [x for x in SCREEN_RULE.read_text().splitlines() if x.strip() and not x.startswith("#")]
    assert len(rule) == 1
    pairs = dict(re.findall(r'(\w+(?:\{\w+\})?)\s*[=+!]=?\s*"([^"]*)"', rule[0]))
    assert pairs["SUBSYSTEM"] == "drm" and pairs["TAG"] == "systemd"
    # Its outputs, each named cardN-CONNECTOR: a render-only card (a Pi 5's v3d) and the
    # render nodes are no screen.
    kernel = pairs["KERNEL"]
    assert all(fnmatchcase(n, kernel) for n in ("card0-Virtual-1", "card1-HDMI-A-1", "card1-DSI-1"))
    assert not any(fnmatchcase(n, kernel) for n in ("card0", "card1", "renderD128"))
    alias = pairs["ENV{SYSTEMD_ALIAS}"]
    escape = shutil.which("systemd-escape")
    if escape is None:
        skip_unless_ci("systemd-escape not installed (apt-get install systemd)")
        return
    device = subprocess.run(
        [escape, "--path", "--suffix=device", alias], capture_output=True, text=True, check=True
    ).stdout.strip()
    unit = settings()
    assert unit["BindsTo"] == [device]
    assert device in unit["After"][0].split()
    assert unit["WantedBy"] == [device]
