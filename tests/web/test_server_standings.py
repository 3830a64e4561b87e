"""The standings' live stream as a phone's browser reads it (``/t/<join>/events``, server-sent
events) from the real server: the page as it is now first, names as written; a comment line when
nothing changes, after which the stream goes on; each commit's page; a viewer that leaves gives
its place back; past ``max_viewers`` one more is told how many already watch."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import companion.web.server as server_module
from companion.games.kilo.events import Press, Verdict
from companion.hardware.web_config import WebConfig
from companion.table.journal import Journal
from tests.review.test_web_mutants import Served

NNBSP = "\u202f"


class Stream:
    """One phone's stream, read line by line on a thread of its own."""

    def __init__(self, url: str) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._client = httpx.Client(timeout=30)
        self._cm = self._client.stream("GET", url)
        self.response = self._cm.__enter__()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                self.lines.put(line)
        except httpx.HTTPError:
            pass
        self.lines.put(None)

    def next_line(self) -> str | None:
        """The next line that is not blank (None: the stream ended)."""
        while (line := self.lines.get(timeout=20)) == "":
            pass
        return line

    def next_page(self) -> dict[str, Any]:
        line = self.next_line()
        assert line is not None and line.startswith("data: "), line
        # Names travel as written, not as \u escapes (a phone's parser reads either; the
        # bytes are half as many).
        assert "\\u00e9" not in line and "Chloé" in line, line[:120]
        return dict(json.loads(line.removeprefix("data: ")))

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self._client.close()
        self._thread.join(10)


@pytest.fixture
def served(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    monkeypatch.setattr(server_module, "KEEPALIVE_S", 0.2)  # a quiet stream speaks soon
    s = Served(journal)
    try:
        yield s
    finally:
        s.web.stop()


def test_a_viewer_reads_the_page_now_then_a_keep_alive_then_each_commit(served: Served) -> None:
    g = served.web.pairing()
    raw: list[bytes] = []
    stream = Stream(f"{served.base}/t/{g.join}/events")
    try:
        assert stream.response.status_code == 200
        assert stream.response.headers["content-type"].startswith("text/event-stream")
        first = stream.next_page()
        assert first == served.web.feed.page and first["players"][2] == "Chloé"
        # Nothing changes: a comment line keeps the connection open, and the stream goes on.
        assert stream.next_line() == ": keep-alive"
        for player, t_us in (("Chloé", 1000), ("Bruno", 1100), ("Alice", 1250), ("Dédé", 1400)):
            served.table.submit(Press(player=player, t_us=t_us))
        served.table.submit(Verdict(valid=True))
        served.web.poke()
        while (page := stream.next_page())["seq"] < first["seq"] + 5:
            pass
        assert page == served.web.feed.page and page["last_slap"]["losers"] == ["Dédé"]
    finally:
        stream.close()
    # The names travel as written, not as \\u escapes (a phone's parser reads either; the
    # bytes are half as many).
    with httpx.Client(timeout=30) as client, client.stream("GET", f"{served.base}/t/{g.join}/events") as r:
        for chunk in r.iter_bytes():
            raw.append(chunk)
            if b"\n\n" in b"".join(raw):
                break
    first_event = b"".join(raw).split(b"\n\n")[0]
    assert "Chloé".encode() in first_event and b"\\u00e9" not in first_event


def test_a_viewer_that_leaves_gives_its_place_back_and_one_too_many_is_told(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stream finds its phone gone when it next writes: soon, at its next keep-alive.
    monkeypatch.setattr(server_module, "KEEPALIVE_S", 0.2)
    s = Served(journal)
    s.web.stop()
    web = server_module.WebServer(
        WebConfig(bind="127.0.0.1", port=0, max_viewers=1),
        journal.data_dir,
        current_game=lambda: s.table.game_id,
    )
    web.watch(journal)
    web.start()
    try:
        from tests.web.test_server import until

        g = until(lambda: web.pairing())
        url = f"http://127.0.0.1:{web.port}/t/{g.join}/events"
        for _ in range(3):  # each leaves before the next comes: never refused
            one = Stream(url)
            assert one.response.status_code == 200 and one.next_page()["game_id"] == s.table.game_id
            one.close()
            until(lambda: not web._viewers)
        one = Stream(url)
        try:
            assert one.next_page()["game_id"] == s.table.game_id
            extra = httpx.get(url, timeout=30)
            assert (extra.status_code, extra.text) == (
                503,
                f"Trop de téléphones regardent déjà (1){NNBSP}: fermez la page sur l’un d’eux. "
                "Too many viewers already (1): close the page on one of them.",
            )
        finally:
            one.close()
    finally:
        web.stop()


# The server's thread must end cleanly: an exception there (a viewer's queue drained wrongly)
# fails this test rather than go by as a warning.
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_stopping_the_server_ends_every_viewers_stream_now(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each viewer's stream ends when the server stops (its page reconnects to the next one),
    not at its next keep-alive: with that an hour away, the server's thread is gone when stop
    returns and each stream has ended."""
    monkeypatch.setattr(server_module, "KEEPALIVE_S", 3600.0)
    s = Served(journal)
    g = s.web.pairing()
    streams = [Stream(f"{s.base}/t/{g.join}/events") for _ in range(2)]
    try:
        for stream in streams:
            assert stream.next_page()["game_id"] == s.table.game_id
        s.web.stop()
        assert s.web._thread is not None and not s.web._thread.is_alive()
        for stream in streams:
            assert stream.next_line() is None  # the stream ended, nothing more in it
    finally:
        for stream in streams:
            stream.close()
        s.web.stop()
