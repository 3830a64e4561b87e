"""Les Cinq Rois on the table screen: every screen fits, the App plays whole games by keyboard and by
touch, the three round entries, fast card entry, refusals with nothing journaled, sim buttons,
the first dealer drawn by lot, resume."""

from __future__ import annotations

import os

from companion.display.app_actions import Again, Nav

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import json
import random
from pathlib import Path

import pygame
import pytest

from companion.cli import main
from companion.display.app import App
from companion.display.form_actions import NextGame, Page
from companion.display.snapshot import SIZES, render, screens, ui_for
from companion.display.state import Ui
from companion.games.cinq_rois.actions import (
    AddCard,
    Back,
    Continue,
    Digit,
    DrawLots,
    Enter,
    GoOut,
    NextDealer,
    PickDealer,
    PickPlayer,
    SetMode,
    ToEntry,
    TurnPlayed,
    WhyCard,
)
from companion.games.cinq_rois.entry import RoundEntry
from companion.games.cinq_rois.events import Dealer, NewCinqRoisGame, RoundEnd
from companion.games.cinq_rois.rules import CinqRoisGame
from companion.games.cinq_rois.samples import SAMPLES, write_log
from companion.games.cinq_rois.sim import play_round
from companion.games.cinq_rois.view import build_view
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import press_key, touch
from tests.display.test_display import assert_contained

SCREENS = screens("cinq-rois")
THREE = ["Ana", "Ben", "Cy"]


def game_of(sample: str) -> CinqRoisGame:
    engine = replay(json.dumps(e, ensure_ascii=False) for e in SAMPLES[sample]())
    assert isinstance(engine, CinqRoisGame)
    return engine


def entry_states(game: CinqRoisGame) -> list[Ui]:
    """The screen's own states over a game: nothing entered, last turns, a hand half entered."""
    out = []
    for mode, fill in (("points", False), ("hands", True), ("left", True)):
        for lang in ("fr", "en"):
            ui = ui_for(game, lang)
            entry = RoundEntry(game.round, game.players, game.cards or 13, mode=mode)  # type: ignore[arg-type]
            entry.go_out(1)
            if fill:
                for card in ("7H", "7H", "JK", "10*", "KS", "3D")[: entry.size]:
                    entry.add(card)
                entry.rank = "Q"
            else:
                entry.points = {game.players[0]: "125"}
            ui.entry = entry
            out.append(ui)
    return out


def assert_uncut(r: object) -> None:
    """No text of the game's screens is cut with an ellipsis (the Painter's last resort); a "…"
    written in the text itself (a pause, an elided list) is not a cut."""
    for rec in r.painter.texts:  # type: ignore[attr-defined]
        written = (
            rec.text.startswith(("Tirage", "Drawing")) or " … " in rec.text[-8:] or (rec.text.endswith(" …"))
        )
        assert not rec.text.endswith("…") or written, f"{rec.text!r} is cut"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_fits(screen: str, lang: str, size: tuple[int, int]) -> None:
    for sample in SAMPLES:
        game = game_of(sample)
        r = render(screen, build_view(game), size, lang, ui_for(game, lang))
        assert r.screen == screen
        assert_contained(r)
        if screen != "setup":  # the setup form's hints are the generic screen's
            assert_uncut(r)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", ["entry", "lastturn"])
def test_entry_states_fit(screen: str, size: tuple[int, int]) -> None:
    for sample in ("midgame", "busy"):
        game = game_of(sample)
        for ui in entry_states(game):
            r = render(screen, build_view(game), size, ui.lang, ui)
            assert_contained(r)
            assert_uncut(r)
            texts = " ".join(rec.text for rec in r.painter.texts)  # type: ignore[attr-defined]
            if screen == "lastturn":
                assert ("s\u2019expose" in texts) or ("goes out" in texts)


def test_lots_animation_frames_fit() -> None:
    game = game_of("midgame")
    for size in SIZES:
        for phase in (0.0, 0.5, 0.99):
            assert_contained(
                render("sheet", build_view(game), size, "fr", ui_for(game, "fr"), anim_phase=phase)
            )


