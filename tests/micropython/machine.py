"""Hand-written stand-in for MicroPython's ``machine`` on the unix port, for the firmware tests.

Put this directory first on MicroPython's path. Pins keep a level; ``drive`` changes levels the
way a button does and then calls the IRQ handlers whose trigger matches, as the hardware would.
``mem32[GPIO_IN]`` reads every level at once, like the RP2040's SIO register.
"""

import array

GPIO_IN = 0xD0000004

_levels = array.array("i", [0])  # bit n: level of GPn
_pins = {}
_named = {}
_irqs = {}  # gpio -> the Pin object whose irq() was set last
_watchers = []  # called after every drive, as a PIO state machine sees the pins
_irq_state = [1]
_deferred = []  # handlers whose edge came while interrupts were disabled: they run on enable


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
            if v:
                _levels[0] |= 1 << self.id
            else:
                _levels[0] &= ~(1 << self.id)
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


def drive(changes):
    """[(gpio, level), ...] change together, then each changed pin's IRQ fires in pin order.

    A pin that goes and comes back in one call (``[(2, 0), (2, 1)]``) raises its IRQ once, and
    its handler reads the level it came back to: a contact that reopened before the handler ran.
    """
    fired = []
    for gpio, level in changes:
        old = (_levels[0] >> gpio) & 1
        if old == level:
            continue
        if level:
            _levels[0] |= 1 << gpio
        else:
            _levels[0] &= ~(1 << gpio)
        p = _irqs.get(gpio)
        want = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
        if p is not None and p.handler is not None and p.trigger & want and p not in fired:
            fired.append(p)
    for w in _watchers:
        w()
    for p in fired:
        if _irq_state[0]:
            p.handler(p)
        elif p not in _deferred:
            _deferred.append(p)


def play(edges, clock, handler_us, entry_us=0, steps=(), step=None):
    """Edges [(t_us, gpio, level)] in time order, with the interrupt dispatch of MicroPython's rp2
    port (machine_pin.c, gpio_irq): one interrupt for the bank, whose handler walks the GPIOs in
    number order and, for each with a latched edge, acknowledges it and runs its Python handler.
    A handler takes ``handler_us`` of the fake clock and the interrupt ``entry_us`` to enter;
    edges that land meanwhile change the levels the next handlers read and latch their own
    interrupts, as on the chip. ``step()`` (the main loop) runs at each of ``steps`` (sorted)
    when no handler is running or pending. Returns the time the last handler finished."""
    pending = []
    # A handler still running from an earlier call (clock past the first edge) delays this one.
    now = max(edges[0][0], clock.t) if edges else clock.t
    i = 0
    si = 0

    def apply_until(t):
        j = i
        while j < len(edges) and edges[j][0] <= t:
            _, gpio, lv = edges[j]
            old = (_levels[0] >> gpio) & 1
            if old != lv:
                if lv:
                    _levels[0] |= 1 << gpio
                else:
                    _levels[0] &= ~(1 << gpio)
                p = _irqs.get(gpio)
                want = Pin.IRQ_RISING if lv else Pin.IRQ_FALLING
                if p is not None and p.handler is not None and p.trigger & want and gpio not in pending:
                    pending.append(gpio)
                for w in _watchers:
                    clock.t = edges[j][0]
                    w()
            j += 1
        return j

    while True:
        i = apply_until(now)
        if pending:
            now += entry_us
            i = apply_until(now)
            g = 0
            while g < 30:
                if g in pending:
                    pending.remove(g)
                    clock.t = now
                    p = _irqs[g]
                    p.handler(p)
                    now += handler_us
                    i = apply_until(now)
                g += 1
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
    while state and _deferred:
        p = _deferred.pop(0)
        p.handler(p)


def reset():
    _levels[0] = 0
    _pins.clear()
    _named.clear()
    _irqs.clear()
    _watchers.clear()
    _deferred.clear()
    _irq_state[0] = 1


class _Mem32:
    def __getitem__(self, addr):
        if addr != GPIO_IN:
            raise ValueError("fake mem32 only knows GPIO_IN")
        return _levels[0]


mem32 = _Mem32()


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"


def idle():
    pass
