"""Crabe vs Poulpe in C for the game-agnostic loops: its GameVTable (core/vtable.pxd),
read by the search of core/ismcts.pyx and by the batched vector of core/vector.pyx, and
its determinizer.

The observer's knowledge beyond its current view (what the game's history showed it) is
summed up by `info(state, seat, history)` as a `CvpKnow` (bytes): which cards it knows
are in the face-down discard, which are certainly in the opponent's hand, and which were
in the opponent's hand before a discard it could not see (in that hand, or among those
discards).  `cvp_determinize_known` (C, nogil) deals every other card uniformly among
the places it could be.  See docs/ai.md, section "Crabe vs Poulpe", for the argument.

Every decision of the game is sequential (one seat to move).  The opponent's discards
(Heal, Draw and Discard) and Search picks are hidden from the observer: the search draws
them at random and adds no tree edge for them (`_hidden`).
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.pycapsule cimport PyCapsule_New

from core.rng cimport Rng, rng_next, rng_below
from core.games.cvp.rules cimport (CvpState, CVP_PLAYERS, CVP_FACES, CVP_KINDS,
                                   CVP_MAX_CARDS, CVP_MAX_LEGAL, CVP_N_ACTIONS, PH_OVER,
                                   PH_PINCER, PH_MIMIC, PH_SEARCH, PH_HEAL, PH_DISCARD,
                                   cvp_apply_action, cvp_deal, cvp_legal_actions,
                                   cvp_policy_playout, cvp_random_playout, cvp_state_of)
from core.games.cvp.observation cimport (CvpMemory, CVP_OBSERVATION_SIZE, cvpm_record,
                                         cvpm_reset, cvp_write_observation)
from core.vtable cimport GameVTable, VTABLE_CAPSULE

import struct
from collections import Counter

from core.games.cvp.rules import CARD_NAMES

NAME = "crabe-vs-poulpe"


cdef enum:
    KNOW_HISTORY_BIT = 1        # CvpKnow.flags: built from the game's whole history
    MAX_DEPTH = 80 * 80 * 4     # rounds (<= cards) x plays a round x decisions a play


# What the observer knows beyond its view, read by the determinizer (all uint8: no padding).
ctypedef struct CvpKnow:
    uint8_t flags                       # KNOW_HISTORY: built from the whole history
    uint8_t hidden                      # the opponent's discards of unknown card
    uint8_t n_maybe
    uint8_t known_x[CVP_KINDS]          # copies the observer knows are in the discard
    uint8_t pinned[CVP_KINDS]           # copies certainly in the opponent's hand
    uint8_t maybe_kind[CVP_MAX_CARDS]   # copies in the opponent's hand before one of its
    uint8_t maybe_from[CVP_MAX_CARDS]   # hidden discards: in its hand, or one of its
                                        # hidden discards numbered maybe_from or later


INFO_SIZE = sizeof(CvpKnow)
KNOW_HISTORY = KNOW_HISTORY_BIT


cdef inline int _colour(int kind) noexcept nogil:
    return kind // CVP_FACES


cdef inline void _pick(uint8_t* cards, int n, int k, Rng* rng) noexcept nogil:
    """Moves a uniform random k-subset of cards[0..n) to the front, in random order."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(k):
        j = i + rng_below(rng, n - i)
        tmp = cards[i]; cards[i] = cards[j]; cards[j] = tmp


