"""Kilo de merde's controls: what each of its actions (``actions.py``) does at the table, found by
the action's type, and the keys that make them.

The screens (``draw/``) put the actions on their controls; ``screens.KiloScreens.do`` hands one
to ``act``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.display.app_actions import Cancel
from companion.display.blocks import rank_keys
from companion.display.game_ui import TableHandle
from companion.display.layout import Action, GameAction
from companion.display.lots import fair_seat
from companion.display.state import Ui
from companion.games.kilo.actions import (
    ConfirmFalse,
    Continue,
    DrawCard,
    DrawLots,
    Judge,
    PickRank,
    PickSuit,
    SetStarter,
    Toggle,
    Why,
)
from companion.games.kilo.draw.card import aside_reason
from companion.games.kilo.events import Dealer, Draw, Starter, Verdict
from companion.games.kilo.ui_state import kilo_ui
from companion.games.kilo.view import View
from companion.i18n import t
from companion.text import Text

# --- what each action does ---------------------------------------------------------------------


def _judge(app: TableHandle, ui: Ui, v: View | None, action: Judge) -> None:
    if action.valid:
        app.submit(Verdict(valid=True))
    elif v is not None and v.live is not None:
        kilo_ui(ui).picking = True
        kilo_ui(ui).picking_at = app.decision_ns
        kilo_ui(ui).penalized = [v.live.claimant] if v.live.claimant else []


def _toggle(app: TableHandle, ui: Ui, v: View | None, action: Toggle) -> None:
    if action.name in kilo_ui(ui).penalized:
        kilo_ui(ui).penalized.remove(action.name)
    else:
        kilo_ui(ui).penalized.append(action.name)


def _confirm_false(app: TableHandle, ui: Ui, v: View | None, action: ConfirmFalse) -> None:
    if not kilo_ui(ui).penalized:
        ui.say(Text("scr.pick.nobody"))
        return
    if v is None or v.live is None:
        return
    claimant_only = kilo_ui(ui).penalized == [v.live.claimant]
    verdict = Verdict(valid=False, penalized=None if claimant_only else list(kilo_ui(ui).penalized))
    made = app.decision_ns
    if kilo_ui(ui).picking_at is not None:  # judged where the false slap was called
        app.decision_ns = kilo_ui(ui).picking_at
    try:
        app.submit(verdict)
    finally:
        app.decision_ns = made


def _continue(app: TableHandle, ui: Ui, v: View | None, action: Continue) -> None:
    ui.show_result = False
    ui.screen = None


def _rank(app: TableHandle, ui: Ui, v: View | None, action: PickRank) -> None:
    ui.show_result = False
    ui.screen = None
    rank = action.rank
    reason = v.rank_reasons.get(rank) if v is not None else None
    if reason is not None:
        ui.say(Text.fr_en(reason))
        return
    k = kilo_ui(ui)
    k.rank = rank
    if k.suit and v is not None and v.card_reasons.get(rank + k.suit) is not None:
        k.suit = None


def _suit(app: TableHandle, ui: Ui, v: View | None, action: PickSuit) -> None:
    suit = action.suit
    k = kilo_ui(ui)
    if suit is not None and k.rank and v is not None:
        reason = v.card_reasons.get(k.rank + suit)
        if reason is not None:
            ui.say(Text.fr_en(reason))
            return
    kilo_ui(ui).suit = suit


def _why(app: TableHandle, ui: Ui, v: View | None, action: Why) -> None:
    if v is None:
        return
    key = str(action.key)
    reason = aside_reason(v, key.split()) if " " in key else None
    reason = reason or v.rank_reasons.get(key) or v.card_reasons.get(key)
    if reason is None and kilo_ui(ui).rank is None and len(key) == 1:
        reason = (t("scr.msg.pick_rank", "fr"), t("scr.msg.pick_rank", "en"))
    if reason is not None:
        ui.say(Text.fr_en(reason))


def _draw(app: TableHandle, ui: Ui, v: View | None, action: DrawCard) -> None:
    if v is None or not v.owed:
        return
    k = kilo_ui(ui)
    if k.rank is None:
        ui.say(Text("scr.msg.pick_rank"))
        return
    app.submit(Draw(player=v.owed[0], card=k.rank + (k.suit or "")))


def _starter(app: TableHandle, ui: Ui, v: View | None, action: SetStarter) -> None:
    app.submit(Starter(player=action.player))


def _lots(app: TableHandle, ui: Ui, v: View | None, action: DrawLots) -> None:
    game = app.table.engine
    if game.dealer_open:
        seat = fair_seat(app.seed, "kilo:dealer", len(game.players))
        if app.submit(Dealer(player=game.players[seat])):
            ui.entry = "lots"
            ui.anim_start = app.now()


Handler = Callable[[Any, Ui, "View | None", Any], None]
HANDLERS: dict[type[GameAction], Handler] = {
    Judge: _judge,
    Toggle: _toggle,
    ConfirmFalse: _confirm_false,
    Continue: _continue,
    PickRank: _rank,
    PickSuit: _suit,
    Why: _why,
    DrawCard: _draw,
    SetStarter: _starter,
    DrawLots: _lots,
}


def act(app: TableHandle, action: GameAction) -> bool:
    """Do ``action`` at the table; False when it is not one of Kilo de merde's."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        return False
    handler(app, app.ui, app.view, action)
    return True


