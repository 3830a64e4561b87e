"""One short name per player, chosen at setup and kept for the evening (issue 23, Build point 3
and finding 4): proposed unique at the table, typed like a name, refused with a reason when it
cannot be read as one player's, shown on every screen of every game in both languages, kept
in the journal's record of the game (never in the table log) for a resume and the next game."""

from __future__ import annotations

import os

from companion.display.app_actions import NewGame

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import itertools
import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.display import audit, names
from companion.display import viewing as viewing_mod
from companion.display.app import App
from companion.display.form_actions import Edit, Seats
from companion.display.names import SHORT_MOST, SHORT_WIDTH, name_forms, short_problem, width
from companion.display.snapshot import render, screens, ui_for, view_of
from companion.display.state import SetupForm, Ui
from companion.games import GAMES
from companion.table.fold import replay
from companion.table.journal import Journal
from companion.table.live import Table
from tests.app_helpers import painter_of, settle, table_of, touch
from tests.app_helpers import press_key as key
from tests.display.test_audit_legibility import LONG, states, uis
from tests.display.test_viewing_seven_inch import ARM_LENGTH

ROOT = Path(__file__).resolve().parents[2]
# The screens the issue names for each game: its table, the slap and its verdict, the score
# sheet, the game over.
SCREENS = {
    "kilo": ("table", "slap", "verdict", "history", "gameover"),
    "cinq-rois": ("round", "sheet", "lastturn", "gameover"),
    "treize": ("table", "play", "scores", "end", "gameover"),
}
CHOSEN = "Nana"  # for LONG[0], "Anne-Sophie Castelnaudry", proposed "A.-S. Ca."


def _texts(game: str, engine: Any, screen: str, lang: str, size: tuple[int, int] = (800, 480)) -> list[Any]:
    r = render(screen, view_of(engine), size, lang, ui_for(engine, lang))
    return list(r.painter.texts)  # type: ignore[attr-defined]


