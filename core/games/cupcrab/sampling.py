"""A full Cup the Crab position a seat could be in, drawn from what its view shows.

What the view hides, the other seats' cups (in hand and reserve) and the undealt box, is
dealt at random from the cups the seat has not seen (the deck less its own cards, the
stacks, the discards and every score pile); every other seat keeps its specials, its hand
size and its selection as the view counts them. The draw is uniform over those deals, so
it ignores what the seat may have learnt from earlier rounds' discards; an AI searching
from it determinizes again with what the seat knows (core.ai's history).
"""

import random
from collections import Counter
from typing import Any

from core.games.cupcrab import rules

SPECIALS = ("crab", "octopus", "bottle")
HAND = 3  # cards selected, then played, per round (CC_HAND in rules.pxd)
PLURAL = {"crab": "crabs", "octopus": "octopuses", "bottle": "bottles"}


def _cups_dealt(players: int) -> Counter:
    """Every cup card of a game of this size: in the box or dealt (the same in any deal)."""
    snap = rules.new_game(players, 0, None).snapshot()
    cards = Counter(snap["box"])
    for seat in snap["seats"]:
        cards.update(card for card in seat["reserve"] + seat["hand"] if card not in SPECIALS)
    return cards


def snapshot_from_view(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    players, me = view["players"], view["seat"]
    unseen = _cups_dealt(players)
    seen = list(view["hand"]) + list(view["reserve"]) + list(view["discards"])
    for stack in view["stacks"]:
        seen += stack["cards"] if stack else []
    for seat in view["seats"]:
        seen += seat["score_pile"]
    unseen.subtract(card for card in seen if card not in SPECIALS)
    pool = [card for card, count in unseen.items() for _ in range(count)]
    rng.shuffle(pool)
    seats = []
    for seat in view["seats"]:
        if seat["seat"] == me:
            reserve, hand = list(view["reserve"]), list(view["hand"])
        else:
            cards = [pool.pop() for _ in range(seat["cups_left"])]
            cards += [kind for kind in SPECIALS for _ in range(seat[PLURAL[kind]])]
            rng.shuffle(cards)
            hand, reserve = cards[:seat["hand_size"]], cards[seat["hand_size"]:]
        seats.append({"reserve": reserve, "hand": hand, "selected": seat["selected"],
                      "score_pile": list(seat["score_pile"]), "discards": seat["discards"]})
    in_hands = sum(seat["hand_size"] for seat in view["seats"])
    return {"game": view["game"], "players": players, "phase": view["phase"],
            "round": view["round"], "first_player": view["first_player"],
            "plays": HAND * players - in_hands if view["phase"] == "play" else 0,
            "stacks": list(view["stacks"]), "discards": list(view["discards"]),
            "box": pool, "seats": seats}


def redraw_snapshot(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same position: once the cups are dealt chance decides nothing more (the undealt
    box is never played), so there is nothing to draw again."""
    return snapshot
