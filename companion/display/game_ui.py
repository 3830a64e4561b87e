"""The display's half of the game seam: what a game shows and how the table's inputs act on it.

The App owns the loop, the input sources, the journal, the messages and the generic screens
(setup, rules, status); a game's ``GameScreens`` (in ``games/<name>/screens.py``, returned by the
registry's ``Game.screens()``) owns its view, its own screens and its own actions. Every method has
a harmless default so that a game provides only what it uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    import pygame

    from companion.display.layout import Action, GameAction, Painter, SetupAction
    from companion.display.state import SetupForm, Ui
    from companion.table.seam import GameEngine

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
    action: SetupAction
    minus: SetupAction | None = None


@dataclass
class Prompt:
    """A question the screen asks on behalf of the game ("press to draw lots")."""

    fr: str
    en: str
    choices: list[str] = field(default_factory=list)


class TableHandle(Protocol):
    """What a game's screens may use of the loop that runs them (the App): the screen's state,
    the table and its views, the journal's ``submit``, the sounds and the clocks. A game reaches
    nothing else of the App."""

    ui: Ui
    table: Any  # table.live.Table | None: the running game's table (``table.engine``, ``seq``)
    journal: Any
    seed: int
    speed: float
    dirty: bool  # set when the screen must be drawn again
    decision_ns: int | None  # the instant a decision made now is judged at (table clock, ns)
    sim_busy: bool
    now: Callable[[], float]  # the loop's monotonic clock, seconds
    table_ns: Callable[[], int]  # the table's clock, ns

    @property
    def last_screen(self) -> str: ...

    @property
    def sounds(self) -> Any: ...

    @property
    def inbox(self) -> Any: ...

    @property
    def buttons(self) -> Any: ...

    @property
    def game(self) -> Any: ...

    @property
    def view(self) -> Any: ...

    def submit(self, event: Any) -> bool: ...

    def do(self, action: Action) -> None: ...

    def sim_done(self) -> None: ...

    def maybe_simulate(self) -> None: ...

    def instant_on(self, key: tuple[str | None, str | None], at: int | None = None) -> int | None: ...

    def source_parts(self) -> tuple[Any, ...]: ...

    def handle_item(self, item: Any) -> None: ...


V = TypeVar("V")  # a game's view (read-only, built from its engine after each event)
V_contra = TypeVar("V_contra", contravariant=True)
# A game's engine: the fold the table feeds (``table.seam.GameEngine``).
E_contra = TypeVar("E_contra", bound="GameEngine", contravariant=True)
E = TypeVar("E", bound="GameEngine")


class GameDrawing(Protocol[V, E_contra]):
    """What the game shows: its view, its screens, the top bar, the overlays, the rules' lines."""

    game: str
    title: str
    screens: tuple[str, ...]  # the game's own screens, by name
    nav: tuple[tuple[str, str], ...]  # the navigation bar's game screens: (screen, key)
    nav_more: tuple[tuple[str, str], ...]  # other keys to the game's screens, not on the bar
    anim_seconds: float  # length of the game's overlay animation, if any

    def build_view(self, engine: E_contra) -> V:
        raise NotImplementedError

    def auto_screen(self, view: V, ui: Ui) -> str:
        """The screen the game calls for when the table has not asked for another one."""
        return self.screens[0]

    def headline(self, view: V, lang: str) -> tuple[str, str]:
        """The top bar: where the game stands (left) and what the table must do (right)."""
        return self.title, ""

    def headline_for(self, view: V, ui: Ui) -> tuple[str, str]:
        """The top bar, when what the table is half-way through entering changes it."""
        return self.headline(view, ui.lang)

    def draw(self, p: Painter, view: V, ui: Ui, screen: str, area: Rect) -> None:
        raise NotImplementedError

    def redraw_in(self, view: V, ui: Ui, now: float) -> float | None:
        """Seconds until the screen changes by the clock alone (a countdown), from ``now`` (the
        loop's monotonic clock); None when nothing on it moves with time (no timer runs)."""
        return None

    def overlay(self, p: Painter, view: V, ui: Ui, phase: float) -> None:
        """Drawn over the frame while ``ui.anim_start`` runs (``anim_seconds`` long)."""
        return None

    def rule_lines(self, view: V, ui: Ui) -> list[str]:
        return []

    def strip(self, p: Painter, view: V, ui: Ui, area: Rect) -> None:
        """A compact score strip, shown under the hardware status."""
        return None

    def warm_views(self, engine: E_contra) -> list[tuple[V, dict[str, Any]]]:
        """Views the table's first inputs will likely show, each with the ``Ui`` fields it is
        drawn with: the loop draws them off screen while idle after the first frame, so that
        the first slap does not pay for opening fonts and rendering names (App.warm). None
        by default."""
        return []

    def undone(self, engine: E_contra, lang: str) -> str | None:
        """In words, what the last undo cancelled."""
        return None