def _type(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    settle(app)


def _short_field(app: App, i: int) -> str:
    """What the setup's short form button of row ``i`` shows (its text records)."""
    control = next(c for c in painter_of(app).controls if c.action == Edit(i, short=True))
    return "".join(r.text for r in painter_of(app).texts if control.rect.contains(r.rect) and r.text != "_")


def _message(app: App) -> tuple[str, str]:
    assert app.ui.message is not None
    return app.ui.message.fr, app.ui.message.en


# --- the forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_a_chosen_short_form_is_the_one_every_screen_shows(game: str) -> None:
    """Chosen at setup, "Nana" stands for Anne-Sophie Castelnaudry on the table, the slap and
    its verdict, the sheet and the game over, in French and English at 800x480, and
    "A.-S. Ca." (the proposed form) is nowhere; elsewhere she is her full name."""
    full = LONG[0]
    seen: dict[tuple[str, str], set[str]] = {}
    for sample, engine in states(game):
        if full not in engine.players:
            continue
        proposed = name_forms(engine.players)[full][-1]
        names.choose(engine.players, {full: CHOSEN})
        for screen, lang in itertools.product(SCREENS[game], ("fr", "en")):
            if screen not in screens(game):
                continue
            for rec in _texts(game, engine, screen, lang):
                assert proposed not in rec.text, (sample, screen, lang, rec.text)
                if rec.kind == "name" and rec.who == full:
                    assert rec.text in (full, CHOSEN), (sample, screen, lang, rec.text)
                if CHOSEN in rec.text.split() or rec.text == CHOSEN:
                    seen.setdefault((screen, lang), set()).add(rec.text)
        names.forget()
    missing = [(s, lang) for s in SCREENS[game] for lang in ("fr", "en") if (s, lang) not in seen]
    assert not missing, f"{CHOSEN!r} not shown on {missing}"


def test_a_drawing_kept_for_reuse_never_shows_the_forms_of_before() -> None:
    """The painter keeps blocks it drew (``Painter.layer``) and copies them on the next frame;
    a short form chosen since is drawn, not the copy."""
    _, engine = max(states("kilo"), key=lambda s: len(s[1].players))
    full = LONG[0]
    for short in ("Nana", "Sosso", "Nana"):
        names.choose(engine.players, {full: short})
        for _ in range(3):  # drawn, drawn and kept, copied
            shown = {
                r.text for r in _texts("kilo", engine, "table", "fr") if r.kind == "name" and r.who == full
            }
            assert shown == {short}, (short, shown)


@pytest.mark.parametrize("game", list(GAMES))
def test_sizes_kept_for_a_table_are_measured_again_for_its_new_short_forms(game: str) -> None:
    """The kit keeps the names' size for a table (``kit._tiles_fit``, ``uniform_name_size``):
    narrow short forms, then the widest allowed at the same table, still keep names 4 mm."""
    _, engine = max(states(game), key=lambda s: len(s[1].players))
    for screen, lang in itertools.product(SCREENS[game], ("fr", "en")):
        names.choose(engine.players, {who: f"A{i}" for i, who in enumerate(engine.players)})
        render(screen, view_of(engine), (800, 480), lang, ui_for(engine, lang), audit=True)
        names.choose(engine.players, {who: _widest(i) for i, who in enumerate(engine.players)})
        r = render(screen, view_of(engine), (800, 480), lang, ui_for(engine, lang), audit=True)
        found = audit.caps(r.painter, (game, screen) in ARM_LENGTH)  # type: ignore[arg-type]
        assert not found, (screen, lang, found[:3])


@pytest.mark.parametrize("game", list(GAMES))
def test_a_player_has_the_same_short_form_in_french_and_english(game: str) -> None:
    """Finding 4: "Marie-T." in French and "Marie-Thérèse" in English on one game over. Over
    every screen and both sizes, a player is their full name or one short form, whichever the
    language."""
    for sample, engine in states(game):
        shown: dict[str, set[str]] = {}
        for screen, size, lang in itertools.product(screens(game), ((800, 480), (1920, 1080)), ("fr", "en")):
            for rec in _texts(game, engine, screen, lang, size):
                if rec.kind == "name" and rec.who:
                    shown.setdefault(rec.who, set()).add(rec.text)
        two = {who: sorted(forms - {who}) for who, forms in shown.items() if len(forms - {who}) > 1}
        assert not two, (sample, two)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_one_jean_at_the_table_is_never_jean_b(size: tuple[int, int]) -> None:
    """Finding 4: "Jean-B." with only one Jean at the table, even at 1920x1080. Kilo's table
    of ten with one Jean-Baptiste: "Jean" where his name does not fit, in both languages."""
    from companion.games.kilo.samples import SAMPLES

    events: list[dict[str, Any]] = SAMPLES["busy"]()
    first = events[0]["players"][0]
    text = json.dumps(events, ensure_ascii=False).replace(
        json.dumps(first, ensure_ascii=False), json.dumps("Jean-Baptiste Lefèbvre", ensure_ascii=False)
    )
    engine = replay(json.dumps(e, ensure_ascii=False) for e in json.loads(text))
    assert len(engine.players) == 10
    shown = set()
    for screen, lang in itertools.product(SCREENS["kilo"], ("fr", "en")):
        for rec in _texts("kilo", engine, screen, lang, size):
            assert "Jean-B." not in rec.text, (screen, lang, rec.text)
            if rec.kind == "name" and rec.who == "Jean-Baptiste Lefèbvre":
                shown.add(rec.text)
    assert shown and shown <= {"Jean-Baptiste Lefèbvre", "Jean"}, shown
    two = ("Jean-Baptiste Lefèbvre", "Jean Dupont", *engine.players[2:])
    assert name_forms(two)["Jean-Baptiste Lefèbvre"][-1] == "Jean-B."


def _widest(i: int) -> str:
    """A short form as wide as a chosen one may be: ordinary letters, then narrow ones to
    the last pixel, and a digit (unique)."""
    form = ""
    for letter in "Guillaume" + "l" * 5:
        if len(form) + 2 <= SHORT_MOST and width(f"{form}{letter}{i}") <= SHORT_WIDTH:
            form += letter
    return f"{form}{i}"


def test_the_widest_short_forms_keep_the_7_inch_rules() -> None:
    """Each player's short form as wide as ``SHORT_WIDTH`` allows: every game's screens at its
    longest table keep the 7" rules at 800x480 in both languages (names 4 mm, nothing cut or
    overlapping): why a wider one is refused."""
    for game in GAMES:
        sample, engine = max(states(game), key=lambda s: len(s[1].players))
        shorts = {who: _widest(i) for i, who in enumerate(engine.players)}
        assert min(width(s) for s in shorts.values()) >= SHORT_WIDTH - 5  # "l" is 6 px
        names.choose(engine.players, shorts)
        assert names.short_forms(engine.players) == shorts
        for screen, lang in itertools.product(SCREENS[game], ("fr", "en")):
            r = render(screen, view_of(engine), (800, 480), lang, ui_for(engine, lang), audit=True)
            p = r.painter
            found = audit.problems(p, engine.players) + audit.caps(p, (game, screen) in ARM_LENGTH)  # type: ignore
            assert not found, (game, sample, screen, lang, found[:5])
            drawn = " ".join(t.text for t in p.texts)  # type: ignore[attr-defined]
            assert any(short in drawn for short in shorts.values()), (game, screen)
        names.forget()


@pytest.mark.parametrize(
    ("short", "why_en", "why_fr"),
    [
        ("", "cannot be empty", "ne peut pas être vide"),
        ("   ", "cannot be empty", "ne peut pas être vide"),
        (
            "Anne-Sophie",
            "has 11 characters; a short name has at most 10, to fit a player’s tile",
            "a 11 caractères",
        ),
        ("Bénédicte", "is too wide for a player’s tile at a full table", "est trop large pour la case"),
        ("Zoé", "is Zoé’s name", "est le nom de Zoé"),
        ("zoé", "is Zoé’s name", "est le nom de Zoé"),
        ("Jean", "is already Jean-Baptiste Lefèbvre’s short name", "est déjà le nom court de Jean-Baptiste"),
    ],
)
def test_a_short_form_that_cannot_be_one_players_is_refused(short: str, why_en: str, why_fr: str) -> None:
    players = ("Anne-Sophie Castelnaudry", "Jean-Baptiste Lefèbvre", "Zoé")
    problem = short_problem(players[0], short, names.proposed(players), players)
    assert problem is not None
    fr, en = problem.fr, problem.en
    assert why_en in en and why_fr in fr
    assert "for example “Anne”" in en and "par exemple «\u202fAnne\u202f»" in fr
    assert short_problem(players[0], "Nana", names.proposed(players), players) is None


# --- the setup ---------------------------------------------------------------------------------


def _setup(journal: Journal, screen: pygame.Surface, lang: str = "fr") -> App:
    ui = Ui(lang=lang)
    ui.setup = SetupForm(game="kilo", players=list(LONG[:4]))
    app = App(screen, journal, None, ui)
    app.step()
    return app


def _choose(app: App, i: int, short: str) -> None:
    """Touch the short form of row ``i``, clear it, type ``short``, Enter."""
    touch(app, Edit(i, short=True))
    for _ in range(12):
        key(app, pygame.K_BACKSPACE)
    _type(app, short)
    key(app, pygame.K_RETURN)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_setup_shows_and_edits_each_short_form(
    journal: Journal, screen: pygame.Surface, lang: str
) -> None:
    app = _setup(journal, screen, lang)
    proposed = names.proposed(tuple(LONG[:4]))
    for i, who in enumerate(LONG[:4]):
        assert _short_field(app, i) == proposed[who]
    # The full name stands beside it, whole (two lines where it must), not shortened.
    fields = [r for r in painter_of(app).texts if r.kind == "field" and r.who == LONG[0]]
    assert " ".join(r.text for r in fields if r.text != proposed[LONG[0]]).replace("- ", "-") == LONG[0]
    _choose(app, 0, CHOSEN)
    assert app.ui.setup.editing is None and _short_field(app, 0) == CHOSEN
    key(app, pygame.K_RETURN)  # start
    assert table_of(app).meta["short"][LONG[0]] == CHOSEN
    drawn = {r.text for r in painter_of(app).texts if r.kind == "name" and r.who == LONG[0]}
    assert drawn <= {LONG[0], CHOSEN} and drawn, drawn


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_colliding_short_form_is_refused_at_enter_and_at_start(
    journal: Journal, screen: pygame.Surface, lang: str
) -> None:
    app = _setup(journal, screen, lang)
    other = names.proposed(tuple(LONG[:4]))[LONG[1]]  # "A.-S. Ch."
    _choose(app, 0, other)
    fr, en = _message(app)
    assert f"“{other}” is already {LONG[1]}’s short name" in en
    assert f"«\u202f{other}\u202f» est déjà le nom court d’{LONG[1]}" in fr
    assert app.ui.setup.editing == 0 and app.ui.setup.editing_short  # still being typed
    for _ in range(12):
        key(app, pygame.K_BACKSPACE)
    _type(app, CHOSEN)
    key(app, pygame.K_RETURN)
    assert app.ui.setup.editing is None
    # A name typed afterwards that is someone's short form: Start says so, and starts nothing.
    touch(app, Edit(2))
    for _ in range(30):
        key(app, pygame.K_BACKSPACE)
    _type(app, CHOSEN)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)  # start
    assert app.table is None
    fr, en = _message(app)
    assert f"“{CHOSEN}” is {CHOSEN}’s name" in en and f"«\u202f{CHOSEN}\u202f» est le nom de {CHOSEN}" in fr


