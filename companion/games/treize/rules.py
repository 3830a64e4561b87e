"""13 feuilles (spec/rules.md section 3): passes, tricks, the series helper and the advanced match.

The engine is a fold over table-log events. A game is entered in one of two ways, fixed by its
first pass or play:

- *with plays* (the series helper): every play is a ``play`` event and every pass names the card
  taken (``took``). The engine then knows the series, whose turn it is (clockwise, skipping the
  players who passed) and every player's card count (dealt, minus played, plus one per pass); it
  refuses an illegal play or a pass out of turn, and ends the game by itself on the play that
  empties a hand.
- *without plays* (the spec's minimal log: ``new_game``, ``pass``..., ``game_end``): only passes
  are known, so the series, the turn within a trick and the counts are unknown and the table
  enters ``game_end`` (with ``left`` in the advanced variant). A ``play`` is refused in such a game:
  its series is unknown.

Undo restores the state saved before the most recent table decision (a starter drawn by lot, a
pass, a play, a trick end, a game end), as a replay of the log without that decision would.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import companion.games.treize.strings  # noqa: F401  (the game's error templates join the catalogue)
from companion.errors import RuleError, SetupError
from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter, TrickEnd
from companion.games.treize.series import MAX_VALUE, MIN_VALUE, LegalPlay, Series, cards_en, cards_fr
from companion.games.undo import Checkpoints, pickled_by_fields
from companion.i18n import count, french_typography
from companion.table.log import AnyEvent, Undo
from companion.text import Joined, Text

MIN_PLAYERS = 3
MAX_PLAYERS = 6
# Cards dealt to each player, by player count (seed 003, "Mise en place").
DEALT: dict[int, int] = {3: 12, 4: 11, 5: 10, 6: 9}
# The advanced match ends after the game in which a total reaches this.
MATCH_TARGET = 20

Awaiting = Literal["starter", "play", "nothing"]
Mode = Literal["plays", "passes"]
StarterSource = Literal["setup", "lots", "first_play", "totals"]


def next_starter(players: tuple[str, ...], totals: Mapping[str, int], last_winner: str) -> str:
    """Who starts the next game of an advanced match: the highest total.

    Equal highest totals: the first of them clockwise from the left of the last game's winner (the
    winner comes last), so the tie is broken the same way at every table and in every replay.
    """
    best = max(totals[p] for p in players)
    start = players.index(last_winner) + 1
    order = players[start:] + players[:start]
    return next(p for p in order if totals[p] == best)


def draw_lots(rng: random.Random, game: TreizeGame) -> Starter:
    """The screen's "press to draw lots": a starter drawn with ``rng`` for the game in play."""
    if game.awaiting != "starter":
        raise RuleError(
            "treize.rules.draw_lots",
        )
    return Starter(player=rng.choice(game.players))


