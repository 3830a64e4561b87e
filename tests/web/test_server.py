"""The phones' server on loopback, with the real table loop: pads pair by token and their presses
land as that seat's presses; standings follow the journal; the scorer's entry is journaled by
the table; everything a stranger or another game sends is refused."""

from __future__ import annotations

import json
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pygame
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from companion.display.app import App
from companion.display.app_actions import Nav, WebPage, WebRevoke
from companion.display.state import Ui
from companion.games.kilo.actions import Continue, DrawCard, PickRank, PickSuit
from companion.games.kilo.events import Draw, NewKiloGame, Press
from companion.hardware.web_config import WebConfig
from companion.inputs.base import InputEvent
from companion.table.journal import Journal
from companion.table.live import Table
from companion.web.server import WebServer, serve_table
from tests.app_helpers import painter_of, table_of, until

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]
PHONE_OFFSET_MS = 123_456.789  # a phone's clock has nothing to do with the table's


class Pad:
    """A phone's button page, in Python: answers pings with its own clock, presses on demand."""

    def __init__(self, url: str, origin: str | None) -> None:
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seat: dict[str, Any] = {}
        self.syncs: list[dict[str, Any]] = []
        self.closed: int | None = None
        try:
            self.ws = connect(url, origin=origin, open_timeout=10)  # type: ignore[arg-type]
        except InvalidStatus as exc:  # refused before the socket opened
            self.closed = exc.response.status_code
            return
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def now_ms() -> float:
        return time.monotonic_ns() / 1e6 + PHONE_OFFSET_MS

    def _run(self) -> None:
        try:
            with self.ws:
                for text in self.ws:
                    self._got(json.loads(text))
        except ConnectionClosed as exc:
            self.closed = exc.rcvd.code if exc.rcvd is not None else 1006
        else:
            self.closed = self.ws.close_code or 1000

    def _got(self, m: dict[str, Any]) -> None:
        if m["t"] == "ping":
            self.ws.send(json.dumps({"t": "pong", "id": m["id"], "p": self.now_ms()}))
        elif m["t"] == "seat":
            self.seat = m
        elif m["t"] == "sync":
            self.syncs.append(m)
        else:
            self.messages.put(m)

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def answer(self, timeout: float = 10) -> dict[str, Any]:
        return self.messages.get(timeout=timeout)

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def table_app(journal: Journal, screen: pygame.Surface) -> Iterator[tuple[App, WebServer]]:
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=2), {"input": "keyboard"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    try:
        until(lambda: web.urls(), app)
        yield app, web
    finally:
        app.stop_source()
        web.stop()


def ws_url(web: WebServer, token: str) -> str:
    return f"ws://127.0.0.1:{web.port}/pad/{token}/ws"


def origin(web: WebServer) -> str:
    return f"http://127.0.0.1:{web.port}"


def journaled_presses(journal: Journal, game_id: str) -> list[Press]:
    return [e for _, e in journal.events(game_id) if isinstance(e, Press)]


def test_a_pad_press_lands_as_that_seats_press_within_its_resolution(
    table_app: tuple[App, WebServer], journal: Journal
) -> None:
    app, web = table_app
    g = web.pairing()
    pad = Pad(ws_url(web, g.seats[1]), origin(web))
    try:
        until(lambda: pad.seat, app)
        assert pad.seat["seat"] == 1 and pad.seat["g"] == table_of(app).game_id
        until(lambda: web.pads.get(1) and web.pads[1].clock.pings >= 8, app)
        touched_ns = time.monotonic_ns()
        pad.send(t="press", n=1, p=touched_ns / 1e6 + PHONE_OFFSET_MS, g=table_of(app).game_id)
        presses = until(lambda: journaled_presses(journal, table_of(app).game_id), app)
        ok = pad.answer()
        assert ok["t"] == "ok" and ok["n"] == 1
        press = presses[0]
        assert press.player == "Bruno"
        res_us = press.res_us or 1
        # The phone's clock was 123 s off the table's: the stamp is the touch's, within its
        # stated resolution, which is what a loopback round trip allows (well under 50 ms).
        assert abs(press.t_us - touched_ns // 1000) <= res_us + 1
        assert res_us == ok["res_us"] and res_us < 50_000
        # The status screen's line for the phone: its seat, resolution and round trip.
        seat, res, rtt = web.status()[0]
        assert seat == 1 and res is not None and rtt is not None
        pad.send(t="release", n=1, p=Pad.now_ms())
    finally:
        pad.close()


def test_replays_other_games_strangers_and_revoked_phones_are_refused(
    table_app: tuple[App, WebServer], journal: Journal
) -> None:
    app, web = table_app
    g = web.pairing()
    game_id = table_of(app).game_id
    base = origin(web)
    # A stranger: an unknown token is a 404 page, or a closed socket.
    assert httpx.get(f"{base}/pad/{'A' * 22}").status_code == 404
    assert httpx.get(f"{base}/pad/{g.seats[0]}").status_code == 200
    stranger = Pad(ws_url(web, "x" * 22), base)
    until(lambda: stranger.closed is not None)
    assert stranger.closed == 403
    # Another site's page may not open a seat's socket (the Origin header is checked).
    elsewhere = Pad(ws_url(web, g.seats[0]), "http://evil.example")
    until(lambda: elsewhere.closed is not None)
    assert elsewhere.closed == 403

    pad = Pad(ws_url(web, g.seats[0]), base)
    until(lambda: web.pads.get(0) and web.pads[0].clock.pings >= 4, app)
    pad.send(t="press", n=1, p=Pad.now_ms(), g="another-game")
    other = pad.answer()
    assert other["t"] == "no" and "autre partie" in other["fr"] and "another game" in other["en"]
    pad.send(t="press", n=1, p=Pad.now_ms(), g=game_id)
    assert pad.answer()["t"] == "ok"
    # The same press again on the same connection: a replay, refused. (A new connection counts
    # from 1: a new phone on the seat presses at once, tests/web/test_server_phones.py.)
    pad.send(t="press", n=1, p=Pad.now_ms(), g=game_id)
    replay = pad.answer()
    assert replay["t"] == "no" and "rejoué" in replay["fr"] and "replayed" in replay["en"]
    pad.send(t="release", n=1, p=Pad.now_ms())
    pad.close()
    again = Pad(ws_url(web, g.seats[0]), base)
    until(lambda: web.pads.get(0) and web.pads[0].clock.pings >= 4, app)
    # Revoked from the table: the phone is cut off, and its token no longer opens the page.
    web.pairings.revoke_seat(game_id, 0)
    until(lambda: again.closed is not None, app)
    assert again.closed == 4401
    assert httpx.get(f"{base}/pad/{g.seats[0]}").status_code == 200  # g.seats holds the new one
    until(lambda: len(journaled_presses(journal, game_id)) == 1, app)


def test_pages_carry_a_strict_policy_and_large_bodies_are_refused(table_app: tuple[App, WebServer]) -> None:
    _, web = table_app
    g = web.pairing()
    base = origin(web)
    r = httpx.get(f"{base}/t/{g.join}")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
    assert r.headers["referrer-policy"] == "no-referrer"
    assert httpx.get(f"{base}/static/standings.js").status_code == 200
    big = httpx.post(f"{base}/score/{g.scorer}/submit", content=b"x" * 100_000, headers={"origin": base})
    assert big.status_code == 413
    cross = httpx.post(
        f"{base}/score/{g.scorer}/submit", json={"event": {}}, headers={"origin": "http://evil.example"}
    )
    assert cross.status_code == 403 and "page du marqueur" in cross.json()["fr"]


def test_standings_follow_the_journal_and_the_scorer_entry_is_journaled(
    table_app: tuple[App, WebServer], journal: Journal
) -> None:
    app, web = table_app
    g = web.pairing()
    base = origin(web)
    seen: queue.Queue[dict[str, Any]] = queue.Queue()

    def listen() -> None:
        with httpx.stream("GET", f"{base}/t/{g.join}/events", timeout=30) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    seen.put(json.loads(line[6:]))

    threading.Thread(target=listen, daemon=True).start()
    first = seen.get(timeout=20)
    assert first["game"] == "kilo" and [r["name"] for r in first["standings"]] == PLAYERS
    # A slap judged at the table (keys-free: presses straight on the button queue), then the
    # scorer's phone enters the card drawn: the table's loop journals it, the page follows.
    game_id = table_of(app).game_id
    t0 = time.monotonic_ns()
    for i, seat in enumerate((0, 1, 2, 3)):
        app.inbox.put(InputEvent("seat", seat, "press", t0 + i * 50_000_000, _mono(), "web"))
    until(lambda: app.game.awaiting == "verdict", app)
    app.inbox.put(InputEvent("confirm", 0, "press", 0, _mono(), "gpio"))  # a valid claim
    owed = until(lambda: app.game.owed_draws, app)[0]
    answers: queue.Queue[httpx.Response] = queue.Queue()
    threading.Thread(
        target=lambda: answers.put(
            httpx.post(
                f"{base}/score/{g.scorer}/submit",
                json={"event": {"type": "draw", "player": owed, "card": "KH"}},
                headers={"origin": base},
                timeout=20,
            )
        ),
        daemon=True,
    ).start()
    until(lambda: not answers.empty(), app)
    refused = answers.get()
    assert refused.status_code == 409  # Kings are dealt, not drawn: the engine's own sentence
    assert "KH" in refused.json()["en"]
    threading.Thread(
        target=lambda: answers.put(
            httpx.post(
                f"{base}/score/{g.scorer}/submit",
                json={"event": {"type": "draw", "player": owed, "card": "7H"}},
                headers={"origin": base},
                timeout=20,
            )
        ),
        daemon=True,
    ).start()
    until(lambda: not answers.empty(), app)
    ok = answers.get()
    assert ok.status_code == 200 and ok.json()["ok"] is True
    last = list(journal.events(game_id))[-1][1]
    assert isinstance(last, Draw) and last.player == owed and str(last.card) == "7H"
    # The viewers' page got the journaled draw.
    page = until(lambda: _latest(seen, lambda p: p["seq"] == len(list(journal.events(game_id)))))
    assert page["seq"] >= 6


def _mono() -> Any:
    from companion.inputs.base import Clock

    return Clock("CLOCK_MONOTONIC", 1000)


def _latest(q: queue.Queue[dict[str, Any]], ok: Any) -> dict[str, Any] | None:
    while not q.empty():
        page = q.get_nowait()
        if ok(page):
            return page
    return None


def test_the_server_listens_only_when_asked(tmp_path: Path) -> None:
    from companion.hardware.config import HardwareConfig

    assert HardwareConfig().web.enabled is False
    cfg = HardwareConfig.from_toml('[web]\nenabled = true\nport = 9000\nbind = "127.0.0.1"\n')
    assert cfg.web.enabled and cfg.web.port == 9000
    with pytest.raises(ValueError, match="not an IP address"):
        HardwareConfig.from_toml('[web]\nbind = "everywhere"\n')


def test_the_status_screen_shows_the_codes_and_a_tap_draws_a_new_seat_code(
    table_app: tuple[App, WebServer],
) -> None:
    from companion.display.qr import matrix
    from tests.app_helpers import touch

    app, web = table_app
    app.do(Nav("status"))
    app.redraw()
    assert app.last_screen == "status"
    actions: set[object] = set()
    for _ in range(4):  # the codes that do not fit at a scannable size are on further pages
        actions |= {c.action for c in painter_of(app).controls}
        if WebPage() not in actions:
            break
        touch(app, WebPage())
    assert {WebRevoke("0"), WebRevoke("3"), WebRevoke("scorer")} <= actions
    while WebRevoke("2") not in {c.action for c in painter_of(app).controls}:
        touch(app, WebPage())
    old = web.pairing().seats[2]
    # The QR drawn is the seat's address (a module of the picture is a module of the code).
    assert len(matrix(web.urls()["seat 3"])) >= 25
    pygame.image.save(app.surface, str(Path(os.environ.get("I25_SHOT", "/dev/null.png"))))
    touch(app, WebRevoke("2"))
    # A tap is a decision: it may wait for the sources' promises a few steps (issue 34).
    new = until(lambda: web.pairing().seats[2] != old and web.pairing().seats[2], app)
    assert new != old and web.pairings.grant(old, table_of(app).game_id) is None
    grant = web.pairings.grant(new, table_of(app).game_id)
    assert grant is not None and grant.seat == 2


def test_a_commit_reaches_the_viewers_without_the_server_polling(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Idle, the server sleeps: the journal tells it of each commit (the safety poll is made an
    hour long here, so only the commit's own wake-up can carry the page)."""
    import companion.web.server as server_mod

    monkeypatch.setattr(server_mod, "POLL_S", 3600.0)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=2), {"input": "web"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), journal.data_dir, current_game=lambda: table.game_id)
    web.watch(journal)
    web.start()
    try:
        g = until(lambda: web.pairing())
        seen: queue.Queue[dict[str, Any]] = queue.Queue()

        def listen() -> None:
            with httpx.stream("GET", f"{origin(web)}/t/{g.join}/events", timeout=30) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        seen.put(json.loads(line[6:]))

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        assert seen.get(timeout=20)["seq"] == 1
        from companion.games.kilo.events import Dealer

        table.submit(Dealer(player="Bruno"))
        assert seen.get(timeout=10)["seq"] == 2
    finally:
        web.stop()
    # The stop ended the viewer's stream (uvicorn waits for it: stop() gave up after 5 s and
    # left the server's thread running until the next keep-alive) and the page's request.
    assert web._thread is not None and not web._thread.is_alive()
    listener.join(10)
    assert not listener.is_alive()


def _decoded(surface: pygame.Surface) -> list[tuple[str, int, int, int, int]]:
    """Every QR code a decoder finds on the screen: (text, left, top, right, bottom) pixels."""
    import zxingcpp

    w, h = surface.get_size()
    image = memoryview(pygame.image.tobytes(surface, "RGB")).cast("B", (h, w, 3))
    out = []
    for code in zxingcpp.read_barcodes(image, try_rotate=False, try_downscale=False):
        corners = [code.position.top_left, code.position.top_right, code.position.bottom_left]
        corners.append(code.position.bottom_right)
        xs, ys = [c.x for c in corners], [c.y for c in corners]
        out.append((code.text, min(xs), min(ys), max(xs) + 1, max(ys) + 1))
    return out


@pytest.mark.parametrize("players", [4, 10])
def test_the_codes_on_the_7_inch_screen_have_big_modules_and_a_quiet_zone(
    journal: Journal, screen: pygame.Surface, players: int
) -> None:
    """800x480: every code of the game (join, each seat, the scorer) is found by a decoder, on
    some page of the status screen, with modules of 4 px or more and 4 white modules around."""
    import segno

    from companion.display.qr import QUIET_MODULES
    from tests.app_helpers import touch

    names = [f"Joueur {i + 1}" for i in range(players)]
    table = Table.start(journal, NewKiloGame(players=names, rounds=2), {"input": "keyboard"})
    # The longest address a room's network gives: a three-digit last byte of the address.
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="192.168.100.123"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    try:
        until(lambda: web.urls(), app)
        wanted = set(web.urls().values())
        app.do(Nav("status"))
        found: set[str] = set()
        for _ in range(len(wanted) + 1):
            app.redraw()
            for text, left, top, right, bottom in _decoded(app.surface):
                version = segno.make(text, error="l", micro=False, boost_error=False).version
                modules = 17 + 4 * int(version)
                module = (right - left) / modules
                assert module >= 4, f"{text}: modules of {module:.1f} px"
                quiet = round(QUIET_MODULES * module) - 1  # the decoder's corners are to a pixel
                assert QUIET_MODULES >= 4
                box = (left - quiet, top - quiet, right + quiet, bottom + quiet)
                for x in range(box[0], box[2]):
                    for y in (box[1], box[3] - 1):
                        assert app.surface.get_at((x, y))[:3] == (255, 255, 255), (text, x, y)
                found.add(text)
            pages = [c.action for c in painter_of(app).controls if c.action == WebPage()]
            if found >= wanted or not pages:
                break
            touch(app, pages[0])
        assert found == wanted
    finally:
        app.stop_source()
        web.stop()


def _post(app: App, web: WebServer, body: dict[str, Any]) -> httpx.Response:
    """The scorer's phone sends ``body`` while the table's loop runs (it journals the entry)."""
    base = origin(web)
    answers: queue.Queue[httpx.Response] = queue.Queue()
    url = f"{base}/score/{web.pairing().scorer}/submit"
    threading.Thread(
        target=lambda: answers.put(httpx.post(url, json=body, headers={"origin": base}, timeout=20)),
        daemon=True,
    ).start()
    until(lambda: not answers.empty(), app)
    return answers.get()


def _cinq_app(data: Path, screen: pygame.Surface, web: WebServer | None) -> tuple[App, Journal]:
    from companion.games.cinq_rois.events import NewCinqRoisGame

    data.mkdir()
    journal = Journal(data, writer=True)
    game = NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Cy")
    table = Table.start(journal, game, {"input": "keyboard", "seed": 5})
    app = App(screen, journal, table, Ui(lang="en"), source_name="keyboard", seed=5, speed=0.0, web=web)
    app.step()
    if web is not None:
        serve_table(web, app)
        until(lambda: web.urls(), app)
    return app, journal


def test_a_scorer_phone_journals_cards_left_and_hands_as_the_screen_does(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    """The same round entered on the table screen (keys) and on the scorer's phone: the journal
    rows are the same, and a card the screen refuses is refused on the phone in its words."""
    from tests.app_helpers import press_key

    # The screen: Ana went out; cards left: Ben kept KS and a joker, Cy nothing.
    app, journal = _cinq_app(tmp_path / "screen", screen, None)
    for k in (pygame.K_1, pygame.K_RETURN, pygame.K_RIGHT, pygame.K_k, pygame.K_s, pygame.K_x):
        press_key(app, k)
    press_key(app, pygame.K_RETURN)
    press_key(app, pygame.K_RETURN)
    assert app.table is not None
    screen_rows = [p for _, p in journal.payloads(app.table.game_id)]
    app.stop_source()
    journal.close()
    assert json.loads(screen_rows[-1])["type"] == "round_end"

    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), tmp_path / "phone")
    app, journal = _cinq_app(tmp_path / "phone", screen, web)
    try:
        # As a phone types them: small letters, the joker as the screen's key writes it.
        left = {"type": "round_end", "out": "Ana", "left": {"Ben": ["ks", "jk"], "Cy": []}}
        # A third 7H: the screen's sentence, nothing journaled.
        third = {"type": "round_end", "out": "Ben", "hands": {"Ana": ["7H", "7H"], "Ben": ["7H"]}}
        seq = app.table.seq if app.table is not None else 0
        refused = _post(app, web, {"event": third})
        assert refused.status_code == 409
        assert (
            refused.json()["en"]
            == "7H is already entered twice (Ana): the two decks hold each card only twice"
        )
        short = {"type": "round_end", "out": "Ben", "hands": {"Ana": ["7H"]}}
        assert _post(app, web, {"event": short}).json()["en"].startswith("Hands not complete: Ana 1/3")
        assert app.table is not None and app.table.seq == seq
        ok = _post(app, web, {"event": left})
        assert ok.status_code == 200, ok.json()
        phone_rows = [p for _, p in journal.payloads(app.table.game_id)]
        assert phone_rows == screen_rows
    finally:
        app.stop_source()
        web.stop()
        journal.close()


def test_a_scorer_phone_journals_a_kilo_draw_as_the_screen_does(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    """The same slap and the same card drawn, once on the table's screen (touch), once from the
    scorer's phone: the journal rows are the same."""
    from tests.app_helpers import touch

    def played(data: Path, web: WebServer | None) -> tuple[App, Journal, str]:
        data.mkdir()
        journal = Journal(data, writer=True)
        table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=2), {"input": "keyboard"})
        app = App(screen, journal, table, Ui(lang="en"), source_name="keyboard", web=web)
        if web is not None:
            serve_table(web, app)
            until(lambda: web.urls(), app)
        t0 = 1_000_000_000_000  # the same stamps both times
        for i, seat in enumerate((0, 1, 2, 3)):
            app.inbox.put(InputEvent("seat", seat, "press", t0 + i * 50_000_000, _mono(), "web"))
        until(lambda: app.game.awaiting == "verdict", app)
        app.inbox.put(InputEvent("confirm", 0, "press", 0, _mono(), "gpio"))
        owed = until(lambda: app.game.owed_draws, app)[0]
        return app, journal, str(owed)

    app, journal, owed = played(tmp_path / "screen", None)
    touch(app, Continue())
    touch(app, PickRank("7"))
    touch(app, PickSuit("S"))
    touch(app, DrawCard())
    assert app.table is not None
    screen_rows = [json.loads(p) for _, p in journal.payloads(app.table.game_id)]
    app.stop_source()
    journal.close()
    assert screen_rows[-1]["type"] == "draw"

    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), tmp_path / "phone")
    app, journal, owed_too = played(tmp_path / "phone", web)
    try:
        assert owed_too == owed
        ok = _post(app, web, {"event": {"type": "draw", "player": owed, "card": "7s"}})
        assert ok.status_code == 200, ok.json()
        assert app.table is not None
        phone_rows = [json.loads(p) for _, p in journal.payloads(app.table.game_id)]
        assert phone_rows == screen_rows
    finally:
        app.stop_source()
        web.stop()
        journal.close()


