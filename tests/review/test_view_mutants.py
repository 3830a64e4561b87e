"""Issue 38: what the games' views put on the screens and the phones, in a game in play.

The view tests before these drew every screen of every sample and checked that it fits; a view
that named the wrong player to play, forgot who passed or offered the wrong counts drew just as
well. These read what a player reads: the screens' texts (both languages) and the phones' page
data as the feed sends it (``Feed.poll``, the same JSON the server hands the phones).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.display.snapshot import render, ui_for
from companion.games.treize.rules import TreizeGame
from companion.games.treize.samples import SAMPLES, _cut, _dicts, _match
from companion.games.treize.screens import Entry
from companion.games.treize.view import build_view
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import NewGameBase, event_from_dict
from companion.web.feed import Feed
from companion.web.server import seat_hex

CHROME = {"Menu", "Annuler", "Undo"}


def treize_of(events: list[dict[str, Any]]) -> TreizeGame:
    game = replay(json.dumps(e, ensure_ascii=False) for e in events)
    assert isinstance(game, TreizeGame)
    return game


def texts(events: list[dict[str, Any]], screen: str, lang: str, entry: Entry | None = None) -> list[str]:
    """The texts the screen draws, in drawing order, the top bar's buttons left out."""
    game = treize_of(events)
    ui = ui_for(game, lang)
    if entry is not None:
        ui.entry = entry
    r = render(screen, build_view(game), (800, 480), lang, ui)
    return [rec.text for rec in r.painter.texts if rec.text not in CHROME]  # type: ignore[attr-defined]


def tiles(events: list[dict[str, Any]], screen: str, lang: str) -> dict[str, list[str]]:
    """Each player's tile as drawn: the texts from its place to the next tile's."""
    game = treize_of(events)
    r = render(screen, build_view(game), (800, 480), lang, ui_for(game, lang))
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for rec in r.painter.texts:  # type: ignore[attr-defined]
        if rec.kind == "place":
            current = []
        elif rec.kind == "name" and current is not None and not current:
            out[rec.text] = current
        elif current is not None:
            current.append(rec.text)
    return out


