"""Cup the Crab for learning code: a seat's observation tensor, its action mask, memory.

`observation(state, seat, history=None)` is a flat float32 vector (every value in [0, 1])
of what `seat` may know: its hand and reserve, the public table, every seat's public
counts and score pile, the phase and, from the public history, what a discard proved
about the discarder's hand this round (`CCMemory`).  Its layout, every slice named, is
`observation_layout(players)` (and docs/rl.md); seat blocks are ordered from the
observer (block 0 is the observer, block 1 the next seat clockwise), so one policy fits
every seat.  `action_mask(state, seat)` marks the seat's legal action ids.

The writers are C (nogil), shared with the batched vector of core/vector.pyx.
"""

from libc.stdint cimport uint8_t, uint16_t
from libc.string cimport memset

from core.games.cupcrab.rules cimport (CCState, CC_CUP_KINDS, CC_KINDS, CC_MAX_PLAYERS, CC_MAX_STACKS,
                           CC_ROUNDS, CC_HAND, CC_CRAB, CC_OCTOPUS, CC_BOTTLE,
                           CC_DISCARD_BASE, CC_SELECT_BASE, CC_N_ACTIONS, CC_MAX_LEGAL,
                           PHASE_SELECT, PHASE_PLAY, PHASE_OVER, cc_legal_actions,
                           cc_state_of)

NAME = "cup-the-crab"
N_ACTIONS = CC_N_ACTIONS
PLAYERS = range(2, CC_MAX_PLAYERS + 1)

cdef enum:
    ALL_KINDS = (1 << CC_KINDS) - 1
    NO_ROUND = 255
    SEAT_FEATURES = 10 + 2 * CC_KINDS   # counts and flags, hand_allow, score pile
    STACK_FEATURES = 4 + CC_KINDS       # present, bottle, value, length, kind counts
    CUPS_AND_BOTTLE = ((1 << CC_CUP_KINDS) - 1) | (1 << CC_BOTTLE)

# Copies of a Cup value in the game, and a seat's Crabs, Octopuses and Bottles: the
# largest count of a kind that one seat's reserve can hold.
cdef float SEAT_CAP[CC_KINDS]
SEAT_CAP[:] = [10, 10, 10, 10, 10, 10, 5, 5, 3, 2, 2]
# Cup values; the Cups of the game are worth 300 in all.
cdef float CUP_VALUE_TOTAL = 300.0


cdef int cc_observation_size(int players) noexcept nogil:
    cdef int stacks = 4 if players == 5 else 3
    return 3 + CC_ROUNDS + 2 * players + 1 + 2 * CC_KINDS + stacks * STACK_FEATURES \
        + CC_KINDS + players * SEAT_FEATURES


def observation_layout(int players) -> list:
    """[(slice name, start, stop)] of the observation for `players` seats (docs/rl.md)."""
    _check_players(players)
    stacks = 4 if players == 5 else 3
    parts = [("phase", 3), ("round", CC_ROUNDS), ("starting_player", players),
             ("current_player", players), ("plays", 1), ("own_hand", CC_KINDS),
             ("own_reserve", CC_KINDS)]
    for slot in range(stacks):
        parts += [(f"stack{slot}.present", 1), (f"stack{slot}.bottle", 1),
                  (f"stack{slot}.value", 1), (f"stack{slot}.length", 1),
                  (f"stack{slot}.cards", CC_KINDS)]
    parts.append(("discards", CC_KINDS))
    for rel in range(players):
        parts += [(f"seat+{rel}.{name}", 1) for name in
                  ("cards_left", "cups_left", "crabs", "octopuses", "bottles", "hand_size",
                   "selected", "score", "score_cups", "discards")]
        parts += [(f"seat+{rel}.hand_allow", CC_KINDS), (f"seat+{rel}.score_pile", CC_KINDS)]
    out, at = [], 0
    for name, size in parts:
        out.append((name, at, at + size))
        at += size
    assert at == cc_observation_size(players)
    return out


def observation_shape(int players) -> tuple:
    """The shape of an observation for `players` seats."""
    _check_players(players)
    return (cc_observation_size(players),)


cdef int _check_players(int players) except -1:
    if not 2 <= players <= CC_MAX_PLAYERS:
        raise ValueError(f"{NAME} has 2 to {CC_MAX_PLAYERS} players, got {players}")
    return 0