# --- keys ----------------------------------------------------------------------------------------

# Card entry keys: both languages' letters, the digits, and the numpad (/ * - for J Q K).
RANK_KEYS: dict[int, str] = {pygame.K_a: "A", pygame.K_1: "A", pygame.K_KP1: "A", **rank_keys(2)}
SUIT_PYKEYS = {pygame.K_F1: "S", pygame.K_F2: "H", pygame.K_F3: "D", pygame.K_F4: "C"}
DIGIT_SEATS = {
    **{getattr(pygame, f"K_{d}"): d - 1 for d in range(1, 10)},
    pygame.K_0: 9,
    **{getattr(pygame, f"K_KP{d}"): d - 1 for d in range(1, 10)},
    pygame.K_KP0: 9,
}


def _card_key(ui: Ui, v: View | None, key: int, screen: str) -> Action | None:
    """A key of the card entry: Backspace clears it, a rank or a suit key enters one."""
    if key == pygame.K_BACKSPACE and screen == "card" and (kilo_ui(ui).rank or kilo_ui(ui).suit):
        return Cancel()
    if screen == "card" and key in RANK_KEYS:
        return PickRank(RANK_KEYS[key])
    if screen == "card" and key in SUIT_PYKEYS:
        return PickSuit(SUIT_PYKEYS[key])
    if key in RANK_KEYS and v is not None and v.awaiting == "draw" and not kilo_ui(ui).picking:
        # A rank typed while a draw is owed is the card, whichever page is up (the slap's
        # result, or one opened with T, P, H...): the action goes back to the card screen.
        # Dropped, the next Enter would confirm nothing.
        return PickRank(RANK_KEYS[key])
    return None


def _pick_seat(app: TableHandle, ui: Ui, v: View, seat: int) -> None:
    """A seat's digit while the players who slapped in error are picked."""
    if seat >= len(v.players):
        return
    name = v.players[seat]
    assert v.live is not None
    if name in [p.name for p in v.live.presses]:
        app.do(Toggle(name))
    else:
        ui.say(Text("scr.pick.not_pressed", name=name))


def key_action(app: TableHandle, key: int, screen: str) -> bool:
    """A key on one of Kilo de merde's screens; False to let the generic keys act."""
    ui: Ui = app.ui
    v: View | None = app.view
    action = _card_key(ui, v, key, screen)
    if action is None and key == pygame.K_d and screen == "table" and v is not None and v.dealer_open:
        action = DrawLots()
    if action is not None:
        app.do(action)
        return True
    if kilo_ui(ui).picking and key in DIGIT_SEATS and v is not None and v.live is not None:
        _pick_seat(app, ui, v, DIGIT_SEATS[key])
        return True
    return False


def confirm_action(ui: Ui, screen: str) -> Action | None:
    """What Enter means on ``screen``; None for the default."""
    if screen == "verdict":
        return ConfirmFalse() if kilo_ui(ui).picking else Judge(valid=True)
    if screen == "slap" and ui.show_result:
        return Continue()
    if screen == "card":
        return DrawCard()
    return None