cdef bint _deal(const CvpState* s, int o, const CvpKnow* know, Rng* rng,
                CvpState* out) noexcept nogil:
    """The determinization proper; False (out unusable) when know contradicts s."""
    cdef int p = o ^ 1
    cdef int kind, i, j, n, c, m, free, n_pool, n_cand, n_maybe = 0, left
    cdef bint history = know != NULL and (know.flags & KNOW_HISTORY_BIT) != 0
    cdef bint revealed = s.phase != PH_OVER and s.to_move == o and (
        s.phase == PH_PINCER or s.phase == PH_MIMIC)
    cdef bint searching = s.phase == PH_SEARCH and s.to_move == o
    cdef int unl[CVP_KINDS]
    cdef uint8_t pinned[CVP_KINDS]
    cdef uint8_t known_x[CVP_KINDS]
    cdef uint8_t own_draw[CVP_KINDS]
    cdef uint8_t maybe_kind[CVP_MAX_CARDS]
    cdef uint8_t maybe_from[CVP_MAX_CARDS]
    cdef uint8_t pool[CVP_MAX_CARDS]
    cdef uint8_t cand[CVP_MAX_CARDS]
    cdef uint8_t tmp
    memset(pinned, 0, CVP_KINDS)
    memset(known_x, 0, CVP_KINDS)
    memset(own_draw, 0, CVP_KINDS)
    if history:
        memcpy(known_x, know.known_x, CVP_KINDS)
        if not revealed:
            memcpy(pinned, know.pinned, CVP_KINDS)
            n_maybe = know.n_maybe
            memcpy(maybe_kind, know.maybe_kind, n_maybe)
            memcpy(maybe_from, know.maybe_from, n_maybe)
    if revealed:                        # the hand the observer is looking at now
        memcpy(pinned, s.hand[p], CVP_KINDS)
    if searching:                       # the observer's own draw pile, shown now
        for i in range(s.draw_len[o]):
            own_draw[s.draw[o][i]] += 1
    # Cards the observer cannot locate, per kind.
    for kind in range(CVP_KINDS):
        unl[kind] = s.deck[kind] - s.hand[o][kind] - known_x[kind] - pinned[kind] - own_draw[kind]
    for i in range(s.pile_len):
        unl[s.pile[i]] -= 1
    for i in range(n_maybe):
        unl[maybe_kind[i]] -= 1
    m = s.discard_size
    free = s.hand_size[p]
    for kind in range(CVP_KINDS):
        if unl[kind] < 0:
            return False
        m -= known_x[kind]
        free -= pinned[kind]
    if m < 0 or free < 0 or (history and not revealed and m != know.hidden):
        return False
    for i in range(n_maybe):
        if maybe_from[i] >= m:
            return False
    out[0] = s[0]
    out.rng.state = rng_next(rng)       # the real PRNG state is nobody's to know
    memset(out.hand[p], 0, CVP_KINDS)
    memset(out.draw, 0, sizeof(out.draw))
    memcpy(out.discard, known_x, CVP_KINDS)
    # Draw piles: the observer's own (content known when it was shown, or from the
    # history; else any of its colour's unlocated cards), then the opponent's.
    for j in range(2):
        c = o if j == 0 else p
        n = 0
        if c == o and searching:
            for kind in range(CVP_KINDS):
                for i in range(own_draw[kind]):
                    pool[n] = kind
                    n += 1
            if n != s.draw_len[o]:
                return False
        else:
            for kind in range(c * CVP_FACES, (c + 1) * CVP_FACES):
                for i in range(unl[kind]):
                    pool[n] = kind
                    n += 1
            if n < s.draw_len[c] or (c == o and history and n != s.draw_len[o]):
                return False
        _pick(pool, n, s.draw_len[c], rng)
        for i in range(s.draw_len[c]):
            out.draw[c][i] = pool[i]
            if not (c == o and searching):
                unl[pool[i]] -= 1
    # The rest: the opponent's hidden discards, in order (a card that was in its hand
    # before discard j may be discard j or a later one), then its hand.
    n_cand = 0
    for kind in range(CVP_KINDS):
        for i in range(unl[kind]):
            cand[n_cand] = kind
            n_cand += 1
    for i in range(1, n_maybe):         # by maybe_from (insertion sort, few cards)
        j = i
        while j > 0 and maybe_from[j - 1] > maybe_from[j]:
            tmp = maybe_from[j]; maybe_from[j] = maybe_from[j - 1]; maybe_from[j - 1] = tmp
            tmp = maybe_kind[j]; maybe_kind[j] = maybe_kind[j - 1]; maybe_kind[j - 1] = tmp
            j -= 1
    j = 0
    for i in range(m):
        while j < n_maybe and maybe_from[j] <= i:
            cand[n_cand] = maybe_kind[j]
            n_cand += 1
            j += 1
        if n_cand == 0:
            return False
        left = rng_below(rng, n_cand)
        out.discard[cand[left]] += 1
        n_cand -= 1
        cand[left] = cand[n_cand]
    while j < n_maybe:
        cand[n_cand] = maybe_kind[j]
        n_cand += 1
        j += 1
    if n_cand != free:
        return False
    memcpy(out.hand[p], pinned, CVP_KINDS)
    for i in range(n_cand):
        out.hand[p][cand[i]] += 1
    out.hand_mask[p] = 0
    for kind in range(CVP_KINDS):
        if out.hand[p][kind]:
            out.hand_mask[p] |= <uint64_t>1 << kind
    return True


