"""The pads' page in Debian's chromium through a phone's life (issue 36): a second page of a seat
takes it once and the first says so and stays closed; a revoked code is said, not knocked at
for ever; a table that restarts finds its pads back by themselves, each pressing again at
once; a code of a finished game is said dead. No table loop: the server alone, its game named
by the test (presses are answered, not journaled)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hardware.web_config import WebConfig
from companion.web.server import WebServer
from tests.web.test_server_browser import SCREENS, Browser, browser  # noqa: F401  (the module's chromium)


class Idle:
    """What ``Browser.run`` steps while the browser works: nothing but time here."""

    def step(self, dt: float) -> None:
        time.sleep(dt)


IDLE: Any = Idle()


def until(what: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.01)
    pytest.fail(f"never happened: {what}")


@pytest.fixture
def game() -> list[str]:
    return ["g1"]


def serve(tmp_path: Path, game: list[str], port: int = 0) -> WebServer:
    web = WebServer(
        WebConfig(bind="127.0.0.1", port=port, public_host="127.0.0.1"),
        tmp_path,
        current_game=lambda: game[0],
    )
    web.start()
    return web


@pytest.fixture
def web(tmp_path: Path, game: list[str]) -> Iterator[WebServer]:
    w = serve(tmp_path, game)
    yield w
    w.stop()


def pad_url(web: WebServer, seat: int) -> str:
    return f"http://127.0.0.1:{web.port}/pad/{web.pairings.for_game('g1', 3).seats[seat]}"


def tap_until(page: Any, pressed: int) -> None:
    page.locator("#pad").tap()
    page.wait_for_selector(f"body[data-pressed='{pressed}']")


def test_two_pages_of_one_seat_do_not_take_it_from_each_other(browser: Browser, web: WebServer) -> None:  # noqa: F811
    url = pad_url(web, 0)

    def first(ctx: Any) -> Any:
        a = ctx.new_page()
        a.goto(url)
        a.wait_for_selector("#res:has-text('±')")
        for n in (1, 2, 3):
            tap_until(a, n)
        return a

    a = browser.run(first, IDLE)
    phone = browser.run(lambda ctx: ctx.browser.new_context(has_touch=True, locale="fr-FR"), IDLE)

    def second(_: Any) -> Any:
        b = phone.new_page()
        b.goto(url)
        b.wait_for_selector("#res:has-text('±')")
        tap_until(b, 1)  # a new phone's first press counts (the old page had sent three)
        a.wait_for_selector("body[data-closed='replaced']")
        return b

    b = browser.run(second, IDLE)
    held = web.pads[0]
    # The old page used to reconnect a second later and take the seat back, and so on for ever:
    # two of its retry periods, and the seat is still the new page's.
    browser.run(lambda _: a.wait_for_timeout(2500), IDLE)
    assert web.pads[0] is held
    assert "autre téléphone" in browser.run(lambda _: a.inner_text("#msg"), IDLE)
    browser.run(lambda _: tap_until(b, 2), IDLE)
    # Revoked from the table: said on the page, and not knocked at again.
    refused = web.refused
    web.pairings.revoke_seat("g1", 0)
    browser.run(lambda _: b.wait_for_selector("body[data-closed='revoked']"), IDLE)
    browser.run(lambda _: b.wait_for_timeout(1500), IDLE)
    assert web.refused == refused and 0 not in web.pads
    assert "plus valable" in browser.run(lambda _: b.inner_text("#msg"), IDLE)
    browser.run(lambda _: phone.close(), IDLE)


def test_a_restarted_table_finds_its_pads_and_a_dead_code_is_said(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
    game: list[str],
) -> None:
    first = serve(tmp_path, game)
    port = first.port
    url = pad_url(first, 1)

    def open_and_tap(ctx: Any) -> Any:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("#res:has-text('±')")
        tap_until(page, 1)
        tap_until(page, 2)
        return page

    page = browser.run(open_and_tap, IDLE)
    join = f"http://127.0.0.1:{port}/t/{first.pairings.for_game('g1', 3).join}"

    def open_viewer(ctx: Any) -> Any:
        viewer = ctx.new_page()
        viewer.goto(join)
        viewer.wait_for_selector("#state")
        return viewer

    viewer = browser.run(open_viewer, IDLE)
    until(lambda: len(first._viewers) == 1)
    first.stop()  # as kill -9 does for the phones: the socket goes, nothing said
    browser.run(lambda _: page.wait_for_selector("body[data-closed='waiting']"), IDLE)
    assert "redémarre" in browser.run(lambda _: page.inner_text("#msg"), IDLE)
    again = serve(tmp_path, game, port)  # the same game resumed: the same codes
    started = time.monotonic()
    try:
        browser.run(lambda _: page.wait_for_selector("#pad.ready", timeout=15_000), IDLE)
        browser.run(lambda _: page.wait_for_selector("#res:has-text('±')"), IDLE)
        browser.run(lambda _: tap_until(page, 1), IDLE)  # its own count again, answered ok
        back_s = time.monotonic() - started
        assert back_s < 10, back_s
        until(lambda: len(again._viewers) == 1)  # the viewer's stream came back by itself
    finally:
        again.stop()
    game[0] = "g2"  # a new game after the restart: the old codes are dead
    third = serve(tmp_path, game, port)
    try:
        browser.run(lambda _: page.wait_for_selector("body[data-closed='dead']", timeout=15_000), IDLE)
        assert "n'ouvre plus rien" in browser.run(lambda _: page.inner_text("#msg"), IDLE)
        # The viewer of the last game: told its code is dead, not "retrying" for ever.
        browser.run(lambda _: viewer.wait_for_selector("body[data-closed='ended']", timeout=15_000), IDLE)
        assert "autre partie" in browser.run(lambda _: viewer.inner_text("#state"), IDLE)
        refused = third.refused
        browser.run(lambda _: page.wait_for_timeout(2500), IDLE)
        assert third.refused == refused  # they stopped knocking
    finally:
        third.stop()


def test_the_pages_use_the_tables_typeface_and_colour_roles(browser: Browser, web: WebServer) -> None:  # noqa: F811
    """Atkinson Hyperlegible from the installed font package (the table may have no internet),
    fetched by chromium because the pages' text uses it; the colours of the table's theme."""
    import httpx
    from fontpkg_atkinson_hyperlegible import ROOT

    from companion.display import theme

    base = f"http://127.0.0.1:{web.port}"
    bold = httpx.get(f"{base}/font/AtkinsonHyperlegible-Bold.ttf")
    assert (
        bold.status_code == 200
        and bold.content == (ROOT / "files" / "AtkinsonHyperlegible-Bold.ttf").read_bytes()
    )
    assert "font-src 'self'" in bold.headers["content-security-policy"]
    assert httpx.get(f"{base}/font/..%2f__init__.py").status_code == 404
    assert httpx.get(f"{base}/font/nothing.ttf").status_code == 404
    css = httpx.get(f"{base}/static/theme.css").text
    for role, colour in (("bg", theme.BG), ("fg", theme.FG), ("accent", theme.ACCENT), ("bad", theme.BAD)):
        assert f"--{role}: #{colour[0]:02x}{colour[1]:02x}{colour[2]:02x};" in css
    url = pad_url(web, 0)
    join = f"{base}/t/{web.pairings.for_game('g1', 3).join}"

    def fonts_fetched(ctx: Any) -> list[str]:
        fetched: list[str] = []
        page = ctx.new_page()
        page.on("response", lambda r: fetched.append(f"{r.status} {r.url}") if "/font/" in r.url else None)
        page.goto(url)
        page.wait_for_selector("#pad.ready")
        viewer = ctx.new_page()
        viewer.on("response", lambda r: fetched.append(f"{r.status} {r.url}") if "/font/" in r.url else None)
        viewer.goto(join)
        viewer.wait_for_selector("#state")
        viewer.wait_for_load_state("networkidle")
        page.close()
        viewer.close()
        return fetched

    fetched = browser.run(fonts_fetched, IDLE)
    assert any(f.startswith("200 ") and f.endswith("AtkinsonHyperlegible-Bold.ttf") for f in fetched), fetched


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_standings_say_the_game_once_and_each_player_once(
    browser: Browser,  # noqa: F811
    journal: Any,
    screen: Any,
    index: int,
) -> None:
    """The game's name was the title and the summary's first words; Kilo's and 13 feuilles'
    players were listed in the standings and again in the game's own view of the table."""
    from companion.display.app import App
    from companion.display.state import Ui
    from companion.web.server import serve_table
    from tests.web.test_server_browser import _journaled, _views
    from tests.web.test_server_browser import until as step_until

    name, events, parts, _ = _views()[index]
    table = _journaled(journal, events)
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    try:
        step_until(lambda: web.urls(), app)
        url = web.urls()["join"]

        def look(ctx: Any) -> tuple[str, str, bool]:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector(parts)
            title, summary = page.inner_text("#title"), page.inner_text("#summary")
            listed = page.locator("#standings").is_visible()
            page.close()
            return title, summary, listed

        title, summary, listed = browser.run(look, app)
        game_name = title.split(" — ")[0]
        assert game_name and game_name not in summary, (title, summary)
        # Kilo's tiles and 13 feuilles' table name every player with their score: no list too.
        assert listed == (name == "cinq")
    finally:
        app.stop_source()
        web.stop()


