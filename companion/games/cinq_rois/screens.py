"""Les Cinq Rois on the table screen: the score sheet, the draw for the first dealer, the last turns
after someone goes out, the round entry (points, cards left or whole hands), the round's
arrangements card by card, and the game over.

``CinqRoisScreens`` is the game's side of the display seam (``display/game_ui.py``): a seat button
means "I go out" (then "my last turn is played"), or draws the first dealer by lot before round 1.
The half-entered round is a ``RoundEntry`` (``entry.py``) kept in ``Ui.entry``; only a complete
one becomes a ``round_end`` event.
"""

from __future__ import annotations

import random
from typing import Any

import pygame

from companion.display.app_actions import Nav
from companion.display.blocks import rank_keys, rank_label
from companion.display.game_ui import GameScreens, LedPlan, SetupItem, TableHandle
from companion.display.layout import Action, GameAction, Painter, SetupAction
from companion.display.names import short_name
from companion.display.state import SetupForm, Ui
from companion.games.cinq_rois.actions import (
    CancelOut,
    Continue,
    DrawLots,
    Enter,
    GoOut,
    NextDealer,
    SkipLots,
    ToEntry,
)
from companion.games.cinq_rois.controls import act
from companion.games.cinq_rois.draw.common import LOTS_SECONDS, said, seat_strip, tr
from companion.games.cinq_rois.draw.entry import draw_entry, entry_for, entry_from_result
from companion.games.cinq_rois.draw.gameover import draw_gameover
from companion.games.cinq_rois.draw.lastturn import draw_lastturn
from companion.games.cinq_rois.draw.lots import draw_lots, draw_lots_overlay
from companion.games.cinq_rois.draw.round import draw_round
from companion.games.cinq_rois.draw.rules_page import rule_lines
from companion.games.cinq_rois.draw.sheet import draw_sheet
from companion.games.cinq_rois.entry import MODES, Mode, RoundEntry
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame, RoundResult
from companion.games.cinq_rois.view import (
    JOKER,
    View,
    build_view,
)
from companion.table.log import Undo
from companion.text import Text

Rect = pygame.Rect


RANK_KEYS: dict[int, str] = rank_keys(3)  # no aces and no 2s in Les Cinq Rois
# After a rank, the next key is its suit: the table-log letters, F1-F5, E for étoile (star).
SUIT_KEYS: dict[int, str] = {
    pygame.K_s: "S",
    pygame.K_h: "H",
    pygame.K_d: "D",
    pygame.K_c: "C",
    pygame.K_e: "*",
    pygame.K_ASTERISK: "*",
    pygame.K_KP_MULTIPLY: "*",
    pygame.K_F1: "S",
    pygame.K_F2: "H",
    pygame.K_F3: "D",
    pygame.K_F4: "C",
    pygame.K_F5: "*",
}
JOKER_KEYS = (pygame.K_x, pygame.K_F6)
DIGIT_KEYS: dict[int, str] = {
    **{getattr(pygame, f"K_{d}"): str(d) for d in range(10)},
    **{getattr(pygame, f"K_KP{d}"): str(d) for d in range(10)},
}
SEAT_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{d}"): d - 1 for d in range(1, 10)},
    **{getattr(pygame, f"K_KP{d}"): d - 1 for d in range(1, 10)},
}
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
BUTTON_SCREENS = ("sheet", "lots", "lastturn", "round", "gameover", "rules", "status")


