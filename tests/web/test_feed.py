"""The phones' standings page as the feed hands it to the server (issue 38): the keys every game
shares (``companion/web/feed.py``) and Kilo's own part (``companion/games/kilo/feed.py``), read
from the journal the table wrote, without a server (the server's tests start one per test; these
run in milliseconds, so each mutant of the feed is judged quickly). Every value is what a phone's
script puts on the screen: places with ties, the seats' colours, the card entry's refusals in
both languages, the tiles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.games.kilo.events import NewKiloGame, Press, Verdict
from companion.games.kilo.samples import SAMPLES
from companion.table.journal import Journal
from companion.table.live import Table
from companion.web.feed import Feed
from companion.web.server import seat_hex
from tests.review.test_view_mutants import phone_page

NNBSP = "\u202f"  # French typography's narrow no-break space, before ":" in every refusal
FIVE = ["Alice", "Bruno", "Chloé", "Dédé", "Émile"]
# The seats' colours as the table's screen draws them, seat 1 to 5.
COLORS = ["#e69f00", "#3296ff", "#cc79a7", "#dddddd", "#be73ff"]


def tile(seat: int, kilos: int = 0, cards: tuple[str, ...] = (), **flags: Any) -> dict[str, Any]:
    """A Kilo tile as the phones get it: nobody owes or starts, first place, no change, unless
    ``flags`` says so."""
    out = {"seat": seat, "name": FIVE[seat], "kilos": kilos, "cards": list(cards)}
    out |= {"owes": False, "starter": False, "place": 1, "change": 0} | flags
    return out


def dealt(rank: str, plural: str, fr_plural: str, feminine: bool = False) -> list[str]:
    """Why a rank the five players were dealt is not in the pile, as the card entry says it."""
    e = "es" if feminine else "s"
    return [
        f"{rank} ne peut pas être pioché{NNBSP}: les {fr_plural} sont distribué{e} aux joueurs à 5 "
        "joueurs, le tas contient A 4-10",
        f"{rank} cannot be drawn: {plural} are dealt to the players at 5 players, the pile holds A 4-10",
    ]


def test_a_phone_shows_kilos_places_tiles_and_the_card_to_enter(tmp_path: Path) -> None:
    """Kilo's sample in round 4 of 6 (samples.midgame): Chloé lost the last slap by 3.2 ms and
    owes a draw. Chloé has the Ace of hearts (100 kg), Dédé the 9 of spades, Émile flushed his 10
    of diamonds with a 7 of clubs this round; the others have nothing. The page says it all: the
    three at 0 kg share the first place, Dédé is 4th, Chloé 5th."""
    page = phone_page(tmp_path, SAMPLES["midgame"]())
    assert (page["seq"], page["game"], page["title"]) == (33, "kilo", "Kilo de merde")
    assert page["players"] == FIVE and page["colors"] == COLORS and page["finished"] is False
    assert page["standings"] == [
        {"name": "Alice", "seat": 0, "score": 0, "place": 1, "color": COLORS[0]},
        {"name": "Bruno", "seat": 1, "score": 0, "place": 1, "color": COLORS[1]},
        {"name": "Émile", "seat": 4, "score": 0, "place": 1, "color": COLORS[4]},
        {"name": "Dédé", "seat": 3, "score": 9, "place": 4, "color": COLORS[3]},
        {"name": "Chloé", "seat": 2, "score": 100, "place": 5, "color": COLORS[2]},
    ]
    assert page["summary"]["fr"].splitlines()[:3] == [
        "Kilo de merde — Manche 4/6",
        f"pioche due{NNBSP}: Chloé",
        f"Classement{NNBSP}:",
    ]
    assert page["summary"]["en"].splitlines()[:3] == [
        "Kilo de merde — Round 4/6",
        "draw owed: Chloé",
        "Standings:",
    ]
    assert page["round"] == [4, 6]
    # The scorer's phone may enter the draw owed; a tile writes its score in kilos.
    assert page["scorer_events"] == ["draw"]
    assert page["tile_score"] == {"fr": "{0} kilos", "en": "{0} kilos"}
    assert page["tiles"] == [
        tile(0),
        tile(1),
        tile(2, 100, ("AH",), owes=True, starter=True, place=5),
        tile(3, 9, ("9S",), place=4),
        tile(4, change=-10),
    ]
    assert page["last_slap"] == {
        "presses": [
            {"name": "Alice", "seat": 0, "offset_us": 0},
            {"name": "Bruno", "seat": 1, "offset_us": 180_000},
            {"name": "Dédé", "seat": 3, "offset_us": 230_000},
            {"name": "Émile", "seat": 4, "offset_us": 260_500},
            {"name": "Chloé", "seat": 2, "offset_us": 263_700},
        ],
        "non_pressers": [],
        "losers": ["Chloé"],
        "margin_us": 3200,
        "valid": True,
        "tied": False,
        "reslap": False,
        "margin_res_us": 1,
        "late": [],
        "rejudged": False,
    }
    # The card entry: ranks in the table's order, as a list (an object would put "10" before "A"
    # in a browser), each with why the pile cannot hold it any more or null.
    draw = page["draw"]
    assert draw["owed"] == ["Chloé"]
    assert draw["ranks"] == [
        ["A", None],
        ["2", dealt("2", "2s", "2")],
        ["3", dealt("3", "3s", "3")],
        *([rank, None] for rank in ("4", "5", "6", "7", "8", "9", "10")),
        ["J", dealt("J", "Jacks", "Valets")],
        ["Q", dealt("Q", "Queens", "Dames", feminine=True)],
        ["K", dealt("K", "Kings", "Rois")],
    ]
    cards = draw["cards"]
    assert (
        len(cards) == 52
        and cards["2C"] == dealt("2", "2s", "2")
        and cards["QH"] == dealt("Q", "Queens", "Dames", feminine=True)
    )
    # Of the ranks the pile holds, the cards somebody has in front of them or that went under
    # the pile with a flush are refused by name; the 28 others may be drawn.
    assert cards["AH"] == [
        f"AH ne peut pas être pioché{NNBSP}: l’As de cœur est déjà devant Chloé",
        "AH cannot be drawn: the Ace of hearts already lies in front of Chloé",
    ]
    assert cards["9S"] == [
        f"9S ne peut pas être pioché{NNBSP}: le 9 de pique est déjà devant Dédé",
        "9S cannot be drawn: the 9 of spades already lies in front of Dédé",
    ]
    assert cards["10D"] == [
        f"10D ne peut pas être pioché{NNBSP}: le 10 de carreau est déjà parmi les cartes remises sous le tas",
        "10D cannot be drawn: the 10 of diamonds already lies among the cards returned under the pile",
    ]
    assert (
        cards["7C"][1]
        == "7C cannot be drawn: the 7 of clubs already lies among the cards returned under the pile"
    )
    free = {card for card, why in cards.items() if why is None}
    assert free == {f"{r}{s}" for r in ("A", "4", "5", "6", "7", "8", "9", "10") for s in "SHDC"} - {
        "AH",
        "9S",
        "10D",
        "7C",
    }


def test_while_a_slap_waits_for_its_verdict_the_phones_offer_no_card(tmp_path: Path) -> None:
    """The same round before the verdict (samples.verdict): nobody owes a draw, so the page has
    no card entry, and the last slap shown is the one judged before, Émile's false slap."""
    page = phone_page(tmp_path, SAMPLES["verdict"]())
    assert "draw" not in page
    assert page["tiles"] == [
        tile(0),
        tile(1),
        tile(2, 100, ("AH",), starter=True, place=5),
        tile(3, 9, ("9S",), place=4),
        tile(4, change=-10),
    ]
    assert page["last_slap"] == {
        "presses": [
            {"name": "Émile", "seat": 4, "offset_us": 0},
            {"name": "Alice", "seat": 0, "offset_us": 240_000},
        ],
        "non_pressers": [["Bruno", 1], ["Chloé", 2], ["Dédé", 3]],
        "losers": ["Émile"],
        "margin_us": None,
        "valid": False,
        "tied": False,
        "reslap": False,
        "margin_res_us": 1,
        "late": [],
        "rejudged": False,
    }


