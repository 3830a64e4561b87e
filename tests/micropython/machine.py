"""Hand-written stand-in for MicroPython's ``machine`` on the unix port, for the firmware tests.

Put this directory first on MicroPython's path. Pins keep a level; ``drive`` changes levels the
way a button does and then calls the IRQ handlers whose trigger matches, as the hardware would.
``mem32[GPIO_IN]`` reads every level at once, like the RP2040's SIO register. Every level change
latches its edge in the bank's raw interrupt register, IO_BANK0 INTR (four bits a GPIO: LEVEL_LOW,
LEVEL_HIGH, EDGE_LOW, EDGE_HIGH; edges latched whether the GPIO's interrupt is enabled or not,
until acknowledged), which ``mem16`` reads, and the interrupt is dispatched as MicroPython's rp2
port does (ports/rp2/machine_pin.c, gpio_irq: ``_gpio_irq`` below).
"""

import array

GPIO_IN = 0xD0000004
INTR = 0x400140F0  # RP2040 IO_BANK0 INTR0; INTR1-3 follow, eight GPIOs a word

_levels = array.array("i", [0])  # bit n: level of GPn
# The edge bits of INTR, in halfwords (GPIOs 4h..4h+3): no value here grows past 2**30, so that
# the firmware's handler reading it under heap_lock allocates nothing the fake made.
_intr = array.array("i", [0] * 8)
_pins = {}
_named = {}
_irqs = {}  # gpio -> the Pin object whose irq() was set last
_watchers = []  # called after every drive, as a PIO state machine sees the pins
_irq_state = [1]
# While play() runs a handler: charge(kind) moves the fake clock by what a read of that kind
# costs ("intr": one INTR halfword read, with its loop's turn; "level": GPIO_IN; "clock":
# ticks_us) and lands the edges that fall meanwhile, so a later read in the same handler sees
# them and an earlier one did not.
_charge = [None]


def charge(kind):
    """A handler's register or clock read: its cost, on the model play() runs (else nothing)."""
    c = _charge[0]
    if c is not None:
        c(kind)


def _set(gpio, level):
    """Drive GPn to level; a change latches its edge (EDGE_HIGH rising, EDGE_LOW falling)."""
    if ((_levels[0] >> gpio) & 1) == level:
        return False
    if level:
        _levels[0] |= 1 << gpio
    else:
        _levels[0] &= ~(1 << gpio)
    _intr[gpio >> 2] |= (8 if level else 4) << (4 * (gpio & 3))
    return True


def _nibble(gpio):
    """GPn's four bits of INTR: its latched edges and its level's."""
    return ((_intr[gpio >> 2] >> (4 * (gpio & 3))) & 12) | (2 if (_levels[0] >> gpio) & 1 else 1)


def _pending():
    """An enabled GPIO interrupt is asserted (INTR & INTE): the bank's IRQ is pending."""
    return any(p.handler is not None and _nibble(g) & p.trigger & 12 for g, p in _irqs.items())


def _gpio_irq(run):
    """One entry of MicroPython's rp2 bank handler: INTR read once per eight GPIOs; for each GPIO
    with bits in that snapshot, its edges acknowledged (written 1: cleared) and, if its trigger
    matches, its handler run with flags = snapshot & trigger. ``run(pin)`` runs a handler (play
    charges its time, and edges landing meanwhile latch as on the chip)."""
    for i in range(4):
        snap = [_nibble(8 * i + j) for j in range(8)]
        for j in range(8):
            gpio = 8 * i + j
            nib = snap[j]
            if nib:
                _intr[gpio >> 2] &= ~((nib & 12) << (4 * (gpio & 3)))
                p = _irqs.get(gpio)
                if p is not None and p.handler is not None and nib & p.trigger:
                    p._irq.f = nib & p.trigger
                    run(p)


def _run_now(p):
    p.handler(p)


class _Irq:
    """What Pin.irq() returns: flags() are the edges that triggered the handler's last run."""

    def __init__(self):
        self.f = 0

    def flags(self):
        return self.f


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.handler = None
        self.trigger = 0
        self.hard = False
        self._irq = _Irq()
        self.writes = 0
        if isinstance(id, int):
            # A pin already driven low by a held button stays low when it is set up again.
            if pull == Pin.PULL_UP and id not in _pins:
                _levels[0] |= 1 << id
            _pins[id] = self
        else:
            _named[id] = 0
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if isinstance(self.id, int):
                return (_levels[0] >> self.id) & 1
            return _named[self.id]
        v = 1 if v else 0
        self.writes += 1
        if isinstance(self.id, int):
            _set(self.id, v)  # an output's edges latch too: the input path sees the pad
        else:
            _named[self.id] = v
        return None

    def irq(self, handler=None, trigger=12, hard=False):
        # One interrupt per GPIO, whichever Pin object set it (Pin(2) twice is the same pin).
        self.handler = handler
        self.trigger = trigger
        self.hard = hard
        if isinstance(self.id, int):
            _irqs[self.id] = self
        return self._irq


