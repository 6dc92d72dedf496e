"""Standings: each entrant's points and tie-breaks, from the results of the tables so far.

A table's games give each entrant, against each table-mate, a share: 1 for every game it
finished above that mate, 0.5 level, 0 below, averaged over the table's games. Its
points for the round are the mean of its shares over its mates (0 to 1: at a table of
two, the share of the pairing's games it won, draws halved); a bye scores 1.

Tie-breaks, as chess's and lichess's Swiss count them, over the table-mates of each
round (mean over a round's mates, so that a table of four weighs as one of two):
- Buchholz: the sum of the opponents' points (how strong a field it met);
- Sonneborn-Berger: the sum of each opponent's points weighed by the share taken from it
  (beating strong opponents counts more than beating weak ones);
- game wins (games finished first).
A bye counts in neither Buchholz nor Sonneborn-Berger. The order: points, then for Swiss
Buchholz, Sonneborn-Berger, wins; for a round robin (where everyone meets the same
field, so Buchholz tells nothing) Sonneborn-Berger, wins. Entrants equal on all of them
share a rank and are listed in the order they entered.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

TIE_BREAKS = {"swiss": ["buchholz", "sonneborn_berger", "wins"],
              "round-robin": ["sonneborn_berger", "wins"]}


@dataclass(frozen=True)
class TableResult:
    """One entrant's round: its points, its share against each mate, its game wins; a
    bye has no mates."""
    round: int
    entrant: str
    points: float
    shares: dict[str, float]
    wins: int
    games: int


@dataclass
class Standing:
    entrant: str
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    wins: int = 0
    games: int = 0
    byes: int = 0
    rounds: int = 0
    rank: int = 0
    results: list[TableResult] = field(default_factory=list)


def table_results(round_number: int, entrants: Sequence[str],
                  games: Sequence[dict[str, int]]) -> list[TableResult]:
    """Each entrant's result at a table from its games' ranks (entrant -> rank, 1 first)."""
    results = []
    for entrant in entrants:
        mates = [mate for mate in entrants if mate != entrant]
        shares = {mate: sum(_share(ranks[entrant], ranks[mate]) for ranks in games) / len(games)
                  for mate in mates}
        results.append(TableResult(
            round_number, entrant, sum(shares.values()) / len(mates), shares,
            sum(1 for ranks in games if ranks[entrant] == 1), len(games)))
    return results


def bye(round_number: int, entrant: str) -> TableResult:
    return TableResult(round_number, entrant, 1.0, {}, 0, 0)


def _share(rank: int, other: int) -> float:
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


def standings(entrants: Sequence[str], results: Sequence[TableResult],
              tournament_format: str) -> list[Standing]:
    """Every entrant's standing, best first (entrants: in the order they entered)."""
    table = {entrant: Standing(entrant) for entrant in entrants}
    for result in results:
        if result.entrant in table:
            standing = table[result.entrant]
            standing.points += result.points
            standing.wins += result.wins
            standing.games += result.games
            standing.byes += not result.shares
            standing.rounds += 1
            standing.results.append(result)
    for standing in table.values():
        for result in standing.results:
            if result.shares:
                mates = len(result.shares)
                standing.buchholz += sum(table[m].points for m in result.shares) / mates
                standing.sonneborn_berger += sum(
                    share * table[m].points for m, share in result.shares.items()) / mates
    breaks = TIE_BREAKS[tournament_format]
    entered = {entrant: i for i, entrant in enumerate(entrants)}

    def key(standing: Standing) -> tuple[float, ...]:
        return (-_exact(standing.points), *(-_exact(getattr(standing, name)) for name in breaks))

    ordered = sorted(table.values(), key=lambda s: (key(s), entered[s.entrant]))
    for i, standing in enumerate(ordered):
        standing.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(standing) \
            else i + 1
    return ordered


def _exact(value: float) -> float:
    """Sums of fractions compared as equal when they are (0.1 + 0.2 and 0.3)."""
    return round(value, 9)


def shown(standing: Standing, names: dict[str, Any]) -> dict[str, Any]:
    """A standing as the API shows it."""
    return {"rank": standing.rank, "entrant": standing.entrant, **names[standing.entrant],
            "points": round(standing.points, 4), "buchholz": round(standing.buchholz, 4),
            "sonneborn_berger": round(standing.sonneborn_berger, 4), "wins": standing.wins,
            "games": standing.games, "byes": standing.byes, "rounds": standing.rounds}
