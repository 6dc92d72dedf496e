"""Cup the Crab: rules, move generation and playouts over the C state of cupcrab.pxd.

The first half is the rules in C (``cc_*``, all ``noexcept nogil``); the second half
is `CupCrabState`, the Python face of the shared game interface, which checks
every input before it reaches the C functions and converts moves to and from
their JSON form (documented in docs/rules.md).
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

from core._base cimport GameStateBase, fresh_seed
from core.rng cimport Rng, rng_seed, rng_next, rng_below, rng_below_pair


cdef extern from *:
    int ctz "__builtin_ctz"(unsigned int x) noexcept nogil

import struct

from core import _codec
from core.errors import IllegalMove, InvalidState

NAME = "cup-the-crab"
CARD_NAMES = ("cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10",
              "crab", "octopus", "bottle")
_KIND_OF = {name: kind for kind, name in enumerate(CARD_NAMES)}
OPTIONS = ("first_player",)
PLAYERS = tuple(range(CC_MIN_PLAYERS, CC_MAX_PLAYERS + 1))  # the player counts it is for

# Card kind tables.
cdef uint16_t CUP_VALUE[CC_KINDS]
CUP_VALUE[:] = [1, 2, 3, 4, 5, 6, 8, 10, 0, 0, 0]
cdef uint8_t DECK_COUNT[CC_CUP_KINDS]        # copies of each Cup value in the box
DECK_COUNT[:] = [10, 10, 10, 10, 10, 10, 5, 5]
cdef uint8_t SPECIALS[CC_KINDS]              # Crab/Octopus/Bottle given to every seat
SPECIALS[:] = [0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 2]
cdef enum:
    CUP_DECK_SIZE = 70
    CUPS_PER_SEAT = 14

cdef uint8_t DECK_TEMPLATE[CUP_DECK_SIZE]   # the 70 Cups by kind, before shuffling
cdef uint8_t TARGET_CLASS[CC_KINDS]          # 0: Cup/Bottle, 1: Crab, 2: Octopus
TARGET_CLASS[:] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0]
cdef uint8_t POPCOUNT5[32]                   # set bits of a 5-bit target mask


cdef void _build_tables() noexcept:
    cdef int kind, i, n = 0
    for kind in range(CC_CUP_KINDS):
        for i in range(DECK_COUNT[kind]):
            DECK_TEMPLATE[n] = kind
            n += 1
    for i in range(32):
        POPCOUNT5[i] = (i & 1) + (i >> 1 & 1) + (i >> 2 & 1) + (i >> 3 & 1) + (i >> 4 & 1)


_build_tables()

# The 286 sorted triples of kinds (select actions), as kinds and as demands:
# TRIPLE_NEED[t] lists up to 3 (kind, copies) pairs so legality is 3 comparisons.
cdef uint8_t TRIPLE[CC_TRIPLES][3]
cdef uint8_t TRIPLE_NEED_KIND[CC_TRIPLES][3]
cdef uint8_t TRIPLE_NEED_COUNT[CC_TRIPLES][3]
cdef uint16_t TRIPLE_INDEX[CC_KINDS][CC_KINDS][CC_KINDS]   # sorted kinds -> t


cdef void _build_triples() noexcept:
    cdef int i, j, k, t = 0, d, m
    for i in range(CC_KINDS):
        for j in range(i, CC_KINDS):
            for k in range(j, CC_KINDS):
                TRIPLE[t][0] = i; TRIPLE[t][1] = j; TRIPLE[t][2] = k
                TRIPLE_INDEX[i][j][k] = t
                for d in range(3):
                    TRIPLE_NEED_KIND[t][d] = TRIPLE[t][d]
                    TRIPLE_NEED_COUNT[t][d] = 0
                for d in range(3):
                    for m in range(3):
                        if TRIPLE_NEED_KIND[t][m] == TRIPLE[t][d]:
                            TRIPLE_NEED_COUNT[t][m] += 1
                            break
                t += 1


_build_triples()


# ---------------------------------------------------------------------------
# Rules in C

cdef inline int _starting_player(const CCState* s) noexcept nogil:
    return (s.first_player + s.round) % s.players


cdef int cc_current_seat(const CCState* s) noexcept nogil:
    """The seat to play in the play phase, else -1."""
    return s.current if s.phase == PHASE_PLAY else -1


cdef bint cc_may_act(const CCState* s, int seat) noexcept nogil:
    if s.phase == PHASE_SELECT:
        return not s.seats[seat].selected
    return s.phase == PHASE_PLAY and seat == cc_current_seat(s)


cdef void cc_deal(CCState* s, int players, int first_player, Rng* rng) noexcept nogil:
    """A new game: shuffle the 70 Cups, deal 14 to each seat. first_player -1 = random."""
    cdef uint8_t deck[CUP_DECK_SIZE]
    cdef int i, j, kind
    cdef uint8_t tmp
    cdef Rng local = rng[0]             # a local copy the compiler may keep in registers
    memset(s, 0, sizeof(CCState))
    s.players = players
    s.max_stacks = 4 if players == 5 else 3
    memcpy(deck, DECK_TEMPLATE, CUP_DECK_SIZE)
    for i in range(players * CUPS_PER_SEAT):  # partial Fisher-Yates: only dealt cards
        j = i + rng_below(&local, CUP_DECK_SIZE - i)
        tmp = deck[i]; deck[i] = deck[j]; deck[j] = tmp
        s.seats[i // CUPS_PER_SEAT].reserve[deck[i]] += 1
    for kind in range(CC_CUP_KINDS):        # the undealt rest goes to the box
        s.box[kind] = DECK_COUNT[kind]
        for i in range(players):
            s.box[kind] -= s.seats[i].reserve[kind]
    for i in range(players):
        for kind in range(CC_CUP_KINDS, CC_KINDS):
            s.seats[i].reserve[kind] = SPECIALS[kind]
    s.first_player = rng_below(&local, players) if first_player < 0 else first_player
    s.rng = local
    _start_round(s)


cdef void _start_round(CCState* s) noexcept nogil:
    """Open round s.round: a secret selection, or the forced one of the last round (C5)."""
    cdef int seat, kind
    s.plays = 0
    s.current = _starting_player(s)
    for seat in range(s.players):
        s.seats[seat].selected = 0
    if s.round == CC_ROUNDS - 1:
        for seat in range(s.players):
            for kind in range(CC_KINDS):
                s.seats[seat].hand[kind] = s.seats[seat].reserve[kind]
                s.seats[seat].reserve[kind] = 0
                if s.seats[seat].hand[kind]:
                    s.seats[seat].hand_kinds |= 1 << kind
            s.seats[seat].selected = 1
        s.pending = 0
        s.phase = PHASE_PLAY
    else:
        s.pending = s.players
        s.phase = PHASE_SELECT


cdef inline bint _triple_fits(const uint8_t* cards, int t) noexcept nogil:
    return (cards[TRIPLE_NEED_KIND[t][0]] >= TRIPLE_NEED_COUNT[t][0]
            and cards[TRIPLE_NEED_KIND[t][1]] >= TRIPLE_NEED_COUNT[t][1]
            and cards[TRIPLE_NEED_KIND[t][2]] >= TRIPLE_NEED_COUNT[t][2])


cdef inline void _target_masks(const CCState* s, unsigned int* by_class) noexcept nogil:
    """Targets of each TARGET_CLASS as bitmasks: bits 0..3 slots, bit 4 a new stack (C3)."""
    cdef unsigned int all_slots = (1 << s.max_stacks) - 1
    cdef unsigned int open_mask = s.occupied & ~s.bottled
    by_class[0] = open_mask | ((s.occupied != all_slots) << CC_NEW_STACK)
    by_class[1] = open_mask
    by_class[2] = s.bottled


cdef int _placements(const CCState* s, unsigned int kinds, uint16_t* out) noexcept nogil:
    """Every play or new-stack action for the card kinds in the bitmask, in id order."""
    cdef int n = 0, kind
    cdef unsigned int targets
    cdef unsigned int by_class[3]
    _target_masks(s, by_class)
    while kinds:
        kind = ctz(kinds)
        kinds &= kinds - 1
        targets = by_class[TARGET_CLASS[kind]]
        while targets:
            out[n] = kind * CC_TARGETS + ctz(targets)
            n += 1
            targets &= targets - 1
    return n


cdef int cc_legal_actions(const CCState* s, int seat, uint16_t* out) noexcept nogil:
    """Writes seat's legal action ids to out (room for CC_MAX_LEGAL) in increasing order."""
    cdef int n = 0, t
    cdef unsigned int kinds
    cdef const uint8_t* cards
    if not cc_may_act(s, seat):
        return 0
    if s.phase == PHASE_SELECT:
        cards = s.seats[seat].reserve
        for t in range(CC_TRIPLES):
            if _triple_fits(cards, t):
                out[n] = CC_SELECT_BASE + t
                n += 1
        return n
    kinds = s.seats[seat].hand_kinds
    n = _placements(s, kinds, out)
    if n == 0:  # C2: discarding is allowed only when nothing can be placed
        while kinds:
            out[n] = CC_DISCARD_BASE + ctz(kinds)
            n += 1
            kinds &= kinds - 1
    return n


