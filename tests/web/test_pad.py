"""Issue 38: a seat phone's conversation with the table, message by message, as the phone reads
the answers and as the table records the presses.

``PadSession`` is the server's own code for one pad's socket, fed the phone's JSON text on a
simulated clock: each answer here is the text the phone's page receives, each press the event
the table's rules judge. The figures are worked by hand from the clock map's rule (the bracket
of the quickest round trip, widened by 600 ppm of drift and the phone's step twice).
"""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest

from companion.inputs.base import InputEvent
from companion.web.clockmap import Mapped, PhoneClock, Ping
from companion.web.fairness import Result, _Phone, simulate, within, worst_misorder
from companion.web.pad import PadSession
from companion.web.pairing import Grant, Pairings

S = 1_000_000_000
MS = 1_000_000


class Phone:
    """A phone whose ``performance.now()`` reads the table's clock less 7 s, on a 1 ms step
    unless told, and the table's side of its socket."""

    def __init__(self, seat: int = 1) -> None:
        self.now = 10 * S
        self.pad = PadSession(Grant("g1", "seat", seat), Pairings().for_game("g1", 3), lambda: self.now)

    def send(self, message: dict[str, Any] | str) -> tuple[dict[str, Any] | None, InputEvent | None, bool]:
        out = self.pad.receive(message if isinstance(message, str) else json.dumps(message))
        return (None if out.answer is None else json.loads(out.answer)), out.press, out.close

    def sync(self, rtt_ms: int = 4) -> None:
        """One ping answered at its middle: the phone's clock is then known to rtt/2."""
        ping = json.loads(self.pad.ping())
        self.now += rtt_ms * MS // 2
        answered = (self.now - 7 * S) / MS
        self.now += rtt_ms * MS // 2
        answer, press, _ = self.send({"t": "pong", "id": ping["id"], "p": answered})
        assert answer is None and press is None

    def phone_ms(self, back_ms: float = 0) -> float:
        return (self.now - 7 * S) / MS - back_ms


def drift(ms: int) -> int:
    """600 ppm of ``ms`` milliseconds, in ns rounded up: the drift allowed before it is measured."""
    return (ms * MS * 600 + 999_999) // 1_000_000


def refusal(fr: str, en: str, n: int | None = None) -> dict[str, Any]:
    """The refusal the phone shows; the French written here with plain spaces and straight
    apostrophes, received with narrow no-break spaces before the colons and semicolons and
    inside the guillemets, and the typographic apostrophe."""
    fr = (
        fr.replace(" :", "\u202f:").replace(" ;", "\u202f;").replace("« ", "«\u202f").replace(" »", "\u202f»")
    )
    fr = re.sub(r"(?<=\w)'(?=\w)", "\u2019", fr)  # the apostrophe of an elision
    return {"t": "no", "n": n, "fr": fr, "en": en}


def test_a_synchronised_press_is_placed_on_the_table_clock_with_its_resolution() -> None:
    phone = Phone()
    assert phone.send({"t": "hello", "step_us": 1000})[0] == {"t": "sync", "res_us": None, "rtt_us": None}
    phone.sync(rtt_ms=4)
    # The quickest round trip 4 ms: a stamp right now is known to 2 ms + 2 steps of 1 ms.
    assert json.loads(phone.pad.sync_text()) == {"t": "sync", "res_us": 4000, "rtt_us": 4000}
    phone.now += 100 * MS
    touched = phone.now - 30 * MS
    answer, press, close = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(30), "g": "g1", "d": 5})
    # 2 ms of bracket, 2 ms of steps, and 600 ppm of drift over the 72 ms from the phone's
    # reading of the ping (mid-trip) to the touch, rounded up (43.2 µs).
    assert press is not None and not close
    assert (press.role, press.seat, press.edge, press.t_ns, press.table_ns) == (
        "seat",
        1,
        "press",
        touched,
        touched,
    )
    assert press.clock.resolution_ns == 4_043_200 and press.source == "web"
    assert answer == {"t": "ok", "n": 1, "res_us": 4044}
    # The finger lifted 80 ms later: a release at the phone's stamp.
    phone.now += 80 * MS
    answer, release, _ = phone.send({"t": "release", "n": 1, "p": phone.phone_ms()})
    assert answer is None and release is not None
    assert (release.edge, release.seat, release.t_ns) == ("release", 1, phone.now)
    assert release.clock.resolution_ns == 4 * MS + drift(182)


