"""What the phones' server lets through, as an attacker or a phone sees it (issue 38): the bugs
an outside audit planted by hand passed the suite (an Origin check another site can satisfy, a
token still good with its case changed, phones left on the game before). Each test here drives
the real server over HTTP and WebSockets, without the table's screen."""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion.games.kilo.events import NewKiloGame
from companion.hardware.web_config import WebConfig
from companion.table.journal import Journal
from companion.table.live import Table
from companion.web.assets import STATIC
from companion.web.server import WebServer
from tests.web.test_server import until

PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]


class Served:
    """A table's journal and the phones' server reading it; ``table`` is the game being played."""

    def __init__(self, journal: Journal, setup: Any = None) -> None:
        self.journal = journal
        setup = setup or NewKiloGame(players=PLAYERS, rounds=2)
        self.table = Table.start(journal, setup, {"input": "web"})
        self.web = WebServer(
            WebConfig(bind="127.0.0.1", port=0), journal.data_dir, current_game=lambda: self.table.game_id
        )
        self.web.watch(journal)
        self.web.start()
        until(lambda: self.web.pairing())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    def urls_end_with(self, g: Any) -> bool:
        """The table screen's addresses are the current codes' (seats numbered from 1)."""
        urls = self.web.urls()
        wanted = {"join": f"/t/{g.join}", "scorer": f"/score/{g.scorer}"}
        wanted |= {f"seat {i + 1}": f"/pad/{tok}" for i, tok in enumerate(g.seats)}
        return urls.keys() == wanted.keys() and all(urls[k].endswith(v) for k, v in wanted.items())

    def socket_status(self, token: str, origin: str | None) -> int:
        """101 when a pad's socket opens (it is closed at once), else the refusal's status."""
        try:
            ws = connect(
                f"ws://127.0.0.1:{self.web.port}/pad/{token}/ws",
                origin=origin,  # type: ignore[arg-type]
                open_timeout=10,
            )
        except InvalidStatus as exc:
            return int(exc.response.status_code)
        with ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["t"] in ("seat", "ping"), first
        return 101


@pytest.fixture
def served(journal: Journal) -> Iterator[Served]:
    s = Served(journal)
    try:
        yield s
    finally:
        s.web.stop()


def test_only_the_tables_own_pages_may_press_or_score(served: Served) -> None:
    """A browser sends its page's origin (scheme, host, port) with a WebSocket and a POST: a page
    of any other site, one that merely starts or ends like the table's address, another port of
    the same machine, or no origin at all, opens no seat and enters no score."""
    g = served.web.pairing()
    base = served.base
    host = base.removeprefix("http://")
    port = served.web.port
    other_port = port + 1 if port < 65535 else port - 1
    lookalikes = [
        "http://evil.example",
        f"{base}.evil.example",  # a site whose name starts with the table's address
        f"http://evil.example.{host}",
        f"http://evil{host}",  # ... or ends with it
        f"http://127.0.0.1:{other_port}",  # another port: another site, same machine
        "http://127.0.0.1",
        f"http://localhost:{port}",  # the same machine under another name: another origin
        f"ws://{host}",
        f"{base}/",
        f"{base}@evil.example",
        "null",  # a sandboxed page or a file's
        "",
        None,  # no Origin header at all
    ]
    for origin in lookalikes:
        assert served.socket_status(g.seats[0], origin) == 403, origin
        headers = {} if origin is None else {"origin": origin}
        cross = httpx.post(
            f"{base}/score/{g.scorer}/submit",
            json={"event": {"type": "dealer", "player": "Bruno"}},
            headers=headers,
        )
        assert cross.status_code == 403, origin
        assert "page du marqueur" in cross.json()["fr"], origin
    assert len(list(served.journal.events(served.table.game_id))) == 1  # nothing entered
    # The table's own pages, over http and behind an https proxy, may.
    assert served.socket_status(g.seats[0], base) == 101
    assert served.socket_status(g.seats[1], f"https://{host}") == 101
    # (Past the origin, the entry itself is judged: a Kilo scorer enters draws only.)
    own = httpx.post(
        f"{base}/score/{g.scorer}/submit",
        json={"event": {"type": "dealer", "player": "Bruno"}},
        headers={"origin": base},
        timeout=20,
    )
    assert own.status_code == 400 and "must be an event of Kilo de merde: draw" in own.json()["en"]