cdef int cc_random_legal(const CCState* s, int seat, Rng* rng) noexcept nogil:
    """One of seat's legal actions, uniformly: the same draw as cc_legal_actions and then
    out[rng_below(rng, n)].  A selection is found by counting, not listing, the triples
    the reserve allows (the search draws every hidden selection this way)."""
    cdef uint16_t legal[CC_MAX_LEGAL]
    cdef int n
    if s.phase == PHASE_SELECT and cc_may_act(s, seat):
        return _random_triple(s.seats[seat].reserve, rng)
    n = cc_legal_actions(s, seat, legal)
    return legal[rng_below(rng, n)] if n else -1


cdef int _random_triple(const uint8_t* cards, Rng* rng) noexcept nogil:
    """The select action of the k-th allowed triple in increasing order, k uniform: the
    triples (i <= j <= k) are counted by their first two kinds, then unranked.

    after[x] counts the kinds above x in the reserve (a third card of any of them fits
    after a pair (i, j) with j < x); pair[j] the triples (., j, k) with i < j, that is a
    second j if there are two, then any kind above j; from[x] sums pair[j] for j >= x.
    Triples starting with i: (i, i, .) if two i (a third i, then any kind above i), then
    (i, j, .) for every held j > i: two[i] * (three[i] + after[i]) + from[i + 1]."""
    cdef int after[CC_KINDS + 1]
    cdef int pair[CC_KINDS]
    cdef int frm[CC_KINDS + 1]
    cdef int x, i, j, k, total = 0, block
    after[CC_KINDS] = 0
    frm[CC_KINDS] = 0
    for x in range(CC_KINDS - 1, -1, -1):
        after[x] = after[x + 1] + (x + 1 < CC_KINDS and cards[x + 1] > 0)
        pair[x] = ((cards[x] >= 2) + after[x]) if cards[x] else 0
        frm[x] = frm[x + 1] + pair[x]
    for i in range(CC_KINDS):
        if cards[i]:
            total += (cards[i] >= 2) * ((cards[i] >= 3) + after[i]) + frm[i + 1]
    if total == 0:
        return -1
    k = rng_below(rng, total)
    for i in range(CC_KINDS):
        if not cards[i]:
            continue
        block = (cards[i] >= 2) * ((cards[i] >= 3) + after[i]) + frm[i + 1]
        if k >= block:
            k -= block
            continue
        if cards[i] >= 2:                   # (i, i, .): a third i, then the kinds above i
            block = (cards[i] >= 3) + after[i]
            if k < block:
                return CC_SELECT_BASE + TRIPLE_INDEX[i][i][_kth_kind(cards, i, cards[i] >= 3, k)]
            k -= block
        for j in range(i + 1, CC_KINDS):
            if k < pair[j]:                 # (i, j, .): a second j, then the kinds above j
                return CC_SELECT_BASE + TRIPLE_INDEX[i][j][_kth_kind(cards, j, cards[j] >= 2, k)]
            k -= pair[j]
    return -1


cdef inline int _kth_kind(const uint8_t* cards, int x, bint again, int k) noexcept nogil:
    """The k-th of: x itself if `again`, then the held kinds above x, in that order."""
    cdef int y
    if again:
        if k == 0:
            return x
        k -= 1
    for y in range(x + 1, CC_KINDS):
        if cards[y]:
            if k == 0:
                return y
            k -= 1
    return x        # not reached: k is below the count


cdef bint cc_is_legal(const CCState* s, int seat, int action) noexcept nogil:
    cdef uint16_t legal[CC_MAX_LEGAL]
    cdef int i, n
    if action < 0 or action >= CC_N_ACTIONS or not cc_may_act(s, seat):
        return False
    if action >= CC_SELECT_BASE:
        return (s.phase == PHASE_SELECT
                and _triple_fits(s.seats[seat].reserve, action - CC_SELECT_BASE))
    n = cc_legal_actions(s, seat, legal)
    for i in range(n):
        if legal[i] == action:
            return True
    return False


cdef void _claim(CCState* s, Seat* claimer, int slot, int claiming_kind) noexcept nogil:
    """C4: the whole stack and the claiming card go to the claimer's score pile."""
    cdef Stack* stack = &s.stacks[slot]
    cdef int i
    for i in range(stack.len):
        claimer.score_pile[stack.cards[i]] += 1
    claimer.score_pile[claiming_kind] += 1
    claimer.score += stack.value
    stack.len = 0
    stack.bottle = 0
    stack.value = 0
    s.occupied &= ~(1 << slot)
    s.bottled &= ~(1 << slot)


cdef void _place(CCState* s, int slot, int kind) noexcept nogil:
    cdef Stack* stack = &s.stacks[slot]
    stack.cards[stack.len] = kind
    stack.len += 1
    stack.value += CUP_VALUE[kind]
    s.occupied |= 1 << slot
    stack.bottle |= kind == CC_BOTTLE      # no branch: playouts cannot predict it
    s.bottled |= (kind == CC_BOTTLE) << slot


cdef inline int _free_slot(const CCState* s) noexcept nogil:
    """The lowest free slot (precondition: there is one)."""
    return ctz(~s.occupied)


cdef void _play(CCState* s, int seat, int action) noexcept nogil:
    cdef Seat* player = &s.seats[seat]
    cdef int kind, target
    if action >= CC_DISCARD_BASE:
        kind = action - CC_DISCARD_BASE
        s.discard_pile[kind] += 1
        player.discards += 1
    else:
        kind = action // CC_TARGETS
        target = action % CC_TARGETS
        if target == CC_NEW_STACK:
            _place(s, _free_slot(s), kind)
        elif kind == CC_CRAB or kind == CC_OCTOPUS:
            _claim(s, player, target, kind)
        else:
            _place(s, target, kind)
    player.hand[kind] -= 1
    player.hand_kinds &= ~((player.hand[kind] == 0) << kind)
    s.plays += 1
    s.current = 0 if s.current + 1 == s.players else s.current + 1
    if s.plays == CC_HAND * s.players:
        if s.round == CC_ROUNDS - 1:
            s.phase = PHASE_OVER
            s.plays = 0
        else:
            s.round += 1
            _start_round(s)


cdef void _select(CCState* s, int seat, int triple) noexcept nogil:
    cdef Seat* player = &s.seats[seat]
    cdef int d
    for d in range(3):
        player.reserve[TRIPLE[triple][d]] -= 1
        player.hand[TRIPLE[triple][d]] += 1
        player.hand_kinds |= 1 << TRIPLE[triple][d]
    player.selected = 1
    s.pending -= 1
    if s.pending == 0:
        s.phase = PHASE_PLAY


cdef void cc_apply_action(CCState* s, int seat, int action) noexcept nogil:
    """Applies a legal action (precondition: cc_is_legal(s, seat, action))."""
    if action >= CC_SELECT_BASE:
        _select(s, seat, action - CC_SELECT_BASE)
    else:
        _play(s, seat, action)


# ---------------------------------------------------------------------------
# Random playouts
#
# The random policy: a seat selects 3 of its remaining physical cards with equal chance
# each; a play is uniform over the legal (card, target) pairs of its hand, two equal
# cards counted apart; when nothing can be placed, it discards a uniform card of its
# hand.  A playout runs to the end of the game, so it keeps only what the end needs:
# each seat's cards as a sequence of kinds (its hand in 3 slots, then its future
# selections, shuffled once) instead of the counts, which are all zero at the end.
# A play is then one bounded draw and a few table lookups: no loop over card kinds
# and few branches that follow the random choices (which the CPU cannot predict).

cdef enum:
    NO_CARD = CC_KINDS      # an empty hand slot
    SPREAD = 16             # bytes written per kind when counts are spread into a sequence

# A hand slot's targets are (word >> TARGET_SHIFT[kind]) & 31, where word packs the
# target masks of _target_masks 8 bits apart: an empty slot reads the word's zero top byte.
cdef uint8_t TARGET_SHIFT[CC_KINDS + 1]
cdef uint8_t PLACES[CC_KINDS + 1]           # 1 for a Cup or a Bottle (empty slot: 0)
cdef uint8_t CLAIM_SHIFT[CC_KINDS + 1]      # a claimer's targets in _greedy_turn's word
cdef uint8_t NTH_BIT5[32][5]            # the index of the x-th set bit of a 5-bit mask


