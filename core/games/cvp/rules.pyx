"""Crabe vs Poulpe: rules, move generation and playouts over the C state of cvp.pxd.

The first half is the rules in C (``cvp_*``, all ``noexcept nogil``); the second
half is `CrabeVsPoulpeState`, the Python face of the shared game interface, which
checks every input before it reaches the C functions and converts moves to and
from their JSON form (documented in docs/rules.md, section "Crabe vs Poulpe").

Every decision of the game is a state of its own: a normal turn (play or pass),
the response window after a cancellable effect (resist or decline), and each choice
an effect asks for (Pincer, Heal, Search, Capture, Mimic, Draw and Discard, Offer).
Effects without a choice (Blind's draw, Reverse, the draw of Draw and Discard, the
refill of Heal) are applied by the engine as part of the move that triggers them.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset, memmove
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

from core._base cimport GameStateBase, fresh_seed
from core.rng cimport Rng, rng_seed, rng_next, rng_below


cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long x) noexcept nogil
    int popcount64 "__builtin_popcountll"(unsigned long long x) noexcept nogil
    int __builtin_clzll(unsigned long long x) noexcept nogil

import struct

from core import _codec
from core.errors import IllegalMove, InvalidState

NAME = "crabe-vs-poulpe"
COLOURS = ("crab", "octopus")
# Faces of one colour in value order; kind = colour * 18 + face.
FACE_NAMES = ("alpha", "1", "2", "pincer", "blind", "3", "4", "5", "heal", "capture",
              "6", "7", "8", "9", "10", "search", "mimic", "omega")
CARD_NAMES = tuple(f"{colour}-{face}" for colour in COLOURS for face in FACE_NAMES)
_KIND_OF = {name: kind for kind, name in enumerate(CARD_NAMES)}
EFFECT_NAMES = ("none", "start", "resist", "pincer", "blind", "offer", "heal", "capture",
                "draw-and-discard", "reverse", "search", "mimic")
COPYABLE = EFFECT_NAMES[EF_PINCER:EF_SEARCH + 1]     # what Mimic may copy, in id order
_COPY_OF = {name: i for i, name in enumerate(COPYABLE)}
PHASE_NAMES = ("turn", "response", "pincer", "heal", "search", "capture", "mimic",
               "discard", "offer", "over")
MODES = ("symmetrical", "asymmetrical", "custom")
OPTIONS = ("mode", "deck", "first_player")
PLAYERS = (CVP_PLAYERS,)  # the player counts it is for
VALUE_NAMES = ("alpha", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "omega")

# The decks of ../shared/rulings.md: per colour 1..10 twice, alpha twice, omega twice;
# asymmetrical adds Pincer, Heal, Search to the Crab and Blind, Capture, Mimic to the
# Octopus (one each).
_BASE_FACES = {"alpha": 2, "omega": 2, **{str(v): 2 for v in range(1, 11)}}
DECKS = {
    "symmetrical": {f"{c}-{f}": n for c in COLOURS for f, n in _BASE_FACES.items()},
    "asymmetrical": {**{f"{c}-{f}": n for c in COLOURS for f, n in _BASE_FACES.items()},
                     "crab-pincer": 1, "crab-heal": 1, "crab-search": 1,
                     "octopus-blind": 1, "octopus-capture": 1, "octopus-mimic": 1},
}
DECKS = {mode: {name: deck[name] for name in CARD_NAMES if name in deck}
         for mode, deck in DECKS.items()}   # canonical order

# Kind tables.
cdef uint8_t FACE_RANK[CVP_FACES]
FACE_RANK[:] = [0, 1, 2, 2, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9, 10, 10, 10, 11]
cdef uint8_t FACE_EFFECT[CVP_FACES]
FACE_EFFECT[:] = [EF_START, EF_RESIST, EF_NONE, EF_PINCER, EF_BLIND, EF_NONE, EF_OFFER,
                  EF_NONE, EF_HEAL, EF_CAPTURE, EF_NONE, EF_DRAW_DISCARD, EF_REVERSE,
                  EF_NONE, EF_NONE, EF_SEARCH, EF_MIMIC, EF_NONE]
cdef uint8_t CANCELLABLE[EF_COUNT]      # P2: may be cancelled by Resist
CANCELLABLE[:] = [0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1]
cdef uint8_t PHASE_EFFECT[PH_OVER + 1]  # the effect a decision phase resolves
PHASE_EFFECT[:] = [EF_NONE, EF_NONE, EF_PINCER, EF_HEAL, EF_SEARCH, EF_CAPTURE, EF_MIMIC,
                   EF_DRAW_DISCARD, EF_OFFER, EF_NONE]

cdef uint8_t RANK[CVP_KINDS]
cdef uint8_t EFFECT[CVP_KINDS]
cdef uint8_t COLOUR[CVP_KINDS]
cdef uint16_t COPY_BIT[CVP_KINDS]       # bit (effect - EF_PINCER) if Mimic can copy it
cdef uint64_t PLAYABLE[CVP_KINDS][2]    # kinds playable on a top card, [lower flag]
cdef uint64_t ALL_KINDS = (<uint64_t>1 << CVP_KINDS) - 1
cdef uint64_t RESIST_KINDS = 0
cdef uint64_t BLIND_KINDS = 0


cdef bint _may_follow(int card, int top, int lower) noexcept:
    """P1/P2: may card be played on top (lower: a Reverse asked for a lower card)?"""
    if EFFECT[card] == EF_START:
        return False                   # alpha only opens a round
    if EFFECT[card] == EF_BLIND and RANK[top] != CVP_OMEGA:
        return True                    # Blind goes on anything but omega
    return RANK[card] < RANK[top] if lower else RANK[card] > RANK[top]


cdef void _build_tables() noexcept:
    global RESIST_KINDS, BLIND_KINDS
    cdef int kind, top, lower
    for kind in range(CVP_KINDS):
        RANK[kind] = FACE_RANK[kind % CVP_FACES]
        EFFECT[kind] = FACE_EFFECT[kind % CVP_FACES]
        COLOUR[kind] = kind // CVP_FACES
        COPY_BIT[kind] = (1 << (EFFECT[kind] - EF_PINCER)
                          if EF_PINCER <= EFFECT[kind] <= EF_SEARCH else 0)
        if EFFECT[kind] == EF_RESIST:
            RESIST_KINDS |= <uint64_t>1 << kind
        if EFFECT[kind] == EF_BLIND:
            BLIND_KINDS |= <uint64_t>1 << kind
    for top in range(CVP_KINDS):
        for lower in range(2):
            PLAYABLE[top][lower] = 0
            for kind in range(CVP_KINDS):
                if _may_follow(kind, top, lower):
                    PLAYABLE[top][lower] |= <uint64_t>1 << kind


_build_tables()


# ---------------------------------------------------------------------------
# Rules in C

cdef inline void _shuffle(uint8_t* cards, int n, Rng* rng) noexcept nogil:
    """Fisher-Yates from the top down: for i = n-1 .. 1, swap i with below(i + 1)."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = cards[i]; cards[i] = cards[j]; cards[j] = tmp


cdef inline void _to_hand(CvpState* s, int seat, int kind) noexcept nogil:
    s.hand[seat][kind] += 1
    s.hand_size[seat] += 1
    s.hand_mask[seat] |= <uint64_t>1 << kind


cdef inline void _from_hand(CvpState* s, int seat, int kind) noexcept nogil:
    s.hand[seat][kind] -= 1
    s.hand_size[seat] -= 1
    if s.hand[seat][kind] == 0:
        s.hand_mask[seat] &= ~(<uint64_t>1 << kind)


cdef inline void _draw(CvpState* s, int seat) noexcept nogil:
    """Draws the top card of seat's own pile; nothing when it is empty (P7)."""
    if s.draw_len[seat]:
        s.draw_len[seat] -= 1
        _to_hand(s, seat, s.draw[seat][s.draw_len[seat]])


