"""What the screen remembers that is not the game: the screen shown, what is half entered, the
messages, the hardware status, the setup form. Owned by the main loop only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.display.motion import Motion
from companion.table.registry import DEFAULT_GAME, NAMES
from companion.text import Text

INPUTS: tuple[str, ...] = ("keyboard", "sim", "gpio", "serial")
# The setup's pages: ten players' rows and eight settings do not hold 9 mm targets
# on one 7" page, so the players and the settings take turns above one footer.
SETUP_PAGES: tuple[str, ...] = ("players", "settings")


@dataclass
class SetupForm:
    game: str = DEFAULT_GAME
    players: list[str] = field(default_factory=lambda: list(NAMES[:4]))
    input: str = "keyboard"
    editing: int | None = None  # index of the name being typed
    editing_short: bool = False  # what is typed there is the player's short form, not the name
    # The short forms chosen here, by full name: those that differ from the proposed
    # ones (display/names.py), kept from the last game with the same players; a renamed player
    # is proposed one again.
    shorts: dict[str, str] = field(default_factory=dict)
    page: str = "players"  # one of SETUP_PAGES
    # Kilo de merde's settings (they were here first); other games keep theirs in ``options``.
    rounds: int = 5
    rules: dict[str, str] = field(
        default_factory=lambda: {
            "seven": "flush",
            "quads": "rank",
            "passing": "one_by_one",
            "tie": "all_draw",
        }
    )
    timeout_ms: int = 5000
    options: dict[str, Any] = field(default_factory=dict)

    def short_of(self, name: str) -> str:
        """The short form shown beside ``name``: chosen here, else the evening's for this
        table (chosen for the last game with the same players, else proposed)."""
        chosen = self.shorts.get(name)
        if chosen is not None:
            return chosen
        from companion.display.names import short_forms

        return short_forms(tuple(self.players)).get(name, name)

    def short_forms(self) -> dict[str, str]:
        """Every player's short form as the form stands (``short_of``), the table's forms worked
        out once for all of them."""
        from companion.display.names import short_forms

        table = short_forms(tuple(self.players))
        return {name: self.shorts.get(name, table.get(name, name)) for name in self.players}


@dataclass
class HardwareState:
    source: str = ""
    connected: bool = True
    failed: bool = False  # the source never started (config, library, permission): not unplugged
    stuck: dict[int, Text] = field(default_factory=dict)  # seat -> the button's label, as said
    notes: list[Text] = field(default_factory=list)  # newest last
    web: Any = None  # the phones' server (--web): its codes are shown here, a tap revokes one
    codes_page: int = 0  # which of its codes, when they do not all fit at a scannable size

    @property
    def trouble(self) -> bool:
        return not self.connected or bool(self.stuck)


@dataclass
class Ui:
    lang: str = "fr"
    game: str = DEFAULT_GAME  # whose screens are shown: the running game's, else the setup form's
    screen: str | None = None  # a screen the table asked for; None follows the game
    menu: bool = False  # the menu is open, in place of the screen
    # The running game's own screen state, which only its screens read and write (Kilo de
    # merde's card half entered and its false-slap pick: games/kilo/ui_state.py).
    game_state: Any = None
    message: Text | None = None
    message_error: bool = True
    hardware: HardwareState = field(default_factory=HardwareState)
    muted: bool = False
    voice: bool = True  # the verdicts said aloud ([sound] voice; the menu turns it off and on)
    anim_start: float | None = None  # flush animation start (seconds, monotonic)
    show_result: bool = False  # a slap was just judged: show it before the card entry
    setup: SetupForm = field(default_factory=SetupForm)
    no_game_reason: tuple[str, str] | None = None
    entry: Any = None  # the game's own half-entered input (a hand of cards, a play...)
    tally: Any = None  # the players' numbers from the journal (display.tally.Tally), if read
    # A countdown on screen: when the open slap window's first press arrived, and the loop's
    # clock at this frame (monotonic seconds; both None in a snapshot, which has no clock).
    window_open_at: float | None = None
    now: float | None = None
    motion: Motion = field(default_factory=Motion)  # what moves between frames (display.motion)

    def say(self, text: Text, *, error: bool = True) -> None:
        """Show ``text`` on the table's screen (an error unless ``error`` is False), in its
        language whenever it is drawn: the one text type of errors and sources' statuses."""
        self.message = text
        self.message_error = error

    def text(self, pair: tuple[str, str] | Text) -> str:
        if isinstance(pair, Text):
            return pair.render(self.lang)
        return pair[0] if self.lang == "fr" else pair[1]


def auto_screen(view: Any, ui: Ui) -> str:
    """The screen the game calls for when the table has not asked for another one."""
    if view is None:
        return "setup"
    from companion.display.game_ui import screens_of

    return screens_of(ui).auto_screen(view, ui)


def active_screen(view: Any, ui: Ui) -> str:
    return ui.screen or auto_screen(view, ui)
