"""The table between inputs and games: the table-log events, the SQLite journal, the one fold of
events into a game engine (shared by replay, resume and the live table), and the live table."""