class GameInput(Protocol[V_contra, E_contra]):
    """What the table's inputs mean in the game: seat buttons, keys, touches (the game's
    actions), Enter and Escape, the simulated players, and what follows an accepted event."""

    def press(self, app: TableHandle, seat: int, t_us: int, res_us: int | None = None) -> None:
        """A seat button was pressed (debounced, not held since before) at ``t_us`` on a clock of
        resolution ``res_us`` (None: 1 µs or finer): what it means here."""
        return None

    def keys_are_buttons(self, app: TableHandle, screen: str) -> bool:
        """Whether the seat keys act as buttons now (not while the table types something)."""
        return True

    def do(self, app: TableHandle, action: GameAction) -> bool:
        """Handle one of the game's own actions (the App routes every ``GameAction`` here);
        False when the game has no handler for it."""
        return False

    def key(self, app: TableHandle, key: int, mod: int, screen: str) -> bool:
        """Handle a key on one of the game's screens; False to let the generic keys act."""
        return False

    def confirm(self, app: TableHandle, screen: str) -> Action | None:
        """What Enter means on ``screen``; None for the default (back to the game's screen)."""
        return None

    def cancel(self, app: TableHandle, screen: str) -> bool:
        """Escape on ``screen``: True when the game handled it."""
        return False

    def after(self, app: TableHandle, event: Any, before: V_contra | None) -> None:
        """The table accepted ``event``; ``before`` is the view before it (sounds, animations)."""
        return None

    def press_mark(self, engine: E_contra, event: Any) -> Any:
        """Before the table takes ``event``: what ``after_marked`` needs of the engine to do
        ``after``'s work without the views, or None (the default) when ``after`` needs them.
        A game that marks its button presses lets a step of N presses build its view once."""
        return None

    def after_marked(self, app: TableHandle, event: Any, mark: Any) -> None:
        """``after`` for an event ``press_mark`` marked, from the engine alone: the same effects
        (``app.view`` is not read, so it is not rebuilt for each press)."""
        return None

    def simulate(self, app: TableHandle, sim: Any) -> None:
        """Drive the simulated players (``--input sim``) for the state the table is in."""
        return None

    def handle(self, app: TableHandle, item: Any) -> bool:
        """An item the game's own simulation put on the input queue; False if not the game's."""
        return False

    def resumed(self, app: TableHandle) -> bool:
        """A game taken up again (``companion resume``, ``play --resume``) at its first step:
        what the stop did to what was under way, said and journaled. False: try again at the
        next step (a board's clock not tied to the table's yet)."""
        return True

    def window_open(self, engine: E_contra) -> bool:
        """Whether a decision made now judges presses already made (a slap window is open):
        keys and touches are then read often, since a decision's instant is the read that
        finds it (docs/decisions.md, "Event time")."""
        return False

    def close_for(
        self, engine: E_contra, event: Any, instant_on: Callable[[tuple[str | None, str | None]], int | None]
    ) -> Any:
        """The event that must be journaled just before ``event``, a decision made at a known
        instant, to say where it cut the presses (Kilo: ``close`` before ``verdict``);
        ``instant_on`` gives that instant in µs on a clock (name, epoch), or None. None:
        nothing."""
        return None


class GameLeds(Protocol[E_contra]):
    """What the seat buttons' LEDs show and when the buttons count."""

    def awaits_presses(self, engine: E_contra) -> bool:
        """Whether the game now waits for button presses (a button held when this starts is
        stuck and does not count until released)."""
        return False

    def press_counted(self, engine: E_contra, event: Any) -> int | None:
        """The seat whose press ``event`` just counted, for its LED; None if it did not."""
        return None

    def leds(self, engine: E_contra) -> LedPlan:
        return LedPlan("idle") if not engine.finished else LedPlan("off")


class GameSetup(Protocol[E_contra]):
    """The game's own lines of the setup form, and the ``new_game`` it makes."""

    def fill_form(self, form: SetupForm, engine: E_contra) -> None:
        """Put a running game's settings in the form (for "new game" with the same table)."""
        return None

    def setup_items(self, form: SetupForm, lang: str) -> list[SetupItem]:
        return []

    def setup_action(self, form: SetupForm, action: SetupAction) -> bool:
        """Handle one of the game's own settings' actions; False when the action is not one."""
        return False

    def new_game(self, form: SetupForm, names: list[str]) -> Any:
        """The ``new_game`` event for the form; raises CompanionError if it cannot be."""
        raise NotImplementedError


class GameScreens(GameDrawing[V, E], GameInput[V, E], GameLeds[E], GameSetup[E]):
    """A game's side of the display seam (``games/<g>/screens.py``): the four protocols, each
    member with a harmless default, so that a game provides only what it uses."""

    game: str = ""
    title: str = ""
    screens: tuple[str, ...] = ()
    nav: tuple[tuple[str, str], ...] = ()
    nav_more: tuple[tuple[str, str], ...] = ()
    anim_seconds: float = 0.0


_SCREENS: dict[str, GameScreens[Any, Any]] = {}


def screens_for(game: str) -> GameScreens[Any, Any]:
    """The game's screens, from the registry, made once per process."""
    if game not in _SCREENS:
        from companion.table.registry import load

        _SCREENS[game] = load(game).screens()
    return _SCREENS[game]


def screens_of(ui: Ui) -> GameScreens[Any, Any]:
    return screens_for(ui.game)