def test_a_press_the_table_cannot_believe_is_refused_in_both_languages() -> None:
    phone = Phone()
    too_soon = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(), "g": "g1"})
    assert too_soon == (
        refusal(
            "Horloge du téléphone pas encore accordée : attendez une seconde, puis tapez.",
            "The phone's clock is not synchronised yet: wait a second, then press.",
            1,
        ),
        None,
        False,
    )
    phone.sync()
    other = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(), "g": "g0"})[0]
    assert other == refusal(
        "Cet appui est d'une autre partie : rechargez la page du bouton depuis le code de cette partie.",
        "This press belongs to another game: reload the button page from this game's code.",
        1,
    )
    future = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(-50), "g": "g1"})[0]
    assert future == refusal(
        "Appui daté dans le futur : l'horloge du téléphone a sauté ; rechargez la page du bouton.",
        "Press stamped in the future: the phone's clock jumped; reload the button page.",
        1,
    )
    # Just inside the future allowed by the stamp's resolution (4 ms): believed.
    assert phone.send({"t": "press", "n": 1, "p": phone.phone_ms(-3.9), "g": "g1"})[1] is not None
    again = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(), "g": "g1"})[0]
    assert again == refusal(
        "Appui n° 1 déjà reçu (dernier : 1) : un appui rejoué ne compte pas.",
        "Press #1 was already received (last: 1): a replayed press does not count.",
        1,
    )
    old = phone.send({"t": "press", "n": 2, "p": phone.phone_ms(2001), "g": "g1"})[0]
    assert old == refusal(
        "Appui arrivé plus de 2 s après le toucher : il ne compte pas ; vérifiez le Wi-Fi.",
        "Press arrived over 2 s after the touch: it does not count; check the Wi-Fi.",
        2,
    )
    # Two seconds exactly is still a press; numbers only have to grow.
    answer, press, _ = phone.send({"t": "press", "n": 5, "p": phone.phone_ms(1990), "g": "g1"})
    assert press is not None and answer is not None and answer["t"] == "ok" and answer["n"] == 5


@pytest.mark.parametrize(
    ("message", "fr", "en"),
    [
        (
            {"t": "press", "n": 0, "p": 1},
            "Appui mal formé : il faut n (entier positif) et p (ms).",
            "Malformed press: it needs n (positive integer) and p (ms).",
        ),
        (
            {"t": "press", "n": True, "p": 1},
            "Appui mal formé : il faut n (entier positif) et p (ms).",
            "Malformed press: it needs n (positive integer) and p (ms).",
        ),
        (
            {"t": "press", "n": 2**53, "p": 1},
            "Appui mal formé : il faut n (entier positif) et p (ms).",
            "Malformed press: it needs n (positive integer) and p (ms).",
        ),
        (
            {"t": "pong", "id": True, "p": 1},
            "« pong » mal formé : il faut id (entier) et p (ms).",
            'Malformed "pong": it needs id (integer) and p (ms).',
        ),
        (
            {"t": "pong", "id": 1, "p": -1},
            "« pong » mal formé : il faut id (entier) et p (ms).",
            'Malformed "pong": it needs id (integer) and p (ms).',
        ),
        (
            {"t": "pong", "id": 1, "p": 1e12},
            "« pong » mal formé : il faut id (entier) et p (ms).",
            'Malformed "pong": it needs id (integer) and p (ms).',
        ),
        (
            {"t": "pong", "id": 7, "p": 1},
            "« pong » d'un ping inconnu ou déjà répondu : ignoré.",
            '"pong" for an unknown or already answered ping: ignored.',
        ),
        (
            {"t": "hello", "step_us": "1"},
            "« hello » sans pas d'horloge (step_us) valable.",
            '"hello" without a valid clock step (step_us).',
        ),
        (
            {"t": "hello", "step_us": float("inf")},
            "« hello » sans pas d'horloge (step_us) valable.",
            '"hello" without a valid clock step (step_us).',
        ),
        (
            {"t": "nudge"},
            "Type de message inconnu 'nudge' : ping, pong, press, release ou hello.",
            "Unknown message type 'nudge': ping, pong, press, release or hello.",
        ),
        (
            {"t": "x" * 30},
            f"Type de message inconnu {'x' * 20!r} : ping, pong, press, release ou hello.",
            f"Unknown message type {'x' * 20!r}: ping, pong, press, release or hello.",
        ),
        (
            "[1, 2]",
            "Message illisible : la page du bouton attend du JSON ; rechargez-la.",
            "Unreadable message: the button page speaks JSON; reload it.",
        ),
        (
            "{" * 300,
            "Message illisible : la page du bouton attend du JSON ; rechargez-la.",
            "Unreadable message: the button page speaks JSON; reload it.",
        ),
        (
            json.dumps({"t": "hello", "pad": "x" * 500}),
            "Message trop long (plus de 512 octets) : rechargez la page du bouton.",
            "Message too long (over 512 bytes): reload the button page.",
        ),
        (
            {"t": "release", "n": 1, "p": 1},
            "Relâcher sans appui en cours : ignoré.",
            "Release without a press held: ignored.",
        ),
    ],
)
def test_each_bad_message_gets_its_own_sentence(message: dict[str, Any] | str, fr: str, en: str) -> None:
    phone = Phone()
    phone.pad.ping()
    assert phone.send(message) == (refusal(fr, en), None, False)


