"""Kilo de merde on the table screen: its view, its screens, and what the table's inputs mean in it.

The screens draw from the read-only ``View`` (``view.py``); ``KiloScreens`` is the game's side of
the display seam (``display/game_ui.py``): a seat button is a slap, Enter judges a claim, the rank
keys enter the card drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

import pygame

from companion.display.game_ui import GameScreens, LedPlan, SetupItem, TableHandle
from companion.display.layout import Action, GameAction, Painter, SetupAction
from companion.display.lots import draw_lots_overlay
from companion.display.names import short_name
from companion.display.state import SetupForm, Ui
from companion.errors import RuleError
from companion.games.kilo.actions import Judge, NextRule, Rounds, SetupChoice, SlapTimeout
from companion.games.kilo.controls import act, confirm_action, key_action
from companion.games.kilo.draw.card import draw_card, short_reason
from companion.games.kilo.draw.common import TIMEOUTS_MS, awaiting_text
from companion.games.kilo.draw.gameover import draw_gameover
from companion.games.kilo.draw.history import draw_history
from companion.games.kilo.draw.overlays import FLUSH_SECONDS, draw_drawn, draw_flush
from companion.games.kilo.draw.pile import draw_pile
from companion.games.kilo.draw.rules_page import rule_lines
from companion.games.kilo.draw.slap import WINDOW_TICK_S, draw_slap
from companion.games.kilo.draw.table import draw_table, seat_strip
from companion.games.kilo.draw.verdict import draw_verdict
from companion.games.kilo.events import (
    RULE_CHOICES,
    Close,
    Draw,
    KiloRules,
    NewKiloGame,
    Outage,
    Press,
    Verdict,
)
from companion.games.kilo.rules import KILOS, KiloGame
from companion.games.kilo.ui_state import kilo_ui
from companion.games.kilo.view import View, build_view
from companion.i18n import t
from companion.table.log import Undo
from companion.text import Text

Rect = pygame.Rect


def _after_press(app: TableHandle, v: View, ui: Ui, before: View | None) -> None:
    """A press counted: the countdown starts with a window's first, each new one sounds."""
    if v.live is None:
        return
    if before is None or before.live is None:
        ui.window_open_at = app.now()  # the countdown runs from the first press
    if before is None or before.live is None or len(v.live.presses) > len(before.live.presses):
        app.sounds.play("slap")


def _after_draw(app: TableHandle, v: View, ui: Ui) -> None:
    """A card drawn: the entry is cleared and the flush, or the card itself, shown for a moment."""
    kilo_ui(ui).rank = kilo_ui(ui).suit = None
    ui.show_result = False
    ui.screen = None
    if v.last_draw is not None and v.last_draw.flushed:
        ui.entry = None  # the animation is the flush's
        ui.anim_start = app.now()
    elif v.last_draw is not None:
        ui.entry = "drawn"  # the card, big, for a moment
        ui.anim_start = app.now()
        app.sounds.play("flush")


