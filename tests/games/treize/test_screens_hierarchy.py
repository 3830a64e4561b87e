"""13 feuilles: the most important thing on a screen is the biggest (issue 11, point 6).

Computed from what the painter drew (``Painter.texts``), at every size and in both languages,
with long accented names: on game over the winners, every co-winner as first, never cut; on the
scores screen the race to 20 readable from the far end of the table.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
from typing import Any

import pytest

from companion.display import audit
from companion.display.layout import NAME_SHARE, Painter, TextRecord
from companion.display.snapshot import SIZES, render, ui_for, view_of
from companion.games.treize.rules import TreizeGame
from companion.games.treize.samples import finished, result
from companion.table.fold import replay
from tests.display.test_audit_legibility import LONG, long_names
from tests.kit_checks import check_game_over

SIX = LONG[:6]


def _end(winner: int, left: dict[int, int]) -> dict[str, Any]:
    return {"type": "game_end", "winner": SIX[winner], "left": {SIX[i]: n for i, n in left.items()}}


def tied_match(winners: int) -> TreizeGame:
    """A six-player advanced match entered without plays that ends with ``winners`` (2 or 5)
    players tied on the lowest total."""
    events: list[dict[str, Any]] = [
        {"type": "new_game", "game": "treize", "players": SIX, "variant": "advanced", "starter": SIX[0]},
        {"type": "pass", "player": SIX[1]},
    ]
    if winners == 5:  # 3 points each for the first five, 27 for the sixth
        events += [
            _end(0, {1: 1, 2: 1, 3: 1, 4: 1, 5: 9}),
            _end(1, {0: 1, 2: 2, 3: 1, 4: 1, 5: 9}),
            _end(2, {0: 2, 1: 2, 3: 1, 4: 1, 5: 9}),
        ]
    else:  # the first two on 3, the others 18 and more
        events += [
            _end(0, {1: 2, 2: 9, 3: 9, 4: 9, 5: 9}),
            _end(1, {0: 2, 2: 9, 3: 9, 4: 9, 5: 9}),
            _end(2, {0: 1, 1: 1, 3: 9, 4: 9, 5: 9}),
        ]
    game = replay(json.dumps(e, ensure_ascii=False) for e in events)
    assert isinstance(game, TreizeGame) and game.finished
    assert len(game.winners()) == winners
    return game


def _replayed(events: list[dict[str, Any]]) -> TreizeGame:
    game = replay(json.dumps(e, ensure_ascii=False) for e in long_names(events))
    assert isinstance(game, TreizeGame)
    return game


def _draw(screen: str, game: TreizeGame, size: tuple[int, int], lang: str) -> Painter:
    r = render(screen, view_of(game), size, lang, ui_for(game, lang), audit=True)
    painter = r.painter
    assert isinstance(painter, Painter)
    problems = audit.problems(painter, game.players)
    assert not problems, "\n".join(problems)
    return painter


def _name_line(p: Painter) -> float:
    return NAME_SHARE * min(p.screen.width, p.screen.height)


def line_of(p: Any, rec: TextRecord) -> int:
    """The line a text's size makes (a number alone is drawn on the figures' own height)."""
    return int(p.fonts.size("Ég", rec.size)[1])


GAMEOVERS = {
    "sample": lambda: _replayed(finished()),
    "two tied": lambda: tied_match(2),
    "five tied": lambda: tied_match(5),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("case", list(GAMEOVERS))
def test_gameover_is_the_kits(case: str, size: tuple[int, int], lang: str) -> None:
    game = GAMEOVERS[case]()
    winners = set(game.winners())
    p = _draw("gameover", game, size, lang)
    # What they won says how many share it when they tie, and with how many points.
    words = [str(dict(game.standings())[next(iter(winners))])]
    if len(winners) > 1:
        words.append(str(len(winners)))
    check_game_over(p, game.players, winners, lang, words)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("sample", ["result", "finished"])
def test_scores_show_the_race_to_20(sample: str, size: tuple[int, int], lang: str) -> None:
    game = _replayed(result() if sample == "result" else finished())
    p = _draw("scores", game, size, lang)
    need = _name_line(p)
    totals = dict(game.standings())
    target = str(20)
    for name in game.players:
        drawn = [rec for rec in p.texts if rec.who == name]
        shown = [rec for rec in drawn if rec.kind == "name"]
        assert shown, f"{name} has no row on the score sheet"
        # The total: a score, as tall as a name at least, no smaller than the name beside it
        # nor than any game's points, red once it reached the target.
        total = [
            rec
            for rec in drawn
            if rec.kind == "score" and rec.text == str(totals[name]) and rec.rect.right > shown[0].rect.right
        ]
        assert total, f"{name}'s total {totals[name]} is not on the sheet"
        big = max(total, key=lambda rec: rec.size)
        assert line_of(p, big) >= need - 0.5
        assert big.cap >= shown[0].cap
        assert all(big.size >= rec.size for rec in drawn if rec.kind == "score")
        # On the grid the total is red; on the kit's tiles (the 7" screen) its tile is framed red.
        tile = min((r for r, _ in p.boxes if r.contains(shown[0].rect)), key=lambda r: r.width * r.height)
        framed = p.surface.get_at((tile.x + 1, tile.centery))[:3] == (255, 105, 97)
        assert (big.color == (255, 105, 97) or framed) == (totals[name] >= 20)
    if size == (800, 480):
        # The 7" screen: the kit's tiles at any table, the race a band over them naming its
        # target at read type (its chart's axes would fall under read type: tests/review/test_findings23.py).
        band = [rec for rec in p.texts if target in rec.text and len(rec.text) > 3]
        assert band and all(line_of(p, rec) >= need - 0.5 for rec in band)
        assert not [rec for rec in p.texts if rec.text == target and rec.kind != "score"]  # no chart
        return
    # The finish line is labelled, in red, at least as tall as a name.
    line = [rec for rec in p.texts if rec.text == target and rec.color == (255, 105, 97)]
    assert line and line_of(p, line[0]) >= need - 0.5
    # No text of the race (the axes included) is tiny: three quarters of a name line at least.
    chart_title = next(
        rec for rec in p.texts if target in rec.text and rec.kind == "text" and len(rec.text) > 3
    )
    below = [
        rec
        for rec in p.texts
        if rec.rect.top > chart_title.rect.bottom
        and rec.rect.left >= chart_title.box.left - p.scale.px(40)
        and rec.rect.bottom < p.screen.height - p.scale.px(62)
    ]
    assert below
    for rec in below:
        assert line_of(p, rec) >= 0.75 * need - 0.5, (rec.text, line_of(p, rec), need)
