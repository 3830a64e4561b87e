"""Drawing with bookkeeping: every text is fitted into a box and recorded with that box, every
control with its rect, so tests can prove that nothing leaves its box or the screen."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

import pygame

from companion.display import names, typeface
from companion.display.app_actions import AppAction as AppAction
from companion.display.caches import Fonts as Fonts
from companion.display.caches import Layer, Records, _bands, _drawn_bands, _minus, _minus_all, _union
from companion.display.caches import PanelShape as PanelShape
from companion.display.caches import Retained as Retained
from companion.display.shapes import SHAPE_OF, _cross_around, _filled, draw_shape, seat_number_size
from companion.display.shapes import draw_suit as draw_suit

if TYPE_CHECKING:
    from companion.display.motion import Motion
from companion.display.theme import (
    DISABLED,
    FG,
    PANEL,
    PANEL_HI,
    Color,
    Scale,
    seat_color,
    text_on,
)

Align = Literal["left", "center", "right"]
Role = Literal["far", "near", "small"]
# What a text is, for the legibility rules (docs/screen.md): a player's name must read as well
# as their score, the most important text of a screen is its biggest.
# A place ("1er", "3e") is read with the name beside it, at its size. A field is a name as the
# setup's form holds it (being typed, or whole beside the short form the screens will use):
# read at arm's length by whoever types it, never a name shown to the table.
Kind = Literal["name", "score", "headline", "place", "text", "field"]
NAME_SHARE = 0.035  # a name's type is at least 3.5 % of the screen's short side tall


class GameAction:
    """A game's own action, a frozen dataclass of the game's (``games/<g>/controls.py``): its
    screens dispatch it by type; the App only routes it to them, after the message and the menu
    rules every action follows."""

    # Picking a card or a player keeps the message on screen (it may be the reason a pick was
    # refused); every other action clears it first.
    keeps_message: ClassVar[bool] = False

    def why(self) -> GameAction | None:
        """What a tap on this action's control does while the control is disabled: the action
        that says why it is (None: nothing)."""
        return None


class SetupAction:
    """An action of the setup form, a frozen dataclass: the form's own (``display/form_actions.py``)
    or a game's settings (``games/<g>/actions.py``), dispatched by type by the App's ``Setup``,
    then the game's ``setup_action``. It acts on the form whether a game runs or not."""


# Every action is a frozen dataclass, dispatched by type: the App's own (``display/app_actions.py``),
# a game's (a GameAction) and the setup form's (a SetupAction).
Action = AppAction | GameAction | SetupAction


_NAME_SIZES: dict[tuple[object, ...], int] = {}  # Painter.name_size by screen size


# Where a line may not break, between two words that read as one (a reader stumbles on the
# second alone at the start of a line): a sign
# that joins what follows ("= il passe", "→ GPIO 17", "· P tas", "« mot"), a closing one that
# belongs to what precedes ("mot »", "2 … 9"), a word of one letter (a key: "S matériel") and a
# number with its unit ("12 %", "3 kg").
# Non-breaking spaces (U+00A0, U+202F) never break: the wrapper splits on plain spaces only.
JOIN_NEXT = frozenset({"=", "→", "←", "·", "«", "±", "≤", "≥", "≈", "×", "…", "+", "–", "−"})
JOIN_PREVIOUS = frozenset({"»", ":", ";", "!", "?", "…", "×", "%", "‰"})
UNITS = frozenset({"%", "‰", "°", "kg", "g", "ms", "µs", "s", "min", "h", "mm", "cm", "m", "px", "pt", "pts"})
_NUMBER = re.compile(r"^[(\[]?[+\-−±]?\d+(?:[.,]\d+)?$")


def glued(before: str, after: str) -> bool:
    """Whether a line must not break between the words ``before`` and ``after``."""
    if before in JOIN_NEXT or before.endswith("«") or after in JOIN_PREVIOUS:
        return True
    if len(before) == 1 and before.isalpha():  # a key and what it does ("S matériel"), "à la"
        return True
    return after.rstrip(",.;:)]»") in UNITS and _NUMBER.match(before) is not None


def units(words: list[str]) -> list[str]:
    """``words`` grouped where no line may break (``glued``), each group one string."""
    out: list[str] = []
    for word in words:
        if not word and out:  # a double space (a column's gap) stays with the word before it
            out[-1] += " "
        elif out and word and glued(out[-1].rsplit(" ", 1)[-1], word):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


@dataclass(frozen=True, slots=True)
class TextRecord:
    text: str
    rect: pygame.Rect
    box: pygame.Rect
    role: Role
    size: int
    cap: int  # cap height in pixels, for the legibility rule
    color: Color = FG
    bg: Color | None = None  # the colour under it with the least contrast (audit mode only)
    kind: Kind = "text"
    who: str | None = None  # the player a name stands for
    cut: bool = False  # shortened with an ellipsis to fit