cdef void _build_playout_tables() noexcept:
    cdef int mask, bit, x
    for bit in range(CC_KINDS):
        TARGET_SHIFT[bit] = 8 * TARGET_CLASS[bit]
    TARGET_SHIFT[NO_CARD] = 24
    for bit in range(CC_KINDS):
        PLACES[bit] = TARGET_CLASS[bit] == 0
        CLAIM_SHIFT[bit] = 8 * (TARGET_CLASS[bit] - 1) if TARGET_CLASS[bit] else 16
    PLACES[NO_CARD] = 0
    CLAIM_SHIFT[NO_CARD] = 16
    for mask in range(32):
        x = 0
        for bit in range(5):
            if mask >> bit & 1:
                NTH_BIT5[mask][x] = bit
                x += 1


_build_playout_tables()


ctypedef struct PlayoutSeat:
    uint8_t hand[CC_HAND]                     # kinds in hand, NO_CARD once played
    uint8_t next                              # index in `later` of the next selection
    uint8_t later[CC_CARDS_PER_SEAT + SPREAD]   # future selections, 3 by 3 (room to spread)


# Cards counted by kind, 4 bits a kind (no stack or score pile holds 16 cards of a kind:
# 10 copies of a Cup at most, 2 Bottles a seat), so that a claim moves a whole stack to
# a score pile with one addition: no loop over its cards, no branch on claim or place.
ctypedef uint64_t Packed
cdef Packed ONE[CC_KINDS]               # one card of each kind


cdef void _build_one() noexcept:
    cdef int kind
    for kind in range(CC_KINDS):
        ONE[kind] = <Packed>1 << 4 * kind


_build_one()


ctypedef struct PlayoutTable:
    Packed stack_cards[CC_MAX_STACKS]   # each stack's cards
    Packed claimed[CC_MAX_PLAYERS]      # the cards each seat claimed in this playout


cdef void _start_table(const CCState* s, PlayoutTable* t) noexcept nogil:
    cdef int slot, i
    memset(t, 0, sizeof(PlayoutTable))
    for slot in range(s.max_stacks):
        for i in range(s.stacks[slot].len):
            t.stack_cards[slot] += ONE[s.stacks[slot].cards[i]]


cdef void _end_table(CCState* s, const PlayoutTable* t) noexcept nogil:
    """Adds the claimed cards to the score piles, which the playout did not keep."""
    cdef int seat, kind
    for seat in range(s.players):
        for kind in range(CC_KINDS):
            s.seats[seat].score_pile[kind] += t.claimed[seat] >> 4 * kind & 15


cdef inline void _lay(CCState* s, PlayoutTable* t, int seat, int slot, int kind) noexcept nogil:
    """Places a Cup or a Bottle on slot, or claims the stack there with a Crab or an
    Octopus (C4), without a branch: every field is masked by whether it is a claim."""
    cdef Stack* stack = &s.stacks[slot]
    cdef uint32_t claim = 0u - (TARGET_CLASS[kind] != 0)     # all ones for a claim
    cdef Packed claim_all = 0ull - (TARGET_CLASS[kind] != 0)
    cdef uint32_t bit = 1u << slot
    cdef uint32_t bottle = kind == CC_BOTTLE
    cdef Packed cards = t.stack_cards[slot] + ONE[kind]
    s.seats[seat].score += stack.value & claim
    t.claimed[seat] += cards & claim_all
    t.stack_cards[slot] = cards & ~claim_all
    stack.cards[stack.len] = (kind & ~claim) | (stack.cards[stack.len] & claim)
    stack.len = (stack.len + 1) & ~claim
    stack.value = (stack.value + CUP_VALUE[kind]) & ~claim
    stack.bottle = (stack.bottle | bottle) & ~claim
    s.occupied = (s.occupied | bit) & ~(bit & claim)
    s.bottled = (s.bottled | bottle << slot) & ~(bit & claim)


cdef inline int _spread(const uint8_t* counts, uint8_t* out) noexcept nogil:
    """Writes counts[k] copies of each kind k to out; returns how many.  Branch-free:
    every kind writes SPREAD bytes (no count reaches it) that the next kind overwrites."""
    cdef int kind, n = 0
    for kind in range(CC_KINDS):
        memset(&out[n], kind, SPREAD)
        n += counts[kind]
    return n


cdef void _playout_seat(const Seat* player, PlayoutSeat* p, Rng* rng) noexcept nogil:
    """A seat's hand as slots and its reserve as a random sequence of future selections."""
    cdef uint8_t hand[CC_HAND + SPREAD]
    cdef int i, j, n = 0
    cdef uint32_t second
    cdef uint8_t tmp
    if player.hand_kinds:
        n = _spread(player.hand, hand)
    memset(&hand[n], NO_CARD, CC_HAND)
    memcpy(p.hand, hand, CC_HAND)
    p.next = 0
    n = _spread(player.reserve, p.later)
    for i in range(0, n - CC_HAND, 2):  # partial Fisher-Yates (the last 3 need no draw),
        j = i + rng_below_pair(rng, n - i, n - i - 1, &second)    # two swaps a draw
        tmp = p.later[i]; p.later[i] = p.later[j]; p.later[j] = tmp
        j = i + 1 + second
        tmp = p.later[i + 1]; p.later[i + 1] = p.later[j]; p.later[j] = tmp


cdef inline void _take_next(PlayoutSeat* p) noexcept nogil:
    memcpy(p.hand, &p.later[p.next], CC_HAND)
    p.next += CC_HAND


cdef void _random_discard(CCState* s, Seat* player, PlayoutSeat* p, Rng* rng) noexcept nogil:
    """C2: nothing can be placed; a uniform card of the hand goes to the discard pile."""
    cdef unsigned int held = ((p.hand[0] != NO_CARD) | (p.hand[1] != NO_CARD) << 1
                              | (p.hand[2] != NO_CARD) << 2)
    cdef int i = NTH_BIT5[held][rng_below(rng, POPCOUNT5[held])]
    s.discard_pile[p.hand[i]] += 1
    player.discards += 1
    p.hand[i] = NO_CARD


cdef inline void _random_turn(CCState* s, PlayoutTable* t, int seat, PlayoutSeat* p,
                              Rng* rng) noexcept nogil:
    """The seat plays a uniformly random legal (card, target) pair of its hand, or discards."""
    cdef unsigned int by_class[3]
    cdef uint32_t word, c0, c1, x, past0, past1
    cdef int i, kind, target
    _target_masks(s, by_class)
    word = by_class[0] | by_class[1] << 8 | by_class[2] << 16
    c0 = POPCOUNT5[word >> TARGET_SHIFT[p.hand[0]] & 31]
    c1 = POPCOUNT5[word >> TARGET_SHIFT[p.hand[1]] & 31]
    x = c0 + c1 + POPCOUNT5[word >> TARGET_SHIFT[p.hand[2]] & 31]
    if x == 0:
        _random_discard(s, &s.seats[seat], p, rng)
        return
    x = rng_below(rng, x)
    past0 = x >= c0                     # the pair is in slot 1 or 2
    past1 = x >= c0 + c1                # the pair is in slot 2
    i = past0 + past1
    x -= past0 * c0 + past1 * c1        # the pair's index among its card's targets
    kind = p.hand[i]
    p.hand[i] = NO_CARD
    target = NTH_BIT5[word >> TARGET_SHIFT[kind] & 31][x]
    _lay(s, t, seat, _free_slot(s) if target == CC_NEW_STACK else target, kind)


cdef int cc_winners(const CCState* s, bint* won) noexcept nogil:
    cdef int keys[CC_MAX_PLAYERS]
    cdef int seat, best = -1, winners = 0
    for seat in range(s.players):
        keys[seat] = s.seats[seat].score * 128 + _cups_in(&s.seats[seat])  # 70 Cups in all
        if keys[seat] > best:
            best = keys[seat]
    for seat in range(s.players):
        won[seat] = keys[seat] == best
        winners += won[seat]
    return winners