def test_a_frame_of_the_status_screen_builds_no_qr_code(
    table_app: tuple[App, WebServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Making a code takes segno milliseconds: done once per address, never per frame."""
    import segno

    app, _ = table_app
    app.do(Nav("status"))
    app.redraw()
    made: list[str] = []
    real = segno.make

    def counted(content: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(str(content))
        return real(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", counted)
    app.dirty = True
    app.redraw()
    assert made == []


STRANGER = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=10)  # one TLS setup


def knock(web: WebServer, i: int) -> int | None:
    """A stranger's attempt, a page or a pad socket by turns: the status answered, or None when
    the connection was closed without a word."""
    token = f"stranger{i:06d}xxxxxxxxxxxx"
    try:
        if i % 2:
            return STRANGER.get(f"{origin(web)}/pad/{token}").status_code
        connect(ws_url(web, token), origin=origin(web), open_timeout=10).close()  # type: ignore[call-overload]
    except InvalidStatus as exc:
        return exc.response.status_code
    except (httpx.TransportError, OSError, EOFError, ConnectionClosed):
        return None
    except Exception as exc:  # websockets' InvalidMessage: the handshake's answer never came
        if type(exc).__name__ == "InvalidMessage":
            return None
        raise
    return 101


@pytest.mark.parametrize("http", ["auto", "h11"])
def test_an_address_flooding_unknown_tokens_is_cut_at_the_connection(tmp_path: Path, http: str) -> None:
    """A phone with a stale code gets its refusals; an address that keeps knocking with unknown
    tokens is closed as it connects (nothing parsed, no task, no answer) until it earns a try
    back, one a second; a pad already paired is untouched. Both of uvicorn's HTTP parsers."""
    from companion.web import server

    clock = [10**12]
    web = WebServer(
        WebConfig(bind="127.0.0.1", port=0), tmp_path, current_game=lambda: "g1", now_ns=lambda: clock[0]
    )
    web.http = http
    web.start()
    pad = None
    try:
        g = web.pairings.for_game("g1", 2)
        pad = Pad(ws_url(web, g.seats[0]), origin(web))
        until(lambda: pad.seat)  # a pad's handshake goes through the check the strangers fail
        burst = server.REFUSALS_BURST
        answers = [knock(web, i) for i in range(burst + 40)]
        # a stranger's socket is refused before its upgrade, a page with its sentence
        assert answers[:burst] == [403 if i % 2 == 0 else 404 for i in range(burst)]
        assert answers[burst:] == [None] * 40
        assert web.refused == burst and web.cut == 40
        clock[0] += int(1e9 / server.REFUSALS_PER_S)  # a second later: one more try, then cut again
        assert [knock(web, 1), knock(web, 3)] == [404, None]
        pings = web.pads[0].clock.pings
        until(lambda: web.pads[0].clock.pings > pings)  # the paired pad still answers its pings
        assert pad.closed is None
    finally:
        if pad is not None and pad.closed is None:
            pad.close()
        web.stop()


@pytest.mark.parametrize("http", ["auto", "h11"])
def test_the_upgrade_override_still_meets_uvicorn(http: str) -> None:
    """The stranger's early 403 overrides a method of uvicorn's protocols, not a public API: a
    uvicorn that renames it would leave the override dead (still safe, slower); this says so."""
    from companion.web import guard

    web = WebServer(WebConfig(bind="127.0.0.1", port=0), Path("."), current_game=lambda: None)
    web.http = http
    guarded = guard.guarded(web)
    ours, base = guarded.__mro__[1], guarded.__mro__[2]
    assert callable(getattr(base, "handle_websocket_upgrade", None)), base
    assert "handle_websocket_upgrade" in vars(ours)  # ours, over uvicorn's
    # The parser asked for: h11 when named, else httptools' C parser (installed with the web
    # extra), and h11 where httptools cannot be imported.
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    assert base is (H11Protocol if http == "h11" else HttpToolsProtocol)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "uvicorn.protocols.http.httptools_impl", None)  # import fails
        assert guard.guarded(web).__mro__[2] is H11Protocol


def test_a_wired_button_and_a_phone_share_the_table(
    table_app: tuple[App, WebServer], journal: Journal
) -> None:
    """The configured source (the keyboard here, as a wired button would be) and the phones are
    both the table's buttons: each press lands as its own seat's, with its own resolution."""
    app, web = table_app
    g = web.pairing()
    game_id = table_of(app).game_id
    pad = Pad(ws_url(web, g.seats[1]), origin(web))
    try:
        until(lambda: web.pads.get(1) and web.pads[1].clock.pings >= 8, app)
        # The status screen shows the phone connected to seat 2, with its resolution.
        from tests.app_helpers import touch

        app.do(Nav("status"))
        app.redraw()
        shown: list[str] = []
        for _ in range(4):
            shown += [" ".join(t.text.split()) for t in painter_of(app).texts]
            if WebPage() not in {c.action for c in painter_of(app).controls}:
                break
            touch(app, WebPage())
        assert any(re.fullmatch(r"Place 2 ± [0-9]+(,[0-9])? ms", text) for text in shown), shown
        for kind in (pygame.KEYDOWN, pygame.KEYUP):  # key "1": seat 1's key, Alice's
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_1, mod=0, unicode="1", scancode=0))
        pad.send(t="press", n=1, p=Pad.now_ms(), g=game_id)
        assert pad.answer()["t"] == "ok"
        pad.send(t="release", n=1, p=Pad.now_ms())
        presses = until(lambda: (p := journaled_presses(journal, game_id)) and len(p) >= 2 and p, app)
        by_player = {p.player: p for p in presses}
        assert set(by_player) == {"Alice", "Bruno"}
        # the keyboard's resolution is its own (a frame's worth), the phone's its clock estimate
        assert by_player["Alice"].res_us != by_player["Bruno"].res_us
    finally:
        pad.close()