cdef void ccm_reset(CCMemory* m) noexcept nogil:
    cdef int seat
    m.round = NO_ROUND
    for seat in range(CC_MAX_PLAYERS):
        m.hand_allow[seat] = ALL_KINDS


cdef unsigned int _unplaceable(const CCState* s) noexcept nogil:
    """The kinds that have no target on this table (ruling C3), as a bitmask."""
    cdef unsigned int open_stacks = s.occupied & ~s.bottled
    cdef unsigned int mask = 0
    if not open_stacks:
        mask |= 1 << CC_CRAB
        if s.occupied == (1u << s.max_stacks) - 1:
            mask |= CUPS_AND_BOTTLE
    if not s.bottled:
        mask |= 1 << CC_OCTOPUS
    return mask


cdef void ccm_record(CCMemory* m, const CCState* s, int seat, int action) noexcept nogil:
    """A discard (ruling C2) proves the rest of the hand had no target (docs/ai.md)."""
    cdef int seat_
    if action < CC_DISCARD_BASE or action >= CC_SELECT_BASE:
        return
    if m.round != s.round:
        m.round = s.round
        for seat_ in range(CC_MAX_PLAYERS):
            m.hand_allow[seat_] = ALL_KINDS
    m.hand_allow[seat] &= _unplaceable(s)


cdef inline bint _remembered(const CCState* s, const CCMemory* m) noexcept nogil:
    """Whether m's hand_allow is about the hands now held (this round's, before the end)."""
    return m.round == s.round and s.phase != PHASE_OVER


cdef int cc_next_decider(const CCState* s) noexcept nogil:
    cdef int seat
    if s.phase == PHASE_PLAY:
        return s.current
    if s.phase == PHASE_SELECT:
        for seat in range(s.players):
            if not s.seats[seat].selected:
                return seat
    return -1


cdef inline void _per_copy(int players, float* out) noexcept nogil:
    """1 / (copies of each kind in the whole game): a count times this is in [0, 1]."""
    cdef int kind
    for kind in range(CC_KINDS):
        out[kind] = 1.0 / (SEAT_CAP[kind] if kind < CC_CUP_KINDS else SEAT_CAP[kind] * players)


cdef void cc_write_observation(const CCState* s, const CCMemory* m, int seat,
                               float* out) noexcept nogil:
    cdef int players = s.players
    cdef int kind, slot, rel, other, i, cups, left, held
    cdef int start = (s.first_player + s.round) % players
    cdef float* o = out
    cdef const uint8_t* counts
    cdef float per_copy[CC_KINDS]
    _per_copy(players, per_copy)
    memset(out, 0, cc_observation_size(players) * sizeof(float))
    o[s.phase] = 1.0
    o += 3
    o[s.round] = 1.0
    o += CC_ROUNDS
    o[(start - seat + players) % players] = 1.0
    o += players
    if s.phase == PHASE_PLAY:
        o[(s.current - seat + players) % players] = 1.0
    o += players
    o[0] = s.plays / (3.0 * players)
    o += 1
    for kind in range(CC_KINDS):
        o[kind] = s.seats[seat].hand[kind] / <float>CC_HAND
        o[CC_KINDS + kind] = s.seats[seat].reserve[kind] / SEAT_CAP[kind]
    o += 2 * CC_KINDS
    for slot in range(s.max_stacks):
        if s.stacks[slot].len:
            o[0] = 1.0
            o[1] = s.stacks[slot].bottle
            o[2] = s.stacks[slot].value / CUP_VALUE_TOTAL
            o[3] = s.stacks[slot].len / 72.0
            for i in range(s.stacks[slot].len):
                o[4 + s.stacks[slot].cards[i]] += 1.0
            for kind in range(CC_KINDS):    # one rounding: the most copies give 1 exactly
                o[4 + kind] *= per_copy[kind]
        o += STACK_FEATURES
    for kind in range(CC_KINDS):
        o[kind] = s.discard_pile[kind] * per_copy[kind]
    o += CC_KINDS
    for rel in range(players):
        other = (seat + rel) % players
        left = 0
        cups = 0
        held = 0
        for kind in range(CC_KINDS):   # public sums (C8): cards left, Cups left, hand size
            left += s.seats[other].reserve[kind] + s.seats[other].hand[kind]
            held += s.seats[other].hand[kind]
            if kind < CC_CUP_KINDS:
                cups += s.seats[other].reserve[kind] + s.seats[other].hand[kind]
        counts = s.seats[other].score_pile
        o[0] = left / 21.0
        o[1] = cups / 14.0
        o[2] = (s.seats[other].reserve[CC_CRAB] + s.seats[other].hand[CC_CRAB]) / 3.0
        o[3] = (s.seats[other].reserve[CC_OCTOPUS] + s.seats[other].hand[CC_OCTOPUS]) / 2.0
        o[4] = (s.seats[other].reserve[CC_BOTTLE] + s.seats[other].hand[CC_BOTTLE]) / 2.0
        o[5] = held / <float>CC_HAND
        o[6] = s.seats[other].selected
        o[7] = s.seats[other].score / CUP_VALUE_TOTAL
        cups = 0
        for kind in range(CC_CUP_KINDS):
            cups += counts[kind]
        o[8] = cups / 70.0
        o[9] = s.seats[other].discards / 21.0
        for kind in range(CC_KINDS):
            if not _remembered(s, m) or (m.hand_allow[other] >> kind) & 1:
                o[10 + kind] = 1.0
            o[10 + CC_KINDS + kind] = counts[kind] * per_copy[kind]
        o += SEAT_FEATURES


