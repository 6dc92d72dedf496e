"""A full Crabe vs Poulpe position a seat could be in, drawn from what its view shows.

What the view hides is dealt at random from the cards the seat has not seen (the deck
less the pile, its hand, and the opponent's hand or its own draw pile while an effect
shows them): each draw pile from the unseen cards of its seat's colour (a draw pile only
ever holds its own colour: a Pincered card goes back to its colour's pile), then the
opponent's hand, then the discard, each of the size the view gives. The draw ignores
what the seat learnt earlier (a Capture, an Offer); an AI searching from it determinizes
again with what the seat knows (core.ai's history).
"""

import random
from collections import Counter
from typing import Any


def _take(pool: list[str], count: int, colour: str | None, rng: random.Random) -> list[str]:
    """count cards out of pool (of colour if given, the unseen ones of it first)."""
    fitting = [i for i, card in enumerate(pool) if colour is None or card.startswith(colour)]
    chosen = set(rng.sample(fitting, count))
    taken = [pool[i] for i in sorted(chosen)]
    pool[:] = [card for i, card in enumerate(pool) if i not in chosen]
    rng.shuffle(taken)
    return taken


def snapshot_from_view(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    me = view["seat"]
    other = 1 - me
    unseen = Counter(view["deck"])
    seen = list(view["pile"]) + list(view["hand"]) + list(view["revealed"] or []) + \
        list(view["draw_pile"] or [])
    unseen.subtract(seen)
    pool = [card for card, count in sorted(unseen.items()) for _ in range(count)]
    colours = {seat["seat"]: seat["colour"] for seat in view["seats"]}
    sizes = {seat["seat"]: seat for seat in view["seats"]}
    draws = {me: list(view["draw_pile"]) if view["draw_pile"] is not None else
             _take(pool, sizes[me]["draw_size"], colours[me], rng)}
    if view["draw_pile"] is not None:
        rng.shuffle(draws[me])
    draws[other] = _take(pool, sizes[other]["draw_size"], colours[other], rng)
    hands = {me: list(view["hand"]),
             other: list(view["revealed"]) if view["revealed"] is not None else
             _take(pool, sizes[other]["hand_size"], None, rng)}
    return {"game": view["game"], "players": 2, "mode": view["mode"], "deck": view["deck"],
            "phase": view["phase"], "round": view["round"],
            "first_player": view["first_player"], "opener": view["opener"],
            "last_player": view["last_player"], "lower": view["lower"],
            "winner": view["winner"], "pile": list(view["pile"]), "discard": pool,
            "seats": [{"hand": hands[seat], "draw_pile": draws[seat]} for seat in (0, 1)]}


def redraw_snapshot(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same position with what chance has not yet revealed drawn again: each draw pile
    put in order and shuffled with rng, so that the result depends on the piles' contents
    and rng alone (nobody ever sees a pile's order: a Search reshuffles the pile)."""
    seats = []
    for seat in snapshot["seats"]:
        pile = sorted(seat["draw_pile"])
        rng.shuffle(pile)
        seats.append({**seat, "draw_pile": pile})
    return {**snapshot, "seats": seats}