def test_the_scorer_enters_a_kilo_card_as_the_table_does(
    browser: Browser,  # noqa: F811
    journal: Any,
    screen: Any,
) -> None:
    """Rank, then suit (optional), on buttons; what the pile cannot hold any more is shown as
    the table shows it, and tapping it says why, in the table's words; the card drawn is
    journaled for the player who owes the draw."""
    from companion.display.app import App
    from companion.display.state import Ui
    from companion.games.kilo import samples
    from companion.games.kilo.events import Draw
    from companion.games.kilo.view import build_view
    from companion.web.server import serve_table
    from tests.web.test_server_browser import _journaled
    from tests.web.test_server_browser import until as step_until

    table = _journaled(journal, samples.midgame())
    view = build_view(table.engine)  # type: ignore[arg-type]  # a Kilo table
    refused = [r for r, why in view.rank_reasons.items() if why is not None]
    rank = next(r for r, why in view.rank_reasons.items() if why is None)
    suit = next(c[-1] for c, why in view.card_reasons.items() if c[:-1] == rank and why is None)
    assert refused and view.owed
    web = WebServer(WebConfig(bind="127.0.0.1", port=0, public_host="127.0.0.1"), journal.data_dir)
    app = App(screen, journal, table, Ui(lang="fr"), source_name="keyboard", web=web)
    serve_table(web, app)
    try:
        step_until(lambda: web.urls(), app)
        url = web.urls()["scorer"]

        def enter(ctx: Any) -> tuple[list[str], str, str]:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#ranks button")
            shown = [str(b.get_attribute("data-rank")) for b in page.locator("#ranks button").all()]
            assert shown == list(view.rank_reasons)  # the table's order, A to K
            shown_refused = [
                str(b.get_attribute("data-rank")) for b in page.locator("#ranks button.no").all()
            ]
            page.click(f"#ranks button[data-rank='{refused[0]}']", force=True)  # greyed, still tappable
            why = page.inner_text("#answer")
            page.click(f"#ranks button[data-rank='{rank}']")
            page.click(f"#suits button[data-suit='{suit}']")
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / "phone-scorer-kilo.png"), full_page=True)
            page.click("#form button[type='submit']")
            page.wait_for_selector("#answer[data-ok]")
            answer = str(page.get_attribute("#answer", "data-ok"))
            page.close()
            return shown_refused, why, answer

        shown_refused, why, ok = browser.run(enter, app)
        assert shown_refused == refused
        reason = view.rank_reasons[refused[0]]
        assert reason is not None and why == reason[0]
        assert ok == "1"
        last = list(journal.events(table.game_id))[-1][1]
        assert isinstance(last, Draw) and last.player == view.owed[0] and str(last.card) == rank + suit
    finally:
        app.stop_source()
        web.stop()
