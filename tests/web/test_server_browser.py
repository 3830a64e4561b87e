"""The phones' pages in a real browser: Debian's chromium, headless, driven by Playwright at a
360x780 phone's size. The standings follow a journaled event, a pad's tap lands as that seat's
press, the scorer's Cinq Rois round is journaled. The screenshots go to a temporary folder, or
to docs/screens/ with COMPANION_SCREENS_OUT=docs/screens (a run of the suite leaves the checkout
as it was)."""

from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pytest

from companion.display.app import App
from companion.display.state import Ui
from companion.games.cinq_rois.events import NewCinqRoisGame, RoundEnd
from companion.games.kilo.events import NewKiloGame, Press
from companion.hardware.web_config import WebConfig
from companion.inputs.base import Clock, InputEvent
from companion.table.journal import Journal
from companion.table.live import Table
from companion.web.pad import DEFAULT_STEP_NS
from companion.web.server import WebServer, serve_table
from tests.app_helpers import table_of
from tests.conftest import skip_unless_ci

if TYPE_CHECKING:  # playwright is imported by the browser's thread only
    from playwright.sync_api import ViewportSize

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = Path(
    os.environ.get("COMPANION_SCREENS_OUT") or Path(tempfile.gettempdir()) / "companion-phone-screens"
)
PHONE: ViewportSize = {"width": 360, "height": 780}


