"""``companion demo treize``: a whole advanced match of simulated players at a real table.

Every move goes through ``Table.submit`` (checked, journaled, applied), so ``companion export`` and
``companion resume`` work on a demo. The players' hands and choices are functions of the seed and
the journal (``autoplay``), so a demo killed at any moment and resumed ends exactly as if never
interrupted.
"""

from __future__ import annotations

import time
from typing import Any, TextIO

from companion.games.treize.autoplay import AutoPlayer
from companion.games.treize.events import Pass, Play, Starter
from companion.games.treize.rules import TreizeGame
from companion.i18n import t

MOVE_SECONDS = 0.5  # between moves at --speed 1


def series_text(game: TreizeGame) -> str:
    series = game.series
    return str(series) if series is not None else "?"


class Demo:
    def __init__(self, table: Any, seed: int, speed: float, out: TextIO, lang: str) -> None:
        assert isinstance(table.engine, TreizeGame)
        self.table = table
        self.game: TreizeGame = table.engine
        self.seed = seed
        self.speed = speed
        self.out = out
        self.lang = lang

    def say(self, line: str) -> None:
        self.out.write(line + "\n")

    def run(self) -> None:
        game = self.game
        events = [e for _, e in self.table.journal.events(self.table.game_id)]
        bot = AutoPlayer.from_events(self.seed, events)
        announced = 0
        try:
            while not game.finished:
                if game.awaiting == "play" and announced != game.game_number:
                    announced = game.game_number
                    why = t(f"treize.why.{game.starter_source or 'setup'}", self.lang)
                    self.say(
                        t(
                            "treize.demo.game",
                            self.lang,
                            n=game.game_number,
                            name=game.starter or "?",
                            why=why,
                        )
                    )
                move = bot.decide(game)
                if move is None:
                    break  # a resumed game entered without plays: the demo cannot go on
                trick, games = game.trick, len(game.history)
                self.table.submit(move)
                bot.observe(move, game.game_number)
                self._narrate(move, trick, games)
                if self.speed:
                    self.out.flush()
                    time.sleep(MOVE_SECONDS / self.speed)
        finally:
            self.out.flush()
        self._finale()

    def _narrate(self, move: Any, trick: int, games: int) -> None:
        game = self.game
        lang = self.lang
        if isinstance(move, Starter):
            return  # announced with the game
        if isinstance(move, Play):
            self.say(
                t(
                    "treize.demo.play",
                    lang,
                    name=move.player,
                    count=move.count,
                    value=move.value,
                    series=series_text(game) if len(game.history) == games else "—",
                )
            )
        elif isinstance(move, Pass):
            self.say(t("treize.demo.pass", lang, name=move.player, value=move.took))
            if game.trick != trick and len(game.history) == games and game.leader:
                self.say(t("treize.demo.trick", lang, name=game.leader))
        if len(game.history) > games:
            result = game.history[-1]
            self.say(t("treize.demo.won", lang, name=result.winner, n=result.number))
            if game.variant == "advanced":
                self.say(t("treize.demo.points", lang, line=" · ".join(f"{p} {n}" for p, n in result.scores)))
                self.say(
                    t("treize.demo.totals", lang, line=" · ".join(f"{p} {n}" for p, n in game.standings()))
                )

    def _finale(self) -> None:
        game = self.game
        winners = game.winners()
        if not winners:
            return
        who = ", ".join(winners)
        if game.variant == "basic":
            self.say(t("treize.demo.basic_winner", self.lang, names=who))
            return
        key = "treize.demo.winner" if len(winners) == 1 else "treize.demo.co"
        self.say(t(key, self.lang, names=who, n=game.total(winners[0])))
        self.out.flush()
