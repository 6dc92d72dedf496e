# Cup the Crab in C structs: the documented interface of core/games/cupcrab/rules.pyx.
#
# A state is one flat struct (no pointers, about 500 bytes) so that cloning is a
# memcpy and every function below can run without the GIL.  Cards are counted by
# kind rather than tracked one by one: the rules never tell two copies of a kind
# apart, except for the order of the cards in a stack, which is public and kept.

from libc.stdint cimport uint8_t, uint16_t
from core.rng cimport Rng


cdef enum:
    CC_KINDS = 11          # card kinds: the 8 Cup values, then Crab, Octopus, Bottle
    CC_CUP_KINDS = 8       # kinds 0..7 are Cup cards worth 1,2,3,4,5,6,8,10
    CC_CRAB = 8
    CC_OCTOPUS = 9
    CC_BOTTLE = 10
    CC_MIN_PLAYERS = 2
    CC_MAX_PLAYERS = 5
    CC_MAX_STACKS = 4      # 3 stacks, or 4 with five players (ruling C1)
    CC_STACK_CAP = 72      # every Cup card of the game plus a Bottle fits in one stack
    CC_ROUNDS = 7
    CC_HAND = 3            # cards selected, then played, per round
    CC_CARDS_PER_SEAT = 21
    CC_TARGETS = 5         # a play action targets slot 0..3 or CC_NEW_STACK
    CC_NEW_STACK = 4
    CC_DISCARD_BASE = 55   # action ids: kind*5+target, then 55+kind, then 66+triple
    CC_SELECT_BASE = 66
    CC_TRIPLES = 286       # sorted triples of kinds (multisets of 3 among 11)
    CC_N_ACTIONS = 352
    CC_MAX_LEGAL = 286     # no state has more legal actions than this


cdef enum Phase:
    PHASE_SELECT = 0       # seats with selected == 0 secretly choose 3 cards
    PHASE_PLAY = 1         # the seat cc_current_seat() plays one card
    PHASE_OVER = 2


ctypedef struct Stack:
    uint8_t len                     # 0 means the slot is free
    uint8_t bottle                  # 1 once a Bottle was played (it is then the last card)
    uint16_t value                  # sum of the Cup values in the stack
    uint8_t cards[CC_STACK_CAP]     # card kinds in the order they were played


ctypedef struct Seat:
    uint8_t reserve[CC_KINDS]       # cards set aside for later rounds (hidden)
    uint8_t hand[CC_KINDS]          # this round's selection not yet played (hidden)
    uint8_t score_pile[CC_KINDS]    # claimed cards, including the claiming Crab/Octopus
    uint16_t hand_kinds             # bit k set while hand[k] > 0 (kept for speed)
    uint8_t selected                # 1 once this seat selected in the current round
    uint8_t discards                # cards this seat discarded in the game
    uint16_t score                  # Cup values in score_pile (kept, not recomputed)


ctypedef struct CCState:
    uint8_t players                 # 2..5
    uint8_t max_stacks              # 3, or 4 with five players
    uint8_t phase                   # a Phase
    uint8_t round                   # 0..6 (stays 6 once over)
    uint8_t first_player            # starting player of the first round
    uint8_t plays                   # cards played or discarded in this round
    uint8_t current                 # the seat to play in the play phase (kept for speed)
    uint8_t pending                 # seats that still have to select (select phase)
    uint8_t occupied                # bit per slot holding a stack (kept for speed)
    uint8_t bottled                 # bit per slot whose stack has a Bottle (kept for speed)
    Stack stacks[CC_MAX_STACKS]
    Seat seats[CC_MAX_PLAYERS]
    uint8_t discard_pile[CC_KINDS]  # discarded cards, face up, out of the game
    uint8_t box[CC_KINDS]           # undealt Cup cards, seen by nobody
    Rng rng                         # deals, and playouts that are given no other PRNG


# The C interface.  Callers keep to its preconditions; the Python class checks them.
cdef void cc_deal(CCState* s, int players, int first_player, Rng* rng) noexcept nogil
cdef int cc_current_seat(const CCState* s) noexcept nogil
cdef bint cc_may_act(const CCState* s, int seat) noexcept nogil
cdef int cc_legal_actions(const CCState* s, int seat, uint16_t* out) noexcept nogil
cdef int cc_random_legal(const CCState* s, int seat, Rng* rng) noexcept nogil
cdef bint cc_is_legal(const CCState* s, int seat, int action) noexcept nogil
cdef void cc_apply_action(CCState* s, int seat, int action) noexcept nogil
# Random moves to the end; returns the moves made.  The random policy: a selection is 3 of
# the seat's physical cards, uniformly; a play is uniform over the legal (card, target)
# pairs, two equal cards counted apart; a discard is a uniform card of the hand.  The state
# ends as cc_apply_action would leave it after the same moves.
cdef int cc_random_playout(CCState* s, Rng* rng) noexcept nogil
# The same loop with cheap rules of thumb for the plays (the AI's policy playouts): a Crab
# or an Octopus claims the most valuable stack it can if it holds Cups, otherwise a Cup or
# a Bottle is placed at random; selections stay random.
cdef int cc_policy_playout(CCState* s, Rng* rng) noexcept nogil

# The winners of a finished game by ruling C9 (most points, then most Cups): sets won[seat]
# for each seat and returns how many share the victory.  For the AI's and learners' rewards.
cdef int cc_winners(const CCState* s, bint* won) noexcept nogil


# Added for the AI (core/ismcts.pyx, core/games/cupcrab/search.pyx): sampling what a seat cannot see.
# cc_determinize keeps everything `seat` can see (the public table, counts and piles, its
# own reserve and hand) and re-deals every card it cannot see uniformly among the places
# each could be: the other seats' Cup cards and the box, then, for each other seat that
# has selected, which of its remaining cards are in hand.  hand_allow (NULL: no limit) is
# a kind bitmask per seat that the re-dealt hand of that seat must keep to (what a
# discard earlier in the round proved, see docs/ai.md).  Only public counts and `seat`'s
# own cards are read, so the result depends on `seat`'s information and rng alone.
cdef void cc_determinize(const CCState* s, int seat, Rng* rng, CCState* out) noexcept nogil
cdef void cc_determinize_within(const CCState* s, int seat, const uint16_t* hand_allow,
                                Rng* rng, CCState* out) noexcept nogil
cdef CCState* cc_state_of(object state) except NULL   # the C state inside a CupCrabState