cdef void cvp_determinize_known(const CvpState* s, int observer, const CvpKnow* know,
                                Rng* rng, CvpState* out) noexcept nogil:
    """A complete state consistent with s as `observer` sees it and with `know`.

    Reads s's public fields, the observer's hand, the opponent's hand only while the
    observer is choosing a Pincer or Mimic (shown to it) and its own draw pile only while
    it chooses a Search (shown to it); never the rest of the hidden cards or the PRNG.
    know NULL (or without KNOW_HISTORY) uses the view alone.  Should know contradict s,
    the view alone is used.
    """
    if not _deal(s, observer, know, rng, out):
        _deal(s, observer, NULL, rng, out)


# -- the search (legal, apply and rewards serve the vector too) ------------------------

cdef int _players(const void* s) noexcept nogil:
    return CVP_PLAYERS


cdef int _actor(const void* s, int observer) noexcept nogil:
    cdef const CvpState* st = <const CvpState*>s
    return -1 if st.phase == PH_OVER else st.to_move


cdef bint _hidden(const void* s, int actor, int observer) noexcept nogil:
    """The opponent's discards and Search picks are face down to the observer (P8)."""
    cdef int phase = (<const CvpState*>s).phase
    return actor != observer and (phase == PH_HEAL or phase == PH_DISCARD
                                  or phase == PH_SEARCH)


cdef int _legal(const void* s, int seat, uint16_t* out) noexcept nogil:
    return cvp_legal_actions(<const CvpState*>s, seat, out)


cdef int _random_legal(const void* s, int seat, Rng* rng) noexcept nogil:
    """Listing and drawing: the hidden moves here (face-down discards, Search picks) are few."""
    cdef uint16_t legal[CVP_MAX_LEGAL]
    cdef int n = cvp_legal_actions(<const CvpState*>s, seat, legal)
    return legal[rng_below(rng, n)] if n else -1


cdef void _apply(void* s, int seat, int action) noexcept nogil:
    cvp_apply_action(<CvpState*>s, seat, action)


cdef void _determinize(const void* s, int observer, const void* info, Rng* rng,
                       void* out) noexcept nogil:
    cvp_determinize_known(<const CvpState*>s, observer, <const CvpKnow*>info, rng,
                          <CvpState*>out)


cdef int _playout(void* s, Rng* rng) noexcept nogil:
    return cvp_random_playout(<CvpState*>s, rng)


cdef int _policy_playout(void* s, Rng* rng) noexcept nogil:
    return cvp_policy_playout(<CvpState*>s, rng)


cdef void _rewards(const void* s, double* out) noexcept nogil:
    """1 for the winner (the first seat without cards, ruling P6), 0 for the other."""
    cdef int winner = (<const CvpState*>s).winner
    out[0] = 1.0 if winner == 0 else 0.0
    out[1] = 1.0 if winner == 1 else 0.0


# -- the batched vector -------------------------------------------------------------

cdef void _deal_like(void* s, const void* like, int first_player,
                     Rng* rng) noexcept nogil:
    """A new game with `like`'s deck and deck mode."""
    cdef const CvpState* setup = <const CvpState*>like
    cvp_deal(<CvpState*>s, setup.deck, setup.mode, first_player, rng)


cdef int _decider(const void* s) noexcept nogil:
    cdef const CvpState* st = <const CvpState*>s
    return -1 if st.phase == PH_OVER else st.to_move


cdef int _observation_size(int players) noexcept nogil:
    return CVP_OBSERVATION_SIZE


# The memory is both seats' (cvpm_record teaches each what the action shows it).
cdef void _forget(void* m) noexcept nogil:
    cvpm_reset(<CvpMemory*>m)


cdef void _record(void* m, const void* s, int seat, int action) noexcept nogil:
    cvpm_record(<CvpMemory*>m, <const CvpState*>s, seat, action)


cdef void _observe(const void* s, const void* m, int seat, float* out) noexcept nogil:
    cvp_write_observation(<const CvpState*>s, <const CvpMemory*>m + seat, seat, out)


cdef GameVTable VTABLE
VTABLE.name = b"crabe-vs-poulpe"
VTABLE.state_size = sizeof(CvpState)
VTABLE.info_size = sizeof(CvpKnow)
VTABLE.memory_size = CVP_PLAYERS * sizeof(CvpMemory)
VTABLE.n_actions = CVP_N_ACTIONS
VTABLE.max_legal = CVP_MAX_LEGAL
VTABLE.max_players = CVP_PLAYERS
VTABLE.max_depth = MAX_DEPTH
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
VTABLE.rank_rewards = _rewards       # two players: the winner's rank is the reward
VTABLE.place_rewards = _rewards
VTABLE.deal = _deal_like
VTABLE.decider = _decider
VTABLE.observation_size = _observation_size
VTABLE.forget = _forget
VTABLE.record = _record
VTABLE.observe = _observe


