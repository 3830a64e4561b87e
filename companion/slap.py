"""Slap adjudication: who pressed, in what order, and who was last, from hardware stamps alone.

Pure and separately tested. Presses may arrive in any order; order is by stamp. A window takes
every press until the table's verdict; a press counts when its stamp is no later than the close
(first stamp + timeout, or the table's close, whichever is earlier). Only a player's earliest
press counts, so a late-arriving earlier press re-orders the window (and may become the claimant).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Press:
    player: str
    t_us: int


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

    @property
    def claimant(self) -> str | None:
        return self.order[0].player if self.order else None


class SlapWindow:
    """Collects presses of one window. ``add`` is O(1); ``result`` sorts at most one press a seat."""

    __slots__ = ("_close_us", "_earliest", "_players", "_resolution_us", "_seat", "_timeout_us",
                 "presses_seen")

    def __init__(self, players: Sequence[str], timeout_us: int, resolution_us: int = 1) -> None:
        if resolution_us < 1:
            raise ValueError("resolution_us must be at least 1")
        self._players = tuple(players)
        self._seat = {p: i for i, p in enumerate(self._players)}
        self._timeout_us = timeout_us
        self._resolution_us = resolution_us
        self._earliest: dict[str, int] = {}
        self._close_us: int | None = None
        self.presses_seen = 0  # every press recorded, counted or not

    def copy(self) -> SlapWindow:
        other = SlapWindow.__new__(SlapWindow)
        other._players = self._players
        other._seat = self._seat
        other._timeout_us = self._timeout_us
        other._resolution_us = self._resolution_us
        other._earliest = dict(self._earliest)
        other._close_us = self._close_us
        other.presses_seen = self.presses_seen
        return other

    @property
    def is_empty(self) -> bool:
        return not self._earliest

    def pressed(self, player: str) -> bool:
        return player in self._earliest

    def add(self, player: str, t_us: int) -> None:
        """Record a press; a second press by the same player only matters if stamped earlier."""
        if player not in self._seat:
            raise KeyError(player)
        self.presses_seen += 1
        current = self._earliest.get(player)
        if current is None or t_us < current:
            self._earliest[player] = t_us

    def close(self, t_us: int) -> None:
        """The table closed the window; a window once closed stays closed at its earliest close."""
        if self._close_us is None or t_us < self._close_us:
            self._close_us = t_us

    def close_us(self) -> int | None:
        if not self._earliest:
            return self._close_us
        limit = min(self._earliest.values()) + self._timeout_us
        return limit if self._close_us is None else min(limit, self._close_us)

    def result(self) -> SlapResult:
        close = self.close_us()
        seat = self._seat
        counted = sorted(
            (Press(p, t) for p, t in self._earliest.items() if close is None or t <= close),
            key=lambda press: (press.t_us, seat[press.player]),
        )
        order = tuple(counted)
        pressed = {press.player for press in order}
        non_pressers = tuple(p for p in self._players if p not in pressed)
        tied = False
        margin: int | None = None
        if non_pressers or not order:
            last = non_pressers
        else:
            res = self._resolution_us
            last_tick = order[-1].t_us // res
            last = tuple(press.player for press in order if press.t_us // res == last_tick)
            tied = len(last) > 1
        if not non_pressers and len(order) >= 2:
            margin = order[-1].t_us - order[-2].t_us
        return SlapResult(order, non_pressers, last, tied, margin, close,
                          complete=not non_pressers)
