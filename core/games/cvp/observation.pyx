"""Crabe vs Poulpe for learning code: a seat's observation tensor, its action mask, memory.

`observation(state, seat, history=None)` is a flat float32 vector (every value in [0, 1])
of what `seat` may know: its hand, the round pile, public sizes, the deck, a hand or
draw pile it is being shown, and what its history showed it (`CvpMemory`: cards known in
the discard, cards known or maybe in the opponent's hand, hence its own draw pile's
content).  Layout: `observation_layout()` (and docs/rl.md); `action_mask(state, seat)`
marks the seat's legal action ids.  The writers are C (nogil), shared with
core/vector.pyx.
"""

from libc.stdint cimport uint8_t, uint16_t
from libc.string cimport memset, memcpy

from core.games.cvp.rules cimport (CvpState, CVP_PLAYERS, CVP_FACES, CVP_KINDS, CVP_MAX_LEGAL,
                       CVP_N_ACTIONS, CVP_PASS, CVP_DECLINE, CVP_CAPTURE,
                       CVP_PINCER_BASE, CVP_DISCARD_BASE, CVP_SEARCH_BASE, CVP_GIVE_BASE,
                       CVP_COPY_BASE, CVP_NO_SEAT, PH_PINCER, PH_MIMIC, PH_SEARCH, PH_OVER,
                       cvp_legal_actions, cvp_state_of)

NAME = "crabe-vs-poulpe"
N_ACTIONS = CVP_N_ACTIONS
PLAYERS = (2,)

cdef enum:
    PHASES = 10
cdef float MAX_CARDS = 80.0
cdef float MAX_HAND = 40.0              # a hand size past 40 reads as 1


def observation_layout(int players=2) -> list:
    """[(slice name, start, stop)] of the observation (docs/rl.md)."""
    _check_players(players)
    k = CVP_KINDS
    parts = [("phase", PHASES), ("round", 1), ("lower", 1), ("opener", 2),
             ("last_player", 3), ("to_move", 2), ("colour", 2), ("pile_length", 1),
             ("pile_top", k), ("pile_beneath", k), ("pile_cards", k), ("own_hand", k),
             ("hand_size", 2), ("draw_size", 2), ("discard_size", 1), ("deck", k),
             ("revealed_hand", k), ("shown_draw_pile", k), ("remembers", 1),
             ("known_discard", k), ("opponent_known", k), ("opponent_maybe", k),
             ("own_draw_pile", k), ("opponent_hidden_discards", 1)]
    out, at = [], 0
    for name, size in parts:
        out.append((name, at, at + size))
        at += size
    assert at == CVP_OBSERVATION_SIZE
    return out


def observation_shape(int players=2) -> tuple:
    _check_players(players)
    return (CVP_OBSERVATION_SIZE,)


cdef int _check_players(int players) except -1:
    if players != CVP_PLAYERS:
        raise ValueError(f"{NAME} is for exactly 2 players, got {players}")
    return 0


cdef void cvpm_reset(CvpMemory* m) noexcept nogil:
    memset(m, 0, 2 * sizeof(CvpMemory))


cdef void _leave(CvpMemory* m, int kind) noexcept nogil:
    """A card leaves the opponent's hand in the open (played, given, pincered)."""
    if m.opponent_known[kind]:
        m.opponent_known[kind] -= 1
    elif m.opponent_maybe[kind]:
        m.opponent_maybe[kind] -= 1


cdef void _hidden_discard(CvpMemory* m) noexcept nogil:
    """The opponent discards face down: anything it was known to hold may be gone."""
    cdef int kind
    for kind in range(CVP_KINDS):
        m.opponent_maybe[kind] += m.opponent_known[kind]
        m.opponent_known[kind] = 0
    m.hidden_discards += 1


cdef void _reveal(CvpMemory* m, const uint8_t* shown) noexcept nogil:
    """The opponent's hand is shown: maybe copies it lacks were discarded."""
    cdef int kind, room, gone
    for kind in range(CVP_KINDS):
        room = shown[kind] - m.opponent_known[kind]
        if room < 0:
            room = 0
        gone = m.opponent_maybe[kind] - room if m.opponent_maybe[kind] > room else 0
        m.known_discard[kind] += gone
        m.hidden_discards -= min(gone, m.hidden_discards)
        m.opponent_known[kind] = shown[kind]
        m.opponent_maybe[kind] = 0


cdef inline bint _shown_hand(const CvpState* s, int seat) noexcept nogil:
    """Whether seat is looking at its opponent's hand now (choosing a Pincer or Mimic)."""
    return s.to_move == seat and (s.phase == PH_PINCER or s.phase == PH_MIMIC)


