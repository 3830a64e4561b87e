"""The main loop's side of the seat buttons: which presses may count as slaps, and what the seat
LEDs show. Called only from the main loop, after the table has decided; never from a source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from companion.display.game_ui import GameLeds, LedPlan
from companion.i18n import t
from companion.inputs.base import InputEvent, SourceStatus
from companion.inputs.debounce import StuckGuard

if TYPE_CHECKING:  # the LEDs' module is read when a source or the Pi has LEDs (not before the first frame)
    from companion.hardware.leds import BoardLeds, Leds

Key = tuple[str, int]  # (source name, seat)


class ButtonFeedback:
    """A button held down when a slap window opens does not count until released (the table is
    told, and told again on release); the LEDs follow the table's decisions, as the game's screens
    read them (``GameScreens.leds``)."""

    def __init__(self, leds: Leds | None = None) -> None:
        self.leds = leds  # the Pi's own LEDs, injected; they outlive any one source
        self.board: BoardLeds | None = None  # the Pico board's LEDs, while its source runs
        self.guard = StuckGuard()
        self._reported: set[Key] = set()
        self._awaiting = False
        # LED changes for decisions not yet journaled, lit only once the table has committed.
        self._held: list[Any] | None = None

    # --- sources -----------------------------------------------------------------------------

    def attach(self, source: Any, game: Any, screens: GameLeds[Any]) -> None:
        """A source has started: a new game, so nothing is held yet; its board's LEDs join in."""
        self.guard = StuckGuard()
        self._reported.clear()
        self.board = None
        for part in getattr(source, "sources", (source,)):
            if callable(getattr(part, "set_leds", None)):
                from companion.hardware.leds import BoardLeds

                self.board = BoardLeds(part)
        self.show(game, screens)

    def detach(self) -> None:
        """Before the source stops (the board's LEDs go dark while it can still hear us)."""
        if self.board is not None:
            self.board.off()
            self.board = None

    # --- edges and decisions -----------------------------------------------------------------

    def edge(self, ev: InputEvent, game: Any) -> tuple[bool, SourceStatus | None]:
        """Feed one seat button edge: whether it is a press that may count, and what to show."""
        key = (ev.source, ev.seat)
        counts = self.guard.observe(key, ev.edge, ev.t_ns)
        if ev.edge == "release" and key in self._reported:
            self._reported.discard(key)
            return False, self._held_status("released", ev.source, ev.seat, game)
        return counts, None

    def decided(
        self, event: Any, game: Any, screens: GameLeds[Any], stuck_shown: Mapping[int, object]
    ) -> list[SourceStatus]:
        """The table accepted ``event``: update the LEDs; if the game has just started waiting
        for presses, the buttons held down now are stuck (unless their source said so already)."""
        before = self._awaiting
        seat = screens.press_counted(game, event) if game is not None else None
        if seat is not None:
            self._each(lambda leds: leds.press_seen(seat))
        else:
            self.show(game, screens)
        awaiting = game is not None and screens.awaits_presses(game)
        opened = awaiting and not before
        self._awaiting = awaiting
        out: list[SourceStatus] = []
        if opened:
            for key in self.guard.window_opened():
                source, held = cast(Key, key)
                if held in stuck_shown:
                    continue  # the source reported it and will report its release
                self._reported.add((source, held))
                out.append(self._held_status("stuck", source, held, game))
        return out

    def show(self, game: Any, screens: GameLeds[Any]) -> None:
        """Derive every LED from the game."""
        self._awaiting = game is not None and screens.awaits_presses(game)
        plan = screens.leds(game) if game is not None else LedPlan("off")
        if plan.kind == "off":
            self._each(lambda leds: leds.off())
        elif plan.kind == "false_slap":
            self._each(lambda leds: leds.false_slap(plan.seats))
        elif plan.kind == "loser":
            self._each(lambda leds: leds.loser(plan.seats))
        else:

            def idle(leds: Leds) -> None:
                leds.idle()
                for seat in plan.lit:
                    leds.press_seen(seat)

            self._each(idle)

    def off(self) -> None:
        self._each(lambda leds: leds.off())

    def hold(self) -> None:
        """Keep the LED changes asked for from now on until ``release``."""
        if self._held is None:
            self._held = []

    def release(self, show: bool = True) -> None:
        """Make the kept changes, in order (or drop them: their decisions were not recorded)."""
        held, self._held = self._held or [], None
        for do in held if show else ():
            self._each(do)

    # --- internals ---------------------------------------------------------------------------

    def _each(self, do: Any) -> None:
        if self._held is not None:
            self._held.append(do)
            return
        for leds in (self.leds, self.board):
            if leds is not None:
                do(leds)

    @staticmethod
    def _held_status(kind: Literal["stuck", "released"], source: str, seat: int, game: Any) -> SourceStatus:
        name = game.players[seat] if game is not None and 0 <= seat < len(game.players) else "?"
        key = "scr.hw.held" if kind == "stuck" else "scr.hw.held_released"
        return SourceStatus(
            source,
            kind,
            seat,
            en=t(key, "en", seat=seat + 1, name=name),
            fr=t(key, "fr", seat=seat + 1, name=name),
        )
