"""GameStateBase: the parts of the shared game interface that no game does differently."""

from core.errors import IllegalMove


cdef class GameStateBase:
    """Subclasses provide clone(), to_bytes() and verify_move(seat, move)."""

    def can_apply(self, seat, move) -> bool:
        """Whether seat may make move now (verify_move says why not)."""
        try:
            self.verify_move(seat, move)
        except IllegalMove:
            return False
        return True

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        from core import from_bytes  # core imports the games, which import this module
        return (from_bytes, (self.to_bytes(),))
