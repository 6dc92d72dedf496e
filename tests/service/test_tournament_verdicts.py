"""A table's pairings as series, as a pure function of its games: every pair of
table-mates at a table of three, paired by deal where the deals are duplicate, each game
its own deal where they are not."""

from service.arena.crosstable import estimate
from service.tournaments.runner import seats_of
from service.tournaments.storage import GameRow
from service.tournaments.verdicts import pairings

TABLE = ["p_a", "p_b", "ai-3"]


def game(index: int, deal: int, rotation: int, order: list[str]) -> GameRow:
    """A finished game whose seats (at rotation) finish in `order`, first to last."""
    ranks = {entrant: order.index(entrant) + 1 for entrant in seats_of(TABLE, rotation)}
    return GameRow(1, 0, index, f"t-1-0-{index}", deal, rotation, 0, 1, ranks,
                   {entrant: 10.0 - rank for entrant, rank in ranks.items()}, None)


ORDERS = [["p_a", "p_b", "ai-3"], ["p_b", "p_a", "ai-3"], ["p_a", "ai-3", "p_b"],
          ["ai-3", "p_a", "p_b"], ["p_a", "p_b", "ai-3"], ["p_a", "ai-3", "p_b"]]


def test_every_pair_of_a_table_of_three_gets_its_duplicate_paired_difference():
    games = [game(i, i // 3, i % 3, order) for i, order in enumerate(ORDERS)]
    found = pairings(1, 0, TABLE, games, rotations=3)
    assert [(p["a"], p["b"]) for p in found] == [("p_a", "p_b"), ("p_a", "ai-3"),
                                                  ("p_b", "ai-3")]
    a_b = found[0]["verdict"]
    # p_a against p_b: deal 0 margins +1, -1, +1; deal 1 +1, +1, +1
    assert a_b["paired_difference"] == estimate([1 / 3, 1.0]).body()
    assert a_b["deals"] == 2 and a_b["games"] == 6 and a_b["a_wins"] == 5
    assert a_b["points_difference"] is not None and a_b["corrected_difference"] is None


def test_without_duplicate_deals_each_game_is_a_deal_of_its_own():
    games = [game(i, i, i % 3, order) for i, order in enumerate(ORDERS)]
    [a_b, *_] = pairings(1, 0, TABLE, games, rotations=1)
    assert a_b["verdict"]["deals"] == 6
    assert a_b["verdict"]["paired_difference"] == a_b["verdict"]["difference"]
