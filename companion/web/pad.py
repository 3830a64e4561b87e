"""One seat phone's connection, as a protocol: pings out, pongs and presses in.

Pure and clock-injected, so the server and the fairness test run the very same code: the server
feeds it the WebSocket's text frames with ``time.monotonic_ns``, the test with a simulated clock.
A refused message becomes a one-sentence answer (French and English), never an exception out.

Messages (JSON objects, at most ``MAX_MESSAGE`` bytes):

- table → phone: ``{"t": "ping", "id": n}``, ``{"t": "ok", "n": n, "res_us": r}``,
  ``{"t": "no", "n": n, "fr": ..., "en": ...}``, ``{"t": "sync", "res_us": r, "rtt_us": r}``
- phone → table: ``{"t": "hello", "step_us": s}`` (its clock's step),
  ``{"t": "pong", "id": n, "p": ms}`` (``performance.now()`` as it answered),
  ``{"t": "press", "n": n, "p": ms, "g": game, "d": ms}`` (the touch event's ``timeStamp``;
  ``d``: how long the browser took to hand the touch to the page, ``performance.now()`` in the
  handler less ``timeStamp``: the pad's input allowance, below),
  ``{"t": "release", "n": n, "p": ms}`` (the finger lifted: a button held is a stuck button)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from companion.i18n import french_typography
from companion.inputs.base import Clock, InputEvent
from companion.web.clockmap import PhoneClock, Ping
from companion.web.pairing import GamePairing, Grant

# Two round trips a second: the drift since the last one stays under a third of a millisecond, and
# ten idle pads cost the table little (bench/web.py, idle_cpu).
PING_EVERY_NS = 500_000_000
MAX_MESSAGE = 512  # bytes: the longest honest message is under 100
MAX_OUTSTANDING = 8  # pings awaiting their pong; older ones are forgotten
MAX_PRESS_AGE_NS = 2_000_000_000  # a press older than this when it arrives is not believed
MAX_RES_NS = 250_000_000  # a press known only to a quarter second is not a slap: sync first
DEFAULT_STEP_NS = 1_000_000  # a phone that does not say its clock's step: a common browser's
MIN_STEP_NS = 1_000
# A coarser step is believed up to this: privacy modes round to a 60 Hz frame (16.7 ms) or to
# 100 ms; the step widens the stated resolution (it is in every uncertainty), so a phone that
# overstates it only makes its presses ties, never earlier. Capping it lower made the table
# state presses more precisely than the phone stamped them, and refuse honest ones as "from the
# future".
MAX_STEP_NS = 100_000_000
STRIKES = 20  # refused messages before the connection is closed
# The pad's watermark (docs/phones.md, "Waiting for the phones"). A touch is stamped by the
# phone's system before the page's handler runs: a pong read at P does not promise that every
# touch stamped before P was already sent, only those stamped before P less the browser's
# delay in handing a touch to the page. Until the pad has measured that delay on a press of its
# own, this much is allowed for; then the largest measured, never less than MIN_LAG_NS.
DEFAULT_LAG_NS = 16_000_000
MIN_LAG_NS = 4_000_000
MAX_LAG_NS = 250_000_000  # a page that claims more is believed only up to this
# How long a decision waits for a pad that does not answer (``PadSession.bound_ns``): a few of
# its recent round trips (their median) plus its allowances, never less than BOUND_FLOOR_NS (a Wi-Fi
# retransmission takes 100-200 ms), never more than MAX_PRESS_AGE_NS (a press older than that
# is refused anyway: waiting longer could not count it).
BOUND_FLOOR_NS = 150_000_000
BOUND_RTTS = 4
RECENT_RTTS = 8  # round trips the bound looks at


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now_ns: int) -> None:
        self.rate = rate
        self.burst = burst
        self.level = float(burst)
        self.at = now_ns

    def take(self, now_ns: int) -> bool:
        self.level = min(self.burst, self.level + (now_ns - self.at) * self.rate / 1e9)
        self.at = now_ns
        if self.level >= 1:
            self.level -= 1
            return True
        return False


@dataclass(frozen=True, slots=True)
class Refusal:
    n: int | None
    fr: str
    en: str

    def text(self) -> str:
        return json.dumps({"t": "no", "n": self.n, "fr": self.fr, "en": self.en}, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one received message led to: a press for the queue, an answer for the phone."""

    press: InputEvent | None = None
    answer: str | None = None
    close: bool = False
    # The pad's watermark this message supports (``PadSession.mark``), published by the server
    # only after ``press`` is on the table's queue.
    mark_ns: int | None = None


