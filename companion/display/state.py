"""What the screen remembers that is not the game: the screen shown, a half-entered card, the
false-slap picker, messages, hardware status, the setup form. Owned by the main loop only."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.kilo.demo import NAMES
from companion.games.kilo.view import View

SCREENS: tuple[str, ...] = ("setup", "table", "slap", "verdict", "card", "pile", "history",
                            "gameover", "rules", "status")
INPUTS: tuple[str, ...] = ("keyboard", "sim", "gpio", "serial")
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "seven": ("flush", "first_card_counts"),
    "quads": ("rank", "rank_or_suit"),
    "passing": ("one_by_one", "simultaneous"),
    "tie": ("all_draw", "reslap"),
}
TIMEOUTS_MS: tuple[int, ...] = (1000, 2000, 3000, 5000, 8000, 10000, 15000, 30000, 60000)


@dataclass
class SetupForm:
    players: list[str] = field(default_factory=lambda: list(NAMES[:4]))
    rounds: int = 5
    rules: dict[str, str] = field(default_factory=lambda: {k: v[0] for k, v in
                                                           RULE_CHOICES.items()})
    timeout_ms: int = 5000
    input: str = "keyboard"
    editing: int | None = None  # index of the name being typed


@dataclass
class HardwareState:
    source: str = ""
    connected: bool = True
    failed: bool = False  # the source never started (config, library, permission): not unplugged
    stuck: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (fr, en) label
    notes: list[tuple[str, str]] = field(default_factory=list)  # (fr, en), newest last

    @property
    def trouble(self) -> bool:
        return not self.connected or bool(self.stuck)


@dataclass
class Ui:
    lang: str = "fr"
    screen: str | None = None  # a screen the table asked for; None follows the game
    rank: str | None = None
    suit: str | None = None
    picking: bool = False  # choosing who slapped in error
    penalized: list[str] = field(default_factory=list)
    message: tuple[str, str] | None = None  # (fr, en)
    message_error: bool = True
    hardware: HardwareState = field(default_factory=HardwareState)
    muted: bool = False
    anim_start: float | None = None  # flush animation start (seconds, monotonic)
    show_result: bool = False  # a slap was just judged: show it before the card entry
    setup: SetupForm = field(default_factory=SetupForm)
    no_game_reason: tuple[str, str] | None = None

    def say(self, fr: str, en: str, error: bool = True) -> None:
        self.message = (fr, en)
        self.message_error = error

    def text(self, pair: tuple[str, str]) -> str:
        return pair[0] if self.lang == "fr" else pair[1]


def auto_screen(view: View | None, ui: Ui) -> str:
    """The screen the game calls for when the table has not asked for another one."""
    if view is None:
        return "setup"
    if view.finished:
        return "gameover"
    if view.awaiting == "verdict":
        return "verdict"
    if view.awaiting == "draw":
        return "slap" if ui.show_result else "card"
    return "table"


def active_screen(view: View | None, ui: Ui) -> str:
    return ui.screen or auto_screen(view, ui)
