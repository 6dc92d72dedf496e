from libc.stdint cimport uint64_t

# The base of every game's state class: what the shared interface does the same way for
# every game (copies, pickling, can_apply) is written once here, on top of each game's
# clone(), to_bytes() and verify_move().

cdef class GameStateBase:
    pass


# A seed for a game's PRNG: the caller's (0 to 2**64 - 1, else ValueError), or, for None,
# one from the operating system's randomness.
cdef uint64_t fresh_seed(seed) except? 0
