"""A seat's phone pairing with the table, as the phone and the table each see it: the phone is
told its seat, the game, the players' names as written and its seat's colour; the table is told
"the phone of seat N is paired" (seats counted from 1) and, when it goes, "… left"; a second
phone on the same seat takes it and the first is closed with 4409 (the newest wins)."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from companion.display.theme import seat_color
from companion.inputs.base import SourceStatus
from companion.table.journal import Journal
from tests.review.test_web_mutants import PLAYERS, Local
from tests.web.test_server import until

OWN = {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}  # the seat's own page


def receive_text(ws: Any, timeout: float = 10) -> str:
    """The next text from the server, or the close it sent (``WebSocketDisconnect``); a test
    fails after ``timeout`` rather than hang on a message that never comes (the test client's
    own receive waits for ever)."""
    got: queue.Queue[tuple[str | None, BaseException | None]] = queue.Queue()

    def read() -> None:
        try:
            got.put((ws.receive_text(), None))
        except BaseException as exc:  # the close, handed to the test's thread
            got.put((None, exc))

    threading.Thread(target=read, daemon=True).start()
    text, exc = got.get(timeout=timeout)
    if exc is not None:
        raise exc
    assert text is not None
    return text


def seat_message(ws: Any) -> tuple[str, dict[str, Any]]:
    """The first message that is not a clock question, as text and as read."""
    while True:
        text = receive_text(ws)
        message = json.loads(text)
        if message["t"] not in ("ping", "sync"):
            return text, message


def statuses(events: queue.Queue[Any], count: int) -> list[SourceStatus]:
    got: list[SourceStatus] = []
    while len(got) < count:
        item = events.get(timeout=10)
        if isinstance(item, SourceStatus):
            got.append(item)
    return got


def test_a_phone_is_told_its_seat_and_the_table_that_it_is_paired_and_gone(local: Local) -> None:
    g = local.web.pairing()
    events: queue.Queue[Any] = queue.Queue()
    local.web.attach(events)
    with local.client.websocket_connect(f"/pad/{g.seats[2]}/ws", headers=OWN) as ws:
        text, seat = seat_message(ws)
        r, gr, b = seat_color(2)[:3]
        assert seat == {
            "t": "seat",
            "seat": 2,
            "g": local.table.game_id,
            "players": PLAYERS,
            "color": f"#{r:02x}{gr:02x}{b:02x}",
        }
        assert "Chloé" in text  # names as written, not \u escapes
        assert len(seat["color"]) == 7
        (paired,) = statuses(events, 1)
        assert paired == SourceStatus(
            "web", "connected", 2, "The phone of seat 3 is paired.", "Le téléphone de la place 3 est appairé."
        )
    (left,) = statuses(events, 1)
    assert left == SourceStatus(
        "web", "info", 2, "The phone of seat 3 left.", "Le téléphone de la place 3 est parti."
    )
    until(lambda: 2 not in local.web.pads)


def test_a_second_phone_on_a_seat_takes_it_and_the_first_is_closed(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the real server (a client that can wait with a limit: a first phone left open by a
    mistake fails the test, never hangs it), its clock questions an hour apart."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    import companion.web.server as server_module
    from tests.review.test_web_mutants import Served

    monkeypatch.setattr(server_module, "PING_EVERY_NS", 3600 * 10**9)

    served = Served(journal)
    try:
        g = served.web.pairing()
        events: queue.Queue[Any] = queue.Queue()
        served.web.attach(events)
        url, origin = f"ws://127.0.0.1:{served.web.port}/pad/{g.seats[0]}/ws", served.base

        def seat_of(ws: Any) -> int:
            while (m := json.loads(ws.recv(timeout=10)))["t"] != "seat":
                pass
            return int(m["seat"])

        with connect(url, origin=origin, open_timeout=10) as first:  # type: ignore[call-overload]
            assert seat_of(first) == 0
            with connect(url, origin=origin, open_timeout=10) as second:  # type: ignore[call-overload]
                assert seat_of(second) == 0
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        first.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409

        def told() -> list[tuple[str, int | None]]:
            return [(e.kind, e.seat) for e in list(events.queue) if isinstance(e, SourceStatus)]

        until(lambda: 0 not in served.web.pads and ("info", 0) in told())
        # The seat was the second phone's: the first's leaving told the table nothing, the
        # second's once.
        assert told() == [("connected", 0), ("connected", 0), ("info", 0)]
    finally:
        served.web.stop()


def test_a_phone_talking_in_binary_frames_is_read_as_in_text(local: Local) -> None:
    """A browser may send a message as a binary frame: it is the same message (a hello is
    answered with the phone's figures), and the phone is not held to have said nothing."""
    g = local.web.pairing()
    with local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=OWN) as ws:
        seat_message(ws)
        ws.send_bytes(json.dumps({"t": "hello", "step_us": 1000}).encode())
        while (answer := json.loads(receive_text(ws)))["t"] == "ping":
            pass
        assert answer == {"t": "sync", "res_us": None, "rtt_us": None}
        assert local.web.pads[0].strikes == 0


