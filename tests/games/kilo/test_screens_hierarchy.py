"""Kilo de merde's screens put the most important thing first (issue 11, point 6): on game over
the winners are the biggest text and every co-winner stands as first, the heaviest is named; on
the table each tile shows the player's place, keeps its seat and shows this round's change; a
tall screen makes the tiles, names and kilos bigger, not emptier.

Every rule is computed from what the painter drew (``Painter.texts``), on the samples with the
hardest names (24 characters, accents: tests/display/test_audit_legibility.py).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import itertools
import json
from typing import Any

import pytest

from companion.display import audit
from companion.display.kit import change_text, ordinal
from companion.display.layout import TextRecord
from companion.display.names import name_forms, short_name
from companion.display.snapshot import SIZES, render, ui_for, view_of
from companion.display.theme import Scale
from companion.games.kilo.rules import KiloGame
from companion.games.kilo.samples import SAMPLES, _slap
from companion.table.fold import replay
from tests.display.test_audit_legibility import LONG, long_names
from tests.kit_checks import check_game_over


def engine(events: list[dict[str, object]]) -> KiloGame:
    game = replay(json.dumps(e, ensure_ascii=False) for e in long_names(events))
    assert isinstance(game, KiloGame)
    return game


def draw(screen: str, game: KiloGame, size: tuple[int, int], lang: str) -> list[TextRecord]:
    r = render(screen, view_of(game), size, lang, ui_for(game, lang), audit=True)
    problems = audit.problems(r.painter, game.players)  # type: ignore[arg-type]
    assert not problems, problems
    return list(r.painter.texts)  # type: ignore[attr-defined]


def five_way_tie() -> list[dict[str, object]]:
    """Ten players, five rounds, each lost by a different player: five finish at 0 kg."""
    players = LONG[:10]
    ev: list[dict[str, object]] = [{"type": "new_game", "game": "kilo", "players": players, "rounds": 5}]
    t = 1_000_000
    for i, card in enumerate(["AH", "10S", "10C", "AS", "10D"]):
        loser = players[2 * i]
        ev += _slap(t, [p for p in players if p != loser] + [loser], [20_000] * 9)
        ev += [{"type": "verdict", "valid": True}, {"type": "draw", "player": loser, "card": card}]
        t += 10_000_000
    return ev


LANGS = ("fr", "en")
BOTH = list(itertools.product(SIZES, LANGS))
IDS = [f"{w}x{h}-{lang}" for (w, h), lang in BOTH]


# --- game over -------------------------------------------------------------------------------


def content(texts: list[TextRecord], size: tuple[int, int]) -> list[TextRecord]:
    """The screen's own texts: not the frame's top bar or navigation bar, drawn on every
    screen."""
    scale = Scale(*size)
    top, bottom = scale.px(54), size[1] - scale.px(62)
    return [r for r in texts if r.rect.top >= top and r.rect.bottom <= bottom]


def check_winners_first(texts: list[TextRecord], game: KiloGame, lang: str, size: tuple[int, int]) -> None:
    winners = set(game.winners())
    names = [r for r in texts if r.kind == "name"]
    shown = {r.who for r in names}
    assert winners <= shown, f"winners not all named: {winners - shown}"
    # Every co-winner stands as first: as many "1er"/"1st" as winners, and nobody else first.
    firsts = [r for r in texts if r.text == ordinal(1, lang) and r.kind == "score"]
    assert len(firsts) == len(winners)
    # The winners are the biggest text on the screen: their names, or the headline saying who
    # won ("5 vainqueurs ex aequo"), bigger than anything else the screen draws.
    ours = [r for r in names if r.who in winners]
    head = [r for r in texts if r.kind == "headline"]
    assert head, "no headline"
    biggest = max(r.cap for r in ours + head)
    for r in content(texts, size):
        if r not in ours and r not in head:
            assert r.cap < biggest, f"{r.text!r} (cap {r.cap}) is as big as the winners"
    smallest_winner = min(r.cap for r in ours)
    if len(winners) <= 2:
        # One or two winners: their names themselves are the biggest, the frame included.
        assert smallest_winner >= max(r.cap for r in texts), sorted((r.cap, r.text) for r in texts)[-3:]
    # Every winner's name is bigger than every other player's, and than any score.
    others = [r.cap for r in names if r.who not in winners]
    scores = [r.cap for r in texts if r.kind == "score" and r.text != ordinal(1, lang)]
    assert smallest_winner > max(others + scores, default=0)


@pytest.mark.parametrize(("size", "lang"), BOTH, ids=IDS)
def test_game_over_is_the_kits_and_names_the_heaviest(size: tuple[int, int], lang: str) -> None:
    game = engine(SAMPLES["finished"]())
    assert len(game.winners()) == 2  # co-winners
    r = render("gameover", view_of(game), size, lang, ui_for(game, lang), audit=True)
    kilos = {p: game.kilos(p) for p in game.players}
    heaviest = max(kilos, key=kilos.__getitem__)
    check_game_over(
        r.painter, game.players, set(game.winners()), lang, ["ex aequo" if lang == "fr" else "Co-winners"]
    )
    # The heaviest is named, with their kilos, in words the table reads.
    said = short_name(heaviest, game.players)
    assert any(said in rec.text and f"{kilos[heaviest]} kg" in rec.text for rec in r.painter.texts), said


@pytest.mark.parametrize(("size", "lang"), BOTH, ids=IDS)
def test_five_co_winners_are_all_first(size: tuple[int, int], lang: str) -> None:
    game = engine(five_way_tie())
    assert game.finished and len(game.winners()) == 5
    r = render("gameover", view_of(game), size, lang, ui_for(game, lang), audit=True)
    check_game_over(
        r.painter, game.players, set(game.winners()), lang, ["ex aequo" if lang == "fr" else "Co-winners"]
    )


# --- table -----------------------------------------------------------------------------------


def tiles(texts: list[TextRecord]) -> dict[str, TextRecord]:
    return {r.who: r for r in texts if r.kind == "name" and r.who is not None}


def on_line(texts: list[TextRecord], name: TextRecord, text: str) -> list[TextRecord]:
    """Texts reading ``text`` on the name's line, left of it."""
    return [
        r for r in texts if r.text == text and r.box.top == name.box.top and r.rect.right <= name.rect.left
    ]


