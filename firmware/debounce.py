"""One button's debounce state machine, in microseconds.

A line-for-line port of companion/inputs/debounce.py (read its docstring for the rules); the
tests run both on the same edges. Decisions go to ``sink(key, kind, t0_us)`` rather than into a
list, kind being 0 release, 1 press, 2 stuck, 3 unstuck.
"""

RELEASE = 0
PRESS = 1
STUCK = 2
UNSTUCK = 3


class Debouncer:
    def __init__(self, key, sink, lockout_us=30000, glitch_us=2000, stuck_us=10000000,
                 active=False, t_us=0):
        self.key = key
        self._sink = sink
        self.lockout = lockout_us
        self.glitch = glitch_us
        self.stuck_after = stuck_us  # None: never stuck
        self._raw = active
        self.stable = active
        self._run_start = t_us
        self._now = t_us
        self._candidate = None
        self._lock_until = None
        self._press_t0 = t_us if active else None
        # Held when we start watching: cannot be a slap, stuck until released.
        self.stuck = active
        self.bounces = 0
        self.glitches = 0
        self.presses = 0

    def edge(self, t, active):
        if t < self._now:
            t = self._now
        self._advance(t)
        if active == self._raw:
            return
        self._raw = active
        self._run_start = t
        if self._candidate is None and self._lock_until is None and active != self.stable:
            self._candidate = t
        else:
            self.bounces += 1
        self._advance(t)

    def poll(self, now):
        self._advance(now)

    def next_deadline(self):
        d = None
        if self._candidate is not None:
            if self._raw != self.stable:
                d = self._run_start + self.glitch
            else:
                d = self._candidate + self.lockout
                if self._run_start > d:
                    d = self._run_start
        elif self._lock_until is not None:
            d = self._lock_until
        if (self.stable and not self.stuck and self.stuck_after is not None
                and self._press_t0 is not None):
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
            if d > self._now:
                self._now = d
            self._decide(self._now)

    def _decide(self, at):
        if self._candidate is not None:
            t0 = self._candidate
            if self._raw != self.stable and at >= self._run_start + self.glitch:
                self._candidate = None
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
            end = t0 + self.lockout
            if self._run_start > end:
                end = self._run_start
            if self._raw == self.stable and at >= end:
                self._candidate = None
                self.glitches += 1
                return
        if self._lock_until is not None and at >= self._lock_until:
            self._lock_until = None
            if self._raw != self.stable:
                self.bounces -= 1
                self._candidate = self._run_start
            return
        if self.stable and not self.stuck and self._press_t0 is not None:
            self.stuck = True
            self._sink(self.key, STUCK, self._press_t0)
            return
        raise AssertionError("deadline without a decision")