cdef void cvpm_record(CvpMemory* m, const CvpState* s, int seat, int action) noexcept nogil:
    cdef int o, p, i, kind
    for o in range(CVP_PLAYERS):
        p = o ^ 1
        if action < CVP_PASS:                           # a play (or a Resist)
            if seat == p:
                _leave(&m[o], action)
        elif action == CVP_PASS:                        # the round pile goes down
            for i in range(s.pile_len):
                m[o].known_discard[s.pile[i]] += 1
        elif action == CVP_CAPTURE:
            if seat == p:
                m[o].opponent_known[s.pile[s.pile_len - 2]] += 1
        elif action == CVP_DECLINE:                     # (a Mimic's decline: see below)
            pass
        elif action < CVP_DISCARD_BASE:                 # Pincer: a card of seat's opponent
            if seat == o:
                _reveal(&m[o], s.hand[p])
                _leave(&m[o], action - CVP_PINCER_BASE)
        elif action < CVP_SEARCH_BASE:                  # Heal, Draw and Discard
            if seat == o:
                m[o].known_discard[action - CVP_DISCARD_BASE] += 1
            else:
                _hidden_discard(&m[o])
        elif action < CVP_GIVE_BASE:                    # Search: O's own pick or hidden
            pass
        elif action < CVP_COPY_BASE:                    # Offer
            kind = action - CVP_GIVE_BASE
            if seat == o:
                m[o].opponent_known[kind] += 1
            else:
                _leave(&m[o], kind)
        if seat == o and (action >= CVP_COPY_BASE or action == CVP_DECLINE) \
                and _shown_hand(s, o):
            _reveal(&m[o], s.hand[p])                   # a Mimic's choice, after the look


cdef inline void _one_hot(float* o, int index) noexcept nogil:
    o[index] = 1.0


cdef inline float _share(int count, int copies) noexcept nogil:
    return count / <float>copies if copies else 0.0


cdef void cvp_write_observation(const CvpState* s, const CvpMemory* m, int seat,
                                float* out) noexcept nogil:
    cdef int p = seat ^ 1
    cdef int kind, i, left
    cdef float* o = out
    cdef CvpMemory mem
    cdef uint8_t counts[CVP_KINDS]
    cdef bint shown = s.phase != PH_OVER and _shown_hand(s, seat)
    memset(out, 0, CVP_OBSERVATION_SIZE * sizeof(float))
    _one_hot(o, s.phase)
    o += PHASES
    o[0] = min(s.round / MAX_CARDS, 1.0)
    o[1] = s.lower
    o += 2
    _one_hot(o, (s.opener - seat) & 1)
    o += 2
    _one_hot(o, 2 if s.last_player == CVP_NO_SEAT else (s.last_player - seat) & 1)
    o += 3
    if s.phase != PH_OVER:
        _one_hot(o, (s.to_move - seat) & 1)
    o += 2
    _one_hot(o, seat)
    o += 2
    o[0] = s.pile_len / MAX_CARDS
    o += 1
    if s.pile_len:
        _one_hot(o, s.pile[s.pile_len - 1])
    if s.pile_len > 1:
        _one_hot(o + CVP_KINDS, s.pile[s.pile_len - 2])
    o += 2 * CVP_KINDS
    memset(counts, 0, CVP_KINDS)
    for i in range(s.pile_len):
        counts[s.pile[i]] += 1
    for kind in range(CVP_KINDS):
        o[kind] = _share(counts[kind], s.deck[kind])
        o[CVP_KINDS + kind] = _share(s.hand[seat][kind], s.deck[kind])
    o += 2 * CVP_KINDS
    o[0] = min(s.hand_size[seat] / MAX_HAND, 1.0)
    o[1] = min(s.hand_size[p] / MAX_HAND, 1.0)
    o[2] = s.draw_len[seat] / 40.0
    o[3] = s.draw_len[p] / 40.0
    o[4] = s.discard_size / MAX_CARDS
    o += 5
    for kind in range(CVP_KINDS):
        o[kind] = s.deck[kind] / 40.0
        if shown:
            o[CVP_KINDS + kind] = _share(s.hand[p][kind], s.deck[kind])
    o += 2 * CVP_KINDS
    if s.phase == PH_SEARCH and s.to_move == seat:
        for i in range(s.draw_len[seat]):
            o[s.draw[seat][i]] += 1.0
        for kind in range(CVP_KINDS):
            o[kind] = _share(<int>o[kind], s.deck[kind])
    o += CVP_KINDS
    if m == NULL:
        return
    mem = m[0]
    if shown:
        _reveal(&mem, s.hand[p])
    o[0] = 1.0
    o += 1
    for kind in range(CVP_KINDS):
        o[kind] = _share(mem.known_discard[kind], s.deck[kind])
        o[CVP_KINDS + kind] = _share(mem.opponent_known[kind], s.deck[kind])
        o[2 * CVP_KINDS + kind] = _share(mem.opponent_maybe[kind], s.deck[kind])
        if kind // CVP_FACES == seat:       # own colour: wherever else it is, O saw it go
            left = (s.deck[kind] - s.hand[seat][kind] - counts[kind] - mem.known_discard[kind]
                    - mem.opponent_known[kind] - mem.opponent_maybe[kind])
            o[3 * CVP_KINDS + kind] = _share(left if left > 0 else 0, s.deck[kind])
    o += 4 * CVP_KINDS
    o[0] = mem.hidden_discards / MAX_CARDS


