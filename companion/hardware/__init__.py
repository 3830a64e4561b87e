"""The hardware around the table that is not an input source: the config file (pins, serial
port, LEDs) and the seat LEDs."""
