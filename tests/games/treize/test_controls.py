"""13 feuilles on the table screen: the App driven by keys, touch and simulated buttons."""

from __future__ import annotations

import os

from companion.display.app_actions import Undo

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
import threading
from typing import Any, ClassVar

import pygame
import pytest

from companion.display.app import App
from companion.display.form_actions import Page, Seats
from companion.display.state import Ui
from companion.games.treize.actions import (
    CardsLeft,
    ChooseCount,
    ChooseValue,
    DrawLots,
    EndGame,
    NextVariant,
    OpenPlay,
    PassTurn,
    PlayEntered,
    Took,
    WhyCount,
    Winner,
)
from companion.games.treize.autoplay import lots_rng
from companion.games.treize.events import NewTreizeGame, Pass, Play
from companion.games.treize.rules import TreizeGame, draw_lots
from companion.games.treize.screens import TreizeScreens
from companion.inputs.base import InputEvent
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import press_key as key
from tests.app_helpers import touch

PLAYERS = ["Alice", "Bruno", "Chloé", "Dédé"]


def make_app(
    journal: Journal,
    screen: pygame.Surface,
    source: str = "keyboard",
    lang: str = "fr",
    starter: str | None = "Alice",
    players: list[str] | None = None,
    **kw: object,
) -> App:
    setup = NewTreizeGame(players=players or PLAYERS, variant="advanced", starter=starter)
    table = Table.start(journal, setup, {"input": source, "seed": 5})
    app = App(screen, journal, table, Ui(lang=lang), source_name=source, seed=5, **kw)  # type: ignore[arg-type]
    app.step()
    return app


def texts(app: App) -> list[str]:
    assert app.painter is not None
    return [rec.text.replace("\u202f", " ") for rec in app.painter.texts]


def engine(app: App) -> TreizeGame:
    game = app.game
    assert isinstance(game, TreizeGame)
    return game


def play_by_keys(app: App, value_key: int, count_key: int) -> None:
    key(app, pygame.K_RETURN)  # open the entry for the player whose turn it is
    assert app.last_screen == "play"
    key(app, value_key)
    key(app, count_key)
    key(app, pygame.K_RETURN)


def test_keyboard_plays_refusals_and_a_pass(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen)
    game = engine(app)
    assert app.last_screen == "table"
    play_by_keys(app, pygame.K_9, pygame.K_3)  # Alice: 3 x 9
    assert game.last_play is not None and (game.last_play.value, game.last_play.count) == (9, 3)
    assert game.turn == "Bruno" and app.last_screen == "table"
    assert "À Bruno" in texts(app) and any(x.startswith("Jouable") for x in texts(app))
    # Bruno tries 2 x 9: refused with the rule, nothing journaled.
    seq = app.table.seq  # type: ignore[union-attr]
    key(app, pygame.K_RETURN)
    key(app, pygame.K_9)
    key(app, pygame.K_2)
    assert app.ui.message is not None
    assert app.ui.message.fr.replace("\u202f", " ") == (
        "Bruno ne peut pas jouer 2 × 9 : 3 cartes au moins sur le 9"
    )
    assert app.ui.message.en == "Bruno cannot play 2 × 9: at least 3 cards on the 9"
    assert any("3 cartes au moins sur le 9" in x for x in texts(app))  # shown on screen
    key(app, pygame.K_RETURN)  # no count chosen: nothing to confirm
    assert app.table.seq == seq  # type: ignore[union-attr]
    key(app, pygame.K_BACKSPACE)  # back to choosing the value
    key(app, pygame.K_4)
    key(app, pygame.K_3)
    key(app, pygame.K_RETURN)  # Bruno: 3 x 4
    assert str(game.series) == "3×4 3×9" and game.turn == "Chloé"
    # Chloé tries a 6: between the ends.
    key(app, pygame.K_RETURN)
    key(app, pygame.K_6)
    assert app.ui.message is not None and app.ui.message.fr.replace("\u202f", " ") == (
        "Chloé ne peut pas jouer 1 × 6 : pas de carte entre 4 et 9"
    )
    assert app.table.seq == seq + 1  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    assert app.last_screen == "table"
    # Chloé passes with her button (key 3): two values lie on the table, so which one?
    frames = app.frames
    key(app, pygame.K_3)
    assert app.last_screen == "take" and app.frames == frames + 1
    key(app, pygame.K_9)
    assert game.passed == ("Chloé",)
    assert app.table.recent[-1] == Pass(player="Chloé", took=9)  # type: ignore[union-attr]
    assert "a passé" in texts(app) and "0" in texts(app)
    # A pass out of turn: the engine's sentence.
    key(app, pygame.K_2)
    assert app.ui.message is not None and "c’est à Dédé de jouer" in app.ui.message.fr
    assert game.passed == ("Chloé",)


