"""A GPIO button as the table knows it (whose it is, its BCM pin), what the source says about
it (held down, released, edges lost or late, its counts for the wiring monitor), and the error
naming it when its pin cannot be had.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import ConfigError
from companion.inputs.base import Role, SourceStatus
from companion.text import Text


@dataclass(frozen=True, slots=True)
class ButtonPin:
    """One button: who it belongs to and the BCM GPIO number its free leg is wired to."""

    role: Role
    seat: int
    pin: int

    def label(self) -> tuple[str, str]:
        if self.role == "seat":
            return f"seat {self.seat + 1}", f"place {self.seat + 1}"
        fr = {"confirm": "valider", "cancel": "annuler", "undo": "revenir"}[self.role]
        return f"referee button {self.role}", f"bouton d'arbitre {fr}"


class ButtonPinError(ConfigError):
    """A button's pin that cannot be requested (taken, or not on this chip): names the button."""

    def __init__(self, button: ButtonPin, exc: BaseException) -> None:
        en, fr = button.label()
        super().__init__("gpio.button_refused", pin=button.pin, button=Text.pair(en=en, fr=fr), exc=exc)
        self.button = button
        self.cause = exc


@dataclass(frozen=True, slots=True)
class ButtonStats:
    """What the wiring monitor shows for one button."""

    button: ButtonPin
    pressed: bool
    stuck: bool
    presses: int
    bounces: int
    glitches: int


def stuck_status(b: ButtonPin) -> SourceStatus:
    en, fr = b.label()
    return SourceStatus(
        "gpio",
        "stuck",
        b.seat,
        f"The button of {en} is held down (stuck or wired wrong); it counts again once released.",
        f"Le bouton de {fr} reste enfoncé (coincé ou mal câblé) ; il recompte une fois relâché.",
    )


def released_status(b: ButtonPin) -> SourceStatus:
    en, fr = b.label()
    return SourceStatus(
        "gpio",
        "released",
        b.seat,
        f"The button of {en} is released and counts again.",
        f"Le bouton de {fr} est relâché et compte de nouveau.",
    )


def gap_status(b: ButtonPin, lost: int) -> SourceStatus:
    # The kernel drops the oldest edges when its buffer is full: the press after the gap may
    # be stamped later than its first edge. Say so rather than let it pass as exact.
    en, fr = b.label()
    return SourceStatus(
        "gpio",
        "error",
        b.seat,
        f"The kernel dropped {lost} edges of {en} (the Pi was too busy to read them): "
        "a press at that moment may be stamped late.",
        f"Le noyau a perdu {lost} fronts de {fr} (le Pi était trop occupé pour les lire) : "
        "un appui à ce moment peut être daté en retard.",
    )


def late_status(b: ButtonPin) -> SourceStatus:
    # Only an edge landing inside a press already decided past it: the press keeps its
    # first edge's stamp, but the table should know the Pi was too busy to be sure.
    en, fr = b.label()
    return SourceStatus(
        "gpio",
        "info",
        b.seat,
        f"Edges of {en} reached the program late (the Pi is busy); its press keeps the "
        "stamp of its first edge.",
        f"Des fronts de {fr} sont arrivés en retard (le Pi est surchargé) ; l'appui garde "
        "l'heure de son premier front.",
    )