def _ms_to_ns(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or not 0 <= value < 1e12:
        return None
    return round(value * 1_000_000)


class PadSession:
    """A seat phone's connection to the table."""

    def __init__(
        self, grant: Grant, pairing: GamePairing, now_ns: Callable[[], int], *, source: str = "web"
    ) -> None:
        self.grant = grant
        self.pairing = pairing
        self.now_ns = now_ns
        self.source = source
        self.clock = PhoneClock(DEFAULT_STEP_NS)
        self._next_id = 0
        self._sent: dict[int, int] = {}
        self.bucket = Bucket(rate=40, burst=60, now_ns=now_ns())
        self.strikes = 0
        self.presses = 0
        # Press numbers are this connection's: they must grow on it (a message sent twice counts
        # once), and a new phone, a reloaded page or a new code starts its own count (a
        # seat's highest number kept for ever would refuse a new phone's presses until it caught up).
        self.last_n = 0
        self._down: int | None = None  # the press whose release is awaited
        # Event time (docs/phones.md, "Waiting for the phones"): written by the server's
        # thread, read by the table's (``WebSource.promise``); ints, replaced whole.
        self.watermark_ns: int | None = None  # every press stamped before it has been put
        self.since_ns = self.heard_ns = now_ns()  # connected; the latest message's arrival
        # The server's questions (``WebServer.ask_pads``): the ping it asked with, when, and
        # whether it is waiting to ask again; the latest ping answered.
        self.ask_id: int | None = None
        self.ask_at = 0
        self.ask_timer = False
        self.pong_id = 0
        self.lag_ns = DEFAULT_LAG_NS
        self.lag_measured = False
        self._rtts: list[int] = []

    @property
    def seat(self) -> int:
        return self.grant.seat

    def ping(self) -> str:
        self._next_id += 1
        self._sent[self._next_id] = self.now_ns()
        while len(self._sent) > MAX_OUTSTANDING:
            del self._sent[min(self._sent)]
        return json.dumps({"t": "ping", "id": self._next_id})

    @property
    def last_ping_id(self) -> int:
        return self._next_id

    def sync_text(self) -> str:
        """The phone's own figures: how well its presses are known right now."""
        res = self.resolution_ns()
        rtt = self.clock.min_rtt_ns
        return json.dumps(
            {
                "t": "sync",
                "res_us": None if res is None else -(-res // 1000),
                "rtt_us": None if rtt is None else rtt // 1000,
            }
        )

    def resolution_ns(self) -> int | None:
        """What a press made now would be known to (for the status screen)."""
        now = self.now_ns()
        best = None
        for ping in self.clock._candidates():
            phone_now = ping.phone_ns + (now - ping.back_ns)
            m = self.clock.map(phone_now)
            if m is not None and (best is None or m.uncertainty_ns < best):
                best = m.uncertainty_ns
        return best

    def _refuse(self, n: int | None, fr: str, en: str) -> Outcome:
        self.strikes += 1
        # The phone shows the French as it comes: with its narrow no-break spaces (before : ;
        # inside « »), as every other French text of the table.
        return Outcome(answer=Refusal(n, french_typography(fr), en).text(), close=self.strikes >= STRIKES)

    def receive(self, text: str | bytes) -> Outcome:
        """One message from the phone; never raises, whatever it holds."""
        now = self.now_ns()
        self.heard_ns = now
        if not self.bucket.take(now):
            return self._refuse(
                None,
                "Trop de messages : ce téléphone est ralenti.",
                "Too many messages: this phone is being slowed down.",
            )
        if len(text) > MAX_MESSAGE:
            return self._refuse(
                None,
                f"Message trop long (plus de {MAX_MESSAGE} octets) : rechargez la page du bouton.",
                f"Message too long (over {MAX_MESSAGE} bytes): reload the button page.",
            )
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            msg = None
        if not isinstance(msg, dict):
            return self._refuse(
                None,
                "Message illisible : la page du bouton attend du JSON ; rechargez-la.",
                "Unreadable message: the button page speaks JSON; reload it.",
            )
        kind = msg.get("t")
        if kind == "pong":
            return self._pong(msg, now)
        if kind == "press":
            return self._press(msg, now)
        if kind == "release":
            return self._release(msg, now)
        if kind == "hello":
            raw = msg.get("step_us")
            step = _ms_to_ns(raw / 1000 if isinstance(raw, int | float) else None)
            if step is None:
                return self._refuse(
                    None,
                    "« hello » sans pas d'horloge (step_us) valable.",
                    '"hello" without a valid clock step (step_us).',
                )
            self.clock.phone_res_ns = min(max(step, MIN_STEP_NS), MAX_STEP_NS)
            return Outcome(answer=self.sync_text())
        return self._refuse(
            None,
            f"Type de message inconnu {str(kind)[:20]!r} : ping, pong, press, release ou hello.",
            f"Unknown message type {str(kind)[:20]!r}: ping, pong, press, release or hello.",
        )

    def _pong(self, msg: dict[str, object], now: int) -> Outcome:
        ident = msg.get("id")
        phone = _ms_to_ns(msg.get("p"))
        if not isinstance(ident, int) or isinstance(ident, bool) or phone is None:
            return self._refuse(
                None,
                "« pong » mal formé : il faut id (entier) et p (ms).",
                'Malformed "pong": it needs id (integer) and p (ms).',
            )
        sent = self._sent.pop(ident, None)
        if sent is None:
            # Not a ping of ours, or answered twice: a replayed pong would fake a short trip.
            return self._refuse(
                None,
                "« pong » d'un ping inconnu ou déjà répondu : ignoré.",
                '"pong" for an unknown or already answered ping: ignored.',
            )
        self.pong_id = max(self.pong_id, ident)
        ping = Ping(sent, phone, now)
        if self.clock.add(ping):
            self._rtts = [*self._rtts[-(RECENT_RTTS - 1) :], ping.rtt_ns]
        return Outcome(mark_ns=self.mark(phone))

    def _press(self, msg: dict[str, object], now: int) -> Outcome:
        n = msg.get("n")
        phone = _ms_to_ns(msg.get("p"))
        if not isinstance(n, int) or isinstance(n, bool) or not 0 < n < 2**53 or phone is None:
            return self._refuse(
                None,
                "Appui mal formé : il faut n (entier positif) et p (ms).",
                "Malformed press: it needs n (positive integer) and p (ms).",
            )
        if msg.get("g") != self.grant.game_id:
            return self._refuse(
                n,
                "Cet appui est d'une autre partie : rechargez la page du "
                "bouton depuis le code de cette partie.",
                "This press belongs to another game: reload the button page from this game's code.",
            )
        last = self.last_n
        if n <= last:
            return self._refuse(
                n,
                f"Appui n° {n} déjà reçu (dernier : {last}) : un appui rejoué ne compte pas.",
                f"Press #{n} was already received (last: {last}): a replayed press does not count.",
            )
        mapped = self.clock.map(phone)
        if mapped is None or mapped.uncertainty_ns > MAX_RES_NS:
            return self._refuse(
                n,
                "Horloge du téléphone pas encore accordée : attendez une seconde, puis tapez.",
                "The phone's clock is not synchronised yet: wait a second, then press.",
            )
        if mapped.t_ns - mapped.uncertainty_ns > now:
            return self._refuse(
                n,
                "Appui daté dans le futur : l'horloge du téléphone a sauté ; rechargez la page du bouton.",
                "Press stamped in the future: the phone's clock jumped; reload the button page.",
            )
        if now - mapped.t_ns > MAX_PRESS_AGE_NS:
            return self._refuse(
                n,
                "Appui arrivé plus de 2 s après le toucher : il ne compte pas ; vérifiez le Wi-Fi.",
                "Press arrived over 2 s after the touch: it does not count; check the Wi-Fi.",
            )
        self.last_n = n
        self._down = n
        self.presses += 1
        lag = _ms_to_ns(msg.get("d"))
        if lag is not None:  # measured by the page on this very touch
            lag = min(max(lag, MIN_LAG_NS), MAX_LAG_NS)
            self.lag_ns = max(self.lag_ns, lag) if self.lag_measured else lag
            self.lag_measured = True
        event = InputEvent(
            "seat",
            self.seat,
            "press",
            mapped.t_ns,
            Clock("CLOCK_MONOTONIC", max(mapped.uncertainty_ns, 1000)),
            self.source,
            table_ns=mapped.t_ns,
        )
        return Outcome(
            press=event,
            answer=json.dumps({"t": "ok", "n": n, "res_us": -(-event.clock.resolution_ns // 1000)}),
            mark_ns=self.mark(phone),
        )

    def _release(self, msg: dict[str, object], now: int) -> Outcome:
        n = msg.get("n")
        phone = _ms_to_ns(msg.get("p"))
        if self._down is None or n != self._down or phone is None:
            return self._refuse(
                None, "Relâcher sans appui en cours : ignoré.", "Release without a press held: ignored."
            )
        self._down = None
        mapped = self.clock.map(phone)
        # A release only tells the table the pad is no longer held: stamped when it arrives if
        # the phone's stamp is not believable, since no verdict depends on it.
        t = mapped.t_ns if mapped is not None and 0 <= now - mapped.t_ns <= MAX_PRESS_AGE_NS else now
        res = mapped.uncertainty_ns if mapped is not None else MAX_RES_NS
        return Outcome(
            press=InputEvent(
                "seat",
                self.seat,
                "release",
                t,
                Clock("CLOCK_MONOTONIC", max(res, 1000)),
                self.source,
                table_ns=t,
            ),
            mark_ns=self.mark(phone),
        )

    # --- event time: what this pad promises -------------------------------------------------

    def mark(self, phone_ns: int) -> int | None:
        """The watermark a message the phone sent at ``phone_ns`` (its clock) supports.

        A WebSocket keeps order, so every touch the page handled before sending it has arrived,
        and every touch it handles later is stamped after ``phone_ns`` less the page's input
        allowance (``lag_ns``). On the table clock, such a touch is stamped no earlier than
        this message's mapped stamp less its uncertainty (where the truth may lie) and less as
        much again (the touch may be mapped by another of the kept pings, whose bracket holds
        the truth too but whose offset may differ by that much)."""
        mapped = self.clock.map(phone_ns)
        if mapped is None or mapped.uncertainty_ns > MAX_RES_NS:
            return None
        return mapped.t_ns - 2 * mapped.uncertainty_ns - self.lag_ns

    def publish(self, mark_ns: int | None) -> None:
        """Called once the message's press (if any) is on the table's queue: never backwards."""
        if mark_ns is not None and (self.watermark_ns is None or mark_ns > self.watermark_ns):
            self.watermark_ns = mark_ns

    def holds_ns(self) -> int:
        """What this pad holds the phones' watermark at: its own, or before it is synced (its
        presses are refused until then, and the first it sends after its first pong is
        stamped after the connection, less its allowance and the worst mapping believed)."""
        mark = self.watermark_ns
        if mark is not None:
            return mark
        return self.since_ns - self.lag_ns - MAX_RES_NS

    @property
    def bound_ns(self) -> int:
        """How long after being asked this pad may take before a decision goes on without it."""
        # The median of the recent round trips: one slow trip (the first pings of a page that
        # just opened, a retransmission) does not make every decision wait long for a phone
        # gone quiet; a phone whose trips are all slow gets a long bound.
        rtt = sorted(self._rtts)[len(self._rtts) // 2] if self._rtts else 0
        res = self.resolution_ns() or 0
        return min(MAX_PRESS_AGE_NS, max(BOUND_FLOOR_NS, BOUND_RTTS * rtt + res + self.lag_ns))
