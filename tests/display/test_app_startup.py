"""The table's first frame (issue 23: at most 0.5 s from process start): what it does not wait
for. The modules of what the first frame does not show are not imported before it, the evening's
tally is read once the table idles (or before a screen that shows it), and the frame is the real
table screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from companion.display.app import App
from companion.display.state import Ui
from companion.games.kilo.events import NewKiloGame
from companion.table.journal import Journal
from companion.table.live import Table

# Imported by none of what the first frame shows: the tally (stats and game-over screens), the
# LEDs, the journal's writer thread, the TOML reader (no config file here), the phones' server,
# the Pico's serial link, numerical libraries, package metadata and resources.
DEFERRED = (
    "companion.table.stats",
    "companion.display.tally",
    "companion.games.kilo.tally",
    "companion.hardware.leds",
    "concurrent.futures",
    "tomllib",
    "companion.web.server",
    "starlette",
    "uvicorn",
    "serial",
    "numpy",
    # pydantic's plugin loader imports importlib.metadata (and email, csv, zipfile with it) to
    # look for plugins the companion turns off; pygame's set_mode reads its own window icon
    # through importlib.resources' readers when the program set none.
    "importlib.metadata",
    "email",
    "importlib.resources.readers",
)

# The App is patched where `play` opens the screen, so that everything before it is imported in
# the order `companion play` imports it (main() first).
FIRST_FRAME = """
import json, os, sys
import companion.cli.play as play
run = play._run
def patched(*args, **kw):
    import companion.display.app as app_module
    present = app_module.App._present
    def first(self):
        present(self)
        modules = sorted(m for m in sys.modules if m.split(".")[0] in ("companion", *%r))
        print(json.dumps({"screen": self.last_screen, "controls": len(self.painter.controls),
                          "tally": self.ui.tally is not None, "modules": modules}))
        sys.stdout.flush()
        os._exit(0)
    app_module.App._present = first
    return run(*args, **kw)
play._run = patched
from companion.cli import main
main(sys.argv[1:])
"""


def test_the_first_frame_of_play_imports_nothing_it_does_not_show(tmp_path: Path) -> None:
    tops = tuple(sorted({m.split(".")[0] for m in DEFERRED if not m.startswith("companion")}))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["COMPANION_CONFIG"] = str(tmp_path / "none.toml")  # a table without a config file
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            FIRST_FRAME % (tops,),
            *("play", "kilo", "--input", "sim", "--mute", "--size", "800x480"),
            *("--players", "Alice,Bruno,Chloé,Dédé,Émile", "--data-dir", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    ).stdout
    first = json.loads(out.splitlines()[-1])
    assert first["screen"] == "table" and first["controls"] > 0  # the real table, not a splash
    assert not first["tally"]
    loaded = set(first["modules"])
    assert "companion.games.kilo.screens" in loaded  # the check sees the modules it drew with
    assert not loaded & set(DEFERRED)


def make_app(screen: pygame.Surface, journal: Journal, ui: Ui) -> App:
    table = Table.start(journal, NewKiloGame(players=["Alice", "Bob", "Chloé"], rounds=3), {"input": "sim"})
    return App(screen, journal, table, ui, source_name="test", source_factory=lambda name, n: Quiet())


class Quiet:
    name = "test"

    def start(self, events: object) -> None:
        pass

    def stop(self) -> None:
        pass


def test_the_tally_is_read_once_the_first_frame_is_up_and_nothing_comes(
    screen: pygame.Surface, journal: Journal
) -> None:
    app = make_app(screen, journal, Ui(lang="fr"))
    app.step()
    assert app.frames == 1 and app.ui.tally is None  # the first frame did not wait for it
    app.step()  # nothing came: the idle loop reads it
    assert app.ui.tally is not None


def test_a_first_frame_of_the_stats_screen_shows_the_tally(screen: pygame.Surface, journal: Journal) -> None:
    ui = Ui(lang="fr")
    ui.screen = "stats"
    app = make_app(screen, journal, ui)
    app.step()
    assert app.frames == 1 and app.last_screen == "stats"
    assert app.ui.tally is not None


PLUGINS = """
import json, os, sys
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
import companion.cli
companion.cli._plugin_loader_on_demand()
from pydantic import BaseModel
class Off(BaseModel):
    x: int
off = "importlib.metadata" in sys.modules
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "some_plugin"  # plugins on again: the real loader
from pydantic.plugin import _loader
class On(BaseModel):
    y: int
print(json.dumps({"off": off, "on": "importlib.metadata" in sys.modules,
                  "real": hasattr(sys.modules["pydantic.plugin._loader"], "PYDANTIC_ENTRY_POINT_GROUP"),
                  "models": [Off(x=1).x, On(y=2).y]}))
"""


def test_with_plugins_off_pydantic_never_looks_and_a_plugin_named_gets_the_real_loader() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PLUGINS], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    seen = json.loads(out.splitlines()[-1])
    assert seen == {"off": False, "on": True, "real": True, "models": [1, 2]}
