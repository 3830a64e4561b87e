"""Turns the raw edges of one button into presses and releases, stamped at their first edge.

Pure and clock-free: the caller feeds edges and "now" in integer nanoseconds of one clock. The
Pico firmware mirrors these rules line for line, so any change here is a change there.

The rules, for one button (``active`` means the contact is closed, i.e. the pin reads low):

1. When the line is idle (no candidate, no lockout), *any* edge opens a candidate stamped at that
   edge (``t0``), whatever level it reports: the kernel reads the level after the interrupt, so
   a contact that has already bounced open reports its first edge as a release.
2. A candidate is decided as soon as one level has lasted ``glitch_ns`` without an edge: the other
   level makes it a press (or release) stamped ``t0``; the resting level makes it a glitch, no
   press at all, and the line is idle again. So a short pulse followed by quiet is forgotten and
   never lends its stamp to a later press. Edges closer than ``glitch_ns`` are one event: that is
   the debounce's own resolution, and a pulse that close before a press merges with it.
3. After a decision, every edge before ``t0 + lockout`` is bounce: counted, never a new candidate,
   so release bounce cannot make a second press.
4. A lockout's end opens a candidate as an edge would, decided by rule 2 from the line's last
   change: stamped at the end itself if the line changed less than ``glitch_ns`` before it (the
   contact is moving there: an edge inside the lockout lends no stamp, and a short return to
   rest across the end is bounce of the candidate, as anywhere else); stamped when the line last
   changed if it has been still since, away from the debounced level (a quick tap's release). So
   an edge within a capture's resolution of the end gives the same stamp, within that
   resolution, on either side of it: a board whose stamps lag its edges decides as the host
   does on true times (docs/pico.md, "A lockout's end"). A line still and at rest opens none.
5. A press held longer than ``stuck_after`` is reported stuck (once); its release says so too.
6. A stamp is never rewritten. An edge delivered after later decisions were made (a busy thread)
   still opens its candidate at its own stamp when the line was idle (and if it falls before a
   glitch was dropped, that candidate goes on: dropping it emitted nothing); only an edge that falls
   inside a candidate or lockout already decided past it is taken as simultaneous with the last
   change, and counted in ``late`` so the source can say so.
7. Edges lost (a kernel buffer that overflowed) are not guessed (``blind``): an undecided
   candidate starts again at the first edge kept if the line was away from rest, and is
   forgotten otherwise, so a glitch whose end was lost neither becomes a press nor lends its
   stamp to the press after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DEFAULT_LOCKOUT_NS = 30_000_000
DEFAULT_GLITCH_NS = 2_000_000
DEFAULT_STUCK_NS = 10_000_000_000


@dataclass(frozen=True, slots=True)
class DebounceSettings:
    """The three numbers that define a press; shared with the Pico firmware."""

    lockout_ns: int = DEFAULT_LOCKOUT_NS
    glitch_ns: int = DEFAULT_GLITCH_NS
    stuck_ns: int | None = DEFAULT_STUCK_NS

    def __post_init__(self) -> None:
        if self.glitch_ns < 0 or self.lockout_ns < 0:
            raise ValueError("debounce times must be >= 0")
        if self.glitch_ns > self.lockout_ns:
            # A candidate must be decidable inside its own lockout, or bounce could outlive it.
            raise ValueError("glitch minimum must not exceed the lockout")
        if self.stuck_ns is not None and self.stuck_ns <= self.lockout_ns:
            raise ValueError("stuck limit must be longer than the lockout")


@dataclass(frozen=True, slots=True)
class Transition:
    """A debounced press or release; ``t_ns`` is the stamp of its first edge."""

    edge: Literal["press", "release"]
    t_ns: int
    decided_ns: int


@dataclass(frozen=True, slots=True)
class Stuck:
    """The button has been held since ``since_ns`` and is now longer than the stuck limit."""

    since_ns: int
    decided_ns: int


@dataclass(frozen=True, slots=True)
class Unstuck:
    """A button reported stuck has been released."""

    t_ns: int


Decision = Transition | Stuck | Unstuck


class Debouncer:
    """One button's debounce state machine. Not thread-safe: one owner feeds it in time order."""

    def __init__(
        self, settings: DebounceSettings | None = None, *, active: bool = False, t_ns: int = 0
    ) -> None:
        self.settings = settings if settings is not None else DebounceSettings()
        self._raw = active
        self._stable = active
        self._run_start = t_ns
        # Latest time polled, and latest edge or decision: an edge older than the latter is late.
        self._now = t_ns
        self._last = t_ns
        self._candidate: int | None = None
        self._dropped: tuple[int, int] | None = None  # the last glitch: (first edge, dropped at)
        self._lock_until: int | None = None
        self._ended: int | None = None  # the last lockout's end, once decided
        # The line's last change is only known to be no later than _run_start (edges were lost).
        self._dark = False
        self._press_t0: int | None = t_ns if active else None
        # A button already held when we start watching cannot be a slap; it is stuck until
        # released, whatever the limit says.
        self._stuck = active
        self._initially_held = active
        self.bounces = 0
        self.glitches = 0
        self.presses = 0
        self.late = 0

    @property
    def pressed(self) -> bool:
        """The debounced state."""
        return self._stable

    @property
    def raw(self) -> bool:
        return self._raw

    @property
    def stuck(self) -> bool:
        return self._stuck

    def edge(self, t_ns: int, active: bool) -> list[Decision]:
        """Feed one raw edge at its own stamp (see rule 6 for edges older than the last one)."""
        out: list[Decision] = []
        idle = self._candidate is None and self._lock_until is None
        if t_ns < self._last:
            if idle and self._dropped is not None and t_ns < self._dropped[1]:
                # The line was not at rest after all: the glitch was dropped too early (nothing
                # was emitted for it), so the candidate goes on from its own first edge, and the
                # drop is undone whole: what was seen last is the candidate's last edge again, not
                # the drop, or every later edge of the candidate would be taken as late and moved
                # to the drop (a press held past a stall then read as a second glitch, lost).
                self._candidate = self._dropped[0]
                self._last = max(self._candidate, self._run_start)
                self.glitches -= 1
            elif not idle:
                self.late += 1
                t_ns = self._last
            elif self._ended is not None and self._ended - self.settings.glitch_ns < t_ns < self._ended:
                # Rule 4: a change this close before an end already decided opens the candidate
                # at the end, not at its own stamp inside the lockout.
                self.late += 1
                t_ns = self._ended
        self._dropped = None
        self._advance(t_ns, out)
        if self._candidate is None and self._lock_until is None:
            # Rule 1: the reported level may be stale, the edge itself is not.
            self._candidate = t_ns
        else:
            self.bounces += 1
        # A repeated level means an edge pair was missed: the line changed here all the same.
        self._raw = active
        self._run_start = t_ns
        self._dark = False
        if t_ns > self._last:
            self._last = t_ns
        self._advance(t_ns, out)
        return out

    def poll(self, now_ns: int) -> list[Decision]:
        """Apply every decision due by ``now_ns`` (the line has not changed since the last edge)."""
        out: list[Decision] = []
        self._advance(now_ns, out)
        return out

    def blind(self, ta_ns: int, tb_ns: int) -> None:
        """Edges after ``ta_ns`` and up to ``tb_ns`` were lost (the kernel's buffer overflowed):
        what the line did then is unknown. As the Pico's ``Debouncer.blind``: a candidate open
        at ``ta_ns`` may have ended and come back in the dark, and deciding it from the level its
        last edge left makes a press of a glitch, or lends a glitch's stamp to the press after
        it. So it opens again at ``tb_ns`` if the line was away from rest (a press, if any, is
        late and never early), and is forgotten otherwise; the first edge kept follows at
        ``tb_ns`` with the level the line has then."""
        self._advance(ta_ns, [])  # nothing is due by ta_ns that was not already decided
        self._dropped = None
        if self._candidate is not None:
            self._candidate = tb_ns if self._raw != self._stable else None
        # A lockout ending in the dark opens its candidate no earlier than tb_ns (rule 4's last
        # change is somewhere before it, or the end itself), and none if the line is at rest.
        self._run_start = tb_ns
        self._dark = True
        if tb_ns > self._last:
            self._last = tb_ns

    def undecided_press_ns(self) -> int | None:
        """The earliest stamp a press not decided yet could carry, None if no press can come
        from what has been seen (the next press needs an edge not seen yet, stamped later).

        What a source's watermark is held back to (docs/decisions.md, "Event time"): a
        candidate away from a released button may become a press at its first edge (rule 2);
        a line that changed inside a release's lockout may become one at its last change
        (rule 4: at the change, at the end, or later when edges were lost)."""
        if self._stable:
            return None  # pressed: what is undecided is a release
        if self._candidate is not None:
            return self._candidate
        if self._lock_until is not None and self._raw:
            return self._run_start
        return None

    def next_deadline(self) -> int | None:
        """When ``poll`` next has something to decide, or None if only an edge can change things."""
        # Called for every edge and poll: no list, no min() over one item.
        s = self.settings
        due: int | None = None
        if self._candidate is not None:
            due = self._run_start + s.glitch_ns
        elif self._lock_until is not None:
            due = self._lock_until
        if self._stable and not self._stuck and s.stuck_ns is not None and self._press_t0 is not None:
            stuck_at = self._press_t0 + s.stuck_ns
            if due is None or stuck_at < due:
                due = stuck_at
        return due

    def _advance(self, now_ns: int, out: list[Decision]) -> None:
        while True:
            d = self.next_deadline()
            if d is None or d > now_ns:
                if now_ns > self._now:
                    self._now = now_ns
                return
            # Never decided before something already seen (a late edge, a lockout's end).
            if d > self._last:
                self._last = d
            self._decide(self._last, out)

    def _decide(self, at: int, out: list[Decision]) -> None:
        if self._candidate is not None and at >= self._run_start + self.settings.glitch_ns:
            self._settle(at, out)
            return
        if self._candidate is None and self._lock_until is not None and at >= self._lock_until:
            self._end_lockout()
            return
        if self._stable and not self._stuck and self._press_t0 is not None:
            self._stuck = True
            out.append(Stuck(self._press_t0, at))
            return
        raise AssertionError("deadline without a decision")  # pragma: no cover

    def _settle(self, at: int, out: list[Decision]) -> None:
        """The candidate's run lasted the glitch minimum: a change of level, or a glitch."""
        t0 = self._candidate
        assert t0 is not None
        self._candidate = None
        if self._raw == self._stable:
            # Rule 2: back at rest for the glitch minimum: it was never a press.
            self.glitches += 1
            self._dropped = (t0, at)
            return
        self._stable = self._raw
        end = t0 + self.settings.lockout_ns
        self._lock_until = end if end > at else None
        if self._stable:
            self.presses += 1
            self._press_t0 = t0
            out.append(Transition("press", t0, at))
            return
        self._press_t0 = None
        out.append(Transition("release", t0, at))
        if self._stuck:
            self._stuck = False
            self._initially_held = False
            out.append(Unstuck(t0))

    def _end_lockout(self) -> None:
        # Rule 4. Stamping a moving line at its last change before the end (or, back at rest,
        # at its first change after) made the stamp jump by up to the glitch minimum for an
        # edge moved across the end by a few us; stamped at the end, it moves by as much as
        # the end or the edge does, and never earlier.
        end = self._lock_until
        assert end is not None
        self._lock_until = None
        self._ended = end
        c = self._run_start
        if self._dark:
            # Edges were lost: when the line last changed is unknown, so it is not taken as
            # moving at the end (a press, if any, late and never early).
            if self._raw != self._stable:
                self.bounces -= 1
                self._candidate = max(c, end)
        elif c + self.settings.glitch_ns > end:
            self._candidate = end
        elif self._raw != self._stable:
            # The edge that started this run was counted as bounce; it is a candidate after all.
            self.bounces -= 1
            self._candidate = c


class StuckGuard:
    """Decides, for the main loop, which presses may count as slaps.

    A button that is held when a slap window opens, or that its source reported stuck, does not
    count until it has been released once. Keys are whatever names a button (e.g. ``(role, seat)``).
    """

    def __init__(self) -> None:
        self._held: dict[object, int] = {}
        self._stuck: set[object] = set()

    def observe(self, key: object, edge: Literal["press", "release"], t_ns: int) -> bool:
        """Record an edge; return True if it is a press that may count as a slap."""
        if edge == "press":
            self._held[key] = t_ns
            return key not in self._stuck
        self._held.pop(key, None)
        self._stuck.discard(key)
        return False

    def mark_stuck(self, key: object) -> None:
        """The source says this button is stuck (held past the limit)."""
        self._stuck.add(key)

    def window_opened(self) -> list[object]:
        """A slap window opens: every button held now is stuck; returns the newly stuck ones."""
        new = [k for k in self._held if k not in self._stuck]
        self._stuck.update(new)
        return new

    def is_stuck(self, key: object) -> bool:
        return key in self._stuck
