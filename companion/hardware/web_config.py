"""``[web]``: the phones' server, off unless asked for; where it listens and how much it takes.

Validated with the rest of the config file (``HardwareConfig.web``), so a wrong port stops the
companion with one sentence before anything listens.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from companion.errors import ConfigError


class WebConfig(BaseModel):
    # Strict: TOML has true/false and numbers, and the kiosk's sandbox generator
    # (hardware/companion-web-generator) opens the network on the same reading, not on "yes".
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    enabled: bool = False
    # Every interface, since phones reach the table over the room's Wi-Fi; "127.0.0.1" keeps it
    # to this machine (tests, a kiosk without phones).
    bind: str = "0.0.0.0"
    port: int = 8325
    # The address phones are told to use (the QR codes); None: this machine's LAN address.
    public_host: str | None = None
    max_viewers: int = 64
    max_message: int = 512  # bytes, a WebSocket frame or a scorer's request body

    @field_validator("bind")
    @classmethod
    def _bind(cls, v: Any) -> str:
        try:
            ipaddress.ip_address(v)
        except ValueError:
            raise ConfigError(
                "web_config.bind",
                v=v,
            ) from None
        return str(v)

    @field_validator("port")
    @classmethod
    def _port(cls, v: int) -> int:
        if not 0 <= v <= 65535:
            raise ConfigError(
                "web_config.port",
                v=v,
            )
        return v
