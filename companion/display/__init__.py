"""The table screen (pygame-ce): one main loop, screens drawn from a read-only view of the game."""