cdef inline void _greedy_turn(CCState* s, PlayoutTable* t, int seat, PlayoutSeat* p,
                              Rng* rng) noexcept nogil:
    """Rules of thumb: a Crab or an Octopus of the hand claims the most valuable stack it
    can take if that stack holds Cups; otherwise a Cup or a Bottle goes to a uniform legal
    target (Crabs and Octopuses wait for a stack worth claiming); failing both, the
    random turn (a claim of a worthless stack, or a discard).

    Written for few branches and loads (the playouts' hot loop): every hand slot shifts
    its claim targets out of one word held in a register (none for a Cup, a Bottle or an
    empty slot), and every Cup or Bottle shares the same place targets, so the uniform
    (card, target) pair is found by arithmetic, without a loop; the pair drawn is the one
    a walk over the slots in order would draw."""
    cdef unsigned int by_class[3]
    cdef uint32_t claims, targets, per_card, x, past
    cdef int i, kind, slot, value, placers = 0, best_i = -1, best_slot = 0, best_value = 0
    cdef int placer[CC_HAND]
    _target_masks(s, by_class)
    claims = by_class[1] | by_class[2] << 8     # a claimer's targets: >> CLAIM_SHIFT[kind]
    for i in range(CC_HAND):
        kind = p.hand[i]
        placer[placers] = i
        placers += PLACES[kind]
        targets = claims >> CLAIM_SHIFT[kind] & 31
        while targets:
            slot = ctz(targets)
            targets &= targets - 1
            value = s.stacks[slot].value
            if value > best_value:
                best_value, best_i, best_slot = value, i, slot
    if best_i >= 0:
        kind = p.hand[best_i]
        p.hand[best_i] = NO_CARD
        _lay(s, t, seat, best_slot, kind)
        return
    per_card = POPCOUNT5[by_class[0]]
    if per_card * placers == 0:
        _random_turn(s, t, seat, p, rng)
        return
    x = rng_below(rng, per_card * placers)
    past = (x >= per_card) + (x >= 2 * per_card)    # x // per_card (placers <= 3)
    x -= past * per_card
    i = placer[past]
    kind = p.hand[i]
    p.hand[i] = NO_CARD
    slot = NTH_BIT5[by_class[0]][x]
    _lay(s, t, seat, _free_slot(s) if slot == CC_NEW_STACK else slot, kind)


cdef int cc_random_playout(CCState* s, Rng* rng) noexcept nogil:
    """Plays the random policy above to the end; returns the number of moves made.

    The state ends exactly as cc_apply_action would leave it after the same moves.
    """
    return _playout_to_end(s, rng, False)


cdef int cc_policy_playout(CCState* s, Rng* rng) noexcept nogil:
    """Plays to the end with _greedy_turn's rules of thumb (selections stay random)."""
    return _playout_to_end(s, rng, True)


cdef inline int _playout_to_end(CCState* s, Rng* rng, bint greedy) noexcept nogil:
    """The playout loop of both policies (inlined: `greedy` is a constant in each)."""
    cdef PlayoutSeat seats[CC_MAX_PLAYERS]
    cdef PlayoutTable table
    cdef Rng local = rng[0]             # a local copy the compiler may keep in registers
    cdef int seat, turn, players = s.players, moves = 0
    if s.phase == PHASE_OVER:
        return 0
    for seat in range(players):
        _playout_seat(&s.seats[seat], &seats[seat], &local)
    _start_table(s, &table)
    while True:
        if s.phase == PHASE_SELECT:
            for seat in range(players):
                if not s.seats[seat].selected:
                    _take_next(&seats[seat])
                    moves += 1
        seat = s.current
        for turn in range(s.plays, CC_HAND * players):
            if greedy:
                _greedy_turn(s, &table, seat, &seats[seat], &local)
            else:
                _random_turn(s, &table, seat, &seats[seat], &local)
            seat = (seat + 1) * (seat + 1 != players)   # the next seat, without a branch
        moves += CC_HAND * players - s.plays
        if s.round == CC_ROUNDS - 1:
            break
        s.round += 1
        s.plays = 0
        s.current = _starting_player(s)
        s.phase = PHASE_PLAY if s.round == CC_ROUNDS - 1 else PHASE_SELECT
        if s.phase == PHASE_PLAY:       # C5: the last round's selection is forced
            for seat in range(players):
                _take_next(&seats[seat])
        else:
            for seat in range(players):
                s.seats[seat].selected = 0
    s.current = seat
    _end_table(s, &table)
    _end_playout(s)
    rng[0] = local
    return moves


cdef void _end_playout(CCState* s) noexcept nogil:
    """Every card is played: the fields the playout did not keep are what the end has."""
    cdef int seat
    for seat in range(s.players):
        memset(s.seats[seat].reserve, 0, CC_KINDS)
        memset(s.seats[seat].hand, 0, CC_KINDS)
        s.seats[seat].hand_kinds = 0
        s.seats[seat].selected = 1
    s.pending = 0
    s.plays = 0
    s.phase = PHASE_OVER


# ---------------------------------------------------------------------------
# Moves in their JSON form

PHASE_NAMES = ("select", "play", "over")
_MOVE_FIELDS = {"select": ("cards",), "play": ("card", "stack"),
                "new-stack": ("card",), "discard": ("card",)}
_TRIPLE_OF = {(TRIPLE[t][0], TRIPLE[t][1], TRIPLE[t][2]): t for t in range(CC_TRIPLES)}
cdef list _ACTION_INTS = list(range(CC_N_ACTIONS))  # shared int objects: cheap id lists


def _build_move(int action) -> dict:
    if action >= CC_SELECT_BASE:
        t = action - CC_SELECT_BASE
        return {"type": "select", "cards": [CARD_NAMES[TRIPLE[t][d]] for d in range(3)]}
    if action >= CC_DISCARD_BASE:
        return {"type": "discard", "card": CARD_NAMES[action - CC_DISCARD_BASE]}
    kind, target = divmod(action, CC_TARGETS)
    if target == CC_NEW_STACK:
        return {"type": "new-stack", "card": CARD_NAMES[kind]}
    return {"type": "play", "card": CARD_NAMES[kind], "stack": target}


cdef list _MOVES = [_build_move(a) for a in range(CC_N_ACTIONS)]  # templates, never handed out


cdef dict _fresh_move(int action):
    """A caller-owned copy of the move of a valid action id."""
    cdef dict move = _MOVES[action]
    if action >= CC_SELECT_BASE:
        return {"type": "select", "cards": list(<list>move["cards"])}
    return move.copy()


def move_of_action(int action) -> dict:
    """The JSON form of an action id (ids are fixed: see docs/rules.md)."""
    if action < 0 or action >= CC_N_ACTIONS:
        raise ValueError(f"action ids of {NAME} are 0 to {CC_N_ACTIONS - 1}, got {action}")
    return _fresh_move(action)


def _card_kind(name: object) -> int:
    kind = _KIND_OF.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalMove(f"unknown card {name!r}; cards are: {', '.join(CARD_NAMES)}")
    return kind


