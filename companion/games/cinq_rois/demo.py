"""``companion demo cinq-rois``: a whole game of Les Cinq Rois with simulated players, through a
real table (journal first, then the engine), narrated round by round with every hand's best
arrangement card by card.

The first dealer is drawn by lot (a ``dealer`` event) and each round is dealt from a shuffled
116-card double deck and really played (``sim.play_round``), all from ``(seed, round)`` alone: a
demo killed at any moment and resumed with ``companion resume`` ends exactly as if never
interrupted.
"""

from __future__ import annotations

import random
import time
from typing import TextIO

from companion.cards import card_short, cards_short, rank_text
from companion.games import NAMES
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.sim import PlayedRound, play_round
from companion.games.cinq_rois.solver import Arrangement
from companion.i18n import t
from companion.table.live import Table

ROUND_PAUSE_S = 1.5  # real seconds between rounds at --speed 1


def new_demo_setup(players: int) -> NewCinqRoisGame:
    return NewCinqRoisGame(players=list(NAMES[:players]))


def dealer_rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:cinq-rois:dealer")


def round_rng(seed: int, n: int) -> random.Random:
    return random.Random(f"{seed}:cinq-rois:round:{n}")


def headline(game: CinqRoisGame, lang: str) -> str:
    """ "Donne 9 : 11 cartes, atout V, donneur Ana, Ben commence", as the screen says it."""
    assert game.bonus is not None
    detail = t(
        "cinq.head.detail",
        lang,
        cards=game.cards,
        dealer=game.dealer,
        first=game.first_player,
        bonus=rank_text(game.bonus, lang),
    )
    return t("cinq.headline", lang, round=game.round, detail=detail)


def arrangement_text(a: Arrangement, lang: str = "en") -> str:
    """``[7♥ 8♥ JK=9♥] [Q♠ Q♦ 7♣=Q♥]``: each combination, a wild followed by what it stands
    for, the cards as the language reads them."""
    return " ".join(
        "["
        + " ".join(
            card_short(p.card, lang)
            + (f"={card_short(p.stands_for, lang)}" if p.wild and p.card != p.stands_for else "")
            for p in c.cards
        )
        + "]"
        for c in a.combinations
    )


class Demo:
    def __init__(self, table: Table, seed: int, speed: float, lang: str, out: TextIO) -> None:
        assert isinstance(table.engine, CinqRoisGame)
        self.table = table
        self.game: CinqRoisGame = table.engine
        self.seed = seed
        self.speed = speed
        self.lang = lang
        self.out = out

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def run(self) -> None:
        game = self.game
        lang = self.lang
        if game.dealer_open:
            rng = dealer_rng(self.seed)
            self.table.submit(Dealer(player=game.players[rng.randrange(len(game.players))]))
            self.say(t("cinq.demo.dealer", lang, name=game.dealer))
        while not game.finished:
            n = game.round
            self.say(t("cinq.demo.round", lang, headline=headline(game, lang)))
            assert game.dealer is not None
            played = play_round(game.players, n, game.dealer, round_rng(self.seed, n))
            self.table.submit(played.event())
            self._narrate(played)
            if self.speed > 0 and not game.finished:
                time.sleep(ROUND_PAUSE_S / self.speed)
        self._finale()

    def _narrate(self, played: PlayedRound) -> None:
        game = self.game
        lang = self.lang
        last = game.last_round
        assert last is not None and last.arrangements is not None
        self.say(t("cinq.demo.turns", lang, turns=len(played.turns), name=played.out))
        width = max(len(p) for p in game.players)
        for player in game.players:
            a = last.arrangements[player]
            rest = cards_short(a.left, lang)
            self.say(
                t(
                    "cinq.demo.hand",
                    lang,
                    name=player,
                    width=width,
                    groups=arrangement_text(a, lang) or "—",
                    rest=t("cinq.demo.rest", lang, cards=rest) if rest else "",
                    points=a.points,
                )
            )
        line = " · ".join(f"{p} {total}" for p, total, _ in game.standings())
        self.say(t("cinq.demo.standings", lang, line=line))

    def _finale(self) -> None:
        game = self.game
        winners = game.winners
        key = "cinq.demo.winner" if len(winners) == 1 else "cinq.demo.co_winners"
        self.say(t(key, self.lang, names=", ".join(winners), n=game.totals[winners[0]]))
