"""A table's pairings as series: for each pair of table-mates, the crosstable cell a series
of the same games would show (service/arena/crosstable.py, the same code), beside the
points the standings count.

A table's games are a series of its entrants: with `duplicate`, deal d's rotations are
its games d * players .. d * players + players - 1, each entrant in every seat of the same
cards, so the paired difference is the series' paired difference; without, every game has
its own cards, so each game is a deal of its own (one rotation) and the paired figures
are the per-game ones. The judged estimates (corrected, fitted) are there where the
tournament asked for them (`estimates: judged`) and each game's luck was found."""

from collections.abc import Sequence
from typing import Any

from service.arena.crosstable import Played, crosstable
from service.tournaments.storage import GameRow


def pairings(round_number: int, table: int, entrants: Sequence[str], games: Sequence[GameRow],
             rotations: int) -> list[dict[str, Any]]:
    """Every pair of the table's entrants (a before b in the table's order), with its
    verdict: a crosstable cell whose `a` and `b` index the table's entrants. rotations:
    the games a deal has (the table's players with duplicate deals, else 1)."""
    index = {entrant: i for i, entrant in enumerate(entrants)}
    played = [Played.of(game.deal, {index[e]: rank for e, rank in (game.ranks or {}).items()},
                        game.game_id,
                        None if game.scores is None else
                        {index[e]: points for e, points in game.scores.items()},
                        game.luck) for game in games]
    return [{"round": round_number, "table": table, "a": entrants[cell["a"]],
             "b": entrants[cell["b"]], "verdict": cell}
            for cell in crosstable(played, len(entrants), rotations)]
