"""Cup the Crab in C for the game-agnostic loops: its GameVTable (core/vtable.pxd), read
by the search of core/ismcts.pyx and by the batched vector of core/vector.pyx, and the
determinizer's Python face (what a seat's history proved, for core.ai).

Each function adapts one C function of rules.pyx or observation.pyx to the vtable's
`void*` signatures.  The search takes the simultaneous selection seat by seat: the other
seats' pending selections come first and are hidden from the observer (the search draws
them at random and adds no tree edge), then the observer's own selection; the play phase
follows the table's turn order.  The vector takes it from the lowest seat that has not
selected (cc_next_decider).
"""

from libc.stdint cimport uint16_t
from cpython.pycapsule cimport PyCapsule_New

from core.rng cimport Rng
from core.games.cupcrab.rules cimport (CCState, CC_CUP_KINDS, CC_KINDS, CC_MAX_LEGAL,
                                       CC_MAX_PLAYERS, CC_N_ACTIONS, CC_CARDS_PER_SEAT,
                                       PHASE_OVER, PHASE_PLAY, PHASE_SELECT, cc_apply_action,
                                       cc_deal, cc_determinize_within, cc_legal_actions,
                                       cc_random_legal,
                                       cc_policy_playout, cc_random_playout, cc_state_of,
                                       cc_winners)
from core.games.cupcrab.observation cimport (CCMemory, cc_next_decider, cc_observation_size,
                                             ccm_record, ccm_reset, cc_write_observation)
from core.vtable cimport GameVTable, VTABLE_CAPSULE

import struct

NAME = "cup-the-crab"
INFO_SIZE = 2 * CC_MAX_PLAYERS          # a uint16 kind mask per seat (see hand_allow)
ALL_KINDS = (1 << CC_KINDS) - 1


# -- the search (legal, apply and rewards serve the vector too) ------------------------

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


cdef int _random_legal(const void* s, int seat, Rng* rng) noexcept nogil:
    return cc_random_legal(<const CCState*>s, seat, rng)


cdef void _apply(void* s, int seat, int action) noexcept nogil:
    cc_apply_action(<CCState*>s, seat, action)


cdef void _determinize(const void* s, int observer, const void* info, Rng* rng,
                       void* out) noexcept nogil:
    cc_determinize_within(<const CCState*>s, observer, <const uint16_t*>info, rng,
                          <CCState*>out)


cdef int _playout(void* s, Rng* rng) noexcept nogil:
    return cc_random_playout(<CCState*>s, rng)


cdef void _rewards(const void* s, double* out) noexcept nogil:
    """1 for the winner, a shared victory split, 0 otherwise (ruling C9)."""
    cdef bint won[CC_MAX_PLAYERS]
    cdef int seat, winners = cc_winners(<const CCState*>s, won)
    for seat in range((<const CCState*>s).players):
        out[seat] = 1.0 / winners if won[seat] else 0.0


cdef int _policy_playout(void* s, Rng* rng) noexcept nogil:
    return cc_policy_playout(<CCState*>s, rng)


cdef void _place_shares(const CCState* st, double* out) noexcept nogil:
    """Each seat's share of the other seats it finished above, by ruling C9's order (most
    points, then most Cups); a tie with one counts half."""
    cdef int keys[CC_MAX_PLAYERS]
    cdef int seat, other, kind
    cdef double above
    for seat in range(st.players):
        keys[seat] = st.seats[seat].score * 128      # then most Cups (C9): 70 in all
        for kind in range(CC_CUP_KINDS):
            keys[seat] += st.seats[seat].score_pile[kind]
    for seat in range(st.players):
        above = 0
        for other in range(st.players):
            if other != seat:
                above += (keys[seat] > keys[other]) + 0.5 * (keys[seat] == keys[other])
        out[seat] = above / (st.players - 1)


cdef void _rank_rewards(const void* s, double* out) noexcept nogil:
    """Half the victory share, half the share of the other seats this seat finished above
    (a tie with one counts half): with 3 to 5 players a second place is worth more than a
    last one, so the search keeps fighting in a game it is unlikely to win.  With two
    players it equals _rewards."""
    cdef double place[CC_MAX_PLAYERS]
    cdef int seat
    _rewards(s, out)
    _place_shares(<const CCState*>s, place)
    for seat in range((<const CCState*>s).players):
        out[seat] = 0.5 * out[seat] + 0.5 * place[seat]


cdef void _place_rewards(const void* s, double* out) noexcept nogil:
    """The share of the other seats this seat finished above, alone: every step up the
    table is worth the same, the step to first place no more than the others (the rating
    scale's Plackett-Luce counts every place).  With two players it equals _rewards (a
    shared victory is a tie: half each)."""
    _place_shares(<const CCState*>s, out)


# -- the batched vector -------------------------------------------------------------

cdef void _deal(void* s, const void* like, int first_player, Rng* rng) noexcept nogil:
    cc_deal(<CCState*>s, (<const CCState*>like).players, first_player, rng)


cdef int _decider(const void* s) noexcept nogil:
    return cc_next_decider(<const CCState*>s)


cdef void _forget(void* m) noexcept nogil:
    ccm_reset(<CCMemory*>m)


cdef void _record(void* m, const void* s, int seat, int action) noexcept nogil:
    ccm_record(<CCMemory*>m, <const CCState*>s, seat, action)


cdef void _observe(const void* s, const void* m, int seat, float* out) noexcept nogil:
    cc_write_observation(<const CCState*>s, <const CCMemory*>m, seat, out)


