"""The phones as a button source: what the registry builds for ``web``.

The server outlives games; this source only connects it to the queue of the game being played,
so the table's loop sees a phone's press exactly as a wired button's: an ``InputEvent`` on the
table's clock, with its own resolution.

It is ``Promising`` (docs/decisions.md, "Event time"; docs/phones.md, "Waiting for the
phones"): its watermark is the least of the live pads' (``WebServer.pads_promise``), ``ask`` pings
every pad behind the instant at once, and ``lateness_ns`` is the largest of the pads' bounds.
A pad gone quiet is left out of the watermark and its seat is in ``Promise.without`` (``live``
stays True while another pad answers; False when every connected pad is quiet, all named in
``seats``).
"""

from __future__ import annotations

import queue
from typing import Any

from companion.errors import ConfigError
from companion.inputs.base import Clock, Promise, QueueItem


class WebSource:
    name = "web"
    # Phones' presses are mapped onto CLOCK_MONOTONIC by the server; each carries its resolution.
    clock = Clock("CLOCK_MONOTONIC", 1000)

    def __init__(self, server: Any) -> None:
        if server is None:
            raise ConfigError(
                "web.init",
            )
        self.server = server
        self._events: queue.Queue[QueueItem] | None = None

    def start(self, events: queue.Queue[QueueItem]) -> None:
        self._events = events
        self.server.attach(events)

    def stop(self) -> None:
        if self._events is not None:
            self.server.detach(self._events)
            self._events = None

    # --- Promising ---------------------------------------------------------------------------

    def promise(self) -> Promise:
        return self.server.pads_promise()  # type: ignore[no-any-return]

    def ask(self, t_ns: int) -> None:
        self.server.ask_pads(t_ns)

    @property
    def lateness_ns(self) -> int:
        return self.server.pads_lateness_ns  # type: ignore[no-any-return]
