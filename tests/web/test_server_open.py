"""The server ``companion play --web`` opens, and stops: the [web] settings of the config (or the defaults
with none), its data folder, and the address the table's screen gives the phones: this
machine's own on the room's network, the one the kernel would answer a phone from."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import companion.web.server as server_module
from companion.hardware.config import HardwareConfig
from companion.hardware.web_config import WebConfig
from companion.web.server import WebServer, lan_address, open_web


def test_the_server_opens_with_the_configs_web_settings_or_the_defaults(tmp_path: Path) -> None:
    cfg = HardwareConfig.from_toml(
        '[web]\nenabled = true\nport = 9123\nbind = "127.0.0.1"\nmax_viewers = 3\n'
    )
    web = open_web(cfg, tmp_path)
    assert web.config == cfg.web and web.config.port == 9123 and web.config.max_viewers == 3
    assert web.feed.data_dir == tmp_path
    assert web._thread is None  # not listening yet: the App starts it once it can be followed
    bare = open_web(None, tmp_path / "other")
    assert bare.config == WebConfig() and bare.feed.data_dir == tmp_path / "other"


def _route_source(dest: str) -> str | None:
    """The address this machine would send from to ``dest``, or None with no route there."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((dest, 53))
        except OSError:
            return None
        return str(s.getsockname()[0])


def test_the_phones_address_is_this_machines_own_on_its_route_out() -> None:
    """Another address of the documentation range (198.51.100.0/24) takes the same route out as
    the one the server asks about: the same source address, or loopback with no route at all;
    either way an address this machine can listen on."""
    address = lan_address()
    assert address == (_route_source("198.51.100.7") or "127.0.0.1")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((address, 0))  # only this machine's own addresses can be bound


def test_stop_ends_the_servers_thread_at_once_and_may_be_said_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Woken, the server stops without waiting for its next look: with that look an hour away
    its thread is gone when ``stop`` returns. Stopped again, nothing happens."""
    monkeypatch.setattr(server_module, "TICK_S", 3600.0)
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path)
    web.start()
    assert web._thread is not None and web._thread.is_alive()
    with socket.create_connection(("127.0.0.1", web.port), timeout=10):
        pass  # listening
    web.stop()
    assert not web._thread.is_alive()
    web.stop()  # its loop is closed: nothing to wake, nothing raised
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", web.port), timeout=10):
        pass  # no longer listening
