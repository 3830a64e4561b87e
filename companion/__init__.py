"""Table companion: slap timing and scores for French card games played with real cards."""

__version__ = "0.1.0"
