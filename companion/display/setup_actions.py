"""The App's set-up: the setup screen's actions (players, game, buttons, names and their short
forms typed in, the page), the form filled from the game being left, and the new game started
from the form. One handler per action, found by the action's type (``display/form_actions.py``);
a game's settings are its own (``GameSetup.setup_action``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

import pygame

from companion.display import names
from companion.display.form_actions import (
    Edit,
    FormAction,
    NextGame,
    NextInput,
    Page,
    Seats,
    SeatUp,
    Start,
)
from companion.display.game_ui import screens_for
from companion.display.layout import SetupAction
from companion.display.state import INPUTS, SETUP_PAGES, SetupForm
from companion.errors import CompanionError
from companion.table.log import MAX_NAME
from companion.table.registry import GAMES, NAMES
from companion.text import Text

if TYPE_CHECKING:
    from companion.display.app import App


class Setup:
    """The setup form of ``app`` (read anew each time: a new game brings a new ``Ui``)."""

    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def form(self) -> SetupForm:
        return self.app.ui.setup

    def do(self, action: SetupAction) -> None:
        """The form's own action, else the game's settings'."""
        form = self.form
        if isinstance(action, FormAction):
            self._form_action(form, action)
        else:
            screens_for(form.game).setup_action(form, action)

    def _form_action(self, form: SetupForm, action: FormAction) -> None:
        match action:
            case Seats(step=step):
                self._seats(form, step)
            case NextGame():
                self._game(form)
            case NextInput():
                form.input = INPUTS[(INPUTS.index(form.input) + 1) % len(INPUTS)]
            case Edit(index=index, short=short):
                self._edit(form, index, short)
            case Page(name=name):
                self._page(form, name)
            case SeatUp(index=i) if i > 0:
                form.players[i - 1], form.players[i] = form.players[i], form.players[i - 1]
            case SeatUp():
                pass  # the first seat stays first
            case Start():
                self.start()
            case _:
                assert_never(action)

    def _seats(self, form: SetupForm, step: int) -> None:
        entry = GAMES[form.game]
        if step > 0 and len(form.players) < entry.max_players:
            free = [n for n in NAMES if n not in form.players]
            form.players.append(free[0] if free else f"J{len(form.players) + 1}")
        elif step < 0 and len(form.players) > entry.min_players:
            form.players.pop()
            if form.editing is not None and form.editing >= len(form.players):
                form.editing = None

    def _game(self, form: SetupForm) -> None:
        kinds = list(GAMES)
        form.game = kinds[(kinds.index(form.game) + 1) % len(kinds)]
        entry = GAMES[form.game]
        while len(form.players) > entry.max_players:
            form.players.pop()
        free = [n for n in NAMES if n not in form.players]
        while len(form.players) < entry.min_players:
            form.players.append(free.pop(0))
        if self.app.table is None:
            self.app.ui.game = form.game

    def _edit(self, form: SetupForm, index: int, short: bool) -> None:
        if form.editing is not None and not self.end_typing():
            return  # a short form the table refuses is being typed: it says why
        form.editing = index
        form.editing_short = short
        if form.editing_short:  # typed from the form shown, as a name is
            name = form.players[form.editing]
            form.shorts[name] = form.short_of(name)
        pygame.key.start_text_input()

    def _page(self, form: SetupForm, name: str) -> None:
        """Players or settings: a name being typed is done."""
        form.page = name if name in SETUP_PAGES else SETUP_PAGES[0]
        if form.editing is not None:
            self.end_typing(force=True)

    def fill(self) -> None:
        """The form proposes the game being left, its players and their short forms."""
        app = self.app
        game = app.game
        if game is None:
            return
        form = SetupForm(game=game.game, players=list(game.players), input=app.source_name)
        app.screens.fill_form(form, game)
        # The next game with these players is proposed the forms chosen for this one.
        form.shorts = dict(names.chosen(tuple(game.players)))
        app.ui.setup = form

    def _refusal(self, players: list[str]) -> Text | None:
        """Why the names (and their short forms as shown) cannot start a game, if they cannot."""
        for name in players:
            if not name:
                return Text("scr.msg.name_empty")
            if players.count(name) > 1:
                return Text("scr.msg.name_taken", name=name)
        # The short forms as shown beside the names (a name typed with spaces around it keeps
        # the form shown for it), each checked against the others once the names are final.
        shorts = self.shorts()
        for name in players:
            problem = names.short_problem(name, shorts[name], shorts, players)
            if problem is not None:
                return problem
        return None

    def shorts(self) -> dict[str, str]:
        form = self.form
        return {name.strip(): form.short_of(name).strip() for name in form.players}

    def start(self) -> None:
        """A new game from the form, or the reason it cannot start said."""
        form = self.form
        if form.editing is not None and not self.end_typing():
            return
        players = [n.strip() for n in form.players]
        refusal = self._refusal(players)
        if refusal is not None:
            self.app.ui.say(refusal)
            return
        shorts = self.shorts()
        try:
            setup: Any = screens_for(form.game).new_game(form, players)
        except (CompanionError, ValueError) as err:
            said = err.text if isinstance(err, CompanionError) else Text.pair(en=str(err), fr=str(err))
            self.app.ui.say(said)
            return
        self.app.start_game(setup, form.input, shorts)

    def end_typing(self, force: bool = False) -> bool:
        """Done typing a name or a short form (Enter, Tab, another field). A short form the
        table refuses (``names.short_problem``) is said, and stays being typed; ``force`` (the
        page changes, Escape) leaves it as typed, to be said again at Start."""
        form = self.form
        i = form.editing
        if i is not None and form.editing_short:
            name = form.players[i]
            short = form.shorts.get(name, "").strip()
            problem = names.short_problem(name, short, form.short_forms(), form.players)
            if problem is not None:
                self.app.ui.say(problem)
                if not force:
                    self.app.dirty = True
                    return False
            else:
                form.shorts[name] = short
        form.editing, form.editing_short = None, False
        pygame.key.stop_text_input()
        self.app.dirty = True
        return True

    def type(self, text: str) -> None:
        form = self.form
        i = form.editing
        if i is None:
            return
        if form.editing_short:
            name = form.players[i]
            form.shorts[name] = (form.shorts.get(name, "") + text)[:MAX_NAME]
        else:
            form.players[i] = (form.players[i] + text)[:MAX_NAME]
        self.app.dirty = True

    def key(self, key: int, editing: int) -> None:
        """A key while a name or a short form is being typed."""
        form = self.form
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
            self.end_typing()
        elif key == pygame.K_BACKSPACE and form.editing_short:
            name = form.players[editing]
            form.shorts[name] = form.shorts.get(name, "")[:-1]
        elif key == pygame.K_BACKSPACE:
            form.players[editing] = form.players[editing][:-1]
        elif key == pygame.K_ESCAPE:
            self.app.cancel("setup")
        self.app.dirty = True
