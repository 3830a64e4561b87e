"""The table screen's main loop: the only thread that changes the game.

Inputs arrive on the queue (button sources) or as pygame events (keys, mouse, touch). Each table
decision goes through ``Table.submit`` (check, apply), then the read-only View is rebuilt. What a
step decided is journaled in one transaction before any of it is shown (LEDs, sounds, the
frame): a group commit (docs/decisions.md, "Group commit"). Nothing changes, nothing is
drawn: the loop sleeps on its inputs.

The App is the step loop; its parts each have one job: ``Commits`` (display/commits.py),
``SourceHost`` (display/source_host.py), ``Controls`` (display/controls.py), ``Setup``
(display/setup_actions.py). The constructor starts nothing: ``start`` does.
"""

from __future__ import annotations

import dataclasses
import queue
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from companion.display import names
from companion.display.commits import Commits
from companion.display.controls import Controls
from companion.display.event_time import Deferred, Gate, Held, left_out_message, whole_us
from companion.display.feedback import ButtonFeedback
from companion.display.game_ui import GameScreens, screens_for
from companion.display.layout import Action, Fonts, Painter, Retained
from companion.display.rotation import Rotated
from companion.display.screens import draw
from companion.display.setup_actions import Setup
from companion.display.sound import Sounds
from companion.display.source_host import SourceHost
from companion.display.state import Ui, active_screen
from companion.errors import CompanionError, RuleError
from companion.i18n import t
from companion.inputs.base import (
    EventInbox,
    InputEvent,
    Promising,
    SourceStatus,
    table_stamp,
)
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import Undo

if TYPE_CHECKING:  # the writer thread is made at the first commit, after the first frame
    from concurrent.futures import Future, ThreadPoolExecutor

COLD_POLL_S = 0.012  # how often touches and keys are read when no key is a slap button
KEY_POLL_S = 0.008  # when keys are slap buttons (the keyboard clock claims 20 ms anyway)
# Once no key, touch or queue item has come for IDLE_AFTER_S, touches and keys are read less
# often: every wake costs the process 0.1-0.3 ms of CPU (the wake itself, SDL's pump), and
# 80-125 wakes a second were 2-3 % of a core on a table where nothing happens (issue 23: at most
# 1 %; the kiosk's emulated guest spent 7.7 CPU-s in 10 s). Queue items (GPIO, serial, phones,
# simulated players) still wake the loop at once: it blocks on the queue between looks. The first
# touch after a quiet spell waits at most IDLE_POLL_S; keys that are slap buttons are read within
# the keyboard clock's own resolution (FED_CLOCK, 20 ms), so no press's stated resolution grows.
IDLE_AFTER_S = 2.0
IDLE_POLL_S = 0.05
IDLE_KEY_POLL_S = 0.019
ANIM_FRAME_S = 1 / 30
# A step handles inputs for at most this long before it draws and reads QUIT again, however
# many presses wait (a chattering button on a slow SD card must not freeze the screen)...
STEP_BUDGET_S = 0.040
# ...and less when its commit and frame are slow: the previous step's commit-and-draw time comes
# off this, so that a flood still gets a frame at least this often; never below HANDLE_MIN_S, so
# that the queue still moves on a machine too slow to draw in time.
FRAME_BUDGET_S = 0.050
HANDLE_MIN_S = 0.005
# A queue holding more than this at the start of a step is behind (a flood faster than the
# loop): the step takes its whole STEP_BUDGET_S to catch up, since frames of a state the queue
# has already moved past show no one anything, and a shortened step let a loaded machine's
# queue overflow (bench/gpio.py: 3,215 presses dropped at load 22).
BEHIND_ITEMS = 128
# While the frame is laid out, the step's commit runs on the writer thread: the interpreter
# hands it the GIL within this (the default 5 ms was most of a quiet press's wait for its
# commit to start, and again to return from the fsync).
SWITCH_S = 0.001
# Window events are handled at once; these act on the table, so they wait for the presses that
# were on the queue before them (one order: docs/decisions.md, "Time").
# The screens that show the evening's tally (App.load_tally).
TALLY_SCREENS = ("stats", "gameover")
ORDERED_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN)
# The pygame events that are table decisions: each waits for the sources' watermarks to pass
# its instant (docs/decisions.md, "Event time").
DECIDING_EVENTS = (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN)
# While a decision waits for a watermark the loop looks again this often (a watermark moves
# without a queue item: a kernel read that found nothing)...
GATE_POLL_S = 0.001
# ...and while a slap window is open keys and touches are read this often whatever the idle
# polls say: a decision's instant is the read that found it, so it is known to within this.
DECISION_POLL_S = 0.004
# Queue items taken at once into the loop's own order: a decision from the queue is placed
# among the presses taken with it by their stamps.
PULL_ITEMS = 64