def test_a_phone_shows_a_finished_game_as_finished(tmp_path: Path) -> None:
    page = phone_page(tmp_path, SAMPLES["finished"]())
    assert page["finished"] is True and page["round"] == [6, 6] and "draw" not in page
    assert [(r["name"], r["score"], r["place"]) for r in page["standings"]] == [
        (name, kilos, place) for name, kilos, place in FINISHED
    ]


# samples.finished: Chloé drew the 8 of hearts beside her Ace (108 kg), then Bruno the Ace of
# spades (100 kg) and Dédé the 5 of diamonds beside his 9 (14 kg).
FINISHED = [("Alice", 0, 1), ("Émile", 0, 1), ("Dédé", 14, 3), ("Bruno", 100, 4), ("Chloé", 108, 5)]


def test_the_phones_follow_the_game_as_it_is_played_and_ignore_another_games_events(tmp_path: Path) -> None:
    """Polled after each move, the feed sends the page with the new events only (each event is
    read once: a press read twice would be refused and the page lost), and nothing when the only
    new rows are another game's."""
    feed = Feed(tmp_path, seat_hex)
    with Journal(tmp_path, writer=True) as journal:
        table = Table.start(journal, NewKiloGame(players=["Ana", "Ben", "Cy"], rounds=2), {"input": "web"})
        first = feed.poll(table.game_id)
        assert first is not None and first["seq"] == 1 and first["last_slap"] is None
        for player, t_us in (("Cy", 5_000), ("Ana", 5_400)):
            table.submit(Press(player=player, t_us=t_us))
        pressed = feed.poll(table.game_id)
        assert pressed is not None and pressed["seq"] == 3 and pressed["last_slap"] is None
        table.submit(Verdict(valid=True))
        judged = feed.poll(table.game_id)
        assert judged is not None and judged["seq"] == 4
        assert judged["last_slap"]["presses"] == [
            {"name": "Cy", "seat": 2, "offset_us": 0},
            {"name": "Ana", "seat": 0, "offset_us": 400},
        ]
        assert judged["last_slap"]["losers"] == ["Ben"] and judged["draw"]["owed"] == ["Ben"]
        # Another table's game journaled in the same file: this game's phones get nothing new.
        Table.start(journal, NewKiloGame(players=["Dé", "Éa", "Fi"], rounds=1), {"input": "web"})
        assert feed.poll(table.game_id) is None
        assert feed.n_seats == 3
    feed.close()