cdef inline void _refill(CvpState* s, int seat) noexcept nogil:
    while s.hand_size[seat] < CVP_HAND and s.draw_len[seat]:
        _draw(s, seat)


cdef inline bint _emptied(CvpState* s, int seat) noexcept nogil:
    """P6, checked whenever a card leaves seat's hand: no hand and no draw pile wins."""
    if s.hand_size[seat] == 0 and s.draw_len[seat] == 0:
        s.phase = PH_OVER
        s.winner = seat
        s.to_move = CVP_NO_SEAT
        return True
    return False


cdef void cvp_deal(CvpState* s, const uint8_t* deck, int mode, int first_player,
                   Rng* rng) noexcept nogil:
    """A new game: each colour's cards (in kind order) shuffled into its pile, 5 drawn each.

    first_player -1 draws the first player with the PRNG, after the shuffles.
    """
    cdef int colour, face, kind, n, seat
    cdef uint8_t cards[2 * CVP_MAX_PER_COLOUR]
    memset(s, 0, sizeof(CvpState))
    s.rng = rng[0]
    s.mode = mode
    memcpy(s.deck, deck, CVP_KINDS)
    for colour in range(CVP_COLOURS):
        n = 0
        for face in range(CVP_FACES):   # no branch on the copies: every kind writes as
            kind = colour * CVP_FACES + face    # many as a deck may hold, the next overwrites
            memset(&cards[n], kind, CVP_MAX_PER_COLOUR)
            n += deck[kind]
        memcpy(s.draw[colour], cards, n)
        s.draw_len[colour] = n
        _shuffle(s.draw[colour], n, &s.rng)
    for seat in range(CVP_PLAYERS):
        _refill(s, seat)
    s.first_player = rng_below(&s.rng, 2) if first_player < 0 else first_player
    s.opener = s.first_player
    s.to_move = s.first_player
    s.last_player = CVP_NO_SEAT
    s.winner = CVP_NO_SEAT
    s.round = 1
    s.phase = PH_TURN


cdef inline int _mask_ids(uint64_t mask, int base, uint16_t* out, int n) noexcept nogil:
    while mask:
        out[n] = base + ctz64(mask)
        n += 1
        mask &= mask - 1
    return n


cdef inline uint64_t _playable(const CvpState* s) noexcept nogil:
    """Kinds that may be played in a normal turn now (P1, P2; the opener plays any)."""
    if s.pile_len == 0:
        return ALL_KINDS
    return PLAYABLE[s.pile[s.pile_len - 1]][s.lower]


cdef inline uint64_t _draw_mask(const CvpState* s, int seat) noexcept nogil:
    cdef uint64_t mask = 0
    cdef int i
    for i in range(s.draw_len[seat]):
        mask |= <uint64_t>1 << s.draw[seat][i]
    return mask


cdef inline unsigned int _copy_bits(const CvpState* s, int seat) noexcept nogil:
    """Effects Mimic may copy from seat's hand, as bits (effect - EF_PINCER)."""
    cdef uint64_t mask = s.hand_mask[seat]
    cdef unsigned int bits = 0
    while mask:
        bits |= COPY_BIT[ctz64(mask)]
        mask &= mask - 1
    return bits


cdef int cvp_legal_actions(const CvpState* s, int seat, uint16_t* out) noexcept nogil:
    """Writes seat's legal action ids to out (room for CVP_MAX_LEGAL) in increasing order."""
    cdef int n = 0
    cdef int phase = s.phase
    if phase == PH_OVER or seat != s.to_move:
        return 0
    if phase == PH_TURN:
        n = _mask_ids(s.hand_mask[seat] & _playable(s), CVP_PLAY_BASE, out, 0)
        if s.pile_len:                  # P4: the round's first card cannot be a pass
            out[n] = CVP_PASS
            n += 1
    elif phase == PH_RESPONSE:
        n = _mask_ids(s.hand_mask[seat] & RESIST_KINDS, CVP_PLAY_BASE, out, 0)
        out[n] = CVP_DECLINE
        n += 1
    elif phase == PH_PINCER:
        n = _mask_ids(s.hand_mask[seat ^ 1], CVP_PINCER_BASE, out, 0)
    elif phase == PH_HEAL or phase == PH_DISCARD:
        n = _mask_ids(s.hand_mask[seat], CVP_DISCARD_BASE, out, 0)
    elif phase == PH_SEARCH:
        n = _mask_ids(_draw_mask(s, seat), CVP_SEARCH_BASE, out, 0)
    elif phase == PH_CAPTURE:
        out[0] = CVP_DECLINE
        out[1] = CVP_CAPTURE
        n = 2
    elif phase == PH_MIMIC:
        out[0] = CVP_DECLINE
        n = _mask_ids(_copy_bits(s, seat ^ 1), CVP_COPY_BASE, out, 1)
    elif phase == PH_OFFER:
        n = _mask_ids(s.hand_mask[seat], CVP_GIVE_BASE, out, 0)
    return n


cdef bint cvp_is_legal(const CvpState* s, int seat, int action) noexcept nogil:
    cdef uint16_t legal[CVP_MAX_LEGAL]
    cdef int i, n
    if action < 0 or action >= CVP_N_ACTIONS:
        return False
    n = cvp_legal_actions(s, seat, legal)
    for i in range(n):
        if legal[i] == action:
            return True
    return False


cdef inline void _finish(CvpState* s, int player) noexcept nogil:
    """The effect of player's card is over: the opponent takes a normal turn."""
    s.phase = PH_TURN
    s.to_move = player ^ 1


cdef inline void _decide(CvpState* s, int player, int phase) noexcept nogil:
    s.phase = phase
    s.to_move = player


cdef void _resolve(CvpState* s, int player, int effect) noexcept nogil:
    """Resolves effect for player (who played its card, or copies it with Mimic)."""
    if effect == EF_BLIND:
        _draw(s, player)
    elif effect == EF_REVERSE:
        s.lower = 1
    elif effect == EF_OFFER:
        if s.hand_size[player]:
            _decide(s, player, PH_OFFER)
            return
    elif effect == EF_DRAW_DISCARD:
        _draw(s, player)
        if s.hand_size[player]:
            _decide(s, player, PH_DISCARD)
            return
    elif effect == EF_HEAL:
        if s.hand_size[player]:
            _decide(s, player, PH_HEAL)
            return
        _refill(s, player)
    elif effect == EF_SEARCH:
        if s.draw_len[player]:
            _decide(s, player, PH_SEARCH)
            return
    elif effect == EF_CAPTURE:
        if s.pile_len >= 2:             # nothing is covered when it opened the round
            _decide(s, player, PH_CAPTURE)
            return
    elif effect == EF_PINCER or effect == EF_MIMIC:
        if s.hand_size[player ^ 1]:     # an empty hand reveals nothing
            _decide(s, player, PH_PINCER if effect == EF_PINCER else PH_MIMIC)
            return
    _finish(s, player)


cdef void _play(CvpState* s, int seat, int kind) noexcept nogil:
    """A card from seat's hand onto the round pile in a normal turn."""
    _from_hand(s, seat, kind)
    s.pile[s.pile_len] = kind
    s.pile_len += 1
    s.last_player = seat
    s.lower = 0                         # a Reverse binds one card only
    if _emptied(s, seat):
        return
    if CANCELLABLE[EFFECT[kind]]:       # P3: the opponent may resist first
        s.phase = PH_RESPONSE
        s.to_move = seat ^ 1
    else:
        _resolve(s, seat, EFFECT[kind])


cdef void _resist(CvpState* s, int seat, int kind) noexcept nogil:
    """P3: a Resist on the pile cancels the top card's effect and counts as a turn."""
    _from_hand(s, seat, kind)
    s.pile[s.pile_len] = kind
    s.pile_len += 1
    s.last_player = seat
    if not _emptied(s, seat):
        _finish(s, seat)


