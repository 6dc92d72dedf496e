"""Deliberately simple pure-Python reference model of "Crabe vs Poulpe".

Used only by tests, to check the compiled engine (``core``) differentially.  It
follows docs/rules.md and shared/rulings.md (P1..P9) as literally as possible: cards
are plain name strings ("crab-7", "octopus-mimic"), every zone is a plain list, and
every rule is a straightforward loop.  No performance work, on purpose.

The only thing copied from the engine's internals is its PRNG (SplitMix64 with
Lemire's bounded draw) and the documented shuffle (Fisher-Yates from the top down),
so that the same seed shuffles the same way and whole games can be compared card by
card.
"""

GAME = "crabe-vs-poulpe"
COLOURS = ["crab", "octopus"]  # seat 0 plays crab, seat 1 octopus
FACES = ["alpha", "1", "2", "pincer", "blind", "3", "4", "5", "heal", "capture",
         "6", "7", "8", "9", "10", "search", "mimic", "omega"]
CARD_NAMES = [colour + "-" + face for colour in COLOURS for face in FACES]
FACE_VALUE = {"alpha": 0, "omega": 11, "pincer": 2, "blind": 2, "heal": 5, "capture": 5,
              "search": 10, "mimic": 10}
FACE_EFFECT = {"alpha": "start", "1": "resist", "4": "offer", "7": "draw-and-discard",
               "8": "reverse", "pincer": "pincer", "blind": "blind", "heal": "heal",
               "capture": "capture", "search": "search", "mimic": "mimic"}
CANCELLABLE = ["pincer", "heal", "search", "capture", "mimic", "draw-and-discard", "offer",
               "reverse"]
COPYABLE = ["pincer", "blind", "offer", "heal", "capture", "draw-and-discard", "reverse",
            "search"]  # what Mimic may copy, in the documented order
DECISIONS = {"pincer": "pincer", "heal": "heal", "search": "search", "capture": "capture",
             "mimic": "mimic", "discard": "draw-and-discard", "offer": "offer"}
MODES = ["symmetrical", "asymmetrical", "custom"]


def symmetrical_deck():
    deck = {}
    for colour in COLOURS:
        for face in FACES:
            if face in ("alpha", "omega") or face.isdigit():
                deck[colour + "-" + face] = 2
    return deck


def asymmetrical_deck():
    deck = symmetrical_deck()
    for name in ["crab-pincer", "crab-heal", "crab-search",
                 "octopus-blind", "octopus-capture", "octopus-mimic"]:
        deck[name] = 1
    return deck


def colour_of(card):
    return card.split("-")[0]


def seat_of_colour(card):
    return COLOURS.index(colour_of(card))


def face_of(card):
    return card.split("-", 1)[1]


def value(card):
    face = face_of(card)
    if face in FACE_VALUE:
        return FACE_VALUE[face]
    return int(face)


def effect(card):
    return FACE_EFFECT.get(face_of(card), "none")


def canon(cards):
    return sorted(cards, key=CARD_NAMES.index)


def distinct(cards):
    out = []
    for c in canon(cards):
        if c not in out:
            out.append(c)
    return out


class SplitMix64:
    """The engine's PRNG (core/rng.pxd), step by step."""

    MASK = 2 ** 64 - 1

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, bound):
        m = (self.next() >> 32) * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            threshold = (2 ** 32 - bound) % bound
            while low < threshold:
                m = (self.next() >> 32) * bound
                low = m & 0xFFFFFFFF
        return m >> 32


