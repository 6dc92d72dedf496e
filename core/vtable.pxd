# A game described to C once: the table of functions that the search (core/ismcts.pyx)
# and the batched vector (core/vector.pyx) are both written against.
#
# A game fills one GameVTable with `noexcept nogil` functions over its flat C state (see
# core/games/cupcrab/search.pyx) and hands it out in a PyCapsule named VTABLE_CAPSULE,
# through core.registry.vtable(name).  Neither reader looks inside a state: they copy
# states of `state_size` bytes with memcpy and call the functions below.  This file
# declares types only, so cimporting it loads no module at run time.

from libc.stdint cimport uint16_t
from core.rng cimport Rng

# -- what both readers call -----------------------------------------------------------

# Legal action ids of `seat` (0 <= id < n_actions), at most max_legal of them, in
# increasing order.
ctypedef int (*vt_legal_fn)(const void* s, int seat, uint16_t* out) noexcept nogil
ctypedef void (*vt_apply_fn)(void* s, int seat, int action) noexcept nogil
# The reward of every seat of a finished game into out[0..players-1] (1 a win, 1/k each
# for a victory shared by k, 0 otherwise, or any score in [0, 1]).
ctypedef void (*vt_rewards_fn)(const void* s, double* out) noexcept nogil

# -- the search -----------------------------------------------------------------------

ctypedef int (*vt_players_fn)(const void* s) noexcept nogil
# The seat whose decision comes next in the search's sequential order (a simultaneous
# phase is taken seat by seat), or -1 once the game is over.  `observer` is the
# searching seat: a game may order a simultaneous phase so hidden moves come first.
ctypedef int (*vt_actor_fn)(const void* s, int observer) noexcept nogil
# True when `observer` cannot see what `actor` does next (e.g. a secret selection): the
# search then draws that move uniformly at random and adds no tree edge for it.
ctypedef bint (*vt_hidden_fn)(const void* s, int actor, int observer) noexcept nogil
# One of `seat`'s legal actions drawn uniformly, exactly as legal_actions into a buffer
# and then buffer[rng_below(rng, n)] would draw it, draw for draw (so play does not depend
# on which of the two a reader uses), or -1 if there is none: the search's hidden moves,
# which a game may draw without listing them all.
ctypedef int (*vt_random_legal_fn)(const void* s, int seat, Rng* rng) noexcept nogil
# A complete state consistent with what `observer` knows, hidden cards re-dealt with rng;
# `info` is the game's extra knowledge of the observer that the state does not hold
# (`info_size` bytes, or NULL for none).  It must read nothing else that is hidden.
ctypedef void (*vt_determinize_fn)(const void* s, int observer, const void* info,
                                   Rng* rng, void* out) noexcept nogil
# Moves to the end of the game: uniformly random (`playout`), or by the game's cheap rules
# of thumb (`policy_playout`, which may be the random one where the game has none);
# returns the number of moves played (the search's measure of its work: max_moves).
ctypedef int (*vt_playout_fn)(void* s, Rng* rng) noexcept nogil

# -- the batched vector (learning code) -----------------------------------------------

# A new game into s, set up as `like` (a state of the same game: its players and its
# creation options, e.g. a deck), whose first seat is `first_player`, or drawn with rng
# when it is -1.
ctypedef void (*vt_deal_fn)(void* s, const void* like, int first_player,
                            Rng* rng) noexcept nogil
# The one seat deciding now: in a simultaneous phase the lowest seat that has not
# decided (so the choices become consecutive and see nothing of each other); -1 once
# the game is over.
ctypedef int (*vt_decider_fn)(const void* s) noexcept nogil
# The length of an observation for this many seats.
ctypedef int (*vt_observation_size_fn)(int players) noexcept nogil
# The observers' memory of a game's public history (memory_size bytes): emptied for a
# new game, told each action before it is applied, read by observe.
ctypedef void (*vt_forget_fn)(void* m) noexcept nogil
ctypedef void (*vt_record_fn)(void* m, const void* s, int seat, int action) noexcept nogil
# Writes what `seat` may know (observation_size(players) floats, each in [0, 1]).
ctypedef void (*vt_observe_fn)(const void* s, const void* m, int seat,
                               float* out) noexcept nogil


ctypedef struct GameVTable:
    const char* name
    int state_size        # bytes of one state (cloned by memcpy)
    int info_size         # bytes of the observer's extra knowledge given to determinize
    int memory_size       # bytes of the observers' memory of one game (the vector's)
    int n_actions         # action ids are 0 .. n_actions - 1
    int max_legal         # no state has more legal actions
    int max_players
    int max_depth         # no game lasts more moves than this (tree paths)
    vt_legal_fn legal_actions
    vt_apply_fn apply_action
    vt_rewards_fn rewards
    vt_players_fn players
    vt_actor_fn actor
    vt_hidden_fn hidden
    vt_random_legal_fn random_legal
    vt_determinize_fn determinize
    vt_playout_fn playout
    vt_playout_fn policy_playout
    # Rewards in [0, 1] that keep the order of the table, not only who won (see
    # core/games/cupcrab/search.pyx); with two players the same as `rewards`.
    vt_rewards_fn rank_rewards
    # The share of the other seats this seat finished above, alone (no bonus for first
    # place); with two players the same as `rewards`.
    vt_rewards_fn place_rewards
    vt_deal_fn deal
    vt_decider_fn decider
    vt_observation_size_fn observation_size
    vt_forget_fn forget
    vt_record_fn record
    vt_observe_fn observe


cdef enum:
    VT_MAX_PLAYERS = 8    # the readers keep per-seat rewards in arrays this long

# The name of the PyCapsule that carries a GameVTable (one C string for writers and readers).
cdef extern from *:
    """
    #define CORE_VTABLE_CAPSULE "core.vtable.GameVTable"
    """
    const char* VTABLE_CAPSULE "CORE_VTABLE_CAPSULE"
