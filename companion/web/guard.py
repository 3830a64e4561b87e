"""What stands between the room's network and the phones' pages: security headers and the body's
cap on every answer (``Hardened``), requests that name the table (``table_host``, against DNS
rebinding), and uvicorn's HTTP protocol cut down at the connection for an address shut out, a
head too large or too slow (``guarded``; docs/phones.md, "Security")."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Limits on what a connection may hold before it is anyone's (docs/phones.md, "Security"):
# enforced in ``guarded``'s protocol, whichever of uvicorn's parsers runs.
MAX_HEAD = 16 * 1024  # bytes of a request's head (an honest phone's is under 2 KB)
HEAD_TIMEOUT_S = 10.0  # to send a whole head, from the connection or the last answer
MAX_OPEN_PER_ADDRESS = 64  # connections of one address not yet a pad's socket
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # Tokens are in the pages' addresses: never hand them to another site.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class Hardened:
    """Security headers on every answer; a body larger than the cap refused before it is read."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        public_host: str | None = None,
        shut_out: Callable[[str], bool] | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.public_host = public_host
        self.shut_out = shut_out

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if self.shut_out is not None and client and scope["type"] == "http" and self.shut_out(str(client[0])):
            # An address that spent its refusals, on a connection kept alive or pipelined (its
            # head read before the last answer was out): told once, and the connection closed.
            await PlainTextResponse(
                "Trop de codes inconnus\u202f: réessayez dans une seconde. "
                "Too many unknown codes: try again in a second.",
                status_code=429,
                headers={"connection": "close"},
            )(scope, receive, send)
            return
        if scope["type"] in ("http", "websocket") and not table_host(scope, self.public_host):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4403})  # its handshake: a 403
            else:
                await plain(
                    421,
                    "Adresse inconnue de la table\u202f: ouvrez le code de son écran. "
                    "Not the table's address: open the code on its screen.",
                )(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await plain(413, "Requête trop grande. Request too large.")(scope, receive, send)
                return

        async def send_hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *HEADERS]
            await send(message)

        await self.app(scope, receive, send_hardened)


def plain(status: int, text: str) -> Response:
    return PlainTextResponse(text, status_code=status)


def same_origin(headers: Any) -> bool:
    """A write or a WebSocket only from the table's own pages: the Origin names this host."""
    origin = headers.get("origin")
    host = headers.get("host")
    if not origin or not host:
        return False
    return origin in (f"http://{host}", f"https://{host}")


def table_host(scope: Scope, public_host: str | None) -> bool:
    """Whether a request's Host names the table: an IP address (a phone follows a code, which
    holds one), ``localhost``, or the configured ``public_host``. A name that is none of these
    is how a DNS rebinding reaches the table: a page of evil.example whose name now points here
    sends its own Host, and an Origin that matches it (``same_origin`` alone lets it through)."""
    import ipaddress

    host = ""
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host = value.decode("latin-1").strip().lower()
            break
    if not host:
        return False
    name = host[1 : host.find("]")] if host.startswith("[") else host.rsplit(":", 1)[0]
    if name == "localhost" or (public_host is not None and name == public_host.lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


REFUSED_UPGRADE = b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
)


class Gate(Protocol):
    """What the guard asks of the server: its parser, its counts, its addresses' places."""

    http: str
    timed_out: int
    too_large: int

    def shut_out(self, host: str) -> bool: ...
    def opened(self, host: str) -> bool: ...
    def closed(self, host: str) -> None: ...
    def refuse_upgrade(self, path: str, host: str) -> bool: ...


if TYPE_CHECKING:
    _Uvicorn = Any
else:
    _Uvicorn = object


