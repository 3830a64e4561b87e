"""The questions the server puts to a pad while a decision waits for it (docs/phones.md,
"Waiting for the phones"), on one clock moved by hand and a loop whose timers the test fires:
a pad short of the instant is pinged at once, one question at a time unless the last went
unanswered for the pad's bound; and asked again when a ping sent then reaches the phone after
the instant plus twice its uncertainty and its input allowance (its way out: half its best
round trip), never sooner than ``ASK_GAP_NS`` after an answer; a pad at or past the instant is
not asked."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web.pad import PadSession
from companion.web.server import ASK_GAP_NS
from tests.web.test_server_promise import MS, Table


class Socket:
    """The server's end of a pad's socket: what it sends, read back."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def pings(self) -> list[int]:
        return [m["id"] for m in self.sent if m["t"] == "ping"]


class Loop(asyncio.SelectorEventLoop):
    """An event loop whose timers are kept for the test to fire (``later``: the delay asked, in
    seconds, and what to call), never by the clock."""

    def __init__(self) -> None:
        super().__init__()
        self.later: list[tuple[float, Callable[[], object]]] = []

    def call_later(  # type: ignore[override]
        self, delay: float, callback: Callable[..., object], *args: Any, context: Any = None
    ) -> Any:
        self.later.append((delay, lambda: callback(*args)))
        return super().call_later(3600, lambda: None)


class Asks:
    """Seat 2's pad, synced over a 4.000001 ms round trip, its socket, and the server's loop."""

    def __init__(self, tmp_path: Path) -> None:
        self.table = Table(tmp_path)
        self.web = self.table.web
        self.rtt = 4 * MS + 1  # odd: half of it is not a whole nanosecond
        self.pad: PadSession = self.table.pad(1, rtt_ns=self.rtt)
        self.socket = Socket()
        self.web._pad_ws[1] = self.socket  # type: ignore[assignment]
        self.loop = Loop()

    def run(self, step: Callable[[], object]) -> None:
        """``step`` on the server's loop, and the sends it started."""

        async def go() -> None:
            step()
            while self.web._tasks:
                await asyncio.gather(*self.web._tasks)

        self.loop.run_until_complete(go())

    def reach_ns(self, target: int) -> int:
        """How long from now until a ping sent reaches the phone past ``target`` and its
        allowances, worked out here from the pad's own figures."""
        unc = self.pad.resolution_ns()
        assert unc is not None
        return target + 2 * unc + self.pad.lag_ns - self.rtt // 2 - self.table.now


@pytest.fixture
def asks(tmp_path: Path) -> Iterator[Asks]:
    a = Asks(tmp_path)
    yield a
    a.loop.close()


def test_a_pad_short_of_the_instant_is_pinged_at_once_and_again_when_it_can_pass(asks: Asks) -> None:
    start = asks.table.now
    target = start + 50 * MS
    asks.web.ask_pads(target)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2]  # the sync's was 1
    assert (asks.pad.ask_id, asks.pad.ask_at) == (2, start)
    wait = asks.reach_ns(target)
    # 50 ms ahead, twice its uncertainty (4.000001 ms), its allowance (16 ms), less its way out
    # (2 ms, half its trip rounded down).
    assert wait == 50 * MS + 2 * 4_000_001 + 16 * MS - 2 * MS
    assert [d for d, _ in asks.loop.later] == [wait / 1e9]
    # Asked again at once, and later, while its question is out: no second ping, no second timer.
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2] and len(asks.loop.later) == 1
    asks.table.now = start + asks.pad.bound_ns - 1
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2] and len(asks.loop.later) == 1
    # Unanswered for exactly its bound: asked anew.
    asks.table.now = start + asks.pad.bound_ns
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2, 3]
    # The timer fires: a ping, whatever is out; the instant is within reach, no timer more.
    _, fire = asks.loop.later.pop()
    asks.run(fire)
    assert asks.socket.pings() == [2, 3, 4] and asks.loop.later == []
    assert asks.pad.ask_timer is False


def test_a_pad_whose_next_ping_passes_the_instant_gets_no_timer(asks: Asks) -> None:
    """Planned only when a ping sent now would not pass: at a wait of exactly 0 nothing is
    planned, at 1 ns it is."""
    asks.table.now += 100 * MS  # the pad's watermark stays 100 ms back
    start = asks.table.now
    first = asks.reach_ns(start + MS) - MS  # the wait for the instant ``start``
    target = start - first  # a wait of exactly 0
    assert target > asks.pad.holds_ns()
    asks.web.ask_pads(target)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2] and asks.loop.later == []
    asks.web.ask_pads(target + 1)  # 1 ns later: a wait of 1 ns, planned (its question is out)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2] and [d for d, _ in asks.loop.later] == [1e-9]


def test_a_pad_at_the_instant_asked_is_not_asked(asks: Asks) -> None:
    asks.web.ask_pads(asks.pad.holds_ns())  # exactly where it is
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [] and asks.loop.later == []


def test_an_answer_still_short_is_asked_again_no_sooner_than_the_gap(asks: Asks) -> None:
    start = asks.table.now
    target = start + 3 * MS  # near: the planned wait is below the gap
    asks.web.ask_pads(target)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2]
    asks.loop.later.pop()  # (the first plan, not fired: the answer comes first)
    asks.pad.ask_timer = False
    # The phone answers question 2 over the same round trip; still short of the instant.
    asks.table.now += asks.rtt // 2
    answered = (asks.table.now - 7_000_000_000) / MS
    asks.table.now += asks.rtt - asks.rtt // 2
    asks.pad.receive(json.dumps({"t": "pong", "id": 2, "p": answered}))
    asks.run(lambda: asks.web._follow(asks.pad))
    assert asks.pad.ask_id is None
    assert [d for d, _ in asks.loop.later] == [max(ASK_GAP_NS, asks.reach_ns(target)) / 1e9]
    assert asks.reach_ns(target) > 0


def test_a_question_as_old_as_the_oldest_press_believed_is_not_chased(asks: Asks) -> None:
    from companion.web.pad import MAX_PRESS_AGE_NS

    start = asks.table.now
    asks.web.ask_pads(start + 50 * MS)
    asks.table.now = start + MAX_PRESS_AGE_NS  # exactly that old: a press then is refused anyway
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [] and asks.loop.later == []


def test_a_pad_not_synced_yet_is_asked_again_after_its_allowance(asks: Asks) -> None:
    """No round trip and no uncertainty known yet: the wait is the instant plus the allowance."""
    fresh = PadSession(asks.pad.grant, asks.table.pairing, lambda: asks.table.now)
    asks.web.pads[1] = fresh
    assert fresh.resolution_ns() is None and fresh.clock.min_rtt_ns is None
    target = asks.table.now + 50 * MS
    asks.web.ask_pads(target)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [1]
    assert [d for d, _ in asks.loop.later] == [(50 * MS + fresh.lag_ns) / 1e9]


def test_a_timer_of_a_pad_since_replaced_asks_nothing_of_the_new_one(asks: Asks) -> None:
    """The phone reconnected (a new session on the same seat) before the old one's timer
    fired: the old session's question is not sent on the new phone's socket."""
    asks.web.ask_pads(asks.table.now + 50 * MS)
    asks.run(asks.web._chase)
    assert asks.socket.pings() == [2]
    _, fire = asks.loop.later.pop()
    asks.web.pads[1] = PadSession(asks.pad.grant, asks.table.pairing, lambda: asks.table.now)
    asks.run(fire)
    assert asks.socket.pings() == [2]
