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
from companion.i18n import ms, number, register, t
from companion.table.evening import Evening, histogram

STRINGS: dict[str, tuple[str, str]] = {
    "eve.title": ("La soirée", "The evening"),
    "eve.since": ("depuis {when}", "since {when}"),
    "eve.none": ("Aucune partie terminée ce soir.", "No finished game tonight."),
    "eve.games": (
        "{n} {n|partie terminée|parties terminées}",
        "{n} finished {n|game|games}",
    ),
    "eve.react": ("Temps de réaction ce soir", "Reaction times tonight"),
    "eve.react.note": (
        "écart sur la première tape, quand ce n'était pas la leur ; barres : moins de 10 ms, "
        "10-20, 20-50, 50-100, 100-200, 200-500, plus",
        "gap behind the first slap, when it was not theirs; bars: under 10 ms, 10-20, 20-50, "
        "50-100, 100-200, 200-500, more",
    ),
    "eve.col.player": ("joueur", "player"),
    "eve.col.median": ("médiane", "median"),
    "eve.col.best": ("meilleure", "best"),
    "eve.col.slaps": ("tapes", "slaps"),
    "eve.col.spread": ("répartition", "spread"),
    "eve.kilos": ("Les kilos de la soirée", "Kilos over the evening"),
    "eve.kilos.note": (
        "kilos additionnés partie après partie (Kilo de merde)",
        "kilos added up game after game (Kilo de merde)",
    ),
    "eve.draws": ("Qui a le plus pioché", "Who drew most"),
    "eve.draws.note": (
        "cartes piochées pour une tape perdue ou une fausse tape",
        "cards drawn for a slap lost or a false slap",
    ),
    "eve.cinq": ("Les Cinq Rois, donne par donne", "Les Cinq Rois, round by round"),
    "eve.treize": ("13 feuilles, partie par partie", "13 feuilles, game by game"),
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
    "eve.col.kilos": ("kilos/partie", "kilos/game"),
    "eve.col.draws": ("pioches", "draws"),
    "eve.col.false": ("fausses", "false"),
}
register(STRINGS)

STATIC = Path(__file__).parent / "static"
# The score sheets shown per game, the latest: a long evening's page stays a phone's page.
SHEETS_SHOWN = 8
DOTS_UP_TO = 40  # the kilos chart marks each game with a dot up to this many games


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


def _reactions(ev: Evening, colours: dict[str, str], lang: str) -> str:
    rows = []
    for p, s in ev.tonight.items():
        if not s.slaps:
            continue
        counts = histogram(s.delays_us)
        rows.append(
            "<tr>"
            f'<td class="who">{_dot(colours[p])}{_e(p)}</td>'
            + _fig(p, "median_delay_us", s.median_delay_us, _ms(s.median_delay_us, lang))
            + _fig(p, "best_delay_us", s.best_delay_us, _ms(s.best_delay_us, lang))
            + _fig(p, "slaps", s.slaps, str(s.slaps))
            + f'<td data-player="{_e(p)}" data-figure="delays" data-value="{",".join(map(str, counts))}">'
            + _spark(counts, colours[p])
            + "</td></tr>"
        )
    if not rows:
        return ""
    head = "".join(
        f"<th>{_e(t(k, lang))}</th>"
        for k in ("eve.col.player", "eve.col.median", "eve.col.best", "eve.col.slaps", "eve.col.spread")
    )
    return (
        f'<section class="react"><h2>{_e(t("eve.react", lang))}</h2>'
        f'<p class="note">{_e(t("eve.react.note", lang))}</p>'
        f'<div class="scroll"><table><tr>{head}</tr>{"".join(rows)}</table></div></section>'
    )