def phone_page(tmp_path: Path, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The page data the phones receive for the table that played ``events``."""
    with Journal(tmp_path, writer=True) as journal:
        setup = event_from_dict(events[0], None)
        assert isinstance(setup, NewGameBase)
        table = Table.start(journal, setup, {"input": "keyboard"})
        for e in events[1:]:
            table.submit(event_from_dict(e, table.engine.game))
        feed = Feed(tmp_path, seat_hex)
        try:
            page = feed.poll(table.game_id)
        finally:
            feed.close()
    assert page is not None
    return page


# --- 13 feuilles ---------------------------------------------------------------------------------

MIDGAME = SAMPLES["midgame"]()  # game 2; Bruno led and passed; Alice put 2 × 2; Chloé plays


def test_a_phone_shows_the_treize_trick_in_play_and_nothing_of_it_once_the_match_is_over(
    tmp_path: Path,
) -> None:
    page = phone_page(tmp_path / "play", MIDGAME)
    assert page["scorer_events"] == []  # the table enters every play itself
    assert page["turns"] == {
        "variant": "advanced",
        "game_number": 2,
        "trick": 1,
        "turn": "Chloé",
        "stacks": [[2, 2], [9, 1], [12, 4]],
        "last_play": {"player": "Alice", "value": 2, "count": 2},
        "seats": [
            {
                "seat": 0,
                "name": "Alice",
                "passed": False,
                "turn": False,
                "leader": False,
                "count": 8,
                "total": 3,
            },
            {
                "seat": 1,
                "name": "Bruno",
                "passed": True,
                "turn": False,
                "leader": True,
                "count": 10,
                "total": 5,
            },
            {
                "seat": 2,
                "name": "Chloé",
                "passed": False,
                "turn": True,
                "leader": False,
                "count": 9,
                "total": 3,
            },
            {
                "seat": 3,
                "name": "Dédé",
                "passed": False,
                "turn": False,
                "leader": False,
                "count": 8,
                "total": 0,
            },
            {
                "seat": 4,
                "name": "Émile",
                "passed": False,
                "turn": False,
                "leader": False,
                "count": 8,
                "total": 2,
            },
        ],
        "target": 20,
    }
    over = phone_page(tmp_path / "over", SAMPLES["finished"]())["turns"]
    assert over["turn"] is None and over["stacks"] == []
    # The last game's leader and hands are gone with it: nobody leads, no card counts.
    assert [(s["leader"], s["count"]) for s in over["seats"]] == [(False, None)] * 5
    assert [s["total"] for s in over["seats"]] == [20, 16, 16, 8, 10]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_table_shows_whose_turn_the_stacks_and_what_may_be_played(lang: str) -> None:
    fr = lang == "fr"
    shown = texts(MIDGAME, "table", lang)
    assert ("Partie 2 · manche 1" if fr else "Game 2 · trick 1") in shown
    assert ("À Chloé" if fr else "Chloé’s turn") in shown
    assert [s for s in shown if " × " in s] == ["2 × 2", "9 × 1", "12 × 4"]
    assert (
        "Jouable\u202f: 1 à 2, 2 cartes ou plus\u202f; 12 à 13, 4 cartes ou plus"
        if fr
        else "Playable: 1 to 2, 2 cards or more; 12 to 13, 4 cards or more"
    ) in shown
    # Who passed and the cards in each hand, on the tiles (the lots screen draws them with room
    # for the notes); who starts the game is said above them.
    drawn = tiles(MIDGAME, "lots", lang)
    cards = "8 cartes" if fr else "8 cards"
    assert drawn["Bruno"][-1] == ("a passé" if fr else "passed")
    assert [drawn[p][-1] for p in ("Alice", "Dédé", "Émile")] == [cards] * 3
    said = (
        "Pas de tirage\u202f: Bruno commence la partie 2." if fr else "No lots to draw: Bruno starts game 2."
    )
    assert said in texts(MIDGAME, "lots", lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_play_screen_offers_what_the_rules_allow_and_no_more(lang: str) -> None:
    fr = lang == "fr"
    shown = texts(MIDGAME, "play", lang, Entry("play", "Chloé", value=1))
    sentence = (
        "Chloé peut jouer 2 ou moins\u202f: 2 cartes au moins\u202f; "
        "12 ou plus\u202f: 4 cartes au moins\u202f; pas de carte entre 2 et 12"
        if fr
        else "Chloé may play 2 or lower: at least 2 cards; "
        "12 or higher: at least 4 cards; nothing between 2 and 12"
    )
    start = next(i for i, s in enumerate(shown) if s.startswith("Chloé "))
    assert " ".join(shown[start : start + 2]) == sentence
    # The thirteen values, each with the least it takes or why it cannot be played.
    keys = shown[start + 2 : start + 28]
    least2, least4, gap = ("2 ou +", "4 ou +", "interdit") if fr else ("2+", "4+", "gap")
    assert keys == [
        x
        for v, hint in zip(range(1, 14), [least2] * 2 + [gap] * 9 + [least4] * 2, strict=True)
        for x in (str(v), hint)
    ]
    # Chloé holds 9 cards: nine count keys for the 1s, not eight, not ten.
    ask = "Combien de 1\u202f?" if fr else "How many 1s?"
    counts = shown[shown.index(ask) + 1 :]
    assert counts[:10] == [str(n) for n in range(1, 10)] + [("Retour" if fr else "Back")]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_take_screen_offers_the_tables_values(lang: str) -> None:
    shown = texts(MIDGAME, "take", lang)
    where = "sur la table" if lang == "fr" else "on the table"
    start = shown.index("2")
    assert shown[start : start + 6] == ["2", f"2 {where}", "9", f"1 {where}", "12", f"4 {where}"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_game_without_plays_asks_for_passes_and_the_hands_dealt(lang: str) -> None:
    """The spec's minimal log (passes only): the table asks for passes, not plays, and the
    game's end starts each hand at the cards dealt (10 each for five players)."""
    fr = lang == "fr"
    passes = SAMPLES["passes"]()
    assert ("bouton = je passe" if fr else "button = I pass") in texts(passes, "table", lang)
    end = texts(passes, "end", lang)
    held = end[end.index("Cartes qui restent à chacun" if fr else "Cards each player still holds") :]
    assert [held[i + 2] for i in range(1, len(held) - 4, 4)][:5] == ["10"] * 5


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_basic_game_shows_the_hands_and_no_places_moved(lang: str) -> None:
    """The basic variant keeps no points: each tile holds the cards in hand, and none carries
    a rank arrow (places moved), before the first play as after."""
    events = _dicts(_cut(_match(3, ["Ana", "Ben", "Cy"], variant="basic"), lambda g: g.awaiting == "play"))
    game = treize_of(events)
    assert game.variant == "basic" and game.mode is None and game.turn == "Ana"
    cards, plays = ("cartes", "joue") if lang == "fr" else ("cards", "to play")
    assert tiles(events, "lots", lang) == {
        "Ana": ["12", cards, plays],
        "Ben": ["12", cards],
        "Cy": ["12", cards],
    }
    # Played to its end: the game over's tiles hold the places and names alone.
    whole = _dicts(_match(3, ["Ana", "Ben", "Cy"], variant="basic"))
    assert treize_of(whole).finished
    assert tiles(whole, "gameover", lang) == {"Ana": [], "Ben": [], "Cy": []}


# --- Les Cinq Rois -------------------------------------------------------------------------------


def cinq_render(
    sample: str, screen: str, lang: str, size: tuple[int, int] = (800, 480), events: int | None = None
) -> Any:
    """The texts drawn for a Les Cinq Rois sample (its first ``events`` events when given)."""
    from companion.games.cinq_rois.rules import CinqRoisGame
    from companion.games.cinq_rois.samples import SAMPLES as CINQ
    from companion.games.cinq_rois.view import build_view as cinq_view

    game = replay(json.dumps(e, ensure_ascii=False) for e in CINQ[sample]()[:events])
    assert isinstance(game, CinqRoisGame)
    return render(screen, cinq_view(game), size, lang, ui_for(game, lang)).painter.texts


def test_a_phone_shows_the_cinq_rois_sheet_of_five_rounds(tmp_path: Path) -> None:
    from companion.games.cinq_rois.samples import SAMPLES as CINQ

    page = phone_page(tmp_path, CINQ["midgame"]())
    assert page["round"] == [6, 11] and page["scorer_events"] == ["round_end"]  # a round's scores
    assert page["sheet"] == {
        "rows": [
            {"round": 1, "dealer": "Chloé", "out": "Alice", "scores": [0, 22, 21, 17, 27]},
            {"round": 2, "dealer": "Dédé", "out": "Émile", "scores": [17, 26, 0, 33, 0]},
            {"round": 3, "dealer": "Émile", "out": "Bruno", "scores": [6, 0, 4, 13, 15]},
            {"round": 4, "dealer": "Alice", "out": "Bruno", "scores": [15, 0, 42, 19, 46]},
            {"round": 5, "dealer": "Bruno", "out": "Alice", "scores": [0, 48, 0, 52, 30]},
        ],
        "totals": [38, 96, 67, 134, 118],
        "places": [1, 3, 2, 5, 4],
        "cards": 8,
        "bonus": "8",
    }


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_cinq_rois_sheet_says_the_round_to_play_and_the_places_moved(lang: str) -> None:
    from companion.display.kit import ROLE

    fr = lang == "fr"
    big = [t.text for t in cinq_render("midgame", "sheet", lang, (1920, 1080)) if t.text not in CHROME]
    assert big[:3] == (
        [
            "Donne 6/11",
            "atout 8 · Chloé donne",
            "Donne 6\u202f: 8 cartes, atout 8, donneur Chloé, Dédé commence",
        ]
        if fr
        else [
            "Round 6/11",
            "bonus 8 · Chloé deals",
            "Round 6: 8 cards, bonus 8, dealer Chloé, Dédé plays first",
        ]
    )
    small = [t.text for t in cinq_render("midgame", "sheet", lang)]
    assert ("Donne 6\u202f: 8 cartes, atout 8" if fr else "Round 6: 8 cards, bonus 8") in small
    # Round 5 moved Bruno and Dédé down a place, Chloé and Émile up one; Alice stayed first.
    drawn = cinq_render("midgame", "lastturn", lang)
    marks: dict[str, tuple[str, object]] = {}
    name = None
    for rec in drawn:
        if rec.kind == "name":
            name = rec.text
        elif name is not None and rec.kind == "text" and rec.text.isdigit():
            marks[name] = (rec.text, rec.color)
    down, up = ("1", ROLE["down"]), ("1", ROLE["up"])
    assert marks == {"Bruno": down, "Chloé": up, "Dédé": down, "Émile": up}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_cinq_rois_game_over_ranks_the_lowest_first_and_says_so(lang: str) -> None:
    over = cinq_render("finished", "gameover", lang)
    assert [t.text for t in over if t.kind == "name"] == ["Chloé", "Émile", "Dédé", "Alice", "Bruno"]
    said = [t.text for t in cinq_render("finished", "sheet", lang)]
    assert " ".join(said).endswith(
        "Partie terminée après 11 donnes" if lang == "fr" else "Game over after 11 rounds"
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_cinq_rois_lots_screen_knows_whether_the_dealer_was_drawn(lang: str) -> None:
    drawn = [t.text for t in cinq_render("midgame", "lots", lang)]
    assert (
        "Le premier donneur est tiré\u202f: Chloé" if lang == "fr" else "The first dealer was drawn: Chloé"
    ) in drawn
    open_ = [t.text for t in cinq_render("lots", "lots", lang)]
    assert ("Qui donne en premier\u202f?" if lang == "fr" else "Who deals first?") in open_


def hands_drawn(drawn: Any) -> dict[str, list[tuple[str, object]]]:
    """Each player's row of the round screen: the score, then each card's rank and colour
    (or the row's note)."""
    hands: dict[str, list[tuple[str, object]]] = {}
    name = None
    for rec in drawn:
        if rec.kind == "name":
            name = rec.text
            hands[name] = []
        elif name is not None and rec.kind == "score":
            hands[name].append((rec.text, "score"))
        elif name is not None and rec.kind == "text" and rec.text != "pts":
            hands[name].append((rec.text, rec.color))
    return hands


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_cinq_rois_round_shows_each_hand_as_it_was_laid(lang: str) -> None:
    """Round 5 as entered by hands: Alice went out with three 5s and a run 10-K of spades
    whose J and Q are sevens of clubs (wild); Bruno kept seven cards; the ranks as the
    language writes them, each in its suit's colour."""
    hands = hands_drawn(cinq_render("midgame", "round", lang))
    red, blue, black = (200, 0, 0), (0, 90, 200), (0, 0, 0)
    j, q, k = ("V", "D", "R") if lang == "fr" else ("J", "Q", "K")
    assert hands["Alice"] == [
        ("0", "score"),
        ("5", red),
        ("5", red),
        ("5", blue),
        ("10", black),
        (j, black),
        (q, black),
        (k, black),
    ]
    assert hands["Bruno"] == [
        ("48", "score"),
        ("3", black),
        ("4", red),
        ("5", black),
        ("8", red),
        ("8", red),
        ("9", black),
        (j, black),
    ]


# --- the feed: when the phones get a new page ------------------------------------------------------


def test_the_phones_get_a_page_when_the_journal_moves_and_only_then(tmp_path: Path) -> None:
    from companion.games.kilo.events import NewKiloGame

    feed = Feed(tmp_path, seat_hex)
    assert feed.poll("nothing-yet") is None and feed.n_seats == 0  # no journal at all
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewKiloGame(players=["Ana", "Ben", "Cy"], rounds=2), {"input": "web"})
        assert feed.poll(None) is None
        first = feed.poll(table.game_id)
        assert first is not None and (first["game_id"], first["seq"], first["game"]) == (
            table.game_id,
            1,
            "kilo",
        )
        assert first["colors"] == ["#e69f00", "#3296ff", "#cc79a7"] and feed.n_seats == 3
        assert [r["place"] for r in first["standings"]] == [1, 1, 1]  # nobody has a kilo yet
        assert feed.poll(table.game_id) is None  # nothing new: nothing sent
        # Another game started at the table: its page, from its own first event.
        other = Table.start(
            journal, NewKiloGame(players=["Dé", "Éa", "Fi", "Gus"], rounds=1), {"input": "web"}
        )
        page = feed.poll(other.game_id)
        assert page is not None and page["game_id"] == other.game_id and page["seq"] == 1
        assert page["players"] == ["Dé", "Éa", "Fi", "Gus"] and feed.n_seats == 4
        assert page["round"] == [1, 1] and page["last_slap"] is None
        assert feed.poll(other.game_id) is None
        # Back to the first game's id: rebuilt from its journal.
        again = feed.poll(table.game_id)
        assert again is not None and again["players"] == ["Ana", "Ben", "Cy"] and again["seq"] == 1
        feed.close()
        feed.close()  # twice is harmless
        reopened = feed.poll(other.game_id)
        assert reopened is not None and reopened["game_id"] == other.game_id
        feed.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_cinq_rois_round_shows_cards_left_or_points_as_they_were_entered(lang: str) -> None:
    """Round 3 was entered as the cards left in each hand, round 2 as points: the round screen
    after each shows the cards left in their suits' colours, or says the points were entered;
    who went out is said so, in green."""
    from companion.display.kit import ROLE

    red, blue, black, green = (200, 0, 0), (0, 90, 200), (0, 0, 0), ROLE["up"]
    out, typed = ("exposé", "points saisis") if lang == "fr" else ("out", "points entered")
    left = hands_drawn(cinq_render("midgame", "round", lang, events=5))
    assert left == {
        "Alice": [("6", "score"), ("3", black), ("3", blue)],
        "Bruno": [("0", "score"), (out, green)],
        "Chloé": [("4", "score"), ("4", red)],
        "Dédé": [("13", "score"), ("6", red), ("7", red)],
        "Émile": [("15", "score"), ("7", blue), ("8", red)],
    }
    points = hands_drawn(cinq_render("midgame", "round", lang, events=4))
    assert points == {
        "Alice": [("17", "score"), (typed, ROLE["quiet"])],
        "Bruno": [("26", "score"), (typed, ROLE["quiet"])],
        "Chloé": [("0", "score"), (typed, ROLE["quiet"])],
        "Dédé": [("33", "score"), (typed, ROLE["quiet"])],
        "Émile": [("0", "score"), (out, green)],
    }


def test_before_the_first_round_nobody_has_moved_places() -> None:
    """The sheet of a new game: every tile first, with no rank arrow."""
    drawn = [(t.kind, t.text) for t in cinq_render("lots", "sheet", "fr")]
    start = drawn.index(("place", "1er"))
    names = ("Alice", "Bruno", "Chloé", "Dédé", "Émile")
    assert drawn[start : start + 21] == [
        *(x for p in names for x in (("place", "1er"), ("name", p), ("score", "0"), ("text", "pts"))),
        ("text", "Donne 1\u202f: 3 cartes, atout 3"),
    ]
