"""A read-only picture of a 13 feuilles game for the screens: built once per change, never mutated.

Screens draw from this and nothing else, so a redraw never touches the engine and a snapshot of
any state (a live game, a table log) draws the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.treize.rules import MATCH_TARGET, GameResult, LastPlay, TreizeGame


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    passed: bool  # out of the trick in play
    turn: bool  # plays now
    leader: bool  # led the trick in play
    starter: bool  # starts (or started) the game in play
    count: int | None  # cards in hand, when plays are entered
    total: int  # points in the advanced match (0 in basic)
    place: int  # 1-based, lowest total first
    moved: int = 0  # places gained in the last game (negative: lost); 0 in basic, which keeps no points


@dataclass(frozen=True, slots=True)
class View:
    players: tuple[str, ...]
    variant: str
    finished: bool
    awaiting: str  # "starter", "play", "nothing"
    game_number: int
    trick: int
    turn: str | None
    leader: str | None
    starter: str | None
    mode: str | None  # "plays", "passes", None before the game's first pass or play
    dealt: int
    seats: tuple[SeatView, ...]
    stacks: tuple[tuple[int, int], ...]  # (value, count), lowest first; empty if none or unknown
    allowed: tuple[str, str] | None  # (French, English) sentence for the player to play
    options: tuple[tuple[int, int, int], ...]  # (value, fewest, most) the player to play may put
    take: tuple[int, ...]  # the values a passing player may take
    history: tuple[GameResult, ...]
    standings: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    target: int
    last_play: LastPlay | None
    passed: tuple[str, ...]
    in_trick: tuple[str, ...]

    def seat_of(self, name: str) -> int:
        return self.players.index(name)

    @property
    def tracking(self) -> bool:
        return self.mode != "passes"

    @property
    def advanced(self) -> bool:
        return self.variant == "advanced"

    @property
    def low(self) -> tuple[int, int] | None:
        return self.stacks[0] if self.stacks else None

    @property
    def high(self) -> tuple[int, int] | None:
        return self.stacks[-1] if self.stacks else None

    def option(self, value: int) -> tuple[int, int] | None:
        """(fewest, most) cards of ``value`` the player to play may put down, or None."""
        return next(((lo, hi) for v, lo, hi in self.options if v == value), None)


def _tied_places(totals: dict[str, int]) -> dict[str, int]:
    """Places with ties sharing one ("1er, 1er, 3e"), as the tiles show them."""
    return {p: 1 + sum(other < x for other in totals.values()) for p, x in totals.items()}


def _moves(game: TreizeGame) -> dict[str, int]:
    """The places each player gained in the last game of the match (negative: lost), from the
    totals before it (all 0 before the first: everybody first) to the totals after it."""
    if game.variant != "advanced" or not game.history:
        return {}
    after = dict(game.history[-1].totals)
    before = dict(game.history[-2].totals) if len(game.history) >= 2 else dict.fromkeys(after, 0)
    then, now = _tied_places(before), _tied_places(after)
    return {p: then[p] - now[p] for p in after}


def build_view(game: TreizeGame) -> View:
    counts = game.counts()
    places = {name: i + 1 for i, (name, _) in enumerate(game.standings())}
    passed = set(game.passed)
    turn = game.turn
    starter = game.starter if not game.finished else None
    moved = _moves(game)
    seats = tuple(
        SeatView(
            seat=i,
            name=p,
            passed=p in passed,
            turn=p == turn,
            leader=not game.finished and p == game.leader,
            starter=p == starter,
            count=None if counts is None or game.finished else counts[p],
            total=game.total(p),
            place=places[p],
            moved=moved.get(p, 0),
        )
        for i, p in enumerate(game.players)
    )
    series = game.series
    legal = game.legal()
    options: tuple[tuple[int, int, int], ...] = ()
    if turn is not None and not game.finished:
        options = tuple((v, r.start, r.stop - 1) for v, r in game.play_options(turn).items())
    return View(
        players=game.players,
        variant=game.variant,
        finished=game.finished,
        awaiting=game.awaiting,
        game_number=game.game_number,
        trick=game.trick,
        turn=turn,
        leader=None if game.finished else game.leader,
        starter=starter,
        mode=game.mode,
        dealt=game.dealt,
        seats=seats,
        stacks=() if series is None or game.finished else tuple((s.value, s.count) for s in series.stacks),
        allowed=None if legal is None else (legal.text("fr"), legal.text("en")),
        options=options,
        take=() if game.finished else game.take_options(),
        history=game.history,
        standings=tuple(game.standings()),
        winners=tuple(game.winners()),
        target=MATCH_TARGET,
        last_play=game.last_play,
        passed=game.passed,
        in_trick=() if game.finished else game.in_trick,
    )
