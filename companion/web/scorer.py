"""The scorer's phone: an entry is parsed as a table-log event here, then handed to the table's
loop, which checks and journals it exactly as if it had been entered on the table's screen.

Only the scorer's events are accepted (each game names its own: ``Game.scorer_events``): presses
come from the pads, and starting or undoing is the table's.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from companion.errors import CompanionError
from companion.games import load
from companion.games.base import GameEngine
from companion.i18n import french_typography
from companion.table.log import AnyEvent, parse_event


class EntryError(CompanionError, ValueError):
    """A scorer's entry that cannot be an event of this game."""


def parse_entry(body: bytes, page: dict[str, Any] | None) -> AnyEvent:
    """The event in a scorer's request body: ``{"event": {...table-log event...}}``."""
    if page is None:
        raise EntryError("web.scorer.parse_entry")
    game = str(page["game"])
    allowed = load(game).scorer_events
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    event = data.get("event") if isinstance(data, dict) else None
    if not isinstance(event, dict) or event.get("type") not in allowed:
        kinds = ", ".join(allowed) or "—"
        raise EntryError(
            "web.scorer.not_an_event",
            page_title=page["title"],
            kinds=kinds,
        )
    try:
        return parse_event(json.dumps(event), game)
    except CompanionError:
        raise
    except ValueError as err:  # pydantic's refusal, first line only
        first = str(err).splitlines()[1:2] or [str(err)]
        raise EntryError(
            "web.scorer.entry_cannot_read",
            entry=first[0].strip()[:160],
        ) from None


def as_on_the_screen(event: AnyEvent, engine: GameEngine) -> tuple[AnyEvent | None, tuple[str, str] | None]:
    """The event entered as the table screen enters it (``Game.scorer_entry``): (the event,
    None), or (None, the screen's (fr, en) refusal)."""
    return load(engine.game).scorer_entry(event, engine)


def stamp_of(body: bytes, asked: tuple[int, int] | None, arrived_ns: int) -> tuple[int, int | None]:
    """A scorer's write is a decision (docs/decisions.md, "Event time"): the table-clock
    instant it was made, and how well it is known (None: not known better than its arrival).

    The page sends ``p``, its clock when the scorer sent the entry, and ``sync``: ``{"id": n,
    "p": ms}``, its clock as it read the answer to ``/clock`` question ``n``. ``asked`` is that
    question's (id, table clock as it was answered); the phone read its clock between that and
    ``arrived_ns``, which maps ``p`` onto the table clock as a pad's pong does (clockmap.py).
    Without it, or with a stamp that cannot be (later than the arrival, or older than a press
    is believed), the instant is the arrival."""
    from companion.web.clockmap import Ping
    from companion.web.pad import DEFAULT_STEP_NS, MAX_PRESS_AGE_NS, _ms_to_ns

    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return arrived_ns, None
    if not isinstance(data, dict) or asked is None:
        return arrived_ns, None
    sync = data.get("sync")
    sent = _ms_to_ns(data.get("p"))
    read = _ms_to_ns(sync.get("p")) if isinstance(sync, dict) else None
    if sent is None or read is None or not isinstance(sync, dict) or sync.get("id") != asked[0]:
        return arrived_ns, None
    ping = Ping(asked[1], read, arrived_ns)
    if ping.rtt_ns < 0:
        return arrived_ns, None
    t_ns = sent + ping.offset_ns
    if not arrived_ns - MAX_PRESS_AGE_NS <= t_ns <= arrived_ns:
        return arrived_ns, None
    # The bracket's half-width and the page clock's step on both readings (its drift over the
    # seconds between them is below a step).
    return t_ns, ping.half_ns + 2 * DEFAULT_STEP_NS


RECORDED = (True, "Enregistré.", "Recorded.")
UNANSWERED = (False, "La table n'a pas répondu.", "The table did not answer.")


class WebWrite:
    """An event a phone asks the table to journal; the table's loop calls ``apply_to``.

    ``t_ns``: the instant the scorer made it, on the table clock (``stamp_of``): a write is a
    decision, ordered against the presses by it, not by when the loop reached it. ``res_ns``:
    how well that instant is known, None when it is the request's arrival."""

    def __init__(self, game_id: str, event: AnyEvent, t_ns: int, res_ns: int | None = None) -> None:
        self.game_id = game_id
        self.event = event
        self.t_ns = t_ns
        self.res_ns = res_ns
        self._done = threading.Event()
        self.result: tuple[bool, str, str] = UNANSWERED

    def apply_to(self, app: Any) -> None:
        """On the table's thread: the same check and journal as the screen's entry."""
        table = app.table
        later = False  # answered by ``settle`` once the step's commit returns
        try:
            if table is None or table.game_id != self.game_id:
                self.result = (
                    False,
                    "Cette saisie est pour une autre partie que celle de la table.",
                    "This entry is for another game than the table's.",
                )
                return
            event, reason = as_on_the_screen(self.event, table.engine)
            if event is None:
                assert reason is not None
                self.result = (False, reason[0], reason[1])
                return
            try:
                table.engine.check(event)
            except CompanionError as err:
                self.result = (False, err.fr, err.en)
                return
            if app.submit(event):
                if table.pending is None:
                    self.result = RECORDED
                else:
                    # Applied but held: the journal may still refuse the step's commit, and the
                    # phone must not read "recorded" for an entry the table then puts back.
                    app.commits.held_writes.append(self)
                    later = True
            else:
                message = getattr(app.ui, "message", None)  # a Text: what the screen said
                self.result = (
                    (False, "La table n'a pas pu l'enregistrer.", "The table could not record it.")
                    if message is None
                    else (False, message.fr, message.en)
                )
        finally:
            if not later:
                self._done.set()

    def settle(self, refused: CompanionError | None) -> None:
        """The commit of the step that applied this write returned: recorded, or lost with that
        step's events, for the reason the table screen shows."""
        self.result = RECORDED if refused is None else (False, refused.fr, refused.en)
        self._done.set()

    def wait(self, timeout: float) -> tuple[bool, str, str]:
        # Only an answer the table gave: a write it has not settled in time is not answered,
        # whatever it holds so far.
        answered = self._done.wait(timeout)
        # The phone shows the French as it comes: in French typography, as the refusals that
        # come from the rules (CompanionError) already are.
        ok, fr, en = self.result if answered else UNANSWERED
        return ok, french_typography(fr), en
