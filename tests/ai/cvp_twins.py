"""Crabe vs Poulpe twins: positions that differ only in what one seat cannot see."""

import random

import core
from core.games.cvp.rules import CARD_NAMES


def view_twin(state, seat, seed):
    """The same position for `seat`'s view, with every card it cannot see dealt again.

    Built without the determinizer: the seat's colour is spread over its draw pile, the
    opponent's hand and the discard; the other colour over the opponent's draw pile,
    hand and the discard (sizes kept).  While the seat looks at the opponent's hand (its
    Pincer or Mimic), that hand stays as it is.
    """
    rng = random.Random(seed)
    snap = state.snapshot()
    other = seat ^ 1
    own = snap["seats"][seat]
    opp = snap["seats"][other]
    shown = state.view(seat)["revealed"] is not None
    pools = {c: [] for c in ("crab", "octopus")}
    for card in ([] if shown else opp["hand"]) + snap["discard"] + own["draw_pile"] + opp["draw_pile"]:
        pools[card.split("-")[0]].append(card)
    colour = ("crab", "octopus")
    for pool in pools.values():
        rng.shuffle(pool)
    own_pool, opp_pool = pools[colour[seat]], pools[colour[other]]
    own["draw_pile"], own_pool[:] = own_pool[:len(own["draw_pile"])], own_pool[len(own["draw_pile"]):]
    opp["draw_pile"], opp_pool[:] = opp_pool[:len(opp["draw_pile"])], opp_pool[len(opp["draw_pile"]):]
    rest = own_pool + opp_pool
    rng.shuffle(rest)
    size = 0 if shown else len(opp["hand"])
    order = {name: i for i, name in enumerate(CARD_NAMES)}
    if not shown:
        opp["hand"] = sorted(rest[:size], key=order.get)
    snap["discard"] = sorted(rest[size:], key=order.get)
    twin = core.from_snapshot(snap, seed=rng.getrandbits(64))
    assert twin.view(seat) == state.view(seat)
    return twin
