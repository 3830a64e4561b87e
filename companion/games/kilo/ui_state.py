"""What Kilo de merde's screens remember between frames that is not the game: the card half
entered and who is picked for a false slap. It lives in the generic ``Ui``'s ``game_state``,
made the first time Kilo's screens ask for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.display.state import Ui


@dataclass
class KiloUi:
    rank: str | None = None  # the card drawn, being entered: its rank, then its suit
    suit: str | None = None
    picking: bool = False  # choosing who slapped in error
    # The instant (table clock, ns) the referee called the false slap: the window closed there,
    # not when the players are picked (docs/decisions.md, "Event time").
    picking_at: int | None = None
    penalized: list[str] = field(default_factory=list)


def kilo_ui(ui: Ui) -> KiloUi:
    """Kilo de merde's state in ``ui``, made on first use (or after another game's)."""
    state = ui.game_state
    if not isinstance(state, KiloUi):
        state = ui.game_state = KiloUi()
    return state
