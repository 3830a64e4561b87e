# The board's wiring, generated from hardware/pinout.toml by `python -m companion.hardware render`:
# edit pinout.toml, not this file. hardware/pico-pinmap.md shows the same numbers.
# GPIO numbers (GPn), not physical pins.
# Every button is wired between its pin and GND (the pin's pull-up makes "pressed" read 0).
# A seat or referee button that is not wired simply never reads pressed.

# The PIO capture (piocapture.py) reads the seat and referee pins with one 13-pin `in`, from the
# lowest of them: keep them within 13 consecutive GPIOs (here GP2..GP14), or the board
# falls back to the interrupt path (hello and `companion firmware info` say which one runs).

# Seats 0..9, in the order the companion numbers them.
SEAT_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)

# Referee buttons: confirm, cancel, undo. None for a button the board does not have.
REFEREE_PINS = (12, 13, 14)

# One LED per seat, same order as SEAT_PINS (through a resistor to GND). None: no LED.
LED_PINS = (15, 16, 17, 18, 19, 20, 21, 22, 26, 27)

# The Pico's own LED blinks with the heartbeat ("LED" works on Pico, Pico W and Pico 2).
STATUS_LED = "LED"

# Held while the board powers up, this button keeps the firmware from starting, so that the
# REPL stays free (e.g. for mpremote) even if a bad main.py were installed. The cancel button.
SAFE_MODE_PIN = 13