cdef void _end_round(CvpState* s) noexcept nogil:
    """P4/P5: the pile goes face down to the discard, both refill, the winner opens."""
    cdef int i, winner = s.last_player
    for i in range(s.pile_len):
        s.discard[s.pile[i]] += 1
    s.discard_size += s.pile_len
    s.pile_len = 0
    s.last_player = CVP_NO_SEAT
    s.lower = 0
    _refill(s, winner)
    _refill(s, winner ^ 1)
    s.round += 1
    s.opener = winner
    s.to_move = winner
    s.phase = PH_TURN


cdef void _remove_from_pile(uint8_t* cards, uint8_t* n, int kind) noexcept nogil:
    """Removes the copy of kind nearest the top of a draw pile (precondition: one is there)."""
    cdef int i = n[0] - 1
    while cards[i] != kind:
        i -= 1
    memmove(&cards[i], &cards[i + 1], n[0] - 1 - i)
    n[0] -= 1


cdef void cvp_apply_action(CvpState* s, int seat, int action) noexcept nogil:
    """Applies a legal action (precondition: cvp_is_legal(s, seat, action))."""
    cdef int phase = s.phase
    cdef int kind, other = seat ^ 1, colour
    if phase == PH_TURN:
        if action == CVP_PASS:
            _end_round(s)
        else:
            _play(s, seat, action)
    elif phase == PH_RESPONSE:
        if action == CVP_DECLINE:
            _resolve(s, other, EFFECT[s.pile[s.pile_len - 1]])
        else:
            _resist(s, seat, action)
    elif phase == PH_PINCER:
        kind = action - CVP_PINCER_BASE
        colour = COLOUR[kind]
        _from_hand(s, other, kind)
        s.draw[colour][s.draw_len[colour]] = kind
        s.draw_len[colour] += 1
        _shuffle(s.draw[colour], s.draw_len[colour], &s.rng)
        if not _emptied(s, other):     # P6: a card taken from them
            _finish(s, seat)
    elif phase == PH_HEAL or phase == PH_DISCARD:
        kind = action - CVP_DISCARD_BASE
        _from_hand(s, seat, kind)
        s.discard[kind] += 1
        s.discard_size += 1
        if not _emptied(s, seat):
            if phase == PH_HEAL:
                _refill(s, seat)
            _finish(s, seat)
    elif phase == PH_SEARCH:
        kind = action - CVP_SEARCH_BASE
        _remove_from_pile(s.draw[seat], &s.draw_len[seat], kind)
        _to_hand(s, seat, kind)
        _shuffle(s.draw[seat], s.draw_len[seat], &s.rng)
        _finish(s, seat)
    elif phase == PH_CAPTURE:
        if action == CVP_CAPTURE:
            _to_hand(s, seat, s.pile[s.pile_len - 2])
            s.pile[s.pile_len - 2] = s.pile[s.pile_len - 1]
            s.pile_len -= 1
        _finish(s, seat)
    elif phase == PH_MIMIC:
        if action == CVP_DECLINE:
            _finish(s, seat)
        else:
            _resolve(s, seat, EF_PINCER + action - CVP_COPY_BASE)
    elif phase == PH_OFFER:
        kind = action - CVP_GIVE_BASE
        _from_hand(s, seat, kind)
        _to_hand(s, other, kind)
        if not _emptied(s, seat):     # P6: giving away the last card
            _finish(s, seat)


cdef int cvp_random_playout(CvpState* s, Rng* rng) noexcept nogil:
    """Plays uniformly random legal actions to the end; returns the number of moves made."""
    cdef uint16_t legal[CVP_MAX_LEGAL]
    cdef int n, moves = 0
    while s.phase != PH_OVER:
        n = cvp_legal_actions(s, s.to_move, legal)
        cvp_apply_action(s, s.to_move, legal[rng_below(rng, n)])
        moves += 1
    return moves


cdef enum:
    FACE_BITS = (1 << CVP_FACES) - 1    # the faces of one colour, as kind bits
    NO_KIND = 255
    # One move in POLICY_NOISE of a policy playout is uniformly random, so that the
    # playouts of one determinization still differ. Measured at 2,500 iterations against
    # the random search (docs/ai.md): 1 in 4, 8 and 16 score alike, none at all less.
    POLICY_NOISE = 8


# Mimic's copies in the rule of thumb's order of preference (Capture never: a card
# taken into the hand is a card more to get rid of); EF_NONE ends the list.
cdef uint8_t MIMIC_ORDER[6]
MIMIC_ORDER[:] = [EF_OFFER, EF_HEAL, EF_PINCER, EF_REVERSE, EF_SEARCH, EF_NONE]


cdef inline int _lowest(uint64_t mask) noexcept nogil:
    """The kind of lowest face in mask (faces are in value order), or NO_KIND."""
    cdef uint64_t a = mask & FACE_BITS, b = (mask >> CVP_FACES) & FACE_BITS
    if not a and not b:
        return NO_KIND
    if not b or (a and ctz64(a) <= ctz64(b)):
        return ctz64(a)
    return CVP_FACES + ctz64(b)


cdef inline int _highest(uint64_t mask) noexcept nogil:
    """The kind of highest face in mask, or NO_KIND."""
    cdef uint64_t a = mask & FACE_BITS, b = (mask >> CVP_FACES) & FACE_BITS
    if not a and not b:
        return NO_KIND
    if not b or (a and 63 - __builtin_clzll(a) > 63 - __builtin_clzll(b)):
        return 63 - __builtin_clzll(a)
    return CVP_FACES + 63 - __builtin_clzll(b)


cdef int _policy_action(const CvpState* s) noexcept nogil:
    """The rule of thumb's move for the seat to move (the game is not over).

    A seat wins by getting rid of its cards, so every card that leaves its hand for
    good is a gain: a turn plays the lowest card it may, keeping the Resists for the
    opponent's effects and Blind and the high cards for when nothing else goes (it
    passes only when nothing does); an opponent's effect is always resisted when it can
    be; a Capture is declined (a card more to get rid of); an Offer gives the lowest
    card and a discard drops it (an alpha only opens a round); a Search takes the
    highest card; a Pincer sends back the opponent's highest card of the opponent's own
    colour (a card of one's own colour would come back to one's own pile); a Mimic
    copies what rids its seat of a card (Offer, Heal) or hinders the opponent.
    Measured against other rules at 2,500 iterations (docs/ai.md): playing the highest
    card instead loses badly, and keeping the Resists out of the turns wins clearly.
    """
    cdef int seat = s.to_move, phase = s.phase, kind, i
    cdef uint64_t mask
    cdef unsigned int bits
    if phase == PH_TURN:
        mask = s.hand_mask[seat] & _playable(s)
        kind = _lowest(mask & ~BLIND_KINDS & ~RESIST_KINDS)
        if kind == NO_KIND:
            kind = _lowest(mask & ~BLIND_KINDS)
        if kind == NO_KIND:
            kind = _lowest(mask)
        return CVP_PASS if kind == NO_KIND else CVP_PLAY_BASE + kind
    if phase == PH_RESPONSE:
        kind = _lowest(s.hand_mask[seat] & RESIST_KINDS)
        return CVP_DECLINE if kind == NO_KIND else CVP_PLAY_BASE + kind
    if phase == PH_PINCER:
        mask = s.hand_mask[seat ^ 1]
        kind = _highest(mask & (<uint64_t>FACE_BITS << (CVP_FACES * (seat ^ 1))))
        return CVP_PINCER_BASE + (_lowest(mask) if kind == NO_KIND else kind)
    if phase == PH_HEAL or phase == PH_DISCARD:
        return CVP_DISCARD_BASE + _lowest(s.hand_mask[seat])
    if phase == PH_OFFER:
        return CVP_GIVE_BASE + _lowest(s.hand_mask[seat])
    if phase == PH_SEARCH:
        return CVP_SEARCH_BASE + _highest(_draw_mask(s, seat))
    if phase == PH_CAPTURE:
        return CVP_DECLINE
    if phase == PH_MIMIC:
        bits = _copy_bits(s, seat ^ 1)
        for i in range(6):
            if MIMIC_ORDER[i] == EF_NONE:
                break
            if bits >> (MIMIC_ORDER[i] - EF_PINCER) & 1:
                return CVP_COPY_BASE + MIMIC_ORDER[i] - EF_PINCER
    return CVP_DECLINE


