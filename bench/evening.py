"""The evening page over a journal of 2,000 mixed games, one JSON object per line (never asserted
in tests).

    python bench/evening.py            # 2,000 games (under a minute to build)
    python bench/evening.py --quick    # smoke run: 40 games

The journal is bench/stats.py's (the real demos' games, written again through the table's own
writer), a game of Kilo de merde started in it as the table's current one, and the phones'
server (``WebServer``, uvicorn on loopback) serving it. Timed over HTTP as a phone asks
(``GET /t/{code}/evening``, a new connection each time):

- ``first_ms``: the server's first evening: every record read (``stats-cache.json`` written by
  a ``companion stats`` run before, as on a table where the stats screen was opened), tonight
  worked out and drawn;
- ``warm_ms``: the same again, the journal unchanged (issue 40: at most 300 ms), median and max
  of 20;
- ``after_event_ms``: after an event of the game in play is journaled: the evening counts
  finished games only, so the page made for this game is served again, median of 3;
- ``stats_html_s``: ``companion stats --html`` writing the page, the console script as a user
  runs it, interpreter start included; and the page's size.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stats import build_journal  # type: ignore[import-not-found]  # bench/stats.py

from companion.games.kilo.events import NewKiloGame, Press
from companion.hardware.web_config import WebConfig
from companion.table.journal import Journal
from companion.table.live import Table
from companion.web.server import WebServer


def emit(data: dict[str, object]) -> None:
    print(json.dumps(data, ensure_ascii=False), flush=True)


def get(port: int, path: str) -> tuple[float, int, int]:
    """(ms, status, bytes) of one GET on a new connection."""
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return (time.perf_counter() - began) * 1000, resp.status, len(body)


def main(argv: list[str]) -> int:
    games = 40 if "--quick" in argv else 2000
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        events = build_journal(folder, games)
        cli = [sys.executable, "-m", "companion.cli"]
        subprocess.run(
            [*cli, "stats", "--json"], check=True, capture_output=True, env={**env, "COMPANION_DATA_DIR": tmp}
        )
        journal = Journal(folder, writer=True)
        table = Table.start(
            journal, NewKiloGame(players=["Alice", "Bruno", "Chloé"], rounds=2), {"input": "web"}
        )
        web = WebServer(WebConfig(bind="127.0.0.1", port=0), folder, current_game=lambda: table.game_id)
        web.watch(journal)
        web.start()
        try:
            while web.pairing() is None:
                time.sleep(0.02)
            path = f"/t/{web.pairing().join}/evening"
            time.sleep(2.1)  # a journal written in the last two seconds is never trusted unscanned
            first, status, size = get(web.port, path)
            assert status == 200, status
            warm = [get(web.port, path)[0] for _ in range(20)]
            after = []
            for i, player in enumerate(("Alice", "Bruno", "Chloé")):  # a slap's presses, one by one
                table.submit(Press(player=player, t_us=10_000_000 + 5000 * i))
                table.commit()
                time.sleep(2.1)
                after.append(get(web.port, path)[0])
        finally:
            web.stop()
            journal.close()
        out = folder / "soiree.html"
        began = time.perf_counter()
        subprocess.run(
            [*cli, "stats", "--html", str(out)],
            check=True,
            capture_output=True,
            env={**env, "COMPANION_DATA_DIR": tmp},
        )
        html_s = time.perf_counter() - began
        emit(
            {
                "bench": "evening.page",
                "games": games,
                "events": events,
                "first_ms": round(first, 1),
                "warm_median_ms": round(statistics.median(warm), 2),
                "warm_max_ms": round(max(warm), 2),
                "after_event_ms": round(statistics.median(after), 1),
                "tab_bytes": size,
                "stats_html_s": round(html_s, 3),
                "page_bytes": out.stat().st_size,
            }
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
