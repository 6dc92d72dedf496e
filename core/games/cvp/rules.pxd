# Crabe vs Poulpe in C structs: the documented interface of core/games/cvp/rules.pyx.
#
# A state is one flat struct (no pointers, about 480 bytes) so that cloning is a
# memcpy and every function below runs without the GIL.  A card is a "kind": its
# colour (the draw pile it belongs to) and its face (rank and effect), 2 x 18 = 36
# kinds in a fixed catalogue; a game's deck composition says how many copies of
# each kind exist (data, chosen at creation).  Two cards of the same kind are
# indistinguishable, so hands, the discard and the deck are counts per kind, while
# the ordered zones (the draw piles, whose order is hidden, and the round pile) are
# arrays of kinds.
#
# Seat 0 plays the Crab (blue) colour, seat 1 the Octopus (red) colour: a seat
# draws from the pile of its own colour, and a card always returns to the pile of
# its own colour (Pincer), whoever holds it.

from libc.stdint cimport uint8_t, uint16_t, uint64_t
from core.rng cimport Rng


cdef enum:
    CVP_PLAYERS = 2
    CVP_COLOURS = 2        # 0 crab (seat 0's pile), 1 octopus (seat 1's pile)
    CVP_FACES = 18         # faces per colour, in value order (see FACE_* in rules.pyx)
    CVP_KINDS = 36         # kind = colour * 18 + face
    CVP_MAX_PER_COLOUR = 40  # a deck holds 5 to 40 cards of each colour
    CVP_MIN_PER_COLOUR = 5
    CVP_MAX_CARDS = 80
    CVP_HAND = 5           # hands are refilled to 5 at the end of a round
    CVP_NO_SEAT = 255
    # Ranks: alpha 0, 1..10, omega 11.
    CVP_ALPHA = 0
    CVP_OMEGA = 11
    # Action ids, fixed for the game (docs/rules.md): the same id is the same move in
    # every state, and legal actions are listed in increasing id order.
    CVP_PLAY_BASE = 0      # 0..35: play a card (a normal turn, or Resist in a response)
    CVP_PASS = 36          # end the round (normal turn, not the round's first card)
    CVP_DECLINE = 37       # do not resist / do not capture / copy nothing (Mimic)
    CVP_CAPTURE = 38       # Capture: take the covered card
    CVP_PINCER_BASE = 39   # 39..74: Pincer, the opponent's card sent back to its pile
    CVP_DISCARD_BASE = 75  # 75..110: the card discarded by Heal or Draw and Discard
    CVP_SEARCH_BASE = 111  # 111..146: Search, the card taken from one's own draw pile
    CVP_GIVE_BASE = 147    # 147..182: Offer, the card given to the opponent
    CVP_COPY_BASE = 183    # 183..190: Mimic, the effect copied (EF_PINCER..EF_SEARCH)
    CVP_N_ACTIONS = 191
    CVP_MAX_LEGAL = 40     # no state has more legal actions (36 plays + pass)


cdef enum Effect:
    EF_NONE = 0
    EF_START = 1           # alpha: only opens a round; cannot be cancelled
    EF_RESIST = 2          # 1: cancels a cancellable effect (response window only)
    EF_PINCER = 3          # first copyable effect (Mimic copies EF_PINCER..EF_SEARCH)
    EF_BLIND = 4
    EF_OFFER = 5
    EF_HEAL = 6
    EF_CAPTURE = 7
    EF_DRAW_DISCARD = 8
    EF_REVERSE = 9
    EF_SEARCH = 10         # last copyable effect
    EF_MIMIC = 11
    EF_COUNT = 12


cdef enum Phase:
    PH_TURN = 0            # a normal turn: play a card or pass
    PH_RESPONSE = 1        # the opponent of the top card's player resists or declines
    PH_PINCER = 2          # the effect's player picks a card of the opponent's hand
    PH_HEAL = 3            # ... discards a card (then refills to 5)
    PH_SEARCH = 4          # ... takes a card from their own draw pile
    PH_CAPTURE = 5         # ... takes the covered card or declines
    PH_MIMIC = 6           # ... copies an effect of the opponent's hand or declines
    PH_DISCARD = 7         # ... discards a card (Draw and Discard)
    PH_OFFER = 8           # ... gives a card to the opponent
    PH_OVER = 9


ctypedef struct CvpState:
    uint8_t phase                        # a Phase
    uint8_t to_move                      # the deciding seat (kept for speed; derivable)
    uint8_t first_player                 # opener of round 1 (ruling P9)
    uint8_t opener                       # opener of the current round
    uint8_t last_player                  # seat that put the top card on the round pile,
                                         # CVP_NO_SEAT while the round pile is empty
    uint8_t lower                        # 1: the next card must be lower (Reverse resolved)
    uint8_t winner                       # CVP_NO_SEAT until the game is over
    uint8_t mode                         # 0 symmetrical, 1 asymmetrical (the option's label)
    uint16_t round                       # 1-based
    uint8_t pile_len                     # cards on the round pile (face up, public)
    uint8_t pile[CVP_MAX_CARDS]          # round pile, bottom first, top at pile_len - 1
    uint8_t draw_len[CVP_PLAYERS]        # public sizes of the draw piles
    uint8_t draw[CVP_PLAYERS][CVP_MAX_PER_COLOUR]  # draw piles (hidden), top at draw_len - 1;
                                         # pile i only ever holds cards of colour i
    uint8_t hand[CVP_PLAYERS][CVP_KINDS] # hands as counts per kind (hidden)
    uint8_t hand_size[CVP_PLAYERS]       # public (kept for speed)
    uint64_t hand_mask[CVP_PLAYERS]      # bit k set while hand[k] > 0 (kept for speed)
    uint8_t discard[CVP_KINDS]           # the common face-down discard (hidden from both)
    uint8_t discard_size                 # public (kept for speed)
    uint8_t deck[CVP_KINDS]              # the composition: copies of each kind in the game
    Rng rng                              # deals, shuffles (Pincer, Search) and playouts


# The C interface.  Callers keep to its preconditions; the Python class checks them.
cdef void cvp_deal(CvpState* s, const uint8_t* deck, int mode, int first_player,
                   Rng* rng) noexcept nogil
cdef int cvp_legal_actions(const CvpState* s, int seat, uint16_t* out) noexcept nogil
cdef bint cvp_is_legal(const CvpState* s, int seat, int action) noexcept nogil
cdef void cvp_apply_action(CvpState* s, int seat, int action) noexcept nogil
cdef int cvp_random_playout(CvpState* s, Rng* rng) noexcept nogil
cdef int cvp_policy_playout(CvpState* s, Rng* rng) noexcept nogil
cdef CvpState* cvp_state_of(object state) except NULL   # the C state inside a CrabeVsPoulpeState
