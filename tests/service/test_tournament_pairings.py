"""Tournament pairings and standings, as pure functions of the rounds before: a round
robin meets every pairing once, a Swiss pairs by score without rematches where it can and
gives byes to the lowest placed who had none, and the tie-breaks order equal points."""

import itertools

from service.tournaments import pairings
from service.tournaments.standings import bye, standings, table_results


def play_round_robin(n: int, players: int = 2) -> list[tuple[list[list[str]], list[str]]]:
    entrants = [f"e{i}" for i in range(n)]
    met: pairings.Met = {}
    rounds = []
    for number in range(1, pairings.round_robin_rounds(n, players) + 1):
        tables, byes = pairings.round_robin(entrants, number, players, met)
        for table in tables:
            for entrant in table:
                met.setdefault(entrant, set()).update(set(table) - {entrant})
        rounds.append((tables, byes))
    return rounds


def test_a_round_robin_of_two_a_table_meets_every_pairing_exactly_once():
    for n in (2, 5, 8, 11):
        rounds = play_round_robin(n)
        pairs = [frozenset(table) for tables, _ in rounds for table in tables]
        assert sorted(pairs, key=sorted) == sorted(
            (frozenset(pair) for pair in itertools.combinations([f"e{i}" for i in range(n)], 2)),
            key=sorted)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        # with an odd count each entrant sits out exactly one round
        byes = [entrant for _, round_byes in rounds for entrant in round_byes]
        assert sorted(byes) == ([] if n % 2 == 0 else sorted(f"e{i}" for i in range(n)))


def test_a_round_robin_of_four_a_table_seats_everyone_each_round_but_the_remainder():
    rounds = play_round_robin(10, players=4)
    assert len(rounds) == 3
    for tables, byes in rounds:
        assert all(len(table) == 4 for table in tables) and len(byes) == 2
        assert len({e for table in tables for e in table} | set(byes)) == 10


def test_a_swiss_round_pairs_neighbours_in_the_standings_and_never_a_rematch_where_avoidable():
    order = ["a", "b", "c", "d", "e", "f"]
    tables, byes = pairings.swiss(order, 2, {}, set())
    assert tables == [["a", "b"], ["c", "d"], ["e", "f"]] and byes == []
    met = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}, "e": {"f"}, "f": {"e"}}
    tables, _ = pairings.swiss(order, 2, met, set())
    assert tables == [["a", "c"], ["b", "d"], ["e", "f"]] or \
        all(frozenset(t) not in ({"a", "b"}, {"c", "d"}, {"e", "f"}) for t in tables)
    assert not any(set(t) in ({"a", "b"}, {"c", "d"}, {"e", "f"}) for t in tables)


def test_a_swiss_backtracks_rather_than_leave_the_last_two_to_meet_again():
    # a-b-c-d: the greedy a-c leaves b-d, who met; a-d then b-c has no rematch
    met = {"a": {"b"}, "b": {"a", "d"}, "d": {"b"}, "c": set()}
    tables, _ = pairings.swiss(["a", "b", "c", "d"], 2, met, set())
    assert all(other not in met.get(first, ()) for first, other in tables)


def test_a_swiss_allows_a_rematch_only_when_every_pairing_was_played():
    met = {"a": {"b"}, "b": {"a"}}
    tables, _ = pairings.swiss(["a", "b"], 2, met, set())
    assert tables == [["a", "b"]]


def test_a_swiss_bye_goes_to_the_lowest_placed_entrant_who_had_none():
    tables, byes = pairings.swiss(["a", "b", "c", "d", "e"], 2, {}, had_bye={"e"})
    assert byes == ["d"] and all("d" not in table for table in tables)


def test_a_table_result_is_the_share_of_mates_finished_above_and_a_bye_a_full_point():
    results = {r.entrant: r for r in table_results(1, ["a", "b", "c"], [
        {"a": 1, "b": 2, "c": 2}, {"a": 3, "b": 1, "c": 2}])}
    assert results["a"].points == (0.5 + 0.5) / 2       # 1-0 and 0-1 against each
    assert results["b"].shares == {"a": 0.5, "c": 0.75}
    assert results["a"].wins == 1 and results["c"].wins == 0
    assert bye(2, "d").points == 1.0


def test_entrants_equal_on_points_and_every_tie_break_share_a_rank():
    # a beats b, c beats d; then a beats c, b beats d: a 2, b 1, c 1, d 0; b and c met
    # the same field (a and d) and beat the same entrant (d): equal on everything.
    one = table_results(1, ["a", "b"], [{"a": 1, "b": 2}]) + \
        table_results(1, ["c", "d"], [{"c": 1, "d": 2}])
    two = table_results(2, ["a", "c"], [{"a": 1, "c": 2}]) + \
        table_results(2, ["b", "d"], [{"b": 1, "d": 2}])
    ordered = standings(["a", "b", "c", "d"], one + two, "swiss")
    assert [(s.entrant, s.rank, s.points) for s in ordered] == \
        [("a", 1, 2.0), ("b", 2, 1.0), ("c", 2, 1.0), ("d", 4, 0.0)]


def test_a_round_robin_breaks_equal_points_by_sonneborn_berger():
    # a beats b and c, loses to d; b beats c and d; d beats a; c beats d.
    # a and b have 2 points: a beat b (2) and c (1): 3; b beat c and d (1 each): 2.
    # c and d have 1: c beat d (1): 1; d beat a (2): 2.
    games = [("a", "b"), ("a", "c"), ("d", "a"), ("b", "c"), ("b", "d"), ("c", "d")]
    results = [r for number, (winner, loser) in enumerate(games, 1)
               for r in table_results(number, [winner, loser], [{winner: 1, loser: 2}])]
    ordered = standings(["c", "d", "b", "a"], results, "round-robin")
    assert [(s.entrant, s.points, s.sonneborn_berger, s.rank) for s in ordered] == \
        [("a", 2.0, 3.0, 1), ("b", 2.0, 2.0, 2), ("d", 1.0, 2.0, 3), ("c", 1.0, 1.0, 4)]


def test_a_higher_buchholz_ranks_first_among_equal_points():
    # x and y both win one game; x beat a strong entrant (who won its other game), y a
    # weak one (who lost its other).
    results = table_results(1, ["x", "strong"], [{"x": 1, "strong": 2}]) + \
        table_results(1, ["y", "weak"], [{"y": 1, "weak": 2}]) + \
        table_results(2, ["strong", "weak"], [{"strong": 1, "weak": 2}]) + \
        [bye(2, "x"), bye(2, "y")]
    ordered = standings(["y", "x", "strong", "weak"], results, "swiss")
    assert [s.entrant for s in ordered][:2] == ["x", "y"]
    assert ordered[0].buchholz == 1.0 and ordered[1].buchholz == 0.0
    assert ordered[0].byes == 1 and ordered[0].rounds == 2
