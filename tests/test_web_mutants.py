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
from companion.web.server import WebServer
from tests.test_web import until

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
