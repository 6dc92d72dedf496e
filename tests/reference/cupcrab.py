"""Deliberately simple pure-Python reference model of "Cup the Crab".

Used only by tests, to check the compiled engine (``core``) differentially.
It follows docs/rules.md and shared/rulings.md (C1..C9) as literally as possible:
cards are plain name strings, containers are plain lists, and every rule is a
straightforward loop.  No performance work, on purpose.
"""

import itertools
import random

GAME = "cup-the-crab"

# Canonical order ("kind index" 0..10).
CARD_NAMES = [
    "cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10",
    "crab", "octopus", "bottle",
]
KIND = {name: i for i, name in enumerate(CARD_NAMES)}
CUP_VALUES = {
    "cup-1": 1, "cup-2": 2, "cup-3": 3, "cup-4": 4, "cup-5": 5, "cup-6": 6,
    "cup-8": 8, "cup-10": 10,
}
ROUNDS = 7
HAND = 3


def all_cups():
    """The 70 Cup cards, in canonical order."""
    cups = []
    for name in ["cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6"]:
        cups += [name] * 10
    for name in ["cup-8", "cup-10"]:
        cups += [name] * 5
    return cups


def specials_per_seat():
    return ["crab"] * 3 + ["octopus"] * 2 + ["bottle"] * 2


def canon(cards):
    """A new list with the cards in canonical order."""
    return sorted(cards, key=lambda c: KIND[c])


def is_cup(card):
    return card in CUP_VALUES


def cup_value(cards):
    total = 0
    for c in cards:
        if is_cup(c):
            total += CUP_VALUES[c]
    return total


def cup_count(cards):
    n = 0
    for c in cards:
        if is_cup(c):
            n += 1
    return n


def max_stacks_for(players):
    return 4 if players == 5 else 3


def remove_cards(pool, cards):
    """Remove each card of ``cards`` from list ``pool``; False if impossible (pool untouched)."""
    trial = list(pool)
    for c in cards:
        if c not in trial:
            return False
        trial.remove(c)
    pool[:] = trial
    return True