def _names(names: Iterable[str], word: str = "and") -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who emptied their hand, the cards the others kept, what each scored."""

    number: int
    winner: str
    starter: str | None
    left: tuple[tuple[str, int], ...] | None  # seating order, winner left out; None if not given
    scores: tuple[tuple[str, int], ...]  # points scored, seating order (all 0 in basic)
    totals: tuple[tuple[str, int], ...]  # running totals after this game
    by_plays: bool  # ended by the play that emptied the winner's hand (not by a game_end)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.number,
            "winner": self.winner,
            "starter": self.starter,
            "left": None if self.left is None else dict(self.left),
            "scores": dict(self.scores),
            "totals": dict(self.totals),
            "by_plays": self.by_plays,
        }


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class LastPlay:
    player: str
    value: int
    count: int


@pickled_by_fields
@dataclass(slots=True)
class _State:
    game_number: int
    totals: dict[str, int]
    starter: str | None
    starter_source: StarterSource | None
    leader: str | None
    turn: str | None
    mode: Mode | None = None
    series: Series = field(default_factory=Series)
    passed: list[str] = field(default_factory=list)
    played: dict[str, int] = field(default_factory=dict)
    passes: dict[str, int] = field(default_factory=dict)
    trick: int = 1
    trick_ended_by_passes: bool = False  # the trick in play began when all but one had passed
    game_events: int = 0  # passes, plays and trick ends in the game in play
    finished: bool = False
    history: tuple[GameResult, ...] = ()
    last_play: LastPlay | None = None
    plays: int = 0
    passes_total: int = 0

    def clone(self) -> _State:
        # Series, GameResult and LastPlay are immutable; only the containers need copying.
        # Every field written out: dataclasses.replace takes four times as long, and a clone
        # is made at every pass and play.
        return _State(
            self.game_number,
            dict(self.totals),
            self.starter,
            self.starter_source,
            self.leader,
            self.turn,
            self.mode,
            self.series,
            list(self.passed),
            dict(self.played),
            dict(self.passes),
            self.trick,
            self.trick_ended_by_passes,
            self.game_events,
            self.finished,
            self.history,
            self.last_play,
            self.plays,
            self.passes_total,
        )


class TreizeGame:
    """One game (``basic``) or match (``advanced``) of 13 feuilles, fed events one by one."""

    game = "treize"

    def __init__(self, setup: NewTreizeGame) -> None:
        n = len(setup.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(
                "treize.rules.init",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                n=n,
            )
        if setup.starter is not None and setup.starter not in setup.players:
            raise SetupError(
                "treize.rules.starter_one_players",
                starter=setup.starter,
                players=Joined(setup.players),
            )
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.variant: Literal["basic", "advanced"] = setup.variant
        self.dealt = DEALT[n]
        self._seat = {p: i for i, p in enumerate(self.players)}
        self._s = _State(
            game_number=1,
            totals={p: 0 for p in self.players},
            starter=setup.starter,
            starter_source="setup" if setup.starter else None,
            leader=setup.starter,
            turn=setup.starter,
        )
        self._reset_game_counts()
        self._checkpoints: Checkpoints[tuple[AnyEvent, _State]] = Checkpoints()
        self.last_undone: AnyEvent | None = None

    # --- reading the state ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._s.finished

    @property
    def awaiting(self) -> Awaiting:
        s = self._s
        if s.finished:
            return "nothing"
        if s.starter is None and s.game_events == 0:
            return "starter"
        return "play"

    @property
    def game_number(self) -> int:
        """The game in play (1-based); the last one once the match is over."""
        return self._s.game_number

    @property
    def games_played(self) -> int:
        return len(self._s.history)

    @property
    def starter(self) -> str | None:
        """Who leads the first trick of the game in play (null once the match is over)."""
        return None if self._s.finished else self._s.starter

    @property
    def starter_source(self) -> StarterSource | None:
        return self._s.starter_source

    @property
    def mode(self) -> Mode | None:
        """``"plays"`` with the series helper, ``"passes"`` for a log without plays, None before the
        game's first pass or play."""
        return self._s.mode

    @property
    def tracking(self) -> bool:
        """Whether the series, the turn and the card counts are known."""
        return self._s.mode != "passes"

    @property
    def trick(self) -> int:
        return self._s.trick

    @property
    def passed(self) -> tuple[str, ...]:
        """Players out of the trick in play, in the order they passed."""
        return tuple(self._s.passed)

    @property
    def in_trick(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self._s.passed)

    @property
    def turn(self) -> str | None:
        """Who plays now, when it is known (always with the series helper)."""
        return None if self._s.finished else self._s.turn

    @property
    def leader(self) -> str | None:
        """Who led (or leads) the trick in play, when known."""
        return self._s.leader

    @property
    def series(self) -> Series | None:
        """The cards on the table this trick; None when plays are not entered."""
        return None if self._s.mode == "passes" else self._s.series

    def legal(self) -> LegalPlay | None:
        """What the player whose turn it is may play, or None when the series is unknown."""
        series = self.series
        return None if series is None or self._s.finished else series.legal()

    def play_options(self, player: str) -> dict[int, range]:
        """For the screen's two taps: each value ``player`` may put down now, with the counts
        allowed (from the fewest the series asks to the cards in hand); empty when ``player`` may
        not play now or plays are not entered."""
        s = self._s
        legal = self.legal()
        held = self.count(player)
        if legal is None or held is None or player in s.passed or (s.turn is not None and s.turn != player):
            return {}
        return {v: range(least, held + 1) for v, least in legal.values.items() if least <= held}

    def take_options(self) -> tuple[int, ...]:
        """The values a passing player may take (the screen's "which card?"); empty when the
        table's cards are unknown. A pass must say which when there are two or more."""
        series = self.series
        return () if series is None else series.values

    def count(self, player: str) -> int | None:
        """Cards in ``player``'s hand (dealt, minus played, plus one per pass), None if unknown."""
        if self._s.mode == "passes":
            return None
        return self._most(player) - self._s.played[player]

    def counts(self) -> dict[str, int] | None:
        if self._s.mode == "passes":
            return None
        return {p: self._most(p) - self._s.played[p] for p in self.players}

    def _most(self, player: str) -> int:
        """The most cards ``player`` can hold: dealt, plus one per pass this game."""
        return self.dealt + self._s.passes[player]

    def total(self, player: str) -> int:
        return self._s.totals[player]

    @property
    def history(self) -> tuple[GameResult, ...]:
        return self._s.history

    @property
    def last_play(self) -> LastPlay | None:
        return self._s.last_play

    def standings(self) -> list[tuple[str, int]]:
        """Lowest total first; equal totals keep seating order (all 0 in ``basic``)."""
        return sorted(
            ((p, self._s.totals[p]) for p in self.players), key=lambda pt: (pt[1], self._seat[pt[0]])
        )

    def winners(self) -> list[str]:
        s = self._s
        if not s.finished:
            return []
        if self.variant == "basic":
            return [s.history[-1].winner]
        best = min(s.totals.values())
        return [p for p in self.players if s.totals[p] == best]

    # --- checking events -----------------------------------------------------------------------

    def _player(self, name: str) -> None:
        if name not in self._seat:
            raise RuleError(
                "treize.rules.player",
                name=name,
                players=Joined(self.players),
            )

    def _next_in(self, after: str) -> str:
        """The next player clockwise after ``after`` who has not passed this trick."""
        i = self._seat[after]
        n = len(self.players)
        for step in range(1, n + 1):
            p = self.players[(i + step) % n]
            if p not in self._s.passed:
                return p
        return after

    def _over(self) -> RuleError:
        winners = Joined(self.winners())
        if self.variant == "basic":
            return RuleError("treize.rules.game_over", winners=winners)
        return RuleError("treize.rules.match_over", target=MATCH_TARGET, winners=winners)

    def no_undo_ahead(self) -> None:
        self._checkpoints.none_ahead()

    def check(self, event: AnyEvent) -> None:
        s = self._s
        if isinstance(event, Undo):
            if not self._checkpoints:
                raise RuleError(
                    "treize.rules.check",
                )
            return
        if s.finished:
            raise self._over()
        if isinstance(event, Starter):
            self._check_starter(event)
        elif isinstance(event, Pass):
            self._check_pass(event)
        elif isinstance(event, Play):
            self._check_play(event)
        elif isinstance(event, TrickEnd):
            self._check_trick_end()
        elif isinstance(event, GameEnd):
            self._check_game_end(event)
        else:
            kind = getattr(event, "type", "?")
            raise RuleError(
                "treize.rules.not_an_event",
                kind=kind,
            )

    def _check_starter(self, event: Starter) -> None:
        s = self._s
        self._player(event.player)
        if s.game_events:
            raise RuleError(
                "treize.rules.check_starter",
                player=event.player,
                game_number=s.game_number,
            )
        if s.starter is not None:
            why_en, why_fr = {
                "setup": ("named at setup", "désigné au départ"),
                "totals": ("the highest total starts", "le plus haut total commence"),
                "lots": ("drawn by lot", "tiré au sort"),
                "first_play": ("first to play", "premier à jouer"),
            }[s.starter_source or "setup"]
            raise RuleError(
                "treize.rules.cannot_drawn_start",
                player=event.player,
                starter=s.starter,
                game_number=s.game_number,
                why=Text.pair(en=why_en, fr=why_fr),
            )

    def _check_turn(self, player: str, action_en: str, action_fr: str) -> None:
        s = self._s
        if player in s.passed:
            raise RuleError(
                "treize.rules.check_turn",
                player=player,
                action=Text.pair(en=action_en, fr=action_fr),
            )
        if s.turn is not None and s.turn != player:
            raise RuleError(
                "treize.rules.not_your_turn",
                player=player,
                action=Text.pair(en=action_en, fr=action_fr),
                turn=s.turn,
            )

    def _check_pass(self, event: Pass) -> None:
        s = self._s
        player = event.player
        self._player(player)
        if player in s.passed:
            raise RuleError(
                "treize.rules.check_pass",
                player=player,
            )
        if event.took is not None and not MIN_VALUE <= event.took <= MAX_VALUE:
            raise RuleError(
                "treize.rules.cannot_take_cards",
                player=player,
                took=event.took,
                MIN_VALUE=MIN_VALUE,
                MAX_VALUE=MAX_VALUE,
            )
        if s.mode != "plays":
            return
        if s.series.empty:
            if s.trick_ended_by_passes and player == s.leader:
                raise RuleError(
                    "treize.rules.cannot_pass_all",
                    player=player,
                )
            raise RuleError(
                "treize.rules.cannot_pass_there",
                player=player,
            )
        self._check_turn(player, "pass", "passer")
        values = s.series.values
        if event.took is None:
            if len(values) > 1:
                raise RuleError(
                    "treize.rules.passes_say_which",
                    player=player,
                    values=Joined([str(v) for v in values], "or"),
                )
            return
        reason = s.series.why_not_take(event.took)
        if reason is not None:
            raise RuleError(
                "treize.rules.cannot_take_reason",
                player=player,
                took=event.took,
                reason=reason,
            )

    def _check_play(self, event: Play) -> None:
        s = self._s
        player = event.player
        self._player(player)
        what_en = f"play {event.count} × {event.value}"
        what_fr = f"jouer {event.count} × {event.value}"
        if s.mode == "passes":
            raise RuleError(
                "treize.rules.check_play",
                player=player,
                what=Text.pair(en=what_en, fr=what_fr),
                game_number=s.game_number,
            )
        self._check_turn(player, what_en, what_fr)
        reason = s.series.why_not(event.value, event.count)
        if reason is not None:
            raise RuleError(
                "treize.rules.cannot_play",
                player=player,
                what=Text.pair(en=what_en, fr=what_fr),
                reason=reason,
            )
        held = self._most(player) - s.played[player]
        if event.count > held:
            raise RuleError(
                "treize.rules.cannot_holds_only",
                player=player,
                what=Text.pair(en=what_en, fr=what_fr),
                held=Text.pair(en=cards_en(held), fr=cards_fr(held)),
            )

    def _check_trick_end(self) -> None:
        s = self._s
        if s.mode == "plays":
            raise RuleError("treize.rules.check_trick_end", still=Joined(self.in_trick))

    def _check_game_end(self, event: GameEnd) -> None:
        s = self._s
        winner = event.winner
        self._player(winner)
        left = event.left
        others = [p for p in self.players if p != winner]
        if left is None:
            if self.variant == "advanced" and s.mode != "plays":
                raise RuleError(
                    "treize.rules.won_game_advanced",
                    winner=winner,
                    game_number=s.game_number,
                    others=Joined(others),
                )
            return
        for name, n in left.items():
            self._player(name)
            if name == winner:
                if n != 0:
                    raise RuleError(
                        "treize.rules.won_game_empty",
                        winner=winner,
                        game_number=s.game_number,
                        cards=Text.pair(en=cards_en(n), fr=cards_fr(n)),
                    )
                continue
            if n < 0:
                raise RuleError("treize.rules.left_negative", name=name, n=n)
            most = self._most(name)
            if n > most:
                taken = s.passes[name]
                raise RuleError(
                    "treize.rules.left_too_many",
                    name=name,
                    n=n,
                    dealt=self.dealt,
                    taken=taken,
                    game_number=s.game_number,
                    most=most,
                )
        missing = [p for p in others if p not in left]
        if missing:
            raise RuleError(
                "treize.rules.check_game_end",
                winner=winner,
                missing=Joined(missing),
            )

    # --- applying events -----------------------------------------------------------------------

    def apply(self, event: AnyEvent, *, checked: bool = False) -> None:
        """Apply ``event``; ``checked=True`` skips the rules check the caller just made."""
        if not checked:
            self.check(event)
        if isinstance(event, Undo):
            undone, self._s = self._checkpoints.pop()
            self.last_undone = undone
            return
        if self._checkpoints.needed:  # else no undo follows in the log being replayed
            self._checkpoints.append((event, self._s.clone()))
        if isinstance(event, Starter):
            s = self._s
            s.starter = s.leader = s.turn = event.player
            s.starter_source = "lots"
        elif isinstance(event, Pass):
            self._apply_pass(event)
        elif isinstance(event, Play):
            self._apply_play(event)
        elif isinstance(event, TrickEnd):
            s = self._s
            s.mode = s.mode or "passes"
            s.game_events += 1
            # Who won the trick is not in the event; the table knows, the log does not.
            self._new_trick(leader=None, by_passes=False)
        elif isinstance(event, GameEnd):
            # Without ``left`` the cards left are known only from the plays entered, if any.
            known = self.counts() if self._s.mode == "plays" else None
            self._end_game(event.winner, event.left if event.left is not None else known, by_plays=False)

    def _new_trick(self, leader: str | None, by_passes: bool) -> None:
        s = self._s
        s.passed.clear()
        s.series = Series()
        s.trick += 1
        s.leader = s.turn = leader
        s.trick_ended_by_passes = by_passes

    def _apply_pass(self, event: Pass) -> None:
        s = self._s
        player = event.player
        s.mode = s.mode or "passes"
        s.game_events += 1
        s.passes_total += 1
        s.passes[player] += 1
        if s.mode == "plays":
            took = event.took if event.took is not None else s.series.values[0]
            s.series = s.series.take(took)
        s.passed.append(player)
        still = self.in_trick
        if len(still) == 1:
            # All but one have passed: that player clears the table and leads the next trick.
            self._new_trick(leader=still[0], by_passes=True)
        else:
            s.turn = self._next_in(player) if s.mode == "plays" else None

    def _apply_play(self, event: Play) -> None:
        s = self._s
        player = event.player
        s.mode = "plays"
        s.game_events += 1
        s.plays += 1
        if s.starter is None:
            s.starter, s.starter_source = player, "first_play"
        if s.leader is None:
            s.leader = player
        s.series = s.series.play(event.value, event.count)
        s.played[player] += event.count
        s.last_play = LastPlay(player, event.value, event.count)
        s.trick_ended_by_passes = False
        counts = self.counts()
        assert counts is not None
        if counts[player] == 0:
            # The game ends the moment a hand is empty (seed 003, "Fin de la partie").
            self._end_game(player, {p: n for p, n in counts.items() if p != player}, by_plays=True)
        else:
            s.turn = self._next_in(player)

    def _reset_game_counts(self) -> None:
        s = self._s
        s.played = {p: 0 for p in self.players}
        s.passes = {p: 0 for p in self.players}

    def _end_game(self, winner: str, left: Mapping[str, int] | None, by_plays: bool) -> None:
        """``left`` is None only in ``basic`` without plays, where it is optional and scores nothing."""
        s = self._s
        scores = dict.fromkeys(self.players, 0)
        if self.variant == "advanced":
            assert left is not None  # _check_game_end demands it
            for p in self.players:
                if p != winner:
                    scores[p] = left[p]
                    s.totals[p] += left[p]
        s.history = (
            *s.history,
            GameResult(
                number=s.game_number,
                winner=winner,
                starter=s.starter,
                left=None if left is None else tuple((p, left[p]) for p in self.players if p != winner),
                scores=tuple((p, scores[p]) for p in self.players),
                totals=tuple((p, s.totals[p]) for p in self.players),
                by_plays=by_plays,
            ),
        )
        if self.variant == "basic" or max(s.totals.values()) >= MATCH_TARGET:
            s.finished = True
            s.turn = None
            s.passed.clear()
            return
        # The next game of the advanced match: a new deal, the highest total leads.
        s.game_number += 1
        s.mode = None
        s.series = Series()
        s.passed.clear()
        s.trick = 1
        s.trick_ended_by_passes = False
        s.game_events = 0
        s.last_play = None
        self._reset_game_counts()
        s.starter = s.leader = s.turn = next_starter(self.players, s.totals, winner)
        s.starter_source = "totals"

    # --- reporting -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        s = self._s
        legal = self.legal()
        series = self.series
        last = s.history[-1] if s.history else None
        return {
            "game": "treize",
            "players": list(self.players),
            "variant": self.variant,
            "finished": s.finished,
            "winners": self.winners(),
            "games_played": self.games_played,
            "starter": self.starter,
            "passed": list(s.passed),
            "standings": [{"player": p, "points": n} for p, n in self.standings()],
            "awaiting": self.awaiting,
            "game_number": s.game_number,
            "trick": s.trick,
            "turn": self.turn,
            "leader": None if s.finished else s.leader,
            "in_trick": [] if s.finished else list(self.in_trick),
            "tracking": self.tracking,
            "dealt": self.dealt,
            "counts": None if s.finished else self.counts(),
            "series": None if series is None or s.finished else series.to_json(),
            "allowed": None
            if legal is None
            else {
                "fr": legal.text("fr"),
                "en": legal.text("en"),
                "values": {str(v): m for v, m in legal.values.items()},
            },
            "target": MATCH_TARGET if self.variant == "advanced" else None,
            "last_game": None if last is None else last.to_json(),
            "history": [g.to_json() for g in s.history],
            "plays": s.plays,
            "passes": s.passes_total,
        }

    def summary(self, lang: str = "fr") -> str:
        s = self._s
        fr = lang == "fr"
        variant = (
            {"basic": "de base", "advanced": "avancée"} if fr else {"basic": "basic", "advanced": "advanced"}
        )[self.variant]
        lines = [
            f"13 feuilles ({'variante ' if fr else ''}{variant}"
            f"{'' if fr else ' variant'}) — "
            + (
                count(len(s.history), "partie jouée", "parties jouées", "fr")
                if fr
                else count(len(s.history), "game played", "games played", "en")
            )
        ]
        if s.finished:
            winners = self.winners()
            who = _names(winners, "et" if fr else "and")
            if len(winners) == 1:
                lines.append(f"Terminé. Gagnant : {who}" if fr else f"Finished. Winner: {who}")
            else:  # equal lowest totals (the advanced match), as Cinq Rois says it
                lines.append(f"Terminé. Gagnants ex æquo : {who}" if fr else f"Finished. Co-winners: {who}")
        else:
            lines.append(
                f"Partie {s.game_number}, manche {s.trick}"
                if fr
                else f"Game {s.game_number}, trick {s.trick}"
            )
            if self.awaiting == "starter":
                lines.append("À tirer au sort : qui commence" if fr else "To draw by lot: who starts")
            if self.turn is not None:
                lines.append(f"À {self.turn} de jouer" if fr else f"{self.turn} to play")
            if s.passed:
                lines.append(("Ont passé : " if fr else "Passed: ") + _names(s.passed, "et" if fr else "and"))
            legal = self.legal()
            if self.series is not None and legal is not None:
                lines.append(("Série : " if fr else "Series: ") + str(self.series))
                lines.append(("Permis : " if fr else "Allowed: ") + legal.text(lang))
            counts = self.counts()
            if counts is not None:
                lines.append(
                    ("Cartes en main : " if fr else "Cards in hand: ")
                    + ", ".join(f"{p} {n}" for p, n in counts.items())
                )
        if self.variant == "advanced":
            lines.append(
                ("Totaux : " if fr else "Totals: ") + ", ".join(f"{p} {n}" for p, n in self.standings())
            )
        for g in s.history:
            scores = ", ".join(f"{p} {n}" for p, n in g.scores)
            lines.append(
                f"  partie {g.number} : {g.winner} gagne — {scores}"
                if fr
                else f"  game {g.number}: {g.winner} wins — {scores}"
            )
        text = "\n".join(lines)
        return french_typography(text) if fr else text
