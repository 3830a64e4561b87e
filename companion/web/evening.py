"""The evening as a page (``table/evening.py``'s numbers): one self-contained HTML file with its
charts drawn as inline SVG, no script, no font, no file beside it (``companion stats --html``
writes it; the phones' viewer shows the same body in its evening tab). Every figure carries its
raw value (``data-value``), as ``companion stats --json`` gives it."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any

from companion.display.theme import SEAT_COLORS
from companion.i18n import ms, register, t
from companion.table.evening import Evening
from companion.table.evening_parts import Bars, Curves, Figure, FigureTable, Section, Spread
from companion.table.registry import stats
from companion.table.stats_seam import Sheet

STRINGS: dict[str, tuple[str, str]] = {
    "eve.title": ("La soirée", "The evening"),
    "eve.since": ("depuis {when}", "since {when}"),
    "eve.none": ("Aucune partie terminée ce soir.", "No finished game tonight."),
    "eve.games": (
        "{n} {n|partie terminée|parties terminées}",
        "{n} finished {n|game|games}",
    ),
    "eve.col.player": ("joueur", "player"),
    "eve.row": ("{n}", "{n}"),
    "eve.total": ("total", "total"),
    "eve.won": ("gagné par {names}", "won by {names}"),
    "eve.earlier": (
        "et {n} {n|partie plus tôt|parties plus tôt} ce soir (`companion export --csv` les a toutes)",
        "and {n} earlier {n|game|games} tonight (`companion export --csv` has them all)",
    ),
    "eve.history": ("L'historique de la table", "The table's history"),
    "eve.history.note": (
        "toutes les parties terminées du journal, comme `companion stats`",
        "every finished game in the journal, as `companion stats`",
    ),
    "eve.col.games": ("parties", "games"),
    "eve.col.wins": ("victoires", "wins"),
}
register(STRINGS)

STATIC = Path(__file__).parent / "static"
# The score sheets shown per game, the latest: a long evening's page stays a phone's page.
SHEETS_SHOWN = 8
DOTS_UP_TO = 40  # a curve marks each game with a dot up to this many games


def css() -> str:
    """The evening's style, one file for both: the phones link it, the saved page inlines it."""
    return (STATIC / "evening.css").read_text(encoding="utf-8")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _hex(rgb: tuple[int, ...]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def _colours(players: list[str]) -> dict[str, str]:
    """A player's colour all evening: their place in the order they first sat tonight."""
    return {p: _hex(SEAT_COLORS[i % len(SEAT_COLORS)]) for i, p in enumerate(players)}


def _dot(colour: str) -> str:
    """A player's colour as a small disc: an SVG fill, which the phones' pages allow (an inline
    style they do not)."""
    return (
        '<svg class="dot" viewBox="0 0 10 10" width="12" height="12">'
        f'<circle cx="5" cy="5" r="5" fill="{colour}"/></svg>'
    )


def _fig(player: str, figure: str, value: Any, text: str, cls: str = "") -> str:
    raw = "" if value is None else str(value)
    c = f' class="{cls}"' if cls else ""
    return f'<td{c} data-player="{_e(player)}" data-figure="{figure}" data-value="{_e(raw)}">{_e(text)}</td>'


def _ms(us: int | None, lang: str) -> str:
    return "—" if us is None else ms(us, lang)


def _spark(counts: list[int], colour: str) -> str:
    """A player's delays as seven small bars (the bins of ``DELAY_BINS_MS``)."""
    top = max(counts) or 1
    w, h, gap = 12, 30, 3
    bars = "".join(
        f'<rect x="{i * (w + gap)}" y="{h - max(1, round(h * c / top))}" width="{w}" '
        f'height="{max(1, round(h * c / top))}" fill="{colour if c else "#3a3f47"}"><title>{c}</title></rect>'
        for i, c in enumerate(counts)
    )
    width = len(counts) * (w + gap) - gap
    return f'<svg class="spark" viewBox="0 0 {width} {h}" width="{width}" height="{h}">{bars}</svg>'


def _figure(p: str, cell: Figure | Spread, colour: str) -> str:
    if isinstance(cell, Figure):
        return _fig(p, cell.figure, cell.value, cell.text)
    counts = list(cell.counts)
    return (
        f'<td data-player="{_e(p)}" data-figure="{cell.figure}" data-value="{",".join(map(str, counts))}">'
        + _spark(counts, colour)
        + "</td>"
    )


def _figure_table(sec: FigureTable, colours: dict[str, str], lang: str) -> str:
    rows = [
        "<tr>"
        f'<td class="who">{_dot(colours[p])}{_e(p)}</td>'
        + "".join(_figure(p, cell, colours[p]) for cell in cells)
        + "</tr>"
        for p, cells in sec.rows
    ]
    head = "".join(f"<th>{_e(t(k, lang))}</th>" for k in sec.heads)
    return (
        f'<section class="{sec.name}"><h2>{_e(t(sec.title, lang))}</h2>'
        f'<p class="note">{_e(t(sec.note, lang))}</p>'
        f'<div class="scroll"><table><tr>{head}</tr>{"".join(rows)}</table></div></section>'
    )


def _curves(curve: Curves, colours: dict[str, str], lang: str) -> str:
    w, h, left, bottom, top_pad = 340, 190, 34, 20, 8
    top = max((v for run in curve.totals.values() for v in run), default=0) or 1
    span = max(1, curve.games - 1)

    def x(i: int) -> float:
        return left + (w - left - 8) * (i / span if curve.games > 1 else 0.5)

    def y(v: int) -> float:
        return top_pad + (h - bottom - top_pad) * (1 - v / top)

    grid = "".join(
        f'<line x1="{left}" x2="{w - 4}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#2b2f36"/>'
        f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>'
        for v in sorted({0, top // 2, top})
    )
    # A label every game on a short evening, some ten along a long one (a bench's 667 games).
    every = max(1, -(-curve.games // 10))
    ticks = "".join(
        f'<text x="{x(i):.1f}" y="{h - 4}" text-anchor="middle">{i + 1}</text>'
        for i in range(0, curve.games, every)
    )
    lines = []
    legend = []
    for p, run in curve.totals.items():
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(run))
        lines.append(
            f'<polyline points="{pts}" fill="none" stroke="{colours[p]}" stroke-width="2.5" '
            f'data-player="{_e(p)}" data-figure="{curve.figure}" data-value="{",".join(map(str, run))}"/>'
        )
        if len(run) <= DOTS_UP_TO:  # each game a dot, while the dots stay apart
            for i, v in enumerate(run):
                lines.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colours[p]}"/>')
        legend.append(
            f"<li>{_dot(colours[p])}{_e(p)} "
            f'<b data-player="{_e(p)}" data-figure="{curve.total_figure}" '
            f'data-value="{run[-1]}">{run[-1]}</b></li>'
        )
    return (
        f'<section class="{curve.name}"><h2>{_e(t(curve.title, lang))}</h2>'
        f'<p class="note">{_e(t(curve.note, lang))}</p>'
        f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img">{grid}{ticks}{"".join(lines)}</svg>'
        f'<ul class="legend">{"".join(legend)}</ul></section>'
    )


def _bars(sec: Bars, colours: dict[str, str], lang: str) -> str:
    top = max(n for _, n in sec.rows) or 1
    bar_h, gap, name_w, w = 22, 6, 110, 340
    items = []
    for i, (p, n) in enumerate(sec.rows):
        yy = i * (bar_h + gap)
        length = (w - name_w - 40) * n / top
        items.append(
            f'<text x="{name_w - 6}" y="{yy + 15}" text-anchor="end">{_e(p)}</text>'
            f'<rect x="{name_w}" y="{yy}" width="{max(1.0, length):.1f}" height="{bar_h}" rx="3" '
            f'fill="{colours[p]}"/>'
            f'<text x="{name_w + length + 6:.1f}" y="{yy + 15}" data-player="{_e(p)}" '
            f'data-figure="{sec.figure}" data-value="{n}">{n}</text>'
        )
    h = len(sec.rows) * (bar_h + gap)
    return (
        f'<section class="{sec.name}"><h2>{_e(t(sec.title, lang))}</h2>'
        f'<p class="note">{_e(t(sec.note, lang))}</p>'
        f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img">{"".join(items)}</svg></section>'
    )


def _section(sec: Section, colours: dict[str, str], lang: str) -> str:
    if isinstance(sec, FigureTable):
        return _figure_table(sec, colours, lang)
    if isinstance(sec, Curves):
        return _curves(sec, colours, lang)
    return _bars(sec, colours, lang)


def _sheets(ev: Evening, game: str, sheet: Sheet, lang: str) -> str:
    games = [g for g in ev.sheets if g.game == game]
    if not games:
        return ""
    earlier = max(0, len(games) - SHEETS_SHOWN)
    games = games[earlier:]
    parts = [f'<section class="{sheet.name}"><h2>{_e(t(sheet.title, lang))}</h2>']
    for g in games:
        when = time.strftime("%H:%M", time.localtime(g.created_ns / 1e9))
        state = t("eve.won", lang, names=", ".join(g.winners))
        head = "<th></th>" + "".join(f"<th>{_e(p)}</th>" for p in g.players)
        rows = "".join(
            f"<tr><td>{i}</td>" + "".join(f"<td>{'' if v is None else v}</td>" for v in row) + "</tr>"
            for i, row in enumerate(g.rows, start=1)
        )
        totals = (
            f'<tr class="totals"><td>{_e(t("eve.total", lang))}</td>'
            + "".join(
                _fig(p, f"{game}.total", v, str(v), "win" if p in g.winners else "")
                for p, v in zip(g.players, g.totals, strict=True)
            )
            + "</tr>"
        )
        parts.append(
            f'<p class="note">{_e(when)} · {_e(state)}</p>'
            f'<div class="scroll"><table class="sheet" data-game="{_e(g.id)}"><tr>{head}</tr>{rows}{totals}'
            "</table></div>"
        )
    if earlier:
        parts.append(f'<p class="note">{_e(t("eve.earlier", lang, n=earlier))}</p>')
    parts.append("</section>")
    return "".join(parts)


def _history(ev: Evening, lang: str) -> str:
    if not ev.history:
        return ""
    ranked = sorted(ev.history.values(), key=lambda s: (-s.wins, s.games, s.player))
    # Every player has the same games' parts (table/stats.py's ``new_player``).
    games = list(ranked[0].parts)
    keys = ["eve.col.player", "eve.col.games", "eve.col.wins"]
    for game in games:
        keys += stats(game).history_heads()
    head = "".join(f"<th>{_e(t(k, lang))}</th>" for k in keys)
    rows = []
    for s in ranked:
        p = s.player
        own = (f for game in games for f in s.parts[game].figures(lang))
        rows.append(
            f'<tr><td class="who">{_e(p)}</td>'
            + _fig(p, "games", s.games, str(s.games))
            + _fig(p, "wins", s.wins, str(s.wins))
            + "".join(_fig(p, f.figure, f.value, f.text) for f in own)
            + "</tr>"
        )
    return (
        f'<section class="history"><h2>{_e(t("eve.history", lang))}</h2>'
        f'<p class="note">{_e(t("eve.history.note", lang))}</p>'
        f'<div class="scroll"><table>{"<tr>" + head + "</tr>"}{"".join(rows)}</table></div></section>'
    )


def body(ev: Evening, lang: str) -> str:
    """The evening's sections (the page's body, and the phones' evening tab): each game's own,
    then its score sheets, in the registry's order, then the table's history."""
    players = list(ev.tonight)
    for g in ev.games:
        players += [p for p in g.players if p not in players]
    colours = _colours(players)
    when = time.strftime("%d/%m/%Y %H:%M", time.localtime(ev.since_ns / 1e9)) if ev.games else ""
    finished = sum(ev.counts().values())
    sub = t("eve.games", lang, n=finished) + (" · " + t("eve.since", lang, when=when) if when else "")
    out = [
        f'<h1>{_e(t("eve.title", lang))}</h1><p class="sub" data-figure="finished" data-value="{finished}">'
        f"{_e(sub)}</p>"
    ]
    if not finished:
        out.append(f'<p class="note">{_e(t("eve.none", lang))}</p>')
    for game, part in ev.parts.items():
        out += [_section(sec, colours, lang) for sec in part.sections(lang)]
        sheet = stats(game).sheet
        if sheet is not None:
            out.append(_sheets(ev, game, sheet, lang))
    out.append(_history(ev, lang))
    return "".join(out)


def page(ev: Evening, lang: str) -> str:
    """The whole page: one file, nothing to fetch, readable offline years later."""
    title = t("eve.title", lang)
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{css()}</style></head>"
        f'<body class="evening"><main>{body(ev, lang)}</main></body></html>\n'
    )
