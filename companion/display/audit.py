"""The legibility rules of docs/screen.md, checked on a drawn frame (a Painter in audit mode).

Each rule reads the texts the painter recorded (what was drawn, where, how big, in which colour,
over which colour) and returns the problems in words, so a failing test says what a player at the
far end of the table would not be able to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.display.theme import contrast
from companion.display.viewing import NAME_MM, READ_MM, SCORE_MM, viewing

if TYPE_CHECKING:
    import pygame

    from companion.display.layout import Painter, TextRecord

MIN_CONTRAST = 4.5  # WCAG AA for text, whatever its size: the room is dim and noisy


def problems(p: Painter, players: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Every broken rule on this frame, one sentence each; ``players`` are the table's (to
    find names drawn as plain text)."""
    return [
        *contained(p),
        *overlaps(p),
        *contrasts(p),
        *names(p),
        *name_vs_tile(p),
        *plain_names(p, tuple(players)),
    ]


def contained(p: Painter) -> list[str]:
    out = []
    for rec in p.texts:
        if not rec.box.contains(rec.rect):
            out.append(f"{rec.text!r} leaves its box: {rec.rect} in {rec.box}")
        if not p.screen.contains(rec.rect):
            out.append(f"{rec.text!r} leaves the screen: {rec.rect}")
        if rec.cut:
            out.append(f"{rec.text!r} is cut: wrap it, shorten it or give it room")
    return out


def _ink(rec: TextRecord) -> pygame.Rect:
    """The band where the letters are: the font's box has room above the capitals and below
    the descenders that two stacked lines may share."""
    band = rec.rect.inflate(0, -rec.rect.height // 3)
    return band


def overlaps(p: Painter) -> list[str]:
    out = []
    texts = p.texts
    for i, a in enumerate(texts):
        ia = _ink(a)
        for b in texts[i + 1 :]:
            if a.rect == b.rect and a.text == b.text:
                continue  # drawn twice in the same place (a shadow): one text
            if ia.colliderect(_ink(b)):
                out.append(f"{a.text!r} {a.rect} and {b.text!r} {b.rect} overlap")
    return out


def contrasts(p: Painter) -> list[str]:
    out = []
    for rec in p.texts:
        if rec.bg is None:
            continue
        ratio = contrast(rec.color, rec.bg)
        if ratio < MIN_CONTRAST - 0.005:
            out.append(f"{rec.text!r} in {rec.color} on {rec.bg}: contrast {ratio:.2f}:1 < {MIN_CONTRAST}:1")
    return out


def names(p: Painter) -> list[str]:
    """Names big enough, never cut, each form naming one player only."""
    from companion.display.layout import NAME_SHARE
    from companion.display.names import name_forms

    out = []
    need = NAME_SHARE * min(p.screen.width, p.screen.height)
    shown_as: dict[str, set[str]] = {}
    for rec in p.texts:
        if rec.kind != "name" or rec.who is None:
            continue
        shown_as.setdefault(rec.text, set()).add(rec.who)
        if rec.rect.height < need - 0.5:
            out.append(
                f"the name {rec.text!r} is {rec.rect.height} px tall, under "
                f"{need:.0f} px (3.5 % of {min(p.screen.size)} px)"
            )
        forms = name_forms(p.table).get(rec.who, (rec.who,)) if p.table else (rec.who,)
        if rec.text not in forms:
            out.append(f"{rec.who!r} is shown as {rec.text!r}, which is not one of its forms {forms}")
    for text, who in shown_as.items():
        if len(who) > 1:
            out.append(f"{text!r} stands for {sorted(who)}")
    return out


def name_vs_tile(p: Painter) -> list[str]:
    """On a player's tile (the smallest panel around their name) no secondary text is bigger
    than the name."""
    out = []
    panels = sorted((child for child, _parent in p.boxes), key=lambda r: r.width * r.height)
    for rec in p.texts:
        if rec.kind != "name":
            continue
        tile = next((r for r in panels if r.contains(rec.rect)), None)
        if tile is None or tile.height > p.screen.height // 2:
            continue  # not on a tile of its own
        for other in p.texts:
            if other.kind == "text" and tile.contains(other.rect) and other.cap > rec.cap:
                out.append(
                    f"on {rec.text!r}'s tile, {other.text!r} (cap {other.cap}px) is "
                    f"bigger than the name (cap {rec.cap}px)"
                )
    return out


def plain_names(p: Painter, players: tuple[str, ...]) -> list[str]:
    """A text that is only a player's name must be drawn as a name (``Painter.name``): sized,
    shortened and checked like one."""
    from companion.display.names import name_forms

    if not players:
        return []
    forms = name_forms(players)
    every = {form: who for who, own in forms.items() for form in own}
    out = []
    for rec in p.texts:
        if rec.kind not in ("name", "field") and rec.text.strip() in every:
            out.append(f"{rec.text!r} is {every[rec.text.strip()]!r}'s name drawn as plain text")
    return out


# --- cap height in millimetres (docs/screen.md, "The 7-inch rules") -------------------------


def caps(p: Painter, arm_length: bool = False) -> list[str]:
    """Cap heights by what a text is: scores and headlines 6.7 mm, names 4 mm, the rest 3.5 mm,
    at 2 m (in proportion farther away). Button labels are read by whoever touches them, and a
    screen read at arm's length (``arm_length``), or a text inside one of the scorer's entry
    grids (``Painter.arm``), keeps only the score and name rules."""
    what, per_mm, metres = viewing(p.screen.size)
    scale = metres / 2.0
    buttons = [c.rect for c in p.controls] + list(p.arm)
    out = []
    for rec in p.texts:
        if rec.kind in ("score", "headline"):
            need, label = SCORE_MM, "a score or headline"
        elif rec.kind == "name":
            need, label = NAME_MM, "a name"
        elif arm_length or any(b.contains(rec.rect) for b in buttons):
            continue
        else:
            need, label = READ_MM, "read from a seat, it"
        px = need * scale * per_mm
        if rec.cap < px - 0.5:
            out.append(
                f"{rec.text!r}: {label} needs a cap height of {need * scale:.1f} mm "
                f"({px:.0f} px on the {what}), it has {rec.cap} px "
                f"({rec.cap / per_mm:.1f} mm)"
            )
    return out
