"""13 feuilles on the table screen: its screens, and what the table's inputs mean in it.

The screens draw from the read-only ``View`` (``view.py``); ``TreizeScreens`` is the game's side of
the display seam (``display/game_ui.py``): a seat button is "I pass", a play is entered in two taps
(value, then how many), a press at the start of a game draws lots for who starts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, assert_never

import pygame

from companion.display.game_ui import GameScreens, LedPlan, SetupItem, TableHandle
from companion.display.layout import Action, GameAction, Painter, SetupAction
from companion.display.names import short_name
from companion.display.state import SetupForm, Ui
from companion.errors import RuleError
from companion.games.treize.actions import (
    ChooseCount,
    ChooseValue,
    DrawLots,
    EndGame,
    HelperSetting,
    NextGame,
    NextVariant,
    OpenEnd,
    OpenPlay,
    PlayEntered,
    SetupChoice,
    ToggleHelper,
    Took,
)
from companion.games.treize.autoplay import AutoPlayer
from companion.games.treize.controls import act
from companion.games.treize.draw.common import LOTS_SECONDS, Entry, entry_of, say, spoken, todo_text, tracking
from companion.games.treize.draw.end import draw_end
from companion.games.treize.draw.gameover import draw_gameover
from companion.games.treize.draw.lots import draw_lots_overlay, draw_lots_screen
from companion.games.treize.draw.play import draw_play
from companion.games.treize.draw.rules_page import rule_lines
from companion.games.treize.draw.scores import draw_scores, nice_step
from companion.games.treize.draw.table import draw_table, seat_strip
from companion.games.treize.draw.take import draw_take
from companion.games.treize.events import GameEnd, NewTreizeGame, Pass, Play, Starter
from companion.games.treize.rules import TreizeGame
from companion.games.treize.view import View, build_view
from companion.i18n import t
from companion.inputs.base import InputEvent
from companion.inputs.sim import SIM_CLOCK
from companion.table.log import Undo
from companion.text import Text

Rect = pygame.Rect


SIM_MOVE_S = 0.9  # a simulated move every so many seconds at --speed 1
DRAWERS = {
    "table": draw_table,
    "play": draw_play,
    "take": draw_take,
    "lots": draw_lots_screen,
    "scores": draw_scores,
    "end": draw_end,
    "gameover": draw_gameover,
}

# Value keys: digits, 0 = 10, both languages' letters for 11-13 and the numpad (/ * - as Kilo's).
VALUE_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d for d in range(1, 10)},
    pygame.K_0: 10,
    pygame.K_KP0: 10,
    pygame.K_j: 11,
    pygame.K_v: 11,
    pygame.K_KP_DIVIDE: 11,
    pygame.K_q: 12,
    pygame.K_d: 12,
    pygame.K_KP_MULTIPLY: 12,
    pygame.K_k: 13,
    pygame.K_r: 13,
    pygame.K_KP_MINUS: 13,
}
COUNT_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d for d in range(1, 10)},
}


# --- the simulated table's moves on the queue --------------------------------------------------


@dataclass(frozen=True)
class SimPlay:
    play: Play


@dataclass(frozen=True)
class SimTook:
    player: str
    value: int


@dataclass(frozen=True)
class SimNext:
    pass


@dataclass(frozen=True)
class SimDone:
    pass


@dataclass(frozen=True)
class SimMoves:
    """A move the simulated table decided for one state of the game (its journal's ``seq``),
    sent a moment later: if the table moved on meanwhile (an undo), the move is not played."""

    game_id: str
    seq: int
    items: tuple[Any, ...]


class TreizeScreens(GameScreens[View, TreizeGame]):
    game = "treize"
    title = "13 feuilles"
    screens = ("table", "play", "take", "lots", "scores", "end", "gameover")
    nav = (("table", "T"), ("scores", "G"))
    anim_seconds = LOTS_SECONDS

    def __init__(self) -> None:
        self._bots: dict[str, AutoPlayer] = {}
        self._tried: dict[str, tuple[int, bool]] = {}

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        e = entry_of(ui)
        if view.finished:
            return "gameover"
        if ui.show_result and view.history:
            return "scores"
        if view.awaiting == "starter":
            return "lots"
        if e is not None:
            return e.kind
        return "table"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        return self.headline_for(view, Ui(lang=lang))

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        lang = ui.lang
        if view.finished:
            games = len(view.history)
            left = (
                t("treize.head.over_basic", lang)
                if not view.advanced
                else t("treize.head.over", lang, games=games)
            )
        else:
            left = t("treize.head.game", lang, n=view.game_number, trick=view.trick)
        return left, todo_text(view, ui)

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        draw_lots_overlay(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def press(self, app: TableHandle, seat: int, t_us: int, res_us: int | None = None) -> None:
        game: TreizeGame = app.table.engine
        if not 0 <= seat < len(game.players):
            return
        if game.awaiting == "starter":
            self.do(app, DrawLots())
        elif app.ui.show_result:
            self.do(app, NextGame())
        else:
            self._pass(app, game.players[seat])

    def _pass(self, app: TableHandle, name: str, took: int | None = None) -> None:
        """A player passes: journaled at once, or after the table says which card was taken."""
        game: TreizeGame = app.table.engine
        ui: Ui = app.ui
        app.dirty = True
        helper = bool(ui.setup.options.get("helper", True))
        if (
            game.mode is None
            and helper
            and game.series is not None
            and game.series.empty
            and game.turn is not None
        ):
            # The series helper is on: a game's first event is its starter's play.
            who = short_name(name, game.players)
            leader = short_name(game.turn, game.players)
            ui.say(
                Text("treize.msg.lead_first", name=who, leader=leader),
            )
            return
        options = game.take_options() if game.mode == "plays" else ()
        if took is None and len(options) == 1:
            took = options[0]
        event = Pass(player=name, took=took)
        if took is None and len(options) > 1:
            try:
                game.check(Pass(player=name, took=options[0]))
            except RuleError as err:
                say(ui, err)
                return
            ui.entry = Entry("take", name)
            ui.screen = None
            ui.message = None
            return
        self._submit(app, event)

    def _submit(self, app: TableHandle, event: Any) -> bool:
        game = app.table.engine
        try:
            game.check(event)
        except RuleError as err:
            say(app.ui, err)
            app.dirty = True
            return False
        return bool(app.submit(event))

    def keys_are_buttons(self, app: TableHandle, screen: str) -> bool:
        return screen not in ("play", "take", "end")

    def after(self, app: TableHandle, event: Any, before: View | None) -> None:
        v: View = app.view
        ui: Ui = app.ui
        bot = self._bots.get(app.table.game_id)
        if bot is not None:
            bot.observe(event, v.game_number)
        if isinstance(event, (Pass, Play, Starter, GameEnd, Undo)):
            ui.entry = None
            ui.screen = None
        if isinstance(event, Starter):
            ui.anim_start = app.now()
            who = spoken(v, event.player)
            ui.say(Text("treize.msg.lots", name=who), error=False)
        elif isinstance(event, Pass):
            app.sounds.play("slap")
        if before is not None and len(v.history) > len(before.history):
            app.sounds.play("loser")
            ui.show_result = not v.finished and v.advanced
        if isinstance(event, Undo):
            ui.show_result = False

    def undone(self, engine: Any, lang: str) -> str | None:
        event = engine.last_undone
        if isinstance(event, Play):
            return t(
                "treize.undone.play",
                lang,
                name=short_name(event.player, engine.players),
                count=event.count,
                value=event.value,
            )
        if isinstance(event, Pass):
            return t("treize.undone.pass", lang, name=short_name(event.player, engine.players))
        if isinstance(event, Starter):
            return t("treize.undone.starter", lang)
        if isinstance(event, GameEnd):
            return t("treize.undone.end", lang)
        return None

    def do(self, app: TableHandle, action: GameAction) -> bool:
        return act(self, app, action)

    def _value(self, app: TableHandle, v: View, value: int) -> None:
        ui: Ui = app.ui
        e = entry_of(ui)
        if v.turn is None:
            return
        if e is None or e.kind != "play":
            e = ui.entry = Entry("play", v.turn)
        opt = v.option(value)
        if opt is None:
            # The engine's own sentence: "Bea ne peut pas jouer 2 × 6 : pas de carte entre 4 et 9".
            least = 1
            if v.low is not None and v.high is not None:
                least = v.low[1] if value <= v.low[0] else v.high[1] if value >= v.high[0] else 1
            try:
                app.table.engine.check(Play(player=v.turn, value=value, count=least))
            except RuleError as err:
                say(ui, err)
            return
        ui.message = None
        e.value = value
        e.count = opt[0] if opt[0] == opt[1] else None

    def _count(self, app: TableHandle, v: View, e: Entry, count: int) -> None:
        ui: Ui = app.ui
        if e.value is None or v.turn is None:
            return
        try:
            app.table.engine.check(Play(player=v.turn, value=e.value, count=count))
        except RuleError as err:
            say(ui, err)
            return
        ui.message = None
        e.count = count

    def confirm(self, app: TableHandle, screen: str) -> Action | None:
        v: View = app.view
        ui: Ui = app.ui
        if screen == "lots" and v.awaiting == "starter":
            return DrawLots()
        if screen == "scores" and ui.show_result:
            return NextGame()
        if screen == "play":
            return PlayEntered()
        if screen == "end":
            return EndGame()
        if screen == "table":
            if v.awaiting == "starter":
                return DrawLots()
            if not tracking(v, ui):
                return OpenEnd()
            return OpenPlay()
        return None

    def cancel(self, app: TableHandle, screen: str) -> bool:
        """Escape drops what is half entered (Backspace steps back one tap)."""
        ui: Ui = app.ui
        if entry_of(ui) is None:
            return False
        ui.entry = None
        ui.screen = None
        return True

    def key(self, app: TableHandle, key: int, mod: int, screen: str) -> bool:
        ui: Ui = app.ui
        e = entry_of(ui)
        if screen == "play" and e is not None and e.kind == "play":
            if key == pygame.K_BACKSPACE and (e.value is not None):
                if e.count is not None:
                    e.count = None
                else:
                    e.value = None
                app.dirty = True
                return True
            # Digits are the value until one is chosen, then how many; 0 and the letters
            # (10 to 13) always change the value.
            if e.value is not None and key in COUNT_KEYS:
                self.do(app, ChooseCount(COUNT_KEYS[key]))
            elif key in VALUE_KEYS:
                self.do(app, ChooseValue(VALUE_KEYS[key]))
            else:
                return False
            return True
        if screen == "table" and key == pygame.K_a:
            self.do(app, ToggleHelper())
            return True
        if screen == "take" and e is not None and e.kind == "take" and key in VALUE_KEYS:
            self.do(app, Took(VALUE_KEYS[key]))
            return True
        return False

    def handle(self, app: TableHandle, item: Any) -> bool:
        handler = _SIM_ITEMS.get(type(item))
        if handler is None:
            return False
        handler(self, app, item)
        return True

    def _bot(self, app: TableHandle) -> AutoPlayer:
        game_id = app.table.game_id
        bot = self._bots.get(game_id)
        if bot is None:
            events = [e for _, e in app.journal.events(game_id)] if app.journal else []
            bot = (
                AutoPlayer.from_events(app.seed, events)
                if events
                else AutoPlayer(app.seed, app.table.engine.players)
            )
            self._bots[game_id] = bot
        return bot

    def simulate(self, app: TableHandle, sim: Any) -> None:
        """The simulated table: a pass is the player's button, a play is entered in two taps."""
        game: TreizeGame = app.table.engine
        state = (app.table.seq, app.ui.show_result)
        if self._tried.get(app.table.game_id) == state:
            return  # this very state was tried and refused: wait for the table
        self._tried[app.table.game_id] = state
        bot = self._bot(app)
        items: list[Any] = []
        if app.ui.show_result:
            items.append(SimNext())
        else:
            move = bot.decide(game, app.seed)
            if move is None:
                return
            if isinstance(move, (Starter, Pass)):
                seat = (
                    game.players.index(move.player)
                    if isinstance(move, Pass)
                    else bot.moves % len(game.players)
                )
                t_us = (bot.moves + 1) * 1_000_000
                items.append(InputEvent("seat", seat, "press", t_us * 1000, SIM_CLOCK, "sim"))
                items.append(InputEvent("seat", seat, "release", (t_us + 110_000) * 1000, SIM_CLOCK, "sim"))
                if isinstance(move, Pass) and move.took is not None:
                    items.append(SimTook(move.player, move.took))
            elif isinstance(move, Play):
                items.append(SimPlay(move))
        items.append(SimDone())
        app.sim_busy = True
        delay = SIM_MOVE_S / app.speed if app.speed else 0.0

        moves = SimMoves(app.table.game_id, app.table.seq, tuple(items))

        def send() -> None:
            app.inbox.put(moves)  # one item: nothing can come between its parts

        if delay:
            timer = threading.Timer(delay, send)
            timer.daemon = True
            timer.start()
        else:
            send()

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return not engine.finished

    def leds(self, engine: Any) -> LedPlan:
        """Lit while in the trick; all lit while lots are to be drawn (any button draws)."""
        game: TreizeGame = engine
        if game.finished:
            return LedPlan("off")
        return LedPlan("idle", lit=tuple(game.players.index(p) for p in game.in_trick))

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        form.options["variant"] = engine.variant

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        variant = form.options.get("variant", "advanced")
        helper = "on" if form.options.get("helper", True) else "off"
        return [
            SetupItem(
                t(f"treize.setup.variant.{variant}", lang),
                t(f"treize.setup.variant.{variant}.help", lang),
                NextVariant(),
            ),
            SetupItem(
                t(f"treize.btn.helper.{helper}", lang),
                t(f"treize.setup.helper.{helper}.help", lang),
                HelperSetting(),
            ),
        ]

    def setup_action(self, form: SetupForm, action: SetupAction) -> bool:
        if not isinstance(action, SetupChoice):
            return False
        match action:
            case NextVariant():
                current = form.options.get("variant", "advanced")
                form.options["variant"] = "basic" if current == "advanced" else "advanced"
            case HelperSetting():
                form.options["helper"] = not form.options.get("helper", True)
            case _:
                assert_never(action)
        return True

    def new_game(self, form: SetupForm, names: list[str]) -> NewTreizeGame:
        return NewTreizeGame(players=names, variant=form.options.get("variant", "advanced"))


# --- the simulated table's own queue items (``TreizeScreens.handle``, by the item's type) -------


def _sim_moves(sc: TreizeScreens, app: TableHandle, item: SimMoves) -> None:
    if (app.table.game_id, app.table.seq) != (item.game_id, item.seq):
        app.sim_done()  # decided for a state that is gone: decide again for this one
        return
    for part in item.items:
        app.handle_item(part)


def _sim_play(sc: TreizeScreens, app: TableHandle, item: SimPlay) -> None:
    play = item.play
    if app.view is not None and app.view.turn == play.player:
        sc.do(app, OpenPlay())
        sc.do(app, ChooseValue(play.value))
        sc.do(app, ChooseCount(play.count))
        sc.do(app, PlayEntered())


def _sim_took(sc: TreizeScreens, app: TableHandle, item: SimTook) -> None:
    e = entry_of(app.ui)
    if e is not None and e.kind == "take" and e.player == item.player:
        sc.do(app, Took(item.value))


def _sim_next(sc: TreizeScreens, app: TableHandle, item: SimNext) -> None:
    if app.ui.show_result:
        sc.do(app, NextGame())


_SIM_ITEMS: dict[type, Callable[[TreizeScreens, Any, Any], None]] = {
    SimMoves: _sim_moves,
    SimPlay: _sim_play,
    SimTook: _sim_took,
    SimNext: _sim_next,
    SimDone: lambda s, app, item: app.sim_done(),
}

__all__ = ["Entry", "TreizeScreens", "nice_step"]
