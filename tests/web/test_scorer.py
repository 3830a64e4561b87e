"""Issue 38: the scorer's phone, entry by entry, as the phone reads the table's answer.

The server hands these sentences to the scorer's page as they are (``{"fr": ..., "en": ...}``)
and journals the event returned; the stamp decides where the entry falls among the presses.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from companion.cards import parse_card
from companion.errors import CompanionError
from companion.games.cinq_rois.events import NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.kilo.events import Draw
from companion.web.scorer import EntryError, as_on_the_screen, parse_entry, stamp_of

CINQ = {"game": "cinq-rois", "title": "Les Cinq Rois"}
KILO = {"game": "kilo", "title": "Kilo"}
MS = 1_000_000


def refused(body: bytes | str, page: dict[str, str] | None) -> tuple[str, str]:
    with pytest.raises(EntryError) as caught:
        parse_entry(body.encode() if isinstance(body, str) else body, page)
    return caught.value.en, caught.value.fr


def test_an_entry_is_read_as_the_games_own_event() -> None:
    draw = parse_entry(b'{"event": {"type": "draw", "player": "Ana", "card": "7s"}}', KILO)
    assert draw == Draw(player="Ana", card=parse_card("7S"))
    end = parse_entry(
        json.dumps({"event": {"type": "round_end", "out": "Ana", "points": {"Ben": 3}}}).encode(), CINQ
    )
    assert end == RoundEnd(out="Ana", points={"Ben": 3})


def test_an_entry_that_is_not_the_scorers_is_refused_in_both_languages() -> None:
    assert refused("{}", None) == ("The table has no game yet.", "La table n’a pas encore de partie.")
    wanted = (
        "The scorer's entry must be an event of Les Cinq Rois: round_end.",
        "La saisie du marqueur doit être un événement de Les Cinq Rois\u202f: round_end.",
    )
    for body in (
        '{"event": {"type": "draw", "player": "Ana", "card": "7S"}}',  # Kilo's, not this game's
        '{"event": {"type": "undo"}}',  # the table's own
        '{"event": "round_end"}',
        '["event"]',
        "{",
        "[" * 5000,
    ):
        assert refused(body, CINQ) == wanted, body
    treize = {"game": "treize", "title": "13 feuilles"}
    assert refused('{"event": {"type": "pass"}}', treize) == (
        "The scorer's entry must be an event of 13 feuilles: —.",
        "La saisie du marqueur doit être un événement de 13 feuilles\u202f: —.",
    )
    # The event's own refusal, as the table log's reader words it.
    with pytest.raises(CompanionError, match=r"^a draw event needs the key 'player'$"):
        parse_entry(b'{"event": {"type": "draw"}}', KILO)
    with pytest.raises(CompanionError) as caught:
        parse_entry(b'{"event": {"type": "round_end", "out": 3}}', CINQ)
    assert caught.value.en == "'out' in a round_end event must be text in quotes, not 3"


def test_cards_entered_on_the_phone_are_judged_card_by_card_as_on_the_screen() -> None:
    game = CinqRoisGame(NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Ana"))
    # Small letters and the joker as typed: written as the screen writes them.
    event, why = as_on_the_screen(RoundEnd(out="Ana", left={"Ben": ["ks", "jk"], "Cy": []}), game)
    assert why is None and event == RoundEnd(
        out="Ana", left={"Ben": [parse_card("KS"), parse_card("JK")], "Cy": []}
    )
    assert as_on_the_screen(RoundEnd(out="Ana", left={"Ben": ["ks"]}), game) == (
        None,
        (
            "Cartes restantes à confirmer pour Cy (Entrée même sans carte)",
            "Cards left to confirm for Cy (Enter even with no card)",
        ),
    )
    assert as_on_the_screen(RoundEnd(out="Ana", left={"Zed": ["ks"]}), game) == (
        None,
        ("Joueur inconnu\u202f: Zed.", "Unknown player: Zed."),
    )
    assert as_on_the_screen(RoundEnd(out="Ana", hands={"Ana": ["7H", "7H", "7H"]}), game) == (
        None,
        (
            "7H est déjà entré deux fois (Ana)\u202f: les deux jeux n’ont chaque carte que deux fois",
            "7H is already entered twice (Ana): the two decks hold each card only twice",
        ),
    )
    hands = {"Ana": ["3S", "4S", "5S"], "Ben": ["kS", "KS", "JK"], "Cy": ["3h", "3d", "3c"]}
    event, why = as_on_the_screen(RoundEnd(out="Ana", hands=hands), game)
    assert why is None and event == RoundEnd(
        out="Ana", hands={p: [parse_card(c.upper()) for c in cards] for p, cards in hands.items()}
    )
    assert as_on_the_screen(RoundEnd(out="Ana", hands={"Ana": ["3S"]}), game)[1] == (
        "Mains incomplètes\u202f: Ana 1/3, Ben 0/3, Cy 0/3 cartes",
        "Hands not complete: Ana 1/3, Ben 0/3, Cy 0/3 cards",
    )
    # Points, and an unknown player going out, are the engine's to refuse: returned as they came.
    for as_is in (RoundEnd(out="Ana", points={"Ben": 3}), RoundEnd(out="Zed", left={"Ben": []})):
        assert as_on_the_screen(as_is, game) == (as_is, None)
    draw = Draw(player="Ana", card=parse_card("7S"))
    assert as_on_the_screen(draw, game) == (draw, None)


def test_hands_sent_after_the_last_round_are_counted_against_its_thirteen_cards() -> None:
    """Once the eleventh round is scored the game is over; a late entry of whole hands is
    judged as the last round's (13 cards each, as the screen's last entry), not a 12th's."""
    game = CinqRoisGame(NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Ana"))
    for _ in range(11):
        scored = RoundEnd(out="Ana", points={"Ben": 3, "Cy": 2})
        game.check(scored)
        game.apply(scored)
    assert game.finished
    assert as_on_the_screen(RoundEnd(out="Ana", hands={"Ana": ["3S"]}), game)[1] == (
        "Mains incomplètes\u202f: Ana 1/13, Ben 0/13, Cy 0/13 cartes",
        "Hands not complete: Ana 1/13, Ben 0/13, Cy 0/13 cards",
    )


def test_a_scorers_entry_is_stamped_when_it_was_made_on_the_table_clock() -> None:
    """The page answered /clock question 4 (asked at table 10 s) reading 2,000 ms on its own
    clock, and that answer arrived with the entry at 10.2 s: its clock is the table's less
    8.1 s, to within 0.1 s; the entry sent at 2,050 ms was made at 10.15 s."""
    arrived = 10_200 * MS
    asked = (4, 10_000 * MS)

    def stamp(p: object, sync: object = None) -> tuple[int, int | None]:
        body = {"event": {}, "p": p, "sync": {"id": 4, "p": 2000} if sync is None else sync}
        return stamp_of(json.dumps(body).encode(), asked, arrived)

    known = 100 * MS + 2 * MS  # half the round trip and the page clock's step twice
    assert stamp(2050) == (10_150 * MS, known)
    # Made at the arrival, or two seconds before it: believed; later or older: the arrival.
    assert stamp(2100) == (arrived, known)
    assert stamp(100) == (arrived - 2_000 * MS, known)
    for p in (2100.001, 99.999, "2050"):
        assert stamp(p) == (arrived, None), p
    for sync in ({"id": 5, "p": 2000}, {"id": 4}, {"id": 4, "p": -1}, [4, 2000]):
        assert stamp(2050, sync) == (arrived, None), sync
    assert stamp_of(b'{"p": 2050}', asked, arrived) == (arrived, None)
    assert stamp_of(json.dumps({"p": 2050, "sync": {"id": 4, "p": 2000}}).encode(), None, arrived) == (
        arrived,
        None,
    )
    assert stamp_of(b"[", asked, arrived) == (arrived, None)
    assert stamp_of(b"[]", asked, arrived) == (arrived, None)
    # Answered at once (a round trip too quick for the table's clock to see): believed, the
    # phone's clock known to its step alone.
    instant = json.dumps({"p": 2000, "sync": {"id": 4, "p": 2000}}).encode()
    assert stamp_of(instant, (4, arrived), arrived) == (arrived, 2 * MS)
    # Asked after it arrived: a clock that cannot be.
    late = json.dumps({"p": 2050, "sync": {"id": 4, "p": 2000}}).encode()
    assert stamp_of(late, (4, arrived + 1), arrived) == (arrived, None)


def test_the_table_answers_the_scorers_phone_as_its_own_screen_would(tmp_path: Path, screen: Any) -> None:
    """A scorer's write applied on the table's thread: recorded, or refused in both languages
    with why; and what the phone reads when the table does not answer at all."""
    from companion.display.app import App
    from companion.display.state import Ui
    from companion.table.journal import Journal
    from companion.table.live import Table
    from companion.web.scorer import WebWrite

    silent = WebWrite("g", RoundEnd(out="Ana", points={"Ben": 3}), 0)
    assert silent.wait(0) == (False, "La table n’a pas répondu.", "The table did not answer.")
    with Journal(tmp_path, writer=True) as journal:
        setup = NewCinqRoisGame(players=["Ana", "Ben", "Cy"], dealer="Cy")
        table = Table.start(journal, setup, {"input": "keyboard"})
        app = App(screen, journal, table, Ui(lang="en"), source_name="keyboard", speed=0.0)
        app.step()

        def answer(game_id: str, event: Any) -> tuple[bool, str, str]:
            """As the server hands a write over: through the table's inbox, one step."""
            write = WebWrite(game_id, event, 0)
            app.inbox.put(write)
            app.step()
            return write.wait(0)

        assert answer("another", RoundEnd(out="Ana", points={"Ben": 3, "Cy": 2})) == (
            False,
            "Cette saisie est pour une autre partie que celle de la table.",
            "This entry is for another game than the table's.",
        )
        assert answer(table.game_id, RoundEnd(out="Ana", left={"Zed": []})) == (
            False,
            "Joueur inconnu\u202f: Zed.",
            "Unknown player: Zed.",
        )
        refused = answer(table.game_id, RoundEnd(out="Ana", points={"Ben": -3, "Cy": 2}))
        assert refused[0] is False and refused[2].startswith("Ben")
        seq = table.seq
        assert answer(table.game_id, RoundEnd(out="Ana", points={"Ben": 3, "Cy": 2})) == (
            True,
            "Enregistré.",
            "Recorded.",
        )
        # The round counted, as the screen's own entry counts it.
        engine = table.engine
        assert isinstance(engine, CinqRoisGame) and table.seq == seq + 1 and engine.round == 2
        # The rules accept the next round but the journal cannot take it (a real SQLite error,
        # raised by a trigger added behind the table's back) when the step commits it: the
        # phone reads what the screen says, in French typography, not "recorded", and the
        # round is not counted.
        other = sqlite3.connect(journal.path)
        other.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON events "
            "BEGIN SELECT RAISE(ABORT, 'the disk went away'); END"
        )
        other.commit()
        lost = (
            False,
            f"impossible d\u2019écrire dans le journal {journal.path}\u202f: the disk went away",
            f"could not write to the journal {journal.path}: the disk went away",
        )
        # Within a step, as the table's loop hands it over: no answer while the step's events
        # are applied but not yet journaled, then the journal's refusal.
        write = WebWrite(table.game_id, RoundEnd(out="Ben", points={"Ana": 4, "Cy": 1}), 0)
        app.hold()
        write.apply_to(app)
        assert write.wait(0) == silent.wait(0)  # not answered yet
        app.step()
        assert write.wait(0) == lost
        assert app.ui.message is not None and app.ui.message.en.endswith("the disk went away")
        assert app.table is not None and app.table.seq == seq + 1
        assert sum(isinstance(e, RoundEnd) for _, e in journal.events(table.game_id)) == 1
        # Outside a step (the table not holding its events), the entry is journaled at once and
        # its refusal answered at once, as the screen says it.
        app.ui.message = None
        app.table.commit()
        write = WebWrite(app.table.game_id, RoundEnd(out="Ben", points={"Ana": 4, "Cy": 1}), 0)
        write.apply_to(app)
        assert write.wait(0) == lost and app.table.seq == seq + 1
        other.execute("DROP TRIGGER refuse")
        other.commit()
        write = WebWrite(app.table.game_id, RoundEnd(out="Ben", points={"Ana": 4, "Cy": 1}), 0)
        write.apply_to(app)
        assert write.wait(0) == (True, "Enregistré.", "Recorded.") and app.table.seq == seq + 2
        other.close()
        app.stop_source()