def action_of_move(move: object, int max_stacks) -> int:
    """The action id of a well-formed move; IllegalMove saying what is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove('a move is a JSON object such as {"type": "play", "card": "cup-5",'
                          f' "stack": 0}}, got {type(move).__name__}')
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in _MOVE_FIELDS:
        raise IllegalMove(f"unknown move type {kind!r}; {NAME} moves are: "
                          + ", ".join(_MOVE_FIELDS))
    fields = ("type",) + _MOVE_FIELDS[kind]
    if set(move) != set(fields):
        raise IllegalMove(f"a {kind!r} move has exactly the fields {', '.join(fields)};"
                          f" got {', '.join(sorted(map(str, move)))}")
    if kind == "select":
        cards = move["cards"]
        if not isinstance(cards, list) or len(cards) != CC_HAND:
            raise IllegalMove(f"'cards' is a list of exactly 3 card names, got {cards!r}")
        return CC_SELECT_BASE + _TRIPLE_OF[tuple(sorted(_card_kind(c) for c in cards))]
    card = _card_kind(move["card"])
    if kind == "discard":
        return CC_DISCARD_BASE + card
    if kind == "new-stack":
        return card * CC_TARGETS + CC_NEW_STACK
    stack = move["stack"]
    if type(stack) is not int or not 0 <= stack < max_stacks:
        raise IllegalMove(f"'stack' is a slot number from 0 to {max_stacks - 1},"
                          f" got {stack!r}")
    return card * CC_TARGETS + stack


cdef list _card_list(const uint8_t* counts, int kinds=CC_KINDS):
    """Card names in canonical order, each repeated as often as counted."""
    cdef int kind
    out = []
    for kind in range(kinds):
        out.extend([CARD_NAMES[kind]] * counts[kind])
    return out


cdef int _total(const uint8_t* counts, int kinds=CC_KINDS) noexcept:
    cdef int kind, n = 0
    for kind in range(kinds):
        n += counts[kind]
    return n


# ---------------------------------------------------------------------------
# Why a move is refused (pokerkit-style: the message says what to do instead)

cdef str _why_not_select(const CCState* s, int seat, int action):
    if action < CC_SELECT_BASE:
        return (f"round {s.round + 1} starts with the secret selection: send"
                ' {"type": "select", "cards": [three of your remaining cards]}')
    wanted = move_of_action(action)["cards"]
    return (f"you cannot select {wanted}: your remaining cards are"
            f" {_card_list(s.seats[seat].reserve)}")


cdef str _why_not_play(const CCState* s, int seat, int action):
    if action >= CC_SELECT_BASE:
        return "the selection for this round is over: play a card from your hand"
    move = move_of_action(action)
    kind = _KIND_OF[move["card"]]
    if not s.seats[seat].hand[kind]:
        return (f"{move['card']} is not in your hand; your hand is"
                f" {_card_list(s.seats[seat].hand)}")
    if move["type"] == "discard":
        return ("you may discard only when no card of your hand can be placed (ruling C2);"
                " place a card instead")
    if move["type"] == "new-stack":
        if kind == CC_CRAB or kind == CC_OCTOPUS:
            return f"a {move['card']} claims a stack; it cannot start one"
        return (f"all {s.max_stacks} stack slots are taken: add to a stack or claim one")
    if s.stacks[<int>move["stack"]].len == 0:
        return f"stack {move['stack']} is empty: start a new stack with a 'new-stack' move"
    if kind == CC_OCTOPUS:
        return f"an octopus claims only a stack with a bottle; stack {move['stack']} has none"
    return f"stack {move['stack']} has a bottle: only an octopus can be played on it"


cdef str _why_illegal(const CCState* s, int seat, int action):
    if s.phase == PHASE_OVER:
        return "the game is over: no more moves"
    if s.phase == PHASE_SELECT:
        if s.seats[seat].selected:
            waiting = [i for i in range(s.players) if not s.seats[i].selected]
            return (f"seat {seat} has already selected for round {s.round + 1};"
                    f" waiting for seats {waiting}")
        return _why_not_select(s, seat, action)
    if seat != cc_current_seat(s):
        return f"it is seat {cc_current_seat(s)}'s turn to play, not seat {seat}'s"
    return _why_not_play(s, seat, action)


# ---------------------------------------------------------------------------
# Consistency of a position built from outside (a snapshot or a stored blob)

cdef int _turns_taken(const CCState* s, int seat) noexcept:
    """Cards seat has played this round, from the play count and the rotation."""
    cdef int behind = (seat - _starting_player(s) + s.players) % s.players
    return (s.plays + s.players - 1 - behind) // s.players


cdef str _seat_problem(const CCState* s, int seat):
    cdef const Seat* p = &s.seats[seat]
    held = _total(p.reserve) + _total(p.hand)
    if p.reserve[CC_CRAB] + p.hand[CC_CRAB] + p.score_pile[CC_CRAB] > 3:
        return f"seat {seat} has more than its 3 crabs"
    if p.reserve[CC_OCTOPUS] + p.hand[CC_OCTOPUS] + p.score_pile[CC_OCTOPUS] > 2:
        return f"seat {seat} has more than its 2 octopuses"
    if s.phase == PHASE_OVER:
        return f"seat {seat} still holds cards after the game" if held else None
    played = _turns_taken(s, seat) if s.phase == PHASE_PLAY else 0
    if held != CC_CARDS_PER_SEAT - CC_HAND * s.round - played:
        return f"seat {seat} holds {held} cards, which round {s.round + 1} does not allow"
    if _total(p.hand) != (CC_HAND - played if p.selected else 0):
        return f"seat {seat} has {_total(p.hand)} cards in hand, which its turn does not allow"
    if s.phase == PHASE_PLAY and not p.selected:
        return f"seat {seat} has not selected, yet the round is being played"
    return None


cdef str _table_problem(const CCState* s):
    cdef int slot, i, kind
    cdef const Stack* stack
    for slot in range(CC_MAX_STACKS):
        stack = &s.stacks[slot]
        if stack.len and slot >= s.max_stacks:
            return f"stack {slot} is beyond the {s.max_stacks} slots of this game"
        for i in range(stack.len):
            kind = stack.cards[i]
            if kind == CC_CRAB or kind == CC_OCTOPUS:
                return f"stack {slot} holds a {CARD_NAMES[kind]}"
            if kind == CC_BOTTLE and i != stack.len - 1:
                return f"stack {slot} has cards on top of its bottle"
    return None


cdef str _conservation_problem(const CCState* s):
    cdef int kind, seat, slot, i
    cdef int count[CC_KINDS]
    for kind in range(CC_KINDS):
        count[kind] = s.discard_pile[kind] + s.box[kind]
        for seat in range(s.players):
            count[kind] += (s.seats[seat].reserve[kind] + s.seats[seat].hand[kind]
                            + s.seats[seat].score_pile[kind])
    for slot in range(CC_MAX_STACKS):
        for i in range(s.stacks[slot].len):
            count[s.stacks[slot].cards[i]] += 1
    for kind in range(CC_KINDS):
        expected = (DECK_COUNT[kind] if kind < CC_CUP_KINDS
                    else SPECIALS[kind] * s.players)
        if count[kind] != expected:
            return f"{count[kind]} {CARD_NAMES[kind]} cards in play, expected {expected}"
    for kind in range(CC_CUP_KINDS, CC_KINDS):
        if s.box[kind]:
            return "only undealt cup cards can be in the box"
    if _total(s.box) != CUP_DECK_SIZE - CUPS_PER_SEAT * s.players:
        return f"the box must hold the {CUP_DECK_SIZE - CUPS_PER_SEAT * s.players} undealt cups"
    if sum([s.seats[seat].discards for seat in range(s.players)]) != _total(s.discard_pile):
        return "the seats' discard counts do not add up to the discard pile"
    return None


cdef str _position_problem(const CCState* s):
    """Why this position cannot arise in a game (None when it can)."""
    if s.phase > PHASE_OVER or s.round >= CC_ROUNDS or s.first_player >= s.players:
        return "phase, round or first player out of range"
    if s.plays >= CC_HAND * s.players or (s.phase != PHASE_PLAY and s.plays):
        return f"{s.plays} cards played is impossible in this phase"
    if s.phase == PHASE_SELECT and s.round == CC_ROUNDS - 1:
        return "the last round's selection is automatic: it cannot be pending"
    if s.phase == PHASE_OVER and s.round != CC_ROUNDS - 1:
        return "a finished game is in its last round"
    if s.phase == PHASE_SELECT and s.pending == 0:
        return "every seat has selected, so the round is being played, not selected"
    for seat in range(s.players):
        problem = _seat_problem(s, seat)
        if problem:
            return problem
    return _table_problem(s) or _conservation_problem(s) or _stuck_problem(s)


cdef str _stuck_problem(const CCState* s):
    """A game not over must give some seat a legal move, else it can never continue."""
    cdef uint16_t legal[CC_MAX_LEGAL]
    cdef int seat
    if s.phase == PHASE_OVER:
        return None
    for seat in range(s.players):
        if cc_legal_actions(s, seat, legal):
            return None
    return "nobody can move, yet the game is not over"


cdef void _derive(CCState* s) noexcept:
    """Fills the fields that are kept for speed but follow from the others."""
    cdef int slot, i, seat, kind
    s.max_stacks = 4 if s.players == 5 else 3
    s.pending = 0
    s.current = (_starting_player(s) + s.plays) % s.players
    for seat in range(s.players):
        s.pending += s.phase == PHASE_SELECT and not s.seats[seat].selected
        s.seats[seat].hand_kinds = 0
        for kind in range(CC_KINDS):
            if s.seats[seat].hand[kind]:
                s.seats[seat].hand_kinds |= 1 << kind
        s.seats[seat].score = 0
        for kind in range(CC_CUP_KINDS):
            s.seats[seat].score += CUP_VALUE[kind] * s.seats[seat].score_pile[kind]
    s.occupied = 0
    s.bottled = 0
    for slot in range(CC_MAX_STACKS):
        s.occupied |= (s.stacks[slot].len > 0) << slot
        s.stacks[slot].value = 0
        s.stacks[slot].bottle = 0
        for i in range(s.stacks[slot].len):
            s.stacks[slot].value += CUP_VALUE[s.stacks[slot].cards[i]]
            s.stacks[slot].bottle |= s.stacks[slot].cards[i] == CC_BOTTLE
        s.bottled |= s.stacks[slot].bottle << slot


# ---------------------------------------------------------------------------
# Snapshots (complete positions as dicts) and the compact binary payload

_SNAPSHOT_KEYS = {"game", "players", "phase", "round", "first_player", "plays", "stacks",
                  "discards", "box", "seats"}
_SNAPSHOT_SEAT_KEYS = {"reserve", "hand", "selected", "score_pile", "discards"}


cdef int _small_int(value, str what, int limit) except -1:
    if type(value) is not int or not 0 <= value <= limit:
        raise InvalidState(f"{what} must be an integer from 0 to {limit}, got {value!r}")
    return value


cdef void _fill_counts(uint8_t* counts, cards, str what) except *:
    if not isinstance(cards, list) or len(cards) > CUP_DECK_SIZE:
        raise InvalidState(f"{what} must be a list of card names")
    for name in cards:
        kind = _KIND_OF.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InvalidState(f"{what}: unknown card {name!r}")
        counts[kind] += 1


cdef void _fill_stack(Stack* stack, value, int slot) except *:
    if value is None:
        return
    cards = value.get("cards") if isinstance(value, dict) else None
    if not isinstance(cards, list) or not 0 < len(cards) <= CC_STACK_CAP:
        raise InvalidState(f"stack {slot} must be null or {{\"cards\": [1 to 72 cards]}}")
    for i, name in enumerate(cards):
        kind = _KIND_OF.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InvalidState(f"stack {slot}: unknown card {name!r}")
        stack.cards[i] = kind
    stack.len = len(cards)


cdef void _fill_from_snapshot(CCState* s, snap) except *:
    if not isinstance(snap, dict) or not _SNAPSHOT_KEYS <= set(snap):
        raise InvalidState(f"a snapshot is a dict with keys {sorted(_SNAPSHOT_KEYS)}")
    if snap["game"] != NAME:
        raise InvalidState(f"not a {NAME} snapshot: game is {snap['game']!r}")
    s.players = _small_int(snap["players"], "players", CC_MAX_PLAYERS)
    if snap["phase"] not in PHASE_NAMES:
        raise InvalidState(f"phase must be one of {PHASE_NAMES}, got {snap['phase']!r}")
    s.phase = PHASE_NAMES.index(snap["phase"])
    s.round = _small_int(snap["round"], "round", CC_ROUNDS) - 1
    s.first_player = _small_int(snap["first_player"], "first_player", CC_MAX_PLAYERS)
    s.plays = _small_int(snap["plays"], "plays", CC_HAND * CC_MAX_PLAYERS)
    stacks, seats = snap["stacks"], snap["seats"]
    if not isinstance(stacks, list) or len(stacks) > CC_MAX_STACKS:
        raise InvalidState("stacks must be a list with one entry per slot")
    for slot, value in enumerate(stacks):
        _fill_stack(&s.stacks[slot], value, slot)
    _fill_counts(s.discard_pile, snap["discards"], "discards")
    _fill_counts(s.box, snap["box"], "box")
    if not isinstance(seats, list) or len(seats) != s.players:
        raise InvalidState("seats must be a list with one entry per player")
    for seat, info in enumerate(seats):
        if not isinstance(info, dict) or not _SNAPSHOT_SEAT_KEYS <= set(info):
            raise InvalidState(f"seat {seat} must have keys {sorted(_SNAPSHOT_SEAT_KEYS)}")
        _fill_counts(s.seats[seat].reserve, info["reserve"], f"seat {seat} reserve")
        _fill_counts(s.seats[seat].hand, info["hand"], f"seat {seat} hand")
        _fill_counts(s.seats[seat].score_pile, info["score_pile"], f"seat {seat} score pile")
        if type(info["selected"]) is not bool:
            raise InvalidState(f"seat {seat}: selected must be true or false")
        s.seats[seat].selected = info["selected"]
        s.seats[seat].discards = _small_int(info["discards"], "discards", 3 * CC_ROUNDS)


cdef bytes _payload(const CCState* s):
    """players, phase, round, first, plays, PRNG (8 bytes), the seats, piles, stacks."""
    cdef int seat, slot
    out = bytearray((s.players, s.phase, s.round, s.first_player, s.plays))
    out += struct.pack("<Q", s.rng.state)
    for seat in range(s.players):
        p = &s.seats[seat]
        out += p.reserve[:CC_KINDS] + p.hand[:CC_KINDS] + p.score_pile[:CC_KINDS]
        out += bytes((p.selected, p.discards))
    out += s.discard_pile[:CC_KINDS] + s.box[:CC_KINDS]
    for slot in range(s.max_stacks):
        out.append(s.stacks[slot].len)
        out += s.stacks[slot].cards[:s.stacks[slot].len]
    return bytes(out)


cdef void _fill_from_payload(CCState* s, bytes data) except *:
    cdef int seat, slot, kind, at
    cdef int seat_size = 3 * CC_KINDS + 2
    if len(data) < 13 or not CC_MIN_PLAYERS <= data[0] <= CC_MAX_PLAYERS:
        raise InvalidState("stored cup-the-crab state is truncated or damaged")
    s.players, s.phase, s.round, s.first_player, s.plays = data[0], data[1], data[2], data[3], data[4]
    s.rng.state = struct.unpack_from("<Q", data, 5)[0]
    at = 13
    if len(data) < at + s.players * seat_size + 2 * CC_KINDS:
        raise InvalidState("stored cup-the-crab state is truncated")
    for seat in range(s.players):
        for kind in range(CC_KINDS):
            s.seats[seat].reserve[kind] = data[at + kind]
            s.seats[seat].hand[kind] = data[at + CC_KINDS + kind]
            s.seats[seat].score_pile[kind] = data[at + 2 * CC_KINDS + kind]
        if data[at + 3 * CC_KINDS] > 1:   # a flag is stored as 0 or 1, nothing else
            raise InvalidState("stored cup-the-crab state has a damaged selected flag")
        s.seats[seat].selected = data[at + 3 * CC_KINDS]
        s.seats[seat].discards = data[at + 3 * CC_KINDS + 1]
        at += seat_size
    for kind in range(CC_KINDS):
        s.discard_pile[kind] = data[at + kind]
        s.box[kind] = data[at + CC_KINDS + kind]
    at += 2 * CC_KINDS
    for slot in range(4 if s.players == 5 else 3):
        if at >= len(data) or data[at] > CC_STACK_CAP or at + 1 + data[at] > len(data):
            raise InvalidState("stored cup-the-crab state has a damaged stack")
        s.stacks[slot].len = data[at]
        for i in range(s.stacks[slot].len):
            if data[at + 1 + i] >= CC_KINDS:
                raise InvalidState("stored cup-the-crab state has an unknown card")
            s.stacks[slot].cards[i] = data[at + 1 + i]
        at += 1 + s.stacks[slot].len
    if at != len(data):
        raise InvalidState("stored cup-the-crab state has trailing bytes")


cdef void _check_position(CCState* s) except *:
    if not CC_MIN_PLAYERS <= s.players <= CC_MAX_PLAYERS:
        raise InvalidState(f"{NAME} is for 2 to 5 players, got {s.players}")
    _derive(s)
    problem = _position_problem(s)
    if problem:
        raise InvalidState(f"not a possible {NAME} position: {problem}")


# ---------------------------------------------------------------------------
# The Python face: the interface every game of core shares (core/interface.py)

cdef class CupCrabState(GameStateBase):
    """A Cup the Crab game in progress. Create with core.new_game("cup-the-crab", n)."""

    cdef CCState s

    cdef void* c_state(self) noexcept:
        return &self.s

    # -- who moves, what they may do ---------------------------------------

    @property
    def game(self) -> str:
        return NAME

    @property
    def players(self) -> int:
        return self.s.players

    @property
    def is_over(self) -> bool:
        return self.s.phase == PHASE_OVER

    @property
    def to_move(self) -> tuple:
        """Seats that may act now: every unselected seat, the seat to play, or none."""
        return tuple([seat for seat in range(self.s.players) if cc_may_act(&self.s, seat)])

    cdef int _seat(self, seat, error) except -1:
        if type(seat) is not int or not 0 <= seat < self.s.players:
            raise error(f"seat must be an integer from 0 to {self.s.players - 1}, got {seat!r}")
        return seat

    def legal_actions(self, int seat) -> list:
        """Legal action ids for seat, in increasing order (the order of legal_moves)."""
        cdef uint16_t buf[CC_MAX_LEGAL]
        cdef int n, i
        if not 0 <= seat < self.s.players:
            raise ValueError(f"seat must be from 0 to {self.s.players - 1}, got {seat}")
        n = cc_legal_actions(&self.s, seat, buf)
        out = PyList_New(n)
        for i in range(n):
            item = _ACTION_INTS[buf[i]]
            Py_INCREF(item)
            PyList_SET_ITEM(out, i, item)
        return out

    def legal_moves(self, seat) -> list:
        """Every legal move of seat in its JSON form, canonical, without duplicates."""
        cdef uint16_t buf[CC_MAX_LEGAL]
        cdef int n = cc_legal_actions(&self.s, self._seat(seat, ValueError), buf)
        return [_fresh_move(buf[i]) for i in range(n)]

    def move_of(self, int action) -> dict:
        return move_of_action(action)

    def action_of(self, move) -> int:
        """The id of a well-formed move (legal or not); IllegalMove if malformed."""
        return action_of_move(move, self.s.max_stacks)

    def observed_by(self, seat: int):
        """What seat is shown now that no later view keeps: nothing in Cup the Crab (C8)."""
        self._seat(seat, ValueError)
        return None

    def visible_move(self, actor: int, move: dict, viewer) -> dict:
        """A logged move of actor as viewer (None: a spectator) may see it now (C8).

        A selection stays secret from everyone but its maker until the game is over;
        every other move is public.
        """
        if move.get("type") == "select" and viewer != actor and self.s.phase != PHASE_OVER:
            return {"type": "select", "cards": None}
        return move

    # -- applying moves -----------------------------------------------------

    def verify_move(self, seat, move) -> int:
        """The action id of move if seat may make it now, else IllegalMove saying why."""
        cdef int who = self._seat(seat, IllegalMove)
        cdef int action = action_of_move(move, self.s.max_stacks)
        if not cc_is_legal(&self.s, who, action):
            raise IllegalMove(_why_illegal(&self.s, who, action))
        return action

    def apply(self, seat, move) -> None:
        """Applies move for seat; IllegalMove (state untouched) if it is not legal now."""
        cdef int action = self.verify_move(seat, move)
        cc_apply_action(&self.s, seat, action)

    def apply_action(self, int seat, int action) -> None:
        """The integer path of apply: the same checks, no JSON."""
        if not 0 <= seat < self.s.players:
            raise IllegalMove(f"seat must be from 0 to {self.s.players - 1}, got {seat}")
        if not cc_is_legal(&self.s, seat, action):
            if not 0 <= action < CC_N_ACTIONS:
                raise IllegalMove(f"action ids are 0 to {CC_N_ACTIONS - 1}, got {action}")
            raise IllegalMove(_why_illegal(&self.s, seat, action))
        cc_apply_action(&self.s, seat, action)

    def playout(self, seed=None) -> int:
        """Plays random moves to the end, in C without the GIL; returns the moves made.

        Uses the state's own PRNG, or a fresh one seeded with `seed`.
        """
        cdef Rng rng
        cdef int moves
        if seed is None:
            with nogil:
                moves = cc_random_playout(&self.s, &self.s.rng)
        else:
            rng_seed(&rng, fresh_seed(seed))
            with nogil:
                moves = cc_random_playout(&self.s, &rng)
        return moves

    def determinize(self, seat, seed=None, hand_allow=None) -> CupCrabState:
        """A complete position consistent with everything `seat` knows, hidden cards re-dealt.

        The other seats' Cup cards and the box are dealt again uniformly among the places
        each unseen card could be, and so is which of a selected seat's remaining cards
        are in its hand (see cc_determinize_within and docs/ai.md).  hand_allow, a list
        of card-kind bitmasks per seat (None: no limit), limits the kinds each re-dealt
        hand may hold.  The result depends on seat's view, hand_allow and seed alone.
        """
        cdef Rng rng
        cdef uint16_t allow[CC_MAX_PLAYERS]
        cdef int who = self._seat(seat, ValueError), i
        cdef CupCrabState out = CupCrabState.__new__(CupCrabState)
        rng_seed(&rng, fresh_seed(seed))
        if hand_allow is None:
            cc_determinize(&self.s, who, &rng, &out.s)
            return out
        if not isinstance(hand_allow, (list, tuple)) or len(hand_allow) != self.s.players:
            raise ValueError("hand_allow is a list of one card-kind bitmask per seat")
        for i in range(self.s.players):
            if type(hand_allow[i]) is not int or not 0 <= hand_allow[i] < 1 << CC_KINDS:
                raise ValueError(f"hand_allow[{i}] must be a bitmask of the {CC_KINDS} kinds")
            allow[i] = hand_allow[i]
        cc_determinize_within(&self.s, who, allow, &rng, &out.s)
        return out

    # -- what each seat sees ------------------------------------------------

    def view(self, seat=None) -> dict:
        """Everything `seat` may know (ruling C8); seat None is a spectator."""
        cdef const Seat* own = NULL
        if seat is not None:
            own = &self.s.seats[self._seat(seat, ValueError)]
        return {
            "game": NAME, "players": self.s.players, "seat": seat,
            "phase": PHASE_NAMES[self.s.phase], "round": self.s.round + 1,
            "first_player": self.s.first_player,
            "starting_player": _starting_player(&self.s),
            "to_move": list(self.to_move), "max_stacks": self.s.max_stacks,
            "stacks": self._stacks(), "discards": _card_list(self.s.discard_pile),
            "seats": [self._public_seat(i) for i in range(self.s.players)],
            "hand": None if own is NULL else _card_list(own.hand),
            "reserve": None if own is NULL else _card_list(own.reserve),
        }

    cdef list _stacks(self):
        out = []
        for slot in range(self.s.max_stacks):
            stack = &self.s.stacks[slot]
            out.append(None if stack.len == 0 else {
                "cards": [CARD_NAMES[stack.cards[i]] for i in range(stack.len)],
                "value": stack.value, "bottle": bool(stack.bottle)})
        return out

    cdef dict _public_seat(self, int seat):
        cdef const Seat* p = &self.s.seats[seat]
        cdef uint8_t left[CC_KINDS]
        cdef int kind
        for kind in range(CC_KINDS):
            left[kind] = p.reserve[kind] + p.hand[kind]
        return {
            "seat": seat, "cards_left": _total(left), "cups_left": _total(left, CC_CUP_KINDS),
            "crabs": left[CC_CRAB], "octopuses": left[CC_OCTOPUS], "bottles": left[CC_BOTTLE],
            "hand_size": _total(p.hand), "selected": bool(p.selected), "score": p.score,
            "score_cups": _total(p.score_pile, CC_CUP_KINDS),
            "score_pile": _card_list(p.score_pile), "discards": p.discards,
        }

    def result(self):
        """Scores, Cup counts, winners and ranking (ruling C9); None until the game is over."""
        if self.s.phase != PHASE_OVER:
            return None
        return self._ranked(())

    def forfeit_result(self, absent) -> dict:
        """The result if the game ended now because the seats in absent walked away: they
        rank last (tied among themselves), the others by C9's order of the points and
        Cups scored so far; with every seat absent, nobody wins (see docs/rules.md, "A
        game ended by a turn clock")."""
        absent = tuple(sorted(set(absent)))
        for seat in absent:
            self._seat(seat, ValueError)
        return self._ranked(absent)

    def _ranked(self, absent: tuple) -> dict:
        n = self.s.players
        scores = [self.s.seats[i].score for i in range(n)]
        cups = [_total(self.s.seats[i].score_pile, CC_CUP_KINDS) for i in range(n)]
        # An absent seat's key is below every present seat's (scores are never negative).
        keys = [(-1, -1) if i in absent else (scores[i], cups[i]) for i in range(n)]
        ranks = [1 + sum(other > keys[i] for other in keys) for i in range(n)]
        if len(absent) == n:  # every seat walked away: nobody won, all share the last place
            ranks = [n] * n
        order = sorted(range(n), key=lambda i: (ranks[i], i))
        return {
            "scores": scores, "cups": cups,
            "winners": [i for i in range(n) if ranks[i] == 1 and i not in absent],
            "ranking": [{"seat": i, "rank": ranks[i], "score": scores[i], "cups": cups[i]}
                        for i in order],
        }

    def snapshot(self) -> dict:
        """The complete position, hidden cards included (never show it to a player)."""
        return {
            "game": NAME, "players": self.s.players, "phase": PHASE_NAMES[self.s.phase],
            "round": self.s.round + 1, "first_player": self.s.first_player,
            "plays": self.s.plays, "stacks": self._stacks(),
            "discards": _card_list(self.s.discard_pile), "box": _card_list(self.s.box),
            "seats": [{
                "reserve": _card_list(self.s.seats[i].reserve),
                "hand": _card_list(self.s.seats[i].hand),
                "selected": bool(self.s.seats[i].selected),
                "score_pile": _card_list(self.s.seats[i].score_pile),
                "discards": self.s.seats[i].discards,
            } for i in range(self.s.players)],
        }

    # -- copies and storage ---------------------------------------------------

    def clone(self) -> CupCrabState:
        cdef CupCrabState copy = CupCrabState.__new__(CupCrabState)
        copy.s = self.s
        return copy

    def to_bytes(self) -> bytes:
        """The compact, versioned, checksummed form for storage (core.from_bytes reads it)."""
        return _codec.frame(NAME, _payload(&self.s))

    def __repr__(self) -> str:
        return (f"<CupCrabState {self.s.players} players, round {self.s.round + 1},"
                f" {PHASE_NAMES[self.s.phase]}, to move {list(self.to_move)}>")


# ---------------------------------------------------------------------------
# Constructors (core.new_game, core.from_bytes and core.from_snapshot call these)

cdef int _first_player(int players, options) except -2:
    """Checks players and options; the chosen first player, or -1 for a random one (C6)."""
    if not CC_MIN_PLAYERS <= players <= CC_MAX_PLAYERS:
        raise ValueError(f"{NAME} is for 2 to 5 players, got {players}")
    options = {} if options is None else options
    if not isinstance(options, dict) or not set(options) <= set(OPTIONS):
        raise ValueError(f"{NAME} options are a dict with keys among {list(OPTIONS)},"
                         f" got {options!r}")
    first = options.get("first_player")
    if first is not None and (type(first) is not int or not 0 <= first < players):
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}, got {first!r}")
    return -1 if first is None else first


