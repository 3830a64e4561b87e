"""Runs the button board at power-up. Ctrl-C (as mpremote sends) stops it and gives the REPL;
any other exception resets the board, which the host sees as a reboot (a new clock epoch)."""

import os
import sys
import time

import machine
import micropython

import pinmap
from buttonboard import Board
from piocapture import PioCapture
from stdio import StdIO

micropython.alloc_emergency_exception_buf(100)


def _pause():
    # Not machine.idle(): it sleeps until the next interrupt, which may be long after a 2 ms
    # debounce deadline when no button moves and USB is quiet.
    time.sleep_us(250)


def main():
    safe = machine.Pin(pinmap.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    if safe.value() == 0:
        print("table companion board: safe mode (cancel held at power-up), REPL left free")
        return
    board = Board(
        machine.Pin,
        machine.mem32,
        time.ticks_us,
        StdIO(),
        machine.unique_id(),
        int.from_bytes(os.urandom(4), "little"),
        pinmap.SEAT_PINS,
        pinmap.REFEREE_PINS,
        pinmap.LED_PINS,
        machine=sys.implementation._machine,
        status_led=pinmap.STATUS_LED,
        idle=_pause,
        pio=PioCapture,  # the interrupt path if state machine 0 or a DMA channel is taken
    )
    try:
        board.run()
    except KeyboardInterrupt:
        raise  # Ctrl-C (mpremote, Thonny): the REPL, as the docstring says
    except Exception as e:  # a bug: not the REPL for good, a fresh board (a new boot_id)
        sys.print_exception(e)
        board.close()
        machine.reset()
    finally:
        board.close()


main()
