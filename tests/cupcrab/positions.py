"""Builds Cup the Crab positions for tests: name the table and one hand, the rest is dealt.

Every position is a full snapshot that core.from_snapshot accepts, so each card is
accounted for as in a real game: the box holds 70 - 14 x players undealt Cups, each
seat owns 3 Crabs, 2 Octopuses and 2 Bottles, and the cards the test does not name
fill the seats' hands and reserves, the rest counting as already discarded.
"""

from collections import Counter
from typing import Any

import core

CUPS = {"cup-1": 10, "cup-2": 10, "cup-3": 10, "cup-4": 10, "cup-5": 10, "cup-6": 10,
        "cup-8": 5, "cup-10": 5}
ORDER = list(CUPS) + ["crab", "octopus", "bottle"]


def ordered(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.index)


def _stack(cards: list[str] | None) -> dict[str, Any] | None:
    if not cards:
        return None
    value = sum(int(c[4:]) for c in cards if c.startswith("cup-"))
    return {"cards": list(cards), "value": value, "bottle": "bottle" in cards}


def _take(pool: Counter, n: int) -> list[str]:
    """n Cups from the pool, highest first (test hands use low ones)."""
    out = []
    for card in reversed(list(CUPS)):
        while pool[card] > 0 and len(out) < n:
            pool[card] -= 1
            out.append(card)
    return out


def play_position(players: int, hand: list[str], stacks: list[list[str] | None], *,
                  round: int = 2, first_player: int = 0, seed: int = 0) -> core.GameState:
    """Round `round`, play phase, nobody has played yet: the starting player holds `hand`."""
    mover = (first_player + round - 1) % players
    held = 21 - 3 * (round - 1)
    named = [c for cards in stacks if cards for c in cards] + list(hand)
    cups = Counter(CUPS) - Counter(c for c in named if c.startswith("cup-"))
    box = _take(cups, 70 - 14 * players)
    own = [Counter({"crab": 3, "octopus": 2, "bottle": 2}) for _ in range(players)]
    own[mover].subtract(Counter(c for c in hand if not c.startswith("cup-")))
    table_bottles = sum(1 for cards in stacks if cards for c in cards if c == "bottle")
    for i in range(table_bottles):
        own[(mover + 1 + i) % players]["bottle"] -= 1
    seats, discards = [], []
    for seat in range(players):
        seat_hand = list(hand) if seat == mover else []
        specials = list((+own[seat]).elements())
        room = held - len(seat_hand)
        cards = _take(cups, room - len(specials)) + specials
        cards, dropped = cards[:room], cards[room:]
        discards += dropped
        if seat != mover:
            seat_hand, cards = cards[:3], cards[3:]
        seats.append({"reserve": ordered(cards), "hand": ordered(seat_hand), "selected": True,
                      "score_pile": [], "discards": len(dropped)})
    leftover = list((+cups).elements())
    for i in range(len(leftover)):
        seats[i % players]["discards"] += 1
    snapshot = {
        "game": "cup-the-crab", "players": players, "phase": "play", "round": round,
        "first_player": first_player, "plays": 0,
        "stacks": [_stack(s) for s in stacks]
        + [None] * ((4 if players == 5 else 3) - len(stacks)),
        "discards": ordered(discards + leftover), "box": ordered(box), "seats": seats,
    }
    return core.from_snapshot(snapshot, seed=seed)