cdef GameVTable VTABLE
VTABLE.name = b"cup-the-crab"
VTABLE.state_size = sizeof(CCState)
VTABLE.info_size = INFO_SIZE
VTABLE.memory_size = sizeof(CCMemory)
VTABLE.n_actions = CC_N_ACTIONS
VTABLE.max_legal = CC_MAX_LEGAL
VTABLE.max_players = CC_MAX_PLAYERS
VTABLE.max_depth = 7 * CC_MAX_PLAYERS + CC_CARDS_PER_SEAT * CC_MAX_PLAYERS
VTABLE.legal_actions = _legal
VTABLE.apply_action = _apply
VTABLE.rewards = _rewards
VTABLE.players = _players
VTABLE.actor = _actor
VTABLE.hidden = _hidden
VTABLE.random_legal = _random_legal
VTABLE.determinize = _determinize
VTABLE.playout = _playout
VTABLE.policy_playout = _policy_playout
VTABLE.rank_rewards = _rank_rewards
VTABLE.place_rewards = _place_rewards
VTABLE.deal = _deal
VTABLE.decider = _decider
VTABLE.observation_size = cc_observation_size
VTABLE.forget = _forget
VTABLE.record = _record
VTABLE.observe = _observe


def vtable() -> object:
    """The vtable as a PyCapsule, for core.ismcts.search and core.vector.Vector."""
    return PyCapsule_New(&VTABLE, VTABLE_CAPSULE, NULL)


def raw_state(state) -> bytes:
    """The complete C state of a CupCrabState, for core.ismcts.search only.

    It holds hidden cards: the search hands it to the determinizer alone.
    """
    cdef CCState* s = cc_state_of(state)
    return (<char*>s)[:sizeof(CCState)]


def info(state, int seat, history=None):
    """What `seat` knows beyond its view, as the bytes the determinizer reads (or None).

    In Cup the Crab that is only what a discard proved in the current round: a seat may
    discard only when no card of its hand can be placed (ruling C2), so the rest of its
    hand is of kinds that had no target then.  history: the game's moves from the start,
    each {"seat": s, "move": m} as logged (selections may be hidden as
    {"type": "select", "cards": None}); None means no history is known.
    """
    if history is None:
        return None
    return pack_hand_allow(hand_allow_from_history(state, history))


def pack_hand_allow(hand_allow) -> bytes:
    masks = list(hand_allow) + [ALL_KINDS] * (CC_MAX_PLAYERS - len(hand_allow))
    return struct.pack(f"={CC_MAX_PLAYERS}H", *masks)


_KIND = {name: kind for kind, name in enumerate(
    ("cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10",
     "crab", "octopus", "bottle"))}
_CRAB, _OCTOPUS, _BOTTLE = 8, 9, 10
_CUPS_AND_BOTTLE = ((1 << CC_CUP_KINDS) - 1) | (1 << _BOTTLE)


def _unplaceable(slots: list) -> int:
    """The kinds that have no target on this table (C3), as a bitmask."""
    occupied = [s is not None for s in slots]
    open_stack = any(s is not None and not s for s in slots)   # s: the stack has a bottle
    bottled = any(s for s in slots if s is not None)
    mask = 0
    if not open_stack and all(occupied):
        mask |= _CUPS_AND_BOTTLE
    if not open_stack:
        mask |= 1 << _CRAB
    if not bottled:
        mask |= 1 << _OCTOPUS
    return mask


def hand_allow_from_history(state, history) -> list:
    """Per seat, the card kinds its hand may hold given this round's public plays.

    Replays the table from the public moves (every play is public, selections do not
    touch it) and, at each discard, keeps the discarding seat's hand to the kinds that
    had no target.  ValueError if the history does not lead to `state`'s table.
    """
    cdef CCState* s = cc_state_of(state)
    players = s.players
    slots = [None] * (4 if players == 5 else 3)
    allow = [ALL_KINDS] * players
    plays = 0
    if not isinstance(history, (list, tuple)):
        raise ValueError("history is a list of {\"seat\": s, \"move\": m} entries")
    for entry in history:
        try:
            seat, move = entry["seat"], entry["move"]
            kind = move["type"]
            if kind == "select":
                continue
            card = _KIND[move["card"]]
        except (TypeError, KeyError):
            raise ValueError(f"not a logged {NAME} move: {entry!r}") from None
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"not a seat of this game in history: {entry!r}")
        if plays % (3 * players) == 0:
            allow = [ALL_KINDS] * players        # a new round: new hands
        if kind == "discard":
            allow[seat] &= _unplaceable(slots)
        elif kind == "new-stack":
            if None not in slots:
                raise ValueError(f"history starts a stack on a full table: {entry!r}")
            slots[slots.index(None)] = card == _BOTTLE
        elif kind == "play":
            slot = move.get("stack")
            if type(slot) is not int or not 0 <= slot < len(slots) or slots[slot] is None:
                raise ValueError(f"history plays on a stack that is not there: {entry!r}")
            if card == _CRAB or card == _OCTOPUS:
                slots[slot] = None
            elif card == _BOTTLE:
                slots[slot] = True
        else:
            raise ValueError(f"not a logged {NAME} move: {entry!r}")
        plays += 1
    expected = s.round * 3 * players + s.plays
    if s.phase == PHASE_OVER:
        expected = 7 * 3 * players
    table = [s.stacks[i].bottle != 0 if s.stacks[i].len else None for i in range(len(slots))]
    if plays != expected or table != slots:
        raise ValueError("history does not lead to this position: its cards played or"
                         " its table differ")
    if plays % (3 * players) == 0:
        allow = [ALL_KINDS] * players
    return allow


def determinize_for(state, int seat, history=None, seed=0):
    """core.ai.determinize for Cup the Crab: seat's view plus what its history proved."""
    allow = None if history is None else hand_allow_from_history(state, history)
    return state.determinize(seat, seed, allow)
