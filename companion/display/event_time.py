"""A table decision waits for the sources' watermarks (docs/decisions.md, "Event time").

A key, a tap, a referee's button or a scorer phone's write is made at an instant of the table
clock (CLOCK_MONOTONIC of this boot). Before the main loop applies it, every live source must
have promised that no press stamped before that instant is still on its way (``Promise``); a
source that cannot promise within its stated lateness (plus ``MARGIN_NS``) is left out, and the
table is told which seats did not count. ``Gate`` is that wait for one decision: the loop looks
at it once a step, never blocks on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.i18n import french_typography, t
from companion.inputs.base import Promise, Promising
from companion.text import Text

if TYPE_CHECKING:
    import pygame

# On top of a source's own lateness: the loop's poll, a busy machine's scheduling.
MARGIN_NS = 10_000_000


class Gate:
    """One decision at ``at_ns`` (table clock) waiting for ``sources``' watermarks."""

    __slots__ = ("at_ns", "deadlines", "left_out", "waiting")

    def __init__(self, at_ns: int, sources: Sequence[Promising]) -> None:
        self.at_ns = at_ns
        self.waiting = list(sources)
        self.deadlines = {id(s): at_ns + max(0, s.lateness_ns) + MARGIN_NS for s in self.waiting}
        self.left_out: list[Promise] = []
        for s in self.waiting:
            s.ask(at_ns)  # once: read the kernel until empty, ask the board, ping the phones

    @property
    def done(self) -> bool:
        return not self.waiting

    def look(self, now_ns: int) -> bool:
        """Read each awaited source's promise (before the loop drains the queue: a promise
        covers what its source had queued when it gave it); True once none is awaited."""
        still: list[Promising] = []
        for s in self.waiting:
            p = s.promise()
            if not p.live:
                self.left_out.append(p)  # gone: no decision waits for it
            elif p.watermark_ns is not None and p.watermark_ns >= self.at_ns:
                if p.without:  # passed, but without some seats (a phone gone quiet): named
                    self.left_out.append(Promise(p.source, p.watermark_ns, True, p.without))
                continue
            elif now_ns >= self.deadlines[id(s)]:
                self.left_out.append(p)  # could not promise in time: the decision goes on
            else:
                still.append(s)
        self.waiting = still
        return not still


# How each source is named to the table, and whether the French verb is plural.
_WHO: dict[str, tuple[str, str, bool]] = {
    "gpio": ("les boutons du Pi", "the Pi's buttons", True),
    "serial": ("la carte des boutons", "the button board", False),
    "web": ("les téléphones", "the phones", True),
    "sim": ("les joueurs simulés", "the simulated players", True),
    "keyboard": ("le clavier", "the keyboard", False),
}


def _seats(seats: Sequence[int], lang: str) -> str:
    numbers = [str(s + 1) for s in sorted(set(seats))]
    joined = (
        numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + t("scr.late.and", lang) + numbers[-1]
    )
    return t("scr.late.seats", lang, n=len(numbers), seats=joined)


def left_out_message(left_out: Sequence[Promise]) -> Text:
    """ "La carte des boutons ne répond pas : sièges 3 et 4 non comptés"."""
    out: list[str] = []
    for lang in ("fr", "en"):
        parts: list[str] = []
        for p in left_out:
            fr, en, plural = _WHO.get(p.source, (f"les boutons {p.source}", f"the {p.source} buttons", True))
            who = fr if lang == "fr" else en
            key = "scr.late.gone" if not p.live else "scr.late.silent"
            verb = t(key + (".pl" if plural else ""), lang)
            text = f"{who} {verb}"
            if p.seats:
                text += t("scr.late.colon", lang) + _seats(p.seats, lang)
            parts.append(text)
        sentence = " ; ".join(parts) if lang == "fr" else "; ".join(parts)
        sentence = sentence[:1].upper() + sentence[1:]
        out.append(french_typography(sentence) if lang == "fr" else sentence)
    return Text.pair(en=out[1], fr=out[0])


# --- what the loop holds back until its instant is safe -----------------------------------------


def whole_us(t_ns: int) -> int:
    """A decision's instant, down to the whole µs the table log can write (``App.instant_on``)."""
    return t_ns // 1000 * 1000


class Deferred:
    """A pygame event held in ``App._early`` behind the queue items that came before it;
    ``at_ns``: when the loop read it, on the table clock (a decision's instant)."""

    __slots__ = ("at_ns", "ev")

    def __init__(self, ev: pygame.event.Event, at_ns: int) -> None:
        self.ev = ev
        self.at_ns = at_ns


class Held:
    """A queue item that is a table decision (a referee's button, a scorer phone's write),
    held in ``App._early`` with its instant on the table clock."""

    __slots__ = ("at_ns", "item")

    def __init__(self, item: Any, at_ns: int) -> None:
        self.item = item
        self.at_ns = at_ns