def test_a_message_of_512_bytes_is_read_and_a_step_is_kept_within_its_bounds() -> None:
    phone = Phone()
    message = json.dumps({"t": "hello", "step_us": 1000, "pad": ""})
    message = message[:-2] + "x" * (512 - len(message)) + '"}'
    assert len(message) == 512
    assert phone.send(message)[0] == {"t": "sync", "res_us": None, "rtt_us": None}
    phone.sync(rtt_ms=4)
    for step_us, res_us in ((0.5, 2002), (50, 2100), (250_000, 202_000), (100_000, 202_000)):
        phone.send({"t": "hello", "step_us": step_us})
        # The stated resolution is the bracket (2 ms) and two steps of at least 1 µs and at
        # most 100 ms.
        assert json.loads(phone.pad.sync_text())["res_us"] == res_us


def test_a_pong_answered_twice_or_too_late_teaches_nothing() -> None:
    phone = Phone()
    first = json.loads(phone.pad.ping())
    assert first == {"t": "ping", "id": 1}
    # Eight pings may await their pong; the oldest of nine is forgotten.
    for i in range(8):
        assert json.loads(phone.pad.ping())["id"] == i + 2
    assert phone.pad.last_ping_id == 9
    assert phone.send({"t": "pong", "id": 1, "p": phone.phone_ms()})[0] == refusal(
        "« pong » d'un ping inconnu ou déjà répondu : ignoré.",
        '"pong" for an unknown or already answered ping: ignored.',
    )
    assert phone.send({"t": "pong", "id": 2, "p": phone.phone_ms()})[0] is None
    assert phone.send({"t": "pong", "id": 2, "p": phone.phone_ms()})[0] is not None
    assert phone.pad.pong_id == 2


def test_a_flood_is_slowed_at_sixty_then_forty_a_second_and_cut_off_at_twenty_refusals() -> None:
    phone = Phone()
    answers = [phone.send({"t": "hello", "step_us": 1000}) for _ in range(61)]
    assert [a[0]["t"] for a in answers[:60]] == ["sync"] * 60  # type: ignore[index]
    slowed = refusal(
        "Trop de messages : ce téléphone est ralenti.", "Too many messages: this phone is being slowed down."
    )
    assert answers[60] == (slowed, None, False)
    phone.now += 25 * MS  # one message's worth at 40 a second
    assert phone.send({"t": "hello", "step_us": 1000})[0]["t"] == "sync"  # type: ignore[index]
    assert phone.send({"t": "hello", "step_us": 1000})[0] == slowed
    # A full second refills forty, not sixty.
    phone.now += S
    answers = [phone.send({"t": "hello", "step_us": 1000}) for _ in range(41)]
    assert [a[0]["t"] for a in answers] == ["sync"] * 40 + ["no"]  # type: ignore[index]
    # Refusals so far: 3. The twentieth closes the socket, not the nineteenth.
    closes = [phone.send("?")[2] for _ in range(17)]
    assert closes == [False] * 16 + [True]


