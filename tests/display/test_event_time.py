"""Issue 34 through the real main loop: a decision waits for every source's watermark, a press
made after it never counts in it, a press still on its way counts, one that comes too late is
named, journaled and re-judges a verdict no draw has followed, and a stop does not run a slap
window's timeout (docs/decisions.md, "Event time")."""

from __future__ import annotations

import json
import os
import queue
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from companion.display.app import App
from companion.display.event_time import MARGIN_NS
from companion.games.kilo.actions import Continue, DrawCard, PickRank
from companion.games.kilo.events import NewKiloGame
from companion.games.kilo.tally import tally
from companion.games.kilo.ui_state import kilo_ui
from companion.inputs.base import Clock, InputEvent, Promise, host_epoch
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import table_app

PLAYERS = ["Alice", "Bob", "Chloé", "Dédé"]
TABLE = Clock("CLOCK_MONOTONIC", 1000)  # the table clock: a stamp compared with a decision's
MS = 1_000_000


class TableClock:
    """The table clock of a test: it moves only when the test says (so a race is exact)."""

    def __init__(self) -> None:
        self.t = 5_000 * 10**9

    def __call__(self) -> int:
        return self.t


class LagSource:
    """Buttons whose presses are on their way for a while, as a GPIO line's are while its
    debouncer decides: the test makes a press (``touch``) and lets it through (``deliver``).
    Its watermark is honest: the table clock's now, held back to the earliest press made and
    not yet on the queue; ``live`` False when the test unplugs it."""

    name = "gpio"
    lateness_ns = 7 * MS

    def __init__(self, clock: TableClock, *, deliver_on_ask: bool = False) -> None:
        self.table_clock = clock
        self.deliver_on_ask = deliver_on_ask
        self.on_the_way: list[tuple[int, int]] = []
        self.asked: list[int] = []
        self.live = True
        self.events: queue.Queue[Any] | None = None

    def start(self, events: queue.Queue[Any]) -> None:
        self.events = events

    def stop(self) -> None:
        pass

    def touch(self, seat: int, t_ns: int) -> None:
        self.on_the_way.append((seat, t_ns))

    def deliver(self) -> None:
        assert self.events is not None
        for seat, t_ns in sorted(self.on_the_way, key=lambda x: x[1]):
            self.events.put(InputEvent("seat", seat, "press", t_ns, TABLE, "gpio"))
            self.events.put(InputEvent("seat", seat, "release", t_ns + 80 * MS, TABLE, "gpio"))
        self.on_the_way.clear()

    def promise(self) -> Promise:
        now = self.table_clock()
        held = min((t for _, t in self.on_the_way), default=now)
        return Promise(self.name, min(now, held), self.live, (2, 3))

    def ask(self, t_ns: int) -> None:
        self.asked.append(t_ns)
        if self.deliver_on_ask:
            self.deliver()


def make_app(screen: pygame.Surface, journal: Journal, **kw: Any) -> tuple[App, LagSource, TableClock]:
    clock = TableClock()
    source = LagSource(clock, **kw)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
    app = table_app(
        screen,
        journal,
        table,
        lambda n, s: source,
        source_name="gpio",
        table_ns=clock,
    )
    app.step()
    return app, source, clock


def settle(app: App) -> None:
    """Steps of the loop until it has handled what it can: a step stops at its time budget on a
    loaded machine, the rest waits for the next one (a decision waiting for a watermark stays)."""
    for _ in range(50):
        app.step()
        if app.inbox.empty() and (not app.arrivals.early or app.arrivals.gate is not None):
            return


def press(app: App, seat: int, t_ns: int) -> None:
    app.inbox.put(InputEvent("seat", seat, "press", t_ns, TABLE, "gpio"))
    app.inbox.put(InputEvent("seat", seat, "release", t_ns + 80 * MS, TABLE, "gpio"))


def return_key() -> None:
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    )


def journaled(journal: Journal, app: App) -> list[dict[str, Any]]:
    assert app.table is not None
    return [json.loads(p) for _, p in journal.payloads(app.table.game_id)]


def kinds(journal: Journal, app: App) -> list[str]:
    return [e["type"] for e in journaled(journal, app)[1:]]