class CupCrabModel:
    def __init__(self):
        self.players = 0
        self.phase = "select"
        self.round = 1
        self.first_player = 0
        self.plays = 0
        self.stacks = []  # list of (list of card names) or None
        self.discards = []  # all discarded cards
        self.box = []
        self.reserve = []  # per seat
        self.hand = []  # per seat
        self.selected = []  # per seat
        self.score_pile = []  # per seat
        self.seat_discards = []  # per seat count

    # ------------------------------------------------------------------ creation

    @classmethod
    def from_snapshot(cls, snap):
        if snap["game"] != GAME:
            raise ValueError("wrong game")
        m = cls()
        m.players = int(snap["players"])
        if not 2 <= m.players <= 5:
            raise ValueError("bad player count")
        m.phase = snap["phase"]
        if m.phase not in ("select", "play", "over"):
            raise ValueError("bad phase")
        m.round = int(snap["round"])
        m.first_player = int(snap["first_player"])
        m.plays = int(snap["plays"])
        m.stacks = []
        for st in snap["stacks"]:
            if st is None:
                m.stacks.append(None)
            else:
                m.stacks.append(list(st["cards"]))
        if len(m.stacks) != max_stacks_for(m.players):
            raise ValueError("bad stack count")
        m.discards = list(snap["discards"])
        m.box = list(snap["box"])
        m.reserve = []
        m.hand = []
        m.selected = []
        m.score_pile = []
        m.seat_discards = []
        if len(snap["seats"]) != m.players:
            raise ValueError("bad seats")
        for s in snap["seats"]:
            m.reserve.append(list(s["reserve"]))
            m.hand.append(list(s["hand"]))
            m.selected.append(bool(s["selected"]))
            m.score_pile.append(list(s["score_pile"]))
            m.seat_discards.append(int(s["discards"]))
        return m

    @classmethod
    def new_deal(cls, players, rng, first_player=None):
        if not 2 <= players <= 5:
            raise ValueError("bad player count")
        cups = all_cups()
        rng.shuffle(cups)
        m = cls()
        m.players = players
        m.phase = "select"
        m.round = 1
        if first_player is None:
            first_player = rng.randrange(players)
        m.first_player = first_player
        m.plays = 0
        m.stacks = [None] * max_stacks_for(players)
        m.discards = []
        m.reserve = []
        m.hand = []
        m.selected = []
        m.score_pile = []
        m.seat_discards = []
        for p in range(players):
            dealt = cups[14 * p: 14 * (p + 1)]
            m.reserve.append(canon(dealt + specials_per_seat()))
            m.hand.append([])
            m.selected.append(False)
            m.score_pile.append([])
            m.seat_discards.append(0)
        m.box = canon(cups[14 * players:])
        return m

    # ------------------------------------------------------------------ queries

    @property
    def max_stacks(self):
        return max_stacks_for(self.players)

    @property
    def starting_player(self):
        return (self.first_player + self.round - 1) % self.players

    @property
    def is_over(self):
        return self.phase == "over"

    @property
    def to_move(self):
        if self.phase == "select":
            return [p for p in range(self.players) if not self.selected[p]]
        if self.phase == "play":
            return [(self.starting_player + self.plays) % self.players]
        return []

    def stack_has_bottle(self, i):
        return "bottle" in self.stacks[i]

    def free_slot(self):
        for i in range(self.max_stacks):
            if self.stacks[i] is None:
                return i
        return None

    def placements(self, card):
        """Legal placing moves for one card, in documented order."""
        moves = []
        for i in range(self.max_stacks):
            if self.stacks[i] is None:
                continue
            bottle = self.stack_has_bottle(i)
            if card == "octopus":
                ok = bottle
            else:  # cups, crab, bottle
                ok = not bottle
            if ok:
                moves.append({"type": "play", "card": card, "stack": i})
        if (is_cup(card) or card == "bottle") and self.free_slot() is not None:
            moves.append({"type": "new-stack", "card": card})
        return moves

    def legal_moves(self, seat):
        if seat not in self.to_move:
            return []
        if self.phase == "select":
            kinds = canon(self.reserve[seat])
            seen = set()
            for combo in itertools.combinations(kinds, HAND):
                seen.add(combo)  # combinations of a sorted list come out sorted
            triples = sorted(seen, key=lambda cs: [KIND[c] for c in cs])
            return [{"type": "select", "cards": list(cs)} for cs in triples]
        # play phase
        distinct = []
        for c in canon(self.hand[seat]):
            if c not in distinct:
                distinct.append(c)
        moves = []
        for c in distinct:
            moves += self.placements(c)
        if moves:
            return moves
        return [{"type": "discard", "card": c} for c in distinct]

    # ------------------------------------------------------------------ moves

    def apply(self, seat, move):
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError("bad seat")
        if seat not in self.to_move:
            raise ValueError("not your turn")
        if not isinstance(move, dict):
            raise ValueError("move must be a dict")
        # Normalise 'select' card order, then check membership among legal moves.
        t = move.get("type")
        if t == "select":
            if set(move.keys()) != {"type", "cards"}:
                raise ValueError("bad keys")
            cards = move["cards"]
            if not isinstance(cards, list) or len(cards) != HAND:
                raise ValueError("bad cards")
            for c in cards:
                if not isinstance(c, str) or c not in KIND:
                    raise ValueError("bad card")
            wanted = {"type": "select", "cards": canon(cards)}
        elif t == "play":
            if set(move.keys()) != {"type", "card", "stack"}:
                raise ValueError("bad keys")
            if not isinstance(move["stack"], int) or isinstance(move["stack"], bool):
                raise ValueError("bad stack")
            wanted = {"type": "play", "card": move["card"], "stack": move["stack"]}
        elif t in ("new-stack", "discard"):
            if set(move.keys()) != {"type", "card"}:
                raise ValueError("bad keys")
            wanted = {"type": t, "card": move["card"]}
        else:
            raise ValueError("bad type")
        if wanted not in self.legal_moves(seat):
            raise ValueError("illegal move")

        if t == "select":
            remove_cards(self.reserve[seat], wanted["cards"])
            self.hand[seat] = canon(wanted["cards"])
            self.selected[seat] = True
            if all(self.selected):
                self.phase = "play"
                self.plays = 0
            return

        card = wanted["card"]
        self.hand[seat].remove(card)
        if t == "play":
            i = wanted["stack"]
            if card in ("crab", "octopus"):
                self.score_pile[seat] = canon(self.score_pile[seat] + self.stacks[i] + [card])
                self.stacks[i] = None
            else:
                self.stacks[i].append(card)
        elif t == "new-stack":
            self.stacks[self.free_slot()] = [card]
        else:  # discard
            self.discards = canon(self.discards + [card])
            self.seat_discards[seat] += 1
        self.plays += 1
        if self.plays == HAND * self.players:
            self.end_round()

    def end_round(self):
        if self.round == ROUNDS:
            # docs/rules.md: "plays ... is 0 once the game is over"; round stays 7,
            # seats keep selected = True (their hands are empty).
            self.phase = "over"
            self.plays = 0
            return
        self.round += 1
        self.plays = 0
        self.phase = "select"
        for p in range(self.players):
            self.selected[p] = False
            self.hand[p] = []
        if self.round == ROUNDS:
            # Forced selection of the last three cards, applied automatically.
            for p in range(self.players):
                self.hand[p] = canon(self.reserve[p])
                self.reserve[p] = []
                self.selected[p] = True
            self.phase = "play"

    # ------------------------------------------------------------------ output

    def stacks_json(self):
        out = []
        for st in self.stacks:
            if st is None:
                out.append(None)
            else:
                out.append({"cards": list(st), "value": cup_value(st), "bottle": "bottle" in st})
        return out

    def view(self, seat):
        if seat is not None and not (0 <= seat < self.players):
            raise ValueError("bad seat")
        seats = []
        for p in range(self.players):
            left = self.reserve[p] + self.hand[p]
            seats.append({
                "seat": p,
                "cards_left": len(left),
                "cups_left": cup_count(left),
                "crabs": left.count("crab"),
                "octopuses": left.count("octopus"),
                "bottles": left.count("bottle"),
                "hand_size": len(self.hand[p]) if self.selected[p] else 0,
                "selected": self.selected[p],
                "score": cup_value(self.score_pile[p]),
                "score_cups": cup_count(self.score_pile[p]),
                "score_pile": canon(self.score_pile[p]),
                "discards": self.seat_discards[p],
            })
        return {
            "game": GAME,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "round": self.round,
            "first_player": self.first_player,
            "starting_player": self.starting_player,
            "to_move": self.to_move,
            "max_stacks": self.max_stacks,
            "stacks": self.stacks_json(),
            "discards": canon(self.discards),
            "seats": seats,
            "hand": None if seat is None else canon(self.hand[seat]),
            "reserve": None if seat is None else canon(self.reserve[seat]),
        }

    def snapshot(self):
        return {
            "game": GAME,
            "players": self.players,
            "phase": self.phase,
            "round": self.round,
            "first_player": self.first_player,
            "plays": self.plays,
            "stacks": self.stacks_json(),
            "discards": canon(self.discards),
            "box": canon(self.box),
            "seats": [
                {
                    "reserve": canon(self.reserve[p]),
                    "hand": canon(self.hand[p]),
                    "selected": self.selected[p],
                    "score_pile": canon(self.score_pile[p]),
                    "discards": self.seat_discards[p],
                }
                for p in range(self.players)
            ],
        }

    def result(self):
        if not self.is_over:
            return None
        scores = [cup_value(self.score_pile[p]) for p in range(self.players)]
        cups = [cup_count(self.score_pile[p]) for p in range(self.players)]
        ranking = []
        for p in range(self.players):
            better = 0
            for q in range(self.players):
                if (scores[q], cups[q]) > (scores[p], cups[p]):
                    better += 1
            ranking.append({"seat": p, "rank": 1 + better, "score": scores[p], "cups": cups[p]})
        ranking.sort(key=lambda r: (-r["score"], -r["cups"], r["seat"]))
        winners = sorted(r["seat"] for r in ranking if r["rank"] == 1)
        return {"scores": scores, "cups": cups, "winners": winners, "ranking": ranking}