def test_a_kiosk_sandbox_still_closed_is_said_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """[web] turned on but the unit's sandbox not opened yet (no reboot nor daemon-reload since):
    the kernel refuses IP sockets (RestrictAddressFamilies: EAFNOSUPPORT); the table says what to
    run, not "choose another port"."""
    import errno
    import socket

    from companion.errors import HardwareError

    class Sandboxed(socket.socket):
        def __init__(self, family: int = -1, *args: Any, **kwargs: Any) -> None:
            if family in (socket.AF_INET, socket.AF_INET6):
                raise OSError(errno.EAFNOSUPPORT, os.strerror(errno.EAFNOSUPPORT))
            super().__init__(family, *args, **kwargs)

    web = WebServer(WebConfig(bind="0.0.0.0", port=0), tmp_path)
    monkeypatch.setattr(socket, "socket", Sandboxed)
    with pytest.raises(HardwareError) as caught:
        web.start()
    assert "daemon-reload" in caught.value.en and "daemon-reload" in caught.value.fr
    assert "port" not in caught.value.en
    assert web._thread is None  # nothing started


def test_viewers_need_the_join_code_and_only_so_many_listen(tmp_path: Path) -> None:
    """The standings are the join code's: a seat's or the scorer's token, or no code, opens
    nothing; and past ``max_viewers`` listening, one more is told so (503) rather than served."""
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, max_viewers=2), tmp_path, current_game=lambda: "g1")
    web.start()
    try:
        g = web.pairings.for_game("g1", 3)
        base = origin(web)
        for code in (g.seats[0], g.scorer, "A" * 22):
            assert httpx.get(f"{base}/t/{code}").status_code == 404
            assert httpx.get(f"{base}/t/{code}/events").status_code == 404
            assert httpx.get(f"{base}/t/{code}/now").status_code == 404
        assert httpx.get(f"{base}/t/{g.join}/now").status_code == 200
        with (
            httpx.stream("GET", f"{base}/t/{g.join}/events", timeout=30) as one,
            httpx.stream("GET", f"{base}/t/{g.join}/events", timeout=30) as two,
        ):
            assert one.status_code == two.status_code == 200
            until(lambda: len(web._viewers) == 2)
            third = httpx.get(f"{base}/t/{g.join}/events")
            assert third.status_code == 503 and "Too many viewers" in third.text
    finally:
        web.stop()