def test_the_pad_promises_no_earlier_press_than_its_watermark() -> None:
    """What the table waits for (docs/phones.md, "Waiting for the phones"): before the pad is
    synchronised it holds the watermark at its connection less 16 ms and a quarter second; then
    at the latest message's stamp less twice its resolution and the page's measured delay."""
    phone = Phone()
    since = phone.now
    assert phone.pad.holds_ns() == since - 16 * MS - 250 * MS
    phone.sync(rtt_ms=4)
    out = phone.pad.receive(json.dumps({"t": "pong", "id": 99, "p": phone.phone_ms()}))
    assert out.mark_ns is None  # a refused message supports nothing
    phone.pad.publish(None)
    assert phone.pad.watermark_ns is None
    phone.now += 10 * MS
    res = 4 * MS + drift(12)  # 10 ms after the pong, 12 after the phone read the ping
    out = phone.pad.receive(json.dumps({"t": "press", "n": 1, "p": phone.phone_ms(), "g": "g1", "d": 2}))
    # The page measured 2 ms: believed as at least 4 ms.
    assert out.mark_ns == phone.now - 2 * res - 4 * MS
    phone.pad.publish(out.mark_ns)
    assert phone.pad.holds_ns() == out.mark_ns
    phone.pad.publish(out.mark_ns - 1)  # never backwards
    assert phone.pad.watermark_ns == out.mark_ns
    phone.now += 10 * MS
    out = phone.pad.receive(json.dumps({"t": "release", "n": 1, "p": phone.phone_ms()}))
    res = 4 * MS + drift(22)
    assert out.mark_ns == phone.now - 2 * res - 4 * MS
    # A later press whose page took 300 ms: believed up to 250 ms, the largest kept.
    phone.now += 10 * MS
    out = phone.pad.receive(json.dumps({"t": "press", "n": 2, "p": phone.phone_ms(), "g": "g1", "d": 300}))
    res = 4 * MS + drift(32)
    assert out.mark_ns == phone.now - 2 * res - 250 * MS
    out = phone.pad.receive(json.dumps({"t": "press", "n": 3, "p": phone.phone_ms(), "g": "g1", "d": 9}))
    assert out.mark_ns == phone.now - 2 * res - 250 * MS


def test_how_long_a_decision_waits_for_a_quiet_pad() -> None:
    phone = Phone()
    # Not synchronised: the floor, 150 ms.
    assert phone.pad.bound_ns == 150 * MS
    for rtt in (40, 60, 400):
        phone.sync(rtt_ms=rtt)
    # The median of 40, 60 and 400 ms (60) four times, the resolution now (20 ms of bracket,
    # 2 ms of steps, the drift over the 460 ms since the quickest ping came back) and 16 ms of
    # page delay.
    assert phone.pad.bound_ns == 4 * 60 * MS + 20 * MS + drift(460) + 2 * MS + 16 * MS
    for _ in range(3):
        phone.sync(rtt_ms=900)
    assert phone.pad.bound_ns == 2 * S  # never more than a press may be late


def test_the_clock_map_trusts_the_quickest_trip_and_refuses_a_clock_that_goes_back() -> None:
    clock = PhoneClock(phone_res_ns=1_000, window=2)
    assert clock.map(0) is None and clock.uncertainty_now(0) is None and clock.min_rtt_ns is None
    with pytest.raises(ValueError, match="at least 1 ns"):
        PhoneClock(phone_res_ns=0)
    assert not clock.add(Ping(5 * S, 1 * S, 5 * S - 1))  # back before it left
    assert clock.add(Ping(5 * S, 1 * S + 5 * MS, 5 * S + 9 * MS))
    # Odd round trips round the half up; the offset takes the bracket's middle.
    assert clock.map(1 * S + 5 * MS) == Mapped(5 * S + 4_500_000, 4_500_000 + 2_000)
    assert not clock.add(Ping(6 * S, 1 * S, 6 * S + 1 * MS))  # the phone's clock went back
    assert clock.pings == 1
    assert clock.add(Ping(7 * S, 3 * S + 1 * MS, 7 * S + 2 * MS))  # closes the first window
    assert clock.min_rtt_ns == 2 * MS
    # A ping equal to the best so far replaces it (the later one is nearer the presses).
    assert clock.add(Ping(8 * S, 4 * S + 1 * MS, 8 * S + 2 * MS))
    m = clock.map(4 * S + 1 * MS)
    assert m == Mapped(8 * S + 1 * MS, 1 * MS + 2_000)
    assert clock.uncertainty_now(4 * S + 1 * MS) == 1 * MS + 2_000
    assert not clock.tracked and clock.skew_ppm == 0.0