def same_on_replay(journal: Journal, app: App) -> None:
    """The journal replays to the live state, and the stats fold judges its slaps the same."""
    assert app.table is not None and app.game is not None
    lines = [p for _, p in journal.payloads(app.table.game_id)]
    assert replay(lines).to_json() == app.game.to_json()
    events = [json.loads(x) for x in lines]
    folded = tally(events[0], events[1:])
    last = app.game.last_slap
    assert last is not None
    assert folded.slaps[-1].losers == last.losers
    assert [p for p, _ in folded.slaps[-1].order] == [p for p, _ in last.order]


def open_window(app: App, clock: TableClock, seats: tuple[int, ...] = (0, 1)) -> None:
    for i, seat in enumerate(seats):
        press(app, seat, clock.t - (len(seats) - i) * 40 * MS)
    settle(app)
    assert app.game is not None and app.game.awaiting == "verdict"


def test_a_press_made_before_the_decision_and_still_on_its_way_counts(
    screen: pygame.Surface, journal: Journal
) -> None:
    """Issue 34 case 1: Chloé's edge is 3 ms before Return, still in the debouncer; Dédé never
    slapped. Only Dédé draws, and the verdict waits for Chloé's press to be on the queue."""
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    source.touch(2, clock.t - 3 * MS)  # Chloé, 3 ms before the key is read
    return_key()
    settle(app)
    assert "verdict" not in kinds(journal, app), "decided before Chloé's press was in"
    assert source.asked == [clock.t], "the source is asked once for the decision's instant"
    clock.t += 4 * MS
    source.deliver()  # the debouncer is sure now
    settle(app)
    assert kinds(journal, app) == ["press", "press", "press", "close", "verdict"]
    assert app.game is not None and app.game.owed_draws == ("Dédé",)
    assert source.asked == [clock.t - 4 * MS]
    same_on_replay(journal, app)


def test_a_source_asked_for_its_watermark_lets_the_decision_go_in_the_same_step(
    screen: pygame.Surface, journal: Journal
) -> None:
    app, source, clock = make_app(screen, journal, deliver_on_ask=True)
    open_window(app, clock)
    source.touch(2, clock.t - 1 * MS)
    return_key()
    settle(app)
    assert kinds(journal, app) == ["press", "press", "press", "close", "verdict"]
    assert app.game is not None and app.game.owed_draws == ("Dédé",)


def test_a_press_made_after_the_decision_never_counts_in_it_though_queued_before_the_key_is_read(
    screen: pygame.Surface, journal: Journal
) -> None:
    """Issue 34 case 1, the other way round: Dédé's press is stamped 30 ms after Return and is
    on the queue before the loop reads the key (a loop held up for 30 ms). It belongs to no
    window: the judged slap is Alice, Bob, Chloé, and Dédé is the one who never slapped."""
    app, _, clock = make_app(screen, journal)
    open_window(app, clock, (0, 1, 2))
    return_key()
    # The loop reads the key at clock.t (the decision's instant) but is held up before it
    # takes the queue: Dédé's press, made 30 ms after the key is read, is on it by then.
    press(app, 3, clock.t + 30 * MS)
    settle(app)
    events = journaled(journal, app)[1:]
    assert [e["type"] for e in events] == ["press", "press", "press", "close", "verdict", "press"]
    assert events[3]["t_us"] == clock.t // 1000 - 1  # the last µs before the decision
    game = app.game
    assert game is not None and game.last_slap is not None
    assert [p for p, _ in game.last_slap.order] == ["Alice", "Bob", "Chloé"]
    assert game.last_slap.non_pressers == ("Dédé",)
    same_on_replay(journal, app)


