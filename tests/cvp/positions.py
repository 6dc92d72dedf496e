"""Builds Crabe vs Poulpe positions for tests: name the cards that matter, the rest is dealt.

Every position is a full snapshot that core.from_snapshot accepts: each card of the deck
is somewhere.  Cards the test does not name go to the draw pile of their colour (seat 0
draws crab cards, seat 1 octopus cards), or to the discard when the test names a pile.
"""

from collections import Counter
from typing import Any

import core
from core.games.cvp.rules import CARD_NAMES, COLOURS, DECKS


def ordered(cards):
    return sorted(cards, key=CARD_NAMES.index)


def snapshot(hands, *, draws=(None, None), pile=(), last_player=None, phase="turn",
             opener=0, lower=False, mode="asymmetrical", discard=(), round=1,
             first_player=0, winner=None, deck=None) -> dict[str, Any]:
    deck = dict(deck or DECKS[mode])
    named = Counter(list(hands[0]) + list(hands[1]) + list(pile) + list(discard))
    for given in draws:
        named += Counter(given or [])
    rest = Counter(deck)
    rest.subtract(named)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"more cards named than the deck holds: {-rest}")
    piles = []
    for seat in (0, 1):
        if draws[seat] is None:
            own = ordered(c for c in (+rest).elements() if c.startswith(COLOURS[seat]))
            rest.subtract(own)
            piles.append(own)
        else:
            piles.append(list(draws[seat]))
    return {
        "game": "crabe-vs-poulpe", "players": 2,
        "mode": mode if deck == DECKS.get(mode) else "custom",
        "deck": {n: deck[n] for n in CARD_NAMES if deck.get(n)}, "phase": phase,
        "round": round, "first_player": first_player, "opener": opener,
        "last_player": last_player, "lower": lower, "winner": winner, "pile": list(pile),
        "discard": ordered(list(discard) + list((+rest).elements())),
        "seats": [{"hand": ordered(hands[s]), "draw_pile": piles[s]} for s in (0, 1)],
    }


def position(hands, *, seed=0, **kwargs) -> core.GameState:
    return core.from_snapshot(snapshot(hands, **kwargs), seed=seed)


def play(state, move):
    """Applies move for the seat to move; returns the state."""
    state.apply(state.to_move[0], move)
    return state


def card(name):
    return {"type": "play", "card": name}


PASS = {"type": "pass"}
DECLINE = {"type": "decline"}