def drive(changes):
    """[(gpio, level), ...] change together, then the bank's interrupt is dispatched (at once, or
    when interrupts are enabled again), the handlers taking no time.

    A pin that goes and comes back in one call (``[(2, 0), (2, 1)]``) latches both edges, and its
    handler reads the level it came back to: a contact that reopened before the handler ran.
    """
    for gpio, level in changes:
        _set(gpio, level)
    for w in _watchers:
        w()
    while _irq_state[0] and _pending():
        _gpio_irq(_run_now)


def play(edges, clock, handler_us, entry_us=0, steps=(), step=None, reads=None):
    """Edges [(t_us, gpio, level)] in time order, with the interrupt dispatch of MicroPython's rp2
    port (``_gpio_irq``). A handler takes ``handler_us`` of the fake clock and the interrupt
    ``entry_us`` to enter; edges that land meanwhile change the levels the next handlers read and
    latch in INTR, as on the chip; the interrupt enters again while an enabled edge is latched.
    ``step()`` (the main loop) runs at each of ``steps`` (sorted) when no interrupt is pending.
    ``reads`` ({"intr": us, "level": us, "clock": us}): each read a handler makes takes that
    long, its value taken at its end, inside the handler's ``handler_us`` (the rest of it after
    the reads). Returns the time the last handler finished."""
    # A handler still running from an earlier call (clock past the first edge) delays this one.
    now = max(edges[0][0], clock.t) if edges else clock.t
    i = 0
    si = 0

    def apply_until(t):
        j = i
        while j < len(edges) and edges[j][0] <= t:
            _, gpio, lv = edges[j]
            if _set(gpio, lv):
                for w in _watchers:
                    clock.t = edges[j][0]
                    w()
            j += 1
        return j

    spent = [0]

    def cost(kind):
        nonlocal now, i
        d = reads.get(kind, 0)
        now += d
        spent[0] += d
        i = apply_until(now)
        clock.t = now

    def run(p):
        nonlocal now, i
        clock.t = now
        spent[0] = 0
        _charge[0] = cost if reads else None
        try:
            p.handler(p)
        finally:
            _charge[0] = None
        now += handler_us - spent[0] if handler_us > spent[0] else 0
        i = apply_until(now)

    while True:
        i = apply_until(now)
        if _irq_state[0] and _pending():
            now += entry_us
            i = apply_until(now)
            _gpio_irq(run)
            continue
        nxt = edges[i][0] if i < len(edges) else None
        while si < len(steps) and (nxt is None or steps[si] < nxt):
            if steps[si] > now:
                now = steps[si]
            clock.t = now
            step()
            si += 1
        if nxt is None:
            break
        if nxt > now:
            now = nxt
    clock.t = now
    return now


def level(gpio):
    return (_levels[0] >> gpio) & 1


def levels():
    return _levels[0]


def watch(f):
    _watchers.append(f)


def unwatch(f):
    if f in _watchers:
        _watchers.remove(f)


def disable_irq():
    s = _irq_state[0]
    _irq_state[0] = 0
    return s


def enable_irq(state):
    _irq_state[0] = state
    while state and _pending():
        _gpio_irq(_run_now)


def reset():
    _levels[0] = 0
    _pins.clear()
    _named.clear()
    _irqs.clear()
    _watchers.clear()
    for h in range(len(_intr)):
        _intr[h] = 0
    _irq_state[0] = 1


class _Mem32:
    def __getitem__(self, addr):
        if addr != GPIO_IN:
            raise ValueError("fake mem32 only knows GPIO_IN")
        charge("level")
        return _levels[0]


mem32 = _Mem32()


class _Mem16:
    def __getitem__(self, addr):
        h = (addr - INTR) >> 1
        if not 0 <= h < 8 or addr & 1:
            raise ValueError("fake mem16 only knows IO_BANK0 INTR0-3")
        charge("intr")
        v = _intr[h]
        for j in range(4):
            g = 4 * h + j
            if g < 30:
                v |= (2 if (_levels[0] >> g) & 1 else 1) << (4 * j)
        return v


mem16 = _Mem16()


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"


def idle():
    pass