def vtable() -> object:
    """The vtable as a PyCapsule, for core.ismcts.search and core.vector.Vector."""
    return PyCapsule_New(&VTABLE, VTABLE_CAPSULE, NULL)


def raw_state(state) -> bytes:
    """The complete C state of a CrabeVsPoulpeState, for core.ismcts.search only.

    It holds hidden cards: the search hands it to the determinizer alone.
    """
    cdef CvpState* s = cvp_state_of(state)
    return (<char*>s)[:sizeof(CvpState)]


def determinize(state, int seat, info=None, seed=0, strict=False):
    """A new state: what cvp_determinize_known deals for `seat` (tests and tools).

    info: bytes from `info()` (or None for the view alone); seed: an integer.  strict:
    ValueError when info contradicts the state, instead of using the view alone.
    """
    cdef CvpState* s = cvp_state_of(state)
    cdef Rng rng
    cdef bytes raw
    cdef const CvpKnow* know = NULL
    if not 0 <= seat < CVP_PLAYERS:
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    if info is not None:
        raw = bytes(info)
        if len(raw) != sizeof(CvpKnow):
            raise ValueError(f"info is {sizeof(CvpKnow)} bytes, got {len(raw)}")
        know = <const CvpKnow*><const char*>raw
    rng.state = seed & 0xFFFFFFFFFFFFFFFF
    out = state.clone()
    if strict and know != NULL:
        if not _deal(s, seat, know, &rng, cvp_state_of(out)):
            raise ValueError("info contradicts the state: no determinization fits both")
        return out
    cvp_determinize_known(s, seat, know, &rng, cvp_state_of(out))
    return out


# -- what the history taught the observer ------------------------------------------------

_KIND = {name: kind for kind, name in enumerate(CARD_NAMES)}


def _kind(name, entry):
    kind = _KIND.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(f"not a logged {NAME} move with a known card: {entry!r}")
    return kind


class _Knowledge:
    """The observer's knowledge, updated move by move (see knowledge())."""

    def __init__(self):
        self.known_x = Counter()
        self.pinned = Counter()
        self.maybe = []                 # [kind, first hidden-discard slot it may be]
        self.hidden = 0

    def leave(self, card):
        """A card leaves the opponent's hand in the open (played, given, pincered)."""
        if self.pinned[card] > 0:
            self.pinned[card] -= 1
            return
        best = -1
        for i in range(len(self.maybe)):   # the copy with the fewest places goes
            if self.maybe[i][0] == card and (best < 0 or self.maybe[i][1] > self.maybe[best][1]):
                best = i
        if best >= 0:
            self.maybe.pop(best)

    def hidden_discard(self):
        """A face-down discard by the opponent: anything it held may be gone."""
        for card in list(self.pinned.elements()):
            self.maybe.append([card, self.hidden])
        self.pinned = Counter()
        self.hidden += 1

    def reveal(self, shown):
        """The opponent's hand is shown (a Counter of kinds)."""
        held = Counter([pair[0] for pair in self.maybe])
        for card in set(shown) | set(self.pinned) | set(held):
            if self.pinned[card] > shown[card]:
                raise ValueError("history does not lead to this position: a card known to"
                                 " be in the opponent's hand is not in the hand shown")
            gone = held[card] - min(held[card], shown[card] - self.pinned[card])
            self.known_x[card] += gone  # it could only have left by a hidden discard
            self.hidden -= gone
        if self.hidden < 0:
            raise ValueError("history does not lead to this position: the hand shown lacks"
                             " more cards than the opponent discarded")
        self.pinned = Counter(shown)
        self.maybe = []


def _kinds(cards, entry):
    if not isinstance(cards, (list, tuple)):
        raise ValueError(f"a revealed hand is a list of cards: {entry!r}")
    return Counter([_kind(c, entry) for c in cards])