def test_a_source_that_cannot_promise_in_time_is_named_and_its_late_press_rejudges_the_verdict(
    screen: pygame.Surface, journal: Journal
) -> None:
    """Chloé's press is stamped before Return but her source stays silent past its bound: the
    verdict goes on without her (both Chloé and Dédé owe a draw) and the screen names the
    seats not counted. Her press then arrives: journaled with its stamp, and since no draw has
    followed the verdict, it is judged again (undo, the same close and verdict): only Dédé."""
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    decided = clock.t
    source.touch(2, decided - 5 * MS)
    return_key()
    settle(app)
    assert "verdict" not in kinds(journal, app)
    clock.t = decided + source.lateness_ns + MARGIN_NS  # the bound: the decision goes on
    settle(app)
    assert kinds(journal, app) == ["press", "press", "close", "verdict"]
    game = app.game
    assert game is not None and game.owed_draws == ("Chloé", "Dédé")
    assert app.ui.message is not None
    assert app.ui.message.fr == "Les boutons du Pi ne répondent pas\u202f: sièges 3 et 4 non comptés"
    assert app.ui.message.en == "The Pi's buttons do not answer: seats 3 and 4 not counted"
    source.deliver()  # her press comes in at last
    settle(app)
    assert kinds(journal, app)[4:] == ["press", "undo", "close", "verdict"]
    events = journaled(journal, app)[1:]
    assert events[6]["t_us"] == events[2]["t_us"] == decided // 1000 - 1  # the same close
    assert game.owed_draws == ("Dédé",)
    assert game.last_slap is not None and game.last_slap.late == (("Chloé", (decided - 5 * MS) // 1000),)
    assert app.ui.message is not None and "rejugé" in app.ui.message.fr
    app.redraw()
    shown = " ".join(r.text for r in app.painter.texts) if app.painter else ""
    assert "arrivé après le verdict" in shown, shown
    same_on_replay(journal, app)


def test_a_late_press_after_the_draw_is_only_recorded_and_shown(
    screen: pygame.Surface, journal: Journal
) -> None:
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    decided = clock.t
    source.touch(2, decided - 5 * MS)
    return_key()
    settle(app)
    clock.t = decided + source.lateness_ns + MARGIN_NS
    settle(app)
    game = app.game
    assert game is not None and game.owed_draws == ("Chloé", "Dédé")
    app.do(Continue())
    app.do(PickRank("9"))
    app.do(DrawCard())
    settle(app)
    assert game.owed_draws == ("Dédé",)
    source.deliver()
    settle(app)
    assert kinds(journal, app)[-2:] == ["draw", "press"], "no undo after a draw: only recorded"
    assert game.owed_draws == ("Dédé",)
    assert game.late_presses == (("Chloé", (decided - 5 * MS) // 1000),)
    assert game.to_json()["late"] == [
        {"player": "Chloé", "t_us": (decided - 5 * MS) // 1000, "counted": False}
    ]
    assert app.ui.message is not None and "noté, non compté" in app.ui.message.fr
    app.ui.screen = "slap"
    app.redraw()
    shown = " ".join(r.text for r in app.painter.texts) if app.painter else ""
    assert "arrivé après le verdict" in shown, shown
    lines = [p for _, p in journal.payloads(app.table.game_id)] if app.table else []
    assert replay(lines).to_json() == game.to_json()


def test_an_unplugged_source_is_not_waited_for(screen: pygame.Surface, journal: Journal) -> None:
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    source.touch(2, clock.t - 5 * MS)
    source.live = False
    return_key()
    settle(app)
    assert kinds(journal, app) == ["press", "press", "close", "verdict"]
    assert app.ui.message is not None and app.ui.message.en == (
        "The Pi's buttons no longer answer: seats 3 and 4 not counted"
    )


def test_the_loop_draws_and_reads_quit_while_a_decision_waits(
    screen: pygame.Surface, journal: Journal
) -> None:
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    source.touch(2, clock.t - 1 * MS)
    return_key()
    settle(app)
    frames = app.frames
    app.dirty = True
    settle(app)
    assert app.frames == frames + 1, "no frame while the decision waits"
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    settle(app)
    assert not app.running
    assert "verdict" not in kinds(journal, app)


def test_a_stop_inside_a_window_does_not_run_its_timeout(screen: pygame.Surface, journal: Journal) -> None:
    """Issue 34 case 3: the companion is killed 1 s into a 5 s window (Alice and Bob slapped);
    it is taken up 12 s later. The stop is journaled (``outage``) and said, and Chloé and Dédé,
    who slap 1 s after the resume, count: only the last of them draws."""
    clock = TableClock()
    epoch = host_epoch()
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
    first = clock.t // 1000
    from companion.games.kilo.events import Press

    for i, player in enumerate(["Alice", "Bob"]):
        table.submit(Press(player=player, t_us=first + i * 1_000_000, clock="CLOCK_MONOTONIC", epoch=epoch))
    game_id = table.game_id
    # kill -9 here; 12 s later, `companion resume`:
    clock.t += 13 * 10**9
    resumed = Table.resume(journal, game_id)
    source = LagSource(clock)
    app = table_app(
        screen,
        journal,
        resumed,
        lambda n, s: source,
        source_name="gpio",
        table_ns=clock,
    )
    settle(app)
    events = journaled(journal, app)[1:]
    assert events[-1] == {"type": "outage", "from_us": first + 1_000_000, "to_us": clock.t // 1000 - 1}
    assert app.ui.message is not None
    assert app.ui.message.fr == "Fenêtre coupée par un arrêt de 12 s\u202f: le délai reprend"
    clock.t += 10**9
    press(app, 2, clock.t)
    press(app, 3, clock.t + 50 * MS)
    settle(app)
    clock.t += 100 * MS
    return_key()
    settle(app)
    game = app.game
    assert game is not None and game.last_slap is not None
    assert [p for p, _ in game.last_slap.order] == PLAYERS
    assert game.owed_draws == ("Dédé",)
    same_on_replay(journal, app)


def test_a_reboot_inside_a_window_is_said_and_no_outage_is_journaled(
    screen: pygame.Surface, journal: Journal
) -> None:
    from companion.games.kilo.events import Press

    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "gpio"})
    table.submit(Press(player="Alice", t_us=10**6, clock="CLOCK_MONOTONIC", epoch="boot:an-earlier-boot"))
    clock = TableClock()
    source = LagSource(clock)
    app = table_app(
        screen,
        journal,
        Table.resume(journal, table.game_id),
        lambda n, s: source,
        source_name="gpio",
        lang="en",
        table_ns=clock,
    )
    settle(app)
    assert kinds(journal, app) == ["press"]
    assert app.ui.message is not None
    assert app.ui.message.en == "The table restarted during the window: only the slaps before the stop count"


def test_the_sources_left_out_are_named_in_both_languages() -> None:
    from companion.display.event_time import left_out_message

    said = left_out_message([Promise("serial", None, True, (2, 3)), Promise("web", 5, False, (0,))])
    fr, en = said.fr, said.en
    assert fr == (
        "La carte des boutons ne répond pas\u202f: sièges 3 et 4 non comptés\u202f; "
        "les téléphones ne répondent plus\u202f: siège 1 non compté"
    )
    assert en == (
        "The button board does not answer: seats 3 and 4 not counted; "
        "the phones no longer answer: seat 1 not counted"
    )


def test_a_promise_that_passed_without_some_seats_names_them_and_only_them() -> None:
    """A source serving seats 3 and 4 whose watermark passed is not named; one whose watermark
    passed without seat 4 (a phone gone quiet among others) names seat 4 alone."""
    from companion.display.event_time import Gate

    class Fixed:
        lateness_ns = 0

        def __init__(self, promise: Promise) -> None:
            self.p = promise

        def promise(self) -> Promise:
            return self.p

        def ask(self, t_ns: int) -> None:
            pass

    fine = Fixed(Promise("gpio", 10, True, (2, 3)))
    partial = Fixed(Promise("web", 10, True, (2, 3), without=(3,)))
    gate = Gate(10, [fine, partial])
    assert gate.look(10)
    assert [(p.source, p.seats) for p in gate.left_out] == [("web", (3,))]


def test_a_combined_sources_part_promises_only_what_is_on_the_main_queue() -> None:
    """A part of ``gpio+serial`` promises about its own queue; the combined source's forwarding
    thread has yet to move its presses to the main loop's. The part's promise holds for the
    main queue once the forwarder has passed it, never before."""
    from companion.inputs.registry import _STOP, CombinedSource, _Forwarded

    class Part:
        name = "gpio"
        clock = TABLE
        lateness_ns = 1

        def start(self, events: Any) -> None:
            pass

        def stop(self) -> None:
            pass

        def promise(self) -> Promise:
            return Promise("gpio", 42 * MS)

        def ask(self, t_ns: int) -> None:
            pass

    part = Part()
    combined = CombinedSource([part])
    inner: queue.Queue[Any] = queue.Queue()
    main: queue.Queue[Any] = queue.Queue()
    inner.put(InputEvent("seat", 0, "press", 41 * MS, TABLE, "gpio"))  # the part's, before 42 ms
    forwarded = _Forwarded(part, inner)
    assert forwarded.promise().watermark_ns is None, "promised before its press was forwarded"
    inner.put(_STOP)
    combined._forward(part, inner, main)  # the forwarding thread's work, here
    assert forwarded.promise().watermark_ns == 42 * MS
    assert main.get_nowait().t_ns == 41 * MS


def test_keys_are_read_every_few_ms_while_a_window_is_open(screen: pygame.Surface, journal: Journal) -> None:
    """A decision's instant is the read that finds it: no idle poll may stretch it while a
    window is open (the idle polls are 19-50 ms)."""
    from companion.display.app import DECISION_POLL_S
    from companion.inputs.base import EventInbox

    class Recording(EventInbox):
        def __init__(self) -> None:
            super().__init__()
            self.waits: list[float] = []

        def wait_for_item(self, timeout: float) -> bool:
            self.waits.append(timeout)
            return super().wait_for_item(min(timeout, 0.0001))

    app, _, clock = make_app(screen, journal)
    open_window(app, clock)
    while app.later.warm_pending or app.later.tally_pending:  # its idle work done: the loop would sleep
        settle(app)
    app.inbox = Recording()
    app.arrivals.input_at -= 60.0  # quiet for a minute: the idle polls would apply
    app.step(0.03)
    assert app.inbox.waits and max(app.inbox.waits) <= DECISION_POLL_S + 1e-9, app.inbox.waits


def test_a_late_press_after_every_draw_opens_no_window_in_the_game_nor_in_the_stats(
    screen: pygame.Surface, journal: Journal
) -> None:
    """Chloé's press, made before the verdict, arrives once both draws are made: it is before
    the verdict's close (its horizon), so it belongs to the judged window, not to the next one;
    the next slap is Alice's and Bob's alone, live, replayed, and in the stats fold."""
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    decided = clock.t
    source.touch(2, decided - 5 * MS)
    return_key()
    settle(app)
    clock.t = decided + source.lateness_ns + MARGIN_NS
    settle(app)
    game = app.game
    assert game is not None and game.owed_draws == ("Chloé", "Dédé")
    for card in ("9", "8"):
        app.do(Continue())
        app.do(PickRank(card))
        app.do(DrawCard())
        settle(app)
    assert game.awaiting == "play"
    source.deliver()
    settle(app)
    assert game.awaiting == "play", "a press made before the verdict opened the next window"
    clock.t += 10**9
    open_window(app, clock)
    clock.t += 50 * MS
    return_key()
    settle(app)
    assert game.last_slap is not None and [p for p, _ in game.last_slap.order] == ["Alice", "Bob"]
    same_on_replay(journal, app)


def test_a_false_slap_is_closed_where_escape_called_it_not_where_the_players_were_picked(
    screen: pygame.Surface, journal: Journal
) -> None:
    """Escape calls the false slap; picking who slapped in error takes the referee a while, and
    a press made meanwhile (Chloé's) is not in the judged window."""
    app, _, clock = make_app(screen, journal)
    open_window(app, clock)
    called = clock.t
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    settle(app)
    assert kilo_ui(app.ui).picking
    clock.t += 2 * 10**9
    press(app, 2, clock.t - 10**9)  # Chloé, a second after Escape
    settle(app)
    return_key()  # the claimant alone is picked: confirm
    settle(app)
    events = journaled(journal, app)[1:]
    assert [e["type"] for e in events][-2:] == ["close", "verdict"]
    assert events[-2]["t_us"] == called // 1000 - 1
    game = app.game
    assert game is not None and game.last_slap is not None
    assert [p for p, _ in game.last_slap.order] == ["Alice", "Bob"]
    same_on_replay(journal, app)


def test_a_referee_button_decides_at_its_own_stamp(screen: pygame.Surface, journal: Journal) -> None:
    """The referee's hardware confirm carries its kernel stamp: Chloé's press stamped 10 ms
    after it, on the queue before it, does not count; Dédé's, stamped 2 ms before it and still
    on its way when it arrives, does."""
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    decided = clock.t
    clock.t += 12 * MS  # the confirm reaches the loop 12 ms after its edge (its debouncer)
    press(app, 2, decided + 10 * MS)
    source.touch(3, decided - 2 * MS)
    app.inbox.put(InputEvent("confirm", 0, "press", decided, TABLE, "gpio"))
    settle(app)
    assert "verdict" not in kinds(journal, app)
    source.deliver()
    settle(app)
    events = journaled(journal, app)[1:]
    assert [e["type"] for e in events] == ["press", "press", "press", "close", "verdict", "press"]
    assert events[3]["t_us"] == decided // 1000 - 1
    game = app.game
    assert game is not None and game.last_slap is not None
    assert [p for p, _ in game.last_slap.order] == ["Alice", "Bob", "Dédé"]
    assert game.owed_draws == ("Chloé",)
    same_on_replay(journal, app)


def test_a_verdict_on_a_boards_clock_is_closed_on_that_clock(
    screen: pygame.Surface, journal: Journal
) -> None:
    """A Pico game alone journals the board's stamps: the decision's instant is put on the
    board's clock through its heartbeats' offset (``clock_offset``)."""
    from companion.inputs.clocks import Offset

    board = Clock("pico:E6614103E7452D2F", 1000, "pico-boot:0a1b2c3d")
    offset_ns = 4_000 * 10**9  # table = board + offset

    class Board(LagSource):
        name = "serial"
        clock = board  # type: ignore[assignment]

        def clock_offset(self, clock: Clock | None = None) -> Offset | None:
            return Offset(offset_ns, 500_000) if clock is None or clock.epoch == board.epoch else None

    table_clock = TableClock()
    source = Board(table_clock)
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "serial"})
    app = table_app(
        screen,
        journal,
        table,
        lambda n, s: source,
        source_name="serial",
        table_ns=table_clock,
    )
    settle(app)
    on_board = table_clock.t - offset_ns
    for seat, dt in ((0, -80 * MS), (1, -40 * MS)):
        app.inbox.put(InputEvent("seat", seat, "press", on_board + dt, board, "serial", table_clock.t + dt))
    settle(app)
    return_key()
    settle(app)
    events = journaled(journal, app)[1:]
    assert [e["type"] for e in events] == ["press", "press", "close", "verdict"]
    assert events[2]["t_us"] == on_board // 1000 - 1
    same_on_replay(journal, app)


@pytest.mark.parametrize("dt_ns", [-1_001, -1_000, -999, -1, 0, 1, 999])
def test_live_and_replay_agree_to_the_nanosecond_at_the_decision(
    screen: pygame.Surface, journal: Journal, dt_ns: int
) -> None:
    """The table log writes µs: a press stamped in the decision's own µs, or a ns before it,
    is judged live as the journal's close then judges it (no re-judging to set it right)."""
    app, source, clock = make_app(screen, journal)
    open_window(app, clock)
    clock.t += 123  # a decision inside a µs
    decided = clock.t // 1000 * 1000
    source.touch(2, decided + dt_ns)
    return_key()
    settle(app)
    clock.t += 20 * MS
    source.deliver()
    settle(app)
    game = app.game
    assert game is not None and game.last_slap is not None
    assert "undo" not in kinds(journal, app)
    counted = "Chloé" in [p for p, _ in game.last_slap.order]
    assert counted == (dt_ns < 0)
    same_on_replay(journal, app)


def test_a_stop_inside_a_window_on_a_boards_clock_waits_for_the_board_to_be_placed(
    screen: pygame.Surface, journal: Journal
) -> None:
    """A Pico game's window is on the board's clock: the stop can be measured on it only once
    the board's heartbeats place it on the table clock; until then resume waits (and says
    nothing wrong), then journals the outage on the board's clock."""
    from companion.games.kilo.events import Press
    from companion.inputs.clocks import Offset

    board = Clock("pico:E6614103E7452D2F", 1000, "pico-boot:0a1b2c3d")
    offset_ns = 4_000 * 10**9

    class Board(LagSource):
        name = "serial"
        clock = board  # type: ignore[assignment]
        heard = False

        def clock_offset(self, clock: Clock | None = None) -> Offset | None:
            return Offset(offset_ns, 500_000) if self.heard else None

    table_clock = TableClock()
    first = (table_clock.t - offset_ns) // 1000
    table = Table.start(journal, NewKiloGame(players=PLAYERS, rounds=3), {"input": "serial"})
    table.submit(Press(player="Alice", t_us=first, clock=board.name, epoch=board.epoch))
    table_clock.t += 20 * 10**9  # the companion was down 20 s; the board kept counting
    source = Board(table_clock)
    app = table_app(
        screen,
        journal,
        Table.resume(journal, table.game_id),
        lambda n, s: source,
        source_name="serial",
        lang="en",
        table_ns=table_clock,
    )
    settle(app)
    assert kinds(journal, app) == ["press"], "an outage measured on a clock not placed yet"
    source.heard = True  # its first heartbeat
    settle(app)
    events = journaled(journal, app)[1:]
    assert events[-1] == {
        "type": "outage",
        "from_us": first,
        "to_us": (table_clock.t - offset_ns) // 1000 - 1,
    }
    assert (
        app.ui.message is not None and app.ui.message.en == "Window cut by a 20 s stop: the countdown resumes"
    )
