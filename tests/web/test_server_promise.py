"""The phones' watermark as the table reads it (``WebServer.pads_promise``), and the pads' figures
the table screen shows, on one clock moved by hand: at each boundary (a pad silent for exactly a
ping period and its bound, asked exactly its bound ago, holding exactly the instant asked) the
promise is the one docs/phones.md ("Waiting for the phones") describes. The server is not
started: its pads are the sessions the sockets would hold, fed the messages a phone sends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.hardware.web_config import WebConfig
from companion.inputs.base import Promise
from companion.web.pad import MAX_PRESS_AGE_NS, PING_EVERY_NS, PadSession
from companion.web.pairing import Grant
from companion.web.server import WebServer

S = 1_000_000_000
MS = 1_000_000
PHONE_BEHIND_NS = 7 * S  # each phone's clock reads the table's less 7 s


class Table:
    """The phones' server and its pads on one clock, ``now``."""

    def __init__(self, tmp_path: Path) -> None:
        self.now = 100 * S
        self.web = WebServer(
            WebConfig(bind="127.0.0.1", port=0),
            tmp_path,
            current_game=lambda: "g1",
            now_ns=lambda: self.now,
        )
        self.pairing = self.web.pairings.for_game("g1", 4)

    def pad(self, seat: int, *, rtt_ns: int = 4 * MS, step_us: int = 1000) -> PadSession:
        """Seat ``seat``'s phone connected now, its clock synced by one ping answered at the
        middle of a ``rtt_ns`` round trip, and its first press passed (its watermark: now)."""
        session = PadSession(Grant("g1", "seat", seat), self.pairing, lambda: self.now)
        self.web.pads[seat] = session
        session.receive(json.dumps({"t": "hello", "step_us": step_us}))
        ping = json.loads(session.ping())
        self.now += rtt_ns // 2
        answered = (self.now - PHONE_BEHIND_NS) / MS
        self.now += rtt_ns - rtt_ns // 2
        out = session.receive(json.dumps({"t": "pong", "id": ping["id"], "p": answered}))
        assert out.answer is None and out.press is None
        session.publish(self.now)
        return session

    def promise(self) -> Promise:
        return self.web.pads_promise()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_no_pad_promises_now(table: Table) -> None:
    assert table.promise() == Promise("web", table.now, True, (), without=())


def test_a_pad_is_quiet_only_past_a_ping_period_and_its_bound_of_silence(table: Table) -> None:
    alice, bruno = table.pad(0), table.pad(1)
    heard = table.now
    for pad in (alice, bruno):
        pad.receive(json.dumps({"t": "hello", "step_us": 1000}))  # both heard last now
    alice.publish(heard)
    bruno.publish(heard + 1)
    bound = alice.bound_ns
    assert bound == bruno.bound_ns
    table.now = heard + PING_EVERY_NS + bound  # exactly that long: still waited for
    assert table.promise() == Promise("web", heard, True, (0, 1), without=())
    table.now += 1  # a nanosecond more: both quiet, the phones are not live
    assert table.promise() == Promise("web", table.now, False, (0, 1))
    bruno.receive(json.dumps({"t": "hello", "step_us": 1000}))  # Bruno speaks again
    assert table.promise() == Promise("web", heard + 1, True, (0, 1), without=(0,))


def test_a_pad_asked_is_quiet_only_past_its_bound_short_of_the_instant(table: Table) -> None:
    alice, chloe = table.pad(0), table.pad(2)
    start = table.now
    alice.publish(start + 10 * MS)  # passed the instant asked
    chloe.publish(start)  # short of it by 10 ms
    table.web.ask_pads(start + 10 * MS)
    bound = chloe.bound_ns
    # Waited for: the watermark is Chloé's, and hers are the presses that would not count.
    assert table.promise() == Promise("web", start, True, (2,), without=())
    table.now = start + bound  # asked exactly its bound ago: still waited for
    assert table.promise() == Promise("web", start, True, (2,), without=())
    table.now += 1
    # Past it, left out and named: the watermark is Alice's.
    assert table.promise() == Promise("web", start + 10 * MS, True, (0, 2), without=(2,))
    chloe.publish(start + 10 * MS)  # holding exactly the instant asked: passed, not quiet
    assert table.promise() == Promise("web", start + 10 * MS, True, (0, 2), without=())


