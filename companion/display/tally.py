"""The players' numbers on the table screen: the "stats" screen (a small chart per player) and
the evening's running tally under the game-over screen. Generic: any game's records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from companion.display.layout import Painter
from companion.display.screens import grid, not_applicable, split
from companion.display.state import Ui
from companion.display.theme import ACCENT, BAD, FG, GOOD, MUTED, NEAR, PANEL_HI, SMALL, WARN

Rect = pygame.Rect
SHOWN = 10  # players on the stats screen, most games first


@dataclass(frozen=True)
class Tally:
    players: tuple[Any, ...]  # PlayerStats, most games first
    evening: tuple[Any, ...]  # PlayerStats of this evening's finished games, most wins first
    evening_games: int


def load_tally(journal: Any, now_ns: int | None = None) -> Tally | None:
    """The numbers from an open journal; None if it cannot be read (the screen then says so,
    the game goes on)."""
    from companion.table.stats import evening_start, player_stats, records

    try:
        games = records(journal, cache_dir=getattr(journal, "data_dir", None))
    except Exception:
        return None
    everyone = player_stats(games)
    since = evening_start(games, now_ns)
    tonight = [g for g in games if g.created_ns >= since and g.finished and g.error is None]
    evening = player_stats(tonight)
    return Tally(
        players=tuple(sorted(everyone.values(), key=lambda s: (-s.games, s.player))[:SHOWN]),
        evening=tuple(sorted(evening.values(), key=lambda s: (-s.wins, s.kilos, s.player))),
        evening_games=len(tonight),
    )


def _ms(us: int | None) -> str:
    return "—" if us is None else f"{us / 1000:.0f} ms"


def _bar(p: Painter, box: Rect, label: str, value: float, top: float, shown: str,
         color: tuple[int, int, int]) -> None:
    label_w = box.width * 2 // 5
    value_w = box.width // 4
    p.text(label, Rect(box.x, box.y, label_w - p.px(4), box.height), p.font(20), MUTED,
           align="left", role="small", min_size=p.font(14))
    track = Rect(box.x + label_w, box.y + box.height // 4, box.width - label_w - value_w,
                 box.height // 2)
    pygame.draw.rect(p.surface, PANEL_HI, track, border_radius=p.px(3))
    if top > 0 and value > 0:
        filled = Rect(track.x, track.y, max(p.px(3), int(track.width * min(1.0, value / top))),
                      track.height)
        pygame.draw.rect(p.surface, color, filled, border_radius=p.px(3))
    p.text(shown, Rect(track.right + p.px(4), box.y, value_w - p.px(4), box.height), p.font(20),
           FG, align="left", role="small", min_size=p.font(14))


def draw_stats(p: Painter, v: Any, ui: Ui, area: Rect) -> None:
    """One chart per player: games won, and for Kilo de merde their slaps."""
    fr = ui.lang == "fr"
    tally: Tally | None = ui.tally
    if tally is None or not tally.players:
        not_applicable(p, area, "Aucune partie terminée pour l'instant\u202f: les chiffres viendront."
                       if fr else "No finished game yet: the numbers will come.")
        return
    players = tally.players
    slowest = max((s.median_delay_us or 0 for s in players), default=0)
    most_lost = max((s.slap_losses / s.kilo_games for s in players if s.kilo_games), default=0)
    cols = 1 if p.scale.portrait else (2 if len(players) <= 4 else (3 if len(players) <= 9
                                                                    else 4))
    for cell, s in zip(grid(area, len(players), cols, p.px(8)), players, strict=False):
        p.panel(cell)
        inner = cell.inflate(-p.px(12), -p.px(8))
        rows = 4 if s.kilo_games else 1
        head, body = split(inner, [1, rows * 0.8], gap=p.px(2))
        won = f"{s.wins}/{s.games}"
        escape = s.closest_escapes(1)
        name_box = head
        if escape:
            name_box, esc_box = split(head, [1.6, 1], vertical=False, gap=p.px(4))
            shown = f"{escape[0] / 1000:.1f} ms"
            p.text(f"au ras\u202f: {shown}" if fr else f"closest: {shown}", esc_box, p.font(20),
                   MUTED, align="right", role="small", min_size=p.font(14))
        p.text(f"{s.player} · {won}", name_box, p.font(NEAR), ACCENT, align="left",
               min_size=p.font(18))
        lines = split(body, [1] * rows, gap=p.px(2))
        _bar(p, lines[0], "victoires" if fr else "wins", s.wins, s.games,
             f"{100 * s.wins // max(1, s.games)} %", GOOD)
        if s.kilo_games:
            lost = s.slap_losses / s.kilo_games
            _bar(p, lines[1], "réaction" if fr else "reaction", s.median_delay_us or 0, slowest,
                 _ms(s.median_delay_us), WARN)
            _bar(p, lines[2], "pioches/partie" if fr else "draws/game", lost, most_lost,
                 f"{lost:.1f}", BAD)
            _bar(p, lines[3], "fausses tapes" if fr else "false slaps", s.false_slaps,
                 max(1, max(x.false_slaps for x in players)), f"{s.false_slaps}", MUTED)


def draw_evening(p: Painter, ui: Ui, band: Rect) -> None:
    """The evening so far, in one band: each player's wins (and kilos at Kilo de merde)."""
    tally: Tally | None = ui.tally
    if tally is None or not tally.evening:
        return
    fr = ui.lang == "fr"
    p.panel(band)
    inner = band.inflate(-p.px(12), -p.px(6))
    title_w = inner.width // 5
    title = (f"Ce soir · {tally.evening_games} parties" if fr
             else f"Tonight · {tally.evening_games} games")
    p.text(title, Rect(inner.x, inner.y, title_w, inner.height), p.font(SMALL), WARN,
           align="left", min_size=p.font(14))
    rest = Rect(inner.x + title_w, inner.y, inner.width - title_w, inner.height)
    shown = tally.evening[:5]
    for cell, s in zip(split(rest, [1] * len(shown), vertical=False, gap=p.px(6)), shown,
                       strict=True):
        top, bottom = split(cell, [1, 1])
        wins = (f"{s.wins} vict." if fr else f"{s.wins} won")
        kilos = f" · {s.kilos} kg" if s.kilo_games else ""
        p.text(s.player, top, p.font(SMALL), FG, min_size=p.font(14))
        p.text(f"{wins}{kilos}", bottom, p.font(20), MUTED, role="small", min_size=p.font(14))