# -- Python ------------------------------------------------------------------------------

cdef int _seat_of(seat) except -1:
    if type(seat) is not int or not 0 <= seat < CVP_PLAYERS:
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    return seat


def _numpy():
    import numpy   # the optional extra `rl`: the service never needs it
    return numpy


cdef class Memory:
    """What each seat of one game remembers of the cards it saw (CvpMemory x 2).

    Start it with the game (`Memory(state)` on a new game) and call
    `record(state, seat, action)` before every `state.apply_action(seat, action)`.
    """
    cdef CvpMemory m[2]

    def __cinit__(self, state=None):
        cvpm_reset(self.m)

    def record(self, state, int seat, int action) -> None:
        cvpm_record(self.m, cvp_state_of(state), seat, action)

    def observation(self, state, seat, out=None):
        """seat's observation (a float32 NumPy array, written into out if given)."""
        cdef const CvpState* s = cvp_state_of(state)
        cdef float[::1] buf
        cdef int who = _seat_of(seat)
        np = _numpy()
        if out is None:
            out = np.empty(CVP_OBSERVATION_SIZE, dtype=np.float32)
        buf = out
        if buf.shape[0] != CVP_OBSERVATION_SIZE:
            raise ValueError(f"out holds {buf.shape[0]} floats, the observation"
                             f" {CVP_OBSERVATION_SIZE}")
        cvp_write_observation(s, &self.m[who], who, &buf[0])
        return out

    def knowledge(self, state, seat) -> dict:
        """seat's memory as per-kind counts, with a reveal under way applied."""
        cdef const CvpState* s = cvp_state_of(state)
        cdef int who = _seat_of(seat)
        cdef CvpMemory mem = self.m[who]
        if s.phase != PH_OVER and _shown_hand(s, who):
            _reveal(&mem, s.hand[who ^ 1])
        return {"known_x": list(mem.known_discard[:CVP_KINDS]),
                "pinned": list(mem.opponent_known[:CVP_KINDS]),
                "maybe": list(mem.opponent_maybe[:CVP_KINDS]),
                "hidden": mem.hidden_discards}


def observation(state, seat, history=None):
    """What `seat` may know, as a float32 vector (layout: observation_layout).

    history: the game's moves from the start as `seat` saw them (as for core.ai.suggest:
    visible_move entries, the seat's own entries carrying what it was shown); None:
    nothing remembered (the memory slices are zeros, `remembers` 0).
    """
    from core.games.cvp import search
    cdef const CvpState* s = cvp_state_of(state)
    cdef int who = _seat_of(seat)
    cdef CvpMemory mem
    cdef float[::1] buf
    np = _numpy()
    out = np.empty(CVP_OBSERVATION_SIZE, dtype=np.float32)
    buf = out
    if history is None:
        cvp_write_observation(s, NULL, who, &buf[0])
        return out
    know = search.knowledge(state, who, history)
    memset(&mem, 0, sizeof(CvpMemory))
    for kind, n in know["known_x"].items():
        mem.known_discard[kind] = n
    for kind, n in know["pinned"].items():
        mem.opponent_known[kind] = n
    for kind, _ in know["maybe"]:
        mem.opponent_maybe[kind] += 1
    mem.hidden_discards = know["hidden"]
    cvp_write_observation(s, &mem, who, &buf[0])
    return out


def action_mask(state, seat):
    """A uint8 vector of N_ACTIONS: 1 for each of seat's legal action ids now."""
    cdef const CvpState* s = cvp_state_of(state)
    cdef uint16_t legal[CVP_MAX_LEGAL]
    cdef int n, i
    cdef uint8_t[::1] buf
    np = _numpy()
    out = np.zeros(CVP_N_ACTIONS, dtype=np.uint8)
    buf = out
    n = cvp_legal_actions(s, _seat_of(seat), legal)
    for i in range(n):
        buf[legal[i]] = 1
    return out
