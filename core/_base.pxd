# The base of every game's state class: what the shared interface does the same way for
# every game (copies, pickling, can_apply) is written once here, on top of each game's
# clone(), to_bytes() and verify_move().

cdef class GameStateBase:
    pass
