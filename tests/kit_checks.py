"""The kit's game over, checked the same way for the three games (display/kit.py)."""

from __future__ import annotations

from typing import Any

from companion.display import audit
from companion.display.kit import ordinal, read_size


def check_game_over(
    p: Any, players: tuple[str, ...] | list[str], winners: set[str], lang: str, title_words: list[str]
) -> None:
    """Every player on a tile, named as a name, the winners first and each placed first
    ("1er"), nobody else; the scores in far type, one size, the biggest text under the top
    bar; a line above says who won (``title_words`` in it)."""
    assert not audit.problems(p, tuple(players))
    names = [rec for rec in p.texts if rec.kind == "name" and rec.who in players]
    assert [rec.who for rec in names if rec.who in players][: len(winners)] and {
        rec.who for rec in names[: len(winners)]
    } == winners, [rec.who for rec in names]
    assert sorted(rec.who for rec in names) == sorted(players)
    firsts = [rec for rec in p.texts if rec.kind == "place" and rec.text == ordinal(1, lang)]
    assert len(firsts) == len(winners)
    for rec in firsts:  # on a winner's tile: beside their name
        row = [n for n in names if n.box.top == rec.box.top and n.rect.left >= rec.rect.right]
        nearest = min(row, key=lambda n: n.rect.left - rec.rect.right)
        assert nearest.who in winners, (rec, nearest)
    scores = [rec for rec in p.texts if rec.kind == "score"]
    assert len(scores) in (0, len(players)), [rec.text for rec in scores]
    if scores:
        assert len({rec.cap for rec in scores}) == 1
        below = [rec for rec in p.texts if rec.rect.top >= p.px(54)]
        assert max(rec.cap for rec in below) == scores[0].cap
    said = " ".join(rec.text for rec in p.texts if rec.cap >= p.fonts.cap(read_size(p)) - 1)
    for word in title_words:
        assert word in said, (word, said)