def test_a_button_press_shows_passed_in_one_frame(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, lang="en")
    app.submit(Play(player="Alice", value=5, count=1))
    app.step()
    frames = app.frames
    key(app, pygame.K_2)  # Bruno's button: one value on the table, so the pass is complete
    assert app.frames == frames + 1
    assert engine(app).passed == ("Bruno",)
    # Bruno's tile: "passed" under the name, his points (0) in far type.
    assert "passed" in texts(app) and "0" in texts(app)
    # LEDs: lit for the players still in the trick.
    plan = TreizeScreens().leds(engine(app))
    assert plan.kind == "idle" and plan.lit == (0, 2, 3)


def test_a_press_before_the_first_play_is_refused_with_the_helper(
    journal: Journal, screen: pygame.Surface
) -> None:
    app = make_app(journal, screen, lang="en")
    key(app, pygame.K_2)
    assert app.ui.message is not None and "Alice leads with a play" in app.ui.message.en
    assert app.table.seq == 1  # type: ignore[union-attr]


def test_touch_lots_play_take_and_undo(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, starter=None)
    game = engine(app)
    assert app.last_screen == "lots"
    expected = draw_lots(lots_rng(5, 1), game).player
    touch(app, DrawLots())
    assert game.starter == expected and app.table.recent[-1].type == "starter"  # type: ignore
    assert app.ui.anim_start is not None  # the draw is animated, already journaled
    touch(app, OpenPlay())
    touch(app, ChooseValue(7))
    touch(app, ChooseCount(2))
    touch(app, PlayEntered())
    assert game.last_play is not None and game.last_play.player == expected
    who = game.turn
    assert who is not None
    touch(app, OpenPlay())
    touch(app, ChooseValue(3))
    assert app.painter is not None
    greyed = next(c for c in app.painter.controls if c.action == WhyCount(1))
    assert not greyed.enabled
    touch(app, WhyCount(1))  # a greyed count says why
    assert app.ui.message is not None and "2 cartes au moins sous le 7" in app.ui.message.fr
    touch(app, ChooseCount(2))
    touch(app, PlayEntered())
    assert str(game.series) == "2×3 2×7"
    nxt = game.turn
    assert nxt is not None
    touch(app, PassTurn(nxt))  # touching a player's tile: that player passes
    assert app.last_screen == "take"
    touch(app, Took(3))
    assert game.passed == (nxt,)
    touch(app, Undo())
    assert game.passed == () and app.ui.message is not None
    assert "Annulé" in app.ui.message.fr


def test_sim_buttons_play_an_advanced_match_to_the_end(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, source="sim", starter=None, players=PLAYERS[:3], speed=0.0)
    game = engine(app)
    for _ in range(100_000):
        if game.finished:
            break
        app.step(None)
    assert game.finished and game.winners()
    assert max(game.total(p) for p in game.players) >= 20
    assert game.games_played >= 2
    app.step()
    assert app.last_screen == "gameover"
    assert any("gagne" in x for x in texts(app))
    # Every move went through the journal: its replay is the same match.
    assert app.table is not None
    lines = [payload for _, payload in journal.payloads(app.table.game_id)]
    assert replay(lines).to_json() == game.to_json()
    kinds = {json.loads(x)["type"] for x in lines}
    assert {"starter", "play", "pass"} <= kinds
    app.stop_source()


def test_resume_reopens_the_match(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen)
    play_by_keys(app, pygame.K_5, pygame.K_2)
    key(app, pygame.K_2)  # Bruno passes (one value: taken at once)
    before = engine(app).to_json()
    app.stop_source()
    table = Table.resume(journal, None)
    again = App(screen, journal, table, Ui(), seed=5)
    again.step()
    assert again.last_screen == "table"
    assert engine(again).to_json() == before
    assert engine(again).turn == "Chloé"


def test_game_end_entry_for_a_game_without_plays(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, lang="en", starter=None)
    game = engine(app)
    key(app, pygame.K_RETURN)  # draw lots
    assert any("Series helper: on" in x for x in texts(app))
    key(app, pygame.K_a)  # this game without the helper: passes only
    assert any("Series helper: off" in x for x in texts(app))
    key(app, pygame.K_2)  # Bruno passes, in any order
    assert not game.tracking and game.passed == ("Bruno",)
    key(app, pygame.K_a)
    assert app.ui.message is not None and "before the game's first card" in app.ui.message.en
    key(app, pygame.K_RETURN)
    assert app.last_screen == "end"
    key(app, pygame.K_RETURN)
    assert app.ui.message is not None and "Pick who" in app.ui.message.en
    touch(app, Winner("Chloé"))
    for _ in range(3):
        touch(app, CardsLeft("Alice", -1))
    touch(app, EndGame())
    assert game.games_played == 1
    assert dict(game.history[0].scores) == {"Alice": 8, "Bruno": 11, "Chloé": 0, "Dédé": 11}
    assert app.last_screen == "scores"  # the sheet after each game of the match
    key(app, pygame.K_RETURN)
    assert app.last_screen == "table" and game.game_number == 2


