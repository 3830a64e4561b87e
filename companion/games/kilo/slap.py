"""Slap adjudication: who pressed, in what order, and who was last, from hardware stamps alone.

Pure and separately tested. Presses may arrive in any order; order is by stamp. A window takes
every press until the table's verdict; a press counts when its stamp is no later than the close
(first stamp + timeout, or the table's close, whichever is earlier). Only a player's earliest
press counts, so a late-arriving earlier press re-orders the window (and may become the claimant).

Each press carries the resolution of the clock that stamped it (20 ms for a key fed by the
display, 1 µs for a GPIO kernel stamp). Two presses closer than the coarser of their two
resolutions cannot be told apart: they tie. The margin is reported with the precision it has.

A press may also name its clock's epoch (which boot of the Pi or of the board stamped it). A
window holds the presses of one epoch only: the first press sets it, and a press of another
epoch finds the window closed before it (its stamps cannot be compared with the window's).

A verdict has a time horizon: the latest stamp its window recorded, in the window's epoch (logs
without epochs have none). A press of that epoch stamped at or before it was made before the
verdict, whenever it arrives (a board's resend after a reconnect): it belongs to the judged
window, so the next window (``floor``) does not take it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.undo import pickled_by_fields


def stretched_limit(first_us: int, timeout_us: int, outages: Sequence[tuple[int, int]]) -> int:
    """Where a window opened at ``first_us`` times out: ``timeout_us`` of the table running,
    so every outage (from, to) that began before that is added to it (nobody could press)."""
    limit = first_us + timeout_us
    for start, end in sorted(outages):
        start = max(start, first_us)
        if start < limit and end > start:
            limit += end - start
    return limit


class _Unset:
    """A window's epoch before its first press. One object, compared by identity, so it pickles
    by name (a window may wait in the undo file, games/undo.py) and comes back the same."""

    def __reduce__(self) -> str:
        return "_UNSET"


_UNSET: Any = _Unset()


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Press:
    player: str
    t_us: int
    res_us: int = 1  # the stamping clock's resolution


def tied_with(later: Press, earlier: Press, floor_us: int = 1) -> bool:
    """Whether ``later`` cannot be told to come after ``earlier``: closer than either's resolution."""
    return later.t_us - earlier.t_us < max(later.res_us, earlier.res_us, floor_us)


@dataclass(frozen=True, slots=True)
class SlapResult:
    """The window as it stands; final once the table judges it."""

    order: tuple[Press, ...]  # counted presses, earliest first (seat order breaks equal stamps)
    non_pressers: tuple[str, ...]  # seated players with no counted press, in seat order
    last: tuple[str, ...]  # who is last: every non-presser, else the latest press(es)
    tied: bool  # two or more presses tied for last at the source's resolution
    margin_us: int | None  # last minus next-to-last; None if someone never pressed or only one did
    close_us: int | None  # when the window closes (stamp), None before the first press
    complete: bool  # every player has a counted press: nothing more can change the order
    margin_res_us: int = 1  # the margin is known to this precision (the coarser of the two presses)

    @property
    def claimant(self) -> str | None:
        return self.order[0].player if self.order else None


# SlapResult's fields as a plain tuple, in its order (SlapWindow.judge).
Judgement = tuple[
    tuple[Press, ...], tuple[str, ...], tuple[str, ...], bool, int | None, int | None, bool, int
]


