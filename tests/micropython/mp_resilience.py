# Two suspected points of issue 20 under MicroPython's unix port, run by
# tests/firmware/test_firmware_resilience.py:
# - "crash": an exception in the board's main loop must not leave the board at the REPL for good
#   (main.py resets the board; Ctrl-C still gives the REPL);
# - "irq_alloc": the interrupt path's poll() must not allocate while interrupts are masked.
# usage: micropython mp_resilience.py FIRMWARE_DIR crash|ctrl_c|irq_alloc
# Prints one JSON object: {"test", "ok", "error", "data"}.
import sys

sys.path.insert(0, sys.argv[1])

import json

import machine
import micropython

what = sys.argv[2]
out = {"test": what, "ok": False, "error": "", "data": None}


def crash(exc):
    import buttonboard
    import pinmap

    class _Micropython:  # the unix port lacks the board's emergency exception buffer
        const = micropython.const
        alloc_emergency_exception_buf = staticmethod(lambda n: None)

    sys.modules["micropython"] = _Micropython
    import time

    import rp2
    from fakeclock import FakeClock

    rp2.reset()
    rp2.use_clock(FakeClock(time.ticks_us()))
    machine.reset()
    machine.drive([(pinmap.SAFE_MODE_PIN, 1)])  # not held: no safe mode
    resets = []
    machine.reset = lambda: resets.append(1)  # on a board this reboots and never returns

    def run(self):
        self.led_on = 1  # a verdict was showing
        self._update_leds(self.clock.now())
        raise exc

    buttonboard.Board.run = run
    try:
        import main  # noqa: F401  (runs the board, as at power-up)
    except KeyboardInterrupt:
        return {"resets": len(resets), "reached_repl": True}
    return {"resets": len(resets), "reached_repl": False, "led0": machine.level(pinmap.LED_PINS[0])}


def irq_alloc():
    import irqcapture
    from fakeclock import FakeClock
    from ticks64 import Ticks64

    machine.reset()
    clock = FakeClock(1000)
    pins = [machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP) for g in (2, 3)]
    cap = irqcapture.IrqCapture(pins, [1, 1], clock.ticks_us, [2, 3], machine.mem32)
    t64 = Ticks64(clock.ticks_us)
    # Any allocation while the interrupts are masked raises MemoryError here.
    real_disable, real_enable = machine.disable_irq, machine.enable_irq

    locked = [0]

    def disable():
        s = real_disable()
        micropython.heap_lock()
        locked[0] += 1
        return s

    def enable(s):
        micropython.heap_unlock()
        locked[0] -= 1
        real_enable(s)

    irqcapture.machine.disable_irq = disable
    irqcapture.machine.enable_irq = enable
    clock.advance(100)
    machine.drive([(2, 0)])  # a press: its handler latches a read in the bank poll will take
    got = []
    try:
        cap.poll(t64, lambda t, k, a: got.append((t, k, a)))
    finally:
        # Only a MemoryError leaves it locked (heap_unlock past zero would lock it for good).
        while locked[0]:
            micropython.heap_unlock()
            locked[0] -= 1
        irqcapture.machine.disable_irq, irqcapture.machine.enable_irq = real_disable, real_enable
    return {"edges": got}


try:
    if what == "crash":
        out["data"] = crash(ValueError("a bug in the loop"))
    elif what == "ctrl_c":
        out["data"] = crash(KeyboardInterrupt())
    else:
        out["data"] = irq_alloc()
    out["ok"] = True
except Exception as e:
    out["error"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