def _kilos_chart(ev: Evening, colours: dict[str, str], lang: str) -> str:
    curve = ev.kilos
    if curve.games == 0:
        return ""
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
            f'data-player="{_e(p)}" data-figure="kilos" data-value="{",".join(map(str, run))}"/>'
        )
        if len(run) <= DOTS_UP_TO:  # each game a dot, while the dots stay apart
            for i, v in enumerate(run):
                lines.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colours[p]}"/>')
        legend.append(
            f"<li>{_dot(colours[p])}{_e(p)} "
            f'<b data-player="{_e(p)}" data-figure="kilos_total" data-value="{run[-1]}">{run[-1]}</b></li>'
        )
    return (
        f'<section class="kilos"><h2>{_e(t("eve.kilos", lang))}</h2>'
        f'<p class="note">{_e(t("eve.kilos.note", lang))}</p>'
        f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img">{grid}{ticks}{"".join(lines)}</svg>'
        f'<ul class="legend">{"".join(legend)}</ul></section>'
    )


def _draws(ev: Evening, colours: dict[str, str], lang: str) -> str:
    rows = [(p, n) for p, n in ev.draws() if ev.tonight[p].kilo_games]
    if not rows:
        return ""
    top = max(n for _, n in rows) or 1
    bar_h, gap, name_w, w = 22, 6, 110, 340
    items = []
    for i, (p, n) in enumerate(rows):
        yy = i * (bar_h + gap)
        length = (w - name_w - 40) * n / top
        items.append(
            f'<text x="{name_w - 6}" y="{yy + 15}" text-anchor="end">{_e(p)}</text>'
            f'<rect x="{name_w}" y="{yy}" width="{max(1.0, length):.1f}" height="{bar_h}" rx="3" '
            f'fill="{colours[p]}"/>'
            f'<text x="{name_w + length + 6:.1f}" y="{yy + 15}" data-player="{_e(p)}" data-figure="draws" '
            f'data-value="{n}">{n}</text>'
        )
    h = len(rows) * (bar_h + gap)
    return (
        f'<section class="draws"><h2>{_e(t("eve.draws", lang))}</h2>'
        f'<p class="note">{_e(t("eve.draws.note", lang))}</p>'
        f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img">{"".join(items)}</svg></section>'
    )


def _sheets(ev: Evening, game: str, lang: str) -> str:
    games = [g for g in ev.sheets if g.game == game]
    if not games:
        return ""
    earlier = max(0, len(games) - SHEETS_SHOWN)
    games = games[earlier:]
    key = "eve.cinq" if game == "cinq-rois" else "eve.treize"
    parts = [f'<section class="{"cinq" if game == "cinq-rois" else "treize"}"><h2>{_e(t(key, lang))}</h2>']
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
    keys = (
        "eve.col.player",
        "eve.col.games",
        "eve.col.wins",
        "eve.col.kilos",
        "eve.col.draws",
        "eve.col.false",
        "eve.col.median",
        "eve.col.best",
    )
    head = "".join(f"<th>{_e(t(k, lang))}</th>" for k in keys)
    rows = []
    for s in ranked:
        p = s.player
        avg = number(s.kilos / s.kilo_games, ".1f", lang) if s.kilo_games else "—"
        rows.append(
            f'<tr><td class="who">{_e(p)}</td>'
            + _fig(p, "games", s.games, str(s.games))
            + _fig(p, "wins", s.wins, str(s.wins))
            + _fig(p, "kilos", s.kilos, avg)
            + _fig(p, "slap_losses", s.slap_losses, str(s.slap_losses))
            + _fig(p, "false_slaps", s.false_slaps, str(s.false_slaps))
            + _fig(p, "median_delay_us", s.median_delay_us, _ms(s.median_delay_us, lang))
            + _fig(p, "best_delay_us", s.best_delay_us, _ms(s.best_delay_us, lang))
            + "</tr>"
        )
    return (
        f'<section class="history"><h2>{_e(t("eve.history", lang))}</h2>'
        f'<p class="note">{_e(t("eve.history.note", lang))}</p>'
        f'<div class="scroll"><table>{"<tr>" + head + "</tr>"}{"".join(rows)}</table></div></section>'
    )


def body(ev: Evening, lang: str) -> str:
    """The evening's sections (the page's body, and the phones' evening tab)."""
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
    out += [
        _reactions(ev, {p: colours[p] for p in players}, lang),
        _kilos_chart(ev, colours, lang),
        _draws(ev, colours, lang),
        _sheets(ev, "cinq-rois", lang),
        _sheets(ev, "treize", lang),
        _history(ev, lang),
    ]
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
