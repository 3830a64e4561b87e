"""13 feuilles' controls: what each of its actions (``actions.py``) does at the table, found by the
action's type.

The screens (``draw/``) put the actions on their controls; ``screens.TreizeScreens.do`` hands one
to ``act`` (its keys, which depend on the play half entered, are ``TreizeScreens.key``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.display.game_ui import TableHandle
from companion.display.layout import GameAction
from companion.display.state import Ui
from companion.games.treize.actions import (
    CardsLeft,
    ChooseCount,
    ChooseValue,
    DrawLots,
    EndGame,
    NextGame,
    OpenEnd,
    OpenPlay,
    PassTurn,
    PlayEntered,
    ToggleHelper,
    Took,
    WhyCount,
    WhyValue,
    Winner,
)
from companion.games.treize.autoplay import lots_rng
from companion.games.treize.draw.common import Entry, entry_of, tracking
from companion.games.treize.events import GameEnd, Play
from companion.games.treize.rules import TreizeGame, draw_lots
from companion.games.treize.view import View
from companion.text import Text

if TYPE_CHECKING:
    from companion.games.treize.screens import TreizeScreens


# --- what each action does (``act`` finds it by the action's type) ---------------------------


def _lots(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: DrawLots
) -> None:
    if game.awaiting == "starter":
        sc._submit(app, draw_lots(lots_rng(app.seed, game.game_number), game))


def _next(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: NextGame
) -> None:
    app.ui.show_result = False
    app.ui.screen = None


def _took(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: Took
) -> None:
    player = e.player if e is not None and e.kind == "take" else v.turn
    if player is not None:
        sc._pass(app, player, action.value)


def _play_open(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: OpenPlay
) -> None:
    if v.turn is not None and tracking(v, app.ui) and v.awaiting == "play":
        app.ui.entry = Entry("play", v.turn)
        app.ui.screen = None


def _count(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: ChooseCount
) -> None:
    if e is None or e.kind != "play" or e.value is None:
        app.ui.say(Text("treize.msg.pick_value"))
        return
    sc._count(app, v, e, action.count)


def _why_value(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: WhyValue
) -> None:
    sc._value(app, v, action.value)


def _why_count(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: WhyCount
) -> None:
    if e is not None and e.value is not None:
        sc._count(app, v, e, action.count)


def _play(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: PlayEntered
) -> None:
    ui: Ui = app.ui
    if e is None or e.kind != "play" or e.value is None:
        ui.say(Text("treize.msg.pick_value"))
    elif e.count is None:
        ui.say(Text("treize.msg.pick_count"))
    elif v.turn is not None:
        sc._submit(app, Play(player=v.turn, value=e.value, count=e.count))


def _helper(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: ToggleHelper
) -> None:
    ui: Ui = app.ui
    if v.mode is None and not v.finished:
        ui.setup.options["helper"] = not tracking(v, ui)
    else:
        ui.say(Text("treize.msg.helper_fixed"))


def _end_open(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: OpenEnd
) -> None:
    if not tracking(v, app.ui) and not v.finished:
        app.ui.entry = Entry("end")
        app.ui.screen = None


def _winner(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: Winner
) -> None:
    if e is not None and e.kind == "end":
        e.player = action.player


def _left(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: CardsLeft
) -> None:
    if e is not None and e.kind == "end":
        name = action.player
        e.left[name] = max(0, e.left.get(name, v.dealt) + action.step)


def _end(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: EndGame
) -> None:
    if e is None or e.kind != "end" or e.player is None:
        app.ui.say(Text("treize.msg.pick_winner"))
        return
    winner = e.player
    left = {s.name: e.left.get(s.name, v.dealt) for s in v.seats if s.name != winner} if v.advanced else None
    sc._submit(app, GameEnd(winner=winner, left=left))


def _pass(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: PassTurn
) -> None:
    sc._pass(app, action.player)


def _value(
    sc: TreizeScreens, app: TableHandle, v: View, game: TreizeGame, e: Entry | None, action: ChooseValue
) -> None:
    sc._value(app, v, action.value)


HANDLERS: dict[
    type[GameAction], Callable[[TreizeScreens, Any, View, TreizeGame, Entry | None, Any], None]
] = {
    DrawLots: _lots,
    NextGame: _next,
    PassTurn: _pass,
    Took: _took,
    OpenPlay: _play_open,
    ChooseValue: _value,
    ChooseCount: _count,
    WhyValue: _why_value,
    WhyCount: _why_count,
    PlayEntered: _play,
    ToggleHelper: _helper,
    OpenEnd: _end_open,
    Winner: _winner,
    CardsLeft: _left,
    EndGame: _end,
}


def act(sc: TreizeScreens, app: TableHandle, action: GameAction) -> bool:
    """Do ``action`` at the table; False when it is not one of 13 feuilles' (or no game is on)."""
    handler = HANDLERS.get(type(action))
    if handler is None or app.view is None or app.table is None:
        return False
    handler(sc, app, app.view, app.table.engine, entry_of(app.ui), action)
    app.dirty = True
    return True
