"""Putting stamps from different clocks on one clock before anyone compares them.

Pure: the caller supplies the clock readings. An offset is measured once at start-up by
bracketing one reading of the source clock between two of the common clock; the half-width of
the tightest bracket is how well the two clocks are tied, and it joins the resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.inputs.base import Clock, InputEvent, epoch_of

# The Pico's stamps have the resolution its `hello` states, which each press then carries: 1 µs
# from the PIO capture, the interrupt latency on the fallback (firmware/irqcapture.py,
# RESOLUTION_US; modelled by bench/gpio.py "pico.irq_model").


@dataclass(frozen=True, slots=True)
class Offset:
    """``common = source + offset_ns``, known to within ``uncertainty_ns``."""

    offset_ns: int
    uncertainty_ns: int


def measure_offset(
    read_source: Callable[[], int], read_common: Callable[[], int], samples: int = 16
) -> Offset:
    """The source-to-common offset, from the tightest of ``samples`` brackets."""
    if samples < 1:
        raise ValueError("at least one sample is needed")
    best: Offset | None = None
    for _ in range(samples):
        before = read_common()
        s = read_source()
        after = read_common()
        if after < before:
            raise ValueError("the common clock went backwards")
        mid = before + (after - before) // 2
        o = Offset(mid - s, (after - before + 1) // 2)
        if best is None or o.uncertainty_ns < best.uncertainty_ns:
            best = o
    assert best is not None
    return best


class ClockMerger:
    """Maps every registered clock onto ``common``; the merged clock has the coarsest resolution.

    A clock is registered by name and epoch: an event may carry a coarser resolution than its
    source's usual one (a key read late by a slow step says so), and is converted all the same."""

    def __init__(self, common: Clock) -> None:
        self.common = common
        self._offsets: dict[tuple[str, str], Offset] = {_key(common): Offset(0, 0)}
        self._clocks: set[Clock] = {common}  # every clock registered, for ``clock``

    def update(self, clock: Clock, offset: Offset) -> None:
        """A source whose offset drifts (a Pico's crystal) refreshes it before converting."""
        self._offsets[_key(clock)] = offset
        self._clocks.add(clock)

    def add(self, clock: Clock, offset: Offset | None = None) -> None:
        """Register a source clock; a clock with the common clock's name needs no offset."""
        if offset is None:
            if clock.name != self.common.name:
                raise ValueError(f"clock {clock.name!r} differs from {self.common.name!r}: measure an offset")
            offset = Offset(0, 0)
        self._offsets[_key(clock)] = offset
        self._clocks.add(clock)

    @property
    def clock(self) -> Clock:
        """The clock every converted event carries."""
        worst = max(max(c.resolution_ns, self._offsets[_key(c)].uncertainty_ns) for c in self._clocks)
        return Clock(self.common.name, max(worst, self.common.resolution_ns))

    def knows(self, clock: Clock) -> bool:
        """Whether ``clock`` itself was registered (its stamps convert once its run is)."""
        return clock in self._clocks

    def converts(self, clock: Clock) -> bool:
        """Whether stamps of ``clock`` can be converted (its name and epoch are tied)."""
        return _key(clock) in self._offsets

    def to_common(self, clock: Clock, t_ns: int) -> int:
        try:
            return t_ns + self._offsets[_key(clock)].offset_ns
        except KeyError:
            raise ValueError(f"clock {clock.name!r} was never registered") from None

    def resolution_of(self, clock: Clock) -> int:
        """How finely a stamp of ``clock`` is known once on the common clock."""
        o = self._offsets[_key(clock)]
        return max(clock.resolution_ns, o.uncertainty_ns, self.common.resolution_ns)

    def convert(self, event: InputEvent) -> InputEvent:
        # Each event keeps its own source's resolution: two GPIO presses of a gpio+keyboard game
        # still part at 1 µs; the slap window takes the coarser of any two presses it compares.
        try:
            res = self.resolution_of(event.clock)
        except KeyError:
            raise ValueError(f"clock {event.clock.name!r} was never registered") from None
        return replace(
            event,
            t_ns=self.to_common(event.clock, event.t_ns),
            clock=Clock(self.common.name, res, self.common.epoch),
        )


def _key(clock: Clock) -> tuple[str, str]:
    return (clock.name, epoch_of(clock))
