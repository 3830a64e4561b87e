"""The phones' server: Starlette on uvicorn, on a thread of its own beside the table's loop.

It shares the table through the paths everything else uses: seat presses go on the table's
button queue as a source's would (``WebSource``), standings are read from the journal
(``Feed``), and a scorer's entry is handed to the table's loop, which journals it as if it came
from the screen. Every page and script is served from the package: the table may have no
internet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.display.app_actions import Noop, WebRevoke
from companion.display.theme import seat_color
from companion.hardware.web_config import WebConfig
from companion.inputs.base import InputEvent, Promise, SourceStatus
from companion.text import Text
from companion.web.assets import STATIC, fonts, theme_css
from companion.web.feed import Feed
from companion.web.guard import MAX_HEAD, MAX_OPEN_PER_ADDRESS, Hardened, guarded, same_origin
from companion.web.pad import BOUND_FLOOR_NS, MAX_PRESS_AGE_NS, PING_EVERY_NS, Bucket, PadSession
from companion.web.pairing import Grant, Pairings
from companion.web.refusal import refused, refused_json

log = logging.getLogger("companion.web")
SYNC_EVERY = 8  # pings between two "sync" figures sent to the pad
# The journal wakes the feed at each commit (``watch``); this slow look is only a safety net (a
# game resumed without a commit, a journal not watched). Idle, the server sleeps: a wake-up
# costs the table's process about 0.05 % of a core on a Pi 4 (bench/web.py, idle_cpu).
POLL_S = 2.0
SWITCH_S = 0.001
REFUSALS_BURST = 20  # unknown tokens an address may try at once...
REFUSALS_PER_S = 1.0  # ...and then one a second
MAX_ADDRESSES = 4096  # addresses remembered (the oldest forgotten first)
# What a decision waits for the phones beyond the slowest pad's bound (``pads_lateness_ns``):
# the loop's looks and the forwarding of the phones' promise, on a busy machine.
QUIET_SLACK_NS = 50_000_000
ASK_GAP_NS = 5_000_000  # between two questions to a pad that fell short (``_follow``)
TICK_S = 1.0  # uvicorn's own housekeeping look (its default is ten a second)
# A viewer's stream says something this often when nothing changes, so that a proxy or a phone's
# browser does not take the quiet connection for a dead one.
KEEPALIVE_S = 15.0
# How long a scorer's entry waits for the table's loop to journal it before the phone is told
# the table did not answer (the loop looks at its queue every frame: far less, unless it hangs).
WRITE_WAIT_S = 5.0
# What a viewer's queue holds when the server stops (a page is a JSON object, never empty)...
_END = ""
# ...and when the game changed: the stream looks whether its code is still the game's.
_LOOK = "?"


class _Server(uvicorn.Server):
    """uvicorn's server, looking at its exit flag once a second rather than ten times (idle CPU),
    and at once when ``wake`` is called (``stop``)."""

    _wake: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    on_shutdown: Callable[[], None] | None = None  # called once listening stops, on its loop

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        while not await self.on_tick(0):  # 0: its once-a-second headers refresh, every look
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK_S)

    async def shutdown(self, sockets: Any = None) -> None:
        # Then uvicorn closes the listeners without an await between: no new viewer comes after
        # this call (one whose request was already being read still waits out its stream).
        if self.on_shutdown is not None:
            self.on_shutdown()
        await super().shutdown(sockets)

    def wake(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)


def seat_hex(seat: int) -> str:
    """A seat's colour on the table's screen, as CSS writes it."""
    r, g, b = seat_color(seat)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


class WebServer:
    """The server and what it knows: the pairings, the pads connected, the viewers listening."""

    http = "auto"  # "h11": uvicorn's pure-Python parser even where httptools is installed (tests)

    def __init__(
        self,
        config: WebConfig,
        data_dir: Path,
        *,
        current_game: Callable[[], str | None] = lambda: None,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.config = config
        self.feed = Feed(data_dir, seat_hex)
        self.current_game = current_game
        self.now_ns = now_ns
        self.pairings = Pairings(data_dir)
        self._events: queue.Queue[Any] | None = None  # the table's button queue, while attached
        self.pads: dict[int, PadSession] = {}  # seat -> the connected pad of the current game
        self._pad_ws: dict[int, WebSocket] = {}
        self._viewers: set[asyncio.Queue[str]] = set()
        self._changed: asyncio.Event | None = None  # set by a commit (``poke``)
        # Unknown tokens per address: a phone with a stale code or a typo has plenty; an
        # address that spends its REFUSALS_BURST is cut at the connection until it earns one back
        # (``shut_out``), before a byte is parsed: a flood costs the table an accept and a close.
        self._refusals: dict[str, Bucket] = {}
        self.refused = 0
        self.cut = 0  # connections closed at once, their address shut out
        self.too_large = 0  # heads over MAX_HEAD
        self.timed_out = 0  # heads not finished within HEAD_TIMEOUT_S
        self._open: dict[str, int] = {}  # address -> its connections not yet a pad's socket
        self.loop: asyncio.AbstractEventLoop | None = None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.port = config.port
        self.base_url = f"http://127.0.0.1:{config.port}"
        # Event time: the instants decisions wait on (target, asked at), both on the table clock;
        # the list is replaced whole, never changed in place (two threads read it).
        self._asks: list[tuple[int, int]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        # The scorer's clock questions (``score_clock``): id -> (token, table clock as answered).
        self._scorer_pings: dict[int, tuple[str, int]] = {}
        self._scorer_ping_id = 0
        self.app = self._build_app()

    # --- the table's side (called from the table's thread) ---------------------------------------

    def attach(self, events: queue.Queue[Any]) -> None:
        """Presses of paired pads go to ``events`` from now on (the web source's ``start``)."""
        self._events = events

    def detach(self, events: queue.Queue[Any]) -> None:
        if self._events is events:
            self._events = None

    def watch(self, journal: Any) -> None:
        """Be told of each commit to ``journal`` (the table's writer) instead of asking."""
        journal.on_commit = self.poke

    def poke(self) -> None:
        """Something was journaled: wake the feed (from any thread; never raises)."""
        loop, changed = self.loop, self._changed
        if loop is not None and changed is not None:
            with contextlib.suppress(RuntimeError):  # the server is stopping: nothing to wake
                loop.call_soon_threadsafe(changed.set)

    def pairing(self) -> Any:
        """The current game's tokens, or None before a game is journaled."""
        game_id = self.current_game()
        if game_id is None:
            return None
        page = self.feed.page
        if page is None or page.get("game_id") != game_id:
            return self.pairings.get(game_id)
        return self.pairings.for_game(game_id, len(page["players"]))

    def urls(self) -> dict[str, str]:
        """The current game's addresses: "join" for everyone, "seat N" (1-based), "scorer"."""
        g = self.pairing()
        if g is None:
            return {}
        out = {"join": f"{self.base_url}/t/{g.join}", "scorer": f"{self.base_url}/score/{g.scorer}"}
        for i, tok in enumerate(g.seats):
            out[f"seat {i + 1}"] = f"{self.base_url}/pad/{tok}"
        return out

    def codes(self) -> list[tuple[Text, str, WebRevoke | Noop]]:
        """The table screen's codes: (label, address, action on a tap). Tapping a seat's or the
        scorer's code draws a new one: the phone holding the old is cut off (a lost or lent
        phone). A paired seat's label says its pad's resolution in tenths of a millisecond,
        rounded up (never flattering)."""
        urls = self.urls()
        if not urls:
            return []
        out: list[tuple[Text, str, WebRevoke | Noop]] = [(Text("scr.web.join"), urls["join"], Noop())]
        pads = self.pads
        for key, url in urls.items():
            if key.startswith("seat "):
                n = int(key[5:])
                pad = pads.get(n - 1)  # the server's thread may drop it meanwhile
                res = pad.resolution_ns() if pad is not None else None
                if res is None:
                    label = Text("scr.web.seat", seat=n)
                else:
                    label = Text("scr.web.seat_res", seat=n, ms=-(-res // 100_000) / 10)
                out.append((label, url, WebRevoke(str(n - 1))))
        out.append((Text("scr.web.scorer"), urls["scorer"], WebRevoke("scorer")))
        return out

    def revoke(self, what: str) -> None:
        """A new code for a seat ("0"...) or the scorer: the phone holding the old is cut off."""
        g = self.pairing()
        if g is None:
            return
        if what == "scorer":
            self.pairings.revoke_scorer(g.game_id)
        else:
            self.pairings.revoke_seat(g.game_id, int(what))

    def status(self) -> list[tuple[int, int | None, int | None]]:
        """(seat, resolution µs, round trip µs) of every pad connected: the status screen's."""
        out = []
        for seat, pad in sorted(self.pads.items()):
            res = pad.resolution_ns()
            rtt = pad.clock.min_rtt_ns
            out.append((seat, None if res is None else -(-res // 1000), None if rtt is None else rtt // 1000))
        return out

    # --- event time (docs/phones.md, "Waiting for the phones") -------------------------------

    def pads_promise(self) -> Promise:
        """The phones' watermark (``WebSource.promise``; from the table's thread, never blocks).

        The least of the live pads' own (``PadSession.holds_ns``), and never past now. A pad
        that was asked for an instant and has not passed it within its bound, or that has said
        nothing for a ping period and its bound, is quiet: left out of it, its seat in
        ``without``. ``seats``, the seats named if the table gives up on the phones now: while
        the watermark is short of the latest instant asked, the pads holding it back (theirs
        are the presses that would not count); else every paired pad's. Every pad quiet: not
        live, all of them named."""
        now = self.now_ns()
        asks = self._asks
        marks: dict[int, int] = {}
        quiet: list[int] = []
        for seat, pad in list(self.pads.items()):
            mark = pad.holds_ns()
            bound = pad.bound_ns
            if now - pad.heard_ns > PING_EVERY_NS + bound or any(
                t > mark and now - at > bound for t, at in asks
            ):
                quiet.append(seat)
            else:
                marks[seat] = mark
        watermark = min([now, *marks.values()])
        if not marks and quiet:
            return Promise("web", watermark, live=False, seats=tuple(sorted(quiet)))
        target = max((t for t, _ in asks), default=None)
        behind = [seat for seat, mark in marks.items() if target is not None and mark < target]
        seats = behind if target is not None and watermark < target else list(marks)
        return Promise("web", watermark, True, tuple(sorted({*seats, *quiet})), without=tuple(sorted(quiet)))

    @property
    def pads_lateness_ns(self) -> int:
        """The longest a decision waits for the phones: the largest of the pads' bounds, and
        QUIET_SLACK_NS more, so a pad past its bound is left out and named by the phones'
        promise itself before the loop gives up on the phones as a whole."""
        bound = max((pad.bound_ns for pad in list(self.pads.values())), default=BOUND_FLOOR_NS)
        return bound + QUIET_SLACK_NS

    def ask_pads(self, t_ns: int) -> None:
        """A decision made at ``t_ns`` waits: every pad behind it is pinged now (from any
        thread, never blocks), and again until it passes (``_follow``)."""
        now = self.now_ns()
        horizon = now - MAX_PRESS_AGE_NS  # older questions: a press that old is refused anyway
        self._asks = [a for a in self._asks if a[1] > horizon] + [(t_ns, now)]
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the server is stopping
                loop.call_soon_threadsafe(self._chase)

    def _wanted(self, session: PadSession) -> int | None:
        """The latest instant asked for that this pad has not passed yet."""
        mark = session.holds_ns()
        horizon = self.now_ns() - MAX_PRESS_AGE_NS
        return max((t for t, at in self._asks if t > mark and at > horizon), default=None)

    def _chase(self) -> None:
        for session in list(self.pads.values()):
            self._ask_pad(session)

    def _ask_pad(self, session: PadSession, *, timed: bool = False) -> None:
        """A ping out of the beat; its pong carries the phone's clock, so it is the fresh stamp
        asked for, behind anything the phone sent before it. Asked at once (that answer flushes
        what the phone sent before it), and, when that answer cannot pass the instant (the
        allowances are below it), once more at the moment a ping will reach the phone after
        the instant plus those allowances (``_plan``). One at a time per pad, unless the last
        went unanswered for the pad's bound."""
        target = self._wanted(session)
        if target is None:
            return
        now = self.now_ns()
        if timed or session.ask_id is None or now - session.ask_at >= session.bound_ns:
            ws = self._pad_ws.get(session.seat)
            if ws is None or self.pads.get(session.seat) is not session:
                return
            text = session.ping()
            session.ask_id, session.ask_at = session.last_ping_id, now
            task = asyncio.get_running_loop().create_task(self._send(ws, text))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._plan(session, target, now, soonest_ns=0)

    def _plan(self, session: PadSession, target: int, now: int, *, soonest_ns: int) -> None:
        """Ask again when a ping sent then would be read by the phone after ``target`` plus
        twice its uncertainty and its input allowance (the pad's ``mark`` of that answer), its
        way out taken as half the pad's best round trip; never sooner than ``soonest_ns``."""
        if session.ask_timer:
            return
        half = (session.clock.min_rtt_ns or 0) // 2
        unc = session.resolution_ns() or 0
        wait = max(soonest_ns, target + 2 * unc + session.lag_ns - half - now)
        if wait <= 0:
            return
        session.ask_timer = True

        def again() -> None:
            session.ask_timer = False
            self._ask_pad(session, timed=True)

        asyncio.get_running_loop().call_later(min(wait, MAX_PRESS_AGE_NS) / 1e9, again)

    @staticmethod
    async def _send(ws: WebSocket, text: str) -> None:
        with contextlib.suppress(Exception):  # a closed socket: its pad is gone, said elsewhere
            await ws.send_text(text)

    def _follow(self, session: PadSession) -> None:
        """After a pad's message moved its watermark: once the ping it was asked with is
        answered and it is still short (the mapping moved, a slow way out), it is asked again
        as planned, and never sooner than ASK_GAP_NS (a pad's messages are rate-limited)."""
        if session.ask_id is None or session.pong_id < session.ask_id:
            return
        session.ask_id = None
        target = self._wanted(session)
        if target is not None:
            self._plan(session, target, self.now_ns(), soonest_ns=ASK_GAP_NS)

    def _put(self, item: InputEvent | SourceStatus) -> None:
        events = self._events
        if events is not None:
            events.put(item)

    # --- the pages ---------------------------------------------------------------------------

    def _build_app(self) -> Starlette:
        from companion.web.evening_route import evening_handler

        routes = [
            Route("/", self.home),
            Route("/t/{code}", self.standings_page),
            Route("/t/{code}/events", self.standings_events),
            Route("/t/{code}/now", self.standings_now),
            Route("/t/{code}/evening", evening_handler(self)),  # the evening tab: the night on the phones
            Route("/pad/{token}", self.pad_page),
            WebSocketRoute("/pad/{token}/ws", self.pad_socket),
            Route("/score/{token}", self.score_page),
            Route("/score/{token}/page", self.score_state),
            Route("/score/{token}/clock", self.score_clock, methods=["POST"]),
            Route("/score/{token}/submit", self.score_submit, methods=["POST"]),
            Route("/static/theme.css", self.theme_css),
            Route("/font/{name}", self.font),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        app = Starlette(routes=routes, lifespan=self._lifespan)
        return app

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        task = asyncio.create_task(self._watch_journal())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self.feed.close()

    async def _watch_journal(self) -> None:
        seen: str | None = None
        while True:
            game = self.current_game()
            try:
                page = self.feed.poll(game)
            except Exception:  # a journal hiccup must not end the feed; said in the log
                log.exception("reading the journal for the phones")
                page = None
            if game != seen:
                seen = game
                self._game_changed(game)
            if page is not None:
                self.pairings.for_game(page["game_id"], len(page["players"]))
                text = json.dumps(page, ensure_ascii=False)
                for q in list(self._viewers):
                    if q.full():
                        with contextlib.suppress(asyncio.QueueEmpty):
                            q.get_nowait()  # a slow phone skips to the newest state
                    q.put_nowait(text)
            assert self._changed is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), POLL_S)
            self._changed.clear()

    def _game_changed(self, game: str | None) -> None:
        """A new game (its first commit woke the feed): the last game's viewers and pads are let
        go now, not at their next keep-alive or ping; a press of the old game that arrives
        meanwhile is refused by its socket's own look (``pad_socket``)."""
        for q in list(self._viewers):
            if q.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    q.get_nowait()
            q.put_nowait(_LOOK)
        for seat, session in list(self.pads.items()):
            ws = self._pad_ws.get(seat)
            if session.grant.game_id != game and ws is not None:
                task = asyncio.get_running_loop().create_task(self._close(ws, 4401))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _close(ws: WebSocket, code: int) -> None:
        with contextlib.suppress(Exception):  # already closed: nothing left to let go
            await ws.close(code=code)

    def _grant(self, request: Request | WebSocket, token: str) -> Grant | None:
        grant = self.pairings.grant(token, self.current_game())
        if grant is None:
            self._refusal(request.client.host if request.client is not None else "")
        return grant

    def _refusal(self, host: str) -> None:
        self.refused += 1
        bucket = self._refusals.pop(host, None)  # re-inserted: the dict stays in age order
        if bucket is None:
            if len(self._refusals) >= MAX_ADDRESSES:
                del self._refusals[next(iter(self._refusals))]
            bucket = Bucket(REFUSALS_PER_S, REFUSALS_BURST, self.now_ns())
        bucket.take(self.now_ns())
        self._refusals[host] = bucket

    def refuse_upgrade(self, path: str, host: str) -> bool:
        """Whether a WebSocket handshake on ``path`` is refused before it is upgraded: no pad
        of this game holds the token (the socket's own checks follow for the rest)."""
        parts = path.split("/")
        if len(parts) == 4 and parts[1] == "pad" and parts[3] == "ws":
            grant = self.pairings.grant(parts[2], self.current_game())
            if grant is not None and grant.role == "seat":
                return False
        self._refusal(host)
        return True

    def shut_out(self, host: str) -> bool:
        """Whether ``host`` spent its refusals: its new connections are closed unread."""
        bucket = self._refusals.get(host)
        if bucket is None:
            return False
        now = self.now_ns()
        if bucket.level + (now - bucket.at) * bucket.rate / 1e9 >= 1:
            return False
        self.cut += 1
        return True

    def opened(self, host: str) -> bool:
        """A connection from ``host`` is made: whether it may stay (MAX_OPEN_PER_ADDRESS)."""
        n = self._open.get(host, 0)
        if n >= MAX_OPEN_PER_ADDRESS:
            self.cut += 1
            return False
        self._open[host] = n + 1
        return True

    def closed(self, host: str) -> None:
        n = self._open.get(host, 0) - 1
        if n > 0:
            self._open[host] = n
        else:
            self._open.pop(host, None)

    async def theme_css(self, request: Request) -> Response:
        """The table's colour roles and typeface for the pages (``theme_css``)."""
        return Response(theme_css(), media_type="text/css")

    async def font(self, request: Request) -> Response:
        """Atkinson Hyperlegible from the installed font package, by its file's exact name only."""
        path = fonts().get(request.path_params["name"])
        if path is None:
            return refused(404, "web.refused.font")
        return FileResponse(path, media_type="font/ttf")

    async def home(self, request: Request) -> Response:
        return FileResponse(STATIC / "home.html")

    async def standings_page(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["code"])
        if grant is None or grant.role != "viewer":
            return refused(404, "web.refused.join_code")
        return FileResponse(STATIC / "standings.html")

    async def standings_now(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["code"])
        if grant is None or grant.role != "viewer":
            return refused(404, "web.refused.join_code")
        return JSONResponse(self.feed.page)

    async def standings_events(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["code"])
        if grant is None or grant.role != "viewer":
            return refused(404, "web.refused.join_code")
        if len(self._viewers) >= self.config.max_viewers:
            return refused(503, "web.refused.viewers", count=len(self._viewers))
        from starlette.responses import StreamingResponse

        q: asyncio.Queue[str] = asyncio.Queue(maxsize=2)
        if self.feed.page is not None:
            q.put_nowait(json.dumps(self.feed.page, ensure_ascii=False))
        self._viewers.add(q)

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    try:
                        text = await asyncio.wait_for(q.get(), timeout=KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if (
                        text == _END
                        or grant.game_id != self.current_game()
                        or not self.pairings.still_valid(grant, request.path_params["code"])
                    ):
                        return  # a new game: the last game's code follows nothing more
                    if text == _LOOK:
                        continue
                    yield f"data: {text}\n\n"
            finally:
                self._viewers.discard(q)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def pad_page(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["token"])
        if grant is None or grant.role != "seat":
            return refused(404, "web.refused.seat_code")
        return FileResponse(STATIC / "pad.html")

    async def score_page(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["token"])
        if grant is None or grant.role != "scorer":
            return refused(404, "web.refused.scorer_code")
        return FileResponse(STATIC / "score.html")

    async def score_state(self, request: Request) -> Response:
        grant = self._grant(request, request.path_params["token"])
        if grant is None or grant.role != "scorer":
            return refused(404, "web.refused.scorer_code")
        return JSONResponse(self.feed.page)

    async def score_clock(self, request: Request) -> Response:
        """The scorer page's clock question, asked as it sends an entry: answered with a number
        and stamped on the table clock as the answer leaves; the entry then names the number
        and the page's clock as it read the answer (``scorer.stamp_of``)."""
        token = request.path_params["token"]
        grant = self._grant(request, token)
        if grant is None or grant.role != "scorer":
            return refused(403, "web.refused.scorer_code")
        if not same_origin(request.headers):
            return refused(403, "web.refused.clock_origin")
        self._scorer_ping_id += 1
        ident = self._scorer_ping_id
        while len(self._scorer_pings) >= 8:  # a page asks one at a time; older ones are dropped
            del self._scorer_pings[next(iter(self._scorer_pings))]
        response = JSONResponse({"id": ident})
        self._scorer_pings[ident] = (token, self.now_ns())  # before it leaves: the bracket holds
        return response

    async def score_submit(self, request: Request) -> Response:
        arrived = self.now_ns()
        token = request.path_params["token"]
        grant = self._grant(request, token)
        if grant is None or grant.role != "scorer":
            return refused_json(403, "web.refused.scorer_code")
        if not same_origin(request.headers):
            return refused_json(403, "web.refused.entry_origin")
        body = b""
        limit = self.config.max_message * 8
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return refused_json(413, "web.refused.entry_too_long", limit=float(limit))
        from companion.errors import CompanionError
        from companion.web.scorer import WebWrite, parse_entry, stamp_of

        try:
            event = parse_entry(body, self.feed.page)
        except CompanionError as err:  # each of its refusals is a sentence of the catalogue
            return JSONResponse({"fr": err.fr, "en": err.en}, status_code=400)
        if self._events is None:
            return refused_json(409, "web.refused.not_playing")
        asked = self._sync_of(body, token)
        t_ns, res_ns = stamp_of(body, asked, arrived)
        write = WebWrite(grant.game_id, event, t_ns, res_ns)
        self._put(write)  # type: ignore[arg-type]
        ok, fr, en = await asyncio.get_running_loop().run_in_executor(None, write.wait, WRITE_WAIT_S)
        return JSONResponse({"ok": ok, "fr": fr, "en": en}, status_code=200 if ok else 409)

    def _sync_of(self, body: bytes, token: str) -> tuple[int, int] | None:
        """The clock question an entry names, once (a replayed one would fake a short trip)."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None
        sync = data.get("sync") if isinstance(data, dict) else None
        ident = sync.get("id") if isinstance(sync, dict) else None
        if not isinstance(ident, int) or isinstance(ident, bool):
            return None
        asked = self._scorer_pings.pop(ident, None)
        if asked is None or asked[0] != token:
            return None
        return ident, asked[1]

    # --- a seat's pad ------------------------------------------------------------------------

    async def pad_socket(self, ws: WebSocket) -> None:
        token = ws.path_params["token"]
        grant = self._grant(ws, token)
        if grant is None or grant.role != "seat" or not same_origin(ws.headers):
            await ws.close(code=4403)
            return
        pairing = self.pairings.get(grant.game_id)
        assert pairing is not None
        await ws.accept()
        session = PadSession(grant, pairing, self.now_ns)
        await self._seat_pad(ws, session)
        pinger = asyncio.create_task(self._ping(ws, session, token))
        try:
            await self._pad_messages(ws, session)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            pinger.cancel()
            self._pad_left(session)

    async def _seat_pad(self, ws: WebSocket, session: PadSession) -> None:
        """The pad becomes its seat's (the newest wins), is told which, and the table too."""
        grant = session.grant
        seat = grant.seat
        old = self._pad_ws.get(seat)
        self.pads[seat] = session
        self._pad_ws[seat] = ws
        if old is not None:  # the same phone reconnecting, or a second one: the newest wins
            with contextlib.suppress(Exception):
                await old.close(code=4409)
        await ws.send_text(
            json.dumps(
                {
                    "t": "seat",
                    "seat": seat,
                    "g": grant.game_id,
                    "players": (self.feed.page or {}).get("players", []),
                    "color": seat_hex(seat),
                },
                ensure_ascii=False,
            )
        )
        said = Text("scr.web.paired", seat=seat + 1)
        self._put(SourceStatus("web", "connected", seat, said.en, said.fr))

    async def _pad_messages(self, ws: WebSocket, session: PadSession) -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if session.grant.game_id != self.current_game():
                # Looked at on every message, not at the next ping: a press of the last game
                # made just after the new one began is refused, never journaled in it.
                await ws.close(code=4401)
                return
            text = message.get("text")
            outcome = session.receive(text if text is not None else message.get("bytes") or b"")
            if outcome.press is not None:
                self._put(outcome.press)
            # Only now: the promise covers a press once it is on the table's queue.
            session.publish(outcome.mark_ns)
            if outcome.mark_ns is not None:
                self._follow(session)
            if outcome.answer is not None:
                await ws.send_text(outcome.answer)
            if outcome.close:
                await ws.close(code=4400)
                return

    def _pad_left(self, session: PadSession) -> None:
        seat = session.grant.seat
        if self.pads.get(seat) is session:
            del self.pads[seat]
            del self._pad_ws[seat]
            said = Text("scr.web.left", seat=seat + 1)
            self._put(SourceStatus("web", "info", seat, said.en, said.fr))

    async def _ping(self, ws: WebSocket, session: PadSession, token: str) -> None:
        n = 0
        with contextlib.suppress(Exception):
            while True:
                if (
                    not self.pairings.still_valid(session.grant, token)
                    or session.grant.game_id != self.current_game()
                ):
                    await ws.close(code=4401)  # revoked from the table, or the game changed
                    return
                await ws.send_text(session.ping())
                n += 1
                if n % SYNC_EVERY == 0:
                    await ws.send_text(session.sync_text())
                # On one beat for every pad: the loop wakes once for all of them, not once per
                # pad (idle CPU with ten pads, bench/web.py idle_cpu).
                period = PING_EVERY_NS / 1e9
                await asyncio.sleep(period - asyncio.get_running_loop().time() % period)

    # --- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Listen, on a daemon thread; returns once the socket is bound (or raises)."""
        guard = Hardened(self.app, self.config.max_message * 8, self.config.public_host, self.shut_out)

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await guard(scope, receive, send)

        config = uvicorn.Config(
            # A plain function, not the instance: uvicorn calls the app once with no arguments
            # to find out whether it is a factory, and a wrapped ``__call__`` (a profiler's, a
            # mutation tool's) that takes any arguments would be taken for one.
            app,
            interface="asgi3",
            host=self.config.bind,
            port=self.config.port,
            http=guarded(self),
            log_level="warning",
            # No line per request: a flood would be a flood of log lines on the table's thread.
            access_log=False,
            # Phones talk to the table directly; no proxy's X-Forwarded-For is to be believed.
            proxy_headers=False,
            lifespan="on",
            ws_max_size=self.config.max_message,
            ws_ping_interval=None,
            # No cap of uvicorn's on connections: it counted strangers' half-open sockets with
            # the paired phones' and answered everyone 503. The viewers have their
            # own cap (max_viewers), an address its own (MAX_OPEN_PER_ADDRESS), a head its
            # size and time (``guarded``).
            limit_concurrency=None,
            timeout_keep_alive=5,
            h11_max_incomplete_event_size=MAX_HEAD,
            server_header=False,
            date_header=False,
        )
        _network_allowed(self.config.bind)
        server = _Server(config)
        server.on_shutdown = self._end_viewers
        # The server's thread shares the interpreter with the table's loop: a flood of requests
        # keeps it busy, and the loop would wait up to the default 5 ms switch interval for each
        # turn. 1 ms keeps the table's frame and button reads on time (bench/web.py, strangers).
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_S))
        self._server = server
        self._thread = threading.Thread(target=server.run, name="web", daemon=True)
        self._thread.start()
        while not server.started:
            if not self._thread.is_alive():
                from companion.errors import HardwareError

                raise HardwareError(
                    "web.server.start",
                    address=f"{self.config.bind}:{self.config.port}",
                )
            time.sleep(0.01)
        for s in server.servers:
            for sock in s.sockets:
                self.port = sock.getsockname()[1]

    def _end_viewers(self) -> None:
        """The server stops: every viewer's stream ends now (its page reconnects to the next
        server), rather than at its next keep-alive, up to 15 s later: uvicorn's shutdown waits
        for the streams, and stop() gave up after 5 s with the server's thread still running."""
        for q in list(self._viewers):
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    q.get_nowait()
            q.put_nowait(_END)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._server.wake()
        if self._thread is not None:
            self._thread.join(5)


def _network_allowed(bind: str) -> None:
    """Raise the kiosk's sentence when this process may not open an IP socket at all: its
    sandbox was not opened for [web] (hardware/companion-web-generator runs at boot and at
    ``daemon-reload``; a restart alone does not run it)."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    try:
        socket.socket(family, socket.SOCK_STREAM).close()
    except OSError as exc:
        if exc.errno not in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES):
            raise
        from companion.errors import HardwareError

        raise HardwareError(
            "web.server.network_allowed",
        ) from None


def open_web(config: Any, data_dir: Path) -> WebServer:
    """The server for ``companion play --web``, not listening yet."""
    web = config.web if config is not None else WebConfig()
    return WebServer(web, data_dir)


def lan_address() -> str:
    """This machine's address on the room's network (the route a phone would take back)."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent, the kernel picks the route
        return str(s.getsockname()[0])
    return "127.0.0.1"


def serve_table(web: WebServer, app: Any) -> None:
    """Follow ``app``'s game and listen; a server that cannot listen is said on the table's
    screen (the game goes on with its other buttons)."""
    from companion.errors import CompanionError

    web.current_game = lambda: app.table.game_id if app.table is not None else None
    if app.journal is not None:
        web.watch(app.journal)
    try:
        web.start()
    except CompanionError as err:
        app.ui.say(err.text)
        app.ui.hardware.notes.append(err.text)
        log.error("%s", err.en)
        return
    host = web.config.public_host or lan_address()
    web.base_url = f"http://{host}:{web.port}"
    note = Text("scr.web.url", url=web.base_url)
    app.ui.hardware.notes.append(note)
    app.ui.hardware.web = web  # the status screen shows its codes
    print(note.en, file=sys.stderr, flush=True)