class CinqRoisScreens(GameScreens[View, CinqRoisGame]):
    game = "cinq-rois"
    title = "Les Cinq Rois"
    screens = ("sheet", "lots", "lastturn", "entry", "round", "gameover")
    nav = (("sheet", "T"), ("entry", "E"), ("round", "D"))
    anim_seconds = LOTS_SECONDS

    def __init__(self) -> None:
        # The seats still owed a last turn, for the LEDs: the engine does not know them (nothing
        # is journaled before the round's result), so the screens tell the LEDs (engine, seats).
        self._lit: tuple[Any, tuple[int, ...]] = (None, ())

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> View:
        return build_view(engine)

    def auto_screen(self, view: View, ui: Ui) -> str:
        if view.finished:
            return "gameover"
        if ui.show_result:
            return "round"
        entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == view.round else None
        if entry is not None and entry.out is not None:
            return "lastturn" if entry.pending else "entry"
        if view.dealer_open and not (entry is not None and entry.lots_skipped):
            return "lots"
        return "sheet"

    def headline(self, view: View, lang: str) -> tuple[str, str]:
        where = (
            tr("head.over", lang)
            if view.finished
            else tr("head.round", lang, round=view.round, rounds=view.rounds)
        )
        if view.finished:
            return where, tr("head.played", lang)
        # Short enough for the portrait screen's top bar (the dealer in the short form a
        # sentence uses; who starts is the next seat): the sheet has the whole sentence.
        return where, tr(
            "head.short", lang, bonus=rank_label(view.bonus or "", lang), dealer=said(view, view.dealer)
        )

    def headline_for(self, view: View, ui: Ui) -> tuple[str, str]:
        where, todo = self.headline(view, ui.lang)
        entry = ui.entry if isinstance(ui.entry, RoundEntry) and ui.entry.round == view.round else None
        if view.dealer_open and not (entry is not None and entry.lots_skipped):
            # The first dealer is still to be drawn (the first seat deals only if the table
            # skips the draw).
            todo = tr("head.lots", ui.lang, bonus=rank_label(view.bonus or "", ui.lang))
        return where, todo

    def draw(self, p: Painter, view: View, ui: Ui, screen: str, area: Rect) -> None:
        DRAWERS[screen](p, view, ui, area)

    def overlay(self, p: Painter, view: View, ui: Ui, phase: float) -> None:
        draw_lots_overlay(p, view, ui, phase)

    def rule_lines(self, view: View | None, ui: Ui) -> list[str]:
        return rule_lines(view, ui)

    def strip(self, p: Painter, view: View, ui: Ui, area: Rect) -> None:
        seat_strip(p, view, ui, area)

    # --- inputs --------------------------------------------------------------------------------

    def _entry(self, app: TableHandle) -> RoundEntry:
        return entry_for(app.ui, app.view)

    def _show_leds(self, app: TableHandle) -> None:
        game = app.game
        if game is None:
            return
        entry = app.ui.entry
        seats: tuple[int, ...] = ()
        if isinstance(entry, RoundEntry) and entry.round == game.round and entry.out:
            seats = tuple(game.players.index(n) for n in entry.pending)
        self._lit = (game, seats)
        app.buttons.show(game, self)

    def draw_lots(self, app: TableHandle) -> None:
        """A fair draw of the first dealer, from the table's seed: a resumed table draws the
        same seat."""
        game = app.game
        if game is None or not game.dealer_open:
            return
        rng = random.Random(f"{app.seed}:cinq-rois:dealer")
        app.submit(Dealer(player=game.players[rng.randrange(len(game.players))]))

    def press(self, app: TableHandle, seat: int, t_us: int, res_us: int | None = None) -> None:
        game = app.game
        if game is None or game.finished or not 0 <= seat < len(game.players):
            return
        ui: Ui = app.ui
        entry = self._entry(app)
        if game.dealer_open and not entry.lots_skipped and entry.out is None:
            self.draw_lots(app)
            return
        if entry.out is None:
            entry.go_out(seat)
            ui.screen = None
            ui.show_result = False
            app.sounds.play("slap")
        elif entry.pending:
            if entry.turn_done(seat) and not entry.pending:
                ui.screen = None
        else:
            return
        app.dirty = True
        self._show_leds(app)

    def keys_are_buttons(self, app: TableHandle, screen: str) -> bool:
        return screen in BUTTON_SCREENS

    def after(self, app: TableHandle, event: Any, before: View | None) -> None:
        ui: Ui = app.ui
        v: View = app.view
        if isinstance(event, Dealer):
            ui.anim_start = app.now()
            ui.screen = None
        elif isinstance(event, RoundEnd):
            old = ui.entry
            ui.entry = None
            entry = entry_for(ui, v)
            if isinstance(old, RoundEntry):
                entry.set_mode(old.mode)  # the table keeps its way of entering rounds
            last = v.last
            ui.show_result = last is not None and last.entry != "points" and not v.finished
            ui.screen = None
        elif isinstance(event, Undo):
            undone = app.game.last_undone
            mode: Mode = ui.entry.mode if isinstance(ui.entry, RoundEntry) else "points"
            if isinstance(undone, RoundResult):
                ui.entry = entry_from_result(undone, v.players, mode)
            else:
                ui.entry = None
            ui.show_result = False
            ui.screen = None
        self._show_leds(app)

    def undone(self, engine: Any, lang: str) -> str | None:
        last = engine.last_undone
        if isinstance(last, RoundResult):
            return tr("undone.round", lang, round=last.round, name=short_name(last.out, engine.players))
        if isinstance(last, Dealer):
            return tr("undone.dealer", lang, name=short_name(last.player, engine.players))
        return None

    def simulate(self, app: TableHandle, sim: Any) -> None:
        """Simulated players: one presses to draw the first dealer, then each round is really
        played out (``sim.play_round``, seeded by the table's seed and the round): whoever combines
        first presses "I go out", the others press as their last turns are played, and the entry
        is filled with everyone's hands for the table to confirm."""
        from companion.games.cinq_rois.sim import play_round
        from companion.inputs.base import InputEvent
        from companion.inputs.sim import SIM_CLOCK

        game = app.game
        if game is None or game.finished or app.ui.show_result:
            return  # the table is still reading the last round: "continue" calls us again
        t_ns = [int(app.now() * 1e9)]

        def press(seat: int) -> None:
            for edge in ("press", "release"):
                t_ns[0] += 120_000_000
                app.inbox.put(InputEvent("seat", seat, edge, t_ns[0], SIM_CLOCK, "sim"))

        entry = self._entry(app)
        if game.dealer_open and not entry.lots_skipped:
            if not entry.sim_lots:  # one press draws the lots; a second would be "I go out"
                entry.sim_lots = True
                press(0)
            return
        if entry.sim_played or entry.out is not None:
            return
        entry.sim_played = True
        rng = random.Random(f"{app.seed}:cinq-rois:round:{game.round}")
        played = play_round(game.players, game.round, game.dealer, rng)
        entry.fill_hands({p: [str(c) for c in h] for p, h in played.hands.items()})
        seat = game.players.index(played.out)
        press(seat)
        n = len(game.players)
        for i in range(1, n):
            press((seat + i) % n)

    def do(self, app: TableHandle, action: GameAction) -> bool:
        return act(self, app, action)

    @staticmethod
    def _refuse(ui: Ui, reason: tuple[str, str] | None) -> None:
        if reason is not None:
            ui.say(Text.fr_en(reason))

    def _enter(self, app: TableHandle, entry: RoundEntry) -> None:
        """Enter: the next player still to enter, else the round goes to the table."""
        ui: Ui = app.ui
        if entry.out is None:
            self._refuse(ui, entry.event()[1])
            return
        if entry.mode != "hands" and not entry.complete(entry.name) and entry.next_player():
            return
        if entry.mode == "left" and entry.takes_input(entry.name):
            entry.visited.add(entry.name)
        if entry.mode == "hands" and not entry.complete(entry.name) and entry.entered(entry.name):
            ui.say(Text.fr_en(entry.event()[1] or ("", "")))
            return
        event, reason = entry.event()
        if event is None:
            if not entry.next_player():
                self._refuse(ui, reason)
            return
        app.submit(event)  # refused by the rules: the message is the engine's, said as it is

    def confirm(self, app: TableHandle, screen: str) -> Action | None:
        v: View | None = app.view
        if v is None or v.finished:
            return None
        if screen == "lots":
            return DrawLots() if v.dealer_open else None
        if screen == "lastturn":
            return ToEntry()
        if screen == "entry":
            return Enter()
        if screen == "round" and app.ui.show_result:
            return Continue()
        if screen == "sheet":
            return Nav("entry")
        return None

    def cancel(self, app: TableHandle, screen: str) -> bool:
        ui: Ui = app.ui
        v: View | None = app.view
        if v is None:
            return False
        entry = entry_for(ui, v)
        if screen == "lots" and v.dealer_open:
            return self.do(app, SkipLots())
        if screen == "lastturn" and entry.out is not None:
            return self.do(app, CancelOut())
        if screen == "entry" and entry.rank is not None:
            entry.rank = None
            return True
        if screen == "entry":
            ui.screen = "sheet"
            return True
        if screen == "round" and ui.show_result:
            return self.do(app, Continue())
        return False

    def key(self, app: TableHandle, key: int, mod: int, screen: str) -> bool:
        ui: Ui = app.ui
        v: View | None = app.view
        if v is None or screen != "entry" or v.finished:
            return False
        entry = entry_for(ui, v)
        ui.message = None
        app.dirty = True
        if key == pygame.K_BACKSPACE:
            entry.back()  # never an undo here: the table is typing
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            self._arrow(v, entry, key)
        elif key in SEAT_KEYS and (mod & pygame.KMOD_CTRL or entry.out is None):
            self._seat_key(app, v, entry, key, bool(mod & pygame.KMOD_CTRL))
        elif entry.mode == "points":
            return self._points_key(ui, entry, key)
        else:
            return self._card_key(app, entry, key)
        return True

    @staticmethod
    def _arrow(v: View, entry: RoundEntry, key: int) -> None:
        """Left and right change how the round is entered, up and down the player entered."""
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            step = 1 if key == pygame.K_RIGHT else -1
            entry.set_mode(MODES[(MODES.index(entry.mode) + step) % len(MODES)])
        else:
            step = 1 if key == pygame.K_DOWN else -1
            entry.select((entry.active + step) % len(v.players))

    def _seat_key(self, app: TableHandle, v: View, entry: RoundEntry, key: int, ctrl: bool) -> None:
        """A seat's key: with Ctrl, that player goes out (or not) as the touch does; alone, while
        nobody has, that player goes out and the last turns are taken as played."""
        seat = SEAT_KEYS[key]
        if seat >= len(v.players):
            return
        if ctrl:
            self.do(app, GoOut(seat))
        else:
            entry.go_out(seat)
            entry.skip_turns()

    def _points_key(self, ui: Ui, entry: RoundEntry, key: int) -> bool:
        if key in DIGIT_KEYS:
            self._refuse(ui, entry.digit(DIGIT_KEYS[key]))
        elif key in MINUS_KEYS:
            self._refuse(ui, entry.digit("-"))
        else:
            return False
        return True

    def _card_key(self, app: TableHandle, entry: RoundEntry, key: int) -> bool:
        """Rank then suit, as the cards are written: 7 H, 1 0 S, J K (the joker), Q D."""
        ui: Ui = app.ui
        if entry.rank is not None:
            if entry.rank == "J" and key == pygame.K_k:
                self._refuse(ui, entry.add(JOKER))
                return True
            if entry.rank == "1" and key in (pygame.K_0, pygame.K_KP0):
                entry.rank = "10"
                return True
            if key in SUIT_KEYS:
                self._refuse(ui, entry.add(entry.rank + SUIT_KEYS[key]))
                return True
        if key in JOKER_KEYS:
            self._refuse(ui, entry.add(JOKER))
            return True
        if key in SUIT_KEYS and key not in RANK_KEYS:
            ui.say(Text("scr.msg.pick_rank"))
            return True
        if key in (pygame.K_1, pygame.K_KP1):
            entry.rank = "1"  # the start of 10
            return True
        if key in (pygame.K_2, pygame.K_KP2, pygame.K_a):
            rank = "A" if key == pygame.K_a else "2"
            self._refuse(ui, entry.card_reason(rank + "S"))  # names why there is none
            entry.rank = None
            return True
        if key in RANK_KEYS:
            entry.rank = RANK_KEYS[key]
            return True
        # A stray key after a rank is swallowed (the rank waits for its suit); otherwise the
        # generic keys act: Enter, Esc, Tab, U (undo), L, M, T (the sheet).
        return entry.rank is not None and key not in (
            pygame.K_TAB,
            pygame.K_ESCAPE,
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
        )

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        return not engine.finished

    def leds(self, engine: Any) -> LedPlan:
        """Lit: the players who still have their last turn to play."""
        if engine.finished:
            return LedPlan("off")
        game, seats = self._lit
        return LedPlan("idle", lit=seats if game is engine else ())

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        dealer = engine.setup.dealer
        form.options["dealer"] = engine.players.index(dealer) if dealer is not None else None

    @staticmethod
    def _dealer_seat(form: SetupForm) -> int | None:
        """The first dealer chosen in the form, by seat (a renamed player stays the dealer)."""
        seat = form.options.get("dealer")
        return seat if isinstance(seat, int) and 0 <= seat < len(form.players) else None

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        seat = self._dealer_seat(form)
        label = (
            tr("setup.dealer", lang, name=form.players[seat])
            if seat is not None
            else tr("setup.dealer_lots", lang)
        )
        return [SetupItem(label, tr("setup.dealer_help", lang), NextDealer())]

    def setup_action(self, form: SetupForm, action: SetupAction) -> bool:
        if not isinstance(action, NextDealer):
            return False
        seat = self._dealer_seat(form)
        nxt = 0 if seat is None else seat + 1
        form.options["dealer"] = nxt if nxt < len(form.players) else None
        return True

    def new_game(self, form: SetupForm, names: list[str]) -> NewCinqRoisGame:
        seat = self._dealer_seat(form)
        return NewCinqRoisGame(players=names, dealer=None if seat is None else names[seat])


DRAWERS = {
    "sheet": draw_sheet,
    "lots": draw_lots,
    "lastturn": draw_lastturn,
    "entry": draw_entry,
    "round": draw_round,
    "gameover": draw_gameover,
}


__all__ = ["DRAWERS", "CinqRoisScreens", "rank_label", "tr"]