def _browser_or_skip() -> None:
    if not Path(CHROMIUM).exists():
        skip_unless_ci("Debian's chromium is not installed (.ci/run installs it)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        skip_unless_ci("playwright is not installed (the test extra has it)")


class Browser:
    """Playwright on its own thread (its sync API blocks), while the test's thread runs the
    table's loop: ``run(fn)`` hands it a job and waits for the answer by stepping the table."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Any] = queue.Queue()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._main, daemon=True)
        self.thread.start()

    def _main(self) -> None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            self.context = browser.new_context(viewport=PHONE, has_touch=True, locale="fr-FR")
            self.ready.set()
            while True:
                job = self.jobs.get()
                if job is None:
                    break
                fn, box = job
                try:
                    box.put((True, fn(self.context)))
                except BaseException as exc:
                    box.put((False, exc))
            browser.close()

    def run(self, fn: Callable[[Any], Any], app: App, timeout: float = 60) -> Any:
        box: queue.Queue[Any] = queue.Queue()
        self.jobs.put((fn, box))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            app.step(0.01)
            if not box.empty():
                ok, value = box.get()
                if not ok:
                    raise value
                return value
        pytest.fail("the browser never finished its job")

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join(30)


def until(what: Callable[[], Any], app: App, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        app.step(0.01)
        got = what()
        if got:
            return got
    pytest.fail(f"never happened: {what}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    _browser_or_skip()
    b = Browser()
    if not b.ready.wait(60):
        pytest.fail("chromium did not start")
    yield b
    b.close()


def serve(journal: Journal, screen: pygame.Surface, setup: Any) -> tuple[App, WebServer]:
    table = Table.start(journal, setup, {"input": "keyboard"})
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    until(lambda: web.urls(), app)
    return app, web


def test_standings_and_a_pad_in_the_browser(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    app, web = serve(journal, screen, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=2))
    try:
        urls = web.urls()

        def open_pages(ctx: Any) -> Any:
            viewer = ctx.new_page()
            viewer.goto(urls["join"])
            viewer.wait_for_selector("#tiles .tile[data-seat='2']")  # Kilo: its tiles, no list too
            pad = ctx.new_page()
            pad.goto(urls["seat 2"])
            pad.wait_for_selector("#pad.ready")
            # (wait_for_function would need eval, which the pages' policy forbids: good.)
            pad.wait_for_selector("#res:has-text('±')")
            return viewer, pad

        viewer, pad = browser.run(open_pages, app)
        assert browser.run(lambda _: viewer.locator("#tiles .tile").count(), app) == 3
        seq = int(browser.run(lambda _: viewer.get_attribute("body", "data-seq"), app))
        SCREENS.mkdir(parents=True, exist_ok=True)
        browser.run(lambda _: viewer.screenshot(path=str(SCREENS / "phone-standings.png")), app)
        browser.run(lambda _: pad.screenshot(path=str(SCREENS / "phone-pad.png")), app)

        # A tap on the pad: the page sends the touch's own stamp; the table journals Bruno's
        # press, with the resolution the mapping allows.
        def tap(_: Any) -> None:
            pad.locator("#pad").tap()  # a finger: touchstart/pointerdown, then lifted
            pad.wait_for_selector("body[data-pressed='1']")

        browser.run(tap, app)
        presses = until(
            lambda: [e for _, e in journal.events(table_of(app).game_id) if isinstance(e, Press)], app
        )
        assert presses[0].player == "Bruno" and (presses[0].res_us or 1) < 100_000
        # The journaled press reaches the viewer's page.
        until(lambda: int(browser.run(lambda _: viewer.get_attribute("body", "data-seq"), app)) > seq, app)
    finally:
        app.stop_source()
        web.stop()


def test_a_cinq_rois_round_entered_on_the_scorer_phone_is_journaled(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    app, web = serve(journal, screen, NewCinqRoisGame(players=["Alice", "Bruno", "Chloé"]))
    try:
        url = web.urls()["scorer"]

        def enter(ctx: Any) -> str:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#form button")
            page.select_option("#out", "Bruno")
            page.fill("#pts0", "12")
            page.fill("#pts2", "7")
            page.screenshot(path=str(SCREENS / "phone-scorer.png"))
            page.click("#form button")
            page.wait_for_selector("#answer[data-ok]")
            return str(page.get_attribute("#answer", "data-ok")) + page.inner_text("#answer")

        answer = browser.run(enter, app)
        assert answer.startswith("1"), answer
        last = list(journal.events(table_of(app).game_id))[-1][1]
        assert isinstance(last, RoundEnd) and last.out == "Bruno"
        assert last.points == {"Alice": 12, "Chloé": 7}

        # Round 2, as cards left: typed as a phone's keyboard types them.
        def enter_left(ctx: Any) -> str:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#form button")
            page.select_option("#mode", "left")
            page.select_option("#out", "Alice")
            page.fill("#pts1", "ks jk")
            page.screenshot(path=str(SCREENS / "phone-scorer-left.png"))
            page.click("#form button")
            page.wait_for_selector("#answer[data-ok]")
            return str(page.get_attribute("#answer", "data-ok")) + page.inner_text("#answer")

        answer = browser.run(enter_left, app)
        assert answer.startswith("1"), answer
        last = list(journal.events(table_of(app).game_id))[-1][1]
        assert isinstance(last, RoundEnd) and last.out == "Alice"
        assert {p: [str(c) for c in cards] for p, cards in (last.left or {}).items()} == {
            "Bruno": ["KS", "JK"],
            "Chloé": [],
        }
    finally:
        app.stop_source()
        web.stop()


def test_a_table_of_phones_plays_a_whole_game_of_kilo(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    """Three pads in the browser slap, the table confirms each claim, the scorer's phone enters
    each card drawn, until the game is over."""
    names = ["Alice", "Bruno", "Chloé"]
    app, web = serve(journal, screen, NewKiloGame(players=names, rounds=2))
    try:
        urls = web.urls()

        def open_pads(ctx: Any) -> Any:
            pads = []
            for n in (1, 2, 3):
                page = ctx.new_page()
                page.goto(urls[f"seat {n}"])
                page.wait_for_selector("#res:has-text('±')")
                pads.append(page)
            scorer = ctx.new_page()
            scorer.goto(urls["scorer"])
            scorer.wait_for_selector("#nodraw")  # no draw owed yet: said so
            return pads, scorer

        pads, scorer = browser.run(open_pads, app)
        rounds = 0
        while not app.game.finished:
            rounds += 1
            assert rounds <= 10, "the game never ended"
            before = table_of(app).seq

            def slap(_: Any, order: tuple[int, ...] = (1, 0, 2)) -> None:
                for seat in order:
                    pads[seat].locator("#pad").tap()
                    pads[seat].wait_for_timeout(30)  # apart by more than their resolutions

            browser.run(slap, app)
            until(lambda: app.game.awaiting == "verdict", app)
            assert table_of(app).seq == before + 3  # three presses journaled, one per pad
            app.inbox.put(InputEvent("confirm", 0, "press", 0, Clock("referee", 1000), "gpio"))
            owed = until(lambda: app.game.owed_draws, app)[0]
            card = next(c for c, why in app.view.card_reasons.items() if why is None and c[0] in "34568")

            def draw(_: Any, owed: str = owed, card: str = card) -> str:
                scorer.reload()
                scorer.wait_for_selector("#ranks button")
                scorer.select_option("#player", owed)
                scorer.click(f"#ranks button[data-rank='{card[:-1]}']")  # as on the table: rank,
                scorer.click(f"#suits button[data-suit='{card[-1]}']")  # then suit
                scorer.click("#form button[type='submit']")
                scorer.wait_for_selector("#answer[data-ok]")
                return str(scorer.get_attribute("#answer", "data-ok"))

            assert browser.run(draw, app) == "1"
            until(lambda: not app.game.owed_draws, app)
        assert app.game.finished and rounds == 2
        presses = [e for _, e in journal.events(table_of(app).game_id) if isinstance(e, Press)]
        assert len(presses) == 6 and all((p.res_us or 1) < 100_000 for p in presses)
    finally:
        app.stop_source()
        web.stop()


def test_the_pages_give_the_table_their_instants(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    """Issue 34, what the pages' JavaScript does for the watermark: the pad measures how late
    the browser handed it the touch (its input allowance) and answers the table's question at
    once; the scorer's page asks its clock question, so its entry carries the instant it was
    sent on the table's clock, with its resolution."""
    from companion.games.kilo import samples
    from companion.inputs.web import WebSource
    from companion.web.scorer import WebWrite

    # A game where a draw is owed (Chloé's): the scorer's page offers its card entry then only.
    table = _journaled(journal, samples.midgame())
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    until(lambda: web.urls(), app)
    writes: list[WebWrite] = []

    class Recorder(queue.Queue):  # type: ignore[type-arg]
        def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
            if isinstance(item, WebWrite):
                writes.append(item)
            app.inbox.put(item)

    web.attach(Recorder())
    phones = WebSource(web)
    try:
        urls = web.urls()

        def open_pad(ctx: Any) -> Any:
            pad = ctx.new_page()
            pad.goto(urls["seat 3"])
            pad.wait_for_selector("#res:has-text('±')")
            pad.locator("#pad").tap()
            pad.wait_for_selector("body[data-pressed='1']")
            return pad

        browser.run(open_pad, app)
        session = web.pads[2]
        assert session.lag_measured  # pad.js sent how late the touch was handed over
        asked = time.monotonic_ns()
        phones.ask(asked)
        until(lambda: (phones.promise().watermark_ns or 0) >= asked, app)

        def enter(ctx: Any) -> tuple[int, int]:
            page = ctx.new_page()
            page.goto(urls["scorer"])
            page.wait_for_selector("#ranks button:not(.no)")
            page.locator("#ranks button:not(.no)").first.click()
            before = time.monotonic_ns()
            page.click("#form button[type='submit']")
            page.wait_for_selector("#answer[data-ok]")
            return before, time.monotonic_ns()

        before, after = browser.run(enter, app)
        (write,) = writes
        # The page asks its clock question as the entry is sent, both inside [before, after]:
        # the stated resolution is at most half that span and the page clock's step on both
        # readings, however slow a loaded machine made the exchange.
        assert write.res_ns is not None and write.res_ns <= (after - before) // 2 + 2 * DEFAULT_STEP_NS
        assert before - write.res_ns <= write.t_ns <= after
    finally:
        app.stop_source()
        web.stop()


def _journaled(journal: Journal, events: list[dict[str, Any]]) -> Table:
    """A table that has journaled ``events`` (a sample game of companion/games/*/samples.py)."""
    import json

    from companion.table.log import parse_event

    first = parse_event(json.dumps(events[0]))
    table = Table.start(journal, first, {"input": "keyboard"})  # type: ignore[arg-type]
    for e in events[1:]:
        table.submit(parse_event(json.dumps(e), table.engine.game))
    return table


def _views() -> list[tuple[str, list[dict[str, Any]], str, int]]:
    from companion.games.cinq_rois import samples as cinq
    from companion.games.kilo import samples as kilo
    from companion.games.treize import samples as treize

    # (name, events, the section that shows the game, how many of its parts are drawn)
    return [
        ("kilo", kilo.midgame(), "#tiles .tile", 5),
        ("cinq", cinq.midgame(), "#sheet table.sheet tr", 1 + 5 + 1),  # names, 5 rounds, totals
        ("treize", treize.result(), "#turns div.race", 5),
    ]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_games_view_on_a_360_px_phone(
    browser: Browser, journal: Journal, screen: pygame.Surface, index: int, lang: str
) -> None:
    """Kilo's tiles and last slap with its gaps, the Cinq Rois sheet, 13 feuilles' table and race
    to 20: drawn from the journal, names in their seat colours, nothing wider than the phone."""
    name, events, parts, count = _views()[index]
    table = _journaled(journal, events)
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    try:
        until(lambda: web.urls(), app)
        url = web.urls()["join"]

        def look(ctx: Any) -> tuple[int, float, str, str]:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector(parts)
            if lang == "en":
                page.click("#lang")
            widest = max(
                (box["x"] + box["width"])
                for box in (
                    page.locator(sel).nth(i).bounding_box()
                    for sel in ("main", "section:not([hidden])", ".tile", ".race", "div.scroll")
                    for i in range(page.locator(sel).count())
                )
                if box is not None
            )
            first = page.locator("section:not([hidden]) .who").first
            shown = str(first.get_attribute("style"))
            title = page.inner_text("main")
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / f"phone-{name}-{lang}.png"), full_page=True)
            n = page.locator(parts).count()
            page.close()
            return n, widest, shown, title

        n, widest, shown, text = browser.run(look, app)
        assert n == count
        assert widest <= PHONE["width"], f"{name}: something {widest} px wide on a 360 px phone"
        assert "color" in shown
        words = {"fr": {"kilo": "La table", "cinq": "Feuille de marque", "treize": "Course à 20"}}
        words["en"] = {"kilo": "The table", "cinq": "Score sheet", "treize": "Race to 20"}
        assert words[lang][name] in text
        if name == "kilo":  # the last slap, each press with its gap to the one before
            assert "+180 ms" in text
            assert ("+3,2 ms" if lang == "fr" else "+3.2 ms") in text  # the margin
    finally:
        app.stop_source()
        web.stop()
