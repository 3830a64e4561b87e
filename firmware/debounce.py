"""One button's debounce state machine, in microseconds.

A line-for-line port of companion/inputs/debounce.py (read its docstring for the rules); the
tests run both on the same edges. Decisions go to ``sink(key, kind, t0_us)`` rather than into a
list, kind being 0 release, 1 press, 2 stuck, 3 unstuck. One addition, ``blind``: the board's
rings can go round, and the edges they lost must not be guessed
(tests/firmware/test_firmware_capture_properties.py).
"""

RELEASE = 0
PRESS = 1
STUCK = 2
UNSTUCK = 3


class Debouncer:
    def __init__(self, key, sink, lockout_us=30000, glitch_us=2000, stuck_us=10000000, active=False, t_us=0):
        self.key = key
        self._sink = sink
        self.lockout = lockout_us
        self.glitch = glitch_us
        self.stuck_after = stuck_us  # None: never stuck
        self._raw = active
        self.stable = active
        self._run_start = t_us
        self._now = t_us
        self._last = t_us  # latest edge or decision: an edge older than this is late
        self._candidate = None
        self._dropped_t0 = None  # the last glitch's first edge, and when it was dropped
        self._dropped_at = 0
        self._lock_until = None
        self._ended = None  # the last lockout's end, once decided
        self._dark = False  # edges lost: the line's last change is only known to be <= _run_start
        self._press_t0 = t_us if active else None
        # Held when we start watching: cannot be a slap, stuck until released.
        self.stuck = active
        self.bounces = 0
        self.glitches = 0
        self.presses = 0
        self.late = 0

    def edge(self, t, active):
        idle = self._candidate is None and self._lock_until is None
        if t < self._last:
            dropped = self._dropped_t0
            if idle and dropped is not None and t < self._dropped_at:
                # Dropped as a glitch too early: the candidate goes on from its first edge, and
                # the drop is undone whole (its later edges are not late).
                self._candidate = dropped
                self._last = max(dropped, self._run_start)
                self.glitches -= 1
            elif not idle:
                self.late += 1
                t = self._last
            elif self._ended is not None and self._ended - self.glitch < t < self._ended:
                # This close before an end already decided: the candidate opens at the end.
                self.late += 1
                t = self._ended
        self._dropped_t0 = None
        self._advance(t)
        if self._candidate is None and self._lock_until is None:
            # Any edge on an idle line starts a candidate: its level may be stale.
            self._candidate = t
        else:
            self.bounces += 1
        self._raw = active
        self._run_start = t
        self._dark = False
        if t > self._last:
            self._last = t
        self._advance(t)

    def poll(self, now):
        self._advance(now)

    def blind(self, ta, tb):
        """Edges after ``ta`` and up to ``tb`` were lost: what the line did then is unknown.

        A candidate open at ``ta`` may have ended and come back in the dark: deciding it from the
        stale level makes a press of a glitch, or lends a glitch's stamp to the press after it.
        So it opens again at ``tb`` if the line was away from rest (a press, if any, is late and
        never early), and is forgotten otherwise. The level at ``tb`` comes as an edge if it moved.
        """
        self._advance(ta)
        self._dropped_t0 = None
        if self._candidate is not None:
            self._candidate = tb if self._raw != self.stable else None
        # A lockout ending in the dark opens its candidate no earlier than tb, none at rest.
        self._run_start = tb
        self._dark = True
        if tb > self._last:
            self._last = tb

    def earliest(self):
        """The earliest stamp a decision still to come may carry, or None if none is pending
        (an edge yet to come carries its own stamp, later than any already seen).

        A candidate is decided at its first edge. A lockout ends with a candidate at its end or
        at the line's last change, if the line is away from rest then (rule 4), earlier than the
        end by up to the lockout: a press made inside a release's lockout is stamped when it
        closed, decided only at the end."""
        if self._candidate is not None:
            return self._candidate
        if self._lock_until is not None:
            if self._raw != self.stable and self._run_start < self._lock_until:
                return self._run_start
            return self._lock_until
        return None

    def next_deadline(self):
        d = None
        if self._candidate is not None:
            d = self._run_start + self.glitch
        elif self._lock_until is not None:
            d = self._lock_until
        if self.stable and not self.stuck and self.stuck_after is not None and self._press_t0 is not None:
            s = self._press_t0 + self.stuck_after
            if d is None or s < d:
                d = s
        return d

    def _advance(self, now):
        while True:
            d = self.next_deadline()
            if d is None or d > now:
                if now > self._now:
                    self._now = now
                return
            if d > self._last:
                self._last = d
            self._decide(self._last)

    def _decide(self, at):
        if self._candidate is not None and at >= self._run_start + self.glitch:
            t0 = self._candidate
            self._candidate = None
            if self._raw == self.stable:
                # Back at rest for the glitch minimum: never a press.
                self.glitches += 1
                self._dropped_t0 = t0
                self._dropped_at = at
                return
            self.stable = self._raw
            end = t0 + self.lockout
            self._lock_until = end if end > at else None
            if self.stable:
                self.presses += 1
                self._press_t0 = t0
                self._sink(self.key, PRESS, t0)
            else:
                self._press_t0 = None
                self._sink(self.key, RELEASE, t0)
                if self.stuck:
                    self.stuck = False
                    self._sink(self.key, UNSTUCK, t0)
            return
        if self._candidate is None and self._lock_until is not None and at >= self._lock_until:
            # The lockout's end opens a candidate as an edge would, decided from the line's last
            # change: at the end itself if the line changed less than the glitch minimum before
            # it, so that an edge a capture stamps on the other side of the end (a read lags its
            # edge by up to the resolution) moves the stamp by no more than that; at the last
            # change if the line has been still since, away from rest; none if still at rest.
            # Decided on the stamps, at the end: never early, late by no more than they are.
            end = self._lock_until
            self._lock_until = None
            self._ended = end
            c = self._run_start
            if self._dark:
                # Edges were lost: not taken as moving at the end (late, never early).
                if self._raw != self.stable:
                    self.bounces -= 1
                    self._candidate = c if c > end else end
            elif c + self.glitch > end:
                self._candidate = end
            elif self._raw != self.stable:
                self.bounces -= 1
                self._candidate = c
            return
        if self.stable and not self.stuck and self._press_t0 is not None:
            self.stuck = True
            self._sink(self.key, STUCK, self._press_t0)
            return
        raise AssertionError("deadline without a decision")
