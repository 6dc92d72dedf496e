"""Exceptions shared by every game of the core."""


class IllegalMove(ValueError):
    """A move that the rules do not allow now, or that is not a well-formed move.

    The message says what was wrong and what is allowed; the state is unchanged.
    """


class InvalidState(ValueError):
    """A stored blob or a snapshot that does not describe a reachable position."""
