"""Les Cinq Rois' controls: what each of its actions (``actions.py``) does at the table, found by
the action's type.

The screens (``draw/``) put the actions on their controls; ``screens.CinqRoisScreens.do`` hands
one to ``act`` (its keys, which depend on the entry half made, are ``CinqRoisScreens.key``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.display.game_ui import TableHandle
from companion.display.layout import GameAction
from companion.display.state import Ui
from companion.games.cinq_rois.actions import (
    AddCard,
    Back,
    CancelOut,
    Continue,
    Digit,
    DrawLots,
    Enter,
    GoOut,
    PickDealer,
    PickPlayer,
    SetMode,
    SkipLots,
    ToEntry,
    TurnPlayed,
    WhyCard,
)
from companion.games.cinq_rois.draw.entry import entry_for
from companion.games.cinq_rois.entry import RoundEntry
from companion.games.cinq_rois.events import Dealer
from companion.games.cinq_rois.view import View
from companion.text import Text

if TYPE_CHECKING:
    from companion.games.cinq_rois.screens import CinqRoisScreens


# --- what each action does (``act`` finds it by the action's type) ---------------------------


def _lots(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: DrawLots
) -> None:
    entry.lots_skipped = False
    sc.draw_lots(app)


def _skip_lots(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: SkipLots
) -> None:
    entry.lots_skipped = True
    ui.screen = None


def _pick_dealer(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: PickDealer
) -> None:
    if v.dealer_open:
        app.submit(Dealer(player=v.players[action.seat]))


def _out(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: GoOut) -> None:
    seat = action.seat
    on_entry = app.last_screen == "entry"
    if entry.out == v.players[seat]:
        entry.out = None
        entry.pending = []
    else:
        entry.go_out(seat)
        if on_entry:
            entry.skip_turns()  # chosen while entering: the last turns are played
    ui.show_result = False
    if not on_entry:
        ui.screen = None
    sc._show_leds(app)


def _turn(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: TurnPlayed
) -> None:
    entry.turn_done(action.seat)
    if not entry.pending:
        ui.screen = None
    sc._show_leds(app)


def _to_entry(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: ToEntry
) -> None:
    entry.skip_turns()
    ui.screen = None
    sc._show_leds(app)


def _cancel_out(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: CancelOut
) -> None:
    entry.out = None
    entry.pending = []
    ui.screen = None
    sc._show_leds(app)


def _why_card(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: WhyCard
) -> None:
    reason = entry.card_reason(action.card)
    if reason is not None:
        ui.say(Text.fr_en(reason))


def _back(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: Back) -> None:
    entry.back()


def _continue(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: Continue
) -> None:
    ui.show_result = False
    ui.screen = None
    app.maybe_simulate()


def _mode(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: SetMode) -> None:
    entry.set_mode(action.mode)


def _pick(
    sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: PickPlayer
) -> None:
    entry.select(action.seat)


def _digit(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: Digit) -> None:
    sc._refuse(ui, entry.digit(action.digit))


def _card(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: AddCard) -> None:
    sc._refuse(ui, entry.add(action.card))


def _enter(sc: CinqRoisScreens, app: TableHandle, ui: Ui, v: View, entry: RoundEntry, action: Enter) -> None:
    sc._enter(app, entry)


_Handler = Callable[["CinqRoisScreens", Any, Ui, View, RoundEntry, Any], None]
HANDLERS: dict[type[GameAction], _Handler] = {
    DrawLots: _lots,
    SkipLots: _skip_lots,
    PickDealer: _pick_dealer,
    GoOut: _out,
    TurnPlayed: _turn,
    ToEntry: _to_entry,
    CancelOut: _cancel_out,
    SetMode: _mode,
    PickPlayer: _pick,
    Digit: _digit,
    AddCard: _card,
    WhyCard: _why_card,
    Back: _back,
    Enter: _enter,
    Continue: _continue,
}


def act(sc: CinqRoisScreens, app: TableHandle, action: GameAction) -> bool:
    """Do ``action`` at the table; False when it is not one of Les Cinq Rois' (or no game is on)."""
    handler = HANDLERS.get(type(action))
    if handler is None or app.view is None:
        return False
    v: View = app.view
    handler(sc, app, app.ui, v, entry_for(app.ui, v), action)
    return True