cdef int cvp_policy_playout(CvpState* s, Rng* rng) noexcept nogil:
    """Plays to the end by _policy_action, with one move in POLICY_NOISE uniformly random
    (so that the playouts of one determinization still differ); returns the moves made."""
    cdef uint16_t legal[CVP_MAX_LEGAL]
    cdef int n, action, moves = 0
    while s.phase != PH_OVER:
        if rng_below(rng, POLICY_NOISE) != 0:
            action = _policy_action(s)
        else:
            n = cvp_legal_actions(s, s.to_move, legal)
            action = legal[rng_below(rng, n)]
        cvp_apply_action(s, s.to_move, action)
        moves += 1
    return moves


# ---------------------------------------------------------------------------
# Moves in their JSON form

_MOVE_FIELDS = {"play": ("card",), "pass": (), "decline": (), "capture": (),
                "pincer": ("card",), "discard": ("card",), "search": ("card",),
                "give": ("card",), "copy": ("effect",)}
_CARD_BASES = {"play": CVP_PLAY_BASE, "pincer": CVP_PINCER_BASE,
               "discard": CVP_DISCARD_BASE, "search": CVP_SEARCH_BASE,
               "give": CVP_GIVE_BASE}
cdef list _ACTION_INTS = list(range(CVP_N_ACTIONS))  # shared int objects: cheap id lists


def _build_move(int action) -> dict:
    if action < CVP_PASS:
        return {"type": "play", "card": CARD_NAMES[action]}
    if action == CVP_PASS:
        return {"type": "pass"}
    if action == CVP_DECLINE:
        return {"type": "decline"}
    if action == CVP_CAPTURE:
        return {"type": "capture"}
    if action >= CVP_COPY_BASE:
        return {"type": "copy", "effect": COPYABLE[action - CVP_COPY_BASE]}
    for kind in ("give", "search", "discard", "pincer"):
        if action >= _CARD_BASES[kind]:
            return {"type": kind, "card": CARD_NAMES[action - _CARD_BASES[kind]]}


cdef list _MOVES = [_build_move(a) for a in range(CVP_N_ACTIONS)]  # templates, never handed out


def move_of_action(int action) -> dict:
    """The JSON form of an action id (ids are fixed: see docs/rules.md)."""
    if action < 0 or action >= CVP_N_ACTIONS:
        raise ValueError(f"action ids of {NAME} are 0 to {CVP_N_ACTIONS - 1}, got {action}")
    return (<dict>_MOVES[action]).copy()


def _card_kind(name: object) -> int:
    kind = _KIND_OF.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalMove(f"unknown card {name!r}; a card is named colour-face, colour one of"
                          f" {', '.join(COLOURS)} and face one of {', '.join(FACE_NAMES)}"
                          " (e.g. 'crab-7', 'octopus-omega')")
    return kind