def test_short_forms_survive_a_resume_and_are_proposed_for_the_next_game(
    journal: Journal, screen: pygame.Surface
) -> None:
    app = _setup(journal, screen)
    _choose(app, 0, CHOSEN)
    key(app, pygame.K_RETURN)  # start
    game_id = table_of(app).game_id
    app.stop_source()
    names.forget()  # a new process knows nothing but the journal
    table = Table.resume(journal, None)
    assert table.game_id == game_id
    again = App(screen, journal, table, Ui())
    again.step()
    assert CHOSEN in {r.text for r in painter_of(again).texts if r.kind == "name" and r.who == LONG[0]}
    # The next game with the same players: its setup proposes them again.
    again.do(NewGame())
    settle(again)
    assert again.ui.setup.short_of(LONG[0]) == CHOSEN
    assert _short_field(again, 0) == CHOSEN
    # Someone joins: another table, and still the form chosen for her.
    touch(again, Seats(1))
    assert len(again.ui.setup.players) == 5 and _short_field(again, 0) == CHOSEN
    again.stop_source()


def test_the_table_log_never_holds_them_and_a_replay_proposes_its_own(
    journal: Journal, screen: pygame.Surface
) -> None:
    """The export (the table log) is the same with or without chosen forms: a replay of it
    gives the same game and, with nothing chosen, the proposed forms."""
    app = _setup(journal, screen)
    _choose(app, 0, CHOSEN)
    key(app, pygame.K_RETURN)
    table = table_of(app)
    log = [payload for _, payload in journal.payloads(table.game_id)]
    assert CHOSEN not in "".join(log) and "short" not in json.loads(log[0])
    names.forget()
    engine = replay(log)
    assert engine.to_json() == table.engine.to_json()
    assert name_forms(engine.players)[LONG[0]][-1] == names.proposed(engine.players)[LONG[0]]
    app.stop_source()


