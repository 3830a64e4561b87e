"""The table screen's rough edges of a first evening (issue 37): a drawing-of-lots overlay that
stayed until someone pressed a key, a rank typed on the wrong page that was lost."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.ui_state import kilo_ui
from companion.games.treize.actions import DrawLots
from companion.games.treize.events import NewTreizeGame
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import press_key as key
from tests.app_helpers import touch
from tests.display.test_app import make_app, slap_all


def test_the_step_in_which_the_lots_animation_ends_draws_before_it_waits(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    clock = [100.0]
    with Journal(tmp_path, writer=True) as journal:
        setup = NewTreizeGame(players=["Alice", "Bruno", "Chloé"], variant="advanced", starter=None)
        table = Table.start(journal, setup, {"input": "keyboard", "seed": 5})
        app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", seed=5, now=lambda: clock[0])
        app.step()
        for _ in range(1000):  # the idle-time work done first: a kiosk's table has had it
            if not (app.later.warm_pending or app.later.tally_pending):
                break
            app.step()
        assert not (app.later.warm_pending or app.later.tally_pending)
        touch(app, DrawLots())
        assert app.ui.anim_start is not None  # "Alice commence !" is on its way
        waited: list[float | None] = []
        real_wait = app.wait

        def recorded(timeout: float | None) -> list[pygame.event.Event]:
            waited.append(timeout)
            return real_wait(0.0)  # nothing comes: the kiosk's table sits still

        app.wait = recorded  # type: ignore[method-assign]
        clock[0] += app.screens.anim_seconds + 1
        frames = app.frames
        app.step(timeout=None)  # the kiosk's loop: wait for input unless something is due
        assert app.ui.anim_start is None
        assert waited == [0.0], waited  # not None: that wait lasted until the next key
        assert app.frames == frames + 1 and app.last_screen == "table"


def test_a_rank_typed_on_another_page_while_a_draw_is_owed_is_the_card(
    journal: Journal, screen: pygame.Surface
) -> None:
    app = make_app(journal, screen, lang="en")
    slap_all(app)
    key(app, pygame.K_RETURN)  # valid claim: Dédé owes a draw
    game = app.game
    assert game is not None and game.owed_draws == ("Dédé",)
    key(app, pygame.K_t)  # a look at the table first
    assert app.last_screen == "table"
    key(app, pygame.K_5)
    assert kilo_ui(app.ui).rank == "5" and app.last_screen == "card"
    key(app, pygame.K_F2)  # hearts
    key(app, pygame.K_RETURN)
    assert [str(c) for c in game.cards_of("Dédé")] == ["5H"]


def test_the_ace_on_kilos_card_grid_is_as_large_as_the_figures(tmp_path: Path) -> None:
    from companion.display.snapshot import render, ui_for, view_of
    from companion.games.kilo.samples import write_log
    from companion.table.fold import replay

    with write_log("midgame", tmp_path).open("rb") as log:
        game = replay(log)
    for size in ((800, 480), (1280, 720)):
        for lang in ("fr", "en"):
            painter = render("card", view_of(game), size, lang, ui_for(game, lang)).painter
            labels = {r.text: r for r in painter.texts if r.text in ("A", "4", "5", "10")}
            assert set(labels) == {"A", "4", "5", "10"}, sorted(labels)
            sizes = {r.size for r in labels.values()}
            heights = {r.rect.height for r in labels.values()}
            assert len(sizes) == 1 and len(heights) == 1, (
                size,
                lang,
                {t: (r.size, r.rect) for t, r in labels.items()},
            )


def _ink(suit: str, r: int) -> set[tuple[int, int]]:
    from companion.display.layout import draw_suit

    surface = pygame.Surface((2 * r + 5, 2 * r + 5), pygame.SRCALPHA)
    draw_suit(surface, suit, (r + 2, r + 2), r, (255, 255, 255))
    w, h = surface.get_size()
    return {(x, y) for x in range(w) for y in range(h) if surface.get_at((x, y)).a > 127}


def test_spades_and_clubs_differ_at_the_sizes_of_small_chips() -> None:
    """At a few pixels the two black suits were one blob (a dot on a resumed screen): a quarter
    of their ink at least must differ (it was a fifth at a radius of 5), at every radius a chip
    or a key may give them."""
    for r in range(3, 16):
        spade, club = _ink("S", r), _ink("C", r)
        assert len(spade ^ club) >= 0.25 * len(spade | club), r


def test_ten_seat_numbers_read_on_the_seven_inch_table(tmp_path: Path) -> None:
    """The number in each seat's mark is the key that player presses: at ten players on the 7"
    screen it was a fixed share of a 28 px mark (cap 9 px, "10" 7 px); now as large as its
    shape holds (the mark keeps its width: the names need it, tests/display/test_viewing_seven_inch.py)."""
    from companion.display.snapshot import render, ui_for, view_of
    from companion.games.kilo.samples import write_log
    from companion.table.fold import replay

    with write_log("busy", tmp_path).open("rb") as log:
        game = replay(log)
    assert len(game.players) == 10
    for lang in ("fr", "en"):
        painter = render("table", view_of(game), (800, 480), lang, ui_for(game, lang)).painter
        caps = dict(painter.seat_numbers)
        assert sorted(caps) == list(range(10)), caps
        assert caps[9] >= 9 and min(caps[s] for s in range(9)) >= 10 and caps[0] >= 15, caps


def test_the_cinq_rois_entry_speaks_with_the_catalogues_apostrophe() -> None:
    """The entry's own sentences had the straight apostrophe ("s'expose") on the screen that
    showed the catalogue's curly one ("chasse d’eau")."""
    from companion.games.cinq_rois.entry import RoundEntry

    entry = RoundEntry(round=1, players=("Ana", "Ben", "Cy"), size=5)
    entry.go_out(0)
    entry.select(0)
    said = entry.digit("3")
    assert said is not None
    fr, _en = said
    assert "s\u2019expose" in fr and "'" not in fr, fr