def new_game(int players, seed=None, options=None) -> CupCrabState:
    cdef Rng rng
    cdef CupCrabState state = CupCrabState.__new__(CupCrabState)
    cdef int first = _first_player(players, options)
    rng_seed(&rng, fresh_seed(seed))
    cc_deal(&state.s, players, first, &rng)
    return state


def from_payload(bytes payload) -> CupCrabState:
    cdef CupCrabState state = CupCrabState.__new__(CupCrabState)
    _fill_from_payload(&state.s, payload)
    _check_position(&state.s)
    return state


def from_snapshot(snap, seed=None) -> CupCrabState:
    cdef CupCrabState state = CupCrabState.__new__(CupCrabState)
    _fill_from_snapshot(&state.s, snap)
    _check_position(&state.s)
    rng_seed(&state.s.rng, fresh_seed(seed))
    return state


def random_playouts(int players, long n, seed=0, options=None) -> dict:
    """Plays n random games in C with the GIL released; aggregate statistics.

    options are new_game's (a fixed first_player, or a random one per game).
    """
    cdef Rng master, game_rng
    cdef CCState s
    cdef double score_sum[CC_MAX_PLAYERS]
    cdef double win_sum[CC_MAX_PLAYERS]
    cdef double discards = 0, moves = 0, ties = 0
    cdef long g
    cdef int first = _first_player(players, options)
    if n < 1:
        raise ValueError(f"n must be a positive number of games, got {n}")
    rng_seed(&master, fresh_seed(seed))
    memset(score_sum, 0, sizeof(score_sum))
    memset(win_sum, 0, sizeof(win_sum))
    with nogil:
        for g in range(n):
            rng_seed(&game_rng, rng_next(&master))
            cc_deal(&s, players, first, &game_rng)
            moves += cc_random_playout(&s, &s.rng)
            ties += _tally(&s, score_sum, win_sum, &discards) > 1
    return {
        "game": NAME, "players": players, "games": n,
        "mean_score": [score_sum[i] / n for i in range(players)],
        "win_share": [win_sum[i] / n for i in range(players)],
        "mean_discards": discards / n, "mean_moves": moves / n, "tie_rate": ties / n,
    }


