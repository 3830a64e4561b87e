"""Drawing with bookkeeping: every text is fitted into a box and recorded with that box, every
control with its rect, so tests can prove that nothing leaves its box or the screen."""

from __future__ import annotations

import contextlib
import functools
import math
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, Literal, TypeVar

import pygame

from companion.display import names, typeface

if TYPE_CHECKING:
    from companion.display.motion import Motion
from companion.display.theme import (
    DISABLED,
    FG,
    PANEL,
    PANEL_HI,
    SHAPES,
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


# The App's own actions are tuples tagged by a string ("nav", "undo"...), a game's are GameActions.
AppAction = tuple[Hashable, ...]
Action = AppAction | GameAction


_NAME_SIZES: dict[tuple[object, ...], int] = {}  # Painter.name_size by screen size


# Where a line may not break, between two words that read as one (issue 23, finding 7): a sign
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


class Fonts:
    """Fonts and rendered texts, cached: most frames redraw the same words.

    The caches are least-recently-used and capped, the rendered texts in bytes of pixels: at
    1920x1080 one big line is megabytes, and an evening shows thousands of different ones (names,
    scores, timers), so a cap by count let a play session grow by hundreds of MB.
    """

    TEXT_BYTES = 16 * 1024 * 1024  # the rendered texts; a full 1080p frame is 8 MB
    RUN_BYTES = 4 * 1024 * 1024  # runs of a line with figures (``typeface.render``'s pieces)
    MAX_FONTS = 96  # font objects (one a size; an evening at 1080p uses about 75)
    MAX_SIZES = 8000  # measured (text, size) pairs: a few dozen bytes each
    MAX_FITS = 8000  # Painter.fit results: (text, box, sizes) -> (shown, size), as small
    MAX_PARAGRAPHS = 500  # Painter.paragraph layouts: a text's lines, about its own length
    MAX_WRAPS = 2000  # Painter.wrap_lines results, as small
    MAX_LAYOUTS = 2000  # layouts of a block by its inputs (kit.tile_layout): a few rects each
    LAYER_BYTES = 12 * 1024 * 1024  # drawn blocks (the bars): a 1080p nav bar is 1 MB
    PANEL_BYTES = 8 * 1024 * 1024  # panels' shapes: a 1080p tile is 160 KB, the widest 1 MB

    def __init__(self, text_bytes: int | None = None) -> None:
        self.text_bytes_cap = self.TEXT_BYTES if text_bytes is None else text_bytes
        self._fonts: OrderedDict[int, pygame.font.Font] = OrderedDict()
        self._caps: dict[int, int] = {}
        self._texts: SurfaceLru[tuple[str, int, Color]] = SurfaceLru()
        # The pieces a line with figures is put together from (each figure in its cell, the
        # words between): a new score is the same glyphs, put together anew.
        self._runs: SurfaceLru[tuple[str, int, Color]] = SurfaceLru()
        self._sizes: OrderedDict[tuple[str, int], tuple[int, int]] = OrderedDict()
        # Layouts are pure functions of the measures above, kept so that a redraw does not
        # probe size after size again (Painter.fit, Painter.paragraph).
        self.fits: Lru[tuple[str, int, int, int, int], tuple[str, int]] = Lru(self.MAX_FITS)
        self.paragraphs: Lru[tuple[str, int, int, int, int], tuple[tuple[str, ...], int, int]] = Lru(
            self.MAX_PARAGRAPHS
        )
        self.wraps: Lru[tuple[str, int, int], tuple[str, ...]] = Lru(self.MAX_WRAPS)
        # A block's layout by everything it depends on, the screen's size among it (a tile's
        # rects: measured at the sizes the screen's scale gives).
        self.layouts: Lru[Hashable, object] = Lru(self.MAX_LAYOUTS)
        # Blocks of a frame drawn once and then copied (Painter.layer), capped in bytes.
        self._layers: OrderedDict[Hashable, Layer] = OrderedDict()
        self.layer_bytes = 0
        # Blocks drawn once: copied only when drawn a second time, so the first frame after a
        # change (a slap, a key) pays nothing for a copy it may never use.
        self.seen_layers: Lru[Hashable, bool] = Lru(self.MAX_WRAPS)
        # Panels' rounded rectangles, drawn once a size and colour (Painter.panel), capped in
        # bytes: pygame fills a rounded rectangle row by row, slower than a copy of it.
        self._panels: OrderedDict[tuple[object, ...], PanelShape] = OrderedDict()
        self.panel_bytes = 0

    def panel_shape(
        self,
        target: pygame.Surface,
        size: tuple[int, int],
        color: Color,
        radius: int,
        border: Color | None,
        line: int,
    ) -> PanelShape | None:
        """A panel's rounded rectangle drawn once and then copied (``Painter.panel``); None where
        a copy could not be exact (a surface with its own alpha, or fewer colours)."""
        w, h = size
        if w <= 0 or h <= 0 or target.get_bitsize() != 32 or target.get_flags() & pygame.SRCALPHA:
            return None
        key = (w, h, color, radius, border, line, target.get_masks())
        shape = self._panels.get(key)
        if shape is not None:
            self._panels.move_to_end(key)
            return shape
        shape = self._panels[key] = PanelShape.draw(target, size, color, radius, border, line)
        self.panel_bytes += shape.bytes
        while self.panel_bytes > self.PANEL_BYTES and len(self._panels) > 1:
            _, old = self._panels.popitem(last=False)
            self.panel_bytes -= old.bytes
        return shape

    def layer(self, key: Hashable) -> Layer | None:
        layer = self._layers.get(key)
        if layer is not None:
            self._layers.move_to_end(key)
        return layer

    def clear_layers(self) -> None:
        self._layers.clear()
        self.layer_bytes = 0
        self.seen_layers = Lru(self.MAX_WRAPS)

    def put_layer(self, key: Hashable, layer: Layer) -> None:
        self._layers[key] = layer
        self.layer_bytes += _bytes(layer.pixels)
        while self.layer_bytes > self.LAYER_BYTES and len(self._layers) > 1:
            _, old = self._layers.popitem(last=False)
            self.layer_bytes -= _bytes(old.pixels)

    def font(self, size: int) -> pygame.font.Font:
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(typeface.FACE, typeface.em(size))
            if len(self._fonts) > self.MAX_FONTS:
                self._fonts.popitem(last=False)
        else:
            self._fonts.move_to_end(size)
        return font

    def cap(self, size: int) -> int:
        cap = self._caps.get(size)
        if cap is None:
            metrics = self.font(size).metrics("H")[0]
            cap = self._caps[size] = metrics[3] if metrics else size // 2
        return cap

    def size(self, text: str, size: int) -> tuple[int, int]:
        key = (text, size)
        dims = self._sizes.get(key)
        if dims is None:
            # The rendered surface's size (its ink band, figures in cells), measured without
            # drawing it: a layout measures many candidates and draws one.
            dims = self._sizes[key] = typeface.measure(self.font(size), text)
            if len(self._sizes) > self.MAX_SIZES:
                self._sizes.popitem(last=False)
        else:
            self._sizes.move_to_end(key)
        return dims

    def render(self, text: str, size: int, color: Color) -> pygame.Surface:
        key = (text, size, color)
        surf = self._texts.get(key)
        if surf is None:
            surf = typeface.render(self.font(size), text, color, functools.partial(self._run, size, color))
            self._texts.put(key, surf, self.text_bytes_cap)
        return surf

    def _run(self, size: int, color: Color, run: str) -> pygame.Surface:
        key = (run, size, color)
        surf = self._runs.get(key)
        if surf is None:
            surf = self._runs.put(key, self.font(size).render(run, True, color), self.RUN_BYTES)
        return surf

    @property
    def text_bytes(self) -> int:  # pixels held by the rendered texts
        return self._texts.bytes

    @property
    def run_bytes(self) -> int:
        return self._runs.bytes

    def stats(self) -> dict[str, int]:
        return {
            "runs": len(self._runs),
            "run_bytes": self.run_bytes,
            "texts": len(self._texts),
            "text_bytes": self.text_bytes,
            "fonts": len(self._fonts),
            "sizes": len(self._sizes),
            "fits": len(self.fits),
            "paragraphs": len(self.paragraphs),
            "layouts": len(self.layouts),
            "panels": len(self._panels),
            "panel_bytes": self.panel_bytes,
        }


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Layer:
    """A block of a frame as drawn: its pixels and what the painter recorded while drawing it."""

    pixels: pygame.Surface
    texts: tuple[TextRecord, ...]
    controls: tuple[Control, ...]
    boxes: tuple[tuple[pygame.Rect, pygame.Rect], ...]
    # Where its pixels are not the frame's background (``ground``), as bands of rows within
    # it; None: copied whole.
    ground: Color | None = None
    bands: tuple[pygame.Rect, ...] | None = None


class PanelShape:
    """A rounded rectangle (and its border) as ``pygame.draw.rect`` draws it, kept to be copied:
    the rows with corners through a colour key (the pixels outside the corners stay as they
    were, as when drawn), the rows between them whole. The same pixels at a fraction of the
    cost: pygame fills the shape row by row through SDL's fill, which streams every row to
    memory past the cache (a 259x152 tile: 78 us drawn, 48 us copied, after the background).
    A big panel's rows alike (its fill and its border's sides) are kept as a strip of them,
    copied down the band: a 1080p stack of Treize's take screen was 1.4 MB of shape, the 8 MB
    cache held seven, and that screen drew its shapes again every frame."""

    __slots__ = ("band", "bytes", "parts", "solid", "strip")

    def __init__(
        self,
        parts: list[tuple[pygame.Surface, int]],
        nbytes: int,
        solid: pygame.Rect,
        strip: pygame.Surface | None = None,
        band: tuple[int, int] = (0, 0),
    ) -> None:
        self.parts = parts  # (rows, their top within the panel)
        self.bytes = nbytes
        self.solid = solid  # the rows that cover every pixel, within the panel
        self.strip = strip  # rows alike, copied down ``band`` (its top and height)
        self.band = band

    @classmethod
    def draw(
        cls,
        target: pygame.Surface,
        size: tuple[int, int],
        color: Color,
        radius: int,
        border: Color | None,
        line: int,
    ) -> PanelShape:
        w, h = size
        # A key colour the panel does not draw: every pixel of that colour lies outside it.
        key = next(c for c in ((255, 0, 255), (0, 255, 0), (1, 2, 3)) if c not in (color, border))
        whole = pygame.Surface(size, 0, target)
        whole.fill(key)
        pygame.draw.rect(whole, color, whole.get_rect(), border_radius=radius)
        if border is not None:
            pygame.draw.rect(whole, border, whole.get_rect(), width=line, border_radius=radius)
        mapped = whole.map_rgb(key)

        def keyed(y: int) -> bool:
            # The shape is convex: a row with a pixel outside it has one at either end.
            return whole.get_at_mapped((0, y)) == mapped or whole.get_at_mapped((w - 1, y)) == mapped

        top = 0
        while top < h and keyed(top):
            top += 1
        bottom = h
        while bottom > top and keyed(bottom - 1):
            bottom -= 1
        a, b = _alike(whole, top, bottom)
        parts: list[tuple[pygame.Surface, int]] = []
        for y0, y1, with_key in ((0, top, True), (top, a, False), (b, bottom, False), (bottom, h, True)):
            if y1 > y0:
                rows = whole.subsurface((0, y0, w, y1 - y0)).copy()
                if with_key:
                    rows.set_colorkey(key)
                parts.append((rows, y0))
        strip = whole.subsurface((0, a, w, min(STRIP, b - a))).copy() if b > a else None
        nbytes = sum(_bytes(rows) for rows, _ in parts) + (_bytes(strip) if strip is not None else 0)
        return cls(parts, nbytes, pygame.Rect(0, top, w, bottom - top), strip, (a, b - a))

    def blit(self, surface: pygame.Surface, topleft: tuple[int, int]) -> None:
        x, y = topleft
        for rows, dy in self.parts:
            surface.blit(rows, (x, y + dy))
        strip = self.strip
        if strip is not None:
            top, height = self.band
            w = strip.get_width()
            for dy in range(0, height, STRIP):
                surface.blit(strip, (x, y + top + dy), (0, 0, w, min(STRIP, height - dy)))


STRIP = 32  # rows of a big panel's strip (``PanelShape``)
STRIP_BYTES = 256 * 1024  # a panel's rows alike kept as a strip from this size (1080p tile: 1.2 MB)


def _alike(whole: pygame.Surface, top: int, bottom: int) -> tuple[int, int]:
    """Of the rows ``top`` to ``bottom`` of ``whole``, those around the middle one that are that
    row (a to b); (top, top) where the panel is small: copied in one call, not a strip's few
    (a screen of small buttons pays the calls)."""
    w = whole.get_width()
    if (bottom - top) * w * 4 < STRIP_BYTES:
        return top, top
    mid = (top + bottom) // 2

    def row(y: int) -> bytes:
        return pygame.image.tobytes(whole.subsurface((0, y, w, 1)), "RGBA")

    ref = row(mid)
    a, b = mid, mid + 1
    while a > top and row(a - 1) == ref:
        a -= 1
    while b < bottom and row(b) == ref:
        b += 1
    return a, b


class Lru(Generic[K, V]):
    """A least-recently-used map of at most ``cap`` entries."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        if len(self._items) > self.cap:
            self._items.popitem(last=False)
        return value


class SurfaceLru(Generic[K]):
    """A least-recently-used map of surfaces, capped in bytes (the cap given at each ``put``, so
    that a test may lower its owner's): the rendered texts and their pieces."""

    def __init__(self) -> None:
        self._items: OrderedDict[K, pygame.Surface] = OrderedDict()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> pygame.Surface | None:
        surf = self._items.get(key)
        if surf is not None:
            self._items.move_to_end(key)
        return surf

    def put(self, key: K, surf: pygame.Surface, cap: int) -> pygame.Surface:
        self._items[key] = surf
        self.bytes += _bytes(surf)
        while self.bytes > cap and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self.bytes -= _bytes(old)
        return surf


BAND_GAP = 8  # rows of background between two bands that are copied rather than skipped


def _bands(pixels: pygame.Surface, ground: Color) -> tuple[pygame.Rect, ...] | None:
    """The bands of rows of ``pixels`` (as wide as what is not ``ground`` in them) outside which
    every pixel is ``ground``; None where they cover most of it anyway."""
    mask = pygame.mask.from_threshold(pixels, ground, (1, 1, 1, 255))  # exactly the background
    w, h = pixels.get_size()
    if mask.count() < w * h // 4:
        return None  # most of it is not background: copied whole (and its components not sought)
    mask.invert()
    return _merged(mask.get_bounding_rects(), (w, h))


def _drawn_bands(drawn: list[pygame.Rect], block: pygame.Rect) -> tuple[pygame.Rect, ...] | None:
    """``_bands`` from what was drawn (``drawn``, on the screen) in a block at ``block`` that
    was all background before: rects that hold every pixel that is not, within the block."""
    rects = [r.clip(block).move(-block.x, -block.y) for r in drawn]
    return _merged([r for r in rects if r.width and r.height], block.size)


def _merged(rects: list[pygame.Rect], size: tuple[int, int]) -> tuple[pygame.Rect, ...] | None:
    """``rects`` gathered into bands of rows (those fewer than ``BAND_GAP`` rows apart in one);
    None where the bands cover most of ``size``: copied whole."""
    bands: list[pygame.Rect] = []
    for r in sorted(rects, key=lambda r: r.top):
        if bands and r.top <= bands[-1].bottom + BAND_GAP:
            bands[-1].union_ip(r)
        else:
            bands.append(pygame.Rect(r))
    w, h = size
    if sum(b.width * b.height for b in bands) > w * h * 3 // 4:
        return None
    return tuple(bands)


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_pitch() * surface.get_height()


def _minus(rect: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``rect`` without ``hole``: up to four rectangles."""
    cut = rect.clip(hole)
    if not cut.width or not cut.height:
        return [rect]
    out = []
    if cut.top > rect.top:
        out.append(pygame.Rect(rect.left, rect.top, rect.width, cut.top - rect.top))
    if cut.bottom < rect.bottom:
        out.append(pygame.Rect(rect.left, cut.bottom, rect.width, rect.bottom - cut.bottom))
    if cut.left > rect.left:
        out.append(pygame.Rect(rect.left, cut.top, cut.left - rect.left, cut.height))
    if cut.right < rect.right:
        out.append(pygame.Rect(cut.right, cut.top, rect.right - cut.right, cut.height))
    return out


Records = tuple[tuple[TextRecord, ...], tuple[Control, ...], tuple[tuple[pygame.Rect, pygame.Rect], ...]]


def _minus_all(rects: list[pygame.Rect], hole: pygame.Rect) -> list[pygame.Rect]:
    return [part for r in rects for part in _minus(r, hole) if part.width and part.height]


def _union(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` without those inside another (each pixel filled once where it can)."""
    rects = sorted((r for r in rects if r.width and r.height), key=lambda r: -r.width * r.height)
    out: list[pygame.Rect] = []
    for r in rects:
        if r.collidelist(out) == -1 or not any(o.contains(r) for o in out):
            out.append(r)
    return out


class Retained:
    """What the last frame left on a surface that persists between frames (the app's display):
    a frame drawn with it (``Painter(..., retained=)``) leaves alone a block (``Painter.layer``)
    whose key and place are those of a block of the last frame that nothing drew over since, and
    fills the background only where something of the last frame is gone or is drawn anew. The
    frame is the same, pixel for pixel, as one drawn on a new surface (tests/test_retained.py);
    ``Painter.changed`` says where it differs from the last one, for ``pygame.display.update``.

    Whatever draws on the surface but the painter must call ``forget``: the next frame is then
    drawn whole."""

    def __init__(self) -> None:
        self._surface: weakref.ref[pygame.Surface] | None = None
        self.size: tuple[int, int] = (0, 0)
        self.ground: tuple[Color, tuple[int, ...]] | None = None
        # Where the surface may not be the background: the last frame's blocks, texts, shapes
        # (and whatever lies outside its background, which its bars cover).
        self.stale: list[pygame.Rect] = []
        # The last frame's blocks that nothing drew over after them: their pixels are on the
        # surface as drawn, with what the painter recorded while drawing them.
        self.intact: dict[Hashable, Records] = {}
        # The last frame's groups of texts, panels and marks that shared no pixel with anything
        # else (``Painter._close``): on the background as drawn.
        self.alone: set[Hashable] = set()

    def forget(self) -> None:
        self._surface = None
        self.ground = None
        self.stale = []
        self.intact = {}
        self.alone = set()

    def holds(self, surface: pygame.Surface, color: Color, rect: pygame.Rect) -> bool:
        """Whether the surface holds the last frame drawn with this memory, on the same
        background."""
        return (
            self._surface is not None
            and self._surface() is surface
            and self.size == surface.get_size()
            and self.ground == (color, tuple(rect))
        )

    def remember(
        self,
        surface: pygame.Surface,
        ground: tuple[Color, tuple[int, ...]],
        stale: list[pygame.Rect],
        intact: dict[Hashable, Records],
        alone: set[Hashable],
    ) -> None:
        self.alone = alone
        self._surface = weakref.ref(surface)
        self.size = surface.get_size()
        self.ground = ground
        self.stale = stale
        self.intact = intact


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
        # read from the seat (tests/test_first_evening_screens.py).
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
        fonts = self.fonts
        best: tuple[str, int] | None = None
        for form in forms:
            cur = size
            while True:
                w, h = fonts.size(form, cur)
                if w <= box.width and h <= box.height:
                    break
                if cur <= floor:
                    cur = 0
                    break
                cur = max(floor, int(cur * 0.92))
            if not cur:
                continue
            # A whole name a little smaller beats a shortened one; much smaller, it does not.
            if cur >= size * 0.8 or best is None:
                if cur >= size * 0.8:
                    best = (form, cur)
                    break
                best = (form, cur)
        if best is None:
            # Nothing fits at the name size (a box too short for it): the longest form that
            # fits whole at the size the height allows, rather than initials ("F." for
            # "Frédérique A." in a short row).
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
        return self._blit(best[0], best[1], box, color, align, valign, role, "name", who)

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
ROOM = {
    "circle": 0.72,
    "square": 0.7,
    "triangle": 0.44,
    "down": 0.44,
    "diamond": 0.58,
    "hexagon": 0.78,
    "star": 0.5,
    "cross": 0.66,
    "ring": 0.62,
    "frame": 0.64,
}


def seat_number_size(fonts: Fonts, seat: int, radius: int) -> int:
    """The largest type whose number stays inside the seat's shape: the number is the key the
    player presses, so it is read from the seat, not guessed (issue 37: at ten players on the
    7" screen it was a few pixels in a fixed share of the mark)."""
    label = "10" if seat == 9 else str(seat + 1)
    half = ROOM[SHAPE_OF(seat)] * radius

    def fits(size: int) -> bool:
        return fonts.size(label, size)[0] <= 2 * half + 2 and fonts.cap(size) <= 2 * half

    # Type scales with its size: one measure at a reference size says about where the answer
    # is, and the search starts there. Searching up from 10 opened a font for every size it
    # tried (45 for a mark on the HDMI TV), and a first slap's frame paid for them (test_warm).
    ref = 100
    width, cap = fonts.size(label, ref)[0], fonts.cap(ref)
    size = max(10, int(min((2 * half + 2) * ref / max(1, width), 2 * half * ref / max(1, cap))))
    while size > 10 and not fits(size):
        size -= 1
    while fits(size + 1):
        size += 1
    return size


def _cross_around(surface: pygame.Surface, center: tuple[int, int], r: int, hole: int, color: Color) -> None:
    """The cross's four arms from ``hole`` out to ``r``: its number sits in the middle, where
    the arms would cover it."""
    cx, cy = center
    w = max(2, r // 4)
    start = min(hole + 1, r - 2)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if dx:
            x0 = cx + dx * start if dx > 0 else cx - r
            pygame.draw.rect(surface, color, (x0, cy - w, r - start, 2 * w))
        else:
            y0 = cy + dy * start if dy > 0 else cy - r
            pygame.draw.rect(surface, color, (cx - w, y0, 2 * w, r - start))


def _filled(seat: int) -> bool:
    return SHAPE_OF(seat) not in ("ring", "frame", "cross")


def SHAPE_OF(seat: int) -> str:
    return SHAPES[seat % len(SHAPES)]


def _poly(
    center: tuple[int, int], r: float, points: int, start: float, inner: float | None = None
) -> list[tuple[float, float]]:
    cx, cy = center
    out: list[tuple[float, float]] = []
    steps = points * (2 if inner else 1)
    for i in range(steps):
        radius = r if not inner or i % 2 == 0 else r * inner
        a = start + 2 * math.pi * i / steps
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return out


def draw_shape(surface: pygame.Surface, seat: int, center: tuple[int, int], r: int, color: Color) -> None:
    shape = SHAPE_OF(seat)
    cx, cy = center
    w = max(2, r // 4)
    if shape == "circle":
        pygame.draw.circle(surface, color, center, r)
    elif shape == "square":
        pygame.draw.rect(surface, color, (cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7))
    elif shape == "triangle":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 3, -math.pi / 2))
    elif shape == "down":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 3, math.pi / 2))
    elif shape == "diamond":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.1, 4, -math.pi / 2))
    elif shape == "hexagon":
        pygame.draw.polygon(surface, color, _poly(center, r, 6, 0))
    elif shape == "star":
        pygame.draw.polygon(surface, color, _poly(center, r * 1.15, 5, -math.pi / 2, 0.55))
    elif shape == "cross":
        pygame.draw.rect(surface, color, (cx - r, cy - w, 2 * r, 2 * w))
        pygame.draw.rect(surface, color, (cx - w, cy - r, 2 * w, 2 * r))
    elif shape == "ring":
        pygame.draw.circle(surface, color, center, r, width=w)
    else:
        pygame.draw.rect(surface, color, (cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7), width=w)


