"""The seam a game implements, as the games name it: defined by the table (``table/seam.py``),
which stands below the games."""

from companion.table.seam import Game, GameEngine, Outcome, points_outcome

__all__ = ["Game", "GameEngine", "Outcome", "points_outcome"]