def knowledge(state, seat, history) -> dict:
    """What `seat` learnt from `history` (the game's moves from the start as it sees them).

    Returns {"known_x": Counter, "pinned": Counter, "maybe": [(kind, first_slot)],
    "hidden": int} (kinds are card indices, see core.games.cvp.rules.CARD_NAMES): the copies the seat
    knows are in the face-down discard, those certainly in the opponent's hand, those that
    were there before one of the opponent's hidden discards (still there, or that discard
    or a later one: slots count the opponent's hidden discards from 0), and the number of
    the opponent's discards whose card the seat cannot place.  An entry by `seat` may carry
    "revealed", the opponent's hand as shown to it before that move (Pincer, Mimic); the
    current view's `revealed` is always used.
    ValueError when the history does not lead to `state` as the seat sees it.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    if not isinstance(history, (list, tuple)):
        raise ValueError("history is a list of {\"seat\": s, \"move\": m} entries")
    o, p = seat, seat ^ 1
    view = state.view(o)
    pile = []
    know = _Knowledge()
    for entry in history:
        try:
            actor, move = entry["seat"], entry["move"]
            what = move["type"]
        except (TypeError, KeyError):
            raise ValueError(f"not a logged {NAME} move: {entry!r}") from None
        if actor not in (0, 1) or type(actor) is not int:
            raise ValueError(f"not a seat of this game in history: {entry!r}")
        if actor == o and entry.get("revealed") is not None:
            know.reveal(_kinds(entry["revealed"], entry))
        card = move.get("card")
        if what == "play":
            played = _kind(card, entry)     # (no negative indices: wraparound is off)
            pile.append(played)
            if actor == p:
                know.leave(played)
        elif what == "pass":
            know.known_x.update(pile)
            pile = []
        elif what == "capture":
            if len(pile) < 2:
                raise ValueError(f"history captures with nothing covered: {entry!r}")
            taken = pile.pop(len(pile) - 2)
            if actor == p:
                know.pinned[taken] += 1
        elif what == "pincer":
            if actor == o:
                know.leave(_kind(card, entry))
        elif what == "discard":
            if actor == o:
                know.known_x[_kind(card, entry)] += 1
            else:
                know.hidden_discard()
        elif what == "give":
            if actor == o:
                know.pinned[_kind(card, entry)] += 1
            else:
                know.leave(_kind(card, entry))
        elif what not in ("decline", "copy", "search"):
            raise ValueError(f"not a logged {NAME} move: {entry!r}")
    if view["revealed"] is not None:
        know.reveal(_kinds(view["revealed"], "the current view"))
    # The history must lead to this position as the seat sees it.
    seats = view["seats"]
    maybe = Counter([pair[0] for pair in know.maybe])
    located = (Counter([_KIND[c] for c in view["hand"]]) + Counter(pile) + know.known_x
               + know.pinned + maybe)
    deck = {_KIND[c]: n for c, n in view["deck"].items()}
    own_left = sum([n - located[k] for k, n in deck.items() if k // CVP_FACES == o])
    problem = None
    if [CARD_NAMES[k] for k in pile] != view["pile"]:
        problem = "its round pile differs"
    elif sum(know.known_x.values()) + know.hidden != view["discard_size"]:
        problem = "its number of discards differs"
    elif sum(know.pinned.values()) > seats[p]["hand_size"]:
        problem = "the opponent's hand is smaller than the cards known in it"
    elif any([n > deck.get(k, 0) for k, n in located.items()]):
        problem = "it places more copies of a card than the deck has"
    elif own_left != seats[o]["draw_size"]:
        problem = "the seat's own draw pile would not hold the cards left of its colour"
    if problem:
        raise ValueError(f"history does not lead to this position: {problem}")
    return {"known_x": +know.known_x, "pinned": +know.pinned,
            "maybe": [tuple(pair) for pair in know.maybe], "hidden": know.hidden}


def pack(know: dict) -> bytes:
    """A knowledge() dict as the CvpKnow bytes the determinizer reads."""
    def counts(counter):
        return bytes(counter.get(kind, 0) for kind in range(CVP_KINDS))
    maybe = know["maybe"]
    pad = bytes(CVP_MAX_CARDS - len(maybe))
    return (bytes((KNOW_HISTORY_BIT, know["hidden"], len(maybe))) + counts(know["known_x"])
            + counts(know["pinned"]) + bytes(k for k, _ in maybe) + pad
            + bytes(e for _, e in maybe) + pad)


def info(state, int seat, history=None):
    """What `seat` knows beyond its view, as the bytes the determinizer reads (or None).

    history: the game's moves from the start, each {"seat": s, "move": m} with m as
    `state.visible_move(s, m, seat)` returns it (an entry by `seat` may add "revealed",
    the opponent's hand it was shown then); None: the view alone (the determinizer then
    also places the seat's own colour freely, since without the history it cannot tell
    its draw pile from the discard).
    """
    if history is None:
        return None
    return pack(knowledge(state, seat, history))


def determinize_for(state, int seat, history=None, seed=0):
    """core.ai.determinize for Crabe vs Poulpe: seat's view plus what its history taught."""
    return determinize(state, seat, info(state, seat, history), seed)