def _other_case(token: str) -> str:
    changed = token.swapcase()
    assert changed != token  # 22 URL-safe characters: some are letters
    return changed


def test_a_token_with_its_case_changed_opens_nothing(served: Served) -> None:
    """Tokens are compared exactly: a phone (or a guess) that changes a letter's case gets the
    same refusal as a stranger, on every page and socket."""
    g = served.web.pairing()
    base = served.base
    seat, scorer, join = g.seats[2], g.scorer, g.join
    # 128 random bits each, as 22 URL-safe characters: the shortest address (the smallest QR
    # code on the table's screen) that no one guesses.
    for token in (*g.seats, scorer, join):
        assert len(token) == 22 and re.fullmatch(r"[A-Za-z0-9_-]{22}", token), token
    assert len({*g.seats, scorer, join}) == len(g.seats) + 2
    assert httpx.get(f"{base}/pad/{seat}").status_code == 200
    assert httpx.get(f"{base}/score/{scorer}").status_code == 200
    assert httpx.get(f"{base}/t/{join}").status_code == 200
    assert httpx.get(f"{base}/t/{join}/now").json()["game_id"] == served.table.game_id
    for shown in (_other_case(seat), seat.upper(), seat.lower()):
        if shown == seat:
            continue
        page = httpx.get(f"{base}/pad/{shown}")
        assert page.status_code == 404 and "no longer valid" in page.text
        assert served.socket_status(shown, base) == 403
    assert httpx.get(f"{base}/score/{_other_case(scorer)}").status_code == 404
    assert httpx.get(f"{base}/score/{_other_case(scorer)}/page").status_code == 404
    refused = httpx.post(
        f"{base}/score/{_other_case(scorer)}/submit",
        json={"event": {"type": "dealer", "player": "Bruno"}},
        headers={"origin": base},
    )
    assert refused.status_code in (403, 404)
    assert httpx.get(f"{base}/t/{_other_case(join)}").status_code == 404
    assert httpx.get(f"{base}/t/{_other_case(join)}/now").status_code == 404
    assert httpx.get(f"{base}/t/{_other_case(join)}/events").status_code == 404
    # One character more, or one fewer, is no token either.
    assert httpx.get(f"{base}/pad/{seat}A").status_code == 404
    assert httpx.get(f"{base}/pad/{seat[:-1]}").status_code == 404
    assert len(list(served.journal.events(served.table.game_id))) == 1


def test_the_phones_watching_follow_the_table_to_its_next_game(served: Served) -> None:
    """A phone on the standings is on one game: when the table starts the next game, the last
    game's stream ends (issue 36: its code no longer shows the new game) and the new game's
    code shows that game, numbered from its first event, with its players in their places
    from 1; the last game's codes open nothing."""
    g = served.web.pairing()

    def watch(code: str) -> tuple[queue.Queue[dict[str, Any] | None], threading.Thread]:
        seen: queue.Queue[dict[str, Any] | None] = queue.Queue()

        def listen() -> None:
            with httpx.stream("GET", f"{served.base}/t/{code}/events", timeout=30) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        seen.put(json.loads(line[6:]))
            seen.put(None)  # the table ended the stream

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        return seen, thread

    seen, listening = watch(g.join)
    first = seen.get(timeout=20)
    assert first is not None
    assert first["game_id"] == served.table.game_id and first["players"] == PLAYERS
    # Nobody has a kilo yet: all four share the first place, as on the table's screen.
    assert [(r["name"], r["place"], r["seat"]) for r in first["standings"]] == [
        (name, 1, seat) for seat, name in enumerate(PLAYERS)
    ]
    from companion.games.kilo.events import Dealer

    served.table.submit(Dealer(player="Bruno"))
    page = seen.get(timeout=10)
    assert page is not None and page["seq"] == 2
    served.table = Table.start(served.journal, NewKiloGame(players=["Zoé", "Yann", "Xavier"], rounds=1), {})
    served.web.poke()
    # The last game's stream shows nothing of the new game: it ends.
    while (page := seen.get(timeout=10)) is not None:
        assert page["game_id"] == first["game_id"], page
    listening.join(timeout=10)
    # The new game's codes are drawn for its three seats; the last game's no longer open a pad.
    g2 = until(lambda: served.web.pairing() if served.web.pairing().game_id != g.game_id else None)
    assert len(g2.seats) == 3 and served.web.urls()["seat 3"].endswith(g2.seats[2])
    assert httpx.get(f"{served.base}/pad/{g.seats[0]}").status_code == 404
    assert httpx.get(f"{served.base}/pad/{g2.seats[0]}").status_code == 200
    nxt_seen, _ = watch(g2.join)
    nxt = nxt_seen.get(timeout=10)
    assert nxt is not None
    assert nxt["game_id"] == served.table.game_id != first["game_id"]
    assert nxt["seq"] == 1 and nxt["players"] == ["Zoé", "Yann", "Xavier"]
    assert [r["place"] for r in nxt["standings"]] == [1, 1, 1]
    assert [t["name"] for t in nxt["tiles"]] == ["Zoé", "Yann", "Xavier"]