def new_deal(players, rng, first_player=None):
    return CupCrabModel.new_deal(players, rng, first_player)


def make_snapshot(players, round, first_player, plays, stacks, seats, discards=(), phase="play"):
    """Build a consistent snapshot dict for hand-made positions.

    ``stacks``: list (len max_stacks) of card lists or None.
    ``seats``: list of dicts with "reserve", "hand", optional "selected" (default: phase=="play"),
    "score_pile" and "discards" (count).  The box gets every Cup card not used elsewhere.
    """
    box = all_cups()
    used = []
    for st in stacks:
        if st is not None:
            used += st
    used += list(discards)
    for s in seats:
        used += s.get("reserve", []) + s.get("hand", []) + s.get("score_pile", [])
    for c in used:
        if is_cup(c):
            box.remove(c)
    return {
        "game": GAME,
        "players": players,
        "phase": phase,
        "round": round,
        "first_player": first_player,
        "plays": plays,
        "stacks": [
            None if st is None else {"cards": list(st), "value": cup_value(st), "bottle": "bottle" in st}
            for st in stacks
        ],
        "discards": canon(discards),
        "box": canon(box),
        "seats": [
            {
                "reserve": canon(s.get("reserve", [])),
                "hand": canon(s.get("hand", [])),
                "selected": s.get("selected", phase == "play"),
                "score_pile": canon(s.get("score_pile", [])),
                "discards": s.get("discards", 0),
            }
            for s in seats
        ],
    }
