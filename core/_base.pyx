"""GameStateBase: the parts of the shared game interface that no game does differently."""

import os

from libc.stdint cimport uint64_t

from core.errors import IllegalMove


cdef uint64_t fresh_seed(seed) except? 0:
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if type(seed) is not int or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    return seed


cdef class GameStateBase:
    """Subclasses provide clone(), to_bytes(), verify_move(seat, move) and c_state()."""

    cdef void* c_state(self) noexcept:
        return NULL

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

    def observation(self, seat, history=None):
        """What seat may know as a flat float32 NumPy array (docs/rl.md); history, the
        game's log as the seat saw it, adds what the seat remembers (core.rl)."""
        return _observer(self).observation(self, seat, history)

    def action_mask(self, seat):
        """A uint8 NumPy array over the game's fixed action ids: 1 where seat may act."""
        return _observer(self).action_mask(self, seat)

    def __reduce__(self):
        from core import from_bytes  # core imports the games, which import this module
        return (from_bytes, (self.to_bytes(),))


def _observer(state):
    """The module writing state's observations (core/obs_*.pyx; needs NumPy, extra `rl`)."""
    from core.rl import observer   # core.rl imports the games, which import this module
    return observer(state.game)
