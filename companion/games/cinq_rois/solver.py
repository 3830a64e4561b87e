"""The exact arrangement solver of Les Cinq Rois: the runs and sets that leave the fewest points.

Reading of the seed text (``002``) this module relies on, also stated in spec/rules.md section 2:

- A *set* (famille) is at least three cards of one rank, suits free. With two decks a set may hold
  both copies of a card (two 7H): the seed only asks for "the same value, whatever the colour".
- A *run* (suite) is at least three consecutive ranks of one suit, 3..K, no wrap-around, each rank
  once (so at most 11 cards).
- Wilds (jokers, and the round's bonus rank in every suit) stand for any card, any number of them
  in a combination, and a combination may be wilds only. A wild may stand for a card that is also
  in the hand: with two decks that card exists twice.

Why the search is small: a wild left over costs 20 or 50 points, and as soon as the arrangement has
one combination every spare wild can join it (a set takes any number of cards; a run grows up to
11 cards, and a full run can give two of its cards to a new three-card run). So the solver never
places wilds one by one: it searches the natural cards only, with a *budget* of wilds, for the
groups (a run or set's natural cards plus the wilds it needs) that leave the fewest natural points,
then pours the spare wilds into the groups. The search is an exact memoised recursion: take the
lowest remaining natural card; either it is left over, or it is the lowest card of one of the
groups precomputed for it. States are the remaining cards (a packed count per distinct card) and
the wilds left, capped at two per natural card (two wilds always complete any single card).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, NamedTuple

import companion.games.cinq_rois.strings  # noqa: F401  (the game's error templates join the catalogue)
from companion.cards import RANKS, Card, Rank, RankName, Suit
from companion.errors import CardError

GAME_RANKS: tuple[Rank, ...] = RANKS[2:]  # 3 .. K: no Aces and no 2s in this game
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.STARS)
ROUNDS = 11
JOKER_POINTS = 50
BONUS_POINTS = 20
MAX_RUN = len(GAME_RANKS)
MIN_COMBINATION = 3

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_GAME_RANK_SET = frozenset(GAME_RANKS)

Kind = Literal["run", "set"]


# --- the cards of this game ---------------------------------------------------------------------


def cards_in_round(n: int) -> int:
    """Round ``n`` (1..11) deals n + 2 cards."""
    return n + 2


def bonus_rank(n: int) -> Rank:
    """The bonus rank of round ``n``: the rank equal to the number of cards dealt (3..10, J, Q, K)."""
    if not 1 <= n <= ROUNDS:
        raise ValueError(f"Les Cinq Rois has rounds 1 to {ROUNDS}, not {n}")
    return RANKS[cards_in_round(n) - 1]


def check_card(card: Card) -> None:
    """Raise CardError unless ``card`` is in the two 58-card decks of Les Cinq Rois."""
    if card.is_joker:
        return
    assert card.rank is not None
    if card.rank not in _GAME_RANK_SET:
        raise CardError("cinq_rois.solver.not_in_game", card=card, ranks=RankName(card.rank, plural=True))
    if card.suit is None:
        raise CardError(
            "cinq_rois.solver.check_card",
            card=card,
        )


def is_wild(card: Card, bonus: Rank) -> bool:
    return card.rank is None or card.rank is bonus


def card_points(card: Card, bonus: Rank) -> int:
    """Points of a card left in hand: joker 50, bonus rank 20, K 13, Q 12, J 11, 10..3 face."""
    if card.rank is None:
        return JOKER_POINTS
    if card.rank is bonus:
        return BONUS_POINTS
    return card.rank.order


def card_key(card: Card) -> tuple[int, int, int]:
    """Canonical order: natural cards by rank then suit (S H D C *), the joker last."""
    if card.rank is None:
        return (1, 0, 0)
    return (0, card.rank.order, _SUIT_INDEX[card.suit] if card.suit is not None else -1)


# --- results ------------------------------------------------------------------------------------


class Placed(NamedTuple):
    """A card in a combination and the card it counts as (itself, unless it is a wild)."""

    card: Card
    stands_for: Card
    wild: bool = False


@dataclass(frozen=True, slots=True)
class Combination:
    kind: Kind
    cards: tuple[Placed, ...]

    def to_json(self) -> list[str]:
        return [str(p.card) for p in self.cards]

    def detail(self) -> list[dict[str, Any]]:
        """Each card with what it stands for, for a screen:
        ``{"card": "JK", "as": "7H", "wild": true}``."""
        return [{"card": str(p.card), "as": str(p.stands_for), "wild": p.wild} for p in self.cards]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The best arrangement of one hand: its combinations, the cards left over and their points."""

    bonus: Rank
    combinations: tuple[Combination, ...]
    left: tuple[Card, ...]
    points: int

    @property
    def fully_combines(self) -> bool:
        return not self.left

    def to_json(self) -> dict[str, Any]:
        return {
            "combinations": [c.detail() for c in self.combinations],
            "left": [str(c) for c in self.left],
            "points": self.points,
        }


