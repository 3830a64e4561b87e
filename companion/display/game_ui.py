"""The display's half of the game seam: what a game shows and how the table's inputs act on it.

The App owns the loop, the input sources, the journal, the messages and the generic screens
(setup, rules, status); a game's ``GameScreens`` (in ``games/<name>/screens.py``, returned by the
registry's ``Game.screens()``) owns its view, its own screens and its own actions. Every method has
a harmless default so that a game provides only what it uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pygame

    from companion.display.layout import Action, Painter
    from companion.display.state import SetupForm, Ui

    Rect = pygame.Rect


@dataclass(frozen=True)
class LedPlan:
    """What the seat LEDs show, derived from the game after each decision.

    ``idle`` lights ``lit`` over the idle pattern; ``loser`` and ``false_slap`` blink ``seats``.
    """

    kind: Literal["off", "idle", "loser", "false_slap"] = "off"
    seats: tuple[int, ...] = ()
    lit: tuple[int, ...] = ()


@dataclass(frozen=True)
class SetupItem:
    """One line of the setup form: a label, a help line, the action of its button (``+`` or
    "change") and, for numbers, the action of its ``-`` button."""

    label: str
    help: str
    action: tuple[Any, ...]
    minus: tuple[Any, ...] | None = None


@dataclass
class Prompt:
    """A question the screen asks on behalf of the game ("press to draw lots")."""

    fr: str
    en: str
    choices: list[str] = field(default_factory=list)


class GameScreens:
    game: str = ""
    title: str = ""
    screens: tuple[str, ...] = ()  # the game's own screens, by name
    nav: tuple[tuple[str, str], ...] = ()  # the navigation bar's game screens: (screen, key)
    anim_seconds: float = 0.0  # length of the game's overlay animation, if any

    # --- the picture ---------------------------------------------------------------------------

    def build_view(self, engine: Any) -> Any:
        raise NotImplementedError

    def auto_screen(self, view: Any, ui: Ui) -> str:
        """The screen the game calls for when the table has not asked for another one."""
        return self.screens[0]

    def headline(self, view: Any, lang: str) -> tuple[str, str]:
        """The top bar: where the game stands (left) and what the table must do (right)."""
        return self.title, ""

    def headline_for(self, view: Any, ui: Ui) -> tuple[str, str]:
        """The top bar, when what the table is half-way through entering changes it."""
        return self.headline(view, ui.lang)

    def draw(self, p: Painter, view: Any, ui: Ui, screen: str, area: Rect) -> None:
        raise NotImplementedError

    def redraw_in(self, view: Any, ui: Ui, now: float) -> float | None:
        """Seconds until the screen changes by the clock alone (a countdown), from ``now`` (the
        loop's monotonic clock); None when nothing on it moves with time (no timer runs)."""
        return None

    def overlay(self, p: Painter, view: Any, ui: Ui, phase: float) -> None:
        """Drawn over the frame while ``ui.anim_start`` runs (``anim_seconds`` long)."""

    def rule_lines(self, view: Any, ui: Ui) -> list[str]:
        return []

    def strip(self, p: Painter, view: Any, ui: Ui, area: Rect) -> None:
        """A compact score strip, shown under the hardware status."""

    # --- inputs --------------------------------------------------------------------------------

    def press(self, app: Any, seat: int, t_us: int, res_us: int | None = None) -> None:
        """A seat button was pressed (debounced, not held since before) at ``t_us`` on a clock of
        resolution ``res_us`` (None: 1 µs or finer): what it means here."""

    def keys_are_buttons(self, app: Any, screen: str) -> bool:
        """Whether the seat keys act as buttons now (not while the table types something)."""
        return True

    def do(self, app: Any, action: Action) -> bool:
        """Handle one of the game's own actions; False when the action is not the game's."""
        return False

    def key(self, app: Any, key: int, mod: int, screen: str) -> bool:
        """Handle a key on one of the game's screens; False to let the generic keys act."""
        return False

    def confirm(self, app: Any, screen: str) -> Action | None:
        """What Enter means on ``screen``; None for the default (back to the game's screen)."""
        return None

    def cancel(self, app: Any, screen: str) -> bool:
        """Escape on ``screen``: True when the game handled it."""
        return False

    def after(self, app: Any, event: Any, before: Any) -> None:
        """The table accepted ``event``; ``before`` is the view before it (sounds, animations)."""

    def press_mark(self, engine: Any, event: Any) -> Any:
        """Before the table takes ``event``: what ``after_marked`` needs of the engine to do
        ``after``'s work without the views, or None (the default) when ``after`` needs them.
        A game that marks its button presses lets a step of N presses build its view once."""
        return None

    def after_marked(self, app: Any, event: Any, mark: Any) -> None:
        """``after`` for an event ``press_mark`` marked, from the engine alone: the same effects
        (``app.view`` is not read, so it is not rebuilt for each press)."""

    def warm_views(self, engine: Any) -> list[tuple[Any, dict[str, Any]]]:
        """Views the table's first inputs will likely show, each with the ``Ui`` fields it is
        drawn with: the loop draws them off screen while idle after the first frame, so that
        the first slap does not pay for opening fonts and rendering names (App.warm). None
        by default."""
        return []

    def undone(self, engine: Any, lang: str) -> str | None:
        """In words, what the last undo cancelled."""
        return None

    def simulate(self, app: Any, sim: Any) -> None:
        """Drive the simulated players (``--input sim``) for the state the table is in."""

    def handle(self, app: Any, item: Any) -> bool:
        """An item the game's own simulation put on the input queue; False if not the game's."""
        return False

    # --- buttons and LEDs ----------------------------------------------------------------------

    def awaits_presses(self, engine: Any) -> bool:
        """Whether the game now waits for button presses (a button held when this starts is
        stuck and does not count until released)."""
        return False

    def resumed(self, app: Any) -> bool:
        """A game taken up again (``companion resume``, ``play --resume``) at its first step:
        what the stop did to what was under way, said and journaled. False: try again at the
        next step (a board's clock not tied to the table's yet)."""
        return True

    def window_open(self, engine: Any) -> bool:
        """Whether a decision made now judges presses already made (a slap window is open):
        keys and touches are then read often, since a decision's instant is the read that
        finds it (docs/decisions.md, "Event time")."""
        return False

    def close_for(
        self, engine: Any, event: Any, instant_on: Callable[[tuple[str | None, str | None]], int | None]
    ) -> Any:
        """The event that must be journaled just before ``event``, a decision made at a known
        instant, to say where it cut the presses (Kilo: ``close`` before ``verdict``);
        ``instant_on`` gives that instant in µs on a clock (name, epoch), or None. None:
        nothing."""
        return None

    def press_counted(self, engine: Any, event: Any) -> int | None:
        """The seat whose press ``event`` just counted, for its LED; None if it did not."""
        return None

    def leds(self, engine: Any) -> LedPlan:
        return LedPlan("idle") if not engine.finished else LedPlan("off")

    # --- setup ---------------------------------------------------------------------------------

    def fill_form(self, form: SetupForm, engine: Any) -> None:
        """Put a running game's settings in the form (for "new game" with the same table)."""

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        return []

    def setup_action(self, form: SetupForm, action: Action) -> bool:
        return False

    def new_game(self, form: SetupForm, names: list[str]) -> Any:
        """The ``new_game`` event for the form; raises CompanionError if it cannot be."""
        raise NotImplementedError


_SCREENS: dict[str, GameScreens] = {}


def screens_for(game: str) -> GameScreens:
    """The game's screens, from the registry, made once per process."""
    if game not in _SCREENS:
        from companion.table.registry import load

        _SCREENS[game] = load(game).screens()
    return _SCREENS[game]


def screens_of(ui: Ui) -> GameScreens:
    return screens_for(ui.game)
