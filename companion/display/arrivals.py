"""The App's arrivals: the order in which the loop hands what arrives to the game. Queue items
(presses, statuses, the phones' writes) and the pygame events after them are taken into one
line (``early``); a decision (a key, a tap, a referee's button, a scorer's write) goes before the
presses stamped after its instant, and waits at the head until the sources' watermarks have
passed it (docs/decisions.md, "Event time")."""

from __future__ import annotations

import queue
from collections import deque
from typing import TYPE_CHECKING, Any

import pygame

from companion.display.event_time import Deferred, Gate, Held, left_out_message, whole_us
from companion.inputs.base import EventInbox, InputEvent, SourceStatus, table_stamp
from companion.text import Text

if TYPE_CHECKING:
    from companion.display.app import App

# Window events are handled at once; these act on the table, so they wait for the presses that
# were on the queue before them (one order: docs/decisions.md, "Time").
ORDERED_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN)
# The pygame events that are table decisions: each waits for the sources' watermarks to pass
# its instant (docs/decisions.md, "Event time").
DECIDING_EVENTS = (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN)
# Queue items taken at once into the loop's own order: a decision from the queue is placed
# among the presses taken with it by their stamps.
PULL_ITEMS = 64


class Arrivals:
    """The queue, the line taken off it, the decision waiting at its head, and when the
    inputs were last read; the App's loop asks it for the next item to hand on."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.inbox: EventInbox = EventInbox()
        self.dropped_said = 0  # overflowed queue items already reported to the table
        # Items taken off the queue, in the order they must be handled (queue items and the
        # pygame events that came after them).
        self.early: deque[Any] = deque()
        self.stamp: InputEvent | None = None  # the press being handed to the game
        # The decision at the head of ``early`` waiting for the sources' watermarks, and the
        # instant (table clock, ns) of the decision being handled (a verdict closes there).
        self.gate: Gate | None = None
        self.decision_ns: int | None = None
        self.left_out: Text | None = None  # the sources a decision went on without
        self.read_ns = 0  # when pygame's events were last read (ns on the loop's clock)
        self.since_ns: int | None = None  # the read before the events being handled
        self.input_at = app.now()  # when a key, touch or queue item last came (idle polls: wait)

    def _instant(self, item: Any) -> int | None:
        """The table-clock instant of ``item`` if it is a table decision that must wait for
        the watermarks now; None for anything else (a press, a status, a key outside a game)."""
        if type(item) is InputEvent and item.role == "seat":
            return None  # the flood's case first: a press is never a decision
        if not self.app.gates():
            return None
        if type(item) is Deferred:
            return item.at_ns if item.ev.type in DECIDING_EVENTS else None
        if isinstance(item, InputEvent):
            if item.role == "seat" or item.edge != "press":
                return None
            # A referee's button: its own stamp when it is on the table clock, else its arrival.
            stamp = table_stamp(item)
            return whole_us(stamp if stamp is not None else self.app.table_ns())
        if type(item).__name__ == "WebWrite":  # a scorer phone: its synced stamp, or arrival
            return whole_us(int(getattr(item, "t_ns", None) or self.app.table_ns()))
        return None

    def enqueue(self, item: Any) -> None:
        """Put ``item`` at the end of ``early``; a decision goes before the presses already
        taken off the queue that are stamped after its instant (made after it, queued before
        the loop read it: they never count in it)."""
        early = self.early
        at = self._instant(item)
        if at is None:
            early.append(item)
            return
        held = item if type(item) is Deferred else Held(item, at)
        later = [
            x
            for x in early
            if isinstance(x, InputEvent) and (stamp := table_stamp(x)) is not None and stamp > at
        ]
        if not later:
            early.append(held)
            return
        moved = {id(x) for x in later}
        kept = [x for x in early if id(x) not in moved]
        early.clear()
        early.extend(kept)
        early.append(held)
        early.extend(later)

    def _released(self, at: int) -> bool:
        """Whether the decision at the head of ``early`` (at ``at``) may be applied now: every
        live source's watermark has passed it, or the sources that could not promise in time
        are left out and named. Meanwhile the presses stamped before it are handled first,
        whenever they arrive; those stamped at or after it wait behind it."""
        gate = self.gate
        if gate is None or gate.at_ns != at:
            gate = self.gate = Gate(at, self.app.promisers())
        done = gate.look(self.app.table_ns())
        # After the promises were read: what they cover is on the queue now.
        self.queue_first()
        early = self.early
        before = [
            x
            for i, x in enumerate(early)
            if i
            and (
                isinstance(x, SourceStatus)
                or (isinstance(x, InputEvent) and (stamp := table_stamp(x)) is not None and stamp < at)
            )
        ]
        if before:
            moved = {id(x) for x in before}
            kept = [x for i, x in enumerate(early) if not i or id(x) not in moved]
            early.clear()
            early.extend(kept)
            for x in before:
                self.app.handle_item(x)
        if not done:
            return False
        self.gate = None
        if gate.left_out:  # said once the decision is handled (an action clears the message)
            self.left_out = left_out_message(gate.left_out)
        return True

    def _handle_early(self, item: Any) -> None:
        """One item of ``early``: a decision is handled at its instant (``decision_ns``)."""
        self.gate = None  # whatever waited is done with (or no longer waits: the game ended)
        try:
            self._handle_decision(item)
        finally:
            said, self.left_out = self.left_out, None
            if said is not None:
                hardware = self.app.ui.hardware
                self.app.ui.say(said)
                hardware.notes.append(said)
                del hardware.notes[:-10]

    def _handle_decision(self, item: Any) -> None:
        if type(item) is Deferred:
            self.decision_ns = item.at_ns if item.ev.type in DECIDING_EVENTS else None
            try:
                self.app.handle_pygame(item.ev)
            finally:
                self.decision_ns = None
        elif type(item) is Held:
            self.decision_ns = item.at_ns
            try:
                self.app.handle_item(item.item)
            finally:
                self.decision_ns = None
        else:
            self.app.handle_item(item)

    def _immediate(self, ev: pygame.event.Event) -> bool:
        """QUIT, window events and seat keys (stamped when read) are handled as they come."""
        if ev.type not in ORDERED_EVENTS:
            return True
        key = getattr(ev, "key", None)
        return key is not None and key in self.app.host.seat_keys and self.app.source is not None

    def queue_first(self) -> None:
        """Everything already on the queue came before the pygame event about to be held."""
        while True:
            try:
                self.enqueue(self.inbox.get_nowait())
            except queue.Empty:
                return

    def _pull(self, n: int) -> bool:
        """Up to ``n`` queue items into ``early`` (False: none): a decision among them (a
        referee's button, a phone's write) goes before the presses pulled with it that are
        stamped after it, as a key does."""
        inbox = self.inbox
        for i in range(n):
            try:
                self.enqueue(inbox.get_nowait())
            except queue.Empty:
                return i > 0
        return True

    def _instant_of(self, held: Deferred | Held) -> int | None:
        """A held decision's instant while decisions wait (None: it is applied as it comes)."""
        if not self.app.gates():
            return None
        if type(held) is Deferred and held.ev.type not in DECIDING_EVENTS:
            return None
        return held.at_ns

    def overflowed(self, source: str) -> SourceStatus | None:
        """The queue items lost since last said, as a status of ``source`` (None: none)."""
        dropped = self.inbox.dropped
        if dropped <= self.dropped_said:
            return None
        n = dropped - self.dropped_said
        self.dropped_said = dropped
        return SourceStatus(
            source,
            "error",
            None,
            f"{n} button events were lost: they came faster than the table could record "
            "them; look for a button that chatters.",
            f"{n} événements de boutons perdus : ils arrivaient plus vite que la table ne "
            "pouvait les enregistrer ; cherchez un bouton qui crépite.",
        )

    def take(self, events: list[pygame.event.Event]) -> None:
        """The pygame events read: handled now, or held in line behind the queue."""
        for ev in events:
            if self._immediate(ev):
                self.app.handle_pygame(ev)
            else:
                # A tap, key or referee action waits for the presses queued before it (and
                # for those still on their way that were made before it: ``_released``).
                self.queue_first()
                self.enqueue(Deferred(ev, whole_us(self.app.table_ns())))

    def handle_until(self, until: float) -> None:
        """Handle ``early`` and the queue in order until ``until`` (the step's budget), or until
        a decision at the head must wait for the watermarks."""
        early = self.early
        app = self.app
        while app.running:
            if not early:
                if app.now() >= until or not self._pull(PULL_ITEMS):
                    break
                continue
            head = early[0]
            if (
                type(head) in (Deferred, Held)
                and (at := self._instant_of(head)) is not None
                and not self._released(at)
            ):
                break  # the loop goes on (frames, QUIT); the decision waits at the head
            self._handle_early(early.popleft())
            if app.now() >= until:
                break
