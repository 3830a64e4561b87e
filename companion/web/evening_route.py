"""The phones' evening tab: ``/t/{code}/evening`` gives the evening's sections (``web/evening.py``,
the same view as ``companion stats --html``) to a viewer's code, made from the journal on the
server's own read-only connection and kept until the table's game changes or ends."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, Response

from companion.errors import CompanionError
from companion.web.refusal import refused

if TYPE_CHECKING:
    from starlette.requests import Request


class EveningPages:
    """The evening's HTML, one per language and state of the table (its current game, else the
    journal's ``fingerprint``): a phone opening the tab again costs a dictionary look-up."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._made: dict[str, tuple[str, str]] = {}  # lang -> (fingerprint, html)
        self._lock = threading.Lock()  # one read of the journal at a time

    def html(self, lang: str, game: tuple[Any, ...] | None = None) -> str:
        """``game``: the table's current game and whether it is over (the feed's): the evening
        counts finished games only, so while that is unchanged so is the page, however many
        events the game in play journals (each changes the journal's files, and reading 2,000
        games' records again costs seconds)."""
        from companion.table.evening import evening
        from companion.table.journal import Journal
        from companion.table.stats import records
        from companion.web.evening import body

        with self._lock:
            games: list[Any] = []
            key: str | None = None
            try:
                made = self._made.get(lang)
                if game is not None and made is not None and made[0] == repr(game):
                    return made[1]
                with Journal(self.data_dir, writer=False) as journal:
                    key = repr(game) if game is not None else journal.fingerprint()
                    if key is not None and made is not None and made[0] == key:
                        return made[1]
                    # The games `companion stats` counts: demos are left out (``cli/history.py``).
                    infos = journal.games(counted=False)
                    kept = [g for g in infos if g.meta.get("demo") is not True]
                    whole = len(kept) == len(infos)
                    games = records(journal, cache_dir=self.data_dir, infos=kept, sheets=True, whole=whole)
            except CompanionError:
                games = []  # no journal yet: an evening with nothing in it
            text = f'<div class="evening">{body(evening(games), lang)}</div>'
            if key is not None:
                self._made[lang] = (key, text)
            return text


def evening_handler(web: Any) -> Any:
    """The route's handler for ``web`` (a ``WebServer``): a viewer's code, as the standings."""
    pages = EveningPages(web.feed.data_dir)

    async def evening_tab(request: Request) -> Response:
        grant = web._grant(request, request.path_params["code"])
        if grant is None or grant.role != "viewer":
            return refused(404, "web.refused.join_code")
        lang = "en" if request.query_params.get("lang") == "en" else "fr"
        page = web.feed.page
        game = (page.get("game_id"), page.get("finished")) if page else None
        return HTMLResponse(await run_in_threadpool(pages.html, lang, game))

    return evening_tab