def shuffle(cards, rng):
    """Fisher-Yates from the top (end of the list) down, as the engine does."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


class CrabeVsPoulpeModel:
    def __init__(self):
        self.mode = "symmetrical"
        self.deck = {}
        self.phase = "turn"
        self.round = 1
        self.first_player = 0
        self.opener = 0
        self.last_player = None
        self.lower = False
        self.winner = None
        self.pile = []       # bottom first
        self.discard = []
        self.hands = [[], []]
        self.draws = [[], []]  # bottom first: the last card is drawn next
        self.rng = SplitMix64(0)

    # ------------------------------------------------------------------ creation

    @classmethod
    def new_game(cls, seed, options=None):
        options = options or {}
        m = cls()
        if "deck" in options:
            m.deck = {n: options["deck"][n] for n in CARD_NAMES if options["deck"].get(n)}
            m.mode = options.get("mode", "custom")
        else:
            m.mode = options.get("mode", "symmetrical")
            m.deck = symmetrical_deck() if m.mode == "symmetrical" else asymmetrical_deck()
        m.rng = SplitMix64(seed)
        for seat in range(2):
            cards = []
            for name in CARD_NAMES:
                if colour_of(name) == COLOURS[seat]:
                    cards += [name] * m.deck.get(name, 0)
            shuffle(cards, m.rng)
            m.draws[seat] = cards
        for seat in range(2):
            m.refill(seat)
        if options.get("first_player") is None:
            m.first_player = m.rng.below(2)
        else:
            m.first_player = options["first_player"]
        m.opener = m.first_player
        return m

    @classmethod
    def from_snapshot(cls, snap, seed=0):
        if snap["game"] != GAME or snap["players"] != 2:
            raise ValueError("not a crabe-vs-poulpe snapshot")
        m = cls()
        m.mode = snap["mode"]
        m.deck = dict(snap["deck"])
        m.phase = snap["phase"]
        m.round = snap["round"]
        m.first_player = snap["first_player"]
        m.opener = snap["opener"]
        m.last_player = snap["last_player"]
        m.lower = snap["lower"]
        m.winner = snap["winner"]
        m.pile = list(snap["pile"])
        m.discard = list(snap["discard"])
        m.hands = [list(s["hand"]) for s in snap["seats"]]
        m.draws = [list(reversed(s["draw_pile"])) for s in snap["seats"]]
        m.rng = SplitMix64(seed)
        return m

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self):
        return self.phase == "over"

    @property
    def to_move(self):
        if self.phase == "over":
            return []
        if self.phase == "turn":
            if not self.pile:
                return [self.opener]
            return [1 - self.last_player]
        if self.phase == "response":
            return [1 - self.last_player]
        return [self.last_player]

    def may_play(self, card):
        """P1, P2: may card be played in a normal turn now?"""
        if not self.pile:
            return True
        top = self.pile[-1]
        if effect(card) == "start":
            return False
        if effect(card) == "blind" and face_of(top) != "omega":
            return True
        if self.lower:
            return value(card) < value(top)
        return value(card) > value(top)

    def legal_moves(self, seat):
        if seat not in self.to_move:
            return []
        other = 1 - seat
        moves = []
        if self.phase == "turn":
            for card in distinct(self.hands[seat]):
                if self.may_play(card):
                    moves.append({"type": "play", "card": card})
            if self.pile:
                moves.append({"type": "pass"})
        elif self.phase == "response":
            for card in distinct(self.hands[seat]):
                if effect(card) == "resist":
                    moves.append({"type": "play", "card": card})
            moves.append({"type": "decline"})
        elif self.phase == "pincer":
            for card in distinct(self.hands[other]):
                moves.append({"type": "pincer", "card": card})
        elif self.phase in ("heal", "discard"):
            for card in distinct(self.hands[seat]):
                moves.append({"type": "discard", "card": card})
        elif self.phase == "search":
            for card in distinct(self.draws[seat]):
                moves.append({"type": "search", "card": card})
        elif self.phase == "capture":
            moves = [{"type": "decline"}, {"type": "capture"}]
        elif self.phase == "mimic":
            moves.append({"type": "decline"})
            effects = [effect(card) for card in self.hands[other]]
            for e in COPYABLE:
                if e in effects:
                    moves.append({"type": "copy", "effect": e})
        elif self.phase == "offer":
            for card in distinct(self.hands[seat]):
                moves.append({"type": "give", "card": card})
        return moves

    # ------------------------------------------------------------------ moves

    def apply(self, seat, move):
        if type(seat) is not int or seat not in self.to_move:
            raise ValueError("not your turn")
        if not isinstance(move, dict):
            raise ValueError("a move is a dict")
        fields = {"play": ["card"], "pass": [], "decline": [], "capture": [],
                  "pincer": ["card"], "discard": ["card"], "search": ["card"],
                  "give": ["card"], "copy": ["effect"]}
        kind = move.get("type")
        if kind not in fields or sorted(move) != sorted(["type"] + fields[kind]):
            raise ValueError("malformed move")
        if move not in self.legal_moves(seat):
            raise ValueError("illegal move")
        other = 1 - seat
        if self.phase == "turn":
            if kind == "pass":
                self.end_round()
                return
            card = move["card"]
            self.hands[seat].remove(card)
            self.pile.append(card)
            self.last_player = seat
            self.lower = False
            if self.emptied(seat):
                return
            if effect(card) in CANCELLABLE:
                self.phase = "response"
            else:
                self.resolve(seat, effect(card))
        elif self.phase == "response":
            if kind == "decline":
                self.resolve(other, effect(self.pile[-1]))
                return
            self.hands[seat].remove(move["card"])
            self.pile.append(move["card"])
            self.last_player = seat
            if not self.emptied(seat):
                self.phase = "turn"
        elif self.phase == "pincer":
            card = move["card"]
            self.hands[other].remove(card)
            pile = self.draws[seat_of_colour(card)]
            pile.append(card)
            shuffle(pile, self.rng)
            if not self.emptied(other):
                self.phase = "turn"
        elif self.phase in ("heal", "discard"):
            self.hands[seat].remove(move["card"])
            self.discard.append(move["card"])
            if not self.emptied(seat):
                if self.phase == "heal":
                    self.refill(seat)
                self.phase = "turn"
        elif self.phase == "search":
            pile = self.draws[seat]
            for i in range(len(pile) - 1, -1, -1):  # the copy nearest the top
                if pile[i] == move["card"]:
                    del pile[i]
                    break
            self.hands[seat].append(move["card"])
            shuffle(pile, self.rng)
            self.phase = "turn"
        elif self.phase == "capture":
            if kind == "capture":
                self.hands[seat].append(self.pile.pop(-2))
            self.phase = "turn"
        elif self.phase == "mimic":
            if kind == "decline":
                self.phase = "turn"
            else:
                self.resolve(seat, move["effect"])
        elif self.phase == "offer":
            self.hands[seat].remove(move["card"])
            self.hands[other].append(move["card"])
            if not self.emptied(seat):
                self.phase = "turn"

    def resolve(self, player, what):
        """Resolves an effect for player; a choice becomes the phase of the same name."""
        other = 1 - player
        self.phase = "turn"  # unless a choice follows
        if what == "blind":
            self.draw(player)
        elif what == "reverse":
            self.lower = True
        elif what == "offer" and self.hands[player]:
            self.phase = "offer"
        elif what == "draw-and-discard":
            self.draw(player)
            if self.hands[player]:
                self.phase = "discard"
        elif what == "heal":
            if self.hands[player]:
                self.phase = "heal"
            else:
                self.refill(player)
        elif what == "search" and self.draws[player]:
            self.phase = "search"
        elif what == "capture" and len(self.pile) >= 2:
            self.phase = "capture"
        elif what in ("pincer", "mimic") and self.hands[other]:
            self.phase = what

    def emptied(self, seat):
        if not self.hands[seat] and not self.draws[seat]:
            self.phase = "over"
            self.winner = seat
            return True
        return False

    def draw(self, seat):
        if self.draws[seat]:
            self.hands[seat].append(self.draws[seat].pop())

    def refill(self, seat):
        while len(self.hands[seat]) < 5 and self.draws[seat]:
            self.draw(seat)

    def end_round(self):
        winner = self.last_player
        self.discard += self.pile
        self.pile = []
        self.last_player = None
        self.lower = False
        self.refill(winner)
        self.refill(1 - winner)
        self.round += 1
        self.opener = winner
        self.phase = "turn"

    # ------------------------------------------------------------------ output

    def pending(self):
        if self.phase in ("turn", "over"):
            return None
        top = self.pile[-1]
        if self.phase == "response":
            return {"card": top, "effect": effect(top), "seat": self.last_player}
        return {"card": top, "effect": DECISIONS[self.phase], "seat": self.last_player}

    def view(self, seat):
        deciding = seat is not None and seat in self.to_move
        revealed = None
        if deciding and self.phase in ("pincer", "mimic"):
            revealed = canon(self.hands[1 - seat])
        draw_pile = None
        if deciding and self.phase == "search":
            draw_pile = canon(self.draws[seat])
        return {
            "game": GAME, "players": 2, "seat": seat, "mode": self.mode,
            "phase": self.phase, "round": self.round,
            "first_player": self.first_player, "opener": self.opener,
            "to_move": self.to_move,
            "pile": list(self.pile),
            "last_player": self.last_player,
            "lower": self.lower, "pending": self.pending(),
            "discard_size": len(self.discard),
            "seats": [{"seat": i, "colour": COLOURS[i], "hand_size": len(self.hands[i]),
                       "draw_size": len(self.draws[i])} for i in range(2)],
            "hand": None if seat is None else canon(self.hands[seat]),
            "revealed": revealed,
            "draw_pile": draw_pile,
            "deck": {n: self.deck[n] for n in CARD_NAMES if self.deck.get(n)},
            "winner": self.winner,
        }

    def snapshot(self):
        return {
            "game": GAME, "players": 2, "mode": self.mode,
            "deck": {n: self.deck[n] for n in CARD_NAMES if self.deck.get(n)},
            "phase": self.phase, "round": self.round,
            "first_player": self.first_player, "opener": self.opener,
            "last_player": self.last_player, "lower": self.lower, "winner": self.winner,
            "pile": list(self.pile), "discard": canon(self.discard),
            "seats": [{"hand": canon(self.hands[i]),
                       "draw_pile": list(reversed(self.draws[i]))} for i in range(2)],
        }

    def result(self):
        if not self.is_over:
            return None
        w = self.winner
        left = [len(self.hands[i]) + len(self.draws[i]) for i in range(2)]
        return {"winner": w, "winners": [w], "cards_left": left, "rounds": self.round,
                "ranking": [{"seat": w, "rank": 1, "cards_left": 0},
                            {"seat": 1 - w, "rank": 2, "cards_left": left[1 - w]}]}
