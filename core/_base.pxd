from libc.stdint cimport uint64_t

# The base of every game's state class: what the shared interface does the same way for
# every game (copies, pickling, can_apply) is written once here, on top of each game's
# clone(), to_bytes() and verify_move().

cdef class GameStateBase:
    # The game's flat C state inside this object (its vtable's state_size bytes, see
    # core/vtable.pxd): what the vector copies a game in and out through.
    cdef void* c_state(self) noexcept


# A seed for a game's PRNG: the caller's (0 to 2**64 - 1, else ValueError), or, for None,
# one from the operating system's randomness.
cdef uint64_t fresh_seed(seed) except? 0