SMALL_SUIT = 16  # radius in pixels under which a suit is drawn four times larger, then scaled down


def draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], r: int, color: Color) -> None:
    """The four suit symbols as polygons: the typeface has no glyphs for them. A small one is
    drawn at four times its size and scaled down smoothly: drawn at its size, a spade's point
    and a club's three lobes were a few hard pixels each, the same blob (issue 37)."""
    if 0 < r < SMALL_SUIT:
        surface.blit(
            _small_suit(suit, r, (color[0], color[1], color[2])), (center[0] - r - 1, center[1] - r - 1)
        )
        return
    _draw_suit(surface, suit, center, r, color)


@functools.lru_cache(maxsize=128)
def _small_suit(suit: str, r: int, color: Color) -> pygame.Surface:
    """A small suit drawn large and scaled down, once per suit, size and colour (a card grid
    draws the same few every frame it is not copied)."""
    big = pygame.Surface((8 * r + 8, 8 * r + 8), pygame.SRCALPHA)
    _draw_suit(big, suit, (4 * r + 4, 4 * r + 4), 4 * r, color)
    return pygame.transform.smoothscale(big, (2 * r + 2, 2 * r + 2))


def _draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], r: int, color: Color) -> None:
    cx, cy = center
    if suit == "D":
        pygame.draw.polygon(
            surface, color, [(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)]
        )
    elif suit == "H":
        rr = r * 0.5
        pygame.draw.circle(surface, color, (cx - rr, cy - rr * 0.6), rr)
        pygame.draw.circle(surface, color, (cx + rr, cy - rr * 0.6), rr)
        pygame.draw.polygon(surface, color, [(cx - r, cy - rr * 0.4), (cx + r, cy - rr * 0.4), (cx, cy + r)])
    elif suit == "S":
        rr = r * 0.5
        pygame.draw.circle(surface, color, (cx - rr, cy + rr * 0.3), rr)
        pygame.draw.circle(surface, color, (cx + rr, cy + rr * 0.3), rr)
        pygame.draw.polygon(surface, color, [(cx - r, cy + rr * 0.1), (cx + r, cy + rr * 0.1), (cx, cy - r)])
        pygame.draw.polygon(surface, color, [(cx, cy), (cx - rr * 0.6, cy + r), (cx + rr * 0.6, cy + r)])
    elif suit == "C":
        # Three round lobes with notches between them (the spade is one pointed shape): at a
        # glance and at a few pixels, the notches are what tell the two apart.
        rr = r * 0.38
        for dx, dy in ((0, -r * 0.56), (-r * 0.56, r * 0.06), (r * 0.56, r * 0.06)):
            pygame.draw.circle(surface, color, (cx + dx, cy + dy), rr)
        pygame.draw.circle(surface, color, (cx, cy - r * 0.1), rr * 0.55)
        pygame.draw.polygon(
            surface, color, [(cx, cy - r * 0.1), (cx - r * 0.3, cy + r), (cx + r * 0.3, cy + r)]
        )