# --- the simulated table of bench/web.py and the fairness test ------------------------------------


def test_a_simulated_phone_reads_its_clock_as_a_browser_does() -> None:
    # 1 s ahead, 50 ppm fast plus a 10 ppm wobble over a 300 s period, on a 0.1 ms step.
    phone = _Phone(0, S, 50.0, 10.0, 100_000)
    assert phone.read(0) == 1000.0
    # 2 s in: 100 µs of skew and 20 µs of wobble (10 ppm x 300 s x sin(2/300)), rounded down.
    assert phone.read(2 * S) == 3000.1
    assert _Phone(0, 0, 0.0, 0.0, 3).read(10) == 9e-6


def test_the_fairness_figures_count_each_press_once_and_by_its_own_resolution() -> None:
    a = Result(0, true_ns=1000, t_ns=1010, res_ns=10)  # just within
    b = Result(1, true_ns=1500, t_ns=1489, res_ns=10)  # just outside
    assert within([a, b]) == 0.5 and within([a]) == 1.0 and within([]) == 0.0
    # b touched 500 ns after a, the table puts it 479 ns before: 500 - 20 of resolution.
    late = Result(1, true_ns=1500, t_ns=990, res_ns=10)
    assert worst_misorder([a, late]) == 480
    assert worst_misorder([late, a]) == 480  # whatever order they are listed in
    assert worst_misorder([a, b]) == -(10**18)  # nothing misordered
    # A pair further apart than the horizon is not compared; one at the horizon is.
    assert worst_misorder([a, late], horizon_ns=499) == -(10**18)
    assert worst_misorder([a, late], horizon_ns=500) == 480
    # By default pairs more than a second apart are not compared.
    apart = [Result(0, 0, 2 * S, 0), Result(1, S + 1, 0, 0)]
    assert worst_misorder(apart) == -(10**18) and worst_misorder([apart[0], Result(1, S, 0, 0)]) == S
    # Stamped alike: a tie, not an order the table got wrong.
    assert worst_misorder([a, Result(1, true_ns=1500, t_ns=1010, res_ns=10)]) == -(10**18)
    third = Result(2, true_ns=1400, t_ns=980, res_ns=0)
    assert worst_misorder([a, late, third], horizon_ns=450) == 390  # a and third only


def test_the_simulation_is_the_same_for_a_seed_and_keeps_every_press() -> None:
    """bench/web.py's figures are reproducible: a seed gives the same presses, each kept
    (none refused), in touch order, from 5 s on, each on the seat that touched."""
    results = simulate(30, seats=3, seed=2, delay_ms=(1.0, 2.0), step_ns=1_000_000, press_every_ms=20.0)
    assert results == simulate(
        30, seats=3, seed=2, delay_ms=(1.0, 2.0), step_ns=1_000_000, press_every_ms=20.0
    )
    assert len(results) == 30 and {r.seat for r in results} == {0, 1, 2}
    assert results[0] == Result(1, 5_022_866_724, 5_022_321_253, 4_037_672)
    assert results[-1] == Result(2, 5_793_975_253, 5_794_122_874, 4_279_945)
    assert within(results) == 1.0
    # A 2-4 ms round trip on a 1 ms step: every press known to 2 steps, half a trip and the
    # drift since the last ping (pings every half second).
    assert all(3 * MS < r.res_ns < 6 * MS for r in results)
    assert [r.true_ns for r in results] == sorted(r.true_ns for r in results)
    wide = simulate(40, seats=2, seed=1)
    assert len(wide) == 40 and statistics.median(r.res_ns for r in wide) == 18_240_758