def action_of_move(move: object) -> int:
    """The action id of a well-formed move (legal or not); IllegalMove saying what is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove('a move is a JSON object such as {"type": "play", "card": "crab-7"},'
                          f" got {type(move).__name__}")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in _MOVE_FIELDS:
        raise IllegalMove(f"unknown move type {kind!r}; {NAME} moves are: "
                          + ", ".join(_MOVE_FIELDS))
    fields = ("type",) + _MOVE_FIELDS[kind]
    if len(move) != len(fields) or not all(field in move for field in fields):
        raise IllegalMove(f"a {kind!r} move has exactly the fields {', '.join(fields)};"
                          f" got {', '.join(sorted(map(str, move)))}")
    if kind == "pass":
        return CVP_PASS
    if kind == "decline":
        return CVP_DECLINE
    if kind == "capture":
        return CVP_CAPTURE
    if kind == "copy":
        effect = move["effect"]
        index = _COPY_OF.get(effect) if isinstance(effect, str) else None
        if index is None:
            raise IllegalMove(f"unknown effect {effect!r}; Mimic copies one of"
                              f" {', '.join(COPYABLE)}")
        return CVP_COPY_BASE + index
    return _CARD_BASES[kind] + _card_kind(move["card"])


cdef list _card_list(const uint8_t* counts):
    """Card names in canonical (kind) order, each repeated as often as counted."""
    cdef int kind
    out = []
    for kind in range(CVP_KINDS):
        if counts[kind]:
            out.extend([CARD_NAMES[kind]] * counts[kind])
    return out


cdef list _sorted_cards(const uint8_t* cards, int n):
    cdef uint8_t counts[CVP_KINDS]
    cdef int i
    memset(counts, 0, CVP_KINDS)
    for i in range(n):
        counts[cards[i]] += 1
    return _card_list(counts)


cdef dict _deck_dict(const uint8_t* deck):
    return {CARD_NAMES[kind]: deck[kind] for kind in range(CVP_KINDS) if deck[kind]}


cdef str _card_text(int kind):
    """A card for messages: name, value and effect."""
    effect = EFFECT[kind]
    text = f"{CARD_NAMES[kind]} (value {VALUE_NAMES[RANK[kind]]}"
    return text + (f", {EFFECT_NAMES[effect]})" if effect else ")")


# ---------------------------------------------------------------------------
# Why a move is refused (the message says what to do instead)

cdef str _phase_task(const CvpState* s):
    """What the seat to move is asked to do now."""
    cdef int phase = s.phase
    top = CARD_NAMES[s.pile[s.pile_len - 1]] if s.pile_len else None
    if phase == PH_TURN:
        if s.pile_len == 0:
            return "open the round with any card of your hand (the opener cannot pass)"
        return 'play a card higher than the top card, or {"type": "pass"}'
    if phase == PH_RESPONSE:
        return (f"answer seat {s.last_player}'s {top}: play a Resist card to cancel its"
                ' effect, or {"type": "decline"}')
    if phase == PH_PINCER:
        return 'choose a card of the revealed hand: {"type": "pincer", "card": ...}'
    if phase == PH_HEAL:
        return 'discard a card (Heal), then refill: {"type": "discard", "card": ...}'
    if phase == PH_DISCARD:
        return 'discard a card (Draw and Discard): {"type": "discard", "card": ...}'
    if phase == PH_SEARCH:
        return 'take a card of your draw pile: {"type": "search", "card": ...}'
    if phase == PH_CAPTURE:
        return 'take the covered card with {"type": "capture"} or {"type": "decline"}'
    if phase == PH_MIMIC:
        return ('copy an effect of the revealed hand: {"type": "copy", "effect": ...},'
                ' or {"type": "decline"}')
    return 'give a card to your opponent (Offer): {"type": "give", "card": ...}'


cdef str _why_not_play(const CvpState* s, int seat, int kind):
    cdef int top
    if not s.hand[seat][kind]:
        return (f"{CARD_NAMES[kind]} is not in your hand; your hand is"
                f" {_card_list(s.hand[seat])}")
    if s.phase == PH_RESPONSE:
        return (f"only a Resist card can answer seat {s.last_player}'s card now, and"
                f" {_card_text(kind)} is not one; send a Resist or decline")
    top = s.pile[s.pile_len - 1]
    if EFFECT[kind] == EF_START:
        return ("an alpha (Start) cannot be played on another card: it only opens a round"
                " (ruling P2)")
    if EFFECT[kind] == EF_BLIND:
        return "Blind may be played on any card except an omega (ruling P2)"
    if s.lower:
        return (f"after a Reverse the next card must be strictly lower than"
                f" {_card_text(top)}; {_card_text(kind)} is not (ruling P1)")
    return (f"{_card_text(kind)} is not strictly higher than the top card"
            f" {_card_text(top)} (ruling P1)")


cdef str _why_illegal(const CvpState* s, int seat, int action):
    cdef int phase = s.phase, kind
    if phase == PH_OVER:
        return f"the game is over (seat {s.winner} won): no more moves"
    if seat != s.to_move:
        if phase == PH_TURN:
            return f"it is seat {s.to_move}'s turn to play, not seat {seat}'s"
        return (f"seat {s.to_move} has a decision to make ({PHASE_NAMES[phase]}),"
                f" not seat {seat}")
    move = _MOVES[action]
    wanted = move["type"]
    allowed = {PH_TURN: ("play", "pass"), PH_RESPONSE: ("play", "decline"),
               PH_PINCER: ("pincer",), PH_HEAL: ("discard",), PH_DISCARD: ("discard",),
               PH_SEARCH: ("search",), PH_CAPTURE: ("capture", "decline"),
               PH_MIMIC: ("copy", "decline"), PH_OFFER: ("give",)}[phase]
    if wanted not in allowed:
        return f"a {wanted!r} move is not possible now: {_phase_task(s)}"
    if wanted == "pass":
        return "the round opener must play a card first (ruling P4)"
    if wanted == "play":
        return _why_not_play(s, seat, action)
    if wanted == "copy":
        bits = _copy_bits(s, seat ^ 1)
        there = [COPYABLE[i] for i in range(len(COPYABLE)) if bits >> i & 1]
        return (f"the revealed hand has no card with the effect {move['effect']};"
                f" copyable there: {there}")
    kind = _KIND_OF[move["card"]]
    if wanted == "pincer":
        return (f"{move['card']} is not in the revealed hand"
                f" {_card_list(s.hand[seat ^ 1])}")
    if wanted == "search":
        return (f"{move['card']} is not in your draw pile"
                f" {_sorted_cards(s.draw[seat], s.draw_len[seat])}")
    return f"{move['card']} is not in your hand; your hand is {_card_list(s.hand[seat])}"


# ---------------------------------------------------------------------------
# Consistency of a position built from outside (a snapshot or a stored blob)

cdef void _derive(CvpState* s) noexcept:
    """Fills the fields that are kept for speed but follow from the others."""
    cdef int seat, kind
    for seat in range(CVP_PLAYERS):
        s.hand_size[seat] = 0
        s.hand_mask[seat] = 0
        for kind in range(CVP_KINDS):
            s.hand_size[seat] += s.hand[seat][kind]
            if s.hand[seat][kind]:
                s.hand_mask[seat] |= <uint64_t>1 << kind
    s.discard_size = 0
    for kind in range(CVP_KINDS):
        s.discard_size += s.discard[kind]
    if s.phase == PH_OVER or s.phase > PH_OVER:
        s.to_move = CVP_NO_SEAT
    elif s.phase == PH_TURN:
        s.to_move = s.opener if s.pile_len == 0 else s.last_player ^ 1
    elif s.phase == PH_RESPONSE:
        s.to_move = s.last_player ^ 1
    else:
        s.to_move = s.last_player


cdef str _deck_problem(const uint8_t* deck):
    cdef int colour, face, total
    for colour in range(CVP_COLOURS):
        total = 0
        for face in range(CVP_FACES):
            total += deck[colour * CVP_FACES + face]
        if not CVP_MIN_PER_COLOUR <= total <= CVP_MAX_PER_COLOUR:
            return (f"the {COLOURS[colour]} deck has {total} cards; a deck has"
                    f" {CVP_MIN_PER_COLOUR} to {CVP_MAX_PER_COLOUR} cards of each colour")
    return None


cdef str _position_problem(const CvpState* s):
    """Why this position cannot arise in a game (None when it can)."""
    cdef int seat, kind, i, top, effect, phase = s.phase
    cdef int count[CVP_KINDS]
    if (phase > PH_OVER or s.mode > 2 or s.first_player > 1 or s.opener > 1
            or s.lower > 1 or s.round < 1
            or (s.last_player > 1 and s.last_player != CVP_NO_SEAT)
            or (s.winner > 1 and s.winner != CVP_NO_SEAT)):
        return "phase, mode, round or a seat number out of range"
    problem = _deck_problem(s.deck)
    if problem:
        return problem
    memset(count, 0, sizeof(count))
    for kind in range(CVP_KINDS):
        count[kind] = s.discard[kind] + s.hand[0][kind] + s.hand[1][kind]
    for i in range(s.pile_len):
        count[s.pile[i]] += 1
    for seat in range(CVP_PLAYERS):
        for i in range(s.draw_len[seat]):
            if COLOUR[s.draw[seat][i]] != seat:
                return (f"the {COLOURS[seat]} draw pile holds {CARD_NAMES[s.draw[seat][i]]}:"
                        " a draw pile only holds cards of its colour")
            count[s.draw[seat][i]] += 1
    for kind in range(CVP_KINDS):
        if count[kind] != s.deck[kind]:
            return (f"{count[kind]} {CARD_NAMES[kind]} cards in play, the deck has"
                    f" {s.deck[kind]}")
    if s.round > s.discard_size + 1:   # every finished round sent at least one card there
        return f"round {s.round} cannot come after only {s.discard_size} discarded cards"
    if (s.pile_len == 0) != (s.last_player == CVP_NO_SEAT):
        return "last_player names who played the top card: null exactly when the pile is empty"
    if (phase == PH_OVER) != (s.winner != CVP_NO_SEAT):
        return "a winner is named exactly when the game is over"
    if phase == PH_OVER:
        if s.hand_size[s.winner] or s.draw_len[s.winner]:
            return f"the winner, seat {s.winner}, still has cards (ruling P6)"
        if s.lower or s.pile_len == 0:
            return "a game ends while a card is on the pile, with no Reverse pending"
        return None
    for seat in range(CVP_PLAYERS):
        if s.hand_size[seat] == 0 and s.draw_len[seat] == 0:
            return f"seat {seat} has no cards left, so the game should be over (ruling P6)"
    if s.pile_len == 0:
        if phase != PH_TURN or s.lower:
            return "an empty round pile means the opener is about to play"
        if s.hand_size[s.opener] == 0:   # a round opens with a card from the hand
            return f"the opener, seat {s.opener}, has no card in hand to open the round"
        return None
    top = s.pile[s.pile_len - 1]
    effect = EFFECT[top]
    if s.lower and (phase != PH_TURN or (effect != EF_REVERSE and effect != EF_MIMIC)):
        return "only a resolved Reverse (or a Mimic copying one) asks for a lower card"
    if phase == PH_RESPONSE and not CANCELLABLE[effect]:
        return f"the top card {CARD_NAMES[top]} has no effect to resist"
    if phase > PH_RESPONSE:
        seat = s.last_player
        if phase == PH_MIMIC and effect != EF_MIMIC:
            return "a Mimic choice needs a Mimic on top of the pile"
        if effect != PHASE_EFFECT[phase] and effect != EF_MIMIC:
            return f"the top card {CARD_NAMES[top]} does not resolve {PHASE_NAMES[phase]}"
        if phase == PH_CAPTURE and s.pile_len < 2:
            return "Capture needs a covered card"
        if (phase == PH_PINCER or phase == PH_MIMIC) and not s.hand_size[seat ^ 1]:
            return "the opponent has no hand to reveal"
        if (phase == PH_HEAL or phase == PH_DISCARD or phase == PH_OFFER) and not s.hand_size[seat]:
            return f"seat {seat} has no card to {PHASE_NAMES[phase]}"
        if phase == PH_SEARCH and not s.draw_len[seat]:
            return f"seat {seat} has no draw pile to search"
    return None


cdef str _stuck_problem(const CvpState* s):
    """A game not over must give the seat to move a legal move, else it can never continue."""
    cdef uint16_t legal[CVP_MAX_LEGAL]
    if s.phase == PH_OVER or cvp_legal_actions(s, s.to_move, legal):
        return None
    return f"seat {s.to_move} is to move but has no legal move, yet the game is not over"


cdef void _check_position(CvpState* s) except *:
    _derive(s)
    problem = _position_problem(s) or _stuck_problem(s)
    if problem:
        raise InvalidState(f"not a possible {NAME} position: {problem}")


# ---------------------------------------------------------------------------
# Snapshots (complete positions as dicts) and the compact binary payload

_SNAPSHOT_KEYS = ("game", "players", "mode", "deck", "phase", "round", "first_player",
                  "opener", "last_player", "lower", "winner", "pile", "discard", "seats")
_SNAPSHOT_SEAT_KEYS = ("hand", "draw_pile")


cdef int _snap_int(value, str what, int low, int high) except -1:
    if type(value) is not int or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer from {low} to {high}, got {value!r}")
    return value


cdef int _snap_seat(value, str what, bint nullable) except -1:
    if value is None and nullable:
        return CVP_NO_SEAT
    return _snap_int(value, what + (" (or null)" if nullable else ""), 0, 1)


cdef int _snap_cards(uint8_t* out, cards, str what, int limit) except -1:
    """Card names into kinds; returns how many."""
    if not isinstance(cards, list) or len(cards) > limit:
        raise InvalidState(f"{what} must be a list of at most {limit} card names")
    for i, name in enumerate(cards):
        kind = _KIND_OF.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InvalidState(f"{what}: unknown card {name!r}")
        out[i] = kind
    return len(cards)


cdef void _snap_counts(uint8_t* counts, cards, str what) except *:
    cdef uint8_t kinds[CVP_MAX_CARDS]
    cdef int i, n = _snap_cards(kinds, cards, what, CVP_MAX_CARDS)
    for i in range(n):
        counts[kinds[i]] += 1


cdef void _fill_from_snapshot(CvpState* s, snap) except *:
    cdef uint8_t cards[CVP_MAX_CARDS]
    cdef int i, n, seat
    if not isinstance(snap, dict) or not set(_SNAPSHOT_KEYS) <= set(snap):
        raise InvalidState(f"a snapshot is a dict with keys {list(_SNAPSHOT_KEYS)}")
    if snap["game"] != NAME:
        raise InvalidState(f"not a {NAME} snapshot: game is {snap['game']!r}")
    if snap["players"] != CVP_PLAYERS or type(snap["players"]) is not int:
        raise InvalidState(f"{NAME} is for exactly 2 players, got {snap['players']!r}")
    memset(s, 0, sizeof(CvpState))
    if snap["mode"] not in MODES:
        raise InvalidState(f"mode must be one of {', '.join(MODES)}, got {snap['mode']!r}")
    s.mode = MODES.index(snap["mode"])
    _fill_deck(s.deck, snap["deck"], InvalidState)
    if snap["phase"] not in PHASE_NAMES:
        raise InvalidState(f"phase must be one of {', '.join(PHASE_NAMES)},"
                           f" got {snap['phase']!r}")
    s.phase = PHASE_NAMES.index(snap["phase"])
    s.round = _snap_int(snap["round"], "round", 1, 65535)
    s.first_player = _snap_seat(snap["first_player"], "first_player", False)
    s.opener = _snap_seat(snap["opener"], "opener", False)
    s.last_player = _snap_seat(snap["last_player"], "last_player", True)
    s.winner = _snap_seat(snap["winner"], "winner", True)
    if type(snap["lower"]) is not bool:
        raise InvalidState("lower must be true or false")
    s.lower = snap["lower"]
    s.pile_len = _snap_cards(s.pile, snap["pile"], "pile", CVP_MAX_CARDS)
    _snap_counts(s.discard, snap["discard"], "discard")
    seats = snap["seats"]
    if not isinstance(seats, list) or len(seats) != CVP_PLAYERS:
        raise InvalidState("seats must be a list with one entry per player")
    for seat, info in enumerate(seats):
        if not isinstance(info, dict) or not set(_SNAPSHOT_SEAT_KEYS) <= set(info):
            raise InvalidState(f"seat {seat} must have keys {list(_SNAPSHOT_SEAT_KEYS)}")
        _snap_counts(s.hand[seat], info["hand"], f"seat {seat} hand")
        n = _snap_cards(cards, info["draw_pile"], f"seat {seat} draw_pile", CVP_MAX_PER_COLOUR)
        for i in range(n):                  # listed top first, stored top last
            s.draw[seat][n - 1 - i] = cards[i]
        s.draw_len[seat] = n


cdef void _fill_deck(uint8_t* deck, value, error) except *:
    """A deck composition {card name: copies} into counts; error(message) if invalid."""
    memset(deck, 0, CVP_KINDS)
    if not isinstance(value, dict) or not value:
        raise error("deck must be a dict {card name: copies}, e.g. {\"crab-7\": 2, ...}")
    for name, copies in value.items():
        kind = _KIND_OF.get(name) if isinstance(name, str) else None
        if kind is None:
            raise error(f"deck: unknown card {name!r}; a card is named colour-face, colour"
                        f" one of {', '.join(COLOURS)} and face one of {', '.join(FACE_NAMES)}")
        if type(copies) is not int or not 0 <= copies <= CVP_MAX_PER_COLOUR:
            raise error(f"deck: copies of {name} must be an integer from 0 to"
                        f" {CVP_MAX_PER_COLOUR}, got {copies!r}")
        deck[kind] = copies
    problem = _deck_problem(deck)
    if problem:
        raise error(f"deck: {problem}")


cdef bytes _payload(const CvpState* s):
    """Header (9 bytes), PRNG (8), deck, hands, draw piles, round pile, discard."""
    cdef int seat
    out = bytearray((s.mode, s.phase, s.first_player, s.opener, s.last_player, s.lower,
                     s.winner, s.round & 255, s.round >> 8))
    out += struct.pack("<Q", s.rng.state)
    out += s.deck[:CVP_KINDS]
    for seat in range(CVP_PLAYERS):
        out += s.hand[seat][:CVP_KINDS]
        out.append(s.draw_len[seat])
        out += s.draw[seat][:s.draw_len[seat]]
    out.append(s.pile_len)
    out += s.pile[:s.pile_len]
    out += s.discard[:CVP_KINDS]
    return bytes(out)


cdef void _fill_from_payload(CvpState* s, bytes data) except *:
    cdef int seat, kind, at, n, i
    cdef int size = len(data)
    memset(s, 0, sizeof(CvpState))
    if size < 17 + CVP_KINDS:
        raise InvalidState(f"stored {NAME} state is truncated or damaged")
    s.mode, s.phase, s.first_player, s.opener = data[0], data[1], data[2], data[3]
    s.last_player, s.lower, s.winner = data[4], data[5], data[6]
    s.round = data[7] | data[8] << 8
    s.rng.state = struct.unpack_from("<Q", data, 9)[0]
    at = 17
    for kind in range(CVP_KINDS):
        s.deck[kind] = data[at + kind]
    at += CVP_KINDS
    for seat in range(CVP_PLAYERS):
        if at + CVP_KINDS + 1 > size:
            raise InvalidState(f"stored {NAME} state is truncated")
        for kind in range(CVP_KINDS):
            s.hand[seat][kind] = data[at + kind]
        at += CVP_KINDS
        n = data[at]
        if n > CVP_MAX_PER_COLOUR or at + 1 + n > size:
            raise InvalidState(f"stored {NAME} state has a damaged draw pile")
        for i in range(n):
            s.draw[seat][i] = data[at + 1 + i]
            if s.draw[seat][i] >= CVP_KINDS:
                raise InvalidState(f"stored {NAME} state has an unknown card")
        s.draw_len[seat] = n
        at += 1 + n
    if at >= size or data[at] > CVP_MAX_CARDS or at + 1 + data[at] > size:
        raise InvalidState(f"stored {NAME} state has a damaged round pile")
    n = data[at]
    for i in range(n):
        s.pile[i] = data[at + 1 + i]
        if s.pile[i] >= CVP_KINDS:
            raise InvalidState(f"stored {NAME} state has an unknown card")
    s.pile_len = n
    at += 1 + n
    if at + CVP_KINDS != size:
        raise InvalidState(f"stored {NAME} state has a damaged discard or trailing bytes")
    for kind in range(CVP_KINDS):
        s.discard[kind] = data[at + kind]


# ---------------------------------------------------------------------------
# The Python face: the interface every game of core shares (core/interface.py)

cdef class CrabeVsPoulpeState(GameStateBase):
    """A Crabe vs Poulpe game in progress. Create with core.new_game("crabe-vs-poulpe", 2)."""

    cdef CvpState s

    cdef void* c_state(self) noexcept:
        return &self.s

    # -- who moves, what they may do ---------------------------------------

    @property
    def game(self) -> str:
        return NAME

    @property
    def players(self) -> int:
        return CVP_PLAYERS

    @property
    def is_over(self) -> bool:
        return self.s.phase == PH_OVER

    @property
    def to_move(self) -> tuple:
        """The one seat that decides now (a turn, a response or an effect's choice)."""
        return () if self.s.phase == PH_OVER else (self.s.to_move,)

    cdef int _seat(self, seat, error) except -1:
        if type(seat) is not int or not 0 <= seat < CVP_PLAYERS:
            raise error(f"seat must be an integer from 0 to 1, got {seat!r}")
        return seat

    def legal_actions(self, int seat) -> list:
        """Legal action ids for seat, in increasing order (the order of legal_moves)."""
        cdef uint16_t buf[CVP_MAX_LEGAL]
        cdef int n, i
        if not 0 <= seat < CVP_PLAYERS:
            raise ValueError(f"seat must be from 0 to 1, got {seat}")
        n = cvp_legal_actions(&self.s, seat, buf)
        out = PyList_New(n)
        for i in range(n):
            item = _ACTION_INTS[buf[i]]
            Py_INCREF(item)
            PyList_SET_ITEM(out, i, item)
        return out

    def legal_moves(self, seat) -> list:
        """Every legal move of seat in its JSON form, canonical, without duplicates."""
        cdef uint16_t buf[CVP_MAX_LEGAL]
        cdef int n = cvp_legal_actions(&self.s, self._seat(seat, ValueError), buf)
        return [(<dict>_MOVES[buf[i]]).copy() for i in range(n)]

    def move_of(self, int action) -> dict:
        return move_of_action(action)

    def action_of(self, move) -> int:
        """The id of a well-formed move (legal or not); IllegalMove if malformed."""
        return action_of_move(move)

    def observed_by(self, seat: int):
        """What seat is shown now that no later view keeps: the opponent's hand while seat
        chooses a Pincer or Mimic (P8), as {"revealed": [...]}; None otherwise."""
        cdef int who = self._seat(seat, ValueError)
        if (who != self.s.to_move or self.s.phase == PH_OVER
                or (self.s.phase != PH_PINCER and self.s.phase != PH_MIMIC)):
            return None
        return {"revealed": _card_list(self.s.hand[who ^ 1])}

    def visible_move(self, actor: int, move: dict, viewer) -> dict:
        """A logged move of actor as viewer (None: a spectator) may see it (ruling P8).

        Discards are face down and a card taken by Search comes from a hidden pile: only
        their maker sees which card. The card given by Offer and the card a Pincer sends
        back are known to both players, not to spectators. Everything else is public.
        """
        kind = move.get("type") if isinstance(move, dict) else None
        if viewer != actor and (kind == "discard" or kind == "search"):
            return {"type": kind, "card": None}
        if viewer is None and (kind == "give" or kind == "pincer"):
            return {"type": kind, "card": None}
        return move

    # -- applying moves -----------------------------------------------------

    def verify_move(self, seat, move) -> int:
        """The action id of move if seat may make it now, else IllegalMove saying why."""
        cdef int who = self._seat(seat, IllegalMove)
        cdef int action = action_of_move(move)
        if not cvp_is_legal(&self.s, who, action):
            raise IllegalMove(_why_illegal(&self.s, who, action))
        return action

    def apply(self, seat, move) -> None:
        """Applies move for seat; IllegalMove (state untouched) if it is not legal now."""
        cdef int action = self.verify_move(seat, move)
        cvp_apply_action(&self.s, seat, action)

    def apply_action(self, int seat, int action) -> None:
        """The integer path of apply: the same checks, no JSON."""
        if not 0 <= seat < CVP_PLAYERS:
            raise IllegalMove(f"seat must be from 0 to 1, got {seat}")
        if not cvp_is_legal(&self.s, seat, action):
            if not 0 <= action < CVP_N_ACTIONS:
                raise IllegalMove(f"action ids are 0 to {CVP_N_ACTIONS - 1}, got {action}")
            raise IllegalMove(_why_illegal(&self.s, seat, action))
        cvp_apply_action(&self.s, seat, action)

    def playout(self, seed=None) -> int:
        """Plays random moves to the end, in C without the GIL; returns the moves made.

        Uses the state's own PRNG, or a fresh one seeded with `seed` (the shuffles of
        Pincer and Search always use the state's own PRNG).
        """
        cdef Rng rng
        cdef int moves
        if seed is None:
            with nogil:
                moves = cvp_random_playout(&self.s, &self.s.rng)
        else:
            rng_seed(&rng, fresh_seed(seed))
            with nogil:
                moves = cvp_random_playout(&self.s, &rng)
        return moves

    # -- what each seat sees ------------------------------------------------

    cdef object _pending(self):
        """The effect awaiting a response or being resolved, or None."""
        cdef int phase = self.s.phase
        if phase == PH_TURN or phase == PH_OVER:
            return None
        top = self.s.pile[self.s.pile_len - 1]
        if phase == PH_RESPONSE:
            return {"card": CARD_NAMES[top], "effect": EFFECT_NAMES[EFFECT[top]],
                    "seat": self.s.last_player}
        return {"card": CARD_NAMES[top], "effect": EFFECT_NAMES[PHASE_EFFECT[phase]],
                "seat": self.s.last_player}

    def view(self, seat=None) -> dict:
        """Everything `seat` may know (ruling P8); seat None is a spectator.

        `revealed` is the opponent's hand, shown only to the seat choosing a Pincer or a
        Mimic, while it chooses; `draw_pile` is the seat's own draw pile, shown only while
        it chooses a Search. Discards, draw-pile order, the seed and the PRNG are never shown.
        """
        cdef int who = -1
        cdef int phase = self.s.phase
        if seat is not None:
            who = self._seat(seat, ValueError)
        deciding = who >= 0 and phase != PH_OVER and who == self.s.to_move
        return {
            "game": NAME, "players": CVP_PLAYERS, "seat": seat, "mode": MODES[self.s.mode],
            "phase": PHASE_NAMES[phase], "round": self.s.round,
            "first_player": self.s.first_player, "opener": self.s.opener,
            "to_move": list(self.to_move),
            "pile": [CARD_NAMES[self.s.pile[i]] for i in range(self.s.pile_len)],
            "last_player": None if self.s.pile_len == 0 else self.s.last_player,
            "lower": bool(self.s.lower), "pending": self._pending(),
            "discard_size": self.s.discard_size,
            "seats": [{"seat": i, "colour": COLOURS[i], "hand_size": self.s.hand_size[i],
                       "draw_size": self.s.draw_len[i]} for i in range(CVP_PLAYERS)],
            "hand": None if who < 0 else _card_list(self.s.hand[who]),
            "revealed": (_card_list(self.s.hand[who ^ 1])
                         if deciding and (phase == PH_PINCER or phase == PH_MIMIC) else None),
            "draw_pile": (_sorted_cards(self.s.draw[who], self.s.draw_len[who])
                          if deciding and phase == PH_SEARCH else None),
            "deck": _deck_dict(self.s.deck),
            "winner": None if phase != PH_OVER else self.s.winner,
        }

    def result(self):
        """The winner (ruling P6) and the cards each seat had left; None until over."""
        if self.s.phase != PH_OVER:
            return None
        return self._ranked(self.s.winner)

    def forfeit_result(self, absent) -> dict:
        """The result if the game ended now because the seats in absent walked away: the
        other seat wins. With both absent, nobody wins and both share the last place
        (docs/rules.md, "A game ended by a turn clock")."""
        absent = sorted(set(absent))
        for seat in absent:
            self._seat(seat, ValueError)
        if len(absent) == 1:
            return self._ranked(absent[0] ^ 1)
        left = [self.s.hand_size[i] + self.s.draw_len[i] for i in range(CVP_PLAYERS)]
        return {"winner": None, "winners": [], "cards_left": left, "rounds": self.s.round,
                "ranking": [{"seat": seat, "rank": CVP_PLAYERS, "cards_left": left[seat]}
                            for seat in range(CVP_PLAYERS)]}

    def _ranked(self, int winner) -> dict:
        left = [self.s.hand_size[i] + self.s.draw_len[i] for i in range(CVP_PLAYERS)]
        return {
            "winner": winner, "winners": [winner], "cards_left": left,
            "rounds": self.s.round,
            "ranking": [{"seat": winner, "rank": 1, "cards_left": left[winner]},
                        {"seat": winner ^ 1, "rank": 2, "cards_left": left[winner ^ 1]}],
        }

    def snapshot(self) -> dict:
        """The complete position, hidden cards included (never show it to a player)."""
        return {
            "game": NAME, "players": CVP_PLAYERS, "mode": MODES[self.s.mode],
            "deck": _deck_dict(self.s.deck), "phase": PHASE_NAMES[self.s.phase],
            "round": self.s.round, "first_player": self.s.first_player,
            "opener": self.s.opener,
            "last_player": None if self.s.pile_len == 0 else self.s.last_player,
            "lower": bool(self.s.lower),
            "winner": None if self.s.phase != PH_OVER else self.s.winner,
            "pile": [CARD_NAMES[self.s.pile[i]] for i in range(self.s.pile_len)],
            "discard": _card_list(self.s.discard),
            "seats": [{
                "hand": _card_list(self.s.hand[i]),
                "draw_pile": [CARD_NAMES[self.s.draw[i][self.s.draw_len[i] - 1 - j]]
                              for j in range(self.s.draw_len[i])],   # top first
            } for i in range(CVP_PLAYERS)],
        }

    # -- copies and storage ---------------------------------------------------

    def clone(self) -> CrabeVsPoulpeState:
        cdef CrabeVsPoulpeState copy = CrabeVsPoulpeState.__new__(CrabeVsPoulpeState)
        copy.s = self.s
        return copy

    def to_bytes(self) -> bytes:
        """The compact, versioned, checksummed form for storage (core.from_bytes reads it)."""
        return _codec.frame(NAME, _payload(&self.s))

    def __repr__(self) -> str:
        return (f"<CrabeVsPoulpeState round {self.s.round}, {PHASE_NAMES[self.s.phase]},"
                f" to move {list(self.to_move)}>")


cdef CvpState* cvp_state_of(object state) except NULL:
    """The C state inside a CrabeVsPoulpeState (for the AI adapter, core/games/cvp/search.pyx)."""
    if not isinstance(state, CrabeVsPoulpeState):
        raise TypeError(f"expected a {NAME} state, got {type(state).__name__}")
    return &(<CrabeVsPoulpeState>state).s


# ---------------------------------------------------------------------------
# Constructors (core.new_game, core.from_bytes and core.from_snapshot call these)

cdef int _parse_options(options, uint8_t* deck) except -1:
    """Validates options (all but first_player) into deck; returns the mode index."""
    if not isinstance(options, dict) or not set(options) <= set(OPTIONS):
        raise ValueError(f"{NAME} options are a dict with keys among {list(OPTIONS)},"
                         f" got {options!r}")
    mode = options.get("mode")
    if mode is not None and mode not in DECKS:
        raise ValueError(f"mode must be one of {', '.join(DECKS)}, got {mode!r}")
    if "deck" in options:
        _fill_deck(deck, options["deck"], ValueError)
        return 2 if mode is None else MODES.index(mode)
    _fill_deck(deck, DECKS[mode or "symmetrical"], ValueError)
    return MODES.index(mode or "symmetrical")


def new_game(int players, seed=None, options=None) -> CrabeVsPoulpeState:
    """A new game. Options: mode ("symmetrical" default, or "asymmetrical"), deck
    ({card name: copies}, replacing the mode's deck), first_player (0 or 1; default random).
    """
    cdef Rng rng
    cdef uint8_t deck[CVP_KINDS]
    cdef int mode
    cdef CrabeVsPoulpeState state = CrabeVsPoulpeState.__new__(CrabeVsPoulpeState)
    if players != CVP_PLAYERS:
        raise ValueError(f"{NAME} is for exactly 2 players, got {players}")
    options = {} if options is None else options
    mode = _parse_options(options, deck)
    rng_seed(&rng, fresh_seed(seed))
    cvp_deal(&state.s, deck, mode, _first_player(options), &rng)
    return state


cdef int _first_player(dict options) except -2:
    """The first_player option, or -1 to draw it at random (ruling P9)."""
    first = options.get("first_player")
    if first is None:
        return -1
    if type(first) is not int or not 0 <= first < CVP_PLAYERS:
        raise ValueError(f"first_player must be a seat, 0 or 1, got {first!r}")
    return first


def from_payload(bytes payload) -> CrabeVsPoulpeState:
    cdef CrabeVsPoulpeState state = CrabeVsPoulpeState.__new__(CrabeVsPoulpeState)
    _fill_from_payload(&state.s, payload)
    _check_position(&state.s)
    return state


def from_snapshot(snap, seed=None) -> CrabeVsPoulpeState:
    cdef CrabeVsPoulpeState state = CrabeVsPoulpeState.__new__(CrabeVsPoulpeState)
    _fill_from_snapshot(&state.s, snap)
    _check_position(&state.s)
    rng_seed(&state.s.rng, fresh_seed(seed))
    return state


def random_playouts(int players, long n, seed=0, options=None) -> dict:
    """Plays n random games in C with the GIL released; aggregate statistics.

    options are new_game's (deck mode, deck, first_player). Returns games, win_share (per
    seat), first_player_win_share (the share of games won by the round-1 opener), mean_cards_left (per seat, hand + draw pile at the end;
    0 for a winner), mean_moves, max_moves (the longest game) and mean_rounds.
    """
    cdef Rng master, game_rng
    cdef CvpState s
    cdef uint8_t deck[CVP_KINDS]
    cdef double wins[CVP_PLAYERS]
    cdef double left[CVP_PLAYERS]
    cdef double moves = 0, rounds = 0, first_wins = 0
    cdef long g, longest = 0, length
    cdef int mode, first
    if players != CVP_PLAYERS:
        raise ValueError(f"{NAME} is for exactly 2 players, got {players}")
    if n < 1:
        raise ValueError(f"n must be a positive number of games, got {n}")
    options = {} if options is None else options
    mode = _parse_options(options, deck)
    first = _first_player(options)
    rng_seed(&master, fresh_seed(seed))
    memset(wins, 0, sizeof(wins))
    memset(left, 0, sizeof(left))
    with nogil:
        for g in range(n):
            rng_seed(&game_rng, rng_next(&master))
            cvp_deal(&s, deck, mode, first, &game_rng)
            length = cvp_random_playout(&s, &s.rng)
            moves += length
            longest = length if length > longest else longest
            rounds += s.round
            wins[s.winner] += 1
            first_wins += s.winner == s.first_player
            left[0] += s.hand_size[0] + s.draw_len[0]
            left[1] += s.hand_size[1] + s.draw_len[1]
    return {
        "game": NAME, "players": players, "games": n,
        "win_share": [wins[i] / n for i in range(CVP_PLAYERS)],
        "first_player_win_share": first_wins / n,
        "mean_cards_left": [left[i] / n for i in range(CVP_PLAYERS)],
        "mean_moves": moves / n, "max_moves": longest, "mean_rounds": rounds / n,
    }