@pytest.mark.parametrize(("size", "lang"), BOTH, ids=IDS)
@pytest.mark.parametrize("sample", ["midgame", "busy", "finished"])
def test_table_shows_places_and_this_rounds_change(sample: str, size: tuple[int, int], lang: str) -> None:
    game = engine(SAMPLES[sample]())
    view = view_of(game)
    texts = draw("table", game, size, lang)
    names = tiles(texts)
    assert set(names) == set(game.players)
    changed = 0
    for seat in view.seats:
        name = names[seat.name]
        places = on_line(texts, name, ordinal(seat.place, lang))
        assert places and places[0].kind == "place", (seat.name, seat.place)
        score = [
            r
            for r in texts
            if r.kind == "score"
            and r.text == str(seat.kilos)
            and r.rect.left > name.rect.right
            and name.box.top <= r.rect.centery
        ]
        assert score, seat.name
        under = [
            r
            for r in texts
            if name.box.left <= r.rect.left
            and r.rect.top >= name.rect.bottom
            and r.rect.bottom <= name.box.bottom + name.box.height
        ]
        if seat.change and not under and len(view.seats) > 8 and size == (800, 480):
            # Ten players on the 7" screen: a tile is one line (names 4 mm, kilos 6.7 mm) and
            # the round's change is left to the history.
            continue
        if seat.change:
            changed += 1
            # "+8 kg" on the player's tile: under the name, left of the kilos.
            assert any(
                r.text == change_text(seat.change)
                and r.rect.top >= name.rect.centery
                and name.box.left <= r.rect.left
                and r.rect.right <= score[0].rect.left
                and r.rect.top < score[0].box.bottom  # on the same tile
                for r in texts
            ), seat.name
    assert changed or (len(view.seats) > 8 and size == (800, 480))  # each sample has one


def test_tiles_keep_their_seat_when_the_standings_change() -> None:
    events = SAMPLES["midgame"]()
    flush = next(i for i, e in enumerate(events) if e.get("card") == "7C")
    before, after = engine(events[:flush]), engine(events[: flush + 1])
    assert [s for s, _ in before.standings()] != [s for s, _ in after.standings()]
    for size in SIZES:
        a = tiles(draw("table", before, size, "fr"))
        b = tiles(draw("table", after, size, "fr"))
        assert {w: r.box for w, r in a.items()} == {w: r.box for w, r in b.items()}


# --- portrait --------------------------------------------------------------------------------


@pytest.mark.parametrize("sample", ["midgame", "busy"])
def test_portrait_tiles_use_the_height(sample: str) -> None:
    game = engine(SAMPLES[sample]())
    small = draw("table", game, (800, 480), "fr")
    tall = draw("table", game, (720, 1280), "fr")

    def caps(texts: list[TextRecord], kind: str) -> int:
        return min(r.cap for r in texts if r.kind == kind)

    # The 7" table gives a one-line tile's height to its names; a portrait tile is tall enough
    # for a second line (the cards in front, the change) under names of at least 4 mm.
    assert caps(tall, "name") >= min(caps(small, "name") - 1, 21)
    assert caps(tall, "score") >= caps(small, "score")
    # The tiles run down to the navigation bar (two rows in portrait): the last name sits in
    # the bottom quarter.
    lowest = max(r.rect.bottom for r in tall if r.kind == "name")
    assert lowest > 1280 * 3 // 4


def test_the_name_forms_used_are_the_tables() -> None:
    """The hierarchy checks read names by player: the forms must name one player each."""
    forms = name_forms(tuple(LONG))
    seen: dict[str, Any] = {}
    for who, own in forms.items():
        for form in own:
            assert seen.setdefault(form, who) == who


def test_undo_says_what_it_undid_in_words() -> None:
    """Issue 11: "Annulé : la pioche de Bruno, As, 100 kg", not "Bruno AS"."""
    from companion.display.game_ui import screens_for
    from companion.games.kilo.samples import lines
    from companion.i18n import t
    from companion.table.fold import replay
    from companion.table.log import Undo

    game = replay(lines("finished"))
    gs = screens_for("kilo")
    game.apply(Undo())
    fr = t("scr.msg.undone", "fr", what=gs.undone(game, "fr"))
    en = t("scr.msg.undone", "en", what=gs.undone(game, "en"))
    assert fr == "Annulé\u202f: la pioche de Dédé, 5 de carreau, 5 kg"
    assert en == "Undone: Dédé's draw, 5 of diamonds, 5 kg"
    game.apply(Undo())
    assert gs.undone(game, "fr") == "le verdict «\u202fCarré valable\u202f»"
