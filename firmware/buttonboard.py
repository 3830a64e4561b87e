"""The button board: edges from a capture path, debounced in the main loop, sent to the host.

Everything hardware is passed in (pin class, mem32, ticks_us, the serial stream, the PIO capture
if the board has one), so the same file runs on a Pico and, with fakes, under the MicroPython
unix port in the tests.
"""

from micropython import const

import wire
from debounce import Debouncer
from evring import EventRing
from irqcapture import INTR_RP2040, INTR_RP2350, IrqCapture
from ticks64 import Ticks64

# 0.3.0 answers ASK (docs/protocol.md): a host that sees an older one says to update it.
FIRMWARE_VERSION = (0, 3, 0)

# SIO GPIO_IN: one read gives every pin's level at the same clock cycle, on RP2040 and RP2350.
GPIO_IN = const(0xD0000004)
HEARTBEAT_US = const(250000)
# The host sends its LED state every second (companion/inputs/serial_source.py, LED_REFRESH_S);
# this long without a word from it, it is gone (killed, its "off" at quit lost on the way) and
# the LEDs go dark rather than show a verdict nobody is giving.
HOST_SILENT_US = const(3000000)
_BLINK_US = const(125000)

ROLE_SEAT = const(0)


class Board:
    def __init__(self, Pin, mem32, ticks_us, io, uid, boot_id, seat_pins, referee_pins=(),
                 led_pins=(), machine="", lockout_us=30000, glitch_us=2000,
                 stuck_us=10000000, ring_size=256, status_led=None, idle=None, pio=None):
        self._mem = mem32
        self._ticks = ticks_us
        self._io = io
        self._uid = uid
        self.boot_id = boot_id
        self._machine = machine
        self._idle = idle
        self.seat_pins = tuple(seat_pins)
        self.referee_pins = tuple(referee_pins) + (None,) * (3 - len(referee_pins))
        self.led_pins = tuple(led_pins) + (None,) * (len(self.seat_pins) - len(led_pins))
        self.lockout_us = lockout_us
        self.glitch_us = glitch_us
        self.stuck_us = stuck_us
        self.clock = Ticks64(ticks_us)
        self.ring = EventRing(ring_size)
        self.reader = wire.LineReader()
        self.stopped = False

        # Inputs in protocol order: seats, then confirm/cancel/undo. (role, index, gpio)
        self._inputs = []
        for i, p in enumerate(self.seat_pins):
            self._inputs.append((ROLE_SEAT, i, p))
        for j, p in enumerate(self.referee_pins):
            if p is not None:
                self._inputs.append((1 + j, j, p))
        self._pins = []
        for _, _, p in self._inputs:
            self._pins.append(Pin(p, Pin.IN, Pin.PULL_UP))
        self._leds = [None if p is None else Pin(p, Pin.OUT, value=0) for p in self.led_pins]
        self._led_state = [0] * len(self._leds)
        self._status = Pin(status_led, Pin.OUT, value=0) if status_led is not None else None
        self.led_on = 0
        self.led_blink = 0
        self._host_at = 0  # when the host last sent a command (the LED watchdog)

        now = self.clock.now()
        g = mem32[GPIO_IN]
        self._deb = []
        for k, (_, _, p) in enumerate(self._inputs):
            held = not (g >> p) & 1
            self._deb.append(Debouncer(k, self._decided, lockout_us, glitch_us, stuck_us,
                                       held, now))
            if held:
                # Host must know a button is already down: it is stuck until released.
                self._decided(k, 2, now)
        self._sent = 0
        self._next_hb = now
        self._host_at = now
        # PIO capture if it can be had (``pio(pin_cls, gpios, ticks_us, sm_id, gpio_in)``), else
        # the interrupts.
        gpios = [p for _, _, p in self._inputs]
        capture = None
        self.capture_error = ""
        if pio is not None:
            try:
                capture = pio(Pin, gpios, ticks_us, 0, g)
            except (OSError, ValueError) as e:
                self.capture_error = str(e)
        if capture is None:
            levels = [(g >> p) & 1 for p in gpios]
            # The bank's raw interrupts are elsewhere on an RP2350 ("... with RP2350").
            intr = INTR_RP2350 if "RP2350" in machine else INTR_RP2040
            capture = IrqCapture(self._pins, levels, ticks_us, gpios, mem32, None, intr)
        self.capture = capture
        self._lag = self.capture.lag_us
        self._sink = self._edge  # bound methods, made once
        self._blind = self._lost

    # -- main loop ------------------------------------------------------------------------------

    def _decided(self, k, kind, t0):
        role, index, _ = self._inputs[k]
        self.ring.push(role, index, kind, t0)

    def _advance(self, t):
        """Every decision due by t, across buttons, in the order they fall due."""
        deb = self._deb
        while True:
            best = None
            bd = 0
            for d in deb:
                x = d.next_deadline()
                if x is not None and x <= t and (best is None or x < bd):
                    best = d
                    bd = x
            if best is None:
                return
            best.poll(bd)

    def _edge(self, t, k, active):
        self._advance(t)
        self._deb[k].edge(t, active)

    def _lost(self, ta, tb):
        # The capture's ring went round: edges after ta and up to tb are gone.
        self._advance(ta)
        for d in self._deb:
            d.blind(ta, tb)

    def step(self):
        # Every edge stamped before `now - lag` is already captured when now is read (an IRQ
        # runs to completion before the main loop resumes; a PIO sample reaches the ring within
        # a microsecond), so deciding up to there is exact.
        now = self.clock.now()
        self.capture.poll(self.clock, self._sink, self._blind)
        self._advance(now - self._lag)
        io = self._io
        while True:
            b = io.read_byte()
            if b < 0:
                break
            cmd = self.reader.feed(b)
            if cmd is not None:
                self._command(cmd, now)
        self._send_new()
        if now >= self._next_hb:
            self._next_hb = now + HEARTBEAT_US
            io.write(wire.heartbeat(now, self.ring.next, self.capture.lost))
            if self._status is not None:
                self._status.value(not self._status.value())
        if (self.led_on | self.led_blink) and now - self._host_at > HOST_SILENT_US:
            self.led_on = 0
            self.led_blink = 0
        self._update_leds(now)

    def _send_new(self):
        ring = self.ring
        while self._sent < ring.next:
            s = self._sent
            if s >= ring.oldest():
                role, index, kind, t = ring.get(s)
                self._io.write(wire.event(s, role, index, kind, t))
            self._sent = s + 1

    def _command(self, cmd, now):
        t, a, b = cmd
        io = self._io
        self._host_at = now
        if t == wire.HELLO_REQUEST:
            io.write(self.hello())
        elif t == wire.SET_LEDS:
            self.led_on = a
            self.led_blink = b
        elif t == wire.RESEND:
            self._send_new()
            ring = self.ring
            first = a if a > ring.oldest() else ring.oldest()
            if first > ring.next:
                first = ring.next
            for s in range(first, ring.next):
                role, index, kind, ts = ring.get(s)
                io.write(wire.event(s, role, index, kind, ts))
            io.write(wire.resend_done(a, first, ring.next))
        elif t == wire.PING:
            io.write(wire.pong(a, now))
        elif t == wire.ASK:
            # Every event decided so far leaves first: the host holds them all once it has
            # every seq before the answer's next_seq.
            self._send_new()
            io.write(wire.mark(a, now, self.watermark(now), self.ring.next))

    def watermark(self, now):
        """No press still to come will be stamped before this (docs/protocol.md, MARK): ``now``
        (less the capture's lag: a sample may reach the ring that late), held back to the
        earliest stamp a decision still pending may give."""
        w = now - self._lag
        for d in self._deb:
            e = d.earliest()
            if e is not None and e < w:
                w = e
        return w

    def hello(self):
        stuck_ms = 0 if self.stuck_us is None else self.stuck_us // 1000
        c = self.capture
        return wire.hello(FIRMWARE_VERSION, self._uid, self.boot_id, self.ring.next,
                          self.ring.oldest(), self.lockout_us, self.glitch_us, stuck_ms,
                          self.seat_pins, self.referee_pins, self.led_pins, self._machine,
                          c.path, c.resolution_us, c.align_us, c.ring_records)

    def _update_leds(self, now):
        phase = (now // _BLINK_US) & 1
        for i, led in enumerate(self._leds):
            if led is None:
                continue
            bit = 1 << i
            v = phase if self.led_blink & bit else (1 if self.led_on & bit else 0)
            if v != self._led_state[i]:
                self._led_state[i] = v
                led.value(v)

    def lost(self):
        return self.capture.lost

    def run(self):
        while not self.stopped:
            self.step()
            if self._idle is not None:
                self._idle()

    def close(self):
        self.capture.close()
        for led in self._leds:
            if led is not None:
                led.value(0)