class _Guard(_Uvicorn):  # type: ignore[misc]
    """The guard's half of ``guarded``'s protocol, before uvicorn's in its bases."""

    _web: Gate
    _cut = False
    _host = ""  # the peer's address, counted in the server's ``_open`` while this protocol holds it
    _head = 0  # bytes of the current request's head read so far
    _timer: asyncio.TimerHandle | None = None
    _armed_for: object = None  # the request cycle the head timer was armed in

    def connection_made(self, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) else ""
        if host and (self._web.shut_out(host) or not self._web.opened(host)):
            self._cut = True
            transport.abort()  # a reset: no TIME_WAIT kept on the table's side
            return
        self._host = host
        super().connection_made(transport)
        self._arm()

    def _head_pending(self) -> bool:
        # uvicorn's cycle is made once a request's head is parsed, and done once answered:
        # between the two, bytes are a body (capped elsewhere); else they are a head.
        cycle = getattr(self, "cycle", None)
        return cycle is None or bool(cycle.response_complete)

    def _arm(self) -> None:
        self._armed_for = getattr(self, "cycle", None)
        self._timer = asyncio.get_running_loop().call_later(HEAD_TIMEOUT_S, self._head_due)

    def _head_due(self) -> None:
        """A head still unfinished in the same cycle HEAD_TIMEOUT_S after the last look:
        closed (a half-open connection holds a socket and an address's place for nothing).
        Re-armed otherwise, until the connection is gone or upgraded to a WebSocket."""
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return
        if self._head_pending() and getattr(self, "cycle", None) is self._armed_for:
            self._web.timed_out += 1
            transport.abort()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._cut:
            return
        if self._head_pending():
            # A new request on a kept-alive connection meets the per-address limit too.
            if self._host and self._web.shut_out(self._host):
                self._cut_now()
                return
            # Only the head: a body read in the same chunk is capped elsewhere (413).
            end = data.find(b"\r\n\r\n")
            self._head += len(data) if end < 0 else end + 4
            if self._head > MAX_HEAD:
                # httptools has no limit of its own; h11 has (h11_max_incomplete_event_size),
                # and both meet this one first: a head is never held past it.
                self._web.too_large += 1
                self.transport.write(HEAD_TOO_LARGE)
                self._cut_now()
                return
        super().data_received(data)
        if not self._head_pending():
            self._head = 0

    def _cut_now(self) -> None:
        self._cut = True
        if self._timer is not None:
            self._timer.cancel()
        # uvicorn's own bookkeeping of the connection, as its connection_lost would do.
        self.connections.discard(self)
        self._release()
        self.transport.close()

    def _release(self) -> None:
        if self._host:
            self._web.closed(self._host)
            self._host = ""

    def handle_websocket_upgrade(self, *args: Any) -> None:
        # A stranger's handshake answered here, in one write: no WebSocket protocol, no
        # task, no ASGI call (a refused upgrade cost twice a refused page). This name is
        # uvicorn's, not a public API: if a uvicorn release renames it, nothing is let in
        # (the ASGI app checks every token again), a refusal only costs what it did before;
        # tests/web/test_server.py's test_the_upgrade_override_still_meets_uvicorn notices the rename.
        client = getattr(self, "client", None)
        # The request's target: h11 hands its event, httptools kept it (the scope has no path
        # yet for an upgrade). Tokens are URL-safe: a percent-encoded one is no pad's.
        target = args[0].target if args else getattr(self, "url", b"")
        path = bytes(target).split(b"?", 1)[0].decode("ascii", "replace")
        if self._web.refuse_upgrade(path, str(client[0]) if client else ""):
            self.transport.write(REFUSED_UPGRADE)
            self.transport.close()
            return
        # A pad's socket from here: its place is a seat's, no longer a stranger's.
        self._release()
        super().handle_websocket_upgrade(*args)

    def eof_received(self) -> None:
        if not self._cut:
            super().eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if not self._cut:
            self._release()
            super().connection_lost(exc)


def guarded(web: Gate) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools' C parser when installed, else h11), closing a
    connection from a shut-out address as it is made: no parsing, no task, no answer."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    base: type[Any] = H11Protocol
    if web.http != "h11":
        with contextlib.suppress(ImportError):
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

            base = HttpToolsProtocol
    return type("Guarded", (_Guard, base), {"_web": web})