# --- the clock map, rule by rule ------------------------------------------------------------------


def test_a_new_clock_knows_nothing_and_steps_a_millisecond_unless_told() -> None:
    fresh = PhoneClock()
    assert fresh.skew_ppm == 0.0 and not fresh.tracked and fresh.pings == 0
    fresh.add(Ping(10 * S, 3 * S, 10 * S + 2 * MS))
    # One ping of 2 ms: 1 ms of bracket and the browser's common 1 ms step, twice.
    assert fresh.map(3 * S) == Mapped(10 * S + 1 * MS, 1 * MS + 2 * MS)
    assert PhoneClock(phone_res_ns=1).map(0) is None  # a step of 1 ns is allowed
    with pytest.raises(ValueError, match=r"^the phone clock's step must be at least 1 ns$"):
        PhoneClock(phone_res_ns=0)


def test_what_a_ping_can_and_cannot_be() -> None:
    clock = PhoneClock(phone_res_ns=1, window=1)
    assert clock.add(Ping(0, 100, 0))  # an instant round trip (a coarse table clock)
    # The phone's clock read the same as before, after the last answer came back: possible.
    assert clock.add(Ping(20, 100, 30))
    # Read earlier than before, but asked before the last answer came back: the two trips
    # overlapped, possible.
    assert clock.add(Ping(30, 50, 40))
    # Read earlier than before, asked after the last answer: the clock went back (the best of a
    # closed window is the last reading, when no window is open).
    assert not clock.add(Ping(50, 40, 60))
    assert clock.pings == 3


def test_the_best_ping_of_each_window_is_kept_and_the_drift_measured_after_three() -> None:
    """Windows of 4 pings, one every 30 s, steady round trips: the windows close at pings 4, 8
    and 12, and the drift is tracked from the third (its best pings 240 s apart), not before."""
    clock = PhoneClock(phone_res_ns=1, window=4)
    for i in range(12):
        sent = i * 30 * S
        assert not clock.tracked, i
        clock.add(Ping(sent, sent + 1 * MS, sent + 2 * MS))
    assert clock.tracked and clock.pings == 12


def test_a_drift_is_measured_over_a_minute_and_no_less() -> None:
    """Three windows of one ping each, the phone's clock 100 ppm fast: measured once the
    pings span 60 s, not over 40 s (the fit would be noise), and not from two pings."""

    def clock_of(phone_times_s: list[int]) -> PhoneClock:
        clock = PhoneClock(phone_res_ns=1, window=1)
        for t in phone_times_s:
            phone = 1_000 * S + t * S
            table = t * S - t * S // 10_000  # the phone gains 100 µs a second
            clock.add(Ping(table - 1 * MS, phone, table + 1 * MS))
        return clock

    assert round(clock_of([0, 30, 60]).skew_ppm) == -100
    assert clock_of([0, 20, 40]).skew_ppm == 0.0
    assert clock_of([0, 60]).skew_ppm == 0.0
    assert round(clock_of([0, 10, 20, 80]).skew_ppm) == -100  # a straight line through four


def test_of_two_pings_as_good_the_first_is_trusted_and_old_windows_are_let_go() -> None:
    clock = PhoneClock(phone_res_ns=1, window=1)
    clock.add(Ping(10 * S, 1 * S, 10 * S + 2 * MS))  # offset 9 s + 1 ms
    clock.add(Ping(12 * S + 5 * MS, 3 * S, 12 * S + 7 * MS))  # offset 9 s + 6 ms
    # A stamp halfway: both brackets as wide, both drifts as long; the first ping decides.
    m = clock.map(2 * S)
    assert m is not None and m.t_ns == 11 * S + 1 * MS
    # Two windows kept: the first ping (the quickest) is let go when a third window closes.
    kept = PhoneClock(phone_res_ns=1, window=1, windows=2)
    kept.add(Ping(10 * S, 1 * S, 10 * S + 2 * MS))
    kept.add(Ping(11 * S, 2 * S, 11 * S + 10 * MS))
    assert kept.min_rtt_ns == 2 * MS
    kept.add(Ping(12 * S, 3 * S, 12 * S + 10 * MS))
    assert kept.min_rtt_ns == 10 * MS


