"""The series of 13 feuilles: the cards on the table in one trick, and what may be played on it.

Reading of the seed (003, "Les cartes que vous pouvez jouer") that this module implements:

- Cards carry a value from 1 to 13. The seed's legend composes a value from its marks: a dot is 1,
  a dotted circle 5, a dotted square 10 (a dotted circle and two dots is 7; a dotted square and
  three dots is 13). With ordinary playing cards, Ace = 1, Jack = 11, Queen = 12, King = 13.
- A play is one value and a count of cards of that value. Cards of one value lie stacked; the
  stacks lie side by side in increasing order, so the series has a low end and a high end, each a
  stack (one stack is both ends).
- On an empty table (the leader of a trick) any value and any count may be played.
- Otherwise a play must be below the low end, above the high end, or equal to an end's value, and
  its count must be at least the number of cards lying on the end it is played at: the low end for
  a value at or below it, the high end for a value at or above it. A play equal to an end is
  stacked on it, so that end then holds more cards and asks for more: 2 x 9 on 3 x 9 is not
  enough, 3 x 9 makes a stack of 6. Nothing may be played strictly between the two ends, whatever
  lies (or no longer lies) there.
- A player who passes takes one visible card of their choice into their hand. Taking a card from an
  end lowers that end's stack; taking the last card of an end makes the next stack the end (the
  seed's warning: taking from an end may help the others). Taking a card from the middle leaves
  the ends, and the gap stays forbidden.

``Series`` is immutable: each play or take gives a new one, so a saved state never changes.
"""

from __future__ import annotations

from dataclasses import dataclass

import companion.games.treize.strings  # noqa: F401  (the reasons' templates join the catalogue)
from companion.errors import RuleError
from companion.games.undo import pickled_by_fields
from companion.text import Joined, Text

MIN_VALUE = 1
MAX_VALUE = 13
VALUES: tuple[int, ...] = tuple(range(MIN_VALUE, MAX_VALUE + 1))


