"""The main loop's side of the seat buttons: which presses may count as slaps, and what the seat
LEDs show. Called only from the main loop, after the table has decided; never from a source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from companion.games.kilo.events import Press
from companion.games.kilo.rules import KiloGame
from companion.hardware.leds import BoardLeds, Leds
from companion.i18n import t
from companion.inputs.base import InputEvent, SourceStatus
from companion.inputs.debounce import StuckGuard

Key = tuple[str, int]  # (source name, seat)


class ButtonFeedback:
    """A button held down when a slap window opens does not count until released (the table is
    told, and told again on release); the LEDs follow the table's decisions."""

    def __init__(self, leds: Leds | None = None) -> None:
        self.leds = leds  # the Pi's own LEDs, injected; they outlive any one source
        self.board: BoardLeds | None = None  # the Pico board's LEDs, while its source runs
        self.guard = StuckGuard()
        self._reported: set[Key] = set()
        self._awaiting: str | None = None

    # --- sources -----------------------------------------------------------------------------

    def attach(self, source: Any, game: KiloGame | None) -> None:
        """A source has started: a new game, so nothing is held yet; its board's LEDs join in."""
        self.guard = StuckGuard()
        self._reported.clear()
        self.board = None
        for part in getattr(source, "sources", (source,)):
            if callable(getattr(part, "set_leds", None)):
                self.board = BoardLeds(part)
        self.show(game)

    def detach(self) -> None:
        """Before the source stops (the board's LEDs go dark while it can still hear us)."""
        if self.board is not None:
            self.board.off()
            self.board = None

    # --- edges and decisions -----------------------------------------------------------------

    def edge(self, ev: InputEvent, game: KiloGame | None) -> tuple[bool, SourceStatus | None]:
        """Feed one seat button edge: whether it is a press that may count, and what to show."""
        key = (ev.source, ev.seat)
        counts = self.guard.observe(key, ev.edge, ev.t_ns)
        if ev.edge == "release" and key in self._reported:
            self._reported.discard(key)
            return False, self._held_status("released", ev.source, ev.seat, game)
        return counts, None

    def decided(self, event: Any, game: KiloGame | None,
                stuck_shown: Mapping[int, object]) -> list[SourceStatus]:
        """The table accepted ``event``: update the LEDs; if a slap window has just opened, the
        buttons held down now are stuck (unless their source said so already)."""
        before = self._awaiting
        if isinstance(event, Press) and game is not None:
            if any(p.player == event.player for p in game.window().order):
                self._each(lambda leds: leds.press_seen(game.players.index(event.player)))
        else:
            self.show(game)
        awaiting = game.awaiting if game is not None else None
        opened = awaiting == "play" and before != "play"
        self._awaiting = awaiting
        out: list[SourceStatus] = []
        if opened:
            for key in self.guard.window_opened():
                source, seat = cast(Key, key)
                if seat in stuck_shown:
                    continue  # the source reported it and will report its release
                self._reported.add((source, seat))
                out.append(self._held_status("stuck", source, seat, game))
        return out

    def show(self, game: KiloGame | None) -> None:
        """Derive every LED from the game: owed draws blink, otherwise idle plus presses seen."""
        self._awaiting = game.awaiting if game is not None else None
        if game is None or game.finished:
            self._each(lambda leds: leds.off())
            return
        owed = [game.players.index(n) for n in game.owed_draws]
        last = game.last_slap
        if owed and last is not None and not last.valid:
            self._each(lambda leds: leds.false_slap(owed))
        elif owed:
            self._each(lambda leds: leds.loser(owed))
        else:
            pressed = [game.players.index(p.player) for p in game.window().order]

            def idle(leds: Leds) -> None:
                leds.idle()
                for seat in pressed:
                    leds.press_seen(seat)

            self._each(idle)

    def off(self) -> None:
        self._each(lambda leds: leds.off())

    # --- internals ---------------------------------------------------------------------------

    def _each(self, do: Any) -> None:
        for leds in (self.leds, self.board):
            if leds is not None:
                do(leds)

    @staticmethod
    def _held_status(kind: Literal["stuck", "released"], source: str, seat: int,
                     game: KiloGame | None) -> SourceStatus:
        name = game.players[seat] if game is not None and 0 <= seat < len(game.players) else "?"
        key = "scr.hw.held" if kind == "stuck" else "scr.hw.held_released"
        return SourceStatus(source, kind, seat,
                            en=t(key, "en", seat=seat + 1, name=name),
                            fr=t(key, "fr", seat=seat + 1, name=name))