def test_a_game_killed_and_resumed_shows_the_chosen_short_forms(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    """SIGKILL after the game started from the setup: the resumed game shows them."""
    child = textwrap.dedent(
        f"""
        import os, sys, time
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        sys.path.insert(0, {str(ROOT)!r})
        import pygame
        from companion.display.app import App
        from companion.display.form_actions import Edit, Start
        from companion.display.window import open_display
        from companion.display.state import SetupForm, Ui
        from companion.table.journal import Journal
        journal = Journal(__import__("pathlib").Path({str(tmp_path)!r}), writer=True)
        ui = Ui()
        ui.setup = SetupForm(game="kilo", players={LONG[:4]!r})
        app = App(open_display((800, 480), fullscreen=False), journal, None, ui)
        app.step()
        app.do(Edit(0, short=True))
        app.ui.setup.shorts[{LONG[0]!r}] = {CHOSEN!r}
        app.do(Start())
        assert app.table is not None
        print("started", flush=True)
        time.sleep(60)
        """
    )
    process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "started"
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    with Journal(tmp_path, writer=True) as journal:
        table = Table.resume(journal)
        assert table.meta["short"][LONG[0]] == CHOSEN
        app = App(screen, journal, table, Ui())
        app.step()
        assert CHOSEN in {r.text for r in painter_of(app).texts if r.kind == "name" and r.who == LONG[0]}


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_players_page_at_ten_long_names_keeps_its_rules(size: tuple[int, int], lang: str) -> None:
    """Kilo's ten players with long names: each short form at the tiles' name size (4 mm on the
    7" screen), every control 9 mm, every full name whole (never cut)."""
    _, engine = max(states("kilo"), key=lambda s: len(s[1].players))
    (ui,) = [u for u in uis(engine, "setup", lang) if u.setup.page == "players"]
    r = render("setup", None, size, lang, ui, audit=True)
    p = r.painter
    _what, per_mm, metres = viewing_mod.viewing(size)
    shorts = ui.setup.short_forms()
    for i, who in enumerate(engine.players):
        box = next(c.rect for c in p.controls if c.action == Edit(i, short=True))  # type: ignore[attr-defined]
        fields = [t for t in p.texts if t.kind == "field" and t.who == who]  # type: ignore[attr-defined]
        short = [t for t in fields if box.contains(t.rect)]
        assert [t.text for t in short] == [shorts[who]], (who, short)
        assert short[0].cap >= 4.0 * metres / 2 * per_mm - 0.5, (who, short)
        assert not any(t.cut for t in fields), who
    assert not audit.contained(p) and not audit.overlaps(p)  # type: ignore[arg-type]
    need = 9.0 * viewing_mod.viewing((800, 480))[1]
    if size == (800, 480):
        assert all(min(c.rect.size) >= need - 0.5 for c in p.controls)  # type: ignore[attr-defined]


def test_companion_play_proposes_the_last_games_short_forms(
    monkeypatch: pytest.MonkeyPatch, _isolated_data_dir: Path
) -> None:
    """A new start of ``companion play`` (no game named, none resumed) opens the setup with the
    last game's players: their chosen short forms come with them, from the journal."""
    from companion.cli import build_parser
    from companion.cli import play as play_cli
    from companion.games.kilo.events import NewKiloGame

    seen: dict[str, Any] = {}

    def run(journal: Any, table: Any, ui: Any, *rest: Any) -> int:
        seen.update(table=table, ui=ui)
        return 0

    monkeypatch.setattr(play_cli, "_run", run)
    players = tuple(LONG[:4])
    meta = {"input": "keyboard", "short": {**names.proposed(players), LONG[0]: CHOSEN}}
    with Journal(_isolated_data_dir, writer=True) as journal:
        Table.start(journal, NewKiloGame(players=list(players), rounds=5), meta)
    parsed = build_parser().parse_args(["play", "--fullscreen"])
    assert parsed.func(parsed) == 0
    assert seen["table"] is None and seen["ui"].setup.players == list(players)
    assert seen["ui"].setup.shorts == {LONG[0]: CHOSEN}  # only what differs from the proposed


def test_the_width_measure_outlives_the_font_module_closed_and_opened_again() -> None:
    """A screen closed and opened again (every test's screen, a display re-opened) quits pygame's
    font module: the measure's kept Font must not be used dead ("Invalid font", seen in the
    whole suite after another test closed its screen)."""
    import pygame

    from companion.display import names, snapshot

    names.width.cache_clear()
    before = names.width("Guillaume")
    pygame.font.quit()
    pygame.font.init()
    # The snapshots' kept fonts die too: cleared as `companion play` clears them when it quits
    # pygame, or every later test that draws a snapshot would fail.
    snapshot._FONTS.clear()
    names.width.cache_clear()
    assert names.width("Guillaume") == before
