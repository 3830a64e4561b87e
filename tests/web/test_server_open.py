"""The server ``companion play --web`` opens, and stops: the [web] settings of the config (or the defaults
with none), its data folder, and the address the table's screen gives the phones: this
machine's own on the room's network, the one the kernel would answer a phone from."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

import companion.web.server as server_module
from companion.hardware.config import HardwareConfig
from companion.hardware.web_config import WebConfig
from companion.web.server import WebServer, lan_address, open_web

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


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


def test_with_no_route_out_the_phones_address_is_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table on no network at all (the kernel has no route: ENETUNREACH) still starts its
    server; its screen then names loopback, and a phone on the machine itself can use it."""
    import errno

    class Unroutable(socket.socket):
        def connect(self, address: Any) -> None:
            raise OSError(errno.ENETUNREACH, os.strerror(errno.ENETUNREACH))

    monkeypatch.setattr(socket, "socket", Unroutable)
    assert lan_address() == "127.0.0.1"


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
    web.poke()  # the journal's next commit, after the server stopped: nothing raised either
    web.ask_pads(0)  # nor a decision that would wait for the phones
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", web.port), timeout=10):
        pass  # no longer listening


def _table_app(journal: Any, screen: Any, web: WebServer) -> Any:
    from companion.display.app import App
    from companion.display.state import Ui
    from companion.games.kilo.events import NewKiloGame
    from companion.table.live import Table

    table = Table.start(
        journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=1), {"input": "keyboard"}
    )
    return App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)