cdef int _tally(const CCState* s, double* score_sum, double* win_sum,
                double* discards) noexcept nogil:
    """Adds one finished game: scores, wins (a shared victory is split), discards.
    Returns the number of winners."""
    cdef bint won[CC_MAX_PLAYERS]
    cdef int seat, winners = cc_winners(s, won)
    for seat in range(s.players):
        score_sum[seat] += s.seats[seat].score
        discards[0] += s.seats[seat].discards
        if won[seat]:
            win_sum[seat] += 1.0 / winners
    return winners


cdef inline int _cups_in(const Seat* p) noexcept nogil:
    cdef int kind, n = 0
    for kind in range(CC_CUP_KINDS):
        n += p.score_pile[kind]
    return n


# ---------------------------------------------------------------------------
# Determinization (for the AI): a full position consistent with what one seat knows

cdef void cc_determinize(const CCState* s, int seat, Rng* rng, CCState* out) noexcept nogil:
    cc_determinize_within(s, seat, NULL, rng, out)


cdef void cc_determinize_within(const CCState* s, int seat, const uint16_t* hand_allow,
                                Rng* rng, CCState* out) noexcept nogil:
    """See cupcrab.pxd.  Reads only public fields and seat's own cards (ruling C8).

    The unseen Cups are what the deck holds minus what seat sees (its own cards, the
    stacks, the discards, the score piles); they are shuffled and dealt to the other
    seats by their public Cup counts, the rest to the box.  Each other seat that has
    selected then gets as hand a uniform draw of its public hand size among its
    remaining physical cards (those of kinds hand_allow[seat] permits).  The PRNG draws
    depend on public counts only.
    """
    cdef uint8_t pool[CUP_DECK_SIZE]
    cdef int unseen[CC_CUP_KINDS]
    cdef int kind, i, j, n = 0, dealt = 0, other, slot, want, m, at = 0
    cdef uint8_t tmp
    cdef Seat* p
    memcpy(out, s, sizeof(CCState))
    out.rng.state = rng_next(rng)          # the real PRNG state is nobody's to know
    if s.phase == PHASE_OVER:
        return
    for kind in range(CC_CUP_KINDS):
        unseen[kind] = (DECK_COUNT[kind] - s.discard_pile[kind]
                        - s.seats[seat].reserve[kind] - s.seats[seat].hand[kind])
        for other in range(s.players):
            unseen[kind] -= s.seats[other].score_pile[kind]
    for slot in range(CC_MAX_STACKS):
        for i in range(s.stacks[slot].len):
            if s.stacks[slot].cards[i] < CC_CUP_KINDS:
                unseen[s.stacks[slot].cards[i]] -= 1
    for kind in range(CC_CUP_KINDS):
        for i in range(unseen[kind]):
            pool[n] = kind
            n += 1
    # The other seats' Cup counts are public: shuffle just enough to deal them.
    for other in range(s.players):
        if other != seat:
            for kind in range(CC_CUP_KINDS):
                dealt += s.seats[other].reserve[kind] + s.seats[other].hand[kind]
    for i in range(dealt):
        j = i + rng_below(rng, n - i)
        tmp = pool[i]; pool[i] = pool[j]; pool[j] = tmp
    memset(out.box, 0, sizeof(out.box))
    for i in range(dealt, n):
        out.box[pool[i]] += 1
    for other in range(s.players):
        if other == seat:
            continue
        p = &out.seats[other]
        want = 0
        m = 0
        for kind in range(CC_CUP_KINDS):
            want += p.hand[kind]
            m += p.reserve[kind] + p.hand[kind]
            p.reserve[kind] = 0
            p.hand[kind] = 0
        for kind in range(CC_CUP_KINDS, CC_KINDS):
            want += p.hand[kind]
            p.reserve[kind] += p.hand[kind]
            p.hand[kind] = 0
        for i in range(m):
            p.reserve[pool[at + i]] += 1
        at += m
        p.hand_kinds = 0
        if want:
            _redraw_hand(p, want, 0x7FF if hand_allow == NULL else hand_allow[other], rng)


cdef void _redraw_hand(Seat* p, int want, unsigned int allow, Rng* rng) noexcept nogil:
    """Moves `want` physical cards of allowed kinds, drawn uniformly, from reserve to hand."""
    cdef uint8_t cards[CC_CARDS_PER_SEAT]
    cdef int kind, i, j, m = 0
    cdef uint8_t tmp
    for kind in range(CC_KINDS):
        if allow >> kind & 1:
            for i in range(p.reserve[kind]):
                cards[m] = kind
                m += 1
    if m < want:  # a limit no hand can meet was given: fall back to no limit
        _redraw_hand(p, want, 0x7FF, rng)
        return
    for i in range(want):
        j = i + rng_below(rng, m - i)
        tmp = cards[i]; cards[i] = cards[j]; cards[j] = tmp
        p.reserve[cards[i]] -= 1
        p.hand[cards[i]] += 1
        p.hand_kinds |= 1 << cards[i]


cdef CCState* cc_state_of(object state) except NULL:
    if not isinstance(state, CupCrabState):
        raise TypeError(f"expected a {NAME} state, got {type(state).__name__}")
    return &(<CupCrabState>state).s
