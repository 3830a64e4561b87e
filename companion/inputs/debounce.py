"""Turns the raw edges of one button into presses and releases, stamped at their first edge.

Pure and clock-free: the caller feeds edges and "now" in integer nanoseconds of one clock. The
Pico firmware mirrors these rules line for line, so any change here is a change there.

The rules, for one button (``active`` means the contact is closed, i.e. the pin reads low):

1. When the debounced state is "released", the first edge to active opens a *candidate* press
   stamped at that edge (``t0``).
2. Every other edge before ``t0 + lockout`` is bounce: counted, never a new candidate.
3. The candidate becomes a press, stamped ``t0``, as soon as the line has stayed active for
   ``glitch_min`` without interruption. If instead the lockout ends with the line back at rest,
   the candidate was a glitch: no press at all.
4. Releases follow the same rules with the levels swapped, so a release cannot be seen before
   the press's lockout has ended, and release bounce cannot make a second press.
5. When a lockout ends with the line already at the other level, a candidate opens at once,
   stamped when the line last changed.
6. A press held longer than ``stuck_after`` is reported stuck (once); its release says so too.
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
        # Latest time already decided; a deadline that fell inside an earlier decision is
        # decided no earlier than that.
        self._now = t_ns
        self._candidate: int | None = None
        self._lock_until: int | None = None
        self._press_t0: int | None = t_ns if active else None
        # A button already held when we start watching cannot be a slap; it is stuck until
        # released, whatever the limit says.
        self._stuck = active
        self._initially_held = active
        self.bounces = 0
        self.glitches = 0
        self.presses = 0

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
        """Feed one raw edge. Edges older than the last one are treated as simultaneous with it."""
        out: list[Decision] = []
        t_ns = max(t_ns, self._now)
        self._advance(t_ns, out)
        if active == self._raw:
            # Repeated level reports (a missed edge in between) carry no information.
            return out
        self._raw = active
        self._run_start = t_ns
        if self._candidate is None and self._lock_until is None and active != self._stable:
            self._candidate = t_ns
        else:
            self.bounces += 1
        self._advance(t_ns, out)
        return out

    def poll(self, now_ns: int) -> list[Decision]:
        """Apply every decision due by ``now_ns`` (the line has not changed since the last edge)."""
        out: list[Decision] = []
        self._advance(now_ns, out)
        return out

    def next_deadline(self) -> int | None:
        """When ``poll`` next has something to decide, or None if only an edge can change things."""
        # Called for every edge and poll: no list, no min() over one item.
        s = self.settings
        due: int | None = None
        if self._candidate is not None:
            if self._raw != self._stable:
                due = self._run_start + s.glitch_ns
            else:
                due = max(self._candidate + s.lockout_ns, self._run_start)
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
                self._now = max(self._now, now_ns)
                return
            self._now = max(self._now, d)
            self._decide(self._now, out)

    def _decide(self, at: int, out: list[Decision]) -> None:
        s = self.settings
        if self._candidate is not None:
            t0 = self._candidate
            if self._raw != self._stable and at >= self._run_start + s.glitch_ns:
                self._candidate = None
                self._stable = self._raw
                end = t0 + s.lockout_ns
                self._lock_until = end if end > at else None
                if self._stable:
                    self.presses += 1
                    self._press_t0 = t0
                    out.append(Transition("press", t0, at))
                else:
                    self._press_t0 = None
                    out.append(Transition("release", t0, at))
                    if self._stuck:
                        self._stuck = False
                        self._initially_held = False
                        out.append(Unstuck(t0))
                return
            if self._raw == self._stable and at >= max(t0 + s.lockout_ns, self._run_start):
                self._candidate = None
                self.glitches += 1
                return
        if self._lock_until is not None and at >= self._lock_until:
            self._lock_until = None
            if self._raw != self._stable:
                # The edge that started this run was counted as bounce; it is a candidate after all.
                self.bounces -= 1
                self._candidate = self._run_start
            return
        if self._stable and not self._stuck and self._press_t0 is not None:
            self._stuck = True
            out.append(Stuck(self._press_t0, at))
            return
        raise AssertionError("deadline without a decision")  # pragma: no cover


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