def test_headline_and_sheet_in_french_and_english() -> None:
    game = game_of("midgame")
    view = build_view(game)
    r = render("sheet", view, (1920, 1080), "fr", ui_for(game, "fr"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    assert "Donne 6\u202f: 8 cartes, atout 8, donneur Chloé, Dédé commence" in texts
    assert str(view.totals[0]) in texts
    r = render("sheet", view, (1920, 1080), "en", ui_for(game, "en"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    assert "Round 6: 8 cards, bonus 8, dealer Chloé, Dédé plays first" in texts
    # Five players on the 7" screen: the kit's tiles too (the grid's rows would hold a total in
    # far type, but not its headline band: tests/review/test_findings23.py's smaller tables), the round to
    # play
    # framed, the dealer in the top bar.
    r = render("sheet", view, (800, 480), "fr", ui_for(game, "fr"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    assert "Donne 6\u202f: 8 cartes, atout 8" in texts and str(view.totals[0]) in texts
    # Seven: condensed into the kit's tiles, the round to play framed, the dealer in the top bar.
    game = game_of("busy")
    view = build_view(game)
    assert len(view.players) == 7
    r = render("sheet", view, (800, 480), "fr", ui_for(game, "fr"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    assert "Donne 11\u202f: 13 cartes, atout R" in texts and str(view.totals[0]) in texts


def test_arrangement_shows_wilds_and_leftovers() -> None:
    game = game_of("busy")
    r = render("round", build_view(game), (1920, 1080), "en", ui_for(game, "en"))
    texts = [rec.text for rec in r.painter.texts]  # type: ignore[attr-defined]
    last = game.last_round
    assert last is not None and last.arrangements is not None
    scores = {rec.text for rec in r.painter.texts if rec.kind == "score"}  # type: ignore[attr-defined]
    for player in game.players:  # each round's score in far type (the 7" rules)
        assert str(last.scores[player]) in scores
    # A wild's chip carries the card it stands for, on the wilds' yellow.
    wilds = [
        p
        for a in last.arrangements.values()
        for c in a.combinations
        for p in c.cards
        if p.wild and p.card != p.stands_for
    ]
    assert wilds
    assert "JK" in texts or any(w.card.rank is not None for w in wilds)


def test_snapshot_cli_draws_every_new_screen(tmp_path: Path) -> None:
    log = write_log("midgame", tmp_path)
    for screen in ("sheet", "lots", "lastturn", "entry", "round", "gameover", "rules"):
        out = tmp_path / f"{screen}.png"
        assert main(["snapshot", screen, "--log", str(log), "--size", "800x480", "--out", str(out)]) == 0
        assert pygame.image.load(str(out)).get_size() == (800, 480)


# --- the App ------------------------------------------------------------------------------------


def make_app(
    journal: Journal,
    screen: pygame.Surface,
    players: list[str] = THREE,
    dealer: str | None = None,
    source: str = "keyboard",
    lang: str = "fr",
    seed: int = 5,
) -> App:
    table = Table.start(
        journal, NewCinqRoisGame(players=players, dealer=dealer), {"input": source, "seed": seed}
    )
    app = App(screen, journal, table, Ui(lang=lang), source_name=source, seed=seed, speed=0.0)
    app.step()
    return app


PRESSES = [0]


def key(app: App, k: int, mod: int = 0) -> None:
    PRESSES[0] += 1
    press_key(app, k, mod)


def engine(app: App) -> CinqRoisGame:
    game = app.game
    assert isinstance(game, CinqRoisGame)
    return game


SEAT_KEYS = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5]
DIGITS = {str(d): getattr(pygame, f"K_{d}") for d in range(10)}


def type_text(app: App, text: str) -> None:
    for ch in text:
        key(app, DIGITS[ch])


def test_whole_game_by_keyboard(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen)
    game = engine(app)
    assert app.last_screen == "lots"
    key(app, pygame.K_RETURN)  # draw lots
    drawn = THREE[random.Random("5:cinq-rois:dealer").randrange(3)]
    assert game.dealer == drawn and game.dealer_drawn == drawn
    assert app.table is not None and isinstance(app.table.recent[-1], Dealer)  # journaled
    assert app.ui.anim_start is not None  # the draw is shown
    app.ui.anim_start = None
    expected = dict.fromkeys(THREE, 0)
    for n in range(1, 12):
        out = (n - 1) % 3
        others = [p for p in THREE if p != THREE[out]]  # entered in seating order
        expected[others[0]] += n + 1
        expected[others[1]] += n + 2
        key(app, SEAT_KEYS[out])  # "I go out"
        assert app.last_screen == "lastturn"
        for i in (1, 2):
            key(app, SEAT_KEYS[(out + i) % 3])  # last turns, in order
        assert app.last_screen == "entry"
        for i in (1, 2):
            type_text(app, str(n + i))
            key(app, pygame.K_RETURN)
        assert game.round == n + 1 or game.finished
        assert game.last_round is not None and game.last_round.out == THREE[out]
    assert game.finished and app.last_screen == "gameover"
    assert game.totals == expected
    assert game.winners


def test_keyboard_undo_brings_the_round_back_to_the_entry(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, dealer="Ana")
    game = engine(app)
    assert app.last_screen == "sheet"
    key(app, pygame.K_2)
    key(app, pygame.K_RETURN)  # skip the last turns
    type_text(app, "12")
    key(app, pygame.K_RETURN)
    type_text(app, "7")
    key(app, pygame.K_RETURN)
    assert game.round == 2 and game.totals == {"Ana": 12, "Ben": 0, "Cy": 7}
    key(app, pygame.K_u)  # undo
    assert game.round == 1
    assert app.last_screen == "entry"
    entry = app.ui.entry
    assert isinstance(entry, RoundEntry) and entry.out == "Ben"
    assert entry.points == {"Ana": "12", "Cy": "7"}
    assert app.ui.message is not None and "donne 1" in app.ui.message.fr


def test_whole_hands_by_touch_with_the_arrangement(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen)
    game = engine(app)
    touch(app, DrawLots())
    app.ui.anim_start = None
    app.step()
    for n in range(1, 12):
        played = play_round(game.players, n, game.dealer or "", random.Random(n))
        app.ui.screen = None
        app.step()
        assert app.last_screen == "sheet"
        touch(app, GoOut(game.players.index(played.out)))
        assert app.last_screen == "lastturn"
        touch(app, ToEntry())
        assert app.last_screen == "entry"
        touch(app, SetMode("hands"))
        for seat, player in enumerate(game.players):
            touch(app, PickPlayer(seat))
            for card in played.hands[player]:
                touch(app, AddCard(str(card)))
        touch(app, Enter())
        assert game.round == n + 1, app.ui.message
        last = game.last_round
        assert last is not None and last.entry == "hands" and last.arrangements is not None
        if not game.finished:
            assert app.last_screen == "round"
            touch(app, Continue())
    assert game.finished and app.last_screen == "gameover"
    touch(app, Again())
    assert app.game is not game and not engine(app).finished


def test_cards_left_entry(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, dealer="Cy")
    game = engine(app)
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RIGHT)  # points -> cards left
    entry = app.ui.entry
    assert isinstance(entry, RoundEntry) and entry.mode == "left" and entry.name == "Ben"
    for k in (pygame.K_k, pygame.K_s, pygame.K_x):  # KS, a joker
        key(app, k)
    key(app, pygame.K_RETURN)  # Ben done
    key(app, pygame.K_RETURN)  # Cy: no card left, and the round goes
    assert game.round == 2, app.ui.message
    assert game.totals == {"Ana": 0, "Ben": 63, "Cy": 0}


def test_a_13_card_hand_takes_about_two_keys_a_card(journal: Journal, screen: pygame.Surface) -> None:
    table = Table.start(journal, NewCinqRoisGame(players=["Ana", "Ben"], dealer="Ana"), {"input": "keyboard"})
    for _ in range(10):
        table.submit(RoundEnd(out="Ana", points={"Ben": 1}))
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard")
    app.step()
    game = engine(app)
    assert game.round == 11 and game.cards == 13
    ana = ["3S", "3H", "3D", "4C", "5C", "6C", "7C", "8S", "8H", "8D", "10*", "J*", "Q*"]
    ben = ["KS", "KH", "JK", "10S", "10H", "9D", "9C", "7S", "4H", "5D", "6*", "7*", "JK"]
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_LEFT)  # points -> hands (the modes wrap round)
    names = {"S": pygame.K_s, "H": pygame.K_h, "D": pygame.K_d, "C": pygame.K_c, "*": pygame.K_e}
    ranks = {
        **{str(d): getattr(pygame, f"K_{d}") for d in range(3, 10)},
        "10": pygame.K_0,
        "J": pygame.K_j,
        "Q": pygame.K_q,
        "K": pygame.K_k,
    }
    PRESSES[0] = 0
    for hand in (ana, ben):
        for card in hand:
            if card == "JK":
                key(app, pygame.K_j)
                key(app, pygame.K_k)
            else:
                key(app, ranks[card[:-1]])
                key(app, names[card[-1]])
    typed = PRESSES[0]
    assert typed == 2 * 26  # two keys a card, and a full hand moves on by itself
    key(app, pygame.K_RETURN)
    assert game.finished, app.ui.message
    last = game.last_round
    assert last is not None and last.scores["Ana"] == 0
    assert last.arrangements is not None and last.arrangements["Ben"].fully_combines is False


def test_refusals_say_why_and_journal_nothing(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, dealer="Ana", lang="en")
    assert app.table is not None
    seq = app.table.seq
    key(app, pygame.K_2)
    key(app, pygame.K_RETURN)
    entry = app.ui.entry
    assert isinstance(entry, RoundEntry)

    def said(words: str) -> None:
        assert app.ui.message is not None and words in app.ui.message.en, app.ui.message
        assert app.table is not None and app.table.seq == seq  # nothing journaled

    # Points for the player who went out, a negative score.
    touch(app, PickPlayer(1))
    key(app, pygame.K_5)
    said("Ben went out and scores 0")
    touch(app, PickPlayer(0))
    key(app, pygame.K_MINUS)
    said("Points are 0 or more")
    # A card that does not exist, a third copy, a seventh joker, a wrong hand size.
    key(app, pygame.K_RIGHT)  # cards left
    key(app, pygame.K_RIGHT)  # whole hands
    assert entry.mode == "hands"
    key(app, pygame.K_2)
    said("does not exist in Les Cinq Rois")
    for _ in range(2):
        key(app, pygame.K_7)
        key(app, pygame.K_h)
    key(app, pygame.K_7)
    key(app, pygame.K_h)
    said("7H is already entered twice (Ana)")
    touch(app, PickPlayer(2))
    for _ in range(3):
        key(app, pygame.K_x)
    touch(app, PickPlayer(1))
    for _ in range(3):
        key(app, pygame.K_x)
    touch(app, PickPlayer(0))
    key(app, pygame.K_x)  # a seventh joker
    said("Already 6 jokers this round")
    touch(app, WhyCard("JK"))  # greyed: touching it says why
    said("Already 6 jokers")
    key(app, pygame.K_RETURN)
    said("Hands not complete")
    # The engine's own refusals: a hand that does not combine for the one who went out, an
    # unknown player.
    assert not app.submit(
        RoundEnd(
            out="Ana", hands={"Ana": ["3S", "9H", "KD"], "Ben": ["3S", "4S", "5S"], "Cy": ["3H", "3D", "3C"]}
        )
    )
    said("Ana cannot go out: 3S 9H KD")
    assert not app.submit(RoundEnd(out="Zed", points={"Ana": 1}))
    said("unknown player 'Zed'")
    assert engine(app).round == 1


def test_sim_players_go_out_and_fill_the_hands(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, source="sim", seed=11)
    game = engine(app)
    for n in range(1, 4):
        for _ in range(20):
            app.step()
            if app.last_screen == "entry":
                break
        assert app.last_screen == "entry", app.last_screen
        entry = app.ui.entry
        assert isinstance(entry, RoundEntry) and entry.mode == "hands" and not entry.pending
        played = play_round(game.players, n, game.dealer or "", random.Random(f"11:cinq-rois:round:{n}"))
        assert entry.out == played.out  # the simulated player who combined first pressed
        assert entry.cards == {p: [str(c) for c in h] for p, h in played.hands.items()}
        key(app, pygame.K_RETURN)  # the table confirms the simulated hands
        assert game.round == n + 1, app.ui.message
        assert game.dealer_drawn is not None
        key(app, pygame.K_RETURN)  # past the arrangements
    app.stop_source()


def test_leds_light_the_players_owed_a_last_turn(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, players=["Ana", "Ben", "Cy", "Dé"], dealer="Ana")
    gs = app.screens
    key(app, pygame.K_2)  # Ben goes out: Cy, Dé, Ana have a last turn
    assert gs.leds(app.game).lit == (2, 3, 0)
    key(app, pygame.K_3)
    assert gs.leds(app.game).lit == (3, 0)
    entry = app.ui.entry
    assert isinstance(entry, RoundEntry) and entry.pending == ["Dé", "Ana"]
    key(app, pygame.K_ESCAPE)  # a mistaken press: nobody went out
    assert gs.leds(app.game).lit == ()
    assert app.last_screen == "sheet"


def test_resume_reopens_the_game_with_the_drawn_dealer(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen)
    key(app, pygame.K_RETURN)
    dealer = engine(app).dealer
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)
    type_text(app, "4")
    key(app, pygame.K_RETURN)
    type_text(app, "9")
    key(app, pygame.K_RETURN)
    assert engine(app).round == 2
    game_id = app.table.game_id  # type: ignore[union-attr]
    app.stop_source()
    table = Table.resume(journal, None)
    assert table.game_id == game_id
    again = App(screen, journal, table, Ui(), seed=5)
    again.step()
    game = engine(again)
    assert game.round == 2 and game.dealer_of(1) == dealer and not game.dealer_open
    assert again.last_screen == "sheet"


def test_setup_form_starts_a_game_with_a_chosen_dealer(journal: Journal, screen: pygame.Surface) -> None:
    app = App(screen, journal, None, Ui(lang="fr"))
    app.step()
    assert app.last_screen == "setup"
    touch(app, Page("settings"))
    touch(app, NextGame())  # Kilo de merde -> Les Cinq Rois
    assert app.ui.setup.game == "cinq-rois"
    assert app.painter is not None
    assert any("Donneur\u202f: au sort" in rec.text for rec in app.painter.texts)
    touch(app, NextDealer())
    touch(app, NextDealer())  # the second player
    assert any("Donneur\u202f: Bruno" in rec.text for rec in app.painter.texts)
    key(app, pygame.K_RETURN)
    game = engine(app)
    assert game.setup.dealer == "Bruno" and not game.dealer_open
    assert app.last_screen == "sheet"


def test_setup_form_without_a_dealer_opens_the_draw(journal: Journal, screen: pygame.Surface) -> None:
    app = App(screen, journal, None, Ui(lang="en"))
    app.step()
    touch(app, Page("settings"))
    touch(app, NextGame())
    key(app, pygame.K_RETURN)
    assert engine(app).dealer_open and app.last_screen == "lots"
    touch(app, PickDealer(2))  # the table chooses instead of drawing
    assert engine(app).dealer == engine(app).players[2]


def test_seat_leds_on_gpiozero_mock_pins(journal: Journal, screen: pygame.Surface) -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.hardware.leds import IDLE, OFF, PRESS_SEEN, SeatLeds

    factory = MockFactory()
    leds = SeatLeds([5, 6, 13], pin_factory=factory, pwm=False)
    try:
        table = Table.start(journal, NewCinqRoisGame(players=THREE, dealer="Ana"), {"input": "keyboard"})
        app = App(screen, journal, table, Ui(), source_name="keyboard", leds=leds)
        app.step()
        showing = lambda: [leds.showing(s) for s in range(3)]  # noqa: E731
        assert showing() == [IDLE] * 3
        key(app, pygame.K_3)  # Cy goes out: Ana then Ben have a last turn
        assert showing() == [PRESS_SEEN, PRESS_SEEN, IDLE]
        key(app, pygame.K_1)
        assert showing() == [IDLE, PRESS_SEEN, IDLE]
        key(app, pygame.K_2)
        assert showing() == [IDLE] * 3 and app.last_screen == "entry"
        for points in ("5", "8"):
            type_text(app, points)
            key(app, pygame.K_RETURN)
        assert engine(app).round == 2 and showing() == [IDLE] * 3
        app.stop_source()
        app.buttons.off()
        assert showing() == [OFF] * 3
    finally:
        leds.close()
        factory.close()


def click(app: App, action: object) -> None:
    """A mouse click on the centre of the control that does ``action``."""
    assert app.painter is not None
    control = next(c for c in app.painter.controls if c.action == action)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=control.rect.center, button=1, touch=False)
    )
    app.step()


def test_points_and_cards_left_by_mouse(journal: Journal, screen: pygame.Surface) -> None:
    app = make_app(journal, screen, dealer="Ben", lang="en")
    game = engine(app)
    click(app, Nav("entry"))
    assert app.last_screen == "entry"
    click(app, Enter())  # nobody marked out yet: the screen asks who
    assert app.ui.message is not None and "Who went out?" in app.ui.message.en
    click(app, GoOut(2))  # Cy went out (chosen on the entry: no last turns to wait for)
    assert app.last_screen == "entry"
    for d in "104":
        click(app, Digit(d))
    click(app, Back())
    click(app, Enter())
    click(app, Digit("7"))
    click(app, Enter())
    assert game.round == 2 and game.totals == {"Ana": 10, "Ben": 7, "Cy": 0}
    assert app.last_screen == "sheet"  # points: nothing more to show
    click(app, GoOut(0))  # Ana goes out (touching her name on the sheet)
    assert app.last_screen == "lastturn"
    click(app, TurnPlayed(1))
    click(app, TurnPlayed(2))
    assert app.last_screen == "entry"
    click(app, SetMode("left"))
    entry = app.ui.entry
    assert isinstance(entry, RoundEntry) and entry.name == "Ben"
    click(app, AddCard("QH"))
    click(app, AddCard("4*"))  # the round's bonus rank: 20 points
    click(app, Enter())
    click(app, Enter())  # Cy: no card left
    assert game.round == 3, app.ui.message
    assert game.last_round is not None and game.last_round.scores == {"Ana": 0, "Ben": 32, "Cy": 0}
    assert app.last_screen == "round"
    assert app.painter is not None
    assert any(rec.text == "32" and rec.kind == "score" for rec in app.painter.texts)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("sample", ["midgame", "busy"])
def test_the_sheet_gives_each_colour_its_one_meaning(sample: str, size: tuple[int, int]) -> None:
    """One colour per role (docs/screen.md, the kit; issue 23, finding 5): the leaders' totals and
    places in the colour of first place, as the kit's tiles draw them (the condensed sheet), not
    in the warning's yellow; a place lost is the kit's quiet arrow, never red (red is who draws,
    the loser, and Les Cinq Rois has neither)."""
    from companion.display.kit import ROLE
    from companion.display.theme import BAD, WARN

    game = game_of(sample)
    view = build_view(game)
    assert view.leaders and any(m < 0 for m in view.moves)  # a leader, and places lost
    r = render("sheet", view, size, "fr", ui_for(game, "fr"))
    texts = r.painter.texts  # type: ignore[attr-defined]
    lead = [x for x in texts if x.kind == "score" and x.who in view.leaders]
    assert lead and all(x.color == ROLE["first"] for x in lead)
    assert not [x.text for x in texts if x.color == WARN]
    red = pygame.mask.from_threshold(r.surface, BAD, (1, 1, 1, 255)).count()  # type: ignore[arg-type]
    assert red == 0


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_place_reads_the_same_on_every_sheet(size: tuple[int, int]) -> None:
    """A place is written one way on every screen (the kit's ``ordinal``): the grid and the
    portrait sheet said "#1", "#2" in English where the condensed sheet's tiles said "1st"."""
    from companion.display.kit import ordinal

    game = game_of("busy")
    view = build_view(game)
    for lang in ("fr", "en"):
        r = render("sheet", view, size, lang, ui_for(game, lang))
        texts = {x.text for x in r.painter.texts}  # type: ignore[attr-defined]
        assert not [x for x in texts if x.startswith("#")]
        assert {ordinal(n, lang) for n in view.places} <= texts