# --- the search ---------------------------------------------------------------------------------


# Inside the search a natural card is an int, rank order * 8 + suit index: sorting ints is then the
# canonical order, and nothing hashes an enum in the inner loops.
def _code(card: Card) -> int:
    assert card.rank is not None and card.suit is not None
    return card.rank.order * 8 + _SUIT_INDEX[card.suit]


_CARD_OF = {_code(Card(r, s)): Card(r, s) for r in GAME_RANKS for s in SUITS}


@dataclass(frozen=True, slots=True)
class _Group:
    kind: Kind
    members: tuple[int, ...]  # type indices, one entry per card (a type twice in a set of twins)
    wilds: int  # wilds this group needs to be a valid combination
    enc: int  # packed counts, same layout as the search state


def _groups_for(
    types: Sequence[int], counts: Sequence[int], width: int, wild_budget: int, t: int
) -> list[_Group]:
    """Every group whose lowest natural card is type ``t`` and that needs at most the budget."""
    found: dict[int, _Group] = {}

    def add(kind: Kind, members: tuple[int, ...], wilds: int) -> None:
        if wilds > wild_budget:
            return
        enc = 0
        for m in members:
            enc += 1 << (width * m)
        old = found.get(enc)
        if old is None or wilds < old.wilds:
            found[enc] = _Group(kind, members, wilds, enc)

    rank, suit = types[t] >> 3, types[t] & 7
    # Sets: one or more copies of t plus any sub-multiset of the same rank's higher types.
    same_rank = [u for u in range(t + 1, len(types)) if types[u] >> 3 == rank]
    partial: list[tuple[int, ...]] = [(t,) * k for k in range(1, counts[t] + 1)]
    for u in same_rank:
        partial = [members + (u,) * k for members in partial for k in range(counts[u] + 1)]
    for members in partial:
        add("set", members, max(0, MIN_COMBINATION - len(members)))

    # Runs: t plus any subset of the same suit's higher ranks, gaps filled by wilds.
    same_suit = [u for u in range(t + 1, len(types)) if types[u] & 7 == suit]
    # (next candidate, members, top rank); a stack, not recursion: a recursive closure is a
    # reference cycle, and cyclic garbage is what wakes Python's slow full collections.
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, (t,), rank)]
    while stack:
        i, members, top = stack.pop()
        add("run", members, max(top - rank + 1, MIN_COMBINATION) - len(members))
        for j in range(i, len(same_suit)):
            u = same_suit[j]
            order = types[u] >> 3
            if order - rank - len(members) > wild_budget:
                break  # same_suit is in rank order: every later card leaves a wider gap
            stack.append((j + 1, (*members, u), order))
    # Bigger groups first: the search finds a zero sooner, and the arrangement kept among equal
    # ones is the one with the fewest, largest combinations.
    return sorted(found.values(), key=lambda g: (-len(g.members), g.wilds, g.kind == "run", g.enc))


def _search(naturals: Sequence[Card], wilds: int) -> tuple[list[tuple[Kind, list[Card], int]], list[Card]]:
    """An optimal arrangement of ``naturals`` with at most ``wilds`` wilds: each group as
    (kind, its natural cards, the wilds it needs), and the natural cards left over."""
    codes = [_code(c) for c in naturals]
    types = sorted(set(codes))
    index = {c: i for i, c in enumerate(types)}
    counts = [0] * len(types)
    for code in codes:
        counts[index[code]] += 1
    width = max(counts, default=1).bit_length() + 1  # the top bit of each field is a guard
    guard = sum(1 << (width * i + width - 1) for i in range(len(types)))
    unit = [1 << (width * i) for i in range(len(types))]
    value = [c >> 3 for c in types]
    budget = min(wilds, 2 * len(naturals))
    full = [_groups_for(types, counts, width, budget, t) for t in range(len(types))]
    groups = [[(g.enc, g.wilds, len(g.members)) for g in gs] for gs in full]
    scale = 2 * len(naturals) + 1
    memo: dict[int, int] = {}
    # The recursion reaches itself through this list, emptied at the end: a closure naming
    # itself would be a reference cycle left for the cyclic GC, whose full passes cost ~10 ms.
    me: list[Callable[[int, int, int], int]] = []

    def best(state: int, w: int, n: int) -> int:
        if w >= 2 * n:
            return 0  # every card left can take two wilds of its own
        key = state * scale + w
        found = memo.get(key)
        if found is not None:
            return found
        again = me[0]
        t = ((state & -state).bit_length() - 1) // width
        result = value[t] + again(state - unit[t], w, n - 1)
        for enc, need, size in groups[t]:
            if need <= w and ((state | guard) - enc) & guard == guard:
                v = again(state - enc, w - need, n - size)
                if v < result:
                    result = v
                    if not v:
                        break
        memo[key] = result
        return result

    me.append(best)
    state = sum(c * u for c, u in zip(counts, unit, strict=True))
    n = len(naturals)
    w = budget
    target = best(state, w, n)
    chosen, left = _walk_down(full, types, value, (width, guard, unit), best, (state, w, n, target))
    me.clear()
    return chosen, left


