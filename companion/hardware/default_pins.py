"""The suggested pin map on the Pi's 40-pin header (BCM numbers),
generated from hardware/pinout.toml by `python -m companion.hardware render`."""

# (button, LED or None) per seat, seat 1 first.
SEATS: tuple[tuple[int, int | None], ...] = (
    (17, 5),
    (27, 6),
    (22, 13),
    (23, 19),
    (4, 26),
    (18, 16),
    (20, None),
    (21, None),
    (10, None),
    (9, None),
)
REFEREE: dict[str, int] = {"confirm": 24, "cancel": 25, "undo": 12}
# Buses whose pins the map uses: they must stay off in /boot/firmware/config.txt.
GIVES_UP: tuple[str, ...] = ('spi',)
LED_RESISTOR_OHM = 330