def test_the_simulated_phones_and_link_are_the_ones_described() -> None:
    """On a 1 ns step every phone's offset, drift and wobble and every message's delay reach
    the table's figures: the same seed gives these presses to the nanosecond. And the defaults
    (four phones, seed 0, 5-60 ms each way, a 0.1 ms step, a press every 100 ms) these."""
    assert simulate(6, seats=2, seed=4, step_ns=1) == [
        Result(0, 5_161_170_223, 5_165_032_531, 18_821_515),
        Result(1, 5_186_263_866, 5_175_482_587, 22_582_474),
        Result(0, 5_218_654_586, 5_222_513_699, 18_856_004),
        Result(1, 5_394_026_807, 5_383_232_786, 22_707_124),
        Result(0, 5_418_157_614, 5_422_005_640, 18_975_699),
        Result(1, 5_594_720_042, 5_583_913_713, 22_827_533),
    ]
    assert simulate(3) == [
        Result(1, 5_076_049_205, 5_082_689_749, 18_096_262),
        Result(0, 5_113_176_962, 5_098_659_704, 23_223_097),
        Result(2, 5_342_280_455, 5_355_994_384, 21_326_559),
    ]


def test_the_sync_figures_round_up_to_the_microsecond_and_look_both_ways() -> None:
    """The phone's status shows its resolution rounded up and its quickest trip rounded down,
    in whole microseconds; the resolution is the best any kept ping gives a press made now."""
    phone = Phone()
    ping = json.loads(phone.pad.ping())
    phone.now += 1_000_250
    answered = phone.phone_ms()
    phone.now += 1_000_250  # a trip of 2,000.5 µs
    phone.send({"t": "pong", "id": ping["id"], "p": answered})
    phone.now += 100 * MS
    # 1,000.25 µs of bracket, 2 ms of steps, 600 ppm of the 100 ms since: 3,060.25 µs.
    assert json.loads(phone.pad.sync_text()) == {"t": "sync", "res_us": 3061, "rtt_us": 2000}
    # A window of quick pings, then a slow one 10 s later: 0.1 s after the slow one, a press
    # made now (read on the phone's clock through the slow one: its reading, 10 ms before it
    # came back, plus the 100 ms since) is best placed by the last quick one, read 10.111 s
    # before on the phone's clock.
    clock = Phone()
    for _ in range(16):
        clock.sync(rtt_ms=2)
    clock.now += 10 * S
    clock.sync(rtt_ms=20)
    clock.now += 100 * MS
    assert clock.pad.resolution_ns() == 1 * MS + drift(10_111) + 2 * MS


def test_a_release_must_be_the_press_held_and_a_mark_needs_a_believable_clock() -> None:
    phone = Phone()
    phone.sync()
    phone.send({"t": "press", "n": 1, "p": phone.phone_ms(), "g": "g1"})
    assert phone.send({"t": "release", "n": 2, "p": phone.phone_ms()})[0] == refusal(
        "Relâcher sans appui en cours : ignoré.", "Release without a press held: ignored."
    )
    # A first round trip of 496 ms: the phone's clock known to 250 ms, the most a mark allows.
    slow = Phone()
    ping = json.loads(slow.pad.ping())
    slow.now += 248 * MS
    answered = slow.phone_ms()
    slow.now += 248 * MS
    out = slow.pad.receive(json.dumps({"t": "pong", "id": ping["id"], "p": answered}))
    assert out.mark_ns == slow.now - 248 * MS - 2 * 250 * MS - 16 * MS
    slower = Phone()
    ping = json.loads(slower.pad.ping())
    slower.now += 249 * MS
    answered = slower.phone_ms()
    slower.now += 249 * MS
    assert slower.pad.receive(json.dumps({"t": "pong", "id": ping["id"], "p": answered})).mark_ns is None