def _walk_down(
    full: list[list[_Group]],
    types: list[int],
    value: list[int],
    layout: tuple[int, int, list[int]],
    best: Callable[[int, int, int], int],
    start: tuple[int, int, int, int],
) -> tuple[list[tuple[Kind, list[Card], int]], list[Card]]:
    """The groups of an optimal arrangement, from the optimum ``best`` found: ``layout`` is the
    state's encoding (field width, guard bits, one card of each type), ``start`` the state, the
    wilds, the cards and the optimum to keep."""
    width, guard, unit = layout
    state, w, n, target = start
    chosen: list[tuple[Kind, list[Card], int]] = []
    left: list[Card] = []
    # Walk down again, taking in a fixed order the first option that keeps the optimum: the same
    # hand always gives the same arrangement, whatever order its cards were given in.
    while n:
        t = ((state & -state).bit_length() - 1) // width
        for g in full[t]:
            if (
                g.wilds <= w
                and ((state | guard) - g.enc) & guard == guard
                and best(state - g.enc, w - g.wilds, n - len(g.members)) == target
            ):
                chosen.append((g.kind, [_CARD_OF[types[m]] for m in g.members], g.wilds))
                state -= g.enc
                w -= g.wilds
                n -= len(g.members)
                break
        else:
            left.append(_CARD_OF[types[t]])
            target -= value[t]
            state -= unit[t]
            n -= 1
    return chosen, left


# --- from groups to the arrangement shown to the table -------------------------------------------


@dataclass(slots=True)
class _Build:
    """A combination being assembled: its natural cards and what each of its wilds stands for."""

    kind: Kind
    naturals: list[Card]
    slots: list[Card]

    def ranks(self) -> list[int]:
        return sorted(c.rank.order for c in (*self.naturals, *self.slots))  # type: ignore[union-attr]

    def suit(self) -> Suit:
        suit = self.naturals[0].suit if self.naturals else self.slots[0].suit
        assert suit is not None
        return suit

    def add_set_slot(self) -> None:
        rank = (self.naturals or self.slots)[0].rank
        used = [c.suit for c in (*self.naturals, *self.slots)]
        # Prefer a suit not yet in the set, so "JK as 7C" reads like a real card of the decks.
        suit = min(SUITS, key=lambda s: (used.count(s), _SUIT_INDEX[s]))
        self.slots.append(Card(rank, suit))

    def can_grow_run(self) -> bool:
        return len(self.naturals) + len(self.slots) < MAX_RUN

    def add_run_slot(self) -> None:
        ranks = self.ranks()
        order = ranks[-1] + 1 if ranks[-1] < GAME_RANKS[-1].order else ranks[0] - 1
        self.slots.append(Card(RANKS[order - 1], self.suit()))


def _builds(groups: list[tuple[Kind, list[Card], int]]) -> list[_Build]:
    builds: list[_Build] = []
    for kind, naturals, wilds in groups:
        b = _Build(kind, list(naturals), [])
        if kind == "set":
            for _ in range(wilds):
                b.add_set_slot()
        else:
            present = {c.rank.order for c in naturals}  # type: ignore[union-attr]
            suit = b.suit()
            for order in range(min(present), max(present) + 1):
                if order not in present:
                    b.slots.append(Card(RANKS[order - 1], suit))
            while len(b.slots) < wilds:
                b.add_run_slot()
        builds.append(b)
    return builds


