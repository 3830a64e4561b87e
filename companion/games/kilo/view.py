"""A read-only picture of the game for the screens: built once per change, never mutated.

Screens draw from this and nothing else, so a redraw never touches the engine and a snapshot of
any state (a live game, a table log) draws the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cards import FOUR_SUITS, RANKS, Card
from companion.errors import RuleError
from companion.games.kilo.events import KiloRules
from companion.games.kilo.odds import PileOdds, pile_odds
from companion.games.kilo.rules import KiloGame

Reason = tuple[str, str]  # (French, English)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    kilos: int
    cards: tuple[str, ...]
    flushes: int
    owes: bool
    starter: bool
    place: int  # 1-based position in the standings
    change: int = 0  # the latest round's change in kilos (this round's once it has one)
    moved: int = 0  # places gained over the same span as ``change`` (negative: lost)


@dataclass(frozen=True, slots=True)
class PressView:
    name: str
    seat: int
    offset_us: int


@dataclass(frozen=True, slots=True)
class SlapView:
    presses: tuple[PressView, ...]
    non_pressers: tuple[tuple[str, int], ...]
    losers: tuple[str, ...]
    margin_us: int | None
    valid: bool | None  # None while the window is still open
    tied: bool
    reslap: bool
    margin_res_us: int = 1
    # Who pressed before the verdict but arrived after it ("arrivé après le verdict"), and
    # whether the verdict was judged again with them (before any draw) or they are only noted.
    late: tuple[str, ...] = ()
    rejudged: bool = False

    @property
    def claimant(self) -> str | None:
        return self.presses[0].name if self.presses else None


@dataclass(frozen=True, slots=True)
class DrawView:
    player: str
    card: str
    kilos: int
    flushed: int


@dataclass(frozen=True, slots=True)
class View:
    players: tuple[str, ...]
    seats: tuple[SeatView, ...]  # seating order
    standings: tuple[SeatView, ...]  # lowest kilos first
    round: int
    rounds: int
    awaiting: str
    owed: tuple[str, ...]
    finished: bool
    end_reason: str | None
    winners: tuple[str, ...]
    starter: str | None
    dealer: str | None  # the first dealer, drawn by lot
    dealer_open: bool  # the first dealer may still be drawn (nothing happened yet)
    rules: KiloRules
    odds: PileOdds
    history: tuple[tuple[int, ...], ...]
    last_slap: SlapView | None
    live: SlapView | None  # the open window, when someone has pressed
    last_draw: DrawView | None
    rank_reasons: dict[str, Reason | None]  # rank -> why it cannot be drawn (None: it can)
    card_reasons: dict[str, Reason | None]  # "7H" -> why not
    slaps: int
    draws: int
    pile_ranks: tuple[str, ...]

    def seat_of(self, name: str) -> int:
        return self.players.index(name)


def _reason(game: KiloGame, card: Card) -> Reason | None:
    try:
        game.check_card(card)
    except RuleError as err:
        return err.fr, err.en
    return None


def build_view(game: KiloGame) -> View:
    players = game.players
    seat = {p: i for i, p in enumerate(players)}
    owed = game.owed_draws
    # Competition ranking: equal kilos share a place (co-winners both stand on the top step).
    totals = [k for _, k in game.standings()]
    places = {p: 1 + sum(1 for other in totals if other < k) for p, k in game.standings()}
    # Each player's latest change: this round's if anything changed in it yet, else the last
    # round's (a round ends on its draw, so "this round" alone would always read 0).
    history = game.history
    now = tuple(game.kilos(p) for p in players)
    zero = tuple(0 for _ in players)
    ends = [zero, *history]
    if ends[-1] != now:
        before = ends[-1]
    elif len(ends) >= 2:
        before = ends[-2]
    else:
        before = now
    changes = tuple(a - b for a, b in zip(now, before, strict=True))
    # The places moved over the same span, ties sharing a place as above (the kit's rank arrows,
    # as Les Cinq Rois' tiles show them).
    then = {p: 1 + sum(1 for other in before if other < before[i]) for i, p in enumerate(players)}
    seats = tuple(
        SeatView(
            i,
            p,
            now[i],
            tuple(str(c) for c in game.cards_of(p)),
            game.flushes(p),
            p in owed,
            game.starter == p,
            places[p],
            changes[i],
            then[p] - places[p],
        )
        for i, p in enumerate(players)
    )
    order = {p: i for i, (p, _) in enumerate(game.standings())}
    standings = tuple(sorted(seats, key=lambda s: order[s.name]))
    last = game.last_slap
    last_view = None
    if last is not None:
        first = last.order[0][1] if last.order else 0
        last_view = SlapView(
            tuple(PressView(p, seat[p], t - first) for p, t in last.order),
            tuple((p, seat[p]) for p in last.non_pressers),
            last.losers,
            last.margin_us,
            last.valid,
            last.tied,
            last.reslap,
            last.margin_res_us,
            tuple(dict.fromkeys(p for p, _ in (*last.late, *game.late_presses))),
            bool(last.late),
        )
    live_view = None
    if game.awaiting == "verdict":
        window = game.window()
        first = window.order[0].t_us
        live_view = SlapView(
            tuple(PressView(p.player, seat[p.player], p.t_us - first) for p in window.order),
            tuple((p, seat[p]) for p in window.non_pressers),
            window.last,
            window.margin_us,
            None,
            window.tied,
            False,
            window.margin_res_us,
        )
    draw = game.last_draw
    draw_view = (
        DrawView(draw.player, str(draw.card), draw.kilos, len(draw.flushed)) if draw is not None else None
    )
    rank_reasons: dict[str, Reason | None] = {}
    card_reasons: dict[str, Reason | None] = {}
    if game.awaiting == "draw":
        for rank in RANKS:
            rank_reasons[rank.value] = _reason(game, Card(rank))
            for suit in FOUR_SUITS:
                card = Card(rank, suit)
                card_reasons[str(card)] = rank_reasons[rank.value] or _reason(game, card)
    return View(
        players=players,
        seats=seats,
        standings=standings,
        round=game.round,
        rounds=game.rounds,
        awaiting=game.awaiting,
        owed=owed,
        finished=game.finished,
        end_reason=game.end_reason,
        winners=tuple(game.winners()),
        starter=game.starter,
        dealer=game.dealer,
        dealer_open=game.dealer_open,
        rules=game.rules,
        odds=pile_odds(game),
        history=game.history,
        last_slap=last_view,
        live=live_view,
        last_draw=draw_view,
        rank_reasons=rank_reasons,
        card_reasons=card_reasons,
        slaps=game.slaps_judged,
        draws=game.draws_made,
        pile_ranks=tuple(r.value for r in RANKS if r in game.pile_ranks),
    )
