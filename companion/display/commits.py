"""The App's commit pipeline: what a step decides is journaled in one transaction, on a writer
thread while the frame is laid out, before any of it is shown (docs/decisions.md, "Group
commit"); the journal's checkpoints follow the frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:  # the writer thread is made at the first commit, after the first frame
    from concurrent.futures import Future, ThreadPoolExecutor

    from companion.display.feedback import ButtonFeedback
    from companion.display.sound import Sounds
    from companion.table.journal import Journal
    from companion.table.live import Table

# The journal's checkpoints wait for the frame, and come at most this often: under a flood one
# is due at every step, and each made the next step's commit wait for it.
CHECKPOINT_GAP_S = 1.0


class Commits:
    """Holds a step's decisions (the table's events, the LEDs, the sounds), commits them on one
    writer thread (so commits keep their order) and shows them once durable. The App tells it
    the table, and is told what to do once a commit is shown (``after``)."""

    def __init__(
        self,
        journal: Journal | None,
        buttons: ButtonFeedback,
        sounds: Sounds,
        now: Callable[[], float],
    ) -> None:
        self.journal = journal
        self.buttons = buttons
        self.sounds = sounds
        self.now = now
        self.enabled = True  # one commit for what a step handles (bench/gpio.py turns it off)
        self.holding = False  # the step's decisions are applied, not yet journaled nor shown
        # The scorer's writes (web/scorer.py) applied in this step, answered once its commit
        # returns: a phone is told "recorded" only for what the journal holds.
        self.held_writes: list[Any] = []
        self.writer: ThreadPoolExecutor | None = None
        self.checkpoint_at = -CHECKPOINT_GAP_S
        if journal is not None:
            journal.defer_checkpoints = True  # made after the frame (checkpoint_later)

    def hold(self, table: Table | None) -> None:
        """Decisions from now on are applied but neither journaled nor shown until the commit."""
        if not self.enabled or self.holding:
            return
        self.holding = True
        if table is not None:
            table.hold()
        self.buttons.hold()
        self.sounds.hold()

    def start(self, table: Table | None) -> Future[None] | None:
        """Stop holding; the held events' commit, begun on the writer thread (None: nothing to
        write). Until ``shown`` nothing may touch the table or the journal but drawing."""
        self.holding = False
        if table is None or not table.pending:
            return None
        if self.writer is None:
            from concurrent.futures import ThreadPoolExecutor

            self.writer = ThreadPoolExecutor(1, thread_name_prefix="journal")
        return self.writer.submit(self._commit_then_light, table)

    def _commit_then_light(self, table: Table) -> None:
        """On the writer thread: the LEDs light the moment their presses are durable, without
        waiting for the frame (the main thread touches no LED until ``shown``)."""
        table.commit()
        self.buttons.release()

    def shown(self, commit: Future[None] | None) -> CompanionError | None:
        """Once ``commit`` has returned: show what it made durable (LEDs, sounds), or nothing of
        it, returning why the journal refused it (the caller puts the table back and says so)."""
        try:
            if commit is not None:
                commit.result()
        except CompanionError as err:
            self.buttons.release(show=False)
            self.sounds.release(play=False)
            return err
        self.buttons.release()
        self.sounds.release()
        return None

    def checkpoint_later(self) -> None:
        """The journal's due checkpoint, once the frame is shown, on the writer thread (after
        any commit it holds), at most every CHECKPOINT_GAP_S."""
        journal = self.journal
        if journal is None or not journal.checkpoint_due:
            return
        now = self.now()
        if now - self.checkpoint_at < CHECKPOINT_GAP_S:
            return
        self.checkpoint_at = now
        if self.writer is None:
            journal.checkpoint()
        else:
            self.writer.submit(journal.checkpoint)

    def drop(self, table: Table | None) -> None:
        """Leaving mid-step: what was not journaled is lost, as a pulled plug would lose it."""
        if self.writer is not None:
            self.writer.shutdown(wait=True)  # a commit under way ends (or fails) first
            self.writer = None
        self.holding = False
        if table is not None:
            table.pending = None
        self.buttons.release(show=False)
        self.sounds.release(play=False)