class KiloScreens(GameScreens[View, KiloGame]):
    game = "kilo"
    title = "Kilo de merde"
    screens = ("table", "slap", "verdict", "card", "pile", "history", "gameover")
    nav = (("table", "T"), ("pile", "P"), ("history", "G"))
    nav_more = (("history", "H"),)  # H for the history as G for the game's course
    anim_seconds = FLUSH_SECONDS

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        if view.finished:
            return "gameover"
        if view.awaiting == "verdict":
            return "verdict"
        if view.awaiting == "draw":
            return "slap" if ui.show_result else "card"
        return "table"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        return t("round_of", lang, round=view.round, rounds=view.rounds), awaiting_text(view, lang)

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        if ui.entry == "drawn":
            draw_drawn(p, view, ui, phase)
        elif ui.entry == "lots" and view.dealer is not None:
            draw_lots_overlay(
                p,
                view.players,
                view.players.index(view.dealer),
                phase,
                t("scr.lots.drawing", ui.lang),
                t("scr.lots.dealer", ui.lang, name=view.dealer),
            )
        else:
            draw_flush(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def press(self, app: TableHandle, seat: int, t_us: int, res_us: int | None = None) -> None:
        game = app.table.engine
        if 0 <= seat < len(game.players):
            app.submit(Press(player=game.players[seat], t_us=t_us, res_us=res_us))

    def warm_views(self, engine: Any) -> list[tuple[Any, dict[str, Any]]]:
        """The open window after one press and after every seat's, then its valid verdict
        shown, then the same with each other seat first: the frames of a first slap (fonts at
        the live panel's and the timeline's sizes, the names and seat marks there)."""
        game: KiloGame = engine
        if game.awaiting != "play":
            return []
        scratch = game.scratch()
        floor = scratch._s.window.floor
        t_us = (floor[1] if floor else 0) + 1_000_000
        views: list[tuple[Any, dict[str, Any]]] = []
        try:
            for i, player in enumerate(game.players):
                scratch.apply(Press(player=player, t_us=t_us + 7_000 * i, res_us=1))
                if i in (0, len(game.players) - 1):
                    views.append((build_view(scratch), {}))
            scratch.apply(Verdict(valid=True))
            views.append((build_view(scratch), {"show_result": True}))
            # Who slaps first and who is last are named beside their seat's mark, whose number
            # has its own size for each shape: the same slap with the seats' order turned, so
            # that every seat opens a window once and is judged last once.
            n = len(game.players)
            for turn in range(1, n):
                other = game.scratch()
                for i in range(n):
                    player = game.players[(turn + i) % n]
                    other.apply(Press(player=player, t_us=t_us + 7_000 * i, res_us=1))
                    if i == 0:
                        views.append((build_view(other), {}))
                other.apply(Verdict(valid=True))
                views.append((build_view(other), {"show_result": True}))
        except RuleError:
            pass  # a table whose rules refuse these: what was built still warms
        return views

    def keys_are_buttons(self, app: TableHandle, screen: str) -> bool:
        v = app.view
        return not kilo_ui(app.ui).picking and screen != "card" and v.awaiting != "draw"

    def press_mark(self, engine: Any, event: Any) -> tuple[bool, int] | None:
        """A press's ``after`` needs only whether a window was open (the view's ``live``) and
        how many presses counted in it."""
        if not isinstance(event, Press):
            return None
        game: KiloGame = engine
        return game.awaiting == "verdict", len(game.window().order)

    def after_marked(self, app: TableHandle, event: Any, mark: tuple[bool, int]) -> None:
        # The Press branch of ``after``: View.live is set exactly when the game awaits a verdict,
        # and its presses are the window's order (view.build_view).
        game: KiloGame = app.table.engine
        if self._late(app, game, event):
            return
        if game.awaiting != "verdict":
            return
        was_live, counted = mark
        if not was_live:
            app.ui.window_open_at = app.now()  # the countdown runs from the first press
        if not was_live or len(game.window().order) > counted:
            app.sounds.play("slap")

    def after(self, app: TableHandle, event: Any, before: View | None) -> None:
        v: View = app.view
        ui: Ui = app.ui
        if isinstance(event, Press):
            if not self._late(app, app.table.engine, event):
                _after_press(app, v, ui, before)
            return
        if v.live is None:
            ui.window_open_at = None
        if isinstance(event, Verdict):
            kilo_ui(ui).picking = False
            kilo_ui(ui).penalized = []
            ui.show_result = bool(v.owed)
            ui.screen = None
            if v.last_slap and v.last_slap.losers:
                app.sounds.play("loser")
        elif isinstance(event, Draw):
            _after_draw(app, v, ui)
        elif isinstance(event, Undo):
            kilo_ui(ui).rank = kilo_ui(ui).suit = None
            kilo_ui(ui).picking = False
            ui.show_result = False
            ui.screen = None
            ui.window_open_at = None  # a window reopened by an undo closed long ago

    def _late(self, app: TableHandle, game: KiloGame, event: Press) -> bool:
        """A press that arrived after the verdict it was made before: the verdict is judged
        again while no draw has followed it (``undo``, the same ``close`` and ``verdict``),
        else it is only recorded; either way the table says so. True if it was late."""
        late = game.late_presses
        if not late or late[-1] != (event.player, event.t_us):
            return False
        name = short_name(event.player, game.players)
        again = game.rejudge_events()
        if again is None:
            app.ui.say(Text("scr.late.recorded", name=name), error=False)
            app.dirty = True
            return True
        for decision in again:
            if not app.submit(decision):
                return True  # the table said why
        app.ui.say(Text("scr.late.rejudged", name=name), error=False)
        return True

    def resumed(self, app: TableHandle) -> bool:
        """A slap window open when the table stopped (a crash, a pulled plug): its timeout did
        not run while nobody could press. The stop, from the latest instant the journal knows of
        the window to now on the window's clock, is journaled (``outage``) and said, and the
        countdown goes on where it was. After a reboot of the Pi the window's clock is gone:
        only the presses made before the stop count, and the table says so."""
        from companion.inputs.base import host_epoch

        game: KiloGame = app.table.engine
        span = game.window_span()
        key = game.window_clock()
        if span is None or key is None or key[1] is None:
            return True  # no window open, or a log without clocks: nothing to measure
        ui: Ui = app.ui
        if key[0] == "CLOCK_MONOTONIC" and key[1] != host_epoch():
            ui.say(Text("scr.outage.reboot"), error=False)
            app.dirty = True
            return True
        now_us = app.instant_on(key, app.table_ns())
        if now_us is None:
            # A board's clock is placed once its heartbeats are heard; a clock nothing here
            # can place (the simulator's) never will be.
            return not any(callable(getattr(part, "clock_offset", None)) for part in app.source_parts())
        _, latest = span
        known = max(latest, *(end for _, end in game.window_outages()), game.window_last_close() or latest)
        if now_us <= known:
            return True
        if not app.submit(Outage(from_us=known, to_us=now_us)):
            return True
        seconds = round((now_us - known) / 1e6)
        ui.say(
            Text("scr.outage.stretched", s=seconds),
            error=False,
        )
        close = game.window().close_us
        if close is not None:
            left_s = max(0.0, (close - now_us) / 1e6)
            ui.window_open_at = app.now() - (game.rules.slap_timeout_ms / 1000 - left_s)
        app.dirty = True
        return True

    def window_open(self, engine: Any) -> bool:
        return bool(engine.awaiting == "verdict")

    def close_for(
        self, engine: Any, event: Any, instant_on: Callable[[tuple[str | None, str | None]], int | None]
    ) -> Close | None:
        """A verdict made at a known instant is journaled after a ``close`` there, on the
        window's clock: a press stamped after it never counts in it, live as in a replay."""
        if not isinstance(event, Verdict):
            return None
        key = engine.window_clock()
        if key is None:
            return None
        at = instant_on(key)
        return None if at is None else Close(t_us=at)

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        """While a slap is judged, the question is on the screen itself, one at a time: the
        top bar only says what is going on."""
        where, todo = self.headline(view, ui.lang)
        if view.awaiting == "verdict" and not view.finished:
            todo = t("scr.await.false_pick" if kilo_ui(ui).picking else "scr.await.judge", ui.lang)
        return where, todo

    def redraw_in(self, view: View | None, ui: Ui, now: float) -> float | None:
        """While a slap window is open and shown, its countdown moves: the next frame is due
        at the next quarter second (or when the window closes). None otherwise: no timer."""
        from companion.display.state import active_screen

        if (
            view is None
            or view.live is None
            or not view.live.non_pressers
            or ui.window_open_at is None
            or active_screen(view, ui) not in ("verdict", "slap")
            or kilo_ui(ui).picking
        ):
            return None
        elapsed = now - ui.window_open_at
        left = view.rules.slap_timeout_ms / 1000 - elapsed
        if left <= 0:
            return None
        return max(0.01, min(left, WINDOW_TICK_S - elapsed % WINDOW_TICK_S))

    def undone(self, engine: Any, lang: str) -> str | None:
        event = engine.last_undone
        if isinstance(event, Draw):  # in words: "la pioche de Bruno, As de pique, 100 kg"
            card = event.card
            name = short_name(event.player, engine.players)
            if card.rank is not None and card.rank.value == "7":
                return t("scr.undone.flush", lang, name=name, card=card.name_in(lang))
            kilos = KILOS[card.rank] if card.rank is not None else 0
            return t("scr.undone.draw", lang, name=name, card=card.name_in(lang), kilos=kilos)
        if isinstance(event, Verdict):
            return t(
                "scr.undone.verdict",
                lang,
                what=t("scr.verdict.valid" if event.valid else "scr.verdict.false", lang),
            )
        return None

    def simulate(self, app: TableHandle, sim: Any) -> None:
        """Simulated players slap once per window the table is waiting for."""
        game = app.table.engine
        if game.awaiting != "play":
            return
        skip = {i for i, p in enumerate(game.players) if game.window_pressed(p)}
        sim.trigger_slap(skip=skip)
        app.sim_busy = True

    def do(self, app: TableHandle, action: GameAction) -> bool:
        return act(app, action)

    def confirm(self, app: TableHandle, screen: str) -> Action | None:
        return confirm_action(app.ui, screen)

    def cancel(self, app: TableHandle, screen: str) -> bool:
        ui: Ui = app.ui
        if screen == "verdict" and not kilo_ui(ui).picking and app.view and app.view.live:
            app.do(Judge(valid=False))
        elif kilo_ui(ui).picking:
            kilo_ui(ui).picking = False
            kilo_ui(ui).penalized = []
        elif screen == "card" and (kilo_ui(ui).rank or kilo_ui(ui).suit):
            kilo_ui(ui).rank = kilo_ui(ui).suit = None
        else:
            return False
        return True

    def key(self, app: TableHandle, key: int, mod: int, screen: str) -> bool:
        return key_action(app, key, screen)

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return bool(engine.awaiting == "play")

    def press_counted(self, engine: Any, event: Any) -> int | None:
        if isinstance(event, Press) and any(p.player == event.player for p in engine.window().order):
            return int(engine.players.index(event.player))
        return None

    def leds(self, engine: Any) -> LedPlan:
        """Owed draws blink, otherwise idle plus the presses seen in the open window."""
        game: KiloGame = engine
        if game.finished:
            return LedPlan("off")
        owed = tuple(game.players.index(n) for n in game.owed_draws)
        last = game.last_slap
        if owed and last is not None and not last.valid:
            return LedPlan("false_slap", owed)
        if owed:
            return LedPlan("loser", owed)
        return LedPlan("idle", lit=tuple(game.players.index(p.player) for p in game.window().order))

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        game: KiloGame = engine
        form.rounds = game.rounds
        form.rules = {k: getattr(game.rules, k) for k in RULE_CHOICES}
        form.timeout_ms = game.rules.slap_timeout_ms

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        items = [
            SetupItem(
                t("scr.setup.rounds", lang, n=form.rounds),
                t("scr.setup.rounds_help", lang),
                Rounds(1),
                Rounds(-1),
            )
        ]
        for name in RULE_CHOICES:
            value = form.rules[name]
            items.append(
                SetupItem(
                    t(f"scr.rule.{name}.{value}.short", lang),
                    t(f"scr.rule.{name}.{value}", lang),
                    NextRule(name),
                )
            )
        items.append(
            SetupItem(
                t("scr.setup.timeout", lang, s=form.timeout_ms / 1000),
                t("scr.setup.timeout_help", lang),
                SlapTimeout(1),
                SlapTimeout(-1),
            )
        )
        return items

    def setup_action(self, form: SetupForm, action: SetupAction) -> bool:
        if not isinstance(action, SetupChoice):
            return False
        match action:
            case Rounds(step=step):
                form.rounds = min(99, max(1, form.rounds + step))
            case NextRule(name=name):
                choices = RULE_CHOICES[name]
                form.rules[name] = choices[(choices.index(form.rules[name]) + 1) % len(choices)]
            case SlapTimeout(step=step):
                i = TIMEOUTS_MS.index(form.timeout_ms) if form.timeout_ms in TIMEOUTS_MS else 3
                form.timeout_ms = TIMEOUTS_MS[min(len(TIMEOUTS_MS) - 1, max(0, i + step))]
            case _:
                assert_never(action)
        return True

    def new_game(self, form: SetupForm, names: list[str]) -> NewKiloGame:
        return NewKiloGame(
            players=names, rounds=form.rounds, rules=KiloRules(slap_timeout_ms=form.timeout_ms, **form.rules)
        )


DRAWERS = {
    "table": draw_table,
    "slap": draw_slap,
    "verdict": draw_verdict,
    "card": draw_card,
    "pile": draw_pile,
    "history": draw_history,
    "gameover": draw_gameover,
}


__all__ = ["DRAWERS", "KiloScreens", "awaiting_text", "short_reason"]
