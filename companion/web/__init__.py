"""Phones at the table: the companion's own web server (standings, seat pads, scorer entry).

Off by default. Only ``config`` is imported by the rest of the companion without the ``web``
extra; the server itself (Starlette on uvicorn) is imported when ``--web`` or ``[web]`` asks.
"""