# -- Python ------------------------------------------------------------------------------

cdef int _seat_of(const CCState* s, seat) except -1:
    if type(seat) is not int or not 0 <= seat < s.players:
        raise ValueError(f"seat must be an integer from 0 to {s.players - 1}, got {seat!r}")
    return seat


def _numpy():
    import numpy   # the optional extra `rl`: the service never needs it
    return numpy


cdef class Memory:
    """What the public history of one game proved (CCMemory), kept move by move.

    Start it with the game (`Memory(state)` on a new game) and call
    `record(state, seat, action)` before every `state.apply_action(seat, action)`.
    """
    cdef CCMemory m

    def __cinit__(self, state=None):
        ccm_reset(&self.m)

    def record(self, state, int seat, int action) -> None:
        ccm_record(&self.m, cc_state_of(state), seat, action)

    def observation(self, state, seat, out=None):
        """seat's observation (a float32 NumPy array, written into out if given)."""
        cdef const CCState* s = cc_state_of(state)
        cdef float[::1] buf
        np = _numpy()
        if out is None:
            out = np.empty(cc_observation_size(s.players), dtype=np.float32)
        buf = out
        if buf.shape[0] != cc_observation_size(s.players):
            raise ValueError(f"out holds {buf.shape[0]} floats, the observation"
                             f" {cc_observation_size(s.players)}")
        cc_write_observation(s, &self.m, _seat_of(s, seat), &buf[0])
        return out

    def hand_allow(self, state) -> list:
        """Per seat, the kinds its hand may hold (bitmasks), as the AI's history gives."""
        cdef const CCState* s = cc_state_of(state)
        return [self.m.hand_allow[i] if _remembered(s, &self.m) else ALL_KINDS
                for i in range(s.players)]


def memory_from_history(state, history) -> Memory:
    """The Memory of `state`'s game rebuilt from its move log (as core.ai reads it)."""
    from core.games.cupcrab.search import hand_allow_from_history
    cdef Memory memory = Memory()
    cdef const CCState* s = cc_state_of(state)
    if history is None:
        return memory
    allow = hand_allow_from_history(state, history)
    memory.m.round = s.round
    for i in range(s.players):
        memory.m.hand_allow[i] = allow[i]
    return memory


def observation(state, seat, history=None):
    """What `seat` may know, as a float32 vector (layout: observation_layout).

    history: the game's moves from the start as logged ({"seat", "move"}, selections may
    be hidden), from which what discards proved is read; None: nothing remembered (every
    hand_allow slice is then all ones).
    """
    return memory_from_history(state, history).observation(state, seat)


def action_mask(state, seat):
    """A uint8 vector of N_ACTIONS: 1 for each of seat's legal action ids now."""
    cdef const CCState* s = cc_state_of(state)
    cdef uint16_t legal[CC_MAX_LEGAL]
    cdef int n, i
    cdef uint8_t[::1] buf
    np = _numpy()
    out = np.zeros(CC_N_ACTIONS, dtype=np.uint8)
    buf = out
    n = cc_legal_actions(s, _seat_of(s, seat), legal)
    for i in range(n):
        buf[legal[i]] = 1
    return out