def test_the_table_says_where_the_phones_go_and_the_server_follows_its_game(
    journal: Any, screen: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No public name set: the phones are sent to this machine's own address, said on the
    status screen and on stderr; the server follows the table's game (none once it has none)
    and wakes at each of its commits (its slow look an hour away)."""
    from companion.games.kilo.events import Press
    from companion.text import Text
    from tests.web.test_server import until

    monkeypatch.setattr(server_module, "POLL_S", 3600.0)
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), journal.data_dir)
    app = _table_app(journal, screen, web)
    try:
        server_module.serve_table(web, app)
        url = f"http://{lan_address()}:{web.port}"
        assert web.base_url == url
        assert app.ui.hardware.notes[-1] == Text("scr.web.url", url=url)
        assert app.ui.hardware.web is web
        # Said once on stderr (other lines there are not this test's: a warning of a library).
        assert capsys.readouterr().err.splitlines().count(f"Phones: {url}") == 1
        assert web.current_game() == app.table.game_id
        page = until(lambda: web.feed.page)
        app.table.submit(Press(player="Bruno", t_us=1000))
        app.table.commit()
        until(lambda: (web.feed.page or {}).get("seq", 0) > page["seq"])
        table, app.table = app.table, None
        assert web.current_game() is None
        app.table = table
    finally:
        web.stop()


# uvicorn's thread ends on the bind's error (which start() then says): expected here.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_server_that_cannot_listen_is_said_on_the_table_and_the_game_goes_on(
    journal: Any, screen: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.text import Text

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        web = WebServer(WebConfig(bind="127.0.0.1", port=port), journal.data_dir)
        app = _table_app(journal, screen, web)
        notes = len(app.ui.hardware.notes)
        with caplog.at_level("ERROR", logger="companion.web"):
            server_module.serve_table(web, app)
    said = Text("web.server.start", address=f"127.0.0.1:{port}")
    assert app.ui.message == said and app.ui.message_error
    assert app.ui.hardware.notes[notes:] == [said]
    assert app.ui.hardware.web is None  # no codes to show
    # Logged once (a server another test left running may log its own lines meanwhile).
    assert [r.getMessage() for r in caplog.records if r.name == "companion.web"].count(said.en) == 1
    assert web.base_url == f"http://127.0.0.1:{port}"  # (unchanged: nothing listens)
    assert app.table is not None and not app.table.engine.finished


def test_the_listening_server_names_no_software_believes_no_proxy_and_caps_a_phones_frame(
    tmp_path: Path,
) -> None:
    """As a phone meets it on the network: no Server or Date header (nothing to fingerprint,
    nothing to cache by); an X-Forwarded-For is not believed (unknown codes count against the
    socket's own address, whatever it claims); a pad's frame over ``max_message`` closes its
    socket with 1009 (too big)."""
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    # The refusals' clock stands still: no refusal is earned back, however slow the machine.
    web = WebServer(
        WebConfig(bind="127.0.0.1", port=0), tmp_path, current_game=lambda: "g1", now_ns=lambda: 10**12
    )
    web.start()
    try:
        g = web.pairings.for_game("g1", 3)
        base = f"http://127.0.0.1:{web.port}"
        # What bench/web.py reads of a flood, from nothing.
        assert (web.refused, web.cut, web.too_large, web.timed_out) == (0, 0, 0, 0)
        home = httpx.get(f"{base}/", timeout=10)
        assert home.status_code == 200
        assert "server" not in home.headers and "date" not in home.headers
        for n in range(server_module.REFUSALS_BURST):
            claimed = {"x-forwarded-for": f"203.0.113.{n}", "forwarded": f"for=203.0.113.{n}"}
            assert httpx.get(f"{base}/t/nothing", headers=claimed, timeout=10).status_code == 404
        # 127.0.0.1 spent them: its next connection is closed unread.
        with pytest.raises(httpx.TransportError):  # closed unread, or reset
            httpx.get(f"{base}/t/{g.join}/now", timeout=10)
        assert (web.refused, web.cut) == (server_module.REFUSALS_BURST, 1)
    finally:
        web.stop()
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path, current_game=lambda: "g1")
    web.start()
    try:
        g = web.pairings.for_game("g1", 3)
        with connect(
            f"ws://127.0.0.1:{web.port}/pad/{g.seats[0]}/ws",
            origin=f"http://127.0.0.1:{web.port}",
            open_timeout=10,
        ) as ws:  # type: ignore[call-overload]
            ws.send("x" * web.config.max_message)  # at the cap: read (and refused as not JSON)
            while json.loads(ws.recv(timeout=10))["t"] != "no":
                pass
            ws.send("x" * (web.config.max_message + 1))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        web.stop()


def test_the_server_answers_to_the_public_name_it_is_given(tmp_path: Path) -> None:
    """A table reached by a name (``public_host``, a router's DNS entry): a request naming it
    is served; one naming another host is refused (421)."""
    import httpx

    web = WebServer(
        WebConfig(bind="127.0.0.1", port=0, public_host="table.example"), tmp_path, current_game=lambda: "g1"
    )
    web.start()
    try:
        base = f"http://127.0.0.1:{web.port}"
        named = httpx.get(f"{base}/", headers={"host": f"table.example:{web.port}"}, timeout=10)
        assert named.status_code == 200
        other = httpx.get(f"{base}/", headers={"host": f"elsewhere.example:{web.port}"}, timeout=10)
        assert other.status_code == 421
    finally:
        web.stop()


def test_the_server_listens_on_the_address_it_is_told_and_caps_a_body(tmp_path: Path) -> None:
    """``bind`` is where it listens (here 127.0.0.2, a loopback address of its own: nothing on
    127.0.0.1); a scorer's body said longer than ``max_message`` × 8 is refused before a byte of
    it is read, one at the cap is read."""
    import httpx

    web = WebServer(WebConfig(bind="127.0.0.2", port=0), tmp_path, current_game=lambda: "g1")
    web.start()
    try:
        g = web.pairings.for_game("g1", 3)
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", web.port), timeout=10):
            pass
        base = f"http://127.0.0.2:{web.port}"
        own = {"origin": base}
        cap = web.config.max_message * 8
        over = httpx.post(
            f"{base}/score/{g.scorer}/submit", content=b" " * (cap + 1), headers=own, timeout=10
        )
        assert (over.status_code, over.text) == (413, "Requête trop grande. Request too large.")
        at = httpx.post(f"{base}/score/{g.scorer}/submit", content=b" " * cap, headers=own, timeout=10)
        assert at.status_code == 400  # read, and refused as no entry: not too large
    finally:
        web.stop()


def test_the_table_screen_shows_no_codes_for_a_game_the_server_has_not_read_yet(journal: Any) -> None:
    """A new game begun at the table, its first page not read by the server yet: the screen
    shows no codes for it (never codes made with the last game's number of seats); once its
    page is read, codes for each of its seats."""
    from companion.games.kilo.events import NewKiloGame
    from companion.table.live import Table

    first = Table.start(journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=1), {"input": "web"})
    current = {"game": first.game_id}
    web = WebServer(
        WebConfig(bind="127.0.0.1", port=0), journal.data_dir, current_game=lambda: current["game"]
    )
    assert web.feed.poll(first.game_id) is not None
    assert len(web.pairing().seats) == 3
    second = Table.start(
        journal, NewKiloGame(players=["Alice", "Bruno", "Chloé", "Dédé"], rounds=1), {"input": "web"}
    )
    current["game"] = second.game_id
    assert web.pairing() is None and web.codes() == []  # the page is still the first game's
    assert web.feed.poll(second.game_id) is not None
    assert len(web.pairing().seats) == 4
    web.feed.close()


def test_a_server_never_started_stops_quietly(tmp_path: Path) -> None:
    WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path).stop()


def test_a_journal_hiccup_is_logged_and_the_standings_go_on(
    journal: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the journal fails once (a disk error): the log says so with the error, and the
    phones' standings follow the next commit as before."""
    from companion.games.kilo.events import NewKiloGame, Press
    from companion.table.live import Table
    from tests.web.test_server import until

    table = Table.start(journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=1), {"input": "web"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), journal.data_dir, current_game=lambda: table.game_id)
    web.watch(journal)
    real_poll = web.feed.poll
    failures = [OSError(5, "Input/output error")]

    def poll(game_id: str | None) -> Any:
        if failures:
            raise failures.pop()
        return real_poll(game_id)

    monkeypatch.setattr(web.feed, "poll", poll)
    with caplog.at_level("ERROR", logger="companion.web"):
        web.start()
        try:
            first = until(lambda: not failures and web.feed.page)
            table.submit(Press(player="Bruno", t_us=1000))
            table.commit()
            until(lambda: (web.feed.page or {}).get("seq", 0) > first["seq"])
        finally:
            web.stop()
    # This server's hiccup, once (a server another test left running may log its own).
    (record,) = [
        r
        for r in caplog.records
        if r.name == "companion.web"
        and r.exc_info is not None
        and r.exc_info[1] is not None
        and r.exc_info[1].args[:1] == (5,)
    ]
    assert record.getMessage() == "reading the journal for the phones"
    assert record.exc_info is not None and isinstance(record.exc_info[1], OSError)


def test_a_commit_not_announced_still_reaches_the_standings_at_the_slow_look(
    journal: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal the server does not watch (a game resumed, another writer): its commits reach
    the standings at the server's slow look (``POLL_S``), as a safety net."""
    from companion.games.kilo.events import NewKiloGame, Press
    from companion.table.live import Table
    from tests.web.test_server import until

    monkeypatch.setattr(server_module, "POLL_S", 0.05)
    table = Table.start(journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=1), {"input": "web"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), journal.data_dir, current_game=lambda: table.game_id)
    web.start()  # not watching the journal: nothing pokes it
    try:
        page = until(lambda: web.feed.page)
        table.submit(Press(player="Bruno", t_us=1000))
        table.commit()
        until(lambda: (web.feed.page or {}).get("seq", 0) > page["seq"])
    finally:
        web.stop()


def test_a_table_that_ends_without_stopping_the_server_still_exits(tmp_path: Path) -> None:
    """The server's thread is the process's helper, not its master: a table that ends (a crash,
    an exit path that forgot it) exits even with the server listening."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.hardware.web_config import WebConfig\n"
        "from companion.web.server import WebServer\n"
        "web = WebServer(WebConfig(bind='127.0.0.1', port=0), Path(sys.argv[1]))\n"
        "web.start()\n"
        "print(web._thread.name, web.port, flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    name, port = done.stdout.split()
    assert name == "web" and int(port) > 0  # named in thread dumps and the log
    # The same, as this process starts it: the thread the process does not wait for.
    web = WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path / "here")
    web.start()
    try:
        assert web._thread is not None and web._thread.daemon and web._thread.name == "web"
    finally:
        web.stop()


@pytest.mark.parametrize(("bind", "refused"), [("::1", "AF_INET6"), ("127.0.0.1", "AF_INET")])
def test_a_sandbox_closed_to_the_binds_family_only_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bind: str, refused: str
) -> None:
    """The kiosk's sandbox refuses one address family: a server bound in that family says
    what to run; the other family passes the look."""
    import errno

    from companion.errors import HardwareError

    family = getattr(socket, refused)

    class Sandboxed(socket.socket):
        def __init__(self, fam: int = -1, *args: Any, **kwargs: Any) -> None:
            if fam == family:
                raise OSError(errno.EAFNOSUPPORT, os.strerror(errno.EAFNOSUPPORT))
            super().__init__(fam, *args, **kwargs)

    other = "127.0.0.1" if bind == "::1" else "::1"
    monkeypatch.setattr(socket, "socket", Sandboxed)
    with pytest.raises(HardwareError) as caught:
        WebServer(WebConfig(bind=bind, port=0), tmp_path).start()
    assert "daemon-reload" in caught.value.en
    # The other family is open: nothing said (the look opens a socket, binds nothing).
    server_module._network_allowed(other)
