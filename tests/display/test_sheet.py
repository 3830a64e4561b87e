"""The kit's score sheet (``display/sheet.py``), which Les Cinq Rois' sheet and 13 feuilles'
scores compose: issue 23, build point 5, "the Cinq Rois sheet readable at 800x480 with 7
players (totals in far type, past rounds condensed, the current round framed without cutting
its label)", and the grid where the rounds do not all fit."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display import kit
from companion.display.blocks import rank_label
from companion.display.layout import Painter
from companion.display.snapshot import render, ui_for, view_of
from companion.display.theme import ACCENT
from companion.games.cinq_rois.solver import bonus_rank
from tests.display.test_audit_legibility import states


def _longest(game: str) -> tuple[str, object]:
    table = states(game)
    most = max(len(e.players) for _, e in table)
    return next((s, e) for s, e in table if len(e.players) == most and e.results)  # type: ignore[attr-defined]


def _draw(game: str, screen: str, size: tuple[int, int], lang: str) -> tuple[Painter, object]:
    _sample, engine = _longest(game) if game == "cinq-rois" else states(game)[-1]
    r = render(screen, view_of(engine), size, lang, ui_for(engine, lang), audit=True)
    assert isinstance(r.painter, Painter)
    return r.painter, view_of(engine)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_seven_players_on_the_seven_inch_screen(lang: str) -> None:
    p, v = _draw("cinq-rois", "sheet", (800, 480), lang)
    assert len(v.players) == 7  # type: ignore[attr-defined]
    far_cap = p.fonts.cap(kit.far_size(p))
    totals = {rec.who: rec for rec in p.texts if rec.kind == "score" and rec.who}
    assert set(totals) == set(v.players)  # type: ignore[attr-defined]
    for who, rec in totals.items():  # totals in far type, whole, right where they were put
        assert rec.cap >= far_cap - 0.5, (who, rec.cap, far_cap)
        assert rec.text == str(v.totals[v.players.index(who)]) and not rec.cut  # type: ignore[attr-defined]
    # Past rounds condensed under the names: the last rounds' figures are there.
    last = v.history[-1]  # type: ignore[attr-defined]
    shown = [rec.text for rec in p.texts if rec.kind == "text"]
    assert sum(str(x) in shown for x in last.scores) >= len(set(map(str, last.scores)))
    # The round to play framed, its label whole.
    label = [rec for rec in p.texts if rec.color == ACCENT and str(v.round) in rec.text]  # type: ignore[attr-defined]
    assert label and all(not rec.cut and rec.box.contains(rec.rect) for rec in label)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_where_the_rounds_do_not_fit_the_oldest_are_added_up(lang: str) -> None:
    """On a tall screen seven players' ten rounds do not fit beside the names: one column adds
    up the oldest (labelled first–last), the newest stand alone, the round to play is framed
    with its label whole, and each row still adds up to its total."""
    p, v = _draw("cinq-rois", "sheet", (720, 1280), lang)
    history = v.history  # type: ignore[attr-defined]
    heads = [rec for rec in p.texts if rec.role == "small" and "–" in rec.text]
    assert len(heads) == 1, [rec.text for rec in p.texts if rec.role == "small"]
    first, last = heads[0].text.split("–")
    assert first == rank_label(bonus_rank(1).value, lang)
    merged = [rank_label(bonus_rank(r).value, lang) for r in range(1, len(history) + 1)].index(last) + 1
    assert 1 < merged < len(history)
    now = rank_label(bonus_rank(v.round).value, lang)  # type: ignore[attr-defined]
    framed = [rec for rec in p.texts if rec.color == ACCENT and rec.text == now]
    assert framed and not framed[0].cut and framed[0].box.contains(framed[0].rect)
    # Under the summed column, each player's sum of those rounds; then the rounds after it.
    column = heads[0].box  # the column's cells start where its label's box does
    for s, who in enumerate(v.players):  # type: ignore[attr-defined]
        name = next(rec for rec in p.texts if rec.kind == "name" and rec.who == who)
        row = [
            rec
            for rec in p.texts
            if rec.kind == "score" and rec.who is None and abs(rec.rect.centery - name.rect.centery) < 4
        ]
        summed = next(rec for rec in row if rec.box.x == column.x)
        assert summed.text == str(sum(rv.scores[s] for rv in history[:merged]))
        assert sorted(int(rec.text) for rec in row if rec is not summed) == sorted(
            rv.scores[s] for rv in history[merged:]
        )
