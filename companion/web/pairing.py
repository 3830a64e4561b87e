"""Who may do what over the network: a join code for viewers, a token per seat and one for the
scorer, all drawn afresh for each game, each revocable from the table.

Tokens are 128 random bits (``secrets``), compared in constant time. The current game's are
kept in the data folder beside its journal (``CODES``, readable by the table's user only), so a
restart of the same game (the kiosk restarts itself after a crash) keeps every phone paired;
a new game's replace them, which revokes the last game's.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from companion.errors import CompanionError
from companion.paths import ensure_dir

TOKEN_BYTES = 16  # 128 bits
CODES = "web-codes.json"  # in the data folder: the current game's codes

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
    """The tokens of one game, and those revoked from it (a lost phone's)."""

    game_id: str
    seats: list[str]
    scorer: str
    join: str
    revoked: set[str] = field(default_factory=set)

    def as_json(self) -> str:
        return json.dumps(
            {
                "game_id": self.game_id,
                "seats": self.seats,
                "scorer": self.scorer,
                "join": self.join,
                "revoked": sorted(self.revoked),
            }
        )


def _read(path: Path, game_id: str, n_seats: int | None) -> GamePairing | None:
    """The kept codes if they are ``game_id``'s (and of ``n_seats`` seats when said); None for
    anything else, a file unreadable or of another shape included (new codes are drawn)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seats = data["seats"]
        if data["game_id"] != game_id or (n_seats is not None and len(seats) != n_seats):
            return None
        tokens = [*seats, data["scorer"], data["join"], *data["revoked"]]
        if not all(isinstance(tok, str) and 16 <= len(tok) <= 64 for tok in tokens):
            return None
        return GamePairing(game_id, list(seats), data["scorer"], data["join"], set(data["revoked"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class Pairings:
    """The tokens of every game seen since the server started (the current one is shown), and,
    with ``folder``, the current game's kept there across restarts."""

    def __init__(self, folder: Path | None = None) -> None:
        self._games: dict[str, GamePairing] = {}
        self._lock = threading.Lock()  # the table's thread revokes, the server's thread reads
        self._path = None if folder is None else folder / CODES

    def _kept(self, game_id: str, n_seats: int | None) -> GamePairing | None:
        """In memory, or kept by the last run of this game (under the lock)."""
        g = self._games.get(game_id)
        if g is None and self._path is not None:
            g = _read(self._path, game_id, n_seats)
            if g is not None:
                self._games[game_id] = g
        return g

    def _keep(self, g: GamePairing) -> None:
        """Written whole and renamed into place (a crash leaves the old file or the new), for
        the table's user only: the codes are what opens a seat."""
        if self._path is None:
            return
        tmp = self._path.with_suffix(".tmp")
        try:
            ensure_dir(self._path.parent)  # the data folder, made as every folder is (paths.py)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(g.as_json())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self._path)
        except (OSError, CompanionError):
            # A full or read-only card: the phones work, a restart asks them to pair again.
            with contextlib.suppress(OSError):
                tmp.unlink()

    def for_game(self, game_id: str, n_seats: int) -> GamePairing:
        with self._lock:
            g = self._kept(game_id, n_seats)
            if g is None:
                g = GamePairing(game_id, [new_token() for _ in range(n_seats)], new_token(), new_token())
                self._games[game_id] = g
                self._keep(g)
            return g

    def get(self, game_id: str) -> GamePairing | None:
        with self._lock:
            return self._kept(game_id, None)

    def revoke_seat(self, game_id: str, seat: int) -> str:
        """A new token for ``seat``; the phone holding the old one is cut off. Returns the new."""
        with self._lock:
            g = self._games[game_id]
            g.revoked.add(g.seats[seat])
            g.seats[seat] = new_token()
            self._keep(g)
            return g.seats[seat]

    def revoke_scorer(self, game_id: str) -> str:
        with self._lock:
            g = self._games[game_id]
            g.revoked.add(g.scorer)
            g.scorer = new_token()
            self._keep(g)
            return g.scorer

    def grant(self, token: str, game_id: str | None) -> Grant | None:
        """What ``token`` allows in the game being played (``game_id``); None for anything else:
        an unknown token, a revoked one, or one of another game."""
        if game_id is None or not isinstance(token, str) or len(token) > 64:
            return None
        g = self.get(game_id)  # a phone may come back before the feed has read the journal
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