def test_the_seats_named_are_the_ones_short_of_the_latest_instant_asked(table: Table) -> None:
    alice, bruno, chloe = table.pad(0), table.pad(1), table.pad(2)
    start = table.now
    table.now += 10 * MS  # the watermark is never past now
    alice.publish(start + 5 * MS)
    bruno.publish(start + 3 * MS)  # exactly the instant asked
    chloe.publish(start + 1 * MS)
    table.web.ask_pads(start + 3 * MS)
    assert table.promise() == Promise("web", start + MS, True, (2,), without=())
    chloe.publish(start + 3 * MS)  # every pad at or past it: all seats named
    assert table.promise() == Promise("web", start + 3 * MS, True, (0, 1, 2), without=())


def test_a_question_older_than_the_oldest_press_believed_is_forgotten(table: Table) -> None:
    """An instant asked long ago (a press that old would be refused anyway) no longer makes a
    pad short of it quiet once another question comes."""
    alice, dede = table.pad(0), table.pad(3)
    start = table.now
    table.web.ask_pads(start + S)  # an instant Dédé's pad has not reached; Alice's will
    for now in (start + MAX_PRESS_AGE_NS - 1, start + MAX_PRESS_AGE_NS):
        table.now = now
        alice.publish(start + S)
        for pad in (alice, dede):
            pad.receive(json.dumps({"t": "hello", "step_us": 1000}))  # they speak: never silent
        table.web.ask_pads(start)  # a new question, which Dédé's pad has passed
        if now < start + MAX_PRESS_AGE_NS:  # not yet forgotten: short of it, past its bound
            assert table.promise() == Promise("web", start + S, True, (0, 3), without=(3,))
    # Exactly that old: forgotten at the new question.
    assert table.promise() == Promise("web", start, True, (0, 3), without=())


def test_the_table_screen_says_each_seats_resolution_rounded_up(table: Table) -> None:
    """A seat synced over a 0.200002 ms round trip on a 0.1 ms clock step is known to
    0.300001 ms: the screen says ± 0,4 ms (tenths, rounded up), the status figures 301 µs and
    200 µs; a seat not paired says its number only."""
    table.pad(1, rtt_ns=200_002, step_us=100)
    table.web.base_url = "http://table.example:8080"
    labels = [(label.fr, label.en, url) for label, url, _ in table.web.codes()]
    g = table.pairing
    assert labels == [
        ("Classement", "Standings", f"http://table.example:8080/t/{g.join}"),
        ("Place 1", "Seat 1", f"http://table.example:8080/pad/{g.seats[0]}"),
        ("Place 2 ± 0,4 ms", "Seat 2 ± 0.4 ms", f"http://table.example:8080/pad/{g.seats[1]}"),
        ("Place 3", "Seat 3", f"http://table.example:8080/pad/{g.seats[2]}"),
        ("Place 4", "Seat 4", f"http://table.example:8080/pad/{g.seats[3]}"),
        ("Marqueur", "Scorer", f"http://table.example:8080/score/{g.scorer}"),
    ]
    assert table.web.status() == [(1, 301, 200)]


def test_a_pad_not_synced_yet_has_no_figures_on_the_status_screen(table: Table) -> None:
    """Paired, its first pong not in yet: no resolution, no round trip, and its seat's code says
    its number only."""
    table.web.pads[0] = PadSession(Grant("g1", "seat", 0), table.pairing, lambda: table.now)
    assert table.web.status() == [(0, None, None)]
    assert [label.en for label, _, _ in table.web.codes()][1] == "Seat 1"
