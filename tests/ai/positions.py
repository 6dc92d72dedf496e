"""Random Cup the Crab positions, and twins that differ only in what one seat cannot see."""

import random
from collections import Counter

import core

GAME = "cup-the-crab"
CUP_NAMES = ("cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10")


def random_position(seed: int, players: int | None = None):
    """A game after a random number of random moves (never over)."""
    rng = random.Random(seed)
    players = players or rng.randint(2, 5)
    state = core.new_game(GAME, players, seed=seed)
    for _ in range(rng.randrange(0, 25 * players)):
        if state.is_over:
            break
        seat = rng.choice(state.to_move)
        state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    if state.is_over:
        return random_position(seed + 10_000, players)
    return state


def _ordered(cards):
    order = list(CUP_NAMES) + ["crab", "octopus", "bottle"]
    return sorted(cards, key=order.index)


def hidden_twin(state, seat: int, seed: int):
    """The same position for `seat`, with every card it cannot see dealt again at random.

    The other seats keep their numbers of Cups and their Crabs, Octopuses and Bottles;
    which Cups they hold, which cards are in a selected seat's hand and what the box holds
    change.  Built independently of the determinizer under test.
    """
    rng = random.Random(seed)
    snap = state.snapshot()
    others = [i for i in range(state.players) if i != seat]
    pool = list(snap["box"])
    for i in others:
        pool += [c for c in snap["seats"][i]["reserve"] + snap["seats"][i]["hand"]
                 if c.startswith("cup-")]
    rng.shuffle(pool)
    for i in others:
        info = snap["seats"][i]
        held = info["reserve"] + info["hand"]
        cups = sum(c.startswith("cup-") for c in held)
        cards = pool[:cups] + [c for c in held if not c.startswith("cup-")]
        pool = pool[cups:]
        rng.shuffle(cards)
        size = len(info["hand"])
        info["hand"], info["reserve"] = _ordered(cards[:size]), _ordered(cards[size:])
    snap["box"] = _ordered(pool)
    twin = core.from_snapshot(snap, seed=rng.getrandbits(64))
    assert twin.view(seat) == state.view(seat)
    return twin


def counts(cards):
    return Counter(cards)
