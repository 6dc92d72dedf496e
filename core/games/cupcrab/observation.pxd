# Cup the Crab as seen by one seat, for learning code: the documented interface of
# core/games/cupcrab/observation.pyx (layout in docs/rl.md).
#
# An observation is a flat float32 vector of what a seat may know (ruling C8) plus what
# the game's public history proved (CCMemory): nothing is read from the state that the
# seat could not work out itself, except public sums of hidden counts (cards left, Cups
# left, hand sizes), which are public by C8.

from libc.stdint cimport uint8_t, uint16_t
from core.games.cupcrab.rules cimport CCState


# What the public history proved beyond the view: per seat, the kinds its hand may still
# hold this round (a discard proves the rest of the hand had no target, ruling C2).  The
# same for every observer, since discards and the table are public.
ctypedef struct CCMemory:
    uint8_t round                       # the round hand_allow is about (255: none yet)
    uint16_t hand_allow[5]              # CC_MAX_PLAYERS kind bitmasks


cdef int cc_observation_size(int players) noexcept nogil
cdef void ccm_reset(CCMemory* m) noexcept nogil
# Called before s applies seat's action: remembers what the action proves.
cdef void ccm_record(CCMemory* m, const CCState* s, int seat, int action) noexcept nogil
# Writes seat's observation (cc_observation_size(s.players) floats, each in [0, 1]).
cdef void cc_write_observation(const CCState* s, const CCMemory* m, int seat,
                               float* out) noexcept nogil
# The seat to decide next: the play phase's current seat, or, in the selection, the
# lowest seat that has not selected (a simultaneous choice made one seat at a time); -1
# once over.
cdef int cc_next_decider(const CCState* s) noexcept nogil
