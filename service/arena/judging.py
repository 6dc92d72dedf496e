"""A finished game judged for the arena's estimates: each seat's rank and points by
contestant, and the luck the judge (estimates.py) finds in its replay, by contestant.

Series and tournaments both call these at the point a game is settled, so the figures
their crosstables are made from are made one way (docs/arena.md)."""

import logging
from functools import partial
from typing import Any

import anyio

import core
from service.arena import estimates
from service.arena.seating import Contestant
from service.games.requests import Budget
from service.games.robots import Robots
from service.games.sessions import Session, Sessions

log = logging.getLogger("service.arena")

Ranked = dict[int, Any]   # contestant index -> a rank or points


def ranks_and_points(session: Session, who: list[int]) -> tuple[Ranked, Ranked | None]:
    """Each contestant's rank (1 the best), and its points where the game's ranking gives
    every seat a score (Cup the Crab's; else None). who[s]: the contestant at seat s."""
    ranking = (Sessions.result(session) or {}).get("ranking", ())
    ranks = {who[place["seat"]]: place["rank"] for place in ranking}
    scores = {who[place["seat"]]: place["score"] for place in ranking
              if isinstance(place.get("score"), (int, float))}
    return ranks, scores if len(scores) == len(who) else None


def strategy(robots: Robots, contestant: Contestant) -> dict[str, Any] | None:
    """An AI level's search as this server plays it (core.ai.suggest's budget); None for
    a player, whose choices the judge leaves alone."""
    if contestant.level is None:
        return None
    budget = robots.capped(Budget(level=contestant.level))
    return {"level": budget.level} if budget.level is not None else \
        {"iterations": budget.iterations}


async def luck(judge: estimates.Judge, robots: Robots, session: Session,
               contestants: list[Contestant], who: list[int], initial: bytes,
               entries: list[dict[str, Any]],
               options: dict | None) -> list[list[float]] | None:
    """The luck the judge finds in the game's replay by contestant ([a][b]: in a's margin
    over b), or None where it fails: the game then counts in the plain figures only (the
    corrected ones say how many games they hold). Seconds of CPU a game (docs/arena.md),
    in a worker thread."""
    seats = [estimates.Seat(strategy(robots, contestants[c])) for c in who]
    try:
        by_seat = await anyio.to_thread.run_sync(partial(
            estimates.luck, judge, core.from_bytes(initial), entries, seats,
            session.game_id, options))
    except Exception:  # a game the judge cannot read still counts, uncorrected
        log.exception("game %s not judged", session.game_id)
        return None
    by_contestant = [[0.0] * len(who) for _ in who]
    for s, a in enumerate(who):
        for t, b in enumerate(who):
            by_contestant[a][b] = round(by_seat[s][t], 6)
    return by_contestant