@pytest.mark.parametrize("missing", ["uvicorn", "starlette"])
def test_phones_on_without_the_web_extra_is_said_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    """`[web]` on in a venv installed without the extra (the install guide's `.[gpio,serial]`):
    the kiosk died of a ModuleNotFoundError traceback (the boot test saw it). Now the table
    starts without phones and says what to install, on its screen and on stderr."""
    import sys

    from companion.cli.play import open_phones
    from companion.hardware.config import HardwareConfig

    # A package that is not installed, as Python itself reports it (not a mock of the import).
    for name in [m for m in sys.modules if m == missing or m.startswith(missing + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "companion.web.server", raising=False)
    config = HardwareConfig.model_validate({"web": {"enabled": True}})
    ui = Ui(lang="en")
    assert open_phones(config, tmp_path, ui) is None
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "Traceback" not in said
    from companion.advice import pip_install

    assert f"({missing} is missing)" in said and f"run {pip_install('web')} and" in said
    assert ui.message is not None and pip_install("web") in ui.message.fr
    assert ui.hardware.notes[-1] == ui.message


def test_every_pad_is_pinged_on_one_beat_so_the_idle_server_wakes_once_for_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each pad's pinger slept PING_EVERY from its own connection: ten pads woke the table's
    process twenty times a second. Each now sleeps to the next beat of the period, which is the
    same instant for every pad."""
    import asyncio

    from companion.web.pad import PING_EVERY_NS, PadSession

    web = WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path, current_game=lambda: "g1")
    pairing = web.pairings.for_game("g1", 2)
    period = PING_EVERY_NS / 1e9
    wakes: dict[int, list[float]] = {0: [], 1: []}

    class Socket:
        async def send_text(self, text: str) -> None:
            pass

    async def pads() -> None:
        loop = asyncio.get_running_loop()
        real_sleep = asyncio.sleep

        mine = threading.get_ident()

        async def sleep(delay: float, result: Any = None) -> Any:
            if threading.get_ident() != mine:  # another server's thread, left by another test
                return await real_sleep(delay, result)
            # Where the pinger asked to wake, on the loop's clock; then no real wait.
            wakes[current].append(loop.time() + delay)
            if len(wakes[current]) >= 3:
                raise asyncio.CancelledError
            return await real_sleep(0)

        monkeypatch.setattr(asyncio, "sleep", sleep)  # the module the server's pinger sleeps with
        for seat in (0, 1):
            current = seat
            token = pairing.seats[seat]
            grant = web.pairings.grant(token, "g1")
            assert grant is not None
            session = PadSession(grant, pairing, time.monotonic_ns)
            with pytest.raises(asyncio.CancelledError):
                await web._ping(Socket(), session, token)  # type: ignore[arg-type]
            await real_sleep(period / 3)  # the second pad connects a third of a period later

    asyncio.run(pads())
    for seat in (0, 1):
        for at in wakes[seat]:
            beat = at / period  # (the pinger read the clock a few microseconds earlier)
            assert abs(beat - round(beat)) < 0.02, (seat, at)  # on the shared beat
