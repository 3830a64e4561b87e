"""A phone's clock mapped onto the table's, NTP-style, from pings over its connection.

Pure: the caller supplies every reading. A ping leaves the table at ``sent_ns`` (table clock), the
phone answers with its own clock's reading ``phone_ns``, the answer is read at ``back_ns``. The
phone read its clock somewhere between the two table readings, so each ping brackets the offset;
the tightest bracket (the minimum round trip) is the one trusted, and a long run of pings tracks
how fast the two crystals drift apart. A mapped stamp comes with the half-width of its bracket,
widened by the drift since that ping and the phone clock's own step: that is its resolution, and
the engines' tie rule does the rest.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

# Before any drift is measured: the kernel's NTP frequency correction of CLOCK_MONOTONIC (at most
# 500 ppm) plus a phone's crystal (tens of ppm).
UNTRACKED_DRIFT_PPM = 600
# What is left once the drift is measured over TRACK_SPAN_NS: the fit's own error (a few ms of
# bracket over a minute) and slewing that changes, a phone that warms up.
TRACKED_DRIFT_PPM = 150
TRACK_SPAN_NS = 60_000_000_000
WINDOW = 16  # pings per window; the best of each window is one point of the drift fit
WINDOWS = 32  # windows kept (about ten minutes at one ping every second)


@dataclass(frozen=True, slots=True)
class Ping:
    """One round trip: table clock at send and receipt, the phone's clock in between (all ns)."""

    sent_ns: int
    phone_ns: int
    back_ns: int

    @property
    def rtt_ns(self) -> int:
        return self.back_ns - self.sent_ns

    @property
    def offset_ns(self) -> int:
        """``table = phone + offset``, taking the middle of the bracket."""
        return self.sent_ns + self.rtt_ns // 2 - self.phone_ns

    @property
    def half_ns(self) -> int:
        return (self.rtt_ns + 1) // 2


@dataclass(frozen=True, slots=True)
class Mapped:
    """A phone stamp on the table's clock, within ``uncertainty_ns`` of the truth."""

    t_ns: int
    uncertainty_ns: int


class PhoneClock:
    """Everything one connection has learnt of a phone's clock.

    ``phone_res_ns`` is the step of the phone's clock (browsers round ``performance.now()`` to
    5 µs-1 ms); it is added to every uncertainty, since a stamp is only known to that step.
    """

    def __init__(
        self, phone_res_ns: int = 1_000_000, *, window: int = WINDOW, windows: int = WINDOWS
    ) -> None:
        if phone_res_ns < 1:
            raise ValueError("the phone clock's step must be at least 1 ns")
        self.phone_res_ns = phone_res_ns
        self._window = window
        self._best: deque[Ping] = deque(maxlen=windows)  # best ping of each closed window
        self._current: Ping | None = None  # best ping of the window being filled
        self._in_current = 0
        self.pings = 0
        self._skew = 0.0  # d(offset)/d(phone time), from the fit of the windows' best pings

    def add(self, ping: Ping) -> bool:
        """Learn from one round trip; False (and ignored) if it cannot be true."""
        if ping.back_ns < ping.sent_ns:
            return False
        last = self._current or (self._best[-1] if self._best else None)
        if last is not None and ping.phone_ns < last.phone_ns and ping.sent_ns > last.back_ns:
            return False  # the phone's clock went backwards: a reload, or a lie
        self.pings += 1
        if self._current is None or ping.rtt_ns <= self._current.rtt_ns:
            self._current = ping
        self._in_current += 1
        if self._in_current >= self._window:
            self._best.append(self._current)
            self._current = None
            self._in_current = 0
            self._skew = self._fit()
        return True

    def _candidates(self) -> list[Ping]:
        out = list(self._best)
        if self._current is not None:
            out.append(self._current)
        return out

    def _fit(self) -> float:
        """Least squares of offset against phone time over the windows' best pings."""
        pts = list(self._best)
        if len(pts) < 3 or pts[-1].phone_ns - pts[0].phone_ns < TRACK_SPAN_NS:
            return 0.0
        n = len(pts)
        mx = sum(p.phone_ns for p in pts) / n
        my = sum(p.offset_ns for p in pts) / n
        sxx = sum((p.phone_ns - mx) ** 2 for p in pts)
        if sxx == 0:
            return 0.0
        return sum((p.phone_ns - mx) * (p.offset_ns - my) for p in pts) / sxx

    @property
    def tracked(self) -> bool:
        """Whether the drift has been measured over a long enough span."""
        pts = self._best
        return len(pts) >= 3 and pts[-1].phone_ns - pts[0].phone_ns >= TRACK_SPAN_NS

    @property
    def skew_ppm(self) -> float:
        return self._skew * 1e6

    def map(self, phone_ns: int) -> Mapped | None:
        """The phone stamp on the table's clock; None until a first ping came back."""
        drift_ppm = TRACKED_DRIFT_PPM if self.tracked else UNTRACKED_DRIFT_PPM
        skew = self._skew if self.tracked else 0.0
        best: Ping | None = None
        best_unc = 0
        for ping in self._candidates():
            # The bracket's half-width and the drift left unexplained since that ping.
            unc = ping.half_ns + (abs(phone_ns - ping.phone_ns) * drift_ppm + 999_999) // 1_000_000
            if best is None or unc < best_unc:
                best, best_unc = ping, unc
        if best is None:
            return None
        # Plus the phone clock's step on both readings (the ping's and the stamp's).
        return Mapped(
            phone_ns + best.offset_ns + round((phone_ns - best.phone_ns) * skew),
            best_unc + 2 * self.phone_res_ns,
        )

    def uncertainty_now(self, phone_ns: int) -> int | None:
        """What a press stamped at ``phone_ns`` would be known to (the status screen's figure)."""
        m = self.map(phone_ns)
        return None if m is None else m.uncertainty_ns

    @property
    def min_rtt_ns(self) -> int | None:
        c = self._candidates()
        return min(p.rtt_ns for p in c) if c else None