@dataclass(frozen=True, slots=True)
class Control:
    rect: pygame.Rect
    action: Action
    enabled: bool = True


_NOWHERE = pygame.Rect(-1, -1, 0, 0)


@dataclass(slots=True)
class _Group:
    rect: pygame.Rect
    keys: list[Hashable]
    draws: list[Callable[[], object]]
    solid: list[pygame.Rect]  # where one of its parts covers every pixel (a panel's rows)


class Painter:
    def __init__(
        self, surface: pygame.Surface, fonts: Fonts, audit: bool = False, retained: Retained | None = None
    ) -> None:
        self._surface = surface
        # The last frame on this surface (``Retained``); audit mode draws everything.
        self._retained = None if audit else retained
        self._live = False  # the background was asked for with a memory of the last frame
        self._spoiled = False  # drawn before or besides the background: remembered as nothing
        self._stale: list[pygame.Rect] = []  # where the pixels may still be the last frame's
        self._touched: list[pygame.Rect] = []  # where this frame wrote pixels
        self._ops: list[tuple[Hashable | None, pygame.Rect, Records | None]] = []
        self._intact: dict[Hashable, Records] = {}
        self._alone: set[Hashable] = set()
        self._group: _Group | None = None  # drawing kept to be drawn together (``_defer``)
        self._unbound = False  # the surface was handed out: drawing is not kept any more
        self._depth = 0  # inside a block's drawing: it draws only inside its rect
        # Where this frame differs from the last on the surface (``finish``); None: anywhere.
        self.changed: list[pygame.Rect] | None = None
        # The frame's background (``ground``) and what was drawn on it since: a copied block
        # over nothing but that background copies only its rows that are not background.
        self._ground: pygame.Rect | None = None
        self._ground_color: Color = (0, 0, 0)
        self._drawn: list[pygame.Rect] = []
        self._raw = False  # the surface was handed out: anything may have been drawn anywhere
        self._blind = False  # the surface was handed out inside a block (``_layer``)
        # The block being drawn (``layer``): where the last frame may still show in it is made
        # background only where it draws (``_fill``), not under a panel's solid rows.
        self._pending: pygame.Rect | None = None
        # Audit mode (tests, `companion snapshot`) also samples what lies under each text, for
        # the contrast rule; a live frame does not pay for it.
        self.audit = audit
        self.fonts = fonts
        self.screen = surface.get_rect()
        self.scale = Scale(self.screen.width, self.screen.height)
        self.texts: list[TextRecord] = []
        # (seat, cap height in pixels) of each seat number drawn in a mark: the key to press,
        # read from the seat (tests/review/test_first_evening_screens.py).
        self.seat_numbers: list[tuple[int, int]] = []
        self.controls: list[Control] = []
        self.boxes: list[tuple[pygame.Rect, pygame.Rect]] = []  # (child, parent) panels
        self.table: tuple[str, ...] = ()  # the players whose names were drawn
        self.chrome: list[pygame.Rect] = []  # the frame's bars: what every screen gives up
        # The scorer's entry grids, read at arm's length by whoever types (``audit.caps``): the
        # 7" rules exempt what is drawn inside them, and nothing else on their screen.
        self.arm: list[pygame.Rect] = []
        self.motion: Motion | None = None  # the live loop's (display.motion); None: nothing moves

    # --- the background ----------------------------------------------------------------------

    @property
    def surface(self) -> pygame.Surface:
        """The frame's surface, for drawing the painter does not see (``under`` says where)."""
        if self._depth:
            self._blind = True  # drawn in a block where the painter does not see it
            if self._pending is not None:
                self._materialize(self._pending)
            return self._surface  # inside a block: inside its rect
        self._raw = True
        self._close()
        self._unbound = True  # a clip may be set on it: nothing is kept for later any more
        self._op(None, self.screen)
        return self._surface

    def ground(self, color: Color, rect: pygame.Rect) -> None:
        """The frame's background over ``rect``; the painter then knows which of its pixels are
        still background (all but what it drew on them). With a memory of the last frame
        (``Retained``), filled only where something is drawn or was drawn last frame."""
        rect = pygame.Rect(rect).clip(self.screen)
        self._close()
        mem = self._retained
        if mem is not None and not self._live and not self._spoiled:
            self._live = True
            if mem.holds(self._surface, color, rect):
                self._stale = list(mem.stale)
                self._intact = mem.intact
                self._alone = mem.alone
            else:
                # Nothing known: every pixel is drawn, as without a memory.
                self._surface.fill(color, rect)
                self._stale = _minus_all([pygame.Rect(self.screen)], rect)
                self._touched.append(pygame.Rect(self.screen))
            mem.forget()  # until ``finish`` remembers this frame whole
        else:
            if self._live:
                self._spoiled = True
                self._materialize(self.screen)
            self._surface.fill(color, rect)
        self._ground = rect
        self._ground_color = color
        self._drawn = []
        self._raw = False

    def under(self, rect: pygame.Rect) -> pygame.Surface:
        """The frame's surface, for drawing inside ``rect``."""
        self._drawn.append(rect)
        if not self._depth:
            self._close()
            self._op(None, rect)
        elif self._pending is not None:
            self._materialize(rect)
        return self._surface

    @contextlib.contextmanager
    def clip(self, rect: pygame.Rect) -> Iterator[None]:
        """Drawing inside ``rect`` only (a name sliding in its banner's frame)."""
        self._close()
        surface = self._surface
        old = surface.get_clip()
        held = self._unbound
        self._unbound = True  # nothing kept to draw later, outside the clip: drawn now
        surface.set_clip(pygame.Rect(rect).clip(old))
        try:
            yield
        finally:
            surface.set_clip(old)
            self._unbound = held

    def get_clip(self) -> pygame.Rect:
        """Where drawing lands now (``clip``): read without handing out the surface, which would
        make the rest of the frame drawn whole."""
        return self._surface.get_clip()

    def _defer(
        self, key: Hashable, rect: pygame.Rect, draw: Callable[[], object], solid: pygame.Rect | None = None
    ) -> bool:
        """Drawing outside any block whose pixels ``key`` says (a text, a panel, a seat mark),
        kept to be drawn with the group it belongs to: the first one and what follows it over its
        rect (a panel and its texts, a banner and its mark). ``solid``: where it writes every
        pixel (no background needed under it first). False: draw it now."""
        if self._depth or not self._live or self._unbound:
            return False
        self._drawn.append(rect)
        group = self._group
        if group is not None and group.rect.colliderect(rect):
            group.rect.union_ip(rect)  # its pixels lie inside that rect, the rest is background
            group.keys.append(key)
            group.draws.append(draw)
            if solid is not None:
                group.solid.append(solid)
            return True
        self._close()
        self._group = _Group(pygame.Rect(rect), [key], [draw], [] if solid is None else [solid])
        return True

    def _close(self) -> None:
        """The open group drawn, or left as the last frame left it: when it is made of the same
        parts at the same place, it lay alone on the background then (nothing else in its rect),
        and nothing was drawn in its rect since."""
        group = self._group
        if group is None:
            return
        self._group = None
        key = ("group", tuple(group.rect), tuple(group.keys))
        area = group.rect.clip(self.screen)
        if key in self._alone and area.collidelist(self._touched) == -1:
            self._stale = _minus_all(self._stale, area)
        else:
            if self._surface.get_clip() == self.screen:
                for solid in group.solid:  # drawn over whole: no background under it first
                    self._stale = _minus_all(self._stale, solid.clip(self.screen))
            self._materialize(area)
            self._touched.append(area)
            for draw in group.draws:
                draw()
        self._ops.append((key, area, None))

    def _op(self, key: Hashable | None, rect: pygame.Rect, records: Records | None = None) -> None:
        """Something is drawn over ``rect`` now (outside any block): what is under it is made
        what a whole frame would have there first."""
        if not self._live:
            if self._retained is not None:
                self._spoiled = True  # drawn before the background: nothing to remember
            return
        rect = pygame.Rect(rect).clip(self.screen)
        self._materialize(rect)
        self._touched.append(rect)
        self._ops.append((key, rect, records))

    def _materialize(self, rect: pygame.Rect) -> None:
        """The background filled where ``rect`` may still show the last frame."""
        stale = self._stale
        hits = rect.collidelistall(stale)
        if not hits:
            return
        ground = self._ground or self.screen
        surface = self._surface
        clip = surface.get_clip()
        if clip != self.screen:
            surface.set_clip(None)
        keep = [r for i, r in enumerate(stale) if i not in hits]
        for i in hits:
            old = stale[i]
            fill = old.clip(rect).clip(ground)
            if fill.width and fill.height:
                surface.fill(self._ground_color, fill)
                self._touched.append(fill)
            keep.extend(_minus(old, rect))
        if clip != self.screen:
            surface.set_clip(clip)
        self._stale = keep

    def _fill(self, rect: pygame.Rect) -> None:
        """In a block (``_pending``), ``rect`` made background where the last frame may still
        show, before drawing over it (or once the block is drawn, what it left)."""
        if self._pending is not None:
            self._materialize(rect)

    def _cover(self, rect: pygame.Rect) -> None:
        """In a block, ``rect`` is about to be drawn over whole, every pixel: what the last frame
        left there needs no background first (unless a clip keeps part of it)."""
        if self._pending is not None:
            if self._surface.get_clip() == self.screen:
                self._stale = _minus_all(self._stale, rect.clip(self.screen))
            else:
                self._materialize(rect)

    def _pixel(self, x: int, y: int) -> int:
        """The pixel at (x, y) as a whole frame has it now (mapped): where the surface may still
        show the last frame, the background."""
        ground = self._ground
        if (
            ground is not None
            and ground.collidepoint(x, y)
            and pygame.Rect(x, y, 1, 1).collidelist(self._stale) != -1
        ):
            return self._surface.map_rgb(self._ground_color)
        return self._surface.get_at_mapped((x, y))

    def finish(self) -> list[pygame.Rect] | None:
        """The frame is drawn: the background where the last frame showed something this one
        does not, and the memory of this frame for the next. Returns ``changed``."""
        self._close()
        mem = self._retained
        if mem is None or not self._live or self._spoiled:
            if mem is not None:
                mem.forget()
            self.changed = None
            return None
        self._materialize(self.screen)
        ops = self._ops
        later: list[pygame.Rect] = []
        intact: dict[Hashable, Records] = {}
        for key, rect, records in reversed(ops):
            if key is not None and records is not None and rect.collidelist(later) == -1:
                intact[key] = records
            later.append(rect)
        ground = self._ground or pygame.Rect(0, 0, 0, 0)
        rects = [r for _, r, _ in ops]
        alone = set()
        for i, (key, rect, records) in enumerate(ops):
            # A group that shares no pixel with anything else, on the background.
            if records is None and key is not None and ground.contains(rect):
                rects[i] = _NOWHERE
                if rect.collidelist(rects) == -1:
                    alone.add(key)
                rects[i] = rect
        stale = _union([r for _, r, _ in ops] + _minus_all([pygame.Rect(self.screen)], ground))
        mem.remember(self._surface, (self._ground_color, tuple(ground)), stale, intact, alone)
        touched = self._touched
        if any(r.contains(self.screen) for r in touched):
            self.changed = None
        else:
            self.changed = [r for r in touched if r.width and r.height]
        return self.changed

    def _on_ground(self, rect: pygame.Rect) -> bool:
        """Whether every pixel of ``rect`` is still the frame's background."""
        ground = self._ground
        pending = self._pending
        return (
            ground is not None
            and not self._raw
            and ground.contains(rect)
            and rect.collidelist(self._drawn) == -1
            # What the last frame left in the block being drawn is made background (``_fill``).
            and ((pending is not None and pending.contains(rect)) or rect.collidelist(self._stale) == -1)
        )

    # --- geometry helpers --------------------------------------------------------------------

    def px(self, value: float) -> int:
        return self.scale.px(value)

    def font(self, nominal: int) -> int:
        return self.scale.font(nominal)

    def panel(
        self,
        rect: pygame.Rect,
        parent: pygame.Rect | None = None,
        color: Color = PANEL,
        border: Color | None = None,
        width: int = 0,
    ) -> pygame.Rect:
        self.boxes.append((pygame.Rect(rect), pygame.Rect(parent or self.screen)))
        radius = self.px(8)
        line = max(1, width or self.px(3)) if border is not None else 0
        surface = self._surface
        shape = self.fonts.panel_shape(surface, rect.size, color, radius, border, line)
        if shape is None:
            self.under(rect)
            pygame.draw.rect(surface, color, rect, border_radius=radius)
            if border is not None:
                pygame.draw.rect(surface, border, rect, width=line, border_radius=radius)
            return rect
        key = ("panel", tuple(rect), color, radius, border, line)
        solid = shape.solid.move(rect.topleft)
        if not self._defer(key, rect, functools.partial(shape.blit, surface, rect.topleft), solid):
            if self._depth and self._pending is not None:
                # In a block: its solid rows cover whatever is there, only its corners' rows
                # show what is under them (a 1080p tile's background: 0.2 ms not filled).
                self._drawn.append(rect)
                self._cover(solid)
                self._fill(rect)
                shape.blit(surface, rect.topleft)
            else:
                shape.blit(self.under(rect), rect.topleft)
        return rect

    def bar(self, rect: pygame.Rect, color: Color) -> None:
        """A plain filled rectangle (a chart's bar): a part the painter knows, like a panel."""
        rect = pygame.Rect(rect)
        if not rect.width or not rect.height:
            return
        if not self._defer(
            ("bar", tuple(rect), color), rect, functools.partial(self._surface.fill, color, rect)
        ):
            self.under(rect).fill(color, rect)

    def layer(self, key: Hashable, rect: pygame.Rect, draw: Callable[[], object]) -> None:
        """Draw a block that paints all of ``rect`` and nothing outside it, and that depends on
        nothing but ``key`` and the screen size: by ``draw()`` the first two times (the second
        keeps a copy), then as a copy of its pixels and records (the bars of the frame, the
        same on most frames; every block during an animation). Audit mode always draws, so
        that what lies under each text is sampled."""
        if self.audit:
            draw()
            return
        # The short forms chosen at setup (display/names.py) are in every block that shows a name.
        full = (key, tuple(rect), self.screen.size, names.epoch())
        counts = len(self.texts), len(self.controls), len(self.boxes)
        if self._depth or not self._live:
            if not self._depth and self._retained is not None:
                self._spoiled = True  # drawn before the background: nothing to remember
            self._layer(full, rect, draw)
            return
        self._close()
        area = rect.clip(self.screen)
        kept = self._intact.get(full)
        if kept is not None and area.collidelist(self._touched) == -1:
            # On the surface as the last frame left it, and nothing drawn over it since.
            self._stale = _minus_all(self._stale, area)
            self._ops.append((full, area, kept))
            self._drawn.append(rect)
            self.texts.extend(kept[0])
            self.controls.extend(kept[1])
            self.boxes.extend(kept[2])
            return
        # What it draws over is made background as it draws (``_pending``); what it reads (a
        # button's corners, ``_pixel``) is read as background where the last frame still shows.
        self._touched.append(area)
        self._pending = area
        self._depth += 1
        try:
            self._layer(full, rect, draw)
        finally:
            self._depth -= 1
            self._pending = None
        records = (
            tuple(self.texts[counts[0] :]),
            tuple(self.controls[counts[1] :]),
            tuple(self.boxes[counts[2] :]),
        )
        self._ops.append((full, area, records))

    def _layer(self, full: Hashable, rect: pygame.Rect, draw: Callable[[], object]) -> None:
        layer = self.fonts.layer(full)
        if layer is not None:
            if layer.bands is not None and layer.ground == self._ground_color and self._on_ground(rect):
                # Over the background: only the rows that are not background (a frame is
                # memory-bound; a block of text rows is mostly background).
                self._fill(rect)
                for band in layer.bands:
                    self._surface.blit(layer.pixels, band.move(rect.topleft), band)
            else:
                self._cover(rect)
                self._surface.blit(layer.pixels, rect)
            self._drawn.append(rect)
            self.texts.extend(layer.texts)
            self.controls.extend(layer.controls)
            self.boxes.extend(layer.boxes)
            return
        if self.fonts.seen_layers.get(full) is None:
            self.fonts.seen_layers.put(full, True)
            draw()
            self._fill(rect)  # what it left as it was: background
            self._drawn.append(rect)
            return
        counts = len(self.texts), len(self.controls), len(self.boxes)
        on_ground, blind, first = self._on_ground(rect), self._blind, len(self._drawn)
        self._blind = False
        draw()
        self._fill(rect)
        # Drawn over nothing but the background by the painter alone (not on the surface it
        # handed out: ``_blind`` in a block, ``_raw`` outside a memory's), what is not background
        # in it lies inside what the painter recorded drawing: its bands need no pixel read.
        seen = on_ground and not self._blind and not self._raw
        self._blind = blind or self._blind
        drawn = self._drawn[first:]
        self._drawn.append(rect)
        area = rect.clip(self.screen)
        if area != rect:
            return  # partly off screen: not worth keeping
        pixels = self._surface.subsurface(area).copy()
        bands = None  # drawn over something else: copied whole (its bands would be read from
        if on_ground:  # its pixels: 0.3 ms for a 1080p tile, more than drawing it)
            bands = _drawn_bands(drawn, rect) if seen else _bands(pixels, self._ground_color)
        self.fonts.put_layer(
            full,
            Layer(
                pixels,
                tuple(self.texts[counts[0] :]),
                tuple(self.controls[counts[1] :]),
                tuple(self.boxes[counts[2] :]),
                self._ground_color,
                bands,
            ),
        )

    # --- text --------------------------------------------------------------------------------

    def fit(self, text: str, box: pygame.Rect, size: int, min_size: int | None = None) -> tuple[str, int]:
        """The largest size (down to ``min_size``) at which ``text`` fits; then an ellipsis."""
        floor = min_size if min_size is not None else max(10, int(size * 0.55))
        key = (text, box.width, box.height, size, floor)
        return self.fonts.fits.get(key) or self.fonts.fits.put(
            key, self._fit(text, box.width, box.height, size, floor)
        )

    def _fit(self, text: str, width: int, height: int, size: int, floor: int) -> tuple[str, int]:
        fonts = self.fonts
        cur = size
        while True:
            w, h = fonts.size(text, cur)
            if w <= width and h <= height:
                return text, cur
            if cur <= floor:
                break
            cur = max(floor, int(cur * 0.9))
        # A box too short (not too narrow) gets smaller type, never a cut word: "A…" for an Ace
        # would mislead. Only text too wide for the box is cut, and says so with an ellipsis.
        w, h = fonts.size(text, cur)
        while h > height and cur > 8:
            cur -= 1
            w, h = fonts.size(text, cur)
        if w <= width and h <= height:
            return text, cur
        while True:
            cut = text
            while cut and fonts.size(cut + "…", cur)[0] > width:
                cut = cut[:-1]
            shown = cut + "…" if cut else ""
            if shown and fonts.size(shown, cur)[1] <= height:
                return shown, cur
            if cur <= 8:
                return "", cur
            cur -= 1

    def text(
        self,
        text: str,
        box: pygame.Rect,
        size: int,
        color: Color = FG,
        align: Align = "center",
        role: Role = "near",
        min_size: int | None = None,
        valign: Literal["top", "center", "bottom"] = "center",
        kind: Kind = "text",
        who: str | None = None,
    ) -> pygame.Rect:
        shown, cur = self.fit(text, box, size, min_size)
        if not shown:
            return pygame.Rect(box.x, box.y, 0, 0)
        return self._blit(shown, cur, box, color, align, valign, role, kind, who, shown != text)

    def _blit(
        self,
        shown: str,
        cur: int,
        box: pygame.Rect,
        color: Color,
        align: Align,
        valign: Literal["top", "center", "bottom"],
        role: Role,
        kind: Kind,
        who: str | None,
        cut: bool = False,
    ) -> pygame.Rect:
        surf = self.fonts.render(shown, cur, color)
        rect = surf.get_rect()
        if align == "left":
            rect.left = box.left
        elif align == "right":
            rect.right = box.right
        else:
            rect.centerx = box.centerx
        if valign == "top":
            rect.top = box.top
        elif valign == "bottom":
            rect.bottom = box.bottom
        else:
            rect.centery = box.centery
        bg = self._under(rect, color) if self.audit else None
        key = ("text", shown, cur, color, rect.topleft)
        if not self._defer(key, rect, functools.partial(self._surface.blit, surf, rect)):
            self.under(rect).blit(surf, rect)
        self.texts.append(
            TextRecord(
                shown, rect, pygame.Rect(box), role, cur, self.fonts.cap(cur), color, bg, kind, who, cut
            )
        )
        return rect

    def _under(self, rect: pygame.Rect, color: Color) -> Color | None:
        """Of the colours under ``rect`` (a 5x3 grid of samples), the one that contrasts least
        with ``color``."""
        from companion.display.theme import contrast

        area = rect.clip(self.screen)
        if not area.width or not area.height:
            return None
        worst: Color | None = None
        for i in range(5):
            for j in range(3):
                x = area.left + (area.width - 1) * i // 4
                y = area.top + (area.height - 1) * (j + 1) // 4
                c = self._surface.get_at((x, y))
                under = (c[0], c[1], c[2])
                if worst is None or contrast(under, color) < contrast(worst, color):
                    worst = under
        return worst

    # --- names -------------------------------------------------------------------------------

    def name_size(self) -> int:
        """The smallest type for a player's name: its line 3.5 % of the screen's short side
        (17 px at 480, 38 px at 1080)."""
        key = self.screen.size
        size = _NAME_SIZES.get(key)
        if size is None:  # measured once per screen size: every name on a frame asks
            need = NAME_SHARE * min(self.screen.width, self.screen.height)
            size = 10
            while typeface.line_height(self.fonts.font(size)) < need:
                size += 1
            _NAME_SIZES[key] = size
        return size

    def far_name_size(self) -> int:
        """The type for a name read from a seat: ``name_size`` and a cap height of 4 mm where
        the screen is read (``viewing.viewing``: 21 px on the 7" screen, 13 px on a TV at 3 m)."""
        from companion.display.viewing import NAME_MM, viewing

        key = (*self.screen.size, "far")
        size = _NAME_SIZES.get(key)
        if size is None:
            _what, per_mm, metres = viewing(self.screen.size)
            # Never smaller than on the 7" screen: a bigger screen is not read from closer.
            cap = max(
                NAME_MM * metres / 2 * per_mm, NAME_MM * viewing((800, 480))[1] * min(1.0, self.scale.u)
            )
            size = self.name_size()
            while self.fonts.cap(size) < cap - 0.5:
                size += 1
            _NAME_SIZES[key] = size
        return size

    def name(
        self,
        who: str,
        players: tuple[str, ...] | list[str],
        box: pygame.Rect,
        size: int,
        color: Color = FG,
        align: Align = "left",
        role: Role = "near",
        min_size: int | None = None,
        valign: Literal["top", "center", "bottom"] = "center",
    ) -> pygame.Rect:
        """A player's name as big as ``size`` allows, shortened the way a table does
        ("Anne-Sophie C.") rather than shrunk below the name size or cut with an ellipsis;
        every form used stays unique among ``players``."""
        from companion.display.names import name_forms

        floor = max(min_size or 0, self.name_size())
        size = max(size, floor)
        self.table = tuple(players)
        forms = name_forms(self.table).get(who, (who,))
        best: tuple[str, int] | None = None
        for form in forms:
            cur = self._form_size(form, box, size, floor)
            if not cur:
                continue
            # A whole name a little smaller beats a shortened one; much smaller, it does not.
            if cur >= size * 0.8 or best is None:
                best = (form, cur)
                if cur >= size * 0.8:
                    break
        if best is None:
            return self._name_in_a_short_box(who, forms, box, size, color, align, valign, role)
        return self._blit(best[0], best[1], box, color, align, valign, role, "name", who)

    def _form_size(self, form: str, box: pygame.Rect, size: int, floor: int) -> int:
        """The largest size from ``size`` down to ``floor`` at which ``form`` fits ``box``; 0:
        none does."""
        cur = size
        while True:
            w, h = self.fonts.size(form, cur)
            if w <= box.width and h <= box.height:
                return cur
            if cur <= floor:
                return 0
            cur = max(floor, int(cur * 0.92))

    def _name_in_a_short_box(
        self,
        who: str,
        forms: tuple[str, ...],
        box: pygame.Rect,
        size: int,
        color: Color,
        align: Align,
        valign: Literal["top", "center", "bottom"],
        role: Role,
    ) -> pygame.Rect:
        """Nothing fits at the name size (a box too short for it): the longest form that fits
        whole at the size the height allows, rather than initials ("F." for "Frédérique A." in
        a short row)."""
        fonts = self.fonts
        tall = size
        while tall > 8 and fonts.size("Ég", tall)[1] > box.height:
            tall -= 1
        for form in forms:
            if fonts.size(form, tall)[0] <= box.width:
                return self._blit(form, tall, box, color, align, valign, role, "name", who)
        shown, cur = self.fit(forms[-1], box, tall, min_size=8)
        if not shown:
            return pygame.Rect(box.x, box.y, 0, 0)
        return self._blit(shown, cur, box, color, align, valign, role, "name", who, shown != forms[-1])

    def wrap_lines(self, text: str, width: int, size: int) -> list[str]:
        key = (text, width, size)
        cached = self.fonts.wraps.get(key)
        if cached is None:
            cached = self.fonts.wraps.put(key, tuple(self._wrap(text, width, size)))
        return list(cached)

    def _wrap(self, text: str, width: int, size: int) -> list[str]:
        """Greedy lines of whole words, never broken between two words that read as one
        (``glued``); then a last line of one word alone takes the word above it, when the
        line above keeps company and the two fit ("… = il" / "passe" reads "…" / "= il passe")."""
        lines: list[str] = []
        for para in text.split("\n"):
            lines += self._wrap_para(para, width, size)
        return lines

    def _wrap_para(self, para: str, width: int, size: int) -> list[str]:
        def wide(s: str) -> int:
            return self.fonts.size(s, size)[0]

        pieces: list[str] = []
        for unit in units(para.split(" ")):
            # Glue is a preference: a group wider than the whole line breaks between its words.
            pieces += unit.split(" ") if " " in unit and wide(unit) > width else [unit]
        rows: list[list[str]] = []
        row: list[str] = []
        line = ""
        for piece in pieces:
            trial = f"{line} {piece}" if row else piece
            if not row or wide(trial) <= width:
                row.append(piece)
                line = trial
            else:
                rows.append(row)
                row, line = [piece], piece
        rows.append(row)
        # One word alone: a group held by non-breaking spaces ("de\u00a0Jean-F.") is company.
        if len(rows) >= 2 and len(rows[-1]) == 1 and len(rows[-1][0].split()) == 1 and len(rows[-2]) >= 2:
            above, last = rows[-2], rows[-1]
            if len(" ".join(above).split()) >= 3 and wide(f"{above[-1]} {last[0]}") <= width:
                rows[-2:] = [above[:-1], [above[-1], last[0]]]
        return [" ".join(row) for row in rows]

    def line_height(self, size: int) -> int:
        # Accented capitals (É, À) stand taller than the font's line size.
        return max(typeface.line_height(self.fonts.font(size)), self.fonts.size("ÉÀgjpq", size)[1])

    def _wrap_to_fit(
        self, text: str, width: int, height: int, size: int, floor: int
    ) -> tuple[tuple[str, ...], int, int]:
        """The lines, size and line height of ``text`` wrapped and shrunk to fit the box."""
        cur = size
        while True:
            lines = self.wrap_lines(text, width, cur)
            line_h = self.line_height(cur)
            fits = all(self.fonts.size(line, cur)[0] <= width for line in lines)
            if (fits and line_h * len(lines) <= height) or cur <= floor:
                return tuple(lines), cur, line_h
            cur = max(floor, int(cur * 0.92))

    def paragraph(
        self,
        text: str,
        box: pygame.Rect,
        size: int,
        color: Color = FG,
        min_size: int | None = None,
        role: Role = "small",
    ) -> int:
        """Wrapped text, shrunk until it fits the box; returns the height used."""
        floor = min_size if min_size is not None else max(10, int(size * 0.5))
        key = (text, box.width, box.height, size, floor)
        lines, cur, line_h = self.fonts.paragraphs.get(key) or self.fonts.paragraphs.put(
            key, self._wrap_to_fit(text, box.width, box.height, size, floor)
        )
        room = box.height // line_h
        if room < len(lines):
            # Lines the box cannot hold at the least size are never dropped without a word: the
            # last line that fits takes the rest, cut with an ellipsis and recorded as cut, which
            # the legibility audit fails (``audit.contained``).
            if not room:
                self.text(" ".join(lines), box, cur, color, align="left", role=role, min_size=cur)
                return box.height
            lines = (*lines[: room - 1], " ".join(lines[room - 1 :]))
        y = box.top
        for line in lines:
            self.text(
                line,
                pygame.Rect(box.left, y, box.width, line_h),
                cur,
                color,
                align="left",
                role=role,
                min_size=cur,
            )
            y += line_h
        return y - box.top

    # --- controls ----------------------------------------------------------------------------

    def button(
        self,
        rect: pygame.Rect,
        label: str,
        action: Action,
        *,
        enabled: bool = True,
        color: Color = PANEL_HI,
        size: int | None = None,
        hint: str | None = None,
        selected: bool = False,
        parent: pygame.Rect | None = None,
    ) -> pygame.Rect:
        """A control: its panel, label and hint. Drawn once and then copied (``layer``) where
        the four pixels at its corners show one colour: what its rounded corners leave showing,
        part of the key."""
        draw = functools.partial(
            self._button, rect, label, action, enabled, color, size, hint, selected, parent
        )
        if self.audit or rect.width < 2 or rect.height < 2 or not self.screen.contains(rect):
            draw()
            return rect
        self._close()  # what is under it drawn, to be read
        read = self._pixel  # read, not drawn on
        x0, y0, x1, y1 = rect.left, rect.top, rect.right - 1, rect.bottom - 1
        under = read(x0, y0)
        if not (read(x1, y0) == under and read(x0, y1) == under and read(x1, y1) == under):
            draw()
            return rect
        key = ("button", label, action, enabled, color, size, hint, selected, parent and tuple(parent), under)
        self.layer(key, rect, draw)
        return rect

    def _button(
        self,
        rect: pygame.Rect,
        label: str,
        action: Action,
        enabled: bool,
        color: Color,
        size: int | None,
        hint: str | None,
        selected: bool,
        parent: pygame.Rect | None,
    ) -> None:
        fill = color if enabled else PANEL
        self.panel(rect, parent, fill, border=FG if selected else None)
        fg = text_on(fill) if enabled else DISABLED
        pad = min(self.px(4), rect.height // 10)
        inner = rect.inflate(-2 * pad, -2 * pad)
        size = size or self.font(30)
        if hint:
            hint_h = min(inner.height // 2, max(self.line_height(self.font(20)), inner.height // 3))
            main = pygame.Rect(inner.x, inner.y, inner.width, inner.height - hint_h)
            self.text(label, main, size, fg)
            self.text(
                hint, pygame.Rect(inner.x, main.bottom, inner.width, hint_h), self.font(20), fg, role="small"
            )
        else:
            self.text(label, inner, size, fg)
        self.controls.append(Control(pygame.Rect(rect), action, enabled))

    def hit(self, pos: tuple[int, int]) -> Control | None:
        for control in reversed(self.controls):
            if control.rect.collidepoint(pos):
                return control
        return None

    # --- seat marks and suits ----------------------------------------------------------------

    def seat_mark(self, seat: int, center: tuple[int, int], radius: int, number: bool = True) -> None:
        """The seat's colour and shape, with its number: colour is never the only cue."""
        color = seat_color(seat)
        reach = radius * 13 // 10 + 2  # the star's and the triangles' points reach past the radius
        box = pygame.Rect(center[0] - reach, center[1] - reach, 2 * reach, 2 * reach)
        surf: pygame.Surface | None = None
        if number and radius >= 9:
            label = "10" if seat == 9 else str(seat + 1)
            size = seat_number_size(self.fonts, seat, radius)
            # On a filled shape the number takes the colour that reads on the seat's; in a ring,
            # a frame or between the cross's arms (drawn short around it), the seat's own.
            surf = self.fonts.render(label, size, text_on(color) if _filled(seat) else color)
            box.union_ip(surf.get_rect(center=center))
            self.seat_numbers.append((seat, self.fonts.cap(size)))
        target = self._surface

        def mark() -> None:
            if surf is not None and SHAPE_OF(seat) == "cross":
                _cross_around(target, center, radius, max(surf.get_width(), surf.get_height()) // 2, color)
            else:
                draw_shape(target, seat, center, radius, color)
            if surf is not None:
                target.blit(surf, surf.get_rect(center=center))

        if not self._defer(("seat", seat, center, radius, number), box, mark):
            self.under(box)
            mark()


# How far from the centre a seat's number may reach, by shape, as a share of the mark's radius:
# the half-side of the square the shape holds around its centre (a triangle's is small, a
# square's large; a ring or a frame keeps the number inside its line).