def _absorb(builds: list[_Build], spare: int, bonus: Rank) -> None:
    """Give every spare wild a place; callers ensure there is a combination or 3+ spare wilds."""
    sets = [b for b in builds if b.kind == "set"]
    if sets:
        for _ in range(spare):
            sets[0].add_set_slot()
        return
    for b in builds:
        while spare and b.can_grow_run():
            b.add_run_slot()
            spare -= 1
    if not spare:
        return
    if spare >= MIN_COMBINATION or not builds:
        wild_set = _Build("set", [], [Card(bonus, SUITS[0])])
        for _ in range(spare - 1):
            wild_set.add_set_slot()
        builds.append(wild_set)
        return
    # Only full 3..K runs and one or two spare wilds: the top 3 - spare cards of a full run become a
    # new three-card run, the spares standing for the ranks just below them (cards that exist twice).
    full = builds[-1]
    keep = MAX_RUN - (MIN_COMBINATION - spare)
    cut = GAME_RANKS[keep - 1].order
    moved_n = [c for c in full.naturals if c.rank.order > cut]  # type: ignore[union-attr]
    moved_s = [c for c in full.slots if c.rank.order > cut]  # type: ignore[union-attr]
    full.naturals = [c for c in full.naturals if c not in moved_n]
    full.slots = [c for c in full.slots if c not in moved_s]
    suit = full.suit() if full.naturals or full.slots else (moved_n or moved_s)[0].suit
    below = [Card(RANKS[o - 1], suit) for o in range(cut - spare + 1, cut + 1)]
    builds.append(_Build("run", moved_n, moved_s + below))


def _place(builds: list[_Build], wild_cards: list[Card], bonus: Rank) -> tuple[Combination, ...]:
    pool = sorted(wild_cards, key=card_key)
    slots = [(i, sf) for i, b in enumerate(builds) for sf in b.slots]
    given: dict[int, Card] = {}
    # A bonus card whose own place is a wild slot takes it: "7H as 7H" rather than "7H as 9S".
    for k, (_, sf) in enumerate(slots):
        if sf in pool:
            pool.remove(sf)
            given[k] = sf
    for k in range(len(slots)):
        if k not in given:
            given[k] = pool.pop(0)
    placed: list[list[Placed]] = [[Placed(c, c, is_wild(c, bonus)) for c in b.naturals] for b in builds]
    for k, (i, sf) in enumerate(slots):
        placed[i].append(Placed(given[k], sf, True))
    combos: list[Combination] = []
    for b, cards in zip(builds, placed, strict=True):
        if b.kind == "run":
            cards.sort(key=lambda p: (p.stands_for.rank.order, p.wild))  # type: ignore[union-attr]
        else:
            cards.sort(
                key=lambda p: (
                    _SUIT_INDEX[p.stands_for.suit],  # type: ignore[index]
                    p.wild,
                    card_key(p.card),
                )
            )
        combos.append(Combination(b.kind, tuple(cards)))
    combos.sort(
        key=lambda c: (
            c.cards[0].stands_for.rank.order,  # type: ignore[union-attr]
            c.kind == "set",
            _SUIT_INDEX[c.cards[0].stands_for.suit],  # type: ignore[index]
            [card_key(p.card) for p in c.cards],
        )
    )
    return tuple(combos)


@lru_cache(maxsize=8192)
def _solve_sorted(hand: tuple[Card, ...], bonus: Rank) -> Arrangement:
    wild_cards = [c for c in hand if is_wild(c, bonus)]
    naturals = [c for c in hand if not is_wild(c, bonus)]
    groups, left = _search(naturals, len(wild_cards))
    spare = len(wild_cards) - sum(w for _, _, w in groups)
    if not groups and len(wild_cards) < MIN_COMBINATION:
        left = sorted(hand, key=card_key)  # nothing combines: every card counts, wilds included
        return Arrangement(bonus, (), tuple(left), sum(card_points(c, bonus) for c in left))
    builds = _builds(groups)
    if spare:
        _absorb(builds, spare, bonus)
    left.sort(key=card_key)
    return Arrangement(
        bonus, _place(builds, wild_cards, bonus), tuple(left), sum(card_points(c, bonus) for c in left)
    )


def solve(hand: Iterable[Card], bonus: Rank) -> Arrangement:
    """The arrangement of ``hand`` that leaves the fewest points when ``bonus`` is the bonus rank.

    Exact (every arrangement is considered), and canonical: the same cards in any order give the
    same arrangement. Raises CardError for a card that is not in the game's decks.
    """
    cards = tuple(hand)
    if bonus not in _GAME_RANK_SET:
        raise ValueError(f"the bonus rank is 3 to K, not {bonus.value}")
    for card in cards:
        check_card(card)
    return _solve_sorted(tuple(sorted(cards, key=card_key)), bonus)


def fully_combines(hand: Iterable[Card], bonus: Rank) -> bool:
    """Whether every card of ``hand`` can be placed in a run or a set (the hand can go out)."""
    return solve(hand, bonus).fully_combines
