"""What a tap, a key or a referee's button does on the table screen: the App's own actions
(confirm, cancel, undo, the menu, the screens, sound, voice, language, the phones' codes: frozen
dataclasses of ``display/app_actions.py``) matched by type, a game's routed to its screens, the
setup form's to ``Setup``; keys and touches read into actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

import pygame

from companion.display.app_actions import (
    Again,
    AppAction,
    Cancel,
    Confirm,
    Dismiss,
    Lang,
    Menu,
    Mute,
    Nav,
    NewGame,
    Noop,
    Undo,
    Voice,
    WebPage,
    WebRevoke,
)
from companion.display.form_actions import Start
from companion.display.layout import Action, GameAction, SetupAction
from companion.display.source_host import CONFIRM_KEYS
from companion.display.state import active_screen, auto_screen
from companion.errors import CompanionError
from companion.table import log
from companion.text import Text

if TYPE_CHECKING:
    from companion.display.app import App

# The keys every screen reads the same way (the form and the game's screens first).
KEY_ACTIONS: dict[int, AppAction] = {
    **{k: Confirm() for k in CONFIRM_KEYS},
    pygame.K_ESCAPE: Cancel(),
    pygame.K_BACKSPACE: Undo(),
    pygame.K_u: Undo(),
    pygame.K_m: Mute(),
    pygame.K_l: Lang(),
}
# What a referee's button does (its role in ``inputs.base.Role``), the same as its key.
REFEREE_ACTIONS: dict[str, AppAction] = {"confirm": Confirm(), "cancel": Cancel(), "undo": Undo()}


class Controls:
    """The table screen's controls, acting on ``app``."""

    def __init__(self, app: App, settings_path: Any = None) -> None:
        self.app = app
        # The config file the table's own choices go to (its language); None: kept nowhere.
        self.settings_path = settings_path

    # --- actions (touch, keys and referee buttons all end here) ------------------------------

    def do(self, action: Action) -> None:
        if isinstance(action, GameAction):
            self._do_game(action)
            return
        self.app.dirty = True
        self.app.ui.message = None
        if isinstance(action, SetupAction):  # any choice closes the menu
            self.app.ui.menu = False
            self.app.setup.do(action)
            return
        if not self._menu_takes(action):
            self._do_own(action)

    def _menu_takes(self, action: AppAction) -> bool:
        """The menu button opens or closes the menu; any choice closes it, Esc only closes it."""
        ui = self.app.ui
        if isinstance(action, Menu):
            ui.menu = not ui.menu
            return True
        if ui.menu:
            ui.menu = False
            return isinstance(action, Cancel)
        return False

    def _do_own(self, action: AppAction) -> None:
        """The App's own actions, by type (a game's come before them, the setup form's too)."""
        match action:
            case Confirm() | Cancel() | Nav():
                self._move(action)
            case Undo():
                self._undo()
            case Mute() | Voice() | Lang():
                self._toggle(action)
            case WebRevoke() | WebPage():
                self._web(action)
            case Again() | NewGame():
                self._leave_game(action)
            case Dismiss() | Noop() | Menu():
                # What every action does (the message cleared, the menu closed) is all they do;
                # the menu button was taken before (``_menu_takes``).
                pass
            case _:
                assert_never(action)

    def _screen(self) -> str:
        return active_screen(self.app.view, self.app.ui)

    def _undo(self) -> None:
        if self.app.table is not None:
            self.app.submit(log.Undo())

    def _move(self, action: Confirm | Cancel | Nav) -> None:
        """Where the screens go: Enter and Escape mean what the screen shown says; Nav shows one."""
        match action:
            case Confirm():
                self.do(self._confirm_action(self._screen()))
            case Cancel():
                self.cancel(self._screen())
            case Nav(screen):
                if screen == "stats":
                    self.app.load_tally()
                ui = self.app.ui
                ui.screen = None if screen == "auto" or screen == auto_screen(self.app.view, ui) else screen
            case _:
                assert_never(action)

    def _toggle(self, action: Mute | Voice | Lang) -> None:
        """The menu's switches: the sounds, the voice, the language."""
        ui = self.app.ui
        match action:
            case Mute():
                ui.muted = not ui.muted
                self.app.sounds.muted = ui.muted
            case Voice():
                ui.voice = not ui.voice
                self.app.sounds.set_voice(ui.voice)
            case Lang():
                ui.lang = "en" if ui.lang == "fr" else "fr"
                self._keep_lang(ui.lang)
            case _:
                assert_never(action)

    def _web(self, action: WebRevoke | WebPage) -> None:
        """The phones' codes on the status screen (nothing when no web server runs)."""
        match action:
            case WebRevoke(who):
                if self.app.web is not None:  # a lost phone: a new code
                    self.app.web.revoke(who)
            case WebPage():
                self.app.ui.hardware.codes_page += 1  # the codes that did not fit
            case _:
                assert_never(action)

    def _leave_game(self, action: Again | NewGame) -> None:
        """Again (the same game anew), or a new one (the setup form)."""
        match action:
            case Again():
                game = self.app.game
                if game is not None:
                    self.app.start_game(game.setup, self.app.source_name)
            case NewGame():
                self.app.setup.fill()
                self.app.ui.screen = "setup"
            case _:
                assert_never(action)

    def _do_game(self, action: GameAction) -> None:
        """A game's own action: the message and the menu as for any action, then the game's."""
        self.app.dirty = True
        if not action.keeps_message:
            self.app.ui.message = None
        self.app.ui.menu = False
        if self.app.table is not None:
            self.app.screens.do(self.app, action)

    def _keep_lang(self, lang: str) -> None:
        """The table's language belongs to the table, not to one run: the choice made on the screen
        goes to ``[table] lang`` of its config, so the next start and every command speak it.
        A file that cannot take it leaves the language changed for now, and says why."""
        if self.settings_path is None:
            return
        from companion.hardware.config_edit import Key, set_in_file

        try:
            set_in_file(self.settings_path, Key("table", "lang"), lang)
        except CompanionError as err:
            self.app.ui.say(Text("scr.lang_not_kept", why=err.text))

    def _confirm_action(self, screen: str) -> Action:
        if self.app.view is not None:
            action = self.app.screens.confirm(self.app, screen)
            if action is not None:
                return action
        if screen == "gameover":
            return Again() if self.app.view is not None and self.app.view.finished else Noop()
        if screen == "setup":
            return Start()
        return Nav("auto")

    def cancel(self, screen: str) -> None:
        ui = self.app.ui
        if self.app.view is not None and self.app.screens.cancel(self.app, screen):
            return
        if ui.setup.editing is not None:
            self.app.setup.end_typing(force=True)
        elif ui.screen is not None and self.app.view is not None:
            ui.screen = None

    # --- pygame events -----------------------------------------------------------------------

    def handle_pygame(self, ev: pygame.event.Event) -> None:
        et = ev.type
        if et == pygame.QUIT:
            self.app.running = False
        elif et in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.WINDOWEXPOSED):
            self.app.frame.window_changed()  # a new surface, or pixels to show again
        elif et == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1 and not getattr(ev, "touch", False):
                self.click(ev.pos)
        elif et == pygame.FINGERDOWN:
            w, h = self.app.surface.get_size()
            self.click((int(ev.x * w), int(ev.y * h)))
        elif et == pygame.TEXTINPUT:
            self.app.setup.type(ev.text)
        elif et in (pygame.KEYDOWN, pygame.KEYUP) and not self._seat_key(ev) and et == pygame.KEYDOWN:
            self.key(ev.key, ev.mod)

    def _seat_key(self, ev: pygame.event.Event) -> bool:
        """A seat key while keys are buttons (or its release): the keyboard source's press."""
        if ev.key not in self.app.host.seat_keys or self.app.source is None:
            return False
        if ev.type != pygame.KEYUP and not self.app.keys_are_buttons():
            return False
        handle = self.app.host.key_handler()
        owner: Any = getattr(handle, "__self__", None)
        if owner is not None and hasattr(owner, "read_late_ns"):
            # A key read late says how late: a duration on the loop's clock (the source's own
            # clock may be another one, so no stamp crosses over).
            since = self.app.arrivals.since_ns
            owner.read_late_ns = None if since is None else int(self.app.now() * 1e9) - since
        return handle is not None and bool(handle(ev))

    def click(self, pos: tuple[int, int]) -> None:
        """A tap or click: the control under it acts; anywhere else does nothing."""
        if self.app.painter is None:
            return
        control = self.app.painter.hit(self.app.turned.point(pos, self.app.surface))
        if control is None:
            return
        if control.enabled:
            self.do(control.action)
        elif isinstance(control.action, GameAction):
            why = control.action.why()
            if why is not None:
                self.do(why)

    def key(self, key: int, mod: int = 0) -> None:
        ui = self.app.ui
        if mod & pygame.KMOD_CTRL and key in (pygame.K_q, pygame.K_z):
            if key == pygame.K_q:
                self.app.running = False
            else:
                self.do(Undo())
            return
        screen = active_screen(self.app.view, ui)
        editing = ui.setup.editing
        if editing is not None and screen == "setup":
            self.app.setup.key(key, editing)
            return
        if (
            self.app.view is not None
            and screen != "setup"
            and self.app.screens.key(self.app, key, mod, screen)
        ):
            return
        action = self._key_action(key, screen)
        if action is not None:
            self.do(action)

    def _key_action(self, key: int, screen: str) -> AppAction | None:
        """What a key does when neither the form nor the game's screen takes it."""
        action = KEY_ACTIONS.get(key)
        if action is not None:
            return action
        if key == pygame.K_TAB:
            cycle = ("auto", *(name for name, _ in self.app.screens.nav[1:]), "rules", "status")
            current = self.app.ui.screen or "auto"
            return Nav(cycle[(cycle.index(current) + 1) % len(cycle)] if current in cycle else "auto")
        if key == pygame.K_n and screen in ("gameover", "setup"):
            return NewGame()
        if screen == "setup":
            return None
        # A game's other keys for its screens first: the bar's own keys win over them.
        shown = (*self.app.screens.nav, ("stats", "C"), ("rules", "R"), ("status", "S"))
        nav = {
            getattr(pygame, f"K_{letter.lower()}"): name
            for name, letter in (*self.app.screens.nav_more, *shown)
        }
        return Nav(nav[key]) if key in nav else None
