# Crabe vs Poulpe as seen by one seat, for learning code: the documented interface of
# core/games/cvp/observation.pyx (layout in docs/rl.md).
#
# An observation is a flat float32 vector of what a seat may know (ruling P8) plus the
# cards its history showed it (CvpMemory, the per-kind form of core.games.cvp.search's knowledge).

from libc.stdint cimport uint8_t
from core.games.cvp.rules cimport CvpState, CVP_KINDS


# What one observer O remembers of the cards it saw, per kind (docs/ai.md, "What a seat
# knows"): copies it knows are in the face-down discard, copies certainly in the
# opponent X's hand, copies that were in X's hand before one of X's face-down discards
# (still there, or discarded), and X's discards of a card O cannot place.
ctypedef struct CvpMemory:
    uint8_t known_discard[CVP_KINDS]
    uint8_t opponent_known[CVP_KINDS]
    uint8_t opponent_maybe[CVP_KINDS]
    uint8_t hidden_discards


cdef enum:
    CVP_OBSERVATION_SIZE = 10 + 1 + 1 + 2 + 3 + 2 + 2 + 1 + 3 * CVP_KINDS + CVP_KINDS \
        + 2 + 2 + 1 + CVP_KINDS + 2 * CVP_KINDS + 1 + 4 * CVP_KINDS + 1


cdef void cvpm_reset(CvpMemory* m) noexcept nogil
# Called before s applies seat's action: both observers' memories (m[0], m[1]) learn what
# the action shows each of them, and nothing else.
cdef void cvpm_record(CvpMemory* m, const CvpState* s, int seat, int action) noexcept nogil
# Writes seat's observation (CVP_OBSERVATION_SIZE floats, each in [0, 1]); m is seat's own
# memory, NULL for a seat that remembers nothing.
cdef void cvp_write_observation(const CvpState* s, const CvpMemory* m, int seat,
                                float* out) noexcept nogil
