"""The table screen's main loop: the only thread that changes the game.

Inputs arrive on the queue (button sources) or as pygame events (keys, mouse, touch). Each table
decision goes through ``Table.submit`` (check, apply), then the read-only View is rebuilt. What a
step decided is journaled in one transaction before any of it is shown (LEDs, sounds, the
frame): a group commit (docs/decisions.md, "Group commit"). Nothing changes, nothing is
drawn: the loop sleeps on its inputs.

The App is the step loop; its parts each have one job: ``Arrivals`` (display/arrivals.py: the
order in which what arrives is handled), ``Commits`` (display/commits.py), ``Frame``
(display/frame.py: the view, the frame laid out and shown), ``Later`` (display/later.py: the
tally, the simulated players and the warm-up, put off), ``SourceHost`` (display/source_host.py),
``Controls`` (display/controls.py), ``Setup`` (display/setup_actions.py). The constructor starts
nothing: ``start`` does.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import pygame

from companion.display import names
from companion.display.arrivals import Arrivals
from companion.display.commits import Commits
from companion.display.controls import REFEREE_ACTIONS, Controls
from companion.display.feedback import ButtonFeedback
from companion.display.frame import Frame
from companion.display.game_ui import GameScreens, screens_for
from companion.display.later import Later
from companion.display.layout import Action, Fonts, Painter, Retained
from companion.display.rotation import Rotated
from companion.display.setup_actions import Setup
from companion.display.sound import Sounds
from companion.display.source_host import SourceHost
from companion.display.state import Ui, active_screen
from companion.errors import CompanionError, RuleError
from companion.inputs.base import (
    EventInbox,
    InputEvent,
    Promising,
    SourceStatus,
)
from companion.table.journal import Journal
from companion.table.live import Table
from companion.table.log import Undo
from companion.text import Text

if TYPE_CHECKING:  # the writer thread is made at the first commit, after the first frame
    from concurrent.futures import Future

COLD_POLL_S = 0.012  # how often touches and keys are read when no key is a slap button
KEY_POLL_S = 0.008  # when keys are slap buttons (the keyboard clock claims 20 ms anyway)
# Once no key, touch or queue item has come for IDLE_AFTER_S, touches and keys are read less
# often: every wake costs the process 0.1-0.3 ms of CPU (the wake itself, SDL's pump), and
# 80-125 wakes a second were 2-3 % of a core on a table where nothing happens (the aim: at most
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
# The screens that show the evening's tally (App.load_tally).
TALLY_SCREENS = ("stats", "gameover")
# While a decision waits for a watermark the loop looks again this often (a watermark moves
# without a queue item: a kernel read that found nothing)...
GATE_POLL_S = 0.001
# ...and while a slap window is open keys and touches are read this often whatever the idle
# polls say: a decision's instant is the read that found it, so it is known to within this.
DECISION_POLL_S = 0.004


T = TypeVar("T")


class Handed(Generic[T]):
    """An attribute of the App that one of its parts keeps, read and set on that part (``name``
    there, by default the App's own name for it): the App's fields stay its parts."""

    def __init__(self, part: str, name: str = "") -> None:
        self.part = part
        self.name = name

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    @overload
    def __get__(self, app: None, owner: type) -> Handed[T]: ...

    @overload
    def __get__(self, app: object, owner: type) -> T: ...

    def __get__(self, app: object | None, owner: type) -> Handed[T] | T:
        if app is None:
            return self
        value: T = getattr(getattr(app, self.part), self.name)
        return value

    def __set__(self, app: object, value: T) -> None:
        setattr(getattr(app, self.part), self.name, value)


class Kept(Handed[T]):
    """An attribute of the App that only its part changes."""

    def __set__(self, app: object, value: T) -> None:
        raise AttributeError(f"the App's {self.name} is its {self.part}'s: it changes there")


class App:
    """One table screen. ``step`` handles whatever arrived and redraws if anything changed.

    The App holds its parts and the game it runs (the journal, the table, the screen's ``Ui``)
    and the loop's clocks; the rest of its state is its parts' (tests/house/test_house.py bounds it)."""

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
        self.journal = journal
        self.table = table
        self.ui = ui
        self.now = now
        # The table clock (CLOCK_MONOTONIC of this boot, ns): a decision's instant, compared
        # with the presses' stamps and the sources' watermarks (a test's keyboard clock too).
        self.table_ns = table_ns
        self.running = True
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
        sounds = sounds or Sounds(enabled=False)
        sounds.muted = ui.muted
        if sounds.voice is not None:
            sounds.voice.on = ui.voice
        # A step's decisions, journaled in one commit on a writer thread while the frame is
        # laid out (SQLite lets go of the GIL during the fsync), shown (LEDs, sounds) once durable.
        self.commits = Commits(journal, ButtonFeedback(leds), sounds, lambda: self.now())
        self.frame = Frame(surface, self._build_view)
        self.arrivals = Arrivals(self)
        self.later = Later(tally=journal is not None)
        self.setup = Setup(self)
        self.controls = Controls(self, settings_path)
        if table is not None:
            self.ui.game = table.engine.game
            # A resumed game shows the short forms chosen when it began (the journal's meta).
            names.choose(table.engine.players, names.kept(table.meta))
            self._refresh()
            self.later.warm_pending = True
            self.later.resume_pending = True
        self._started = False  # nothing runs before ``start`` (the first step's, or run's)

    def start(self) -> None:
        """Start the given game's button source (its threads): ``run`` and the first ``step``
        call it, a caller may earlier. The constructor starts nothing."""
        self._started = True
        self.start_source()

    # --- what the game's screens (``TableHandle``), `play` and tests read: the parts keep it ---

    surface = Kept[pygame.Surface]("frame")
    turned = Handed[Rotated]("frame")  # a display mounted turned ([display] rotate): set by `play`
    fonts = Handed[Fonts]("frame")
    retained = Kept[Retained]("frame")
    painter = Kept[Painter | None]("frame")  # the last frame laid out: what a tap hits
    dirty = Handed[bool]("frame")  # the screen must be drawn again
    frames = Kept[int]("frame")
    tick_at = Kept[float | None]("frame")
    last_screen = Kept[str]("frame")
    on_frame = Handed[Callable[[int], None] | None]("frame")
    view = Handed[Any]("frame")  # the game's read-only picture (None before a game starts)
    inbox = Handed[EventInbox]("arrivals")
    decision_ns = Handed[int | None]("arrivals")  # the decision being handled: its instant
    sim_busy = Handed[bool]("later")
    buttons = Kept[ButtonFeedback]("commits")
    sounds = Kept[Sounds]("commits")
    group_commit = Handed[bool]("commits", "enabled")  # bench/gpio.py turns it off to compare
    config = Kept[Any]("host")
    config_file = Handed[str | None]("host")  # where ``config`` came from, kept in a game's meta
    source = Kept[Any]("host")  # the running game's button source (None before it starts)
    source_name = Handed[str]("host", "name")
    seed = Handed[int]("host")
    speed = Handed[float]("host")
    web = Kept[Any]("host")
    settings_path = Handed[Any]("controls")  # where the table's own choices go (its language)

    # --- the game ----------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The running game's engine, or None before a game starts."""
        return self.table.engine if self.table is not None else None

    @property
    def screens(self) -> GameScreens[Any, Any]:
        """The shown game's side of the display (the running game's, else the setup form's)."""
        return screens_for(self.ui.game)

    def _build_view(self) -> Any:
        game = self.game
        return self.screens.build_view(game) if game is not None else None

    def _refresh(self) -> None:
        self.frame.refresh()

    def submit(self, event: Any) -> bool:
        """Hand one event to the table; a refusal becomes a message, never an exception."""
        if self.table is None:
            return False
        game = self.table.engine
        if self.arrivals.decision_ns is not None and not self._closed_first(game, event):
            return False
        # What the game's ``after`` needs of the state before a press, when it can do without
        # the views: a flood of presses then costs one view a step (bench/gpio.py).
        mark = self.screens.press_mark(game, event)
        was_finished = game.finished
        try:
            self.table.submit(self._stamped(event))
        except CompanionError as err:  # refused by the rules, or the journal could not be written
            self.ui.say(err.text)
            self.frame.dirty = True
            return False
        if mark is None:
            before = self.view
            self._refresh()
            self._after(event, before)
        else:
            # Built when next read: by the frame, or by the next event's after. A press may
            # change nothing on screen (a seat pressing again in a flood): the frame is drawn
            # only if the view differs from the one drawn last (step).
            self.frame.view_stale = self.frame.maybe_same = True
            if self.game.finished and not was_finished:
                self.load_tally()  # a game just ended: it counts tonight
            self.screens.after_marked(self, event, mark)
            self.maybe_simulate()
        for status in self.commits.buttons.decided(event, self.game, self.screens, self.ui.hardware.stuck):
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
            self.ui.say(err.text)
            self.frame.dirty = True
            return False
        return self.submit(closing)

    def _stamped(self, event: Any) -> Any:
        """The press being handed on, with which clock, and which boot of it, stamped it: a
        verdict never compares stamps of two epochs (docs/table-log.md)."""
        stamp = self.arrivals.stamp
        if (
            stamp is not None
            and getattr(event, "type", None) == "press"
            and getattr(event, "epoch", "") is None
        ):
            return event.model_copy(update={"clock": stamp.clock.name, "epoch": stamp.epoch})
        return event

    def load_tally(self) -> None:
        """The players' numbers for the stats screen and the evening's tally; never raises."""
        self.later.tally_pending = False
        if self.commits.holding:
            self.later.tally_after = True  # read once the step's events are in the journal
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
        self.commits.sounds.speak(self.ui.game, before, self.view, event, self.ui.lang)
        if isinstance(event, Undo):
            fr = self.screens.undone(self.game, "fr") or "?"
            en = self.screens.undone(self.game, "en") or "?"
            self.ui.say(Text("scr.msg.undone", what=Text.pair(en=en, fr=fr)), error=False)
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
            if self.host.config_file:
                meta["config"] = self.host.config_file
            # Kept with the game in the journal's own record of it, never in the table log
            # (docs/table-log.md: its keys are fixed): a resume, and the next game with these
            # players, find them there; a replay of the log alone proposes them anew.
            meta["short"] = names.choose(players, before if shorts is None else shorts)
            self.table = Table.start(self.journal, setup, meta)
        except CompanionError as err:
            names.choose(players, before)  # the game that goes on keeps its forms
            self.ui.say(err.text)
            self.frame.dirty = True
            return
        self.source_name = input_name
        self.ui = Ui(
            lang=self.ui.lang, muted=self.ui.muted, voice=self.ui.voice, setup=self.ui.setup, game=setup.game
        )
        self.ui.hardware.web = self.web
        self._refresh()
        self.later.rewarm()  # new names, maybe a new game's screens
        self.start_source()

    # --- input sources -----------------------------------------------------------------------

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
            source = self.host.start(len(game.players), self.arrivals.inbox)
        except CompanionError as err:
            hw.connected = False
            hw.failed = True
            hw.notes.append(err.text)
            self.ui.say(Text("scr.msg.source_failed", why=err.text))
            self.frame.dirty = True
            return
        self.commits.buttons.attach(source, game, self.screens)
        hw.connected = True
        hw.failed = False
        self.later.sim_busy = False
        self.maybe_simulate()

    def stop_source(self) -> None:
        if self.source is not None:
            self.commits.buttons.detach()
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
        at = self.arrivals.decision_ns if at is None else at
        return None if at is None else self.host.on_clock(key, at)

    def maybe_simulate(self) -> None:
        """Simulated players act once for each state the table waits in."""
        if self.commits.holding:
            self.later.simulate_after = True  # on the state the journal holds (their bots read it)
            return
        sim = self.host.sim()
        if sim is None or self.game is None or self.later.sim_busy or self.game.finished:
            return
        self.screens.simulate(self, sim)

    def keys_are_buttons(self) -> bool:
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
            counts, status = self.commits.buttons.edge(item, game)
            if status is not None:
                self._status(status)
            if not counts:
                return  # a release, or a button held since its slap window opened
        if item.edge != "press":
            return
        if item.role != "seat":
            self.do(REFEREE_ACTIONS[item.role])
        elif game is not None and not game.finished:
            self.arrivals.stamp = item
            try:
                self.screens.press(self, item.seat, item.t_us, item.res_us)
            finally:
                self.arrivals.stamp = None

    def sim_done(self) -> None:
        """The simulated players' last burst is handled: they may act on the new state."""
        self.later.sim_busy = False
        self.maybe_simulate()

    def _status(self, item: SourceStatus) -> None:
        hw = self.ui.hardware
        hw.source = hw.source or item.source
        if item.kind == "disconnected":
            hw.connected = False
        elif item.kind == "connected":
            hw.connected = True
        elif item.kind == "stuck":
            number = str((item.seat or 0) + 1)
            label = item.text if item.fr or item.en else Text.pair(en=number, fr=number)
            hw.stuck[item.seat if item.seat is not None else -1] = label
        elif item.kind == "released":
            hw.stuck.pop(item.seat if item.seat is not None else -1, None)
        if item.fr or item.en:
            hw.notes.append(item.text)
            del hw.notes[:-10]
        self.frame.dirty = True

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
            self.frame.dirty = True
            return None
        return phase

    def redraw(self) -> None:
        self._render()
        self._present()

    def _render(self) -> None:
        """Lay out the frame on the display's surface: nobody sees it before ``_present``."""
        phase = self.animating()
        if self.later.tally_pending and active_screen(self.view, self.ui) in TALLY_SCREENS:
            self.load_tally()
        now = self.ui.now = self.now()
        self.frame.render(self.ui, phase, now, self.screens.redraw_in)

    def _present(self) -> None:
        self.frame.present()

    def warm_step(self) -> None:
        """Draw one of the views a first slap will show, off screen (``Later.warm_step``)."""
        game = self.game
        frame = self.frame
        self.later.warm_step(
            lambda: self.screens.warm_views(game) if game is not None else (),
            frame.turned.canvas(frame.surface),
            frame.fonts,
            self.ui,
            self.now(),
        )

    def _precise(self) -> bool:
        """Keys are slap buttons right now: read them more often (they are stamped when read)."""
        return self.keys_are_buttons()

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
        arrivals = self.arrivals
        gated = arrivals.gate is not None
        if gated:  # a watermark moves without waking us: look again soon
            timeout = GATE_POLL_S if timeout is None else min(timeout, GATE_POLL_S)
        deadline = None if timeout is None else self.now() + timeout
        while True:
            before = arrivals.read_ns
            events = pygame.event.get()
            now = self.now()
            arrivals.read_ns = int(now * 1e9)
            if events or (arrivals.early and not gated) or not arrivals.inbox.empty():
                # These events came after the previous read: keys stamped now say so.
                arrivals.since_ns = before or None
                arrivals.input_at = now
                return events
            poll = polls[now - arrivals.input_at >= IDLE_AFTER_S]
            left = poll if deadline is None else min(poll, deadline - now)
            if left <= 0:
                return []
            # Sleeps on the queue's eventfd: a put wakes it at once (the next look returns it).
            arrivals.inbox.wait_for_item(left)

    def _window_open(self) -> bool:
        """A slap window is open: a decision made now judges it."""
        game = self.game
        return game is not None and not game.finished and self.screens.window_open(game)

    def gates(self) -> bool:
        """Decisions wait for the watermarks while a game is on (not over). Outside a game no
        press can count, so a key or tap is applied as it comes."""
        game = self.game
        return game is not None and not game.finished

    def _report_overflow(self) -> None:
        status = self.arrivals.overflowed(self.source_name)
        if status is not None:
            self._status(status)
            self.ui.say(status.text)

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
            self.ui.say(refused.text)
            self._refresh()
            self.commits.buttons.show(self.game, self.screens)
        writes, self.commits.held_writes = self.commits.held_writes, []
        for write in writes:
            write.settle(refused)
        if self.later.tally_after:
            self.later.tally_after = False
            self.load_tally()
            self.frame.dirty = True  # the stats and game-over screens show it
        if self.later.simulate_after:
            self.later.simulate_after = False
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
        if self.arrivals.inbox.qsize() <= BEHIND_ITEMS:
            budget = min(budget, max(HANDLE_MIN_S, FRAME_BUDGET_S - self.frame.tail_s))
        self.hold()
        if self.later.resume_pending and self.table is not None:
            self.later.resume_pending = not self.screens.resumed(self)
        self.arrivals.take(events)
        self.arrivals.handle_until(handling + budget)
        # The step's events are written on the writer thread while the frame is laid out, and
        # the frame is shown only once they are durable.
        tail_from = self.now()
        commit = self.commits.start(self.table) if self.commits.holding else None
        self._report_overflow()
        drawn = self._show(commit)
        if drawn:
            # What this step spent besides handling: reading its inputs (or waiting for them:
            # after an idle wait the next step handles HANDLE_MIN_S only), committing, drawing.
            self.frame.tail_s = self.now() - tail_from + handling - began
        self.commits.checkpoint_later()
        arrivals = self.arrivals
        if self.frame.frames and not events and not drawn and not arrivals.early and arrivals.inbox.empty():
            self._idle_work()

    def _timeout(self, timeout: float | None) -> float | None:
        """How long the step may wait for inputs: less while something moves on screen."""
        was_animating = self.ui.anim_start is not None
        if self.animating() is not None:
            timeout = ANIM_FRAME_S if timeout is None else min(timeout, ANIM_FRAME_S)
        elif was_animating:
            # It ended just now: its last frame (the screen without the overlay) is drawn before
            # waiting, or "Alice starts!" stayed up until someone touched a key.
            timeout = 0.0
        if self.frame.tick_at is not None:  # a countdown on screen: wake for its next frame
            due = max(0.0, self.frame.tick_at - self.now())
            timeout = due if timeout is None else min(timeout, due)
        if (self.later.warm_pending or self.later.tally_pending) and self.frame.frames:
            timeout = 0.0  # work for idle time: look at the inputs, then do it if none came
        return timeout

    def _show(self, commit: Future[None] | None) -> bool:
        """Lay the frame out while ``commit`` runs, then show it once durable; whether drawn."""
        # Ask the animation first: the step in which it ends marks the screen dirty, and that
        # frame must be drawn now (a kiosk may see no other input until the next slap).
        animation = self.animating()
        ticking = self.frame.tick_at is not None and self.now() >= self.frame.tick_at
        self.frame.changed_since_drawn()
        drawn = self.frame.dirty or animation is not None or ticking
        if drawn:
            self._render()
        self._flushed(commit)
        if self.frame.dirty:  # a refused commit, a new tally, a simulated move: lay it out again
            self._render()
            drawn = True
        if drawn:
            self._present()
        return drawn

    def _idle_work(self) -> None:
        if self.later.tally_pending:
            self.load_tally()
        elif self.later.warm_pending:
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
            self.commits.buttons.off()
            self.stop_source()
            self.commits.sounds.close()
            sys.setswitchinterval(switch)
        return 0
