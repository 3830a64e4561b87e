"""Les Cinq Rois, read from two metres: the most important thing on each screen is the biggest.

On game over the winners are the biggest names and every co-winner is shown as first, the
headline naming them (or counting them) whole, never cut; on the score sheet every player's
place is shown and the leader stands out. Computed from what the painter drew (``painter.texts``)
with the hardest table there is: seven players, 24-character accented names.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
from typing import Any

import pytest

from companion.display import kit
from companion.display.snapshot import SIZES, render, ui_for
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.view import build_view
from companion.table.fold import replay
from tests.display.test_audit_legibility import LONG, states
from tests.kit_checks import check_game_over

SEVEN = LONG[:7]


def tied_game(winners: int) -> CinqRoisGame:
    """Eleven rounds entered as points, after which the first ``winners`` players share the
    lowest total (10 points each) and the others have more."""
    events: list[dict[str, Any]] = [
        {"type": "new_game", "game": "cinq-rois", "players": SEVEN, "dealer": SEVEN[0]}
    ]
    for r in range(11):
        out = SEVEN[-1] if r else SEVEN[0]
        points = {p: 0 for p in SEVEN if p != out}
        if r == 0:
            points.update({p: 10 for p in SEVEN[1:winners]})
            points.update({p: 20 + i for i, p in enumerate(SEVEN[winners:])})
            points[SEVEN[-1]] = 40
        if r == 1:
            points[SEVEN[0]] = 10
        events.append({"type": "round_end", "out": out, "points": points})
    engine = replay(json.dumps(e, ensure_ascii=False) for e in events)
    assert isinstance(engine, CinqRoisGame) and engine.finished
    assert engine.winners == SEVEN[:winners], engine.totals
    return engine


def drawn(game: CinqRoisGame, screen: str, size: tuple[int, int], lang: str) -> Any:
    r = render(screen, build_view(game), size, lang, ui_for(game, lang), audit=True)
    return r.painter


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("winners", [1, 2, 5])
def test_game_over_is_the_kits_with_every_co_winner_first(winners: int, size: tuple[int, int]) -> None:
    game = tied_game(winners)
    for lang in ("fr", "en"):
        p = drawn(game, "gameover", size, lang)
        words = (
            ["gagne" if lang == "fr" else "wins"]
            if winners == 1
            else ["æquo" if lang == "fr" else "o-winners"]
        )
        check_game_over(p, game.players, set(game.winners), lang, words)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sheet_shows_every_place_and_the_leader(size: tuple[int, int]) -> None:
    for sample, game in states("cinq-rois"):
        if not game.results:
            continue
        view = build_view(game)
        for lang in ("fr", "en"):
            p = drawn(game, "sheet", size, lang)
            condensed = size == (800, 480)  # the kit's tiles
            # A place reads the same on the grid as on the tiles: "1st", never "#1".
            first = kit.ordinal(1, lang)
            texts = [rec.text for rec in p.texts]
            # Every player's place, the leaders' as first.
            for s in range(len(view.players)):
                want = kit.ordinal(view.places[s], lang)
                assert want in texts, (sample, lang, want)
            assert texts.count(first) == len(view.leaders)
            # Totals are drawn as scores, the leader's in the colour of first place, and as big
            # as any other total.
            totals = {rec.who: rec for rec in p.texts if rec.kind == "score" and rec.who}
            assert set(totals) == set(view.players), (sample, lang)
            lead = [totals[w] for w in view.leaders]
            assert len({rec.color for rec in lead}) == 1
            others = [rec for w, rec in totals.items() if w not in view.leaders]
            if not condensed:  # the whole grid; condensed, the kit's tiles frame the first
                assert all(rec.color != lead[0].color for rec in others)
            assert min(rec.cap for rec in lead) >= max(rec.cap for rec in others) - 1
            # Every player named as a name, tall enough, none cut.
            names = {rec.who for rec in p.texts if rec.kind == "name"}
            assert names == set(view.players)


def test_portrait_uses_its_height() -> None:
    """On a tall screen the sheet turns (a player a row) and the rows fill the height."""
    for _sample, game in states("cinq-rois"):
        p = drawn(game, "sheet", (720, 1280), "fr")
        names = sorted((rec for rec in p.texts if rec.kind == "name"), key=lambda r: r.rect.y)
        assert len(names) == len(game.players)
        assert names[-1].rect.bottom - names[0].rect.top > 1280 * 0.45
        assert min(rec.rect.height for rec in names) >= 0.035 * 720