def test_setup_form_starts_a_match(journal: Journal, screen: pygame.Surface) -> None:
    from companion.display.state import SetupForm

    ui = Ui(lang="en", game="treize", setup=SetupForm(game="treize", players=["Ana", "Bea", "Cy"]))
    app = App(screen, journal, None, ui)
    app.step()
    assert app.last_screen == "setup"
    touch(app, Page("settings"))
    assert any("Variant: advanced (to 20)" in x for x in texts(app))
    touch(app, NextVariant())
    touch(app, NextVariant())  # basic, then back to advanced
    touch(app, Page("players"))
    touch(app, Seats(1))
    key(app, pygame.K_RETURN)  # start
    game = engine(app)
    assert game.variant == "advanced" and len(game.players) == 4
    assert app.last_screen == "lots"
    key(app, pygame.K_RETURN)  # Enter draws lots too
    assert game.starter is not None and app.last_screen == "table"
    key(app, pygame.K_g)
    assert app.last_screen == "scores"
    key(app, pygame.K_r)
    assert app.last_screen == "rules"
    assert any("dotted circle = 5" in x for x in texts(app))
    key(app, pygame.K_s)
    assert app.last_screen == "status"


class HeldTimer:
    """threading.Timer for the simulated table's next move, fired when the test says."""

    scheduled: ClassVar[list[HeldTimer]] = []

    def __init__(self, delay: float, send: Any) -> None:
        self.send = send
        self.daemon = True
        HeldTimer.scheduled.append(self)

    def start(self) -> None:
        pass


def test_a_simulated_move_scheduled_before_an_undo_is_not_played_after_it(
    journal: Journal, screen: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20: the simulated players decide a move for one state and send it a moment later;
    the table undoes meanwhile. The move was for a state that is gone: it is dropped, and the
    players decide again for the state the undo gave back."""
    monkeypatch.setattr(threading, "Timer", HeldTimer)  # the module the screens call it from
    HeldTimer.scheduled = []
    app = make_app(journal, screen, source="sim", starter=None, players=PLAYERS[:3], speed=1.0)
    assert app.table is not None

    def journaled() -> list[dict[str, Any]]:
        assert app.table is not None
        return [json.loads(x) for _, x in journal.payloads(app.table.game_id)]

    def play_next() -> None:
        """Send the move scheduled last; step until the next one is scheduled."""
        n = len(HeldTimer.scheduled)
        HeldTimer.scheduled[-1].send()
        for _ in range(50):
            app.step()
            if len(HeldTimer.scheduled) > n:
                return
        raise AssertionError("the simulated players did not decide again")

    def pending() -> list[Any]:
        """What the scheduled move will send (read from its closure: the test picks a pass)."""
        for cell in HeldTimer.scheduled[-1].send.__closure__ or ():
            sent = cell.cell_contents
            if isinstance(getattr(sent, "items", None), tuple):  # SimMoves
                return list(sent.items)
            if isinstance(sent, list):  # the items one by one, as before SimMoves
                return sent
        raise AssertionError("no move in the scheduled send")

    for _ in range(4):  # the lots, then a few moves
        play_next()
    while not isinstance(pending()[0], InputEvent):  # a pass: a seat's button, not a play
        play_next()
    stale = HeldTimer.scheduled[-1]  # decided, not yet sent
    before = journaled()
    app.do(Undo())
    app.step()
    undone = journaled()
    assert undone[:-1] == before and undone[-1]["type"] == "undo"
    stale.send()  # it arrives after the undo
    for _ in range(5):
        app.step()
    assert journaled() == undone, "a move decided for the undone state was played"
    # ...nor refused in the table's face ("Bruno cannot pass: it is Alice's turn").
    assert app.ui.message is not None and app.ui.message.en.startswith("Undone"), app.ui.message
    # The players go on from the state the undo gave back: a new decision, played as such.
    assert HeldTimer.scheduled[-1] is not stale
    play_next()
    assert len(journaled()) == len(undone) + 1
    assert replay(json.dumps(e) for e in journaled()).to_json() == engine(app).to_json()
    app.stop_source()