class App:
    """One table screen. ``step`` handles whatever arrived and redraws if anything changed."""

    def __init__(
        self,
        surface: pygame.Surface,
        journal: Journal | None,
        table: Table | None,
        ui: Ui,
        *,
        config: Any = None,
        source_name: str = "keyboard",
        seed: int = 0,
        speed: float = 1.0,
        sounds: Sounds | None = None,
        source_factory: Callable[[str, int], Any] | None = None,
        now: Callable[[], float] = time.monotonic,
        leds: Any = None,
        pin_factory: Any = None,
        web: Any = None,
        settings_path: Any = None,
        table_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.surface = surface
        # The config file the table's own choices go to (its language); None: kept nowhere.
        self.settings_path = settings_path
        self.journal = journal
        self.table = table
        self.ui = ui
        self.config = config
        self.config_file: str | None = None  # where ``config`` came from, kept in a game's meta
        self.host = SourceHost(
            source_name,
            config=config,
            seed=seed,
            speed=speed,
            factory=source_factory,
            pin_factory=pin_factory,
            web=web,
            resume_from=self._resume_from,
        )
        self.sounds = sounds or Sounds(enabled=False)
        self.sounds.muted = ui.muted
        if self.sounds.voice is not None:
            self.sounds.voice.on = ui.voice
        self.now = now
        # The table clock (CLOCK_MONOTONIC of this boot, ns): a decision's instant, compared
        # with the presses' stamps and the sources' watermarks (a test's keyboard clock too).
        self.table_ns = table_ns
        self.fonts = Fonts()
        self.retained = Retained()  # the last frame on the display: what a frame leaves alone
        self._unshown: list[pygame.Rect] | None = None  # changed since shown (None: all)
        self.inbox: EventInbox = EventInbox()
        self.dropped_said = 0  # overflowed queue items already reported to the table
        # Items taken off the queue, in the order they must be handled (queue items and the
        # pygame events that came after them).
        self._early: deque[Any] = deque()
        self._stamp: InputEvent | None = None  # the press being handed to the game
        # The decision at the head of ``_early`` waiting for the sources' watermarks, and the
        # instant (table clock, ns) of the decision being handled (a verdict closes there).
        self._gate: Gate | None = None
        self.decision_ns: int | None = None
        self._resume_pending = False
        self._left_out: tuple[str, str] | None = None  # the sources a decision went on without
        self._read_ns = 0  # when pygame's events were last read (ns on self.now's clock)
        self._since_ns: int | None = None  # the read before the events being handled
        self._input_at = now()  # when a key, touch or queue item last came (idle polls: wait)
        self.buttons = ButtonFeedback(leds)
        self.setup = Setup(self)
        self.controls = Controls(self)
        self.sim_busy = False
        # The read-only picture of the game, built when read after a change (``view``): a step
        # that hands N presses to the game builds it once, not N times.
        self._view: Any = None
        self._view_stale = False
        self._maybe_same = False  # only marked presses changed the game since the last frame
        self._drawn_view: Any = None  # the view of the last frame laid out
        self.painter: Painter | None = None
        self.dirty = True
        self.running = True
        self.frames = 0
        self.tick_at: float | None = None  # when a countdown on screen needs its next frame
        self.last_screen = ""
        self.on_frame: Callable[[int], None] | None = None
        self.turned = Rotated(0)  # a display mounted turned ([display] rotate): set by `play`
        # A step's decisions, journaled in one commit on a writer thread while the frame is
        # laid out (SQLite lets go of the GIL during the fsync), shown once durable.
        self.commits = Commits(journal, self.buttons, self.sounds, lambda: self.now())
        self._simulate_after = False  # simulated players act on committed states only
        self._tally_after = False  # the tally reads the journal: after the commit
        # Scorer's writes (web/scorer.py) applied in this step, answered once its commit returns:
        # a phone is told "recorded" only for what the journal holds.
        self.held_writes: list[Any] = []
        self._tail_s = 0.0  # the last drawn step's commit and frame: off the next one's budget
        # Views a first slap will show, drawn off screen while idle after a game's first frame
        # (warm_step): None until planned, then those left to draw.
        self._warm_pending = False
        self._warm: list[tuple[Any, dict[str, Any]]] | None = None
        # The evening's tally (the stats and game-over screens) is read once the first frame is
        # up, while idle, or before a frame of a screen that shows it: reading it (its modules,
        # a pass over the journal) was a tenth of the time to the first frame.
        self._tally_pending = journal is not None
        if table is not None:
            self.ui.game = table.engine.game
            # A resumed game shows the short forms chosen when it began (the journal's meta).
            names.choose(table.engine.players, names.kept(table.meta))
            self._refresh()
            self._warm_pending = True
            # A resumed game may have stopped with a slap window open: the game's screens say
            # what the stop did to it at the first step (its clock may need the source first).
            self._resume_pending = True
        self._started = False  # nothing runs before ``start`` (the first step's, or run's)

    def start(self) -> None:
        """Start the given game's button source (its threads): ``run`` and the first ``step``
        call it, a caller may earlier. The constructor starts nothing."""
        self._started = True
        self.start_source()

    # --- the game ----------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The running game's engine, or None before a game starts."""
        return self.table.engine if self.table is not None else None

    @property
    def screens(self) -> GameScreens[Any, Any]:
        """The shown game's side of the display (the running game's, else the setup form's)."""
        return screens_for(self.ui.game)

    @property
    def view(self) -> Any:
        """The game's read-only picture (None before a game starts), as of the last change."""
        if self._view_stale:
            self._view_stale = False
            game = self.game
            self._view = self.screens.build_view(game) if game is not None else None
        return self._view

    @view.setter
    def view(self, view: Any) -> None:
        self._view = view
        self._view_stale = False

    def _refresh(self) -> None:
        self._view_stale = True
        self.dirty = True

    def submit(self, event: Any) -> bool:
        """Hand one event to the table; a refusal becomes a message, never an exception."""
        if self.table is None:
            return False
        game = self.table.engine
        if self.decision_ns is not None and not self._closed_first(game, event):
            return False
        # What the game's ``after`` needs of the state before a press, when it can do without
        # the views: a flood of presses then costs one view a step (bench/gpio.py).
        mark = self.screens.press_mark(game, event)
        was_finished = game.finished
        try:
            self.table.submit(self._stamped(event))
        except CompanionError as err:  # refused by the rules, or the journal could not be written
            self.ui.say(err.fr, err.en)
            self.dirty = True
            return False
        if mark is None:
            before = self.view
            self._refresh()
            self._after(event, before)
        else:
            # Built when next read: by the frame, or by the next event's after. A press may
            # change nothing on screen (a seat pressing again in a flood): the frame is drawn
            # only if the view differs from the one drawn last (step).
            self._view_stale = self._maybe_same = True
            if self.game.finished and not was_finished:
                self.load_tally()  # a game just ended: it counts tonight
            self.screens.after_marked(self, event, mark)
            self.maybe_simulate()
        for status in self.buttons.decided(event, self.game, self.screens, self.ui.hardware.stuck):
            self._status(status)
        return True

    def _closed_first(self, game: Any, event: Any) -> bool:
        """A decision made at a known instant closes what it judges there (Kilo: `close` then
        `verdict`), so a press stamped after it never counts in it, live or replayed. Checked
        first: a refused decision leaves no close behind. False: refused, and said."""
        closing = self.screens.close_for(game, event, self.instant_on)
        if closing is None:
            return True
        try:
            game.check(event)
        except RuleError as err:
            self.ui.say(err.fr, err.en)
            self.dirty = True
            return False
        return self.submit(closing)

    def _stamped(self, event: Any) -> Any:
        """The press being handed on, with which clock, and which boot of it, stamped it: a
        verdict never compares stamps of two epochs (docs/table-log.md)."""
        stamp = self._stamp
        if (
            stamp is not None
            and getattr(event, "type", None) == "press"
            and getattr(event, "epoch", "") is None
        ):
            return event.model_copy(update={"clock": stamp.clock.name, "epoch": stamp.epoch})
        return event

    def load_tally(self) -> None:
        """The players' numbers for the stats screen and the evening's tally; never raises."""
        self._tally_pending = False
        if self.commits.holding:
            self._tally_after = True  # read once the step's events are in the journal
            return
        if self.journal is not None:
            from companion.display.tally import load_tally

            self.ui.tally = load_tally(self.journal)

    def _after(self, event: Any, before: Any) -> None:
        if self.view is None:
            return
        if getattr(self.view, "finished", False) and not getattr(before, "finished", False):
            self.load_tally()  # a game just ended: it counts tonight
        self.screens.after(self, event, before)
        self.sounds.speak(self.ui.game, before, self.view, event, self.ui.lang)
        if isinstance(event, Undo):
            fr = self.screens.undone(self.game, "fr") or "?"
            en = self.screens.undone(self.game, "en") or "?"
            self.ui.say(t("scr.msg.undone", "fr", what=fr), t("scr.msg.undone", "en", what=en), error=False)
        self.maybe_simulate()

    def start_game(self, setup: Any, input_name: str, shorts: dict[str, str] | None = None) -> None:
        """A new game; ``shorts``: the players' short forms chosen at setup (by default the
        evening's for these players: "again" keeps them)."""
        if self.journal is None:
            return
        self.flush()  # the game being left keeps what the table decided in it
        self.stop_source()
        players = tuple(setup.players)
        before = names.short_forms(players)
        try:
            meta: dict[str, Any] = {"input": input_name, "seed": self.seed}
            if self.config_file:
                meta["config"] = self.config_file
            # Kept with the game in the journal's own record of it, never in the table log
            # (docs/table-log.md: its keys are fixed): a resume, and the next game with these
            # players, find them there; a replay of the log alone proposes them anew.
            meta["short"] = names.choose(players, before if shorts is None else shorts)
            self.table = Table.start(self.journal, setup, meta)
        except CompanionError as err:
            names.choose(players, before)  # the game that goes on keeps its forms
            self.ui.say(err.fr, err.en)
            self.dirty = True
            return
        self.source_name = input_name
        self.ui = Ui(
            lang=self.ui.lang, muted=self.ui.muted, voice=self.ui.voice, setup=self.ui.setup, game=setup.game
        )
        self.ui.hardware.web = self.web
        self._refresh()
        self._warm_pending, self._warm = True, None  # new names, maybe a new game's screens
        self.start_source()

    # --- input sources -----------------------------------------------------------------------

    @property
    def source(self) -> Any:
        """The running game's button source (None before it starts)."""
        return self.host.source

    @property
    def source_name(self) -> str:
        return self.host.name

    @source_name.setter
    def source_name(self, name: str) -> None:
        self.host.name = name

    @property
    def seed(self) -> int:
        return self.host.seed

    @seed.setter
    def seed(self, seed: int) -> None:
        self.host.seed = seed

    @property
    def speed(self) -> float:
        return self.host.speed

    @speed.setter
    def speed(self, speed: float) -> None:
        self.host.speed = speed

    @property
    def web(self) -> Any:
        return self.host.web

    def _resume_from(self, stream: str) -> int | None:
        """Where the game stands in a source's replayable stream (a Pico board's boot): a
        resumed game's, from the journal, so the board replays what came after; a source
        rebuilt mid-game, what the table has handled."""
        table = self.table
        return table.positions.get(stream) if table is not None else None

    def start_source(self) -> None:
        game = self.game
        if game is None or self.source is not None:
            return
        hw = self.ui.hardware
        hw.source = self.source_name
        try:
            source = self.host.start(len(game.players), self.inbox)
        except CompanionError as err:
            hw.connected = False
            hw.failed = True
            hw.notes.append((err.fr, err.en))
            self.ui.say(
                t("scr.msg.source_failed", "fr", why=err.fr), t("scr.msg.source_failed", "en", why=err.en)
            )
            self.dirty = True
            return
        self.buttons.attach(source, game, self.screens)
        hw.connected = True
        hw.failed = False
        self.sim_busy = False
        self.maybe_simulate()

    def stop_source(self) -> None:
        if self.source is not None:
            self.buttons.detach()
            self.host.stop()

    def promisers(self) -> list[Promising]:
        """Every source of the game's buttons that publishes a watermark, each once."""
        return self.host.promisers()

    def source_parts(self) -> tuple[Any, ...]:
        """The game's button sources, each part of a combined one (none before it starts)."""
        return self.host.parts()

    def instant_on(self, key: tuple[str | None, str | None], at: int | None = None) -> int | None:
        """The decision being handled (or the table-clock instant ``at``) on the clock ``key``
        (its name and epoch): the table clock's own, or a board's through its heartbeats'
        offset; None when it cannot be placed there (a virtual clock, a board not heard from).
        In whole µs, the last one before it: the table log counts a press stamped at or before
        a close, the loop one stamped before the decision (a decision's instant is a whole µs,
        ``whole_us``), so the two agree to the nanosecond."""
        at = self.decision_ns if at is None else at
        return None if at is None else self.host.on_clock(key, at)

    def maybe_simulate(self) -> None:
        """Simulated players act once for each state the table waits in."""
        if self.commits.holding:
            self._simulate_after = True  # on the state the journal holds (their bots read it)
            return
        sim = self.host.sim()
        if sim is None or self.game is None or self.sim_busy or self.game.finished:
            return
        self.screens.simulate(self, sim)

    def _keys_are_buttons(self) -> bool:
        """Whether seat keys press buttons now (not while the table types something)."""
        v = self.view
        if not self.host.seat_keys or v is None or self.game is None or self.game.finished:
            return False
        screen = active_screen(v, self.ui)
        return screen != "setup" and self.screens.keys_are_buttons(self, screen)

    def handle_item(self, item: Any) -> None:
        if isinstance(item, InputEvent):
            self._input_event(item)
        elif isinstance(item, SourceStatus):
            self._status(item)
        elif type(item).__name__ == "BurstEnd":
            self.sim_done()
        elif type(item).__name__ == "WebWrite":  # a scorer's phone: journaled as from here
            item.apply_to(self)
        elif self.game is not None:
            self.screens.handle(self, item)

    def _input_event(self, item: InputEvent) -> None:
        game = self.game
        if item.resume_at is not None and self.table is not None:
            # Before the press is handed on: its own event goes in the same transaction.
            self.table.handled(*item.resume_at)
        if item.role == "seat":
            counts, status = self.buttons.edge(item, game)
            if status is not None:
                self._status(status)
            if not counts:
                return  # a release, or a button held since its slap window opened
        if item.edge != "press":
            return
        if item.role != "seat":
            self.do((item.role,))
        elif game is not None and not game.finished:
            self._stamp = item
            try:
                self.screens.press(self, item.seat, item.t_us, item.res_us)
            finally:
                self._stamp = None

    def sim_done(self) -> None:
        """The simulated players' last burst is handled: they may act on the new state."""
        self.sim_busy = False
        self.maybe_simulate()

    def _status(self, item: SourceStatus) -> None:
        hw = self.ui.hardware
        hw.source = hw.source or item.source
        if item.kind == "disconnected":
            hw.connected = False
        elif item.kind == "connected":
            hw.connected = True
        elif item.kind == "stuck":
            label = (item.fr or str((item.seat or 0) + 1), item.en or str((item.seat or 0) + 1))
            hw.stuck[item.seat if item.seat is not None else -1] = label
        elif item.kind == "released":
            hw.stuck.pop(item.seat if item.seat is not None else -1, None)
        if item.fr or item.en:
            hw.notes.append((item.fr or item.en, item.en or item.fr))
            del hw.notes[:-10]
        self.dirty = True

    # --- controls (display/controls.py) --------------------------------------------------------

    def do(self, action: Action) -> None:
        self.controls.do(action)

    def key(self, key: int, mod: int = 0) -> None:
        self.controls.key(key, mod)

    def click(self, pos: tuple[int, int]) -> None:
        """A tap or click: the control under it acts; anywhere else does nothing."""
        self.controls.click(pos)

    def handle_pygame(self, ev: pygame.event.Event) -> None:
        self.controls.handle_pygame(ev)

    def cancel(self, screen: str) -> None:
        self.controls.cancel(screen)

    # --- the loop ----------------------------------------------------------------------------

    def animating(self) -> float | None:
        start = self.ui.anim_start
        if start is None:
            return None
        phase = (self.now() - start) / max(self.screens.anim_seconds, 1e-3)
        if phase >= 1:
            self.ui.anim_start = None
            self.dirty = True
            return None
        return phase

    def redraw(self) -> None:
        self._render()
        self._present()

    def _render(self) -> None:
        """Lay out the frame on the display's surface: nobody sees it before ``_present``."""
        phase = self.animating()
        if self._tally_pending and active_screen(self.view, self.ui) in TALLY_SCREENS:
            self.load_tally()
        painter = Painter(self.turned.canvas(self.surface), self.fonts, retained=self.retained)
        now = self.ui.now = self.now()
        self._maybe_same = False
        self._drawn_view = self.view
        self.last_screen = draw(painter, self.view, self.ui, None, phase)
        wait = self.screens.redraw_in(self.view, self.ui, now)
        moving = self.ui.motion.next_frame_in()  # a banner sliding, a "+N" floating...
        if moving is not None:
            wait = moving if wait is None else min(wait, moving)
        self.tick_at = None if wait is None else now + wait
        self.painter = painter
        changed = painter.changed
        self._unshown = None if self._unshown is None or changed is None else [*self._unshown, *changed]
        self.dirty = False

    def _present(self) -> None:
        self.frames += 1
        # Only what changed since the last frame shown goes to the screen.
        changed = self.turned.present(self.surface, self._unshown)
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self._unshown = []
        if self.on_frame is not None:
            self.on_frame(self.frames)

    def warm_step(self) -> None:
        """Draw one of the views a first slap will show on a scratch surface: the fonts at its
        sizes, the glyphs and the names it renders are then in the caches when the slap comes
        (cold, its frame took about 200 ms on this build machine). One view a step, while idle,
        after the game's first frame: the first frame is not delayed, and a press that comes
        meanwhile waits for one view at most."""
        if self._warm is None:
            game = self.game
            self._warm = list(self.screens.warm_views(game)) if game is not None else []
        if self._warm:
            view, fields = self._warm.pop(0)
            size = self.turned.canvas(self.surface).get_size()
            now = self.now()
            ui = dataclasses.replace(self.ui, window_open_at=now, now=now, **fields)
            draw(Painter(pygame.Surface(size), self.fonts), view, ui)
        if not self._warm:
            self._warm_pending, self._warm = False, None

    def _precise(self) -> bool:
        """Keys are slap buttons right now: read them more often (they are stamped when read)."""
        return self._keys_are_buttons()

    def wait(self, timeout: float | None) -> list[pygame.event.Event]:
        """Until a pygame event or a queue item arrives, or ``timeout`` seconds pass.

        Between looks at pygame's events the loop blocks on the button queue itself, so a press
        wakes it at once (edge to LED and pixel is then the debounce's wait plus one frame);
        keys and touches are read every poll (KEY_POLL_S or COLD_POLL_S), less often once
        nothing has come for IDLE_AFTER_S. Not pygame.event.wait: without a window system
        that can wake it, SDL's wait polls every millisecond, which alone costs ~2% of a core.
        """
        precise = self._precise()
        polls = (KEY_POLL_S, IDLE_KEY_POLL_S) if precise else (COLD_POLL_S, IDLE_POLL_S)
        if self._window_open():
            # A decision can be made now: its instant is the read that finds it, so no idle
            # poll may stretch that (docs/decisions.md, "Event time").
            polls = (min(polls[0], DECISION_POLL_S), DECISION_POLL_S)
        gated = self._gate is not None
        if gated:  # a watermark moves without waking us: look again soon
            timeout = GATE_POLL_S if timeout is None else min(timeout, GATE_POLL_S)
        deadline = None if timeout is None else self.now() + timeout
        while True:
            before = self._read_ns
            events = pygame.event.get()
            now = self.now()
            self._read_ns = int(now * 1e9)
            if events or (self._early and not gated) or not self.inbox.empty():
                # These events came after the previous read: keys stamped now say so.
                self._since_ns = before or None
                self._input_at = now
                return events
            poll = polls[now - self._input_at >= IDLE_AFTER_S]
            left = poll if deadline is None else min(poll, deadline - now)
            if left <= 0:
                return []
            # Sleeps on the queue's eventfd: a put wakes it at once (the next look returns it).
            self.inbox.wait_for_item(left)

    def _window_open(self) -> bool:
        """A slap window is open: a decision made now judges it."""
        game = self.game
        return game is not None and not game.finished and self.screens.window_open(game)

    def _gates(self) -> bool:
        """Decisions wait for the watermarks while a game is on (not over). Outside a game no
        press can count, so a key or tap is applied as it comes."""
        game = self.game
        return game is not None and not game.finished

    def _instant(self, item: Any) -> int | None:
        """The table-clock instant of ``item`` if it is a table decision that must wait for
        the watermarks now; None for anything else (a press, a status, a key outside a game)."""
        if type(item) is InputEvent and item.role == "seat":
            return None  # the flood's case first: a press is never a decision
        if not self._gates():
            return None
        if type(item) is Deferred:
            return item.at_ns if item.ev.type in DECIDING_EVENTS else None
        if isinstance(item, InputEvent):
            if item.role == "seat" or item.edge != "press":
                return None
            # A referee's button: its own stamp when it is on the table clock, else its arrival.
            stamp = table_stamp(item)
            return whole_us(stamp if stamp is not None else self.table_ns())
        if type(item).__name__ == "WebWrite":  # a scorer phone: its synced stamp, or arrival
            return whole_us(int(getattr(item, "t_ns", None) or self.table_ns()))
        return None

    def _enqueue(self, item: Any) -> None:
        """Put ``item`` at the end of ``_early``; a decision goes before the presses already
        taken off the queue that are stamped after its instant (made after it, queued before
        the loop read it: they never count in it)."""
        early = self._early
        at = self._instant(item)
        if at is None:
            early.append(item)
            return
        held = item if type(item) is Deferred else Held(item, at)
        later = [
            x
            for x in early
            if isinstance(x, InputEvent) and (stamp := table_stamp(x)) is not None and stamp > at
        ]
        if not later:
            early.append(held)
            return
        moved = {id(x) for x in later}
        kept = [x for x in early if id(x) not in moved]
        early.clear()
        early.extend(kept)
        early.append(held)
        early.extend(later)

    def _released(self, at: int) -> bool:
        """Whether the decision at the head of ``_early`` (at ``at``) may be applied now: every
        live source's watermark has passed it, or the sources that could not promise in time
        are left out and named. Meanwhile the presses stamped before it are handled first,
        whenever they arrive; those stamped at or after it wait behind it."""
        gate = self._gate
        if gate is None or gate.at_ns != at:
            gate = self._gate = Gate(at, self.promisers())
        done = gate.look(self.table_ns())
        # After the promises were read: what they cover is on the queue now.
        while True:
            try:
                self._enqueue(self.inbox.get_nowait())
            except queue.Empty:
                break
        early = self._early
        before = [
            x
            for i, x in enumerate(early)
            if i
            and (
                isinstance(x, SourceStatus)
                or (isinstance(x, InputEvent) and (stamp := table_stamp(x)) is not None and stamp < at)
            )
        ]
        if before:
            moved = {id(x) for x in before}
            kept = [x for i, x in enumerate(early) if not i or id(x) not in moved]
            early.clear()
            early.extend(kept)
            for x in before:
                self.handle_item(x)
        if not done:
            return False
        self._gate = None
        if gate.left_out:  # said once the decision is handled (an action clears the message)
            self._left_out = left_out_message(gate.left_out)
        return True

    def _handle_early(self, item: Any) -> None:
        """One item of ``_early``: a decision is handled at its instant (``decision_ns``)."""
        self._gate = None  # whatever waited is done with (or no longer waits: the game ended)
        try:
            self._handle_decision(item)
        finally:
            said, self._left_out = self._left_out, None
            if said is not None:
                self.ui.say(*said)
                self.ui.hardware.notes.append(said)
                del self.ui.hardware.notes[:-10]

    def _handle_decision(self, item: Any) -> None:
        if type(item) is Deferred:
            self.decision_ns = item.at_ns if item.ev.type in DECIDING_EVENTS else None
            try:
                self.handle_pygame(item.ev)
            finally:
                self.decision_ns = None
        elif type(item) is Held:
            self.decision_ns = item.at_ns
            try:
                self.handle_item(item.item)
            finally:
                self.decision_ns = None
        else:
            self.handle_item(item)

    def _immediate(self, ev: pygame.event.Event) -> bool:
        """QUIT, window events and seat keys (stamped when read) are handled as they come."""
        if ev.type not in ORDERED_EVENTS:
            return True
        key = getattr(ev, "key", None)
        return key is not None and key in self.host.seat_keys and self.source is not None

    def _queue_first(self) -> None:
        """Everything already on the queue came before the pygame event about to be held."""
        while True:
            try:
                self._enqueue(self.inbox.get_nowait())
            except queue.Empty:
                return

    def _pull(self, n: int) -> bool:
        """Up to ``n`` queue items into ``_early`` (False: none): a decision among them (a
        referee's button, a phone's write) goes before the presses pulled with it that are
        stamped after it, as a key does."""
        inbox = self.inbox
        for i in range(n):
            try:
                self._enqueue(inbox.get_nowait())
            except queue.Empty:
                return i > 0
        return True

    def _instant_of(self, held: Deferred | Held) -> int | None:
        """A held decision's instant while decisions wait (None: it is applied as it comes)."""
        if not self._gates():
            return None
        if type(held) is Deferred and held.ev.type not in DECIDING_EVENTS:
            return None
        return held.at_ns

    def _report_overflow(self) -> None:
        dropped = self.inbox.dropped
        if dropped > self.dropped_said:
            n = dropped - self.dropped_said
            self.dropped_said = dropped
            status = SourceStatus(
                self.source_name,
                "error",
                None,
                f"{n} button events were lost: they came faster than the table could record "
                "them; look for a button that chatters.",
                f"{n} événements de boutons perdus : ils arrivaient plus vite que la table ne "
                "pouvait les enregistrer ; cherchez un bouton qui crépite.",
            )
            self._status(status)
            self.ui.say(status.fr, status.en)

    @property
    def group_commit(self) -> bool:
        """One commit for what a step handles (bench/gpio.py turns it off to compare)."""
        return self.commits.enabled

    @group_commit.setter
    def group_commit(self, on: bool) -> None:
        self.commits.enabled = on

    @property
    def _writer(self) -> ThreadPoolExecutor | None:
        return self.commits.writer

    def hold(self) -> None:
        """Decisions from now on are applied but neither journaled nor shown until ``flush``."""
        self.commits.hold(self.table)

    def flush(self) -> None:
        """Journal what was held in one transaction, then show it (LEDs, sounds; the frame
        follows). If the journal refuses, nothing of it is shown: the table is back at the
        journal's state and says why. Never raises."""
        if self.commits.holding:
            self._flushed(self.commits.start(self.table))

    def _flushed(self, commit: Future[None] | None) -> None:
        """Once ``commit`` has returned: show what it made durable, or say why it could not."""
        refused = self.commits.shown(commit)
        if refused is not None:
            self.ui.say(refused.fr, refused.en)
            self._refresh()
            self.buttons.show(self.game, self.screens)
        writes, self.held_writes = self.held_writes, []
        for write in writes:
            write.settle(refused)
        if self._tally_after:
            self._tally_after = False
            self.load_tally()
            self.dirty = True  # the stats and game-over screens show it
        if self._simulate_after:
            self._simulate_after = False
            self.maybe_simulate()

    def step(self, timeout: float | None = 0.0) -> None:
        """Handle what arrived (waiting up to ``timeout`` for something), commit it, and draw
        and show the frame once it is durable; idle work when nothing came."""
        if not self._started:
            self.start()
        began = self.now()
        events = self.wait(self._timeout(timeout))
        handling = self.now()
        budget = STEP_BUDGET_S
        if self.inbox.qsize() <= BEHIND_ITEMS:
            budget = min(budget, max(HANDLE_MIN_S, FRAME_BUDGET_S - self._tail_s))
        self.hold()
        if self._resume_pending and self.table is not None:
            self._resume_pending = not self.screens.resumed(self)
        self._take(events)
        self._handle_until(handling + budget)
        # The step's events are written on the writer thread while the frame is laid out, and
        # the frame is shown only once they are durable.
        tail_from = self.now()
        commit = self.commits.start(self.table) if self.commits.holding else None
        self._report_overflow()
        drawn = self._show(commit)
        if drawn:
            # What this step spent besides handling: reading its inputs (or waiting for them:
            # after an idle wait the next step handles HANDLE_MIN_S only), committing, drawing.
            self._tail_s = self.now() - tail_from + handling - began
        self.commits.checkpoint_later()
        if self.frames and not events and not drawn and not self._early and self.inbox.empty():
            self._idle_work()

    def _timeout(self, timeout: float | None) -> float | None:
        """How long the step may wait for inputs: less while something moves on screen."""
        was_animating = self.ui.anim_start is not None
        if self.animating() is not None:
            timeout = ANIM_FRAME_S if timeout is None else min(timeout, ANIM_FRAME_S)
        elif was_animating:
            # It ended just now: its last frame (the screen without the overlay) is drawn before
            # waiting, or "Alice starts!" stayed up until someone touched a key (issue 37).
            timeout = 0.0
        if self.tick_at is not None:  # a countdown on screen: wake for its next frame
            due = max(0.0, self.tick_at - self.now())
            timeout = due if timeout is None else min(timeout, due)
        if (self._warm_pending or self._tally_pending) and self.frames:
            timeout = 0.0  # work for idle time: look at the inputs, then do it if none came
        return timeout

    def _take(self, events: list[pygame.event.Event]) -> None:
        for ev in events:
            if self._immediate(ev):
                self.handle_pygame(ev)
            else:
                # A tap, key or referee action waits for the presses queued before it (and
                # for those still on their way that were made before it: ``_released``).
                self._queue_first()
                self._enqueue(Deferred(ev, whole_us(self.table_ns())))

    def _handle_until(self, until: float) -> None:
        """Handle ``_early`` and the queue in order until ``until`` (the step's budget), or until
        a decision at the head must wait for the watermarks."""
        early = self._early
        while self.running:
            if not early:
                if self.now() >= until or not self._pull(PULL_ITEMS):
                    break
                continue
            head = early[0]
            if (
                type(head) in (Deferred, Held)
                and (at := self._instant_of(head)) is not None
                and not self._released(at)
            ):
                break  # the loop goes on (frames, QUIT); the decision waits at the head
            self._handle_early(early.popleft())
            if self.now() >= until:
                break

    def _show(self, commit: Future[None] | None) -> bool:
        """Lay the frame out while ``commit`` runs, then show it once durable; whether drawn."""
        # Ask the animation first: the step in which it ends marks the screen dirty, and that
        # frame must be drawn now (a kiosk may see no other input until the next slap).
        animation = self.animating()
        ticking = self.tick_at is not None and self.now() >= self.tick_at
        if self._maybe_same:
            self._maybe_same = False
            self.dirty = self.dirty or self.view != self._drawn_view
        drawn = self.dirty or animation is not None or ticking
        if drawn:
            self._render()
        self._flushed(commit)
        if self.dirty:  # a refused commit, a new tally, a simulated move: lay it out again
            self._render()
            drawn = True
        if drawn:
            self._present()
        return drawn

    def _idle_work(self) -> None:
        if self._tally_pending:
            self.load_tally()
        elif self._warm_pending:
            self.warm_step()

    def run(self) -> int:
        if not self._started:
            self.start()
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_S))
        try:
            while self.running:
                self.step(None)
        finally:  # Ctrl-C goes on up: the command says how to resume and exits 130
            self.commits.drop(self.table)
            self.buttons.off()
            self.stop_source()
            self.sounds.close()
            sys.setswitchinterval(switch)
        return 0
