# The game vtable the search of core/ismcts.pyx is written against, once for every game.
#
# A game plugs in by filling one GameVTable with `noexcept nogil` functions over its flat
# C state (see core/ai_cupcrab.pyx) and handing it out in a PyCapsule named
# VTABLE_CAPSULE.  The search never looks inside a state: it copies states of
# `state_size` bytes with memcpy and calls the functions below.  This file declares types
# only, so cimporting it loads no module at run time.

from libc.stdint cimport uint16_t
from core.rng cimport Rng

# The seat whose decision comes next in the search's sequential order (a simultaneous
# phase is taken seat by seat), or -1 once the game is over.  `observer` is the
# searching seat: a game may order a simultaneous phase so hidden moves come first.
ctypedef int (*vt_actor_fn)(const void* s, int observer) noexcept nogil
# True when `observer` cannot see what `actor` does next (e.g. a secret selection): the
# search then draws that move uniformly at random and adds no tree edge for it.
ctypedef bint (*vt_hidden_fn)(const void* s, int actor, int observer) noexcept nogil
# Legal action ids of `seat` (0 <= id < n_actions), at most max_legal of them.
ctypedef int (*vt_legal_fn)(const void* s, int seat, uint16_t* out) noexcept nogil
ctypedef void (*vt_apply_fn)(void* s, int seat, int action) noexcept nogil
# A complete state consistent with what `observer` knows, hidden cards re-dealt with rng;
# `info` is the game's extra knowledge of the observer that the state does not hold
# (`info_size` bytes, or NULL for none).  It must read nothing else that is hidden.
ctypedef void (*vt_determinize_fn)(const void* s, int observer, const void* info,
                                   Rng* rng, void* out) noexcept nogil
# Uniformly random moves to the end of the game.
ctypedef void (*vt_playout_fn)(void* s, Rng* rng) noexcept nogil
# The reward of every seat of a finished game into out[0..players-1] (1 a win, a shared
# win split, 0 otherwise, or any score in [0, 1]).
ctypedef void (*vt_rewards_fn)(const void* s, double* out) noexcept nogil
ctypedef int (*vt_players_fn)(const void* s) noexcept nogil


ctypedef struct GameVTable:
    const char* name
    int state_size        # bytes of one state (cloned by memcpy)
    int info_size         # bytes of the observer's extra knowledge given to determinize
    int n_actions         # action ids are 0 .. n_actions - 1
    int max_legal         # no state has more legal actions
    int max_players
    int max_depth         # no game lasts more moves than this (tree paths)
    vt_players_fn players
    vt_actor_fn actor
    vt_hidden_fn hidden
    vt_legal_fn legal_actions
    vt_apply_fn apply_action
    vt_determinize_fn determinize
    vt_playout_fn playout
    vt_rewards_fn rewards


cdef enum:
    VT_MAX_PLAYERS = 8    # the search keeps per-seat rewards in arrays this long
