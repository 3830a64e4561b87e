"""Who may do what over the network: a join code for viewers, a token per seat and one for the
scorer, all drawn afresh for each game, each revocable from the table.

Tokens are 128 random bits (``secrets``), compared in constant time. Nothing here does I/O.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass, field
from typing import Literal

TOKEN_BYTES = 16  # 128 bits

Role = Literal["seat", "scorer", "viewer"]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True, slots=True)
class Grant:
    """What a presented token allows: a seat's pad, the scorer's entry, or the standings."""

    game_id: str
    role: Role
    seat: int = -1


@dataclass
class GamePairing:
    """The tokens of one game. ``last_press`` keeps each seat's highest press number, so a press
    replayed on a new connection of the same phone is refused as on the old one."""

    game_id: str
    seats: list[str]
    scorer: str
    join: str
    last_press: dict[int, int] = field(default_factory=dict)
    revoked: set[str] = field(default_factory=set)


class Pairings:
    """The tokens of every game seen since the server started (the current one is shown)."""

    def __init__(self) -> None:
        self._games: dict[str, GamePairing] = {}
        self._lock = threading.Lock()  # the table's thread revokes, the server's thread reads

    def for_game(self, game_id: str, n_seats: int) -> GamePairing:
        with self._lock:
            g = self._games.get(game_id)
            if g is None:
                g = GamePairing(game_id, [new_token() for _ in range(n_seats)], new_token(), new_token())
                self._games[game_id] = g
            return g

    def get(self, game_id: str) -> GamePairing | None:
        return self._games.get(game_id)

    def revoke_seat(self, game_id: str, seat: int) -> str:
        """A new token for ``seat``; the phone holding the old one is cut off. Returns the new."""
        with self._lock:
            g = self._games[game_id]
            g.revoked.add(g.seats[seat])
            g.seats[seat] = new_token()
            return g.seats[seat]

    def revoke_scorer(self, game_id: str) -> str:
        with self._lock:
            g = self._games[game_id]
            g.revoked.add(g.scorer)
            g.scorer = new_token()
            return g.scorer

    def grant(self, token: str, game_id: str | None) -> Grant | None:
        """What ``token`` allows in the game being played (``game_id``); None for anything else:
        an unknown token, a revoked one, or one of another game."""
        if game_id is None or not isinstance(token, str) or len(token) > 64:
            return None
        g = self._games.get(game_id)
        if g is None:
            return None
        found: Grant | None = None
        # Every comparison is made, in constant time, so timing tells nothing of a near miss.
        for seat, tok in enumerate(g.seats):
            if hmac.compare_digest(tok, token):
                found = Grant(game_id, "seat", seat)
        if hmac.compare_digest(g.scorer, token):
            found = Grant(game_id, "scorer")
        if hmac.compare_digest(g.join, token):
            found = Grant(game_id, "viewer")
        return found

    def still_valid(self, grant: Grant, token: str) -> bool:
        """Whether a connection opened with ``token`` may go on (not revoked since)."""
        g = self._games.get(grant.game_id)
        if g is None or token in g.revoked:
            return False
        if grant.role == "seat":
            return hmac.compare_digest(g.seats[grant.seat], token)
        if grant.role == "scorer":
            return hmac.compare_digest(g.scorer, token)
        return hmac.compare_digest(g.join, token)