def test_a_closed_feed_reads_the_journal_in_its_folder_when_it_opens_again(tmp_path: Path) -> None:
    """The server closes its feed when it stops. Started again over a folder whose journal was
    replaced (a journal restored, a table reset), the phones get the new journal's game, not
    the page of a file that is no longer there. Before any page, the server hands a phone
    ``null`` (``Feed.page``, what ``/now`` answers)."""
    folder = tmp_path / "table"
    feed = Feed(folder, seat_hex)
    assert feed.page is None and feed.poll("nothing-yet") is None and feed.page is None
    with Journal(folder, writer=True) as journal:
        old = Table.start(journal, NewKiloGame(players=["Ana", "Ben", "Cy"], rounds=2), {"input": "web"})
    page = feed.poll(old.game_id)
    assert page is not None and page["players"] == ["Ana", "Ben", "Cy"]
    feed.close()
    folder.rename(tmp_path / "before")
    with Journal(folder, writer=True) as journal:
        new = Table.start(journal, NewKiloGame(players=["Dé", "Éa", "Fi", "Gus"], rounds=1), {"input": "web"})
    page = feed.poll(new.game_id)
    assert (
        page is not None and page["game_id"] == new.game_id and page["players"] == ["Dé", "Éa", "Fi", "Gus"]
    )
    feed.close()
