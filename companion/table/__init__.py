"""The table between inputs and games: the table-log events, the SQLite journal, the one fold of
events into a game engine (shared by replay, resume and the live table), and the live table."""

# What a spreadsheet reads as a formula at the start of a cell (OWASP's CSV injection list). Here,
# not in table/log.py: ``export --csv`` defuses cells with it and must not import pydantic for it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