def cards_en(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def cards_fr(n: int) -> str:
    return f"{n} carte" if abs(n) < 2 else f"{n} cartes"  # French: singular for 0 and 1


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Stack:
    """``count`` cards of one ``value`` lying on the table."""

    value: int
    count: int

    def __str__(self) -> str:
        return f"{self.count}×{self.value}"


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """What the next player may put on ``series``: a predicate and a sentence for the screen."""

    series: Series

    def min_count(self, value: int) -> int | None:
        """The fewest cards of ``value`` that may be played, or None if the value may not be."""
        return self.series.min_count(value)

    @property
    def values(self) -> dict[int, int]:
        """Every playable value and the fewest cards it needs (the screen's first tap)."""
        return {v: m for v in VALUES if (m := self.series.min_count(v)) is not None}

    def allows(self, value: int, count: int) -> bool:
        return self.series.why_not(value, count) is None

    def __call__(self, value: int, count: int) -> bool:
        return self.allows(value, count)

    def text(self, lang: str = "fr") -> str:
        """One line: "4 ou moins : 2 cartes au moins ; 9 ou plus : 3 cartes au moins ; ..."."""
        s = self.series
        low, high = s.low, s.high
        if low is None or high is None:
            return (
                "n'importe quelle valeur, autant de cartes que voulu"
                if lang == "fr"
                else "any value, as many cards as you like"
            )
        if low.value == high.value:
            return (
                f"toute valeur\u202f: {cards_fr(low.count)} au moins"
                if lang == "fr"
                else f"any value: at least {cards_en(low.count)}"
            )
        parts: list[str] = []
        if lang == "fr":
            parts.append(
                f"{low.value} ou moins\u202f: {cards_fr(low.count)} au moins"
                if low.value > MIN_VALUE
                else f"sur le {low.value}\u202f: {cards_fr(low.count)} au moins"
            )
            parts.append(
                f"{high.value} ou plus\u202f: {cards_fr(high.count)} au moins"
                if high.value < MAX_VALUE
                else f"sur le {high.value}\u202f: {cards_fr(high.count)} au moins"
            )
            if high.value - low.value > 1:
                parts.append(f"pas de carte entre {low.value} et {high.value}")
        else:
            parts.append(
                f"{low.value} or lower: at least {cards_en(low.count)}"
                if low.value > MIN_VALUE
                else f"on the {low.value}: at least {cards_en(low.count)}"
            )
            parts.append(
                f"{high.value} or higher: at least {cards_en(high.count)}"
                if high.value < MAX_VALUE
                else f"on the {high.value}: at least {cards_en(high.count)}"
            )
            if high.value - low.value > 1:
                parts.append(f"nothing between {low.value} and {high.value}")
        return "\u202f; ".join(parts) if lang == "fr" else "; ".join(parts)


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Series:
    """The stacks on the table, lowest value first, each value at most once."""

    stacks: tuple[Stack, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.stacks

    @property
    def low(self) -> Stack | None:
        return self.stacks[0] if self.stacks else None

    @property
    def high(self) -> Stack | None:
        return self.stacks[-1] if self.stacks else None

    @property
    def cards(self) -> int:
        """How many cards lie on the table."""
        return sum(s.count for s in self.stacks)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(s.value for s in self.stacks)

    def count_of(self, value: int) -> int:
        return next((s.count for s in self.stacks if s.value == value), 0)

    def min_count(self, value: int) -> int | None:
        """The fewest cards of ``value`` a play needs, or None if ``value`` may not be played."""
        if not MIN_VALUE <= value <= MAX_VALUE:
            return None
        low, high = self.low, self.high
        if low is None or high is None:
            return 1
        if value <= low.value:
            return low.count
        if value >= high.value:
            return high.count
        return None

    def legal(self) -> LegalPlay:
        return LegalPlay(self)

    def why_not(self, value: int, count: int) -> Text | None:
        """None if ``count`` x ``value`` may be played, else the rule it breaks."""
        if not MIN_VALUE <= value <= MAX_VALUE:
            return Text("treize.series.why.outside", lo=MIN_VALUE, hi=MAX_VALUE, value=value)
        if count < 1:
            return Text("treize.series.why.no_card")
        low, high = self.low, self.high
        if low is None or high is None:
            return None
        if low.value < value < high.value:
            return Text("treize.series.why.between", low=low.value, high=high.value)
        end = low if value <= low.value else high
        if count >= end.count:
            return None
        if value == end.value:
            return Text("treize.series.why.on_end", n=end.count, value=end.value)
        side = "below" if value < end.value else "above"
        return Text(f"treize.series.why.{side}_end", n=end.count, value=end.value)

    def play(self, value: int, count: int) -> Series:
        """The series after ``count`` x ``value``; RuleError (without a player's name) if illegal."""
        reason = self.why_not(value, count)
        if reason is not None:
            raise RuleError(reason)
        if self.count_of(value):
            return Series(
                tuple(Stack(s.value, s.count + count) if s.value == value else s for s in self.stacks)
            )
        return Series(tuple(sorted((*self.stacks, Stack(value, count)), key=lambda s: s.value)))

    def why_not_take(self, value: int) -> Text | None:
        """None if a passing player may take a ``value``, else why not."""
        if self.empty:
            return Text("treize.series.why.take_empty")
        if not self.count_of(value):
            return Text("treize.series.why.take_missing", value=value, held=Joined(map(str, self.values)))
        return None

    def take(self, value: int) -> Series:
        """The series after a passing player took one card of ``value``."""
        reason = self.why_not_take(value)
        if reason is not None:
            raise RuleError(reason)
        return Series(
            tuple(
                Stack(s.value, s.count - 1) if s.value == value else s
                for s in self.stacks
                if not (s.value == value and s.count == 1)
            )
        )

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.stacks) if self.stacks else "-"

    def to_json(self) -> dict[str, object]:
        low, high = self.low, self.high
        return {
            "stacks": [{"value": s.value, "count": s.count} for s in self.stacks],
            "low": None if low is None else {"value": low.value, "count": low.count},
            "high": None if high is None else {"value": high.value, "count": high.count},
        }