def test_the_table_records_each_press_and_release_whole() -> None:
    """The events the table's rules judge, field by field; a release is stamped at its arrival
    when the phone's stamp cannot be believed (older than 2 s, or ahead of the table)."""
    from companion.inputs.base import Clock

    phone = Phone(seat=2)
    phone.pad.receive(json.dumps({"t": "hello", "step_us": 0.001}))  # a 1 ns step, said as 1 µs
    assert phone.send({"t": "release", "n": "", "p": 1})[1] is None  # before any press
    phone.sync(rtt_ms=0)  # an instant trip: the stamp known to 2 µs of steps alone
    # p = 0 is a time (the page's first millisecond), long past: too old, not malformed.
    zero = phone.send({"t": "press", "n": 1, "p": 0, "g": "g1"})[0]
    assert zero is not None and zero["en"].startswith("Press arrived over 2 s after the touch")
    press = phone.send({"t": "press", "n": 2, "p": phone.phone_ms(), "g": "g1"})[1]
    assert press == InputEvent(
        "seat", 2, "press", phone.now, Clock("CLOCK_MONOTONIC", 2_000), "web", table_ns=phone.now
    )
    held = phone.now
    phone.now += 3 * S
    release = phone.send({"t": "release", "n": 2, "p": (held - 7 * S) / MS})[1]
    # Stamped 3 s before it arrived: at its arrival, known as well as its stamp was (2 µs).
    assert release == InputEvent(
        "seat", 2, "release", phone.now, Clock("CLOCK_MONOTONIC", 2_000), "web", table_ns=phone.now
    )
    phone.send({"t": "press", "n": 3, "p": phone.phone_ms(), "g": "g1"})
    future = phone.send({"t": "release", "n": 3, "p": phone.phone_ms(-1)})[1]
    assert future is not None and future.t_ns == phone.now
    phone.send({"t": "press", "n": 4, "p": phone.phone_ms(), "g": "g1"})
    phone.now += 2 * S
    exact = phone.send({"t": "release", "n": 4, "p": phone.phone_ms(2000)})[1]
    assert exact is not None and exact.t_ns == phone.now - 2 * S  # two seconds: still believed
    phone.send({"t": "press", "n": 5, "p": phone.phone_ms(), "g": "g1"})
    now = phone.send({"t": "release", "n": 5, "p": phone.phone_ms()})[1]
    assert now is not None and now.t_ns == phone.now  # released at once
    assert phone.pad.presses == 4  # the four believed
    # A release numbered "" matches no press, before or after one.
    for _ in range(2):
        assert phone.send({"t": "release", "n": "", "p": phone.phone_ms()})[1] is None


def test_a_press_at_each_limit_is_believed() -> None:
    """Known to exactly 250 ms, stamped exactly its resolution ahead of the table, or exactly
    2 s old: each believed; a step more and it is refused (tested above)."""
    slow = Phone()
    ping = json.loads(slow.pad.ping())
    slow.now += 248 * MS
    answered = slow.phone_ms()
    slow.now += 248 * MS
    slow.send({"t": "pong", "id": ping["id"], "p": answered})
    # At the ping's own reading: 248 ms of bracket and 2 ms of steps, no drift.
    assert slow.send({"t": "press", "n": 1, "p": answered, "g": "g1"})[1] is not None
    phone = Phone()
    phone.pad.receive(json.dumps({"t": "hello", "step_us": 0.001}))
    phone.sync(rtt_ms=0)
    # 2,002 ns ahead, known to 2 µs of steps and 2 ns of drift: exactly its resolution ahead.
    ahead = phone.send({"t": "press", "n": 1, "p": phone.phone_ms(-0.002002), "g": "g1"})[1]
    assert ahead is not None and ahead.t_ns == phone.now + 2_002 and ahead.clock.resolution_ns == 2_002
    phone.now += 2 * S
    old = phone.send({"t": "press", "n": 2, "p": phone.phone_ms(2000), "g": "g1"})
    assert old[1] is not None, old[0]


def test_a_decision_waits_on_the_median_of_the_last_eight_trips() -> None:
    """Trips of 2, then four of 300, then four of 2 ms: the last eight are four slow and four
    quick, whose median (the fifth, sorted) is a slow one; nine would make it quick, and so
    would seven."""
    phone = Phone()
    for rtt in (2, 300, 300, 300, 300, 2, 2, 2, 2):
        phone.sync(rtt_ms=rtt)
    res = phone.pad.resolution_ns()
    assert res is not None
    assert phone.pad.bound_ns == 4 * 300 * MS + res + 16 * MS
