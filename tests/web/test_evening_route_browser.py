"""The phones' evening tab in a real browser (Debian's chromium, as tests/web/test_server_browser.py
drives it): the figures read off the page equal `companion stats --json`'s."""

from __future__ import annotations

import json
from typing import Any

import pygame

from companion.games.kilo.events import Draw, NewKiloGame, Press, Verdict
from companion.table.journal import Journal
from tests.conftest import run_cli
from tests.web.test_server_browser import SCREENS, Browser, browser, serve, until

__all__ = ["browser"]  # the module's browser fixture, shared


def play_a_round(app: Any, t: int, last: str, card: str) -> None:
    for i, p in enumerate([p for p in ("Alice", "Bruno", "Chloé") if p != last] + [last]):
        app.submit(Press(player=p, t_us=t + 4000 * i))
    assert app.view is not None  # the frame between the slap and its verdict
    app.submit(Verdict(valid=True))
    app.submit(Draw(player=last, card=card))


def test_the_evening_tab_shows_the_figures_of_stats_json(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    app, web = serve(journal, screen, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=2))
    try:
        play_a_round(app, 1_000_000, "Chloé", "9H")
        play_a_round(app, 9_000_000, "Alice", "4S")
        assert app.game is not None and app.game.finished
        url = web.urls()["join"]

        def evening(ctx: Any) -> dict[str, tuple[str, str]]:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#tiles .tile[data-seat='2']")  # Kilo: its tiles (no list too)
            page.click("#tab-evening")
            page.wait_for_selector("body[data-evening] #evening .history")
            page.screenshot(path=str(SCREENS / "phone-evening.png"), full_page=True)
            found = {}
            for cell in page.locator("#evening .history [data-figure]").all():
                found[f"{cell.get_attribute('data-player')}.{cell.get_attribute('data-figure')}"] = (
                    cell.get_attribute("data-value") or "",
                    cell.inner_text(),
                )
            assert page.is_hidden("#standings")  # the game's view is behind the other tab
            return found

        SCREENS.mkdir(parents=True, exist_ok=True)
        shown = browser.run(evening, app)
        stats = json.loads(run_cli("stats", "--json", data_dir=journal.data_dir).stdout)["players"]
        assert {s["player"] for s in stats} == {"Alice", "Bruno", "Chloé"}
        for s in stats:
            p, k = s["player"], s["kilo"]
            assert shown[f"{p}.games"] == (str(s["games"]), str(s["games"]))
            assert shown[f"{p}.wins"] == (str(s["wins"]), str(s["wins"]))
            assert int(shown[f"{p}.kilos"][0]) == k["kilos"]
            assert shown[f"{p}.slap_losses"] == (str(k["slap_losses"]),) * 2
            assert int(shown[f"{p}.median_delay_us"][0]) == k["median_delay_us"]
            assert int(shown[f"{p}.best_delay_us"][0]) == k["best_delay_us"]
        # Shown as the table writes them: the median of Chloé's 8 and 4 ms is "6,0 ms".
        assert shown["Chloé.median_delay_us"][1] == "6,0 ms"
    finally:
        app.stop_source()
        web.stop()


def test_the_evening_tab_needs_a_viewers_code(
    browser: Browser, journal: Journal, screen: pygame.Surface
) -> None:
    app, web = serve(journal, screen, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=2))
    try:
        import urllib.error
        import urllib.request

        base = web.urls()["join"].rsplit("/t/", 1)[0]
        try:
            status = urllib.request.urlopen(base + "/t/nosuchcode/evening", timeout=10).status
        except urllib.error.HTTPError as err:
            status = err.code
        assert status == 404
        ok = until(lambda: urllib.request.urlopen(web.urls()["join"] + "/evening", timeout=10), app)
        assert ok.status == 200 and "L’historique de la table" not in ok.read().decode()  # nothing finished
    finally:
        app.stop_source()
        web.stop()


def test_the_game_over_screen_offers_the_evening_as_a_code(journal: Journal, screen: pygame.Surface) -> None:
    """800x480: the game-over screen's code is the viewers' address at the evening tab, read by a
    decoder, with modules a phone reads (4 px or more)."""
    from companion.display.qr import MIN_MODULE_PX, matrix
    from tests.web.test_server import _decoded

    app, web = serve(journal, screen, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=1))
    try:
        play_a_round(app, 1_000_000, "Chloé", "9H")
        app.ui.entry = app.ui.anim_start = None  # the drawn card's moment, over
        app.redraw()
        assert app.last_screen == "gameover"
        pygame.image.save(app.surface, str(SCREENS / "gameover-evening-code.png"))
        url = web.urls()["join"] + "#evening"
        found = [c for c in _decoded(app.surface) if c[0] == url]
        assert found, _decoded(app.surface)
        _, left, _, right, _ = found[0]
        assert (right - left) / (len(matrix(url)) - 8) >= MIN_MODULE_PX
    finally:
        app.stop_source()
        web.stop()
