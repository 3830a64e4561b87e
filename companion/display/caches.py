"""What the painter keeps between frames: fonts and rendered texts (``Fonts``), panel shapes
and layers, and the last frame on the display (``Retained``: what a frame leaves alone), each
capped in bytes."""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeAlias, TypeVar

import pygame

from companion.display import typeface

if TYPE_CHECKING:
    from companion.display.layout import Control, TextRecord
from companion.display.theme import (
    Color,
)


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


# What a retained part drew: its texts, its controls, its layers (as the painter records them).
Records: TypeAlias = (
    "tuple[tuple[TextRecord, ...], tuple[Control, ...], tuple[tuple[pygame.Rect, pygame.Rect], ...]]"
)


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
    frame is the same, pixel for pixel, as one drawn on a new surface (tests/display/test_caches_retained.py);
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
