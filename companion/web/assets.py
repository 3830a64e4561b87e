"""What the phones' pages are served from the package (the table may have no internet): the
static files, the table's typeface, and its colour roles as CSS."""

from __future__ import annotations

import functools
from pathlib import Path

STATIC = Path(__file__).parent / "static"


@functools.cache
def fonts() -> dict[str, Path]:
    """The table's typeface (companion/display/typeface.py) by file name, served from the
    package the table draws with: the pages work without internet and read as the table's
    screen does. Looked up at the first page that needs it, not at import."""
    from fontpkg_atkinson_hyperlegible import ROOT

    return {f.name: f for f in (Path(ROOT) / "files").glob("AtkinsonHyperlegible-*.ttf")}


def theme_css() -> str:
    """The table's colour roles (companion/display/theme.py) as CSS variables, and its typeface:
    the pages share the screen's meaning of each colour (a red is who draws, never a seat)."""
    from companion.display import theme

    def hexa(c: tuple[int, int, int]) -> str:
        return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"

    roles = {
        "bg": theme.BG,
        "panel": theme.PANEL,
        "panel-hi": theme.PANEL_HI,
        "fg": theme.FG,
        "muted": theme.MUTED,
        "disabled": theme.DISABLED,
        "accent": theme.ACCENT,
        "good": theme.GOOD,
        "bad": theme.BAD,
        "warn": theme.WARN,
    }
    faces = "".join(
        f'@font-face {{ font-family: "Atkinson Hyperlegible"; src: url("/font/{name}") format("truetype"); '
        f"font-weight: {'bold' if 'Bold' in name else 'normal'}; "
        f"font-style: {'italic' if 'Italic' in name else 'normal'}; font-display: swap; }}\n"
        for name in sorted(fonts())
    )
    variables = " ".join(f"--{role}: {hexa(colour)};" for role, colour in roles.items())
    return f"/* Generated from companion/display/theme.py. */\n{faces}:root {{ {variables} }}\n"