def test_a_phone_that_keeps_sending_nonsense_is_closed_with_4400(local: Local) -> None:
    from companion.web.pad import STRIKES

    g = local.web.pairing()
    with local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=OWN) as ws:
        seat_message(ws)
        for _ in range(STRIKES - 1):
            ws.send_text("not json")
            assert seat_message(ws)[1]["t"] == "no"
        ws.send_text("not json")
        assert seat_message(ws)[1]["t"] == "no"  # the last refusal is said, then it is closed
        with pytest.raises(WebSocketDisconnect) as closed:
            seat_message(ws)
        assert closed.value.code == 4400


def test_a_phone_of_the_last_game_is_closed_with_4401_at_its_next_message(local: Local) -> None:
    """A new game began at the table: a press from the last game's phone, sent before its
    next ping, is not journaled in the new game; its socket is closed with 4401 (the page then
    asks for the new code)."""
    g = local.web.pairing()
    events: queue.Queue[Any] = queue.Queue()
    local.web.attach(events)
    with local.client.websocket_connect(f"/pad/{g.seats[1]}/ws", headers=OWN) as ws:
        seat_message(ws)
        game = local.web.current_game
        local.web.current_game = lambda: "another-game"
        try:
            ws.send_text(json.dumps({"t": "press", "n": 1, "p": 1.0, "g": g.game_id}))
            with pytest.raises(WebSocketDisconnect) as closed:
                seat_message(ws)
            assert closed.value.code == 4401
        finally:
            local.web.current_game = game
    assert not any(getattr(e, "edge", None) == "press" for e in list(events.queue))


def test_every_eighth_ping_is_followed_by_the_phones_own_figures(
    local: Local, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phone shows how well its presses are known: after every eighth question of the
    clock (SYNC_EVERY), its figures, never between."""
    import companion.web.server as server_module

    monkeypatch.setattr(server_module, "PING_EVERY_NS", 20_000_000)  # a question every 20 ms
    g = local.web.pairing()
    with local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=OWN) as ws:
        assert json.loads(receive_text(ws))["t"] == "seat"
        kinds = [json.loads(receive_text(ws))["t"] for _ in range(2 * (server_module.SYNC_EVERY + 1))]
    assert server_module.SYNC_EVERY == 8
    assert kinds == (["ping"] * 8 + ["sync"]) * 2


def test_a_socket_with_anything_but_a_seats_code_from_its_page_is_closed_with_4403(local: Local) -> None:
    """Behind a server that does not refuse the handshake itself (the app served by another
    ASGI server, or a code revoked meanwhile), the socket's own look refuses it."""
    g = local.web.pairing()
    for token, headers in (
        ("A" * 22, OWN),
        (g.join, OWN),
        (g.scorer, OWN),
        (g.seats[0], {"host": "127.0.0.1:8000", "origin": "http://evil.example"}),
    ):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            local.client.websocket_connect(f"/pad/{token}/ws", headers=headers) as ws,
        ):
            receive_text(ws)
        assert closed.value.code == 4403, token


def test_a_table_that_let_go_of_the_phones_is_told_nothing_more_and_they_still_play(local: Local) -> None:
    """The table's loop stops listening (``detach``): a phone still pairs and is asked the
    time, and nothing more reaches that loop; another loop's queue is not let go by it."""
    g = local.web.pairing()
    mine: queue.Queue[Any] = queue.Queue()
    other: queue.Queue[Any] = queue.Queue()
    local.web.attach(mine)
    local.web.detach(other)  # not the one listening: nothing changes
    with local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=OWN) as ws:
        assert seat_message(ws)[1]["seat"] == 0
    until(lambda: [type(e).__name__ for e in list(mine.queue)] == ["SourceStatus", "SourceStatus"])
    local.web.detach(mine)
    with local.client.websocket_connect(f"/pad/{g.seats[1]}/ws", headers=OWN) as ws:
        assert seat_message(ws)[1]["seat"] == 1
        assert json.loads(receive_text(ws))["t"] == "ping"  # its socket lives on
    until(lambda: 1 not in local.web.pads)
    assert len(mine.queue) == 2 and other.empty()


def test_a_new_game_closes_the_last_games_phones_with_4401_at_once(
    local: Local, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's next game is journaled: each phone of the last game is closed with 4401
    when the server learns of it, not at its next clock question (an hour away here)."""
    import companion.web.server as server_module

    monkeypatch.setattr(server_module, "PING_EVERY_NS", 3600 * 10**9)
    g = local.web.pairing()
    with local.client.websocket_connect(f"/pad/{g.seats[0]}/ws", headers=OWN) as ws:
        assert seat_message(ws)[1]["seat"] == 0
        local.web.current_game = lambda: "the-next-game"
        local.web.poke()
        with pytest.raises(WebSocketDisconnect) as closed:
            seat_message(ws)
        assert closed.value.code == 4401


def test_a_phone_paired_before_the_first_page_is_told_no_names_yet(tmp_path: Any) -> None:
    """The server has no standings yet (no journal read): the seat's message names no players,
    as an empty list the page's script can read, not null."""
    from starlette.testclient import TestClient

    from companion.hardware.web_config import WebConfig
    from companion.web.server import WebServer

    web = WebServer(WebConfig(bind="127.0.0.1", port=0), tmp_path, current_game=lambda: "g1")
    token = web.pairings.for_game("g1", 3).seats[0]
    assert web.feed.page is None
    with (
        TestClient(web.app, base_url="http://127.0.0.1:8000") as client,
        client.websocket_connect(f"/pad/{token}/ws", headers=OWN) as ws,
    ):
        assert seat_message(ws)[1]["players"] == []