def test_a_phone_shows_the_cinq_rois_sheet_as_the_table_keeps_it(journal: Journal) -> None:
    """The standings page's data for Les Cinq Rois after two rounds: places from 1 with ties
    shared, each seat's colour, the sheet's rows in seating order, the round to play."""
    from companion.games.cinq_rois.events import NewCinqRoisGame
    from companion.table.log import event_from_dict

    served = Served(journal, NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Ana"))
    try:
        for row in (
            {"type": "round_end", "out": "Ben", "points": {"Ana": 5, "Cy": 3}},
            {"type": "round_end", "out": "Ana", "points": {"Ben": 7, "Cy": 2}},
        ):
            served.table.submit(event_from_dict(row, "cinq-rois"))
        served.web.poke()
        g = served.web.pairing()
        page = until(lambda: (p := httpx.get(f"{served.base}/t/{g.join}/now").json()) and p["seq"] == 3 and p)
    finally:
        served.web.stop()
    colors = ["#e69f00", "#3296ff", "#cc79a7"]  # the seats' colours on the table's screen
    assert page["game_id"] == served.table.game_id and page["game"] == "cinq-rois"
    assert page["title"] == "Les Cinq Rois" and page["finished"] is False
    assert page["players"] == ["Ana", "Ben", "Cy"] and page["colors"] == colors
    assert page["standings"] == [
        {"name": "Ana", "seat": 0, "score": 5, "place": 1, "color": colors[0]},
        {"name": "Cy", "seat": 2, "score": 5, "place": 1, "color": colors[2]},
        {"name": "Ben", "seat": 1, "score": 7, "place": 3, "color": colors[1]},
    ]
    assert page["round"] == [3, 11]
    assert page["sheet"] == {
        "rows": [
            {"round": 1, "dealer": "Ana", "out": "Ben", "scores": [5, 0, 3]},
            {"round": 2, "dealer": "Ben", "out": "Ana", "scores": [0, 7, 2]},
        ],
        "totals": [5, 7, 5],
        "places": [1, 3, 1],
        "cards": 5,
        "bonus": "5",
    }
    assert page["summary"]["fr"].startswith("Les Cinq Rois — Donne 3\u202f: 5 cartes, atout 5, donneur Cy")
    assert page["summary"]["en"].startswith("Les Cinq Rois — Round 3: 5 cards, bonus 5, dealer Cy")


def test_a_phone_shows_the_kilo_tiles_the_table_screen_shows(served: Served) -> None:
    """Kilo's page: the round, and a tile per seat in seating order with what the table's own
    screen shows on it (kilos, cards drawn, who owes a draw, who starts, place, change)."""
    from companion.games.kilo.events import Dealer
    from companion.games.kilo.rules import KiloGame
    from companion.games.kilo.view import build_view

    served.table.submit(Dealer(player="Bruno"))
    served.web.poke()
    g = served.web.pairing()
    page = until(lambda: (p := httpx.get(f"{served.base}/t/{g.join}/now").json()) and p["seq"] == 2 and p)
    engine = served.table.engine
    assert isinstance(engine, KiloGame)
    view = build_view(engine)
    assert page["round"] == [1, 2] and page["last_slap"] is None
    assert page["tiles"] == [
        {
            "seat": s.seat,
            "name": s.name,
            "kilos": s.kilos,
            "cards": list(s.cards),
            "owes": s.owes,
            "starter": s.starter,
            "place": s.place,
            "change": s.change,
        }
        for s in view.seats
    ]
    assert [t["name"] for t in page["tiles"]] == PLAYERS and [t["seat"] for t in page["tiles"]] == [
        0,
        1,
        2,
        3,
    ]
    assert page["summary"]["fr"] == served.table.engine.summary("fr")
    assert page["summary"]["en"] == served.table.engine.summary("en")


def test_a_code_drawn_again_at_the_table_cuts_off_the_old_one(served: Served) -> None:
    """A tap on the scorer's or a seat's code draws a new one (a lost or lent phone): the old
    address is refused from then on, the new one opens, the other codes still work."""
    g = served.web.pairing()
    base = served.base
    old_scorer, old_seat, other_seat, join = g.scorer, g.seats[1], g.seats[0], g.join
    served.web.revoke("scorer")
    served.web.revoke("1")
    g = served.web.pairing()
    assert g.scorer != old_scorer and g.seats[1] != old_seat
    assert httpx.get(f"{base}/score/{old_scorer}").status_code == 404
    assert httpx.get(f"{base}/score/{old_scorer}/page").status_code == 404
    assert httpx.get(f"{base}/score/{g.scorer}").status_code == 200
    assert httpx.get(f"{base}/pad/{old_seat}").status_code == 404
    assert served.socket_status(old_seat, base) == 403
    assert httpx.get(f"{base}/pad/{g.seats[1]}").status_code == 200
    assert served.urls_end_with(g)
    assert g.seats[0] == other_seat and httpx.get(f"{base}/pad/{other_seat}").status_code == 200
    assert g.join == join and httpx.get(f"{base}/t/{join}").status_code == 200


def test_a_phone_shows_the_slap_the_table_judged(served: Served) -> None:
    """Kilo's page after a judged slap: each press's gap to the first in microseconds, who
    lost, by how much and to what resolution, as plain JSON a phone's script reads."""
    from companion.games.kilo.events import Press, Verdict

    for player, t_us in (("Chloé", 1000), ("Bruno", 1100), ("Alice", 1250)):
        served.table.submit(Press(player=player, t_us=t_us))
    served.table.submit(Verdict(valid=True))
    served.web.poke()
    g = served.web.pairing()
    page = until(lambda: (p := httpx.get(f"{served.base}/t/{g.join}/now").json()) and p["seq"] == 5 and p)
    assert page["last_slap"] == {
        "presses": [
            {"name": "Chloé", "seat": 2, "offset_us": 0},
            {"name": "Bruno", "seat": 1, "offset_us": 100},
            {"name": "Alice", "seat": 0, "offset_us": 250},
        ],
        "non_pressers": [["Dédé", 3]],
        "losers": ["Dédé"],
        "margin_us": None,
        "valid": True,
        "tied": False,
        "reslap": False,
        "margin_res_us": 1,
        "late": [],  # no press arrived after the verdict (issue 34)
        "rejudged": False,
    }
    assert [t["owes"] for t in page["tiles"]] == [False, False, False, True]


# --- the same server in this process (Starlette's TestClient: no socket, no thread of uvicorn) ---


class Local:
    """The phones' app behind the guard every answer goes through (``Hardened``), asked in this
    process: the pages, headers and refusals a phone would read, without a port."""

    def __init__(self, journal: Journal, setup: Any = None) -> None:
        from starlette.testclient import TestClient

        from companion.web.guard import Hardened

        self.journal = journal
        self.table = Table.start(journal, setup or NewKiloGame(players=PLAYERS, rounds=2), {"input": "web"})
        self.now_ns = 10**12  # the server's clock, moved by hand: an address earns nothing back
        self.web = WebServer(
            WebConfig(bind="127.0.0.1", port=0),
            journal.data_dir,
            current_game=lambda: self.table.game_id,
            now_ns=lambda: self.now_ns,
        )
        self.web.watch(journal)
        guard = Hardened(self.web.app, self.web.config.max_message * 8, "table.example", self.web.shut_out)
        self.guard = guard

        async def app(scope: Any, receive: Any, send: Any) -> None:  # ASGI 3 however it is wrapped
            await guard(scope, receive, send)

        self.client = TestClient(app, base_url="http://127.0.0.1:8000")


@pytest.fixture
def local(journal: Journal) -> Iterator[Local]:
    s = Local(journal)
    with s.client:  # the app's lifespan: the feed follows the journal
        until(lambda: s.web.pairing())
        yield s


def test_the_pages_read_in_the_tables_typeface_and_colours(local: Local) -> None:
    """The stylesheet the pages load names each face of Atkinson Hyperlegible by its weight and
    style, and the table's colour roles; each face is served byte for byte from the installed
    font package, and nothing else is served under /font/."""
    from fontpkg_atkinson_hyperlegible import ROOT

    from companion.display import theme

    css = local.client.get("/static/theme.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    faces = [
        ("Bold", "bold", "normal"),
        ("BoldItalic", "bold", "italic"),
        ("Italic", "normal", "italic"),
        ("Regular", "normal", "normal"),
    ]
    expected = "/* Generated from companion/display/theme.py. */\n"
    for face, weight, style in faces:
        expected += (
            '@font-face { font-family: "Atkinson Hyperlegible"; '
            f'src: url("/font/AtkinsonHyperlegible-{face}.ttf") format("truetype"); '
            f"font-weight: {weight}; font-style: {style}; font-display: swap; }}\n"
        )
    roles = [
        ("bg", theme.BG),
        ("panel", theme.PANEL),
        ("panel-hi", theme.PANEL_HI),
        ("fg", theme.FG),
        ("muted", theme.MUTED),
        ("disabled", theme.DISABLED),
        ("accent", theme.ACCENT),
        ("good", theme.GOOD),
        ("bad", theme.BAD),
        ("warn", theme.WARN),
    ]
    variables = " ".join(f"--{role}: #{c[0]:02x}{c[1]:02x}{c[2]:02x};" for role, c in roles)
    expected += f":root {{ {variables} }}\n"
    assert css.text == expected
    assert "--fg: #ffffff; --muted: #bec6ce;" in css.text  # two digits a channel, lower case
    for face, _, _ in faces:
        got = local.client.get(f"/font/AtkinsonHyperlegible-{face}.ttf")
        assert got.status_code == 200 and got.headers["content-type"] == "font/ttf"
        assert got.content == (ROOT / "files" / f"AtkinsonHyperlegible-{face}.ttf").read_bytes()
    for name in ("nothing.ttf", "AtkinsonHyperlegible-Bold", "atkinsonhyperlegible-bold.ttf", "__init__.py"):
        missing = local.client.get(f"/font/{name}")
        assert (missing.status_code, missing.text) == (404, "Police inconnue. Unknown font."), name


def _play_kilo(local: Local, players: list[str], meta: dict[str, Any], *, finish: bool = True) -> Table:
    """A one-round Kilo game begun at the table and, unless told, played to its end; the
    phones' feed is waited for until it shows the game in that state."""

    table = Table.start(local.journal, NewKiloGame(players=players, rounds=1), meta)
    local.table = table
    if finish:
        _finish(local, table)
    else:
        until(lambda: (local.web.feed.page or {}).get("game_id") == table.game_id)
    return table


def _finish(local: Local, table: Table) -> None:
    from companion.games.kilo.events import Draw, Press, Verdict

    players = list(table.engine.players)
    for i, p in enumerate(players):
        table.submit(Press(player=p, t_us=1_000_000 + 4000 * i))
    table.submit(Verdict(valid=True))
    table.submit(Draw(player=players[-1], card="9H"))
    if table.pending:
        table.commit()
    assert table.engine.finished
    until(
        lambda: (
            (local.web.feed.page or {}).get("game_id") == table.game_id
            and (local.web.feed.page or {}).get("finished")
        )
    )


def test_the_evening_tab_shows_the_finished_games_to_a_viewers_code_only(local: Local) -> None:
    """The evening tab counts the games finished at the table tonight (demos left out, as
    `companion stats` does), in French unless the page asks for English, as they are when it is
    opened (a game ended since is there); only the join code opens it: a seat's or the
    scorer's code, or a code with a letter's case changed, is refused."""
    g = local.web.pairing()

    def evening(query: str = "", code: str | None = None) -> Any:
        return local.client.get(f"/t/{code or local.web.pairing().join}/evening{query}")

    empty = evening()
    assert empty.status_code == 200 and empty.headers["content-type"].startswith("text/html")
    assert empty.text.startswith('<div class="evening">') and "L’historique" not in empty.text
    for code in (g.seats[0], g.scorer, _other_case(g.join), "nothing"):
        refused = evening(code=code)
        assert (refused.status_code, refused.text) == (
            404,
            "Code inconnu\u202f: scannez celui de l’écran de la table. "
            "Unknown code: scan the one on the table's screen.",
        ), code
    _play_kilo(local, PLAYERS[:3], {"input": "sim", "demo": True})
    # The demo over: nothing counted yet, in either language.
    assert "L’historique" not in evening().text and "history" not in evening("?lang=en").text
    real = _play_kilo(local, PLAYERS[1:], {"input": "web"}, finish=False)
    assert "L’historique" not in evening().text
    _finish(local, real)
    fr = evening()
    assert fr.status_code == 200 and "L’historique de la table" in fr.text
    # The demo is not counted: one game finished, and Alice, who played only the demo, is not there.
    assert 'data-figure="finished" data-value="1"' in fr.text and "Alice" not in fr.text
    assert "Dédé" in fr.text
    en = evening("?lang=en")
    assert "The table&#x27;s history" in en.text and 'data-figure="finished" data-value="1"' in en.text
    assert "L’historique" not in en.text
    for other in ("?lang=EN", "?lang=de", "?lang="):
        assert evening(other).text == fr.text, other
    assert evening().text == fr.text  # asked again: the same page
    # A server started again over the same folder knows the codes before its feed has read the
    # journal: the tab opens all the same.
    from starlette.testclient import TestClient

    again = WebServer(
        WebConfig(bind="127.0.0.1", port=0), local.journal.data_dir, current_game=lambda: real.game_id
    )
    assert again.feed.page is None
    opened = TestClient(again.app, base_url="http://127.0.0.1:8000").get(
        f"/t/{local.web.pairing().join}/evening"
    )
    assert opened.status_code == 200 and 'data-figure="finished" data-value="1"' in opened.text


CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def _asgi(app: Any, scope: dict[str, Any], body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request handed to the app as uvicorn hands it (headers as they came on the wire,
    which an HTTP client would not send): the status, headers and body the client reads."""
    import asyncio

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    base = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "client": ("10.0.0.7", 5000)}
    asyncio.run(app({**base, **scope}, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in start["headers"]}
    return (
        start["status"],
        headers,
        b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"),
    )


def test_every_answer_carries_the_security_headers_and_a_body_over_the_cap_is_refused(local: Local) -> None:
    """A page, a refusal and a font alike forbid other sites' scripts, framing, sniffing and
    caching, and never hand their address (a token) on; a body announced over the cap, or not
    as a number, is refused before a byte of it is read."""
    g = local.web.pairing()
    home = local.client.get("/")
    assert home.status_code == 200 and home.headers["content-type"].startswith("text/html")
    assert home.text == (STATIC / "home.html").read_text("utf-8")
    for path, status in (
        ("/", 200),
        (f"/t/{g.join}", 200),
        (f"/t/{g.join}/now", 200),
        ("/t/nothing", 404),
        ("/font/AtkinsonHyperlegible-Bold.ttf", 200),
    ):
        got = local.client.get(path)
        assert got.status_code == status, path
        for name, value in SECURITY.items():
            assert got.headers[name] == value, (path, name)
        assert got.headers["content-type"]  # the page's own headers are kept
    cap = local.web.config.max_message * 8
    app = local.guard
    host = (b"host", b"127.0.0.1:8000")
    submit = f"/score/{g.scorer}/submit"
    for length in (str(cap + 1).encode(), b"-1", b"1e3", b"12 ", b"abc"):
        status, _, body = _asgi(
            app, {"method": "POST", "path": submit, "headers": [host, (b"content-length", length)]}
        )
        assert (status, body.decode()) == (413, "Requête trop grande. Request too large."), length
    # At the cap exactly: read, and judged for what it is (here: no origin, so refused as such).
    status, _, body = _asgi(
        app,
        {"method": "POST", "path": submit, "headers": [host, (b"content-length", str(cap).encode())]},
        b"x" * cap,
    )
    assert status == 403 and "page du marqueur" in json.loads(body)["fr"]


def test_a_request_that_does_not_name_the_table_is_refused_token_or_not(local: Local) -> None:
    """Only an address, localhost or the configured public name is the table (against DNS
    rebinding: another site's name pointed here sends its own Host); told in both languages,
    French typography included; a WebSocket so named is closed before it opens."""
    from starlette.websockets import WebSocketDisconnect

    g = local.web.pairing()
    app = local.guard
    table = [
        "127.0.0.1:8000",
        "127.0.0.1",
        "10.1.2.3:80",
        "[::1]:8000",
        "localhost:8000",
        "LOCALHOST",
        "table.example:8000",  # the public_host Local configures, in any case
        "Table.Example",
        " 127.0.0.1:8000 ",
    ]
    for host in table:
        status, _, _ = _asgi(app, {"path": f"/t/{g.join}/now", "headers": [(b"host", host.encode())]})
        assert status == 200, host
    refused = (
        421,
        "Adresse inconnue de la table\u202f: ouvrez le code de son écran. "
        "Not the table's address: open the code on its screen.",
    )
    for host in (
        "evil.example",
        "evil.example:8000",
        "127.0.0.1.evil.example",
        "localhost.evil.example",
        "table.example.evil",
        ":8000",
        "",
        "localhost:8000:8000",  # a port after the port: not a Host, not the table's
        "127.0.0.1:8000:8000",
    ):
        status, _, body = _asgi(app, {"path": f"/t/{g.join}/now", "headers": [(b"host", host.encode())]})
        assert (status, body.decode()) == refused, host
    status, _, body = _asgi(app, {"path": f"/t/{g.join}/now", "headers": []})  # no Host at all
    assert (status, body.decode()) == refused
    # With no public name configured, a Host without a name names nothing either.
    from companion.web.guard import Hardened

    unnamed = Hardened(local.web.app, local.web.config.max_message * 8)
    for host, status in (("127.0.0.1:8000", 200), ("localhost", 200), (":8000", 421), ("", 421)):
        assert (
            _asgi(unnamed, {"path": f"/t/{g.join}/now", "headers": [(b"host", host.encode())]})[0] == status
        )
    # The first Host is the one judged.
    twice = [(b"host", b"evil.example"), (b"host", b"127.0.0.1")]
    assert _asgi(app, {"path": f"/t/{g.join}/now", "headers": twice})[0] == 421
    rebound = {"host": "evil.example", "origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=rebound),
    ):
        pass
    assert closed.value.code == 4403


def test_an_address_that_spent_its_refusals_is_told_once_and_let_go(local: Local) -> None:
    """Unknown codes from one address: refused one by one up to the burst, then every request of
    that address (even with a good code) is told to wait, in both languages, and its connection
    closed; another address is served."""
    g = local.web.pairing()
    app = local.guard
    host = [(b"host", b"127.0.0.1:8000")]
    for _ in range(20):
        assert _asgi(app, {"path": "/t/nothing", "headers": host})[0] == 404
    status, headers, body = _asgi(app, {"path": f"/t/{g.join}/now", "headers": host})
    assert (status, body.decode()) == (
        429,
        "Trop de codes inconnus\u202f: réessayez dans une seconde. "
        "Too many unknown codes: try again in a second.",
    )
    assert headers["connection"] == "close"
    other = {"path": f"/t/{g.join}/now", "headers": host, "client": ("10.0.0.8", 5000)}
    assert _asgi(app, other)[0] == 200
    local.now_ns += 1_000_000_000  # a second later: one code earned back
    assert _asgi(app, {"path": f"/t/{g.join}/now", "headers": host})[0] == 200
    # With no client address (a Unix socket), nothing is counted against anyone.
    assert _asgi(app, {"path": f"/t/{g.join}/now", "headers": host, "client": None})[0] == 200


class Writes:
    """The table's side of the scorer's writes, for the server alone: each write the server
    hands over is kept and answered "recorded", as the table's loop answers a write it applied
    once the step's commit returns (``WebWrite.settle``)."""

    def __init__(self, local: Local) -> None:
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.got: list[Any] = []
        local.web.attach(self.inbox)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while (write := self.inbox.get()) is not None:
            self.got.append(write)
            write.settle(None)

    def close(self) -> None:
        self.inbox.put(None)
        self._thread.join(10)


def test_the_scorers_clock_questions_are_numbered_kept_eight_deep_and_stamp_the_entry(local: Local) -> None:
    """The scorer's page asks the table's clock before an entry: each question is answered with
    the next number, only from the scorer's own page; an entry naming the question is stamped
    when the scorer sent it (the page's clock mapped through the question's round trip), once;
    the table keeps the last eight questions only, and a question asked with another code is
    not believed."""
    g = local.web.pairing()
    own = {"origin": "http://127.0.0.1:8000"}
    clock = f"/score/{g.scorer}/clock"
    for token in (g.seats[0], g.join, "nothing", _other_case(g.scorer)):
        refused = local.client.post(f"/score/{token}/clock", headers=own)
        assert (refused.status_code, refused.text) == (
            403,
            "Code de marqueur inconnu ou retiré\u202f: scannez celui de l’écran de la table. "
            "Unknown or revoked scorer code: scan the one on the table's screen.",
        ), token
    for headers in ({}, {"origin": "http://evil.example"}):
        refused = local.client.post(clock, headers=headers)
        assert (refused.status_code, refused.text) == (
            403,
            "Refusé\u202f: la question ne vient pas de la page du marqueur. "
            "Refused: the question does not come from the scorer's page.",
        )
    assert local.client.get(clock).status_code == 405
    writes = Writes(local)
    try:
        t0 = local.now_ns

        def enter(ident: object, token: str = g.scorer) -> tuple[int, int | None]:
            # The page read its clock at 1,000 ms as the answer came, and sent at 1,001 ms.
            body = {"event": {"type": "draw", "player": "Bruno", "card": "7s"}, "p": 1001.0}
            body["sync"] = {"id": ident, "p": 1000.0}
            sent = local.client.post(f"/score/{token}/submit", json=body, headers=own)
            assert (sent.status_code, sent.json()) == (
                200,
                {"ok": True, "fr": "Enregistré.", "en": "Recorded."},
            )
            write = writes.got[-1]
            assert write.game_id == local.table.game_id
            return write.t_ns, write.res_ns

        assert local.client.post(clock, headers=own).json() == {"id": 1}
        local.now_ns = t0 + 4_000_000  # the entry arrives 4 ms after the answer left
        assert enter(True) == (t0 + 4_000_000, None)  # `true` is no question's number (JSON's 1 is)
        local.now_ns = t0
        asked = [local.client.post(clock, headers=own) for _ in range(9)]
        assert [(a.status_code, a.json()) for a in asked] == [(200, {"id": n}) for n in range(2, 11)]
        local.now_ns = t0 + 4_000_000
        # Sent 1 ms after the page read the answer, which it read at the middle of a 4 ms round
        # trip: t0 + 3 ms, known to half the trip and two steps of the page's clock.
        assert enter(10) == (t0 + 3_000_000, 2_000_000 + 2 * 1_000_000)
        assert enter(10) == (t0 + 4_000_000, None)  # named again: a replay, the arrival
        assert enter(2) == (t0 + 4_000_000, None)  # ten asked: the eight latest are kept
        assert enter(3) == (t0 + 3_000_000, 4_000_000)
        assert enter(0) == (t0 + 4_000_000, None)  # never asked
        assert enter("4") == (t0 + 4_000_000, None)  # a number, not its text
        # Asked with the scorer's code, named with another scorer's: not that page's question.
        local.now_ns = t0 + 10_000_000
        ident = local.client.post(clock, headers=own).json()["id"]
        local.web.revoke("scorer")
        new = local.web.pairing().scorer
        local.now_ns = t0 + 14_000_000
        assert enter(ident, new) == (t0 + 14_000_000, None)
        assert local.client.post(f"/score/{new}/clock", headers=own).json() == {"id": ident + 1}
    finally:
        writes.close()
