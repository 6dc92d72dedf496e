"""Who sits with whom in a round: the round robin's schedule and the Swiss pairings.

Pure functions of the standings and the rounds before, so that any replica computes the
same round from the same database (the round is then written once: storage.py).

Tables of two (`players` 2):
- round robin: the circle method, every pairing once, in n - 1 rounds (n rounds with a
  bye each when n is odd);
- Swiss: the entrants in standings order; with an odd count, the lowest-placed entrant
  who has had no bye sits out (a bye scores a round's full point); then each entrant from
  the top meets the highest-placed one left whom it has not met, backtracking where that
  leaves someone without an opponent it has not met; only when no such pairing exists
  (more rounds than opponents) are rematches allowed, the fewest the greedy finds.

Tables of more (`players` k > 2), both formats: `n mod k` entrants sit out (byes, the
lowest placed without one before, so in a round robin the last in the round's order);
the others fill tables one at a time, each table starting from the highest-placed
entrant left and taking, one by one, the highest-placed entrant left who has met the
fewest of those already seated. Swiss orders by the standings; a round robin by a
rotation of the entrants that changes every round, over ceil((n - 1) / (k - 1)) rounds,
the fewest in which every pair could meet once (the greedy gets close to that and never
guarantees it: covering every pair in the fewest tables is the social golfer problem).
"""

import math
from collections.abc import Sequence

Met = dict[str, set[str]]  # each entrant's opponents so far

BACKTRACK_LIMIT = 50_000   # steps of the Swiss search before rematches are allowed


def round_robin_rounds(entrants: int, players: int) -> int:
    if players == 2:
        return entrants - 1 if entrants % 2 == 0 else entrants
    return max(1, math.ceil((entrants - 1) / (players - 1)))


def round_robin(entrants: Sequence[str], round_number: int, players: int,
                met: Met) -> tuple[list[list[str]], list[str]]:
    """Round `round_number` (1-based) of a round robin: its tables and its byes."""
    if players == 2:
        return _circle(list(entrants), round_number)
    shift = (round_number - 1) % len(entrants)
    order = list(entrants[shift:]) + list(entrants[:shift])
    return _tables_of(order, players, met, had_bye=set())


def _circle(entrants: list[str], round_number: int) -> tuple[list[list[str]], list[str]]:
    """The circle method: the first entrant stays, the others turn one place a round."""
    seats: list[str | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    n = len(seats)
    turning = seats[1:]
    step = (round_number - 1) % (n - 1)
    turning = turning[-step:] + turning[:-step] if step else turning
    circle = [seats[0]] + turning
    tables, byes = [], []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            byes.append(a or b)
        else:
            # the first entrant alternates its seat, so nobody always sits first
            tables.append([a, b] if (round_number + i) % 2 else [b, a])
    return tables, [bye for bye in byes if bye is not None]


def swiss(order: Sequence[str], players: int, met: Met,
          had_bye: set[str]) -> tuple[list[list[str]], list[str]]:
    """A Swiss round's tables and byes, from the entrants in standings order."""
    if players > 2:
        return _tables_of(list(order), players, met, had_bye)
    left = list(order)
    byes = _byes(left, len(left) % 2, had_bye)
    left = [entrant for entrant in left if entrant not in byes]
    pairs = _pair_without_rematch(left, met) or _pair_greedily(left, met)
    return [list(pair) for pair in pairs], byes


def _byes(order: list[str], count: int, had_bye: set[str]) -> list[str]:
    """The lowest placed entrants who have had no bye (the lowest placed if all have)."""
    fresh = [entrant for entrant in reversed(order) if entrant not in had_bye]
    rest = [entrant for entrant in reversed(order) if entrant in had_bye]
    return (fresh + rest)[:count]


def _pair_without_rematch(order: list[str], met: Met) -> list[tuple[str, str]] | None:
    """Each from the top with the highest placed it has not met; None if impossible
    (within BACKTRACK_LIMIT steps)."""
    steps = 0

    def search(left: list[str]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not left:
            return []
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            steps += 1
            if steps > BACKTRACK_LIMIT:
                return None
            if other in met.get(first, ()):
                continue
            found = search(rest[:i] + rest[i + 1:])
            if found is not None:
                return [(first, other)] + found
        return None

    return search(order)


def _pair_greedily(order: list[str], met: Met) -> list[tuple[str, str]]:
    """Each from the top with the highest placed it has met least."""
    left, pairs = list(order), []
    while left:
        first = left.pop(0)
        other = min(left, key=lambda candidate: (candidate in met.get(first, ()),
                                                 left.index(candidate)))
        left.remove(other)
        pairs.append((first, other))
    return pairs


def _tables_of(order: list[str], players: int, met: Met,
               had_bye: set[str]) -> tuple[list[list[str]], list[str]]:
    byes = _byes(order, len(order) % players, had_bye)
    left = [entrant for entrant in order if entrant not in byes]
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < players:
            chosen = min(range(len(left)), key=lambda i: (
                sum(seated in met.get(left[i], ()) for seated in table), i))
            table.append(left.pop(chosen))
        tables.append(table)
    return tables, byes
