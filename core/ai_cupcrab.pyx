"""Cup the Crab's game vtable for the search of core/ismcts.pyx.

Each function adapts one C function of core/cupcrab.pyx to the vtable's `void*`
signatures.  The simultaneous selection is searched seat by seat: the other seats'
pending selections come first and are hidden from the observer (the search draws them
at random and adds no tree edge), then the observer's own selection; the play phase
follows the table's turn order.
"""

from libc.stdint cimport uint16_t
from cpython.pycapsule cimport PyCapsule_New

from core.rng cimport Rng
from core.cupcrab cimport (CCState, CC_CUP_KINDS, CC_KINDS, CC_MAX_LEGAL, CC_MAX_PLAYERS,
                           CC_N_ACTIONS, CC_CARDS_PER_SEAT, PHASE_OVER, PHASE_PLAY,
                           PHASE_SELECT, cc_apply_action, cc_determinize_within,
                           cc_legal_actions, cc_random_playout, cc_state_of)
from core.ismcts cimport GameVTable

import struct

NAME = "cup-the-crab"
INFO_SIZE = 2 * CC_MAX_PLAYERS          # a uint16 kind mask per seat (see hand_allow)
ALL_KINDS = (1 << CC_KINDS) - 1


cdef int _players(const void* s) noexcept nogil:
    return (<const CCState*>s).players


cdef int _actor(const void* s, int observer) noexcept nogil:
    cdef const CCState* st = <const CCState*>s
    cdef int seat
    if st.phase == PHASE_OVER:
        return -1
    if st.phase == PHASE_PLAY:
        return st.current
    for seat in range(st.players):
        if seat != observer and not st.seats[seat].selected:
            return seat
    return observer


cdef bint _hidden(const void* s, int actor, int observer) noexcept nogil:
    return (<const CCState*>s).phase == PHASE_SELECT and actor != observer


cdef int _legal(const void* s, int seat, uint16_t* out) noexcept nogil:
    return cc_legal_actions(<const CCState*>s, seat, out)


cdef void _apply(void* s, int seat, int action) noexcept nogil:
    cc_apply_action(<CCState*>s, seat, action)


cdef void _determinize(const void* s, int observer, const void* info, Rng* rng,
                       void* out) noexcept nogil:
    cc_determinize_within(<const CCState*>s, observer, <const uint16_t*>info, rng,
                          <CCState*>out)


cdef void _playout(void* s, Rng* rng) noexcept nogil:
    cc_random_playout(<CCState*>s, rng)


cdef void _rewards(const void* s, double* out) noexcept nogil:
    """1 for the winner, a shared victory split, 0 otherwise (ruling C9)."""
    cdef const CCState* st = <const CCState*>s
    cdef int keys[CC_MAX_PLAYERS]
    cdef int seat, kind, best = -1, winners = 0
    for seat in range(st.players):
        keys[seat] = st.seats[seat].score * 128
        for kind in range(CC_CUP_KINDS):
            keys[seat] += st.seats[seat].score_pile[kind]
        if keys[seat] > best:
            best = keys[seat]
    for seat in range(st.players):
        winners += keys[seat] == best
    for seat in range(st.players):
        out[seat] = 1.0 / winners if keys[seat] == best else 0.0


cdef GameVTable VTABLE
VTABLE.name = b"cup-the-crab"
VTABLE.state_size = sizeof(CCState)
VTABLE.info_size = INFO_SIZE
VTABLE.n_actions = CC_N_ACTIONS
VTABLE.max_legal = CC_MAX_LEGAL
VTABLE.max_players = CC_MAX_PLAYERS
VTABLE.max_depth = 7 * CC_MAX_PLAYERS + CC_CARDS_PER_SEAT * CC_MAX_PLAYERS
VTABLE.players = _players
VTABLE.actor = _actor
VTABLE.hidden = _hidden
VTABLE.legal_actions = _legal
VTABLE.apply_action = _apply
VTABLE.determinize = _determinize
VTABLE.playout = _playout
VTABLE.rewards = _rewards


def vtable() -> object:
    """The vtable as a PyCapsule for core.ismcts.search."""
    return PyCapsule_New(&VTABLE, b"core.ismcts.GameVTable", NULL)


def raw_state(state) -> bytes:
    """The complete C state of a CupCrabState, for core.ismcts.search only.

    It holds hidden cards: the search hands it to the determinizer alone.
    """
    cdef CCState* s = cc_state_of(state)
    return (<char*>s)[:sizeof(CCState)]


def info(hand_allow=None):
    """The observer's knowledge beyond its view, as the bytes the determinizer reads.

    hand_allow: a card-kind bitmask per seat that seat's hidden hand is known to keep
    to (None: nothing beyond the view, which returns None).
    """
    if hand_allow is None:
        return None
    masks = list(hand_allow) + [ALL_KINDS] * (CC_MAX_PLAYERS - len(hand_allow))
    return struct.pack(f"={CC_MAX_PLAYERS}H", *masks)