class SlapWindow:
    """Collects presses of one window. ``add`` keeps the presses sorted by stamp (at most one a
    seat), so ``result`` only cuts at the close; it is cached until the window changes."""

    __slots__ = (
        "_closes",
        "_earliest",
        "_epoch",
        "_keys",
        "_latest",
        "_order",
        "_outages",
        "_players",
        "_resolution_us",
        "_result",
        "_seat",
        "_timeout_us",
        "floor",
        "presses_seen",
    )

    def __init__(
        self,
        players: Sequence[str],
        timeout_us: int,
        resolution_us: int = 1,
        floor: tuple[Any, int] | None = None,
    ) -> None:
        if resolution_us < 1:
            raise ValueError("resolution_us must be at least 1")
        self._players = tuple(players)
        self._seat = {p: i for i, p in enumerate(self._players)}
        self._timeout_us = timeout_us
        self._resolution_us = resolution_us
        self._earliest: dict[str, int] = {}
        # Each player's earliest press, sorted by (stamp, seat); _order holds the same presses.
        self._keys: list[tuple[int, int]] = []
        self._order: list[Press] = []
        # Every close stamp, sorted: a close before the first press closed no window, and an
        # earlier press arriving late can move the first press, so none can be dropped.
        self._closes: list[int] = []
        self._outages: list[tuple[int, int]] = []  # table outages while open (from, to)
        self._result: SlapResult | None = None
        self._epoch: Any = _UNSET
        self.presses_seen = 0  # every press recorded, counted or not
        self._latest: int | None = None  # the latest stamp recorded, counted or not
        # (epoch, stamp): the previous verdict's horizon; presses of it at or before are not ours.
        self.floor = floor

    def copy(self) -> SlapWindow:
        other = SlapWindow.__new__(SlapWindow)
        other._players = self._players
        other._seat = self._seat
        other._timeout_us = self._timeout_us
        other._resolution_us = self._resolution_us
        other._earliest = dict(self._earliest)
        other._keys = list(self._keys)
        other._order = list(self._order)
        other._closes = list(self._closes)
        other._outages = list(self._outages)
        other._result = self._result
        other._epoch = self._epoch
        other.presses_seen = self.presses_seen
        other._latest = self._latest
        other.floor = self.floor
        return other

    def following(self) -> SlapWindow:
        """The next window once this one is judged: the same players, timeout and resolution, no
        press yet, floored at this one's horizon. A verdict's step: it takes the seats as they
        are instead of building them again."""
        other = SlapWindow.__new__(SlapWindow)
        other._players = self._players
        other._seat = self._seat
        other._timeout_us = self._timeout_us
        other._resolution_us = self._resolution_us
        other._earliest = {}
        other._keys = []
        other._order = []
        other._closes = []
        other._outages = []
        other._result = None
        other._epoch = _UNSET
        other.presses_seen = 0
        other._latest = None
        other.floor = self.horizon()
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # A window may wait in the undo file (games/undo.py): its fields only, the cached
        # result is recomputed when asked.
        return _window, (
            self._players,
            self._timeout_us,
            self._resolution_us,
            self._earliest,
            self._keys,
            self._order,
            self._closes,
            self._epoch,
            self.presses_seen,
            self._latest,
            self.floor,
            self._outages,
        )

    @property
    def is_empty(self) -> bool:
        return not self._earliest

    def pressed(self, player: str) -> bool:
        return player in self._earliest

    def accepts(self, epoch: Any) -> bool:
        """Whether a press of ``epoch`` (later than the floor) belongs to this window."""
        return self._epoch is _UNSET or self._epoch == epoch

    def horizon(self) -> tuple[Any, int] | None:
        """(epoch, the later of its latest stamp and its latest close) for the next window's
        floor: the table's close is the verdict's instant on the window's clock, so a press of
        that epoch stamped at or before it was made before the verdict. None without a named
        epoch (old logs are one clock, judged as the spec says) or without a press."""
        if (
            self._latest is None
            or self._epoch is _UNSET
            or not isinstance(self._epoch, tuple)
            or self._epoch[-1] is None
        ):
            return None
        if self._closes and self._closes[-1] > self._latest:
            return self._epoch, self._closes[-1]
        return self._epoch, self._latest

    @property
    def epoch(self) -> Any:
        """The (clock, epoch) of the window's first press; None before it."""
        return None if self._epoch is _UNSET else self._epoch

    def last_close(self) -> int | None:
        """The latest close the table journaled into this window (a verdict's instant)."""
        return self._closes[-1] if self._closes else None

    def saw(self, t_us: int) -> None:
        """A press of this window's epoch was recorded at ``t_us`` (undo's summed presses)."""
        if self._latest is None or t_us > self._latest:
            self._latest = t_us

    def add(self, player: str, t_us: int, res_us: int = 1, epoch: Any = None) -> bool:
        """Record a press stamped by a clock of resolution ``res_us`` in ``epoch``; a second press
        by the same player only matters if stamped earlier. False (nothing recorded) when the
        press is of another epoch than the window's, or stamped at or before the floor."""
        if res_us < 1:
            raise ValueError("res_us must be at least 1")
        seat = self._seat.get(player)
        if seat is None:
            raise KeyError(player)
        floor = self.floor
        if floor is not None and epoch == floor[0] and t_us <= floor[1]:
            return False  # made before the previous verdict: that window's, already judged
        if self._epoch is _UNSET:
            self._epoch = epoch
        elif self._epoch != epoch:
            return False
        self.presses_seen += 1
        latest = self._latest  # what saw() does, without its call: every press passes here
        if latest is None or t_us > latest:
            self._latest = t_us
        current = self._earliest.get(player)
        if current is not None:
            if t_us >= current:
                return True
            index = bisect_left(self._keys, (current, seat))
            del self._keys[index]
            del self._order[index]
        self._earliest[player] = t_us
        key = (t_us, seat)
        index = bisect_left(self._keys, key)
        self._keys.insert(index, key)
        self._order.insert(index, Press(player, t_us, res_us))
        self._result = None
        return True

    def close(self, t_us: int) -> None:
        """The table closed the window; a window once closed stays closed at its earliest close
        stamped no earlier than its first press."""
        index = bisect_left(self._closes, t_us)
        if index == len(self._closes) or self._closes[index] != t_us:
            self._closes.insert(index, t_us)
            self._result = None

    def stretch(self, from_us: int, to_us: int) -> None:
        """The table was stopped from ``from_us`` to ``to_us``: the timeout does not run then."""
        self._outages.append((from_us, to_us))
        self._result = None

    @property
    def outages(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._outages)

    def span(self) -> tuple[int, int] | None:
        """(first press, latest stamp recorded) of the window; None before its first press."""
        if not self._keys or self._latest is None:
            return None
        return self._keys[0][0], self._latest

    def close_us(self) -> int | None:
        if not self._keys:
            return self._closes[0] if self._closes else None
        first = self._keys[0][0]
        limit = first + self._timeout_us
        if self._outages:
            limit = stretched_limit(first, self._timeout_us, self._outages)
        # A close stamped before the first press closed no window: it changes nothing (by
        # stamp, not by arrival, so a late-arriving earlier press is judged the same); the
        # earliest close from the first press on is the table's.
        index = bisect_left(self._closes, first)
        if index == len(self._closes):
            return limit
        return min(limit, self._closes[index])

    def result(self) -> SlapResult:
        if self._result is None:
            self._result = SlapResult(*self.judge())
        return self._result

    def judge(self) -> Judgement:
        """The fields of ``result()``, in its order, as a plain tuple computed anew: a verdict
        reads them once and drops the window (building the frozen result for it was a tenth of a
        long replay)."""
        close = self.close_us()
        keys = self._keys
        # Every key (t, seat) with t <= close sorts before (close, seat count).
        count = len(keys) if close is None else bisect_right(keys, (close, len(self._players)))
        order = tuple(self._order[:count])
        if count == len(self._players):
            non_pressers: tuple[str, ...] = ()
        else:
            # Every earliest press counted (the usual case): who pressed is _earliest's keys.
            pressed = self._earliest if count == len(keys) else {press.player for press in order}
            non_pressers = tuple([p for p in self._players if p not in pressed])
        tied = False
        margin: int | None = None
        margin_res = self._resolution_us
        if non_pressers or not order:
            last = non_pressers
        else:
            # Everyone the last press cannot be told apart from is last with it.
            final = order[-1]
            first_last = count - 1
            while first_last > 0 and tied_with(final, order[first_last - 1], self._resolution_us):
                first_last -= 1
            last = tuple(press.player for press in order[first_last:])
            tied = len(last) > 1
        if not non_pressers and count >= 2:
            margin = keys[count - 1][0] - keys[count - 2][0]
            margin_res = max(margin_res, order[-1].res_us, order[-2].res_us)
        return order, non_pressers, last, tied, margin, close, not non_pressers, margin_res


def _window(
    players: tuple[str, ...],
    timeout_us: int,
    resolution_us: int,
    earliest: dict[str, int],
    keys: list[tuple[int, int]],
    order: list[Press],
    closes: list[int],
    epoch: Any,
    presses_seen: int,
    latest: int | None,
    floor: tuple[Any, int] | None,
    outages: list[tuple[int, int]] | None = None,
) -> SlapWindow:
    window = SlapWindow(players, timeout_us, resolution_us, floor=floor)
    window._outages = list(outages or ())
    window._earliest, window._keys, window._order, window._closes = earliest, keys, order, closes
    window._epoch, window.presses_seen, window._latest = epoch, presses_seen, latest
    return window
